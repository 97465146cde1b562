# Bearer tokens: every protected route without a token is a JSON 401 with
# WWW-Authenticate: Bearer realm="ranking" (plus error="invalid_token" when a Bearer
# credential was sent); the scheme is case-insensitive; other schemes are refused.
# tests: 97 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $tok = login('demo', 'demo');
ok(defined $tok, 'demo logs in') or die "cannot log in\n";

# ---- one route of each kind, and the lane writes, without any token ----
my %seen;
my @routes = grep { !$seen{"$_->{variant}/$_->{key}"}++ } read_routes();
is(scalar @routes, 16, 'one route of each of the 16 read kinds');
for my $r (@routes) {
    check_401(req(GET => "/api$r->{path}"), 0, "GET $r->{path} without token");
}
my $voie = '/api/competition/2/zone/26/heat/253/voie/2012';
check_401(req(PUT => $voie, undef, '{"score":"x"}'), 0, 'PUT voie without token');
check_401(req(DELETE => $voie), 0, 'DELETE voie without token');
is(req(GET => $voie, $tok)->code, 200, '(the voie is still there)');
# the token check comes first: before the route (404) and the method (405)
check_401(req(GET => '/api/no/such/route'), 0, 'unknown route without token');
check_401(req(GET => '/api/competition/abc'), 0, 'malformed id without token');
check_401(req(GET => '/api/competition/999'), 0, 'unknown competition without token');
check_401(req(POST => '/api/competition/'), 0, 'wrong method without token');
check_401(req(GET => '/api'), 0, 'the mount point itself without token');
for my $m ('/a', '/b', '/short', '/small', '/deep/mount/v1') {
    check_401(req(GET => "$m/competition/"), 0, "$m: GET /competition/ without token");
}
my $res = req(HEAD => '/api/competition/');
is($res->code, 401, 'HEAD without token: 401');
is($res->header('WWW-Authenticate'), WWW_AUTH, 'HEAD without token: WWW-Authenticate');

# ---- bad credentials ----
my $unknown = join '', map { ('A' .. 'Z', 'a' .. 'z', 0 .. 9, '-', '_')[rand 64] } 1 .. 43;
my %invalid = (
    'garbage token'             => 'Bearer !!not a token!!',
    'short garbage token'       => 'Bearer abc',
    'well-formed unknown token' => "Bearer $unknown",
    'valid token plus a char'   => "Bearer ${tok}x",
    'valid token minus a char'  => 'Bearer ' . substr($tok, 0, 42),
    'valid token, other case'   => 'Bearer ' . ($tok =~ tr/a-zA-Z/A-Za-z/r),
    'lower-case scheme, bad token' => "bearer $unknown",
);
for my $why (sort keys %invalid) {
    check_401(req(GET => '/api/competition/1', undef, undef, { Authorization => $invalid{$why} }),
              1, $why);
}
my %plain = (
    'Basic scheme'            => 'Basic ZGVtbzpkZW1v',
    'Basic scheme with token' => "Basic $tok",
    'other scheme'            => "Token $tok",
    'Bearer without credential' => 'Bearer',
    'empty Authorization'     => '',
);
for my $why (sort keys %plain) {
    check_401(req(GET => '/api/competition/1', undef, undef, { Authorization => $plain{$why} }),
              0, $why);
}
check_401(req(GET => "/api/competition/1?access_token=$tok"), 0,
          'token in the query string (not supported)');

# ---- the scheme is case-insensitive ----
for my $scheme (qw(Bearer bearer BEARER bEaReR)) {
    check_json(req(GET => '/api/competition/1', undef, undef,
                   { Authorization => "$scheme $tok" }),
               200, { status => 'success', competition => $COMP{1} }, "scheme '$scheme' works");
}

# ---- a token works on every mount of the server (same database) ----
for my $m ('/a', '/b', '/short', '/small', '/deep/mount/v1') {
    is(req(GET => "$m/competition/1", $tok)->code, 200, "$m accepts a token issued by /api");
}
my $jt = login('judge', 'judge', '/deep/mount/v1');
is(req(GET => '/api/competition/1', $jt)->code, 200, '/api accepts a token issued by /deep/mount/v1');

done_testing();
