# POST /connect: success body, token shape, Cache-Control, bad credentials (401),
# bad bodies (400), Content-Type (415), body limit (413), methods (405, OPTIONS).
# tests: 85 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(time);
use RankingTest;

my $CREDS = '{"client_id":"demo","client_secret":"demo"}';

# ---- success ----
my $res = req(POST => '/api/connect', undef, $CREDS);
is($res->code, 200, 'demo/demo: 200');
like($res->header('Content-Type') // '', qr{^application/json\b}, 'Content-Type application/json');
my $d = decode($res) // {};
is(json_cmp([sort keys %$d], [qw(access_token expires_in status token_type)]), undef,
   'keys: status, access_token, token_type, expires_in');
is(json_cmp($d->{status}, 'success'), undef, 'status "success"');
is(json_cmp($d->{token_type}, 'Bearer'), undef, 'token_type "Bearer"');
is(json_cmp($d->{expires_in}, 3600), undef, 'expires_in 3600 (a number)');
like($d->{access_token} // '', qr/^[A-Za-z0-9_-]{43}$/, 'access_token: 43 base64url characters (256 bits)');
like($res->header('Cache-Control') // '', qr/\bno-store\b/, 'Cache-Control: no-store');
my $tok1 = $d->{access_token};

my $tok2 = login('demo', 'demo');
ok(defined $tok2 && defined $tok1 && $tok2 ne $tok1, 'a second login gives another token');
is(req(GET => '/api/competition/1', $tok1)->code, 200, 'the first token works');
is(req(GET => '/api/competition/1', $tok2)->code, 200, 'the second token works');
ok(defined login('judge', 'judge'), 'judge/judge logs in');

for my $ct ('application/json; charset=utf-8', 'application/json;charset=UTF-8',
            'Application/JSON') {
    $res = req(POST => '/api/connect', undef, $CREDS, { 'Content-Type' => $ct });
    is($res->code, 200, "Content-Type '$ct' accepted");
}
$res = req(POST => '/api/connect/', undef, $CREDS);
is($res->code, 200, '/connect/ (trailing slash) works');
$res = req(POST => '/api/connect', undef,
           '{"grant_type":"client_credentials","client_id":"demo","client_secret":"demo"}');
is($res->code, 200, 'keys other than client_id / client_secret are ignored (grant_type)');
$res = req(POST => '/api/connect', undef, qq({"client_id" : "demo",\n "client_secret":"demo"}\n));
is($res->code, 200, 'whitespace and a final newline are fine');
$res = req(POST => '/api/connect', undef, $CREDS, { Authorization => 'Bearer garbage' });
is($res->code, 200, '/connect needs no token (a bad one is ignored)');

# lifetime per mount
$d = decode(req(POST => '/short/connect', undef, $CREDS)) // {};
is(json_cmp($d->{expires_in}, 2), undef, '/short: expires_in 2');
$d = decode(req(POST => '/deep/mount/v1/connect', undef, $CREDS)) // {};
is(json_cmp($d->{expires_in}, 3600), undef, '/deep/mount/v1: expires_in 3600');
$d = decode(req(POST => '/b/connect', undef, $CREDS)) // {};
like($d->{access_token} // '', qr/^[A-Za-z0-9_-]{43}$/, '/b (variant B mount) serves /connect');

# a chunked request body
my ($st) = raw_http("POST /api/connect HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
    . "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    . sprintf('%x', length $CREDS) . "\r\n$CREDS\r\n0\r\n\r\n");
is($st, 200, 'chunked body: 200');

# ---- bad credentials: 401, one answer for every cause ----
my %bad = (
    'wrong password' => ['demo', 'wrong'],
    'empty password' => ['demo', ''],
    'unknown user'   => ['nosuchuser', 'demo'],
    'disabled user'  => ['retired', 'retired'],
    'user name case' => ['DEMO', 'demo'],
);
for my $why (sort keys %bad) {
    $res = req(POST => '/api/connect', undef,
               { client_id => $bad{$why}[0], client_secret => $bad{$why}[1] });
    check_error($res, 401, 'Invalid credentials', "$why: 401 Invalid credentials");
}

# about the same time for an unknown user as for a wrong password (one bcrypt check
# whatever happens); generous bound, medians of 3
sub login_time {
    my ($u, $p) = @_;
    my @t;
    for (1 .. 3) {
        my $t0 = time;
        req(POST => '/api/connect', undef, { client_id => $u, client_secret => $p });
        push @t, time - $t0;
    }
    return (sort { $a <=> $b } @t)[1];
}
my $t_wrong = login_time('demo', 'wrong');
my $t_unknown = login_time('nosuchuser', 'wrong');
ok($t_unknown > 0.3 * $t_wrong, 'an unknown user takes about as long as a wrong password')
    or diag(sprintf 'unknown user %.4f s, wrong password %.4f s', $t_unknown, $t_wrong);

# bcrypt reads 72 bytes: a secret of more is "Invalid credentials", never a login with
# its first 72 bytes (the time of such a failure: t/api/31_login_timing.t)
my $pw72 = join('', map { chr(ord('a') + $_ % 26) } 0 .. 71);
admin_ok('add long72 with a 72-byte password', { stdin => "$pw72\n" }, '--cost', '4', 'add', 'long72');
ok(defined login('long72', $pw72), 'long72 logs in with its 72 bytes');
for my $suffix ('x', 'x' x 28, $pw72) {
    my $n = 72 + length $suffix;
    check_error(req(POST => '/api/connect', undef, { client_id => 'long72', client_secret => $pw72 . $suffix }),
                401, 'Invalid credentials', "the 72 bytes and more ($n bytes): 401 Invalid credentials");
}

# ---- bad bodies: 400 ----
my @bad_bodies = (
    ['empty body', ''],
    ['not JSON', 'client_id=demo&client_secret=demo'],
    ['truncated', '{"client_id":"demo","client_secret":"demo"'],
    ['truncated string', '{"client_id":"demo","client_secret":"de'],
    ['single quotes', "{'client_id':'demo','client_secret':'demo'}"],
    ['array', '["demo","demo"]'],
    ['string', '"demo"'],
    ['null', 'null'],
    ['number', '42'],
    ['empty object', '{}'],
    ['client_secret missing', '{"client_id":"demo"}'],
    ['client_id missing', '{"client_secret":"demo"}'],
    ['client_id a number', '{"client_id":1,"client_secret":"demo"}'],
    ['client_secret null', '{"client_id":"demo","client_secret":null}'],
    ['client_secret an array', '{"client_id":"demo","client_secret":["demo"]}'],
    ['client_id an object', '{"client_id":{},"client_secret":"demo"}'],
    ['client_secret true', '{"client_id":"demo","client_secret":true}'],
    ['duplicate key', '{"client_id":"demo","client_id":"demo","client_secret":"demo"}'],
    ['duplicate key (other value)', '{"client_id":"nobody","client_secret":"demo","client_id":"demo"}'],
    ['trailing garbage', "$CREDS x"],
    ['two objects', "$CREDS$CREDS"],
    ['trailing comma', '{"client_id":"demo","client_secret":"demo",}'],
    ['invalid UTF-8', qq({"client_id":"d\xffmo","client_secret":"demo"})],
    ['overlong UTF-8', qq({"client_id":"demo","client_secret":"\xc0\xafdemo"})],
);
for my $b (@bad_bodies) {
    check_error(req(POST => '/api/connect', undef, $b->[1]), 400, undef, "$b->[0]: 400");
}

# ---- Content-Type: 415 (checked before the body) ----
for my $ct (undef, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonx',
            'multipart/form-data; boundary=x') {
    $res = req(POST => '/api/connect', undef, $CREDS, { 'Content-Type' => $ct });
    check_error($res, 415, undef, 'Content-Type ' . ($ct // 'missing') . ': 415');
}
check_error(req(POST => '/api/connect', undef, '{', { 'Content-Type' => 'text/plain' }),
            415, undef, 'wrong Content-Type and a malformed body: 415 first');

# ---- body limit: 413 (after Content-Type, before the body) ----
my $pad64 = $CREDS . (' ' x (64 - length $CREDS));
is(length $pad64, 64, '(a 64-byte body)');
is(req(POST => '/small/connect', undef, $pad64)->code, 200, '/small: a 64-byte body is accepted');
check_error(req(POST => '/small/connect', undef, "$pad64 "), 413, undef,
            '/small: a 65-byte body: 413');
check_error(req(POST => '/small/connect', undef, '{' . ('x' x 100)), 413, undef,
            '/small: a malformed 101-byte body: 413 (size before syntax)');
check_error(req(POST => '/small/connect', undef, 'x' x 100, { 'Content-Type' => 'text/plain' }),
            415, undef, '/small: oversized with a wrong Content-Type: 415 (type before size)');
($st) = raw_http("POST /small/connect HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
    . "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    . "40\r\n" . ('x' x 64) . "\r\n40\r\n" . ('x' x 64) . "\r\n0\r\n\r\n");
is($st, 413, '/small: an oversized chunked body: 413');
my $pad_default = $CREDS . (' ' x (65536 - length $CREDS));
is(req(POST => '/api/connect', undef, $pad_default)->code, 200,
   '/api: a 65536-byte body (the default limit) is accepted');
check_error(req(POST => '/api/connect', undef, "$pad_default "), 413, undef,
            '/api: a 65537-byte body: 413');

# ---- methods ----
for my $m (qw(GET PUT DELETE PATCH)) {
    check_405(req($m => '/api/connect'), 'POST', "$m /connect");
}
$res = req(HEAD => '/api/connect');
is($res->code, 405, 'HEAD /connect: 405');
is($res->header('Allow'), 'POST', 'HEAD /connect: Allow: POST');
$res = req(OPTIONS => '/api/connect');
is($res->code, 204, 'OPTIONS /connect: 204');
is($res->header('Allow'), 'POST', 'OPTIONS /connect: Allow: POST');
is($res->content, '', 'OPTIONS /connect: no body');

done_testing();
