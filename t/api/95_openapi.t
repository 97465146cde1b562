# OpenAPI conformance: every answer of the module, on every route of both variants
# (competitions 1 and 2, /connect, the lane writes with typed scores and tiebreaks, the
# leaderboards of competitions 1, 3, 4 and 5 with and without the division filter, a
# lane's history, the event stream (read for a moment: it never ends; its events'
# data checked too), long polls (Prefer: wait=N), the errors 400 (bodies and
# leaderboard queries, a malformed Idempotency-Key), 401, 403, 404, 405, 406, 409, 413,
# 415, 422 (a key reused), 429 and OPTIONS; the setup writes and generate-heats in a
# competition of their own, deleted at the end),
# validates against what openapi.yaml declares
# for that path, method and status: headers (WWW-Authenticate, Allow, ...), media type
# and body schema.  The check is done by t/openapi/check-responses.mjs, which runs
# Ajv (JSON Schema 2020-12, formats asserted) on the document's own schemas; the
# request bodies sent are also validated against the document's request schemas.
# Then: every example of openapi.yaml with an x-live-path is exactly what the server
# answers, and every path and operation of the document was exercised.
# The validator (npm packages of t/openapi) is installed by t/openapi/validate.sh when
# missing; without it every check fails: nothing is skipped.
# tests: 884
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use File::Temp ();
use HTTP::Request ();
use HTTP::Response ();
use JSON::PP ();
use MIME::Base64 qw(encode_base64);
use POSIX ();
use Test::More;
use Time::HiRes ();
use Apache::Test ();
use Apache::TestRequest ();
use RankingTest;
use SseClient;

my $SRC = $ENV{RANKING_SRC} // "$FindBin::Bin/../..";
my $OA = "$SRC/t/openapi";
my $CHECKER = "$OA/check-responses.mjs";
my $JSON = JSON::PP->new->utf8->canonical;

# ---------------------------------------------------------------- the validator

# node_json(INPUT or undef, ARGS...) -> (decoded JSON output, error text)
sub node_json {
    my ($input, @args) = @_;
    my $in = File::Temp->new;
    print {$in} $input // '';
    close $in;
    my $err = File::Temp->new;
    my $pid = open(my $fh, '-|') // return (undef, "fork: $!");
    if (!$pid) {
        open STDIN, '<', $in->filename or die "stdin: $!";
        open STDERR, '>', $err->filename or die "stderr: $!";
        exec 'node', $CHECKER, @args or do { print STDERR "exec node: $!\n"; exit 127 };
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    my $rc = $? >> 8;
    my $errtext = do { local @ARGV = ($err->filename); <> } // '';
    return (undef, "check-responses.mjs @args: exit $rc: $errtext") if $rc;
    my $d = eval { $JSON->decode($out) };
    return (undef, "check-responses.mjs @args: output is not JSON: $@") unless $d;
    return ($d, undef);
}

# Install the pinned validators when missing (npm ci), then prove they run.
if (!-f "$OA/node_modules/.package-lock.json" || !-d "$OA/node_modules/ajv") {
    my $out = `"$OA/validate.sh" --install 2>&1`;
    diag("t/openapi/validate.sh --install: $out") if $?;
}
my ($ROUTES, $why) = node_json(undef, 'routes');
ok($ROUTES && @{ $ROUTES->{routes} } > 0, 'the OpenAPI validator runs and reads openapi.yaml')
    or diag($why // 'no route in openapi.yaml');
my ($EXAMPLES, $why2) = node_json(undef, 'examples');
$EXAMPLES //= { examples => [] };
diag($why2) if $why2;

# ---------------------------------------------------------------- exchanges

my $READER = login('demo', 'demo');
my $EDITOR = login('judge', 'judge');
ok(defined $READER && defined $EDITOR, 'demo (reader) and judge (editor) log in')
    or die "cannot log in\n";
my $UNKNOWN_TOKEN = 'A' x 43;   # well formed, unknown: 401 with error="invalid_token"
my $NO = '999999999';           # an id that exists nowhere

my @EX;   # { name, method, path (relative to the mount), mount, res, expect, ... }

# ex(EXPECTED STATUS, METHOD, PATH, %options) -> HTTP::Response
#   mount (default /api), token, body, headers: as RankingTest::req; query: a query
#   string sent after PATH ("?" added; the path checked against the document is PATH);
#   component: for a path no route of the document matches, the response of
#   components/responses to check against; req_valid: whether the request body must
#   validate against the operation's request schema (1 / 0).
sub ex {
    my ($expect, $method, $path, %o) = @_;
    my $mount = $o{mount} // '/api';
    my $res = req($method, "$mount$path" . (defined $o{query} ? "?$o{query}" : ''), $o{token},
                  $o{body}, $o{headers});
    push @EX, { %o, expect => $expect, method => $method, path => $path, mount => $mount,
                res => $res };
    return $res;
}

# ex_stream(EXPECTED STATUS, PATH, %options) -> (HTTP::Response, text read)
#   an event stream (GET, Accept: text/event-stream, with TOKEN), read for at most SECS
#   seconds (default 1) or until UNTIL matches, then closed: the answer as far as it
#   went (a stream never ends), checked like the others.  mount, token as ex();
#   headers: a list of more header lines ("Last-Event-ID: 0").
sub ex_stream {
    my ($expect, $path, %o) = @_;
    my $mount = $o{mount} // '/api';
    my $st = SseClient::open(Apache::TestRequest::hostport(Apache::Test::config()), "$mount$path",
                             $o{token}, @{ $o{headers} // [] });
    my $text = SseClient::read($st, $o{secs} // 1, $o{until});
    SseClient::close($st);
    my ($status, @lines) = split /\r\n/, $st->{head};
    my ($code, $msg) = ($status // '') =~ m{^HTTP/1\.\d (\d{3}) ?(.*)$};
    my $res = HTTP::Response->new($code // 0, $msg);
    for (@lines) {
        my ($k, $v) = /^([^:]+):\s*(.*)$/ or next;
        $res->push_header($k => $v);
    }
    $res->content($text);
    $res->request(HTTP::Request->new(GET => "$mount$path"));
    push @EX, { %o, expect => $expect, method => 'GET', path => $path, mount => $mount, res => $res };
    return ($res, $text);
}

# the first element's id of a list answer
sub first_id {
    my ($res, $key) = @_;
    my $d = decode($res);
    my $list = ref $d eq 'HASH' && ref $d->{$key} eq 'ARRAY' ? $d->{$key} : [];
    return @$list ? $list->[0]{id} : $NO;
}

# ---- /connect ----
ex(200, POST => '/connect', body => { client_id => 'demo', client_secret => 'demo' }, req_valid => 1);
ex(200, POST => '/connect', body => { grant_type => 'client_credentials', client_id => 'judge',
                                      client_secret => 'judge' }, req_valid => 1);
ex(401, POST => '/connect', body => { client_id => 'demo', client_secret => 'wrong' }, req_valid => 1);
ex(401, POST => '/connect', body => { client_id => 'retired', client_secret => 'retired' }, req_valid => 1);
ex(400, POST => '/connect', body => '{}', req_valid => 0);
ex(400, POST => '/connect', body => { client_id => 1, client_secret => 'demo' }, req_valid => 0);
ex(400, POST => '/connect', body => 'client_id=demo', req_valid => 0);
ex(400, POST => '/connect', body => '{"client_id":"demo","client_id":"x","client_secret":"demo"}',
   req_valid => 1);   # duplicate keys: refused by the server, invisible to a schema
ex(415, POST => '/connect', body => '{"client_id":"demo","client_secret":"demo"}',
   headers => { 'Content-Type' => 'text/plain' });
ex(415, POST => '/connect', body => '{"client_id":"demo","client_secret":"demo"}',
   headers => { 'Content-Type' => undef });
ex(413, POST => '/connect', mount => '/small',
   body => { client_id => 'demo', client_secret => 'x' x 100 });
ex(405, GET => '/connect');
ex(405, PUT => '/connect', token => $READER);
ex(405, DELETE => '/connect/');
ex(204, OPTIONS => '/connect');
# login throttling (/throttle: 3 failed logins per 3 s): fail until refused
{
    my $user = 'openapi-' . $$;
    my $res;
    for (1 .. 8) {
        $res = req(POST => '/throttle/connect', undef, { client_id => $user, client_secret => 'x' });
        last if $res->code == 429;
    }
    ex(429, POST => '/connect', mount => '/throttle',
       body => { client_id => $user, client_secret => 'x' }, req_valid => 1);
}

# ---- reads on competitions 1 and 2: every route of both variants ----
my %P;   # route kind -> concrete path, per competition: $P{$c}{kind}
ex(200, GET => '/competition/', token => $READER);
for my $c (1, 2) {
    my $C = "/competition/$c";
    my %p = (competition => $C);
    ex(200, GET => $C, token => $READER);
    my $w = first_id(ex(200, GET => "$C/wod/", token => $READER), 'wods');
    $p{wods} = "$C/wod/";
    $p{wod} = "$C/wod/$w";
    ex(200, GET => $p{wod}, token => $READER);
    my $s = first_id(ex(200, GET => "$C/spot/", token => $READER), 'spots');
    $p{spots} = "$C/spot/";
    $p{spot} = "$C/spot/$s";
    ex(200, GET => $p{spot}, token => $READER);
    # variant A
    my $z = first_id(ex(200, GET => "$C/zone/", token => $READER), 'zones');
    $p{zones} = "$C/zone/";
    $p{zone} = "$C/zone/$z";
    ex(200, GET => $p{zone}, token => $READER);
    $p{a_heats} = "$C/zone/$z/heat/";
    my $ha = first_id(ex(200, GET => $p{a_heats}, token => $READER), 'heats');
    $p{a_heat} = "$C/zone/$z/heat/$ha";
    ex(200, GET => $p{a_heat}, token => $READER);
    $p{voies} = "$p{a_heat}/voie/";
    my $v = first_id(ex(200, GET => $p{voies}, token => $READER), 'voies');
    $p{voie} = "$p{voies}$v";
    ex(200, GET => $p{voie}, token => $READER);
    # variant B
    $p{b_heats} = "$C/heat/";
    my $hb = first_id(ex(200, GET => $p{b_heats}, token => $READER), 'heats');
    $p{b_heat} = "$C/heat/$hb";
    ex(200, GET => $p{b_heat}, token => $READER);
    $p{lines} = "$p{b_heat}/line/";
    my $l = first_id(ex(200, GET => $p{lines}, token => $READER), 'lines');
    $p{line} = "$p{lines}$l";
    ex(200, GET => $p{line}, token => $READER);
    $P{$c} = \%p;
}
my @KINDS = qw(competition wods wod spots spot zones zone a_heats a_heat voies voie
               b_heats b_heat lines line);

# query parameters of the lists: a page, filters, and 400 for a bad value (GET, HEAD)
for my $path ('/competition/', map { $P{2}{$_} } qw(wods spots zones a_heats voies b_heats lines)) {
    ex(200, GET => $path, token => $READER, query => 'limit=1&offset=1');
    ex(400, GET => $path, token => $READER, query => 'limit=0');
    ex(400, HEAD => $path, token => $READER, query => 'offset=-1');
}
ex(200, GET => $P{2}{spots}, token => $READER, query => 'division=RX');
ex(200, GET => $P{2}{b_heats}, token => $READER, query => 'status=finished&wod=16');
ex(200, GET => $P{2}{a_heats}, token => $READER, query => 'status=running');

# every competition-1 read route of the test data (nulls, empty lists, non-ASCII)
ex(200, GET => $_->{path}, token => $READER) for read_routes();

# the other form of the trailing slash; the variant mounts
ex(200, GET => '/competition', token => $READER);
ex(200, GET => "$P{1}{competition}/", token => $READER);
ex(200, GET => substr($P{1}{voies}, 0, -1), token => $READER);
ex(200, GET => "$P{2}{line}/", token => $READER);
ex(200, GET => $P{1}{voie}, token => $READER, mount => '/a');
ex(200, GET => $P{1}{line}, token => $READER, mount => '/b');
ex(200, GET => $P{2}{wods}, token => $READER, mount => '/deep/mount/v1');

# ---- leaderboards (common to both variants) ----
# every WOD and overall leaderboard of the ranking demos (both policies, every
# scoring), competition 1's, the empty one of competition 3, the division filter
my $LBW = '/competition/1/wod/11/leaderboard';
my $LBA = '/competition/1/leaderboard';
ex(200, GET => "/competition/$_/leaderboard", token => $READER) for 1, 3, 4, 5;
ex(200, GET => "/competition/1/wod/$_/leaderboard", token => $READER) for 11 .. 14;
ex(200, GET => "/competition/4/wod/$_/leaderboard", token => $READER) for 31 .. 35;
ex(200, GET => "/competition/5/wod/$_/leaderboard", token => $EDITOR) for 36 .. 38;
ex(200, GET => "/competition/2/wod/$_/leaderboard", token => $READER) for 16 .. 20;
ex(200, GET => "$LBW/", token => $READER);
ex(200, GET => "$LBA/", token => $READER, query => 'division=RX');
ex(200, GET => $LBW, token => $READER, query => 'division=Masters');
ex(200, GET => '/competition/4/leaderboard', token => $READER, query => 'division=Masters+40%2B');
ex(200, GET => '/competition/5/wod/36/leaderboard', token => $READER, query => 'x=1&division=Women');
ex(200, GET => $LBA, token => $READER, mount => '/b');
ex(200, GET => $LBW, token => $READER, mount => '/a');
for my $p ($LBW, $LBA) {
    ex(200, HEAD => $p, token => $READER);
    ex(200, HEAD => $p, token => $READER, query => 'division=Scaled');
    my $etag = req(GET => "/api$p", $READER)->header('ETag') // '"none"';
    ex(304, GET => $p, token => $READER, headers => { 'If-None-Match' => $etag });
    ex(304, HEAD => $p, token => $READER, headers => { 'If-None-Match' => $etag });
    ex(412, HEAD => $p, token => $READER, headers => { 'If-Match' => '"0-0"' });
    my $etag_rx = req(GET => "/api$p?division=RX", $READER)->header('ETag') // '"none"';
    ex(304, GET => $p, token => $READER, query => 'division=RX', headers => { 'If-None-Match' => $etag_rx });
    ex(304, HEAD => $p, token => $READER, query => 'division=RX', headers => { 'If-None-Match' => $etag_rx });
    ex(400, GET => $p, token => $READER, query => 'division=RX&division=RX');
    ex(400, GET => $p, token => $READER, query => 'division=%zz');
    ex(400, HEAD => $p, token => $READER, query => 'division=%00');
    ex(401, GET => $p);
    ex(401, HEAD => $p);
    ex(401, GET => $p, token => $UNKNOWN_TOKEN, query => 'division=RX');
    ex(404, GET => $p, token => $READER, query => 'division=Nope');
    ex(404, HEAD => $p, token => $READER, query => 'division=rx');
    ex(204, OPTIONS => $p);
    ex(405, PUT => $p, token => $EDITOR, body => '{}');
    ex(405, POST => $p, token => $READER, body => '{}');
    ex(405, DELETE => $p, token => $EDITOR);
}
ex(404, GET => "/competition/$NO/leaderboard", token => $READER);
ex(404, HEAD => "/competition/$NO/leaderboard", token => $READER);
ex(404, GET => "/competition/1/wod/$NO/leaderboard", token => $READER);
ex(404, HEAD => "/competition/$NO/wod/11/leaderboard", token => $READER);
ex(404, GET => '/competition/4/wod/11/leaderboard', token => $READER);   # a WOD of competition 1
ex(404, GET => "/competition/$NO/leaderboard", token => $READER, query => 'division=%zz');
ex(204, OPTIONS => "/competition/$NO/wod/$NO/leaderboard");
ex(404, GET => '/competition/abc/leaderboard', token => $READER, component => 'NotFound');
ex(404, GET => '/competition/1/wod/011/leaderboard', token => $READER, component => 'NotFound');

# HEAD and OPTIONS on every route; no token; an unknown token
for my $k ('competitions', @KINDS) {
    my $path = $k eq 'competitions' ? '/competition/' : $P{2}{$k};
    ex(200, HEAD => $path, token => $READER);
    # conditional GET: the ETag just served, sent back, is 304 without a body
    my $etag = req(GET => "/api$path", $READER)->header('ETag') // '"none"';
    ex(304, GET => $path, token => $READER, headers => { 'If-None-Match' => $etag });
    ex(304, HEAD => $path, token => $READER, headers => { 'If-None-Match' => $etag });
    # If-Match of another tag: 412
    ex(412, GET => $path, token => $READER, headers => { 'If-Match' => '"0-0"' });
    ex(412, HEAD => $path, token => $READER, headers => { 'If-Match' => '"0-0"' });
    ex(204, OPTIONS => $path);
    ex(401, GET => $path);
    ex(401, HEAD => $path);
}
ex(401, GET => $P{1}{line}, token => $UNKNOWN_TOKEN);
ex(401, GET => $P{1}{voie}, headers => { Authorization => 'Basic ZGVtbzpkZW1v' });
ex(401, POST => $P{1}{wods});   # the token check comes before the method

# 404: an id that does not exist, on every route with ids; nesting; disabled variants
for my $c (1, 2) {
    for my $k (@KINDS) {
        # the last id of the path replaced by one that does not exist
        (my $path = $P{$c}{$k}) =~ s{/[0-9]+((?:/[a-z]+/?)?)$}{/$NO$1};
        ex(404, ($c == 1 ? 'GET' : 'HEAD'), $path, token => $READER);
    }
}
ex(404, GET => $P{1}{wods} . ($P{2}{wod} =~ m{/([0-9]+)$})[0], token => $READER);   # wod of 2 under 1
ex(404, GET => $P{1}{voies} . ($P{2}{voie} =~ m{/([0-9]+)$})[0], token => $READER);
ex(404, GET => $P{1}{lines} . ($P{2}{line} =~ m{/([0-9]+)$})[0], token => $READER);
for my $k (qw(b_heats b_heat lines line)) {
    ex(404, GET => $P{1}{$k}, token => $READER, mount => '/a');
    ex(404, OPTIONS => $P{1}{$k}, mount => '/a');
}
for my $k (qw(zones zone a_heats a_heat voies voie)) {
    ex(404, GET => $P{1}{$k}, token => $READER, mount => '/b');
    ex(404, OPTIONS => $P{1}{$k}, mount => '/b');
}
# paths that no route matches: the generic 404 answer
for my $p ('/competition/abc', '/competition/0', '/competition/01', '/competition/+1',
           '/competition/1/wod/1%2F2', '/competition/1/nothing', '/nothing', '') {
    ex(404, GET => $p, token => $READER, component => 'NotFound');
}

# 405 on every route, with its Allow
for my $k ('competitions', @KINDS) {
    my $path = $k eq 'competitions' ? '/competition/' : $P{1}{$k};
    ex(405, $k eq 'voie' ? 'POST' : 'PUT', $path, token => $EDITOR, body => '{}');
}
ex(405, POST => $P{1}{wod}, token => $EDITOR, body => '{}');
ex(405, PATCH => $P{2}{voie}, token => $EDITOR, body => '{"score":"1"}');
ex(405, DELETE => $P{2}{line}, token => $EDITOR);

# ---- lane writes (competition 2) ----
my $VOIE = $P{2}{voie};
my $before = decode(req(GET => "/api$VOIE", $READER)) // {};
my $lane = $before->{voie} // {};
my @others = grep { $_->{id} ne ($lane->{id} // '') }
             @{ (decode(req(GET => "/api$P{2}{voies}", $READER)) // {})->{voies} // [] };
my ($other_spot) = grep { defined } map { $_->{spot_id} } @others;
my $zone = (decode(req(GET => "/api$P{2}{zone}", $READER)) // {})->{zone} // {};
ok($lane->{id} && @others && defined $other_spot && $zone->{lane_count},
   "lane $VOIE, another lane with a team in its heat, and the zone's lane_count")
    or diag('competition 2 does not have the lanes this test needs');

# 200: the lane's own values (a write that changes nothing), then the score alone
ex(200, PUT => $VOIE, token => $EDITOR, req_valid => 1,
   body => { number => $lane->{number} // 1, spot_id => $lane->{spot_id}, score => $lane->{score} });
ex(200, PUT => $VOIE, token => $EDITOR, req_valid => 1, body => { score => $lane->{score} });
ex(200, PUT => "$VOIE/", token => $EDITOR, req_valid => 1, body => { score => $lane->{score} },
   headers => { 'Content-Type' => 'application/json; charset=utf-8' });
# typed scores: $VOIE is a lane of a heat with a WOD (competition 2's first zone's first
# heat); a tiebreak is a time; a score that does not fit the WOD's scoring is 400
ex(200, PUT => $VOIE, token => $EDITOR, req_valid => 1, body => { tiebreak => '1:02.5' });
ex(200, PUT => $VOIE, token => $EDITOR, req_valid => 1, body => { tiebreak => undef });
ex(400, PUT => $VOIE, token => $EDITOR, req_valid => 1, body => { score => '7:61' });
ex(400, PUT => $VOIE, token => $EDITOR, req_valid => 1, body => { score => 'not a score' });
ex(400, PUT => $VOIE, token => $EDITOR, req_valid => 0, body => { tiebreak => 'CAP+3' });
ex(400, PUT => $VOIE, token => $EDITOR, req_valid => 0, body => { tiebreak => 62 });
# a heat without WOD (competition 2, heat 258): free text, empty included
ex(200, PUT => $FREE{voie}, token => $EDITOR, req_valid => 1, body => { score => 'free text: 7:61' });
ex(200, PUT => $FREE{voie}, token => $EDITOR, req_valid => 1, body => { score => '' });
ex(200, PUT => $FREE{voie}, token => $EDITOR, req_valid => 1, body => { score => undef });
# 400: what the request schema refuses, then what only the server can refuse
for my $b ('{}', '{"bogus":1}', '{"number":1000}', '{"number":0}', '{"number":1.5}',
           '{"number":"2"}', '{"score":5}', '{"spot_id":154}', '{"spot_id":"0154"}',
           '{"score":"' . ('é' x 65) . '"}', '[1]', '"score"', 'null', 'score=1',
           '{"score":"1"} x') {
    my $body = $b;
    utf8::encode($body);
    ex(400, PUT => $VOIE, token => $EDITOR, body => $body, req_valid => 0);
}
ex(400, PUT => $VOIE, token => $EDITOR, body => '{"score":"a","score":"b"}', req_valid => 1);
ex(400, PUT => $VOIE, token => $EDITOR, body => { number => $zone->{lane_count} + 1 }, req_valid => 1)
    if $zone->{lane_count} && $zone->{lane_count} < 999;
ex(400, PUT => $VOIE, token => $EDITOR, body => { spot_id => ($P{1}{spot} =~ m{/([0-9]+)$})[0] },
   req_valid => 1);   # a spot of competition 1
# 409
ex(409, PUT => $VOIE, token => $EDITOR, body => { number => $others[0]{number} }, req_valid => 1)
    if @others;
ex(409, PUT => $VOIE, token => $EDITOR, body => { spot_id => $other_spot }, req_valid => 1)
    if defined $other_spot;
# 401, 403, 404, 413, 415
ex(401, PUT => $VOIE, body => { score => '1' });
ex(401, DELETE => $VOIE);
ex(403, PUT => $VOIE, token => $READER, body => { score => '1' });
ex(403, DELETE => $VOIE, token => $READER);
ex(404, PUT => "$P{2}{voies}$NO", token => $EDITOR, body => { score => '1' });
ex(404, PUT => "$P{1}{voies}" . ($VOIE =~ m{/([0-9]+)$})[0], token => $EDITOR, body => { score => '1' });
ex(413, PUT => $VOIE, mount => '/small', token => $EDITOR, body => { score => 'x' x 60 });
ex(415, PUT => $VOIE, token => $EDITOR, body => '{"score":"1"}',
   headers => { 'Content-Type' => 'text/plain' });
ex(415, PUT => $VOIE, token => $EDITOR, body => '{"score":"1"}', headers => { 'Content-Type' => undef });
# 412: preconditions (the lane's own ETag); a stale or foreign tag changes nothing
my $lane_tag = req(GET => "/api$VOIE", $READER)->header('ETag') // '"none"';
ex(200, GET => $VOIE, token => $READER, headers => { 'If-Match' => $lane_tag });
ex(412, GET => $VOIE, token => $READER, headers => { 'If-Match' => '"0-l0"' });
ex(412, HEAD => $VOIE, token => $READER, headers => { 'If-Match' => '"0-l0"' });
ex(412, PUT => $VOIE, token => $EDITOR, body => { score => '1' }, req_valid => 1,
   headers => { 'If-Match' => '"0-l0"' });
ex(412, PUT => $VOIE, token => $EDITOR, body => { score => '1' }, req_valid => 1,
   headers => { 'If-None-Match' => '*' });
ex(412, DELETE => $VOIE, token => $EDITOR, headers => { 'If-Match' => '"0-l0"' });
ex(200, PUT => $VOIE, token => $EDITOR, body => { score => $lane->{score} }, req_valid => 1,
   headers => { 'If-Match' => $lane_tag });
# DELETE, then the lane is restored as it was (other test files may use it)
my $victim = $others[-1] // {};
my $VICTIM = "$P{2}{voies}" . ($victim->{id} // $NO);
ex(200, DELETE => $VICTIM, token => $EDITOR);
ex(404, DELETE => $VICTIM, token => $EDITOR);
ex(404, GET => $VICTIM, token => $READER);

my $after = decode(req(GET => "/api$VOIE", $READER)) // {};
is(json_cmp($after, $before), undef, "$VOIE is unchanged by the refused writes and the no-op PUTs");

if ($victim->{id}) {
    my $q = sub { defined $_[0] ? "'" . ($_[0] =~ s/'/''/gr) . "'" : 'NULL' };
    my $sql = sprintf('INSERT INTO lane (id, heat_id, number, spot_id, score, tiebreak) '
                      . 'VALUES (%s, %s, %s, %s, %s, %s);',
                      $victim->{id}, $victim->{heat_id}, $victim->{number},
                      $victim->{spot_id} // 'NULL', $q->($victim->{score}), $q->($victim->{tiebreak}));
    my ($rc, $out) = db_exec($sql);
    diag($out) if $rc;
    my $back = decode(req(GET => "/api$VICTIM", $READER)) // {};
    is(json_cmp($back, { status => 'success', voie => $victim }), undef,
       "deleted lane $victim->{id} restored in the database (RANKING_DB)");
}
else {
    fail('a lane to delete and restore');
}

# ---- validation (API.md part 3: organizers; an editor, a judge, gets 403) ----
{
    # a validated lane back to 'entered' (competition 2 publishes immediately): no
    # score, then its own
    my $unvalidate = sub {
        my ($path, $l) = @_;
        return unless defined $l->{score} && ($l->{score_status} // '') eq 'validated';
        req(PUT => "/api$path", $EDITOR, { score => undef });
        req(PUT => "/api$path", $EDITOR, { score => $l->{score} });
    };
    my $VALIDATOR = login('organizer', 'organizer');
    my $VAL = "$VOIE/validate";
    my $HEAT = $FREE{voie} =~ s{/voie/[0-9]+$}{}r;
    ex(401, POST => $VAL);
    ex(403, POST => $VAL, token => $READER, body => '{}');
    ex(403, POST => $VAL, token => $EDITOR, body => '{}');
    ex(404, POST => "$P{2}{voies}$NO/validate", token => $VALIDATOR, body => '{}');
    ex(412, POST => $VAL, token => $VALIDATOR, headers => { 'If-Match' => '"0-l0"' });
    ex(415, POST => $VAL, token => $VALIDATOR, body => '{}', headers => { 'Content-Type' => 'text/plain' });
    ex(400, POST => $VAL, token => $VALIDATOR, body => '{"score":"1"}');
    ex(409, POST => "$FREE{voie}/validate", token => $VALIDATOR);   # lane 2029: no score
    my $v = decode(ex(200, POST => $VAL, token => $VALIDATOR, body => '{}')) // {};
    $unvalidate->($VOIE, $v->{voie} // {});
    ex(401, POST => "$HEAT/validate");
    ex(403, POST => "$HEAT/validate", token => $READER);
    ex(403, POST => "$HEAT/validate", token => $EDITOR);
    ex(404, POST => ($HEAT =~ s{/heat/[0-9]+$}{/heat/$NO}r) . '/validate', token => $VALIDATOR);
    ex(415, POST => "$HEAT/validate", token => $VALIDATOR, body => '{}', headers => { 'Content-Type' => 'text/plain' });
    ex(400, POST => "$HEAT/validate", token => $VALIDATOR, body => '[]');
    my $h = decode(ex(200, POST => "$HEAT/validate", token => $VALIDATOR)) // {};
    $unvalidate->("$HEAT/voie/$_->{id}", $_) for @{ $h->{voies} // [] };
    is(json_cmp(decode(req(GET => "/api$VOIE", $READER)) // {}, $before), undef,
       "$VOIE as it was after its validation");
    # safe retries (API.md part 3): a key kept by a 404, then used for other requests
    # (422, nothing changes), and a malformed key (400) on every write
    my %key = ('Idempotency-Key' => "openapi-$$-" . time);
    req(PUT => "/api$P{2}{voies}$NO", $EDITOR, { score => '1' }, \%key);
    req(PUT => "/api$P{2}{voies}$NO", $VALIDATOR, { score => '1' }, \%key);   # keys are per user
    ex(422, PUT => $VOIE, token => $EDITOR, body => { score => '1' }, req_valid => 1, headers => \%key);
    ex(422, DELETE => $VOIE, token => $EDITOR, headers => \%key);
    ex(422, POST => $VAL, token => $VALIDATOR, headers => \%key);
    ex(422, POST => "$HEAT/validate", token => $VALIDATOR, headers => \%key);
    my %bad = ('Idempotency-Key' => 'two words');
    ex(400, PUT => $VOIE, token => $EDITOR, body => { score => '1' }, req_valid => 1, headers => \%bad);
    ex(400, DELETE => $VOIE, token => $EDITOR, headers => \%bad);
    ex(400, POST => $VAL, token => $VALIDATOR, headers => \%bad);
    ex(400, POST => "$HEAT/validate", token => $VALIDATOR, headers => \%bad);
    # every setup write: the key is looked at before the resources of the path (ids
    # that exist nowhere), so the organizer's kept key is 422 and a malformed one 400
    for my $w ([POST => '/competition/'], [PATCH => "/competition/$NO"], [DELETE => "/competition/$NO"],
               (map { ([POST => "/competition/$NO/$_/"], [PATCH => "/competition/$NO/$_/$NO"],
                       [DELETE => "/competition/$NO/$_/$NO"]) } qw(wod spot zone)),
               [POST => "/competition/$NO/zone/$NO/heat/"], [PATCH => "/competition/$NO/zone/$NO/heat/$NO"],
               [DELETE => "/competition/$NO/zone/$NO/heat/$NO"],
               [POST => "/competition/$NO/zone/$NO/heat/$NO/voie/"],
               [POST => "/competition/$NO/wod/$NO/generate-heats"]) {
        my $body = $w->[0] eq 'DELETE' ? undef : '{}';
        ex(422, $w->[0] => $w->[1], token => $VALIDATOR, body => $body, headers => \%key);
        ex(400, $w->[0] => $w->[1], token => $VALIDATOR, body => $body, headers => \%bad);
    }
    is(json_cmp(decode(req(GET => "/api$VOIE", $READER)) // {}, $before), undef,
       "$VOIE unchanged by the refused keys");
}
# the views (API.md part 3): a reader's ?view=full is 403, another view 400
for my $k (qw(voies voie lines line)) {
    ex(403, GET => $P{2}{$k}, token => $READER, query => 'view=full');
    ex(400, GET => $P{2}{$k}, token => $EDITOR, query => 'view=draft');
}
ex(403, GET => $_, token => $READER, query => 'view=full') for $LBW, $LBA;
ex(403, GET => "/competition/2/events", token => $READER, query => 'view=full');
ex(400, GET => "/competition/2/events", token => $READER, query => 'view=draft');

# ---- lane history (variant A, editors only) ----
# $VOIE has the updates above, $VICTIM ends with its delete (put back since, by hand)
my $HIST = "$VOIE/history";
my $NOHIST = "$P{2}{voies}$NO/history";   # a lane never seen in the heat
my $hist = ex(200, GET => $HIST, token => $EDITOR);
my $vhist = decode(ex(200, GET => "$VICTIM/history", token => $EDITOR)) // {};
my $vlast = ref $vhist->{history} eq 'ARRAY' ? $vhist->{history}[-1] // {} : {};
ok(($vlast->{action} // '') eq 'delete' && exists $vlast->{after} && !defined $vlast->{after},
   "the history of $VICTIM ends with its delete (after: null)");
ex(200, GET => "$P{1}{voie}/history/", token => $EDITOR);
ex(200, GET => $HIST, token => $EDITOR, mount => '/a');
ex(200, HEAD => $HIST, token => $EDITOR);
my $hetag = $hist->header('ETag') // '"none"';
ex(304, GET => $HIST, token => $EDITOR, headers => { 'If-None-Match' => $hetag });
ex(304, HEAD => $HIST, token => $EDITOR, headers => { 'If-None-Match' => $hetag });
ex(412, GET => $HIST, token => $EDITOR, headers => { 'If-Match' => '"0-0"' });
ex(412, HEAD => $HIST, token => $EDITOR, headers => { 'If-Match' => '"0-0"' });
ex(401, GET => $HIST);
ex(401, HEAD => $HIST);
ex(401, GET => $HIST, token => $UNKNOWN_TOKEN);
ex(403, GET => $HIST, token => $READER);
ex(403, HEAD => $HIST, token => $READER);
ex(403, GET => $NOHIST, token => $READER);   # the role is checked before the existence
ex(404, GET => $NOHIST, token => $EDITOR);
ex(404, HEAD => $NOHIST, token => $EDITOR);
ex(404, GET => "$P{1}{voies}" . ($VOIE =~ m{/([0-9]+)$})[0] . '/history', token => $EDITOR);
ex(404, GET => $HIST, token => $EDITOR, mount => '/b');   # variant A disabled
ex(404, OPTIONS => $HIST, mount => '/b');
ex(204, OPTIONS => $HIST);
ex(204, OPTIONS => $NOHIST);
ex(405, PUT => $HIST, token => $EDITOR, body => '{}');
ex(405, POST => $HIST, token => $EDITOR, body => '{}');
ex(405, DELETE => $HIST, token => $EDITOR);

# ---- long polls (If-None-Match + Prefer: wait=N), on any read route ----
# 304 once the wait is over; 200 as soon as the data changes (a lane PUT by a child)
my $lbetag = req(GET => "/api$LBA", $READER)->header('ETag') // '"none"';
my @polls = (ex(304, GET => $HIST, token => $EDITOR,
                headers => { 'If-None-Match' => $hetag, Prefer => 'wait=1' }),
             ex(304, HEAD => $LBA, token => $READER,
                headers => { 'If-None-Match' => $lbetag, Prefer => 'wait=1' }));
{
    my $pid = fork // die "fork: $!\n";
    if (!$pid) {
        Time::HiRes::sleep(0.5);
        req(PUT => "/api$VOIE", $EDITOR, { tiebreak => '2:00' });
        POSIX::_exit(0);
    }
    push @polls, ex(200, GET => $HIST, token => $EDITOR,
                    headers => { 'If-None-Match' => $hetag, Prefer => 'wait=10' });
    waitpid $pid, 0;
    req(PUT => "/api$VOIE", $EDITOR, { tiebreak => $lane->{tiebreak} });   # as it was
}
is(join(' ', map { $_->header('Preference-Applied') // 'none' } @polls), 'wait=1 wait=1 wait=10',
   'the long polls carry Preference-Applied');

# ---- live updates: the event stream (both variants) ----
my $EV = '/competition/2/events';
my $ACCEPT = { Accept => 'text/event-stream' };
# from the first record of competition 2 (every change above, deletes among them),
# read until a delete; live only (the opening); a variant-B mount (the lane as "line")
my (undef, $replayed) = ex_stream(200, $EV, token => $READER, headers => ['Last-Event-ID: 0'],
                                  secs => 5, until => qr/"action":"delete"[^\n]*\n\n/);
ok($replayed =~ /"action":"update"/ && $replayed =~ /"action":"delete"/,
   'the replayed stream has update and delete events') or diag($replayed);
ex_stream(200, "$EV/", token => $EDITOR, secs => 0.3);
ex_stream(200, $EV, token => $READER, mount => '/b', headers => ['Last-Event-ID: 0'],
          secs => 5, until => qr/"line":\{[^\n]*\n\n/);
ex(200, HEAD => $EV, token => $READER, headers => $ACCEPT);
ex(200, HEAD => "$EV/", token => $EDITOR, mount => '/b',
   headers => { Accept => 'application/json, text/event-stream;q=0.5' });
ex(406, GET => $EV, token => $READER);
ex(406, GET => $EV, token => $READER, headers => { Accept => '*/*' });
ex(406, GET => $EV, token => $READER, headers => { Accept => 'text/event-stream;q=0' });
ex(406, HEAD => $EV, token => $READER, headers => { Accept => 'application/json' });
ex(406, GET => "/competition/$NO/events", token => $READER);   # Accept before the existence
ex(401, GET => $EV, headers => $ACCEPT);
ex(401, HEAD => $EV, headers => $ACCEPT);
ex(401, GET => $EV, token => $UNKNOWN_TOKEN);   # the token first
ex(404, GET => "/competition/$NO/events", token => $READER, headers => $ACCEPT);
ex(404, HEAD => "/competition/$NO/events", token => $READER, headers => $ACCEPT);
ex(404, GET => '/competition/abc/events', token => $READER, headers => $ACCEPT, component => 'NotFound');
ex(405, POST => $EV, token => $READER, body => '{}');
ex(405, PUT => $EV, token => $EDITOR, body => '{}');
ex(405, DELETE => $EV, token => $EDITOR, headers => $ACCEPT);
ex(204, OPTIONS => $EV);
ex(204, OPTIONS => "/competition/$NO/events", mount => '/b');

# ---- setup and day-of changes (organizer, part 3): a competition of its own ----
my $ORG = login('organizer', 'organizer');
ok(defined $ORG, 'organizer logs in') or diag('no organizer login');
sub made_id { my ($res, $key) = @_; my $d = decode($res); return ref $d eq 'HASH' && ref $d->{$key} eq 'HASH' ? $d->{$key}{id} // $NO : $NO }
# every write answer of a POST of a setup list: 201, 400, 401, 403, 404, 413, 415
sub post_answers {
    my ($list, $body, $bad, $key, $bad_valid) = @_;
    my $id = made_id(ex(201, POST => $list, token => $ORG, req_valid => 1, body => $body), $key);
    ex(400, POST => $list, token => $ORG, req_valid => $bad_valid // 0, body => $bad);
    ex(400, POST => $list, token => $ORG, req_valid => 1, body => '{"name":"a","name":"b"}')
        if $key eq 'competition' || $key eq 'spot';   # duplicate keys: invisible to a schema
    ex(401, POST => $list, body => $body);
    ex(403, POST => $list, token => $READER, body => $body);
    ex(413, POST => $list, token => $ORG, mount => '/small', body => { %$body, name => 'x' x 100 });
    ex(415, POST => $list, token => $ORG, body => $JSON->encode($body), headers => { 'Content-Type' => 'text/plain' });
    return $id;
}
# every answer of a PATCH but 409: 200 (both media types), 400, 401, 403, 404, 413, 415
sub patch_answers {
    my ($one, $body, $bad, $bad_valid) = @_;
    ex(200, PATCH => $one, token => $ORG, req_valid => 1, body => $body);
    ex(200, PATCH => $one, token => $ORG, req_valid => 1, body => $JSON->encode($body),
       headers => { 'Content-Type' => 'application/merge-patch+json' });
    ex(400, PATCH => $one, token => $ORG, req_valid => 0, body => {});
    ex(400, PATCH => $one, token => $ORG, req_valid => $bad_valid // 0, body => $bad);
    ex(401, PATCH => $one, body => $body);
    ex(403, PATCH => $one, token => $EDITOR, body => $body);
    (my $none = $one) =~ s{/[0-9]+$}{/$NO};
    ex(404, PATCH => $none, token => $ORG, body => $body);
    ex(413, PATCH => $one, token => $ORG, mount => '/small', body => { name => 'x' x 100 });
    ex(415, PATCH => $one, token => $ORG, body => $JSON->encode($body), headers => { 'Content-Type' => 'text/plain' });
    # preconditions: the resource's own ETag (a stale one, or *: 412); the current one passes
    my $tag = req(GET => "/api$one", $ORG)->header('ETag') // '"none"';
    ex(412, PATCH => $one, token => $ORG, req_valid => 1, body => $body, headers => { 'If-Match' => '"0-r0"' });
    ex(412, PATCH => $one, token => $ORG, req_valid => 1, body => $body, headers => { 'If-None-Match' => '*' });
    ex(200, PATCH => $one, token => $ORG, req_valid => 1, body => $body, headers => { 'If-Match' => $tag });
}
my $c = post_answers('/competition/', { name => 'OpenAPI Cup', start_date => '2026-12-05',
                     end_date => '2026-12-06', timezone => 'Europe/Paris' }, { name => '' }, 'competition');
my $SC = "/competition/$c";
my $c2 = made_id(ex(201, POST => '/competition', token => $ORG, req_valid => 1,
                    body => { name => 'OpenAPI Cup 2', ranking => 'chart100', advance => 8 }), 'competition');
ex(403, POST => '/competition/', token => $EDITOR, body => { name => 'x' });
patch_answers($SC, { status => 'in_progress' }, { end_date => '2026-12-01' }, 1);
my $w = post_answers("$SC/wod/", { name => 'Fran', scoring => 'time', time_cap => 600 },
                     { name => 'Fran' }, 'wod');
ex(404, POST => "/competition/$NO/wod/", token => $ORG, body => { name => 'x', scoring => 'reps' });
patch_answers("$SC/wod/$w", { description => '21-15-9' }, { time_cap => '600' });
my $s = post_answers("$SC/spot/", { name => 'Iron Lions', bib => 7 }, { name => 'x', bib => 0 }, 'spot');
ex(404, POST => "/competition/$NO/spot/", token => $ORG, body => { name => 'x' });
ex(409, POST => "$SC/spot/", token => $ORG, req_valid => 1, body => { name => 'Twin', bib => 7 });
my $s2 = made_id(ex(201, POST => "$SC/spot/", token => $ORG, req_valid => 1, body => { name => 'Owls' }), 'spot');
patch_answers("$SC/spot/$s", { affiliate => 'CrossFit Nantes' }, { bib => '7' });
ex(409, PATCH => "$SC/spot/$s2", token => $ORG, req_valid => 1, body => { bib => 7 });
# a team list (text/csv): the spot with bib 7 updated; an error names its line
ex(200, POST => "$SC/spot/", token => $ORG, req_valid => 1, body => "bib,name\n7,Iron Lions\n",
   headers => { 'Content-Type' => 'text/csv' });
ex(400, POST => "$SC/spot/", token => $ORG, req_valid => 1, body => "name,bib\nA,12\nB,12\n",
   headers => { 'Content-Type' => 'text/csv' });
my $z = post_answers("$SC/zone/", { name => 'Floor A', lane_count => 4 }, { name => 'x', lane_count => 1000 }, 'zone');
ex(404, POST => "/competition/$NO/zone/", token => $ORG, body => { name => 'x', lane_count => 2 });
patch_answers("$SC/zone/$z", { name => 'Floor 1' }, { lane_count => 0 });
my $h = post_answers("$SC/zone/$z/heat/", { number => 1, wod_id => $w, start_time => '2026-12-05T09:00:00Z' },
                     { number => 1, zone_id => $z }, 'heat');
ex(404, POST => "$SC/zone/$NO/heat/", token => $ORG, body => { number => 3 });
ex(409, POST => "$SC/zone/$z/heat/", token => $ORG, req_valid => 1, body => { number => 1 });
my $h2 = made_id(ex(201, POST => "$SC/zone/$z/heat/", token => $ORG, req_valid => 1, body => { number => 2 }), 'heat');
patch_answers("$SC/zone/$z/heat/$h", { status => 'running' }, { status => 'started' });
ex(409, PATCH => "$SC/zone/$z/heat/$h2", token => $ORG, req_valid => 1, body => { number => 1 });
my $HV = "$SC/zone/$z/heat/$h/voie/";
my $v = post_answers($HV, { number => 1, spot_id => $s, score => '7:45' }, { number => 1, score => '7:61' }, 'voie', 1);
ex(404, POST => "$SC/zone/$z/heat/$NO/voie/", token => $ORG, body => { number => 2 });
ex(409, POST => $HV, token => $ORG, req_valid => 1, body => { number => 1 });
ex(409, PATCH => "$SC/wod/$w", token => $ORG, req_valid => 1, body => { scoring => 'reps' });
ex(201, POST => $HV, token => $ORG, req_valid => 1, body => { number => 4 });
ex(409, PATCH => "$SC/zone/$z", token => $ORG, req_valid => 1, body => { lane_count => 3 });
# the change log of the competition (organizers), and its events replayed
my $CH = "$SC/changes";
my $ch = ex(200, GET => $CH, token => $ORG);
ex(200, GET => $CH, token => $ORG, query => 'limit=2&offset=1');
ex(400, GET => $CH, token => $ORG, query => 'limit=0');
ex(200, HEAD => $CH, token => $ORG);
my $chtag = $ch->header('ETag') // '"none"';
ex(304, GET => $CH, token => $ORG, headers => { 'If-None-Match' => $chtag });
ex(304, HEAD => $CH, token => $ORG, headers => { 'If-None-Match' => $chtag });
ex(412, GET => $CH, token => $ORG, headers => { 'If-Match' => '"0-0"' });
ex(401, GET => $CH);
ex(401, HEAD => $CH);
ex(403, GET => $CH, token => $EDITOR);
ex(403, HEAD => $CH, token => $READER);
ex(404, GET => "/competition/$NO/changes", token => $ORG);
ex(404, HEAD => "/competition/$NO/changes", token => $ORG);
ex(204, OPTIONS => $CH);
ex(405, POST => $CH, token => $ORG, body => '{}');
ex_stream(200, "$SC/events", token => $ORG, headers => ['Last-Event-ID: 0'], secs => 2,
          until => qr/"resource":"heat"[^\n]*\n\n.*event: lane[^\n]*\n[^\n]*"action":"create"[^\n]*\n\n/s);

# heat generation (organizer): a WOD and a zone of their own, deleted below; every
# answer of generate-heats; the dry run is the write's answer with ids null and
# changes nothing
my $gw = made_id(ex(201, POST => "$SC/wod/", token => $ORG, req_valid => 1,
                    body => { name => 'Grace', scoring => 'time' }), 'wod');
my $gz = made_id(ex(201, POST => "$SC/zone/", token => $ORG, req_valid => 1,
                    body => { name => 'Floor G', lane_count => 3 }), 'zone');
my $GEN = "$SC/wod/$gw/generate-heats";
my $GHL = "/api$SC/zone/$gz/heat/";
my %gen = (zone_id => "$gz", lanes => 1, order => 'bib', lane_order => 'center', divisions => undef,
           top => undef, start_time => '2026-12-05T10:00:00Z', interval => 600, seed => 0,
           replace => JSON::PP::false, dry_run => JSON::PP::false);
my $gtag = req(GET => $GHL, $ORG)->header('ETag') // '"none"';
my $planned = decode(ex(200, POST => $GEN, token => $ORG, req_valid => 1,
                        body => { %gen, dry_run => JSON::PP::true })) // {};
is(req(GET => $GHL, $ORG, undef, { 'If-None-Match' => $gtag })->code, 304,
   'the dry run of generate-heats moves no ETag');
my $made = decode(ex(201, POST => $GEN, token => $ORG, req_valid => 1, body => \%gen)) // {};
my @gheats = ref $made->{heats} eq 'ARRAY' ? @{ $made->{heats} } : ();
my $nulled = $JSON->decode($JSON->encode($made));
for my $hh (ref $nulled->{heats} eq 'ARRAY' ? @{ $nulled->{heats} } : ()) {
    $hh->{id} = undef;
    $_->{id} = $_->{heat_id} = undef for ref $hh->{voies} eq 'ARRAY' ? @{ $hh->{voies} } : ();
}
ok(@gheats == 2, 'generate-heats made 2 heats of 1 lane (2 spots)')
    && is(json_cmp($nulled, $planned), undef, 'the dry run answered the write with its ids null');
ex(409, POST => $GEN, token => $ORG, req_valid => 1, body => \%gen);   # heats there, no replace
ex(409, POST => $GEN, token => $ORG, req_valid => 1, body => { %gen, dry_run => JSON::PP::true });
ex(400, POST => $GEN, token => $ORG, req_valid => 0, body => { zone_id => "$gz", lanes => 0 });
ex(400, POST => $GEN, token => $ORG, req_valid => 0, body => { lanes => 1 });
ex(400, POST => $GEN, token => $ORG, req_valid => 1, body => { zone_id => $NO });   # not its zone
ex(400, POST => $GEN, token => $ORG, req_valid => 1, body => { zone_id => "$gz", lanes => 4 });
ex(400, POST => $GEN, token => $ORG, req_valid => 1, body => { zone_id => "$gz", divisions => ['Elite'] });
ex(401, POST => $GEN, body => \%gen);
ex(403, POST => $GEN, token => $EDITOR, body => \%gen);
ex(403, POST => $GEN, token => $READER, body => \%gen);
ex(404, POST => "$SC/wod/$NO/generate-heats", token => $ORG, body => \%gen);
ex(404, POST => "/competition/$NO/wod/$w/generate-heats", token => $ORG, body => \%gen);
ex(413, POST => $GEN, token => $ORG, mount => '/small', body => { %gen, divisions => ['x' x 100] });
ex(415, POST => $GEN, token => $ORG, body => $JSON->encode(\%gen), headers => { 'Content-Type' => 'text/plain' });
# replace: true deletes the two heats and makes them again (new ids)
my $again = decode(ex(201, POST => $GEN, token => $ORG, req_valid => 1,
                      body => { %gen, replace => JSON::PP::true })) // {};
my $hl = decode(req(GET => $GHL, $ORG)) // {};
my @left = map { $_->{id} } ref $hl->{heats} eq 'ARRAY' ? @{ $hl->{heats} } : ();
is(join(' ', @left), join(' ', map { $_->{id} // '?' } @{ $again->{heats} // [] }),
   'replace: true left only the new heats in the zone');
ex(200, DELETE => "$SC/zone/$gz/heat/$_", token => $ORG) for @left;
ex(200, DELETE => "$SC/wod/$gw", token => $ORG);
ex(200, DELETE => "$SC/zone/$gz", token => $ORG);

# DELETE: 409 while something needs it, 401, 403, then 200 and 404
ex(409, DELETE => "$SC/zone/$z/heat/$h", token => $ORG);
ex(409, DELETE => "$SC/spot/$s", token => $ORG);
ex(409, DELETE => "$SC/wod/$w", token => $ORG);
ex(409, DELETE => "$SC/zone/$z", token => $ORG);
ex(409, DELETE => $SC, token => $ORG);
for my $one ("$SC/zone/$z/heat/$h", "$SC/spot/$s", "$SC/wod/$w", "$SC/zone/$z", $SC) {
    ex(401, DELETE => $one);
    ex(403, DELETE => $one, token => $EDITOR);
    ex(412, DELETE => $one, token => $ORG, headers => { 'If-Match' => '"0-r0"' });
}
is(req(PUT => "/api$HV$v", $ORG, { score => undef })->code, 200, 'the lane score emptied (the heat may go)');
ex(200, DELETE => "$SC/zone/$z/heat/$h", token => $ORG);
ex(200, DELETE => "$SC/zone/$z/heat/$h2", token => $ORG);
ex(200, DELETE => "$SC/spot/$_", token => $ORG) for $s, $s2;
ex(200, DELETE => "$SC/wod/$w", token => $ORG);
ex(200, DELETE => "$SC/zone/$z", token => $ORG);
ex(200, DELETE => $SC, token => $ORG);
ex(200, DELETE => "/competition/$c2", token => $ORG);
ex(404, DELETE => "$SC/zone/$z/heat/$h", token => $ORG);
ex(404, DELETE => "$SC/spot/$s", token => $ORG);
ex(404, DELETE => "$SC/wod/$w", token => $ORG);
ex(404, DELETE => "$SC/zone/$z", token => $ORG);
ex(404, DELETE => $SC, token => $ORG);

# ---------------------------------------------------------------- validation

my @input;
for my $i (0 .. $#EX) {
    my $e = $EX[$i];
    my $res = $e->{res};
    my %h;
    for my $name ($res->headers->header_field_names) {
        next if $name =~ /^Client-/;   # LWP's own
        $h{lc $name} = join ', ', $res->headers->header($name);
    }
    my $rq = $res->request;
    push @input, {
        id => $i, method => $e->{method}, path => $e->{path}, status => $res->code + 0,
        headers => \%h, body_b64 => encode_base64($res->content // '', ''),
        (defined $e->{component} ? (component => $e->{component}) : ()),
        (defined $e->{req_valid}
            ? (request_content_type => $rq->header('Content-Type') // '',
               request_body_b64 => encode_base64($rq->content // '', ''))
            : ()),
    };
}
my ($out, $err) = node_json($JSON->encode({ exchanges => \@input }), 'check');
my @results = $out ? @{ $out->{results} } : ();
diag($err) if $err;

my (%route_seen, %op_seen, %status_seen);
for my $i (0 .. $#EX) {
    my $e = $EX[$i];
    my $res = $e->{res};
    my $r = $results[$i] // { ok => 0, errors => [$err // 'no result'] };
    my @why;
    push @why, 'status ' . $res->code . ", expected $e->{expect}" if $res->code != $e->{expect};
    push @why, map { "openapi: $_" } @{ $r->{errors} // [] } unless $r->{ok};
    if (defined $e->{req_valid}) {
        my $got = $r->{request_valid};
        if (!defined $got) {
            push @why, 'the operation declares no request body';
        }
        elsif (!!$got != !!$e->{req_valid}) {
            push @why, 'the request body ' . ($got ? 'validates against' : 'does not validate against')
                . ' the request schema, expected the opposite'
                . (@{ $r->{request_errors} // [] } ? ': ' . join('; ', @{ $r->{request_errors} }) : '');
        }
    }
    my $route = $r->{route} // '?';
    my $name = "$e->{method} $e->{mount}$e->{path} -> " . $res->code . " matches openapi.yaml ($route)";
    ok(!@why, $name) or do {
        diag($_) for @why;
        my $c = $res->content // '';
        diag('body: ' . (length $c > 400 ? substr($c, 0, 400) . '...' : $c));
    };
    if ($r->{ok} && $route !~ /^\(/) {
        $route_seen{$route} = 1;
        $op_seen{"$route " . lc $e->{method}} = 1;
        # an answer shared by several operations (401, 405) counts for each of them
        $status_seen{"$route " . $res->code . " $r->{response}"} = 1;
    }
}

# ---------------------------------------------------------------- examples

my @examples = @{ $EXAMPLES->{examples} };
ok(@examples >= 10, scalar(@examples) . ' examples of openapi.yaml have an x-live-path');
for my $x (@examples) {
    my $res = req(GET => "/api$x->{path}", $READER);
    my $diff = $res->code == 200 ? json_cmp(decode($res), $x->{value}) : 'status ' . $res->code;
    is($diff, undef, "example $x->{where} is the answer of GET $x->{path}");
}

# ---------------------------------------------------------------- coverage

my @routes = $ROUTES ? @{ $ROUTES->{routes} } : ();
my @missing_routes = grep { !$route_seen{$_->{path}} } @routes;
ok(@routes && !@missing_routes, 'every path of openapi.yaml was exercised')
    or diag('not exercised: ' . join(', ', map { $_->{path} } @missing_routes));
my @missing_ops;
my @untested;   # documented statuses no exchange produced (500, 503: cannot be provoked here)
for my $r (@routes) {
    for my $m (sort keys %{ $r->{methods} }) {
        push @missing_ops, uc($m) . " $r->{path}" unless $op_seen{"$r->{path} $m"};
        my $resp = $r->{methods}{$m};
        push @untested, map { uc($m) . " $r->{path} $_" }
            grep { !$status_seen{"$r->{path} $_ $resp->{$_}"} && !/^50[03]$/ } sort keys %$resp;
    }
}
ok(@routes && !@missing_ops, 'every operation of openapi.yaml was exercised')
    or diag('not exercised: ' . join(', ', @missing_ops));
ok(@routes && !@untested, 'every answer openapi.yaml declares was provoked (but 500 and 503)')
    or diag('not provoked: ' . join(', ', @untested));
my %codes = map { $_ => 1 } map { my $r = $_; map { keys %$_ } values %{ $r->{methods} } } @routes;
my %got = map { (split ' ', $_)[1] => 1 } keys %status_seen;
my @never = grep { !$got{$_} && !/^50[03]$/ } sort keys %codes;
ok(%codes && !@never, 'every status openapi.yaml declares was seen (but 500 and 503) '
   . '(' . join(' ', sort keys %got) . ')') or diag('never seen: ' . join(', ', @never));

done_testing();
