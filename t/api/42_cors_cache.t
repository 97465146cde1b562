# Browsers and caches (issue 17, points 9 and 10).  CORS: with RankingCORSOrigins
# (mount /cors: two origins; off on /api and under /cors/competition/3) a preflight
# from a listed origin gets Access-Control-Allow-Origin (the origin), -Methods (the
# route's), -Headers and -Max-Age; answers to a listed origin carry
# Access-Control-Allow-Origin, Vary: Origin and Access-Control-Expose-Headers, errors
# included; an origin not listed, or a mount without the directive, gets no CORS
# header.  Cache-Control: private, no-cache on every answer that needs a token (200,
# 304, 404, 401, PUT), none on OPTIONS, no-store alone on /connect.  A bad origin in
# the configuration is refused at start-up.
# tests: 70 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp ();
use Apache::Test ();
use RankingTest;

my $reader = login('demo', 'demo');
my $editor = login('judge', 'judge');
ok(defined $reader && defined $editor, 'demo and judge log in') or die "cannot log in\n";

my $O = 'https://scores.example.org';
my $VOIE = '/competition/2/zone/27/heat/257/voie/2025';
my $ALLOW_H = 'Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID, Prefer, Idempotency-Key';
my $EXPOSE = 'ETag, Link, X-Total-Count, Retry-After, Location, Idempotent-Replayed';   # Location: a 201's new resource (part 3)

sub cors_headers {
    my ($res) = @_;
    return grep { /^access-control-/i } $res->headers->header_field_names;
}
sub vary_origin { return (join ',', $_[0]->header('Vary') // '') =~ /\bOrigin\b/i }

# ---- preflights ----
my $res = req(OPTIONS => "/cors$VOIE", undef, undef,
              { Origin => $O, 'Access-Control-Request-Method' => 'PUT',
                'Access-Control-Request-Headers' => 'authorization, content-type, if-match' });
is($res->code, 204, 'preflight from a listed origin: 204');
is($res->header('Access-Control-Allow-Origin'), $O, 'Access-Control-Allow-Origin: the origin');
is($res->header('Access-Control-Allow-Methods'), 'GET, HEAD, PUT, DELETE', "-Methods: the route's");
is($res->header('Access-Control-Allow-Headers'), $ALLOW_H, '-Headers');
is($res->header('Access-Control-Max-Age'), '600', '-Max-Age');
ok(vary_origin($res), 'Vary: Origin');
is($res->header('Allow'), 'GET, HEAD, PUT, DELETE', 'Allow as before');
is($res->content, '', 'no body');
ok(!defined $res->header('Cache-Control'), 'no Cache-Control on OPTIONS');

$res = req(OPTIONS => '/cors/competition/', undef, undef,
           { Origin => 'http://localhost:8080', 'Access-Control-Request-Method' => 'GET' });
is($res->header('Access-Control-Allow-Origin'), 'http://localhost:8080', 'the second listed origin');
is($res->header('Access-Control-Allow-Methods'), 'GET, HEAD, POST', 'the competition list: GET, HEAD, POST (part 3)');

for my $o ('https://evil.example', 'https://scores.example.org.evil', 'http://scores.example.org',
           'HTTPS://SCORES.EXAMPLE.ORG', 'null') {
    $res = req(OPTIONS => "/cors$VOIE", undef, undef,
               { Origin => $o, 'Access-Control-Request-Method' => 'PUT' });
    is($res->code, 204, "preflight from $o: 204");
    is(join(' ', cors_headers($res)), '', "an origin not listed ($o): no CORS header");
}
$res = req(OPTIONS => "/api$VOIE", undef, undef,
           { Origin => $O, 'Access-Control-Request-Method' => 'PUT' });
is(join(' ', cors_headers($res)), '', 'a mount without RankingCORSOrigins: no CORS header');
ok(!vary_origin($res), 'and no Vary: Origin');
$res = req(OPTIONS => '/cors/competition/3', undef, undef,
           { Origin => $O, 'Access-Control-Request-Method' => 'GET' });
is($res->code, 204, 'under a section with RankingCORSOrigins off: 204');
is(join(' ', cors_headers($res)), '', 'and no CORS header');

# ---- actual answers ----
$res = req(GET => "/cors$VOIE", $reader, undef, { Origin => $O });
is($res->code, 200, 'GET from a listed origin: 200');
is($res->header('Access-Control-Allow-Origin'), $O, 'Access-Control-Allow-Origin');
is($res->header('Access-Control-Expose-Headers'), $EXPOSE, 'Access-Control-Expose-Headers');
ok(vary_origin($res), 'Vary: Origin');
ok(!defined $res->header('Access-Control-Allow-Methods'), 'no -Methods outside a preflight');
is($res->header('Cache-Control'), 'private, no-cache', 'Cache-Control: private, no-cache');
my $etag = $res->header('ETag');

$res = req(GET => "/cors$VOIE", $reader, undef, { Origin => 'https://evil.example' });
is($res->code, 200, 'GET from an origin not listed: 200 (CORS is enforced by browsers)');
is(join(' ', cors_headers($res)), '', 'but no CORS header');
ok(vary_origin($res), 'Vary: Origin (the answer depends on it)');
$res = req(GET => "/cors$VOIE", $reader);
is(join(' ', cors_headers($res)), '', 'no Origin: no CORS header');

$res = req(GET => '/cors/competition/', undef, undef, { Origin => $O });
is($res->code, 401, 'no token: 401');
is($res->header('Access-Control-Allow-Origin'), $O, 'the 401 carries Access-Control-Allow-Origin');
is($res->header('Access-Control-Expose-Headers'), $EXPOSE, 'and -Expose-Headers');
$res = req(GET => '/cors/competition/999999', $reader, undef, { Origin => $O });
is($res->code, 404, 'an unknown id: 404');
is($res->header('Access-Control-Allow-Origin'), $O, 'the 404 carries Access-Control-Allow-Origin');
$res = req(PUT => "/cors$VOIE", $editor, { score => '77' }, { Origin => $O, 'If-Match' => $etag });
is($res->code, 200, 'a PUT from a listed origin with If-Match: 200');
is($res->header('Access-Control-Allow-Origin'), $O, 'Access-Control-Allow-Origin');
is($res->header('Cache-Control'), 'private, no-cache', 'Cache-Control: private, no-cache');
my $etag2 = $res->header('ETag');
$res = req(PUT => "/cors$VOIE", $editor, { score => '78' }, { Origin => $O, 'If-Match' => $etag });
is($res->code, 412, 'a stale If-Match: 412');
is($res->header('Access-Control-Allow-Origin'), $O, 'the 412 carries Access-Control-Allow-Origin');
$res = req(GET => '/cors/competition/3', $reader, undef, { Origin => $O });
is($res->code, 200, 'GET under the section with CORS off: 200');
is(join(' ', cors_headers($res)), '', 'no CORS header');
$res = req(POST => '/cors/connect', undef, { client_id => 'demo', client_secret => 'demo' },
           { Origin => $O });
is($res->code, 200, '/connect from a listed origin: 200');
is($res->header('Access-Control-Allow-Origin'), $O, '/connect carries Access-Control-Allow-Origin');
is(join(',', $res->header('Cache-Control')), 'no-store', '/connect: Cache-Control no-store alone');

# ---- Cache-Control on authenticated answers (any mount) ----
$res = req(GET => '/api/competition/', $reader);
is($res->header('Cache-Control'), 'private, no-cache', 'a list: private, no-cache');
$res = req(GET => "/api$VOIE", $reader, undef, { 'If-None-Match' => $etag2 });
is($res->code, 304, 'a 304');
is($res->header('Cache-Control'), 'private, no-cache', 'the 304 too');
$res = req(GET => "/cors$VOIE", $reader, undef, { 'If-None-Match' => $etag2, Origin => $O });
is($res->code, 304, 'a 304 to a listed origin');
is($res->header('Access-Control-Allow-Origin'), $O, 'carries Access-Control-Allow-Origin');
$res = req(GET => '/api/competition/999999', $reader);
is($res->header('Cache-Control'), 'private, no-cache', 'a 404 too');
$res = req(GET => '/api/competition/', undef);
is($res->header('Cache-Control'), 'private, no-cache', 'a 401 too');
$res = req(HEAD => '/api/competition/1/leaderboard', $reader);
is($res->header('Cache-Control'), 'private, no-cache', 'a leaderboard (HEAD) too');
$res = req(OPTIONS => '/api/competition/');
ok(!defined $res->header('Cache-Control'), 'OPTIONS: none');
is(req(PUT => "/api$VOIE", $editor, { score => undef })->code, 200, 'lane 2025 put back');

# ---- configuration: an origin that no browser sends is refused at start-up ----
my $so = "$FindBin::Bin/../modules/mod_ranking.so";
my $moddir = `apxs -q LIBEXECDIR`;
chomp $moddir;
for my $case (['https://scores.example.org/', 0], ['*', 0], ['https://Scores.example.org', 0],
              ['off https://a.example', 0], ['https://a.example http://[::1]:3000', 1]) {
    my ($origins, $ok) = @$case;
    my $conf = File::Temp->new(SUFFIX => '.conf');
    print {$conf} "ServerRoot /tmp\nServerName localhost\nListen 127.0.0.1:1\nErrorLog /dev/stderr\n"
        . "LoadModule mpm_event_module $moddir/mod_mpm_event.so\n"
        . "LoadModule dbd_module $moddir/mod_dbd.so\n"
        . "LoadModule socache_shmcb_module $moddir/mod_socache_shmcb.so\nLoadModule ranking_module $so\n"
        . "<Location /x>\n SetHandler ranking\n RankingCORSOrigins $origins\n</Location>\n";
    close $conf;
    # the server Apache::Test runs (under --asan, a wrapper that preloads the runtime)
    my $httpd = Apache::Test::vars('httpd') || 'apache2';
    my $out = `$httpd -t -f $conf 2>&1`;
    if ($ok) {
        is($?, 0, "RankingCORSOrigins $origins: accepted") or diag($out);
    }
    else {
        isnt($?, 0, "RankingCORSOrigins $origins: refused");
        like($out, qr/RankingCORSOrigins/, 'with a message naming the directive');
    }
}

done_testing();
