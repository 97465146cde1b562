# A table-driven catalogue of bad input on every route family.  Each case is one raw
# HTTP/1.1 request (sent byte for byte on its own connection, so that nothing tidies
# it up) and the exact answer expected per API.md's order of checks: token (401),
# route shape (404), method (405), role (403), existence (404), Content-Type (415),
# body size (413), body (400), conflicts (409).  For every module case: the exact
# status, never a 5xx, and a JSON body {"status":"error","message":"..."} with
# Content-Type application/json (no body for HEAD and 204; the exact message where the
# contract fixes it; WWW-Authenticate on 401, Allow on 405).  A few "must work" cases
# (%31 is 1, a lower-case scheme, a charset parameter, chunked bodies) expect 200.
#
# Cases tagged [httpd] never reach the module's handler: httpd answers them itself.
# On a mount its answer is still the contract's JSON error (the module's error filter,
# see t/api/18_httpd_errors.t), checked like any module case, with httpd's status:
#   - request line > LimitRequestLine (8190): 414;
#   - a header > LimitRequestFieldSize (8190), control bytes (NUL, \x01, DEL) in a
#     header, "Name :" headers, bad or repeated Content-Length, Transfer-Encoding other
#     than chunked, a malformed chunk size, CONNECT, a raw space in the query: 400 (an
#     absurd chunk size: 413);
#   - %00 in the path: 404; an invalid %-escape or a path above the root: 400; dot
#     segments and %2e are resolved by httpd first ("/1/wod/%2e%2e/wod/13" IS
#     wod 13), and "//" is merged (MergeSlashes On, the default);
# The two [httpd] cases off the mounts (httpd => 1: status only) document httpd's own
# answers there: "/api/%2e%2e/..." resolves out of the mount (an HTML 404 of the
# document root), TRACE outside the mounts is echoed;
#   - TRACE is answered by httpd's core (TraceEnable, default on) before any module:
#     200 message/http echoing the request, Authorization header included; on the
#     module's mounts the module takes TRACE over (401 / 405 / 404, no echo).
# A Content-Length larger than the body: httpd waits for the missing bytes (correct
# HTTP) until the client ends its side (then 400 "could not be read") or httpd's
# Timeout (60 s by default) passes; a Content-Length beyond the limit is 413 at once,
# without reading the body.
#
# Writes: every write is refused except two chunked no-op PUTs, which write back the
# lane's own score; the lanes touched are checked unchanged at the end.  The lane is
# picked among the lanes of competition 2 (the write competition) at run time; the
# typed-score cases use one empty lane per scoring of competition 2 (time with and
# without a cap, reps, load, points) and lane 2029 of heat 258, a heat without WOD.
# Leaderboards: bad queries (400 "Invalid query"), unknown divisions, competitions and
# WODs (404), wrong methods (405), in the order of checks of doc/api.md 8.9.
# Finally the server still answers, and the part of t/logs/error_log written during
# this file holds no crash (segfault, "exit signal", AddressSanitizer, runtime error:).
# tests: 517
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use IO::Select;
use IO::Socket::INET;
use JSON::PP ();
use Test::More;
use Time::HiRes qw(sleep time);
use RankingTest;

my $JSON = JSON::PP->new->utf8->canonical->allow_nonref;
my $HOSTPORT = base_url() =~ s{^http://}{}r;
my $ERROR_LOG = t_logs() . '/error_log';
my $LOG_START = -s $ERROR_LOG // 0;

my %TOK = (R => login('demo', 'demo'), E => login('judge', 'judge'));
ok(defined $TOK{R} && defined $TOK{E}, 'demo (reader) and judge (editor) log in')
    or BAIL_OUT('cannot log in');
my ($R, $E) = @TOK{qw(R E)};

# ---------------------------------------------------------------- raw HTTP

# parse(BYTES, HEAD) -> undef while incomplete, else { status, headers => [[name, value]],
# h => { lc name => [values] }, body }.  Interim 1xx answers are skipped.
sub parse {
    my ($raw, $head, $eof) = @_;
    while (1) {
        my $end = index($raw, "\r\n\r\n");
        return $eof ? { status => 0, body => $raw, h => {}, headers => [] } : undef if $end < 0;
        my @lines = split /\r\n/, substr($raw, 0, $end);
        my $rest = substr($raw, $end + 4);
        my ($status) = (shift(@lines) // '') =~ m{^HTTP/1\.[01] (\d{3})};
        return { status => 0, body => $raw, h => {}, headers => [] } unless $status;
        if ($status >= 100 && $status < 200) { $raw = $rest; next }
        my (@headers, %h);
        for (@lines) {
            my ($k, $v) = /^([^:]+):\s*(.*?)\s*$/ or next;
            push @headers, [$k, $v];
            push @{ $h{lc $k} }, $v;
        }
        my $res = { status => $status, headers => \@headers, h => \%h };
        if ($head || $status == 204 || $status == 304) {
            $res->{body} = '';
            return $res;
        }
        if (defined(my $cl = $h{'content-length'})) {
            return undef if length($rest) < $cl->[0] && !$eof;
            $res->{body} = substr($rest, 0, $cl->[0]);
            return $res;
        }
        return undef unless $eof;   # chunked or close-delimited: read to the end
        $res->{body} = $rest;
        return $res;
    }
}

# send_raw(BYTES, %o) -> answer (see parse) with: early (an answer came during the
# pause), timeout (no complete answer in time), err.
#   o: pause => seconds to wait, before ending the request side, for an early answer;
#      noshut => do not end the request side; timeout => seconds (default 30);
#      head => the request is a HEAD.
sub send_raw {
    my ($bytes, %o) = @_;
    my $s = IO::Socket::INET->new(PeerAddr => $HOSTPORT, Timeout => 10)
        or return { status => 0, err => "connect $HOSTPORT: $!", body => '', h => {} };
    binmode $s;
    local $SIG{PIPE} = 'IGNORE';
    my $off = 0;
    while ($off < length $bytes) {
        my $n = syswrite($s, $bytes, 65536, $off);
        last unless $n;
        $off += $n;
    }
    my $sel = IO::Select->new($s);
    my $early = 0;
    $early = 1 if $o{pause} && $sel->can_read($o{pause});
    shutdown($s, 1) unless $o{noshut};
    my ($raw, $res, $eof) = ('', undef, 0);
    my $deadline = time + ($o{timeout} // 30);
    while (!$res) {
        my $left = $deadline - time;
        last if $left <= 0 || !$sel->can_read($left);
        my $n = sysread($s, my $buf, 65536);
        $eof = 1 unless $n;
        $raw .= $buf if $n;
        $res = parse($raw, $o{head}, $eof);
        last if $eof;
    }
    close $s;
    $res ||= { status => 0, body => $raw, h => {}, headers => [], timeout => 1 };
    $res->{early} = $early;
    return $res;
}

sub chunked {
    my ($s, $size) = @_;
    $size ||= 10;
    my $out = '';
    for (my $i = 0; $i < length $s; $i += $size) {
        my $part = substr($s, $i, $size);
        $out .= sprintf("%x\r\n%s\r\n", length $part, $part);
    }
    return "${out}0\r\n\r\n";
}

# build(CASE) -> the request bytes.  CASE: m (method), p (path), a (R, E or undef: the
# token sent as "Bearer TOKEN"), h (more header lines), b (body), ct (Content-Type of a
# body; default application/json; undef: none), raw (the whole request, as is).
sub build {
    my ($c) = @_;
    return $c->{raw} if defined $c->{raw};
    my @h = ("Host: $HOSTPORT");
    push @h, "Authorization: Bearer $TOK{$c->{a}}" if defined $c->{a};
    if (defined $c->{b} || exists $c->{ct}) {
        my $ct = exists $c->{ct} ? $c->{ct} : 'application/json';
        push @h, "Content-Type: $ct" if defined $ct;
    }
    push @h, @{ $c->{h} || [] };
    push @h, 'Content-Length: ' . length($c->{b})
        if defined $c->{b} && !grep { /^(content-length|transfer-encoding)\s*:/i } @h;
    return "$c->{m} $c->{p} HTTP/1.1\r\n" . join('', map { "$_\r\n" } @h) . "\r\n" . ($c->{b} // '');
}

# ---------------------------------------------------------------- the lane for writes

sub get_json {
    my ($path) = @_;
    my $r = send_raw(build({ m => 'GET', p => $path, a => 'R' }));
    return $r->{status} == 200 ? eval { $JSON->decode($r->{body}) } : undef;
}

my ($Z, $H, $LC, $LANE0, $OTHER);
for my $zh ([26, 253], [26, 255], [27, 254], [27, 257]) {
    my ($z, $h) = @$zh;
    my $list = get_json("/api/competition/2/zone/$z/heat/$h/voie/") or next;
    my $zone = get_json("/api/competition/2/zone/$z") or next;
    my @lanes = @{ $list->{voies} || [] };
    next unless @lanes >= 2;
    my ($other) = grep { defined $_->{spot_id} } @lanes[1 .. $#lanes];
    next unless $other;
    ($Z, $H, $LC, $LANE0, $OTHER) = ($z, $h, $zone->{zone}{lane_count}, $lanes[0], $other);
    last;
}
ok(defined $LANE0, 'a lane of competition 2 for the write cases'
   . (defined $LANE0 ? " (zone $Z, heat $H, lane $LANE0->{id}, lane_count $LC)" : ''))
    or BAIL_OUT('no usable lane in competition 2');
my $HEAT = "/api/competition/2/zone/$Z/heat/$H";
my $V = "$HEAT/voie/$LANE0->{id}";               # an existing lane
my $VS = "/small/competition/2/zone/$Z/heat/$H/voie/$LANE0->{id}";   # 64-byte bodies
my $NOLANE = "$HEAT/voie/999999999";              # no such lane
my $V_BEFORE = get_json($V);
my $O_BEFORE = get_json("$HEAT/voie/$OTHER->{id}");
my $NOOP = $JSON->encode({ score => $LANE0->{score} });   # writes back what is there

# ---------------------------------------------------------------- the catalogue

my @CASES;
# c(NAME, STATUS, FIELDS...): FIELDS as for build(), plus: allow (the Allow header
# expected), www (0: WWW-Authenticate without error, 1: with error="invalid_token"),
# msg (the exact message), key (a 2xx answer's resource key), id (its "id"),
#  (answered by httpd, HTML: documented, not a module case), alt (other
# accepted statuses), extra (sub(answer) -> list of problems), and send_raw's options.
my %HTTPD_MSG = (400 => 'Bad request', 404 => 'Not found', 413 => 'Request body too large',
                 414 => 'URI too long');
sub c {
    my ($name, $status, %f) = @_;
    $f{m} //= 'GET';
    # [httpd] on a mount: httpd answers it itself, as the contract's JSON error
    $f{msg} //= $HTTPD_MSG{$status} if $name =~ /^\[httpd\]/ && !$f{httpd};
    push @CASES, { name => $name, st => $status, %f };
}

my $READ = 'GET, HEAD';
my $LANE_ALLOW = 'GET, HEAD, PUT, DELETE';
my $C1 = '/api/competition/1';

# ---- hostile paths (reader token) ----
c('%31 decodes to 1', 200, p => '/api/competition/%31', a => 'R', key => 'competition', id => '1');
c('%31/wod/%31%33 decodes to 1/wod/13', 200, p => '/api/competition/%31/wod/%31%33', a => 'R',
  key => 'wod', id => '13');
c('%2531 is "%31", not 1 (no double decoding)', 404, p => '/api/competition/%2531', a => 'R');
for my $id (qw(abc 0 00 01 -1 +1 0x1 1.0 1e3 1a 1234567890123456789 99999999999999999999
               9223372036854775808), '%2B1', '1%20', '%20', '%0a') {
    c("id '$id'", 404, p => "/api/competition/$id", a => 'R');
}
c('18-digit id, unknown', 404, p => '/api/competition/123456789012345678', a => 'R');
c('18-digit wod id, unknown', 404, p => '/api/competition/1/wod/999999999999999999', a => 'R');
c('%2F inside an id', 404, p => '/api/competition/1%2F2', a => 'R');
c('%2F between segments', 404, p => '/api/competition/1%2Fwod%2F13', a => 'R');
c('%2f lower case', 404, p => '/api/competition/1/zone/21%2fheat', a => 'R');
c('%252F double-encoded slash', 404, p => '/api/competition/1%252F2', a => 'R');
c('encoded ../ inside a segment (1%2F..%2F2)', 404, p => '/api/competition/1%2F..%2F2', a => 'R');
c('%2e%2e segment resolved by httpd: /1/wod/%2e%2e/wod/13 is wod 13', 200,
  p => '/api/competition/1/wod/%2e%2e/wod/13', a => 'R', key => 'wod', id => '13');
c('dot segment /1/./wod/13', 200, p => '/api/competition/1/./wod/13', a => 'R', key => 'wod', id => '13');
c('/competition/1/.. is /competition/', 200, p => '/api/competition/1/..', a => 'R', key => 'competitions');
c('/competition/%2e%2e is the mount point: 404', 404, p => '/api/competition/%2e%2e', a => 'R');
c('overlong-UTF-8 dots %c0%ae%c0%ae', 404, p => '/api/competition/%c0%ae%c0%ae/', a => 'R');
c('backslash dot segments', 404, p => '/api/competition/1\\..\\2', a => 'R');
c('backslash separator', 404, p => '/api/competition\\1', a => 'R');
c('trailing double slash (merged)', 200, p => '/api/competition/1//', a => 'R', key => 'competition', id => '1');
c('empty id segment /1/wod// (merged into /1/wod/)', 200, p => '/api/competition/1/wod//', a => 'R',
  key => 'wods');
c('empty segment in place of an id: /competition//wod/', 404, p => '/api/competition//wod/', a => 'R');
c('raw UTF-8 in the id', 404, p => "/api/competition/\xc3\xa9", a => 'R');
c('encoded UTF-8 in the id', 404, p => '/api/competition/%C3%A9', a => 'R');
c('full-width digit one (U+FF11)', 404, p => '/api/competition/%EF%BC%91', a => 'R');
c('Arabic-Indic digit one (U+0661)', 404, p => '/api/competition/%D9%A1', a => 'R');
c('unicode route word', 404, p => "/api/comp\xc3\xa9tition/1", a => 'R');
c('invalid UTF-8 byte %FF', 404, p => '/api/competition/%FF', a => 'R');
c('CR LF in the path (header injection attempt)', 404, p => '/api/competition/%0d%0aX-Injected:%201',
  a => 'R', extra => sub { $_[0]{h}{'x-injected'} ? ('X-Injected header in the answer') : () });
c('path parameter ;x=1', 404, p => '/api/competition/1;x=1', a => 'R');
c('%23 (an encoded #)', 404, p => '/api/competition/1%23', a => 'R');
c('route word in upper case', 404, p => '/api/COMPETITION/1', a => 'R');
c('9 segments (one more than the longest route)', 404,
  p => '/api/competition/1/zone/21/heat/202/voie/1001/x', a => 'R');
c('many segments (200)', 404, p => '/api' . ('/competition' x 200), a => 'R');
c('a 255-byte segment', 404, p => '/api/competition/' . ('x' x 255), a => 'R');
c('a 255-digit id', 404, p => '/api/competition/1/wod/' . ('9' x 255), a => 'R');
c('a 4000-byte path', 404, p => '/api/competition/' . join('/', ('y' x 99) x 40), a => 'R');
# These fit LimitRequestLine, so the contract's answers apply (JSON 404; 401 first
# without a token).  httpd's own map_to_storage (the <Directory> walk of DocumentRoot +
# URI) fails on a file name longer than PATH_MAX (about 4 KB) with an HTML 403 and an
# error-level AH00127 log line, unless the module claims its mounts in map_to_storage.
c('an 8000-byte path (one segment)', 404, p => '/api/competition/' . ('x' x 7983), a => 'R');
c('an 8000-byte path (many segments)', 404, p => '/api' . ('/competition' x 660), a => 'R');
c('an 8000-byte path without a token: 401 first', 401, p => '/api/competition/' . ('1' x 7983), www => 0);
c('query string is ignored', 200, p => '/api/competition/1?x=%00&y=%FF&z', a => 'R',
  key => 'competition', id => '1');
c('variant B route on the A-only mount', 404, p => '/a/competition/1/heat/', a => 'R');
c('variant A route on the B-only mount', 404, p => '/b/competition/1/zone/', a => 'R');
c('[httpd] request line beyond LimitRequestLine (9000-byte path): 414', 414,
  p => '/api/competition/' . ('x' x 9000), a => 'R');
c('[httpd] %00 in the path: 404', 404, p => '/api/competition/%00', a => 'R');
c('[httpd] invalid %-escape: 400', 400, p => '/api/competition/%zz', a => 'R');
c('[httpd] dot segments above the root: 400', 400, p => '/api/../../etc/passwd', a => 'R');
c('[httpd] %2e%2e out of the mount: 404 of the document root', 404,
  p => '/api/%2e%2e/competition/1', a => 'R', httpd => 1);
c('[httpd] NUL byte in the request line: 400', 400,
  raw => "GET /api/competition/1\x00 HTTP/1.1\r\nHost: $HOSTPORT\r\nAuthorization: Bearer $R\r\n\r\n");

# ---- hostile headers (GET /api/competition/1) ----
c('no Authorization', 401, p => $C1, www => 0);
c('empty Authorization', 401, p => $C1, h => ['Authorization: '], www => 0);
c('Authorization of 6000 bytes', 401, p => $C1, h => ['Authorization: Bearer ' . ('A' x 6000)], www => 1);
c('Authorization of 6000 bytes, Basic', 401, p => $C1, h => ['Authorization: Basic ' . ('A' x 6000)], www => 0);
c('Authorization repeated (valid token twice: httpd joins them)', 401, p => $C1,
  h => ["Authorization: Bearer $R", "Authorization: Bearer $R"], www => 1);
c('valid Bearer then Basic', 401, p => $C1,
  h => ["Authorization: Bearer $R", 'Authorization: Basic ZGVtbzpkZW1v'], www => 1);
c('Basic demo:demo', 401, p => $C1, h => ['Authorization: Basic ZGVtbzpkZW1v'], www => 0);
c('Digest', 401, p => $C1, h => ['Authorization: Digest username="demo", realm="ranking"'], www => 0);
c('"Bearer" alone', 401, p => $C1, h => ['Authorization: Bearer'], www => 0);
c('"Bearer  " (blanks only)', 401, p => $C1, h => ['Authorization: Bearer  '], www => 0);
c('"Bearer a b"', 401, p => $C1, h => ['Authorization: Bearer a b'], www => 1);
c('"Bearerx TOKEN" (no separator)', 401, p => $C1, h => ["Authorization: Bearerx $R"], www => 0);
c('"Token TOKEN" (another scheme)', 401, p => $C1, h => ["Authorization: Token $R"], www => 0);
c('scheme in lower case: works', 200, p => $C1, h => ["Authorization: bearer $R"], key => 'competition', id => '1');
c('scheme in upper case: works', 200, p => $C1, h => ["Authorization: BEARER $R"], key => 'competition', id => '1');
c('tab after the scheme: works', 200, p => $C1, h => ["Authorization: Bearer\t$R"], key => 'competition', id => '1');
c('header name in lower case: works', 200, p => $C1, h => ["authorization: Bearer $R"], key => 'competition', id => '1');
c('token with a "!"', 401, p => $C1, h => ['Authorization: Bearer ' . substr($R, 0, -1) . '!'], www => 1);
c('token plus one character', 401, p => $C1, h => ["Authorization: Bearer ${R}A"], www => 1);
c('token minus one character', 401, p => $C1, h => ['Authorization: Bearer ' . substr($R, 0, -1)], www => 1);
c('token with "=" padding', 401, p => $C1, h => ["Authorization: Bearer $R="], www => 1);
c('token followed by a comma', 401, p => $C1, h => ["Authorization: Bearer $R,"], www => 1);
c('token with UTF-8 bytes', 401, p => $C1, h => ["Authorization: Bearer \xc3\xa9" . substr($R, 1)], www => 1);
c('token with a high byte', 401, p => $C1, h => ["Authorization: Bearer \xff" . substr($R, 1)], www => 1);
c('token in quotes', 401, p => $C1, h => [qq(Authorization: Bearer "$R")], www => 1);
c('token in the query string only', 401, p => "$C1?access_token=$R", www => 0);
c('HEAD without a token', 401, m => 'HEAD', p => $C1, www => 0);
c('[httpd] Authorization of 9000 bytes (> LimitRequestFieldSize): 400', 400, p => $C1,
  h => ['Authorization: Bearer ' . ('A' x 9000)]);
c('[httpd] NUL in the token: 400', 400, p => $C1, h => ["Authorization: Bearer $R\x00"]);
c('[httpd] \\x01 in the token: 400', 400, p => $C1, h => ["Authorization: Bearer \x01$R"]);
c('[httpd] DEL in the token: 400', 400, p => $C1, h => ["Authorization: Bearer $R\x7f"]);
c('[httpd] "Authorization :" (space before the colon): 400', 400, p => $C1,
  h => ["Authorization : Bearer $R"]);

# ---- Content-Type (editor, existing lane; the body {} is itself a 400: a 400 shows the
# Content-Type was accepted, and nothing is written) ----
c('Content-Type with charset=utf-8: accepted (then 400 for {})', 400, m => 'PUT', p => $V, a => 'E',
  ct => 'application/json; charset=utf-8', b => '{}');
c('Content-Type in upper case: accepted', 400, m => 'PUT', p => $V, a => 'E', ct => 'APPLICATION/JSON', b => '{}');
c('Content-Type "application/json;": accepted', 400, m => 'PUT', p => $V, a => 'E', ct => 'application/json;', b => '{}');
c('Content-Type text/plain', 415, m => 'PUT', p => $V, a => 'E', ct => 'text/plain', b => $NOOP);
c('Content-Type application/jsonx', 415, m => 'PUT', p => $V, a => 'E', ct => 'application/jsonx', b => $NOOP);
c('Content-Type application/json-patch+json', 415, m => 'PUT', p => $V, a => 'E',
  ct => 'application/json-patch+json', b => $NOOP);
c('Content-Type text/json', 415, m => 'PUT', p => $V, a => 'E', ct => 'text/json', b => $NOOP);
c('Content-Type form-urlencoded', 415, m => 'PUT', p => $V, a => 'E', ct => 'application/x-www-form-urlencoded', b => $NOOP);
c('Content-Type multipart', 415, m => 'PUT', p => $V, a => 'E', ct => 'multipart/form-data; boundary=x', b => $NOOP);
c('Content-Type "application/ json"', 415, m => 'PUT', p => $V, a => 'E', ct => 'application/ json', b => $NOOP);
c('Content-Type empty', 415, m => 'PUT', p => $V, a => 'E', ct => '', b => $NOOP);
c('no Content-Type', 415, m => 'PUT', p => $V, a => 'E', ct => undef, b => $NOOP);
c('two Content-Types (json, text/plain)', 415, m => 'PUT', p => $V, a => 'E', b => $NOOP,
  h => ['Content-Type: text/plain']);
c('/connect: Content-Type text/plain', 415, m => 'POST', p => '/api/connect', ct => 'text/plain',
  b => '{"client_id":"demo","client_secret":"demo"}');
c('/connect: no Content-Type', 415, m => 'POST', p => '/api/connect', ct => undef,
  b => '{"client_id":"demo","client_secret":"demo"}');
c('/connect: Content-Type with charset: works', 200, m => 'POST', p => '/api/connect',
  ct => 'application/json; charset=utf-8', b => '{"client_id":"demo","client_secret":"demo"}',
  key => 'access_token');

# ---- Content-Length, Transfer-Encoding ----
c('Content-Length 100, 13-byte body, then the client ends: 400 (server waited meanwhile)', 400,
  m => 'PUT', p => $V, a => 'E', h => ['Content-Length: 100'], b => '{"score":"x"}', pause => 2,
  alt => [408], extra => sub { $_[0]{early} ? ('answered before the client ended its side') : () });
c('/connect: Content-Length 100, 43-byte body', 400, m => 'POST', p => '/api/connect',
  h => ['Content-Length: 100'], b => '{"client_id":"demo","client_secret":"demo"}', alt => [408]);
c('Content-Length 3, longer body (truncated JSON)', 400, m => 'PUT', p => $V, a => 'E',
  h => ['Content-Length: 3'], b => $NOOP);
c('Content-Length 999999999, no body sent: 413 at once', 413, m => 'PUT', p => $V, a => 'E',
  h => ['Content-Length: 999999999'], b => '{"score":"x"}', noshut => 1, timeout => 10);
c('Expect: 100-continue with Content-Length 99999: 413', 413, m => 'PUT', p => $V, a => 'E',
  h => ['Expect: 100-continue', 'Content-Length: 99999'], b => '', noshut => 1, timeout => 10);
c('PUT without a body (no Content-Length)', 400, m => 'PUT', p => $V, a => 'E', ct => 'application/json');
c('chunked PUT (a no-op write): 200', 200, m => 'PUT', p => $V, a => 'E',
  h => ['Transfer-Encoding: chunked'], b => chunked($NOOP, 5), key => 'voie', id => "$LANE0->{id}");
c('chunked /connect: 200', 200, m => 'POST', p => '/api/connect', h => ['Transfer-Encoding: chunked'],
  b => chunked('{"client_id":"demo","client_secret":"demo"}'), key => 'access_token');
c('chunked PUT over 64 KiB: 413', 413, m => 'PUT', p => $V, a => 'E', h => ['Transfer-Encoding: chunked'],
  b => chunked('{"score":"' . ('x' x 70000) . '"}', 4096));
c('chunked PUT over 64 KiB in one chunk: 413', 413, m => 'PUT', p => $V, a => 'E',
  h => ['Transfer-Encoding: chunked'], b => chunked('{"score":"' . ('x' x 70000) . '"}', 100000));
c('chunked /connect over 64 KiB: 413', 413, m => 'POST', p => '/api/connect', h => ['Transfer-Encoding: chunked'],
  b => chunked('{"client_id":"demo","client_secret":"' . ('x' x 70000) . '"}', 8192));
c('chunked PUT over the 64-byte limit of /small: 413', 413, m => 'PUT', p => $VS, a => 'E',
  h => ['Transfer-Encoding: chunked'], b => chunked('{"score":"' . ('x' x 60) . '"}'));
c('chunked /small/connect over 64 bytes: 413', 413, m => 'POST', p => '/small/connect',
  h => ['Transfer-Encoding: chunked'], b => chunked('{"client_id":"demo","client_secret":"demo","pad":"' . ('z' x 40) . '"}'));
c('chunked body cut short (the client ends): 400', 400, m => 'PUT', p => $V, a => 'E',
  h => ['Transfer-Encoding: chunked'], b => "5\r\n{\"sco");
c('chunked with Content-Length too (chunked wins), body {}', 400, m => 'PUT', p => $V, a => 'E',
  h => ['Content-Length: 2', 'Transfer-Encoding: chunked'], b => chunked('{}'));
c('[httpd] Content-Length -1: 400', 400, m => 'PUT', p => $V, a => 'E', h => ['Content-Length: -1'],
  b => $NOOP);
c('[httpd] Content-Length abc: 400', 400, m => 'PUT', p => $V, a => 'E', h => ['Content-Length: abc'],
  b => $NOOP);
c('[httpd] Content-Length of 23 digits: 400', 400, m => 'PUT', p => $V, a => 'E',
  h => ['Content-Length: 99999999999999999999999'], b => $NOOP);
c('[httpd] two different Content-Lengths: 400', 400, m => 'PUT', p => $V, a => 'E',
  h => ['Content-Length: ' . length($NOOP), 'Content-Length: ' . (length($NOOP) + 1)], b => $NOOP);
c('[httpd] Transfer-Encoding gzip: 400', 400, m => 'PUT', p => $V, a => 'E',
  h => ['Transfer-Encoding: gzip'], b => $NOOP);
c('[httpd] chunk size "zz": 400', 400, m => 'PUT', p => "$V?bad-chunk-$$", a => 'E',
  h => ['Transfer-Encoding: chunked'], b => "zz\r\nabc\r\n0\r\n\r\n");
c('[httpd] chunk size overflowing: 413', 413, m => 'PUT', p => $V, a => 'E',
  h => ['Transfer-Encoding: chunked'], b => "ffffffffffffffffff\r\nabc\r\n0\r\n\r\n");

# ---- hostile bodies: lane PUT (editor, existing lane) ----
my @lane_bad = (
    ['10000 "["', '[' x 10000],
    ['10000 "[" in a value', '{"score":' . ('[' x 10000)],
    ['100 nested arrays as the score', '{"score":' . ('[' x 100) . (']' x 100) . '}'],
    ['score of 65 ASCII characters', '{"score":"' . ('x' x 65) . '"}'],
    ['score of 65 two-byte characters', '{"score":"' . ("\xc3\xa9" x 65) . '"}'],
    ['score of 65 \\u escapes', '{"score":"' . ('\u00e9' x 65) . '"}'],
    ['score of 60000 bytes (under the body limit)', '{"score":"' . ('x' x 60000) . '"}'],
    ['number 0', '{"number":0}'],
    ['number -1', '{"number":-1}'],
    ['number -0', '{"number":-0}'],
    ['number 1000', '{"number":1000}'],
    ['number lane_count + 1', '{"number":' . ($LC + 1) . '}'],
    ['number 2^63-1', '{"number":9223372036854775807}'],
    ['number 2^63', '{"number":9223372036854775808}'],
    ['number -2^63-1', '{"number":-9223372036854775809}'],
    ['number 1e400', '{"number":1e400}'],
    ['number 1.5', '{"number":1.5}'],
    ['number 1.0', '{"number":1.0}'],
    ['number 1e0', '{"number":1e0}'],
    ['number "1" (string)', '{"number":"1"}'],
    ['number null', '{"number":null}'],
    ['number true', '{"number":true}'],
    ['number []', '{"number":[]}'],
    ['number NaN', '{"number":NaN}'],
    ['number Infinity', '{"number":Infinity}'],
    ['number 0x1', '{"number":0x1}'],
    ['number 01', '{"number":01}'],
    ['number +1', '{"number":+1}'],
    ['invalid UTF-8 byte \\xff', "{\"score\":\"\xff\"}"],
    ['overlong UTF-8 \\xc0\\xaf', "{\"score\":\"\xc0\xaf\"}"],
    ['UTF-8-encoded surrogate \\xed\\xa0\\x80', "{\"score\":\"\xed\xa0\x80\"}"],
    ['truncated UTF-8 sequence', "{\"score\":\"\xe2\x82\"}"],
    ['lone surrogate \\ud800', '{"score":"\ud800"}'],
    ['lone low surrogate \\udc00', '{"score":"\udc00"}'],
    ['\\u0000 in a value', '{"score":"a\u0000b"}'],
    ['\\u0000 in a key', '{"sc\u0000ore":"a"}'],
    ['raw control character in a string', "{\"score\":\"a\x01b\"}"],
    ['duplicate key', '{"score":"1","score":"2"}'],
    ['duplicate key, different values types', '{"number":1,"number":null}'],
    ['spot_id as a number', '{"spot_id":' . ($OTHER->{spot_id} // 1) . '}'],
    ['spot_id "0154"', '{"spot_id":"0154"}'],
    ['spot_id ""', '{"spot_id":""}'],
    ['spot_id "abc"', '{"spot_id":"abc"}'],
    ['spot_id of 19 digits', '{"spot_id":"1234567890123456789"}'],
    ['spot_id of another competition (101)', '{"spot_id":"101"}'],
    ['spot_id unknown (18 digits)', '{"spot_id":"999999999999999999"}'],
    ['spot_id true', '{"spot_id":true}'],
    ['spot_id {}', '{"spot_id":{}}'],
    ['score as a number', '{"score":12}'],
    ['score as an object', '{"score":{}}'],
    ['score as an array', '{"score":["1"]}'],
    ['score false', '{"score":false}'],
    ['unknown key', '{"extra":1}'],
    ['unknown key beside a valid one', '{"score":"1","extra":1}'],
    ['key in another case', '{"Score":"1"}'],
    ['id in the body', '{"id":"1"}'],
    ['one bad field among good ones', '{"score":"1","number":0}'],
    ['empty object', '{}'],
    ['array', '[]'],
    ['array of an object', '[{"score":"1"}]'],
    ['string', '"x"'],
    ['number', '1'],
    ['null', 'null'],
    ['true', 'true'],
    ['trailing garbage', '{"score":"1"}x'],
    ['two objects', '{"score":"1"}{"score":"2"}'],
    ['UTF-8 BOM first', "\xef\xbb\xbf{\"score\":\"1\"}"],
    ['UTF-16 body', "\xff\xfe{\0\"\0s\0c\0o\0r\0e\0\"\0:\0\"\x001\0\"\0}\0"],
    ['empty body', ''],
    ['whitespace only', "  \n\t "],
    ['single quotes', "{'score':'1'}"],
    ['trailing comma', '{"score":"1",}'],
    ['comment', '{"score":"1" /* c */}'],
    ['unterminated object', '{"score":"1"'],
    ['unterminated string', '{"score":"1}'],
    ['form encoding', 'score=1'],
);
c("lane PUT: $_->[0]", 400, m => 'PUT', p => $V, a => 'E', b => $_->[1]) for @lane_bad;
c('lane PUT: body of 70000 bytes: 413', 413, m => 'PUT', p => $V, a => 'E',
  b => '{"score":"' . ('x' x 70000) . '"}');
c('lane PUT: 65 bytes on /small (64-byte limit): 413', 413, m => 'PUT', p => $VS, a => 'E',
  b => '{"score":"' . ('x' x 53) . '"}');
c('lane PUT: number used by another lane of the heat: 409', 409, m => 'PUT', p => $V, a => 'E',
  b => qq({"number":$OTHER->{number}}));
c('lane PUT: spot already in another lane of the heat: 409', 409, m => 'PUT', p => $V, a => 'E',
  b => qq({"spot_id":"$OTHER->{spot_id}"}));

# ---- typed scores and tiebreaks (editor; doc/api.md 7.3: one message per scoring) ----
my %MSG_SCORE = (
    time_cap => 'Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD',
    time     => 'Invalid body: score must be a time like 7:45 or WD (CAP+N needs a time cap)',
    reps     => 'Invalid body: score must be a number of reps from 0 to 999999999 or WD',
    load     => 'Invalid body: score must be a load like 102.5, 100 kg or 225 lb (0 to 99999, at most 2 decimals) or WD',
    points   => 'Invalid body: score must be points like 87.5 (-99999 to 99999, at most 3 decimals) or WD',
);
my $MSG_TB = 'Invalid body: tiebreak must be a time like 1:02.5';
my $MSG_TB_TYPE = 'Invalid body: tiebreak must be a string or null';
my %TYPED = (   # scoring => an empty lane of a heat of a WOD with that scoring
    time_cap => '/api/competition/2/zone/26/heat/251/voie/2006',   # WOD 16, cap 720 s
    time     => '/api/competition/2/zone/27/heat/260/voie/2034',   # WOD 20, no cap
    reps     => '/api/competition/2/zone/26/heat/255/voie/2018',   # WOD 18
    load     => '/api/competition/2/zone/26/heat/253/voie/2013',   # WOD 17
    points   => '/api/competition/2/zone/27/heat/259/voie/2032',   # WOD 19
);
my $FREE_V = "/api$FREE{voie}";                                    # heat 258, no WOD
my %TYPED_BEFORE = map { $_ => get_json($_) } values(%TYPED), $FREE_V;
my %bad_scores = (
    time_cap => ['7:60', '7:5', '1:2:03', '7:45.1234', ' 7:45', '7:45 ', 'cap+3', 'CAP+', 'CAP-3',
                 'CAP+100000', '12:00.001', '1:02:03.5', '123:00', '-7:45', '', 'DNF', 'wd'],
    time     => ['CAP+12', 'CAP+0', '7:61', '100:00:00', '1:2:03'],
    reps     => ['-1', '1e3', '12.5', '1000000000', ' 212', '0x10', ''],
    load     => ['100  kg', '100 lbs', '100.123', '100KG', '100000', '99999.5', '.5', '5.', ''],
    points   => ['87.1234', '+3', '--3', '100000', '-100000', '87.', '.5', ''],
);
for my $k (sort keys %bad_scores) {
    for my $sc (@{ $bad_scores{$k} }) {
        c("lane PUT, $k: score '$sc'", 400, m => 'PUT', p => $TYPED{$k}, a => 'E',
          b => $JSON->encode({ score => $sc }), msg => $MSG_SCORE{$k});
    }
}
for my $tb ('CAP+3', 'WD', '1:2', '7:60', '1:02.5000', ' 1:02', '', 'abc', '-1:00', '62') {
    c("lane PUT: tiebreak '$tb'", 400, m => 'PUT', p => $TYPED{time_cap}, a => 'E',
      b => $JSON->encode({ tiebreak => $tb }), msg => $MSG_TB);
}
c('lane PUT: tiebreak as a number', 400, m => 'PUT', p => $TYPED{time_cap}, a => 'E',
  b => '{"tiebreak":62}', msg => $MSG_TB_TYPE);
c('lane PUT: tiebreak true', 400, m => 'PUT', p => $TYPED{time_cap}, a => 'E',
  b => '{"tiebreak":true}', msg => $MSG_TB_TYPE);
c('lane PUT: tiebreak an object', 400, m => 'PUT', p => $TYPED{time_cap}, a => 'E',
  b => '{"tiebreak":{}}', msg => $MSG_TB_TYPE);
c('lane PUT: a good score, a bad tiebreak', 400, m => 'PUT', p => $TYPED{time_cap}, a => 'E',
  b => '{"score":"7:45","tiebreak":"WD"}', msg => $MSG_TB);
c('lane PUT: a bad score, a good tiebreak', 400, m => 'PUT', p => $TYPED{reps}, a => 'E',
  b => '{"score":"7:45","tiebreak":"1:00"}', msg => $MSG_SCORE{reps});
c('lane PUT: a tiebreak twice', 400, m => 'PUT', p => $TYPED{time_cap}, a => 'E',
  b => '{"tiebreak":"1:00","tiebreak":"1:01"}', msg => 'Invalid body: duplicate key');
c('lane PUT, heat without WOD: a tiebreak that is not a time', 400, m => 'PUT', p => $FREE_V, a => 'E',
  b => '{"tiebreak":"first"}', msg => $MSG_TB);
c('lane PUT, heat without WOD: a score of 65 characters', 400, m => 'PUT', p => $FREE_V, a => 'E',
  b => $JSON->encode({ score => "\x{e9}" x 65 }), msg => 'Invalid body: score longer than 64 characters');

# ---- leaderboards: bad queries, unknown divisions (reader) ----
my $LB = '/api/competition/4/leaderboard';
my $LBW = '/api/competition/4/wod/31/leaderboard';
for my $q ('division=%zz', 'division=%00', 'division=RX%00', 'division=%', 'division=%4', 'division=%G0',
           'division=RX&division=RX', 'division=RX&division=Scaled', 'divisi%6Fn=RX&division=RX',
           'division=' . ('%zz' x 1000), join('&', ('division=RX') x 500)) {
    my $show = length $q > 60 ? substr($q, 0, 40) . '... (' . length($q) . ' bytes)' : $q;
    c("leaderboard ?$show", 400, p => "$LB?$q", a => 'R', msg => 'Invalid query');
    c("WOD leaderboard ?$show", 400, p => "$LBW?$q", a => 'R', msg => 'Invalid query');
}
c('leaderboard HEAD ?division=%zz: 400, no body', 400, m => 'HEAD', p => "$LB?division=%zz", a => 'R');
for my $q ('division=Nope', 'division=', 'division', 'division=rx', 'division=RX+', 'division=%FF',
           "division=\xc3\xa9", 'division=%C3%A9', 'division=' . ('x' x 4000), 'division=Men') {
    my $show = length $q > 60 ? substr($q, 0, 40) . '... (' . length($q) . ' bytes)' : $q;
    c("leaderboard ?$show: a division no spot has", 404, p => "$LB?$q", a => 'R');
}
c('leaderboard HEAD of an unknown division: 404, no body', 404, m => 'HEAD', p => "$LBW?division=Nope", a => 'R');
c('leaderboard: other parameters are ignored, even undecodable', 200, p => "$LB?x=%zz&%zz=1&division=RX&y",
  a => 'R', key => 'leaderboard');
c('[httpd] leaderboard: a raw space in the query: 400', 400, p => "$LB?division=RX Men", a => 'R');
c('leaderboard of an unknown competition + bad query: 404 first', 404,
  p => '/api/competition/999999/leaderboard?division=%zz', a => 'R');
c('leaderboard of a WOD of another competition + bad query: 404 first', 404,
  p => '/api/competition/4/wod/11/leaderboard?division=RX&division=RX', a => 'R');
c('leaderboard without a token + bad query: 401 first', 401, p => "$LB?division=%zz", www => 0);
c('leaderboard PUT + bad query: 405 first', 405, m => 'PUT', p => "$LB?division=%zz", a => 'E', b => '{}',
  allow => 'GET, HEAD');
c('OPTIONS on a leaderboard with a bad query: 204', 204, m => 'OPTIONS', p => "$LB?division=%zz", allow => 'GET, HEAD');
for my $p ('/api/competition/abc/leaderboard', '/api/competition/0/leaderboard',
           '/api/competition/4/wod/0/leaderboard', '/api/competition/4/wod/31%2Fleaderboard',
           '/api/competition/4/leaderboard%2F', '/api/competition/4/LEADERBOARD') {
    c("leaderboard path $p", 404, p => $p, a => 'R');
}

# ---- hostile bodies: /connect ----
my @connect_bad = (
    ['no client_secret', '{"client_id":"demo"}'],
    ['no client_id', '{"client_secret":"demo"}'],
    ['client_id a number', '{"client_id":1,"client_secret":"demo"}'],
    ['client_secret null', '{"client_id":"demo","client_secret":null}'],
    ['client_secret an array', '{"client_id":"demo","client_secret":["demo"]}'],
    ['client_secret an object', '{"client_id":"demo","client_secret":{"x":"demo"}}'],
    ['client_secret true', '{"client_id":"demo","client_secret":true}'],
    ['duplicate client_id', '{"client_id":"demo","client_secret":"demo","client_id":"judge"}'],
    ['duplicate client_secret', '{"client_id":"demo","client_secret":"x","client_secret":"demo"}'],
    ['empty object', '{}'],
    ['array', '[]'],
    ['string', '"demo"'],
    ['null', 'null'],
    ['empty body', ''],
    ['whitespace only', '   '],
    ['UTF-8 BOM first', "\xef\xbb\xbf{\"client_id\":\"demo\",\"client_secret\":\"demo\"}"],
    ['trailing garbage', '{"client_id":"demo","client_secret":"demo"}x'],
    ['invalid UTF-8 in client_id', "{\"client_id\":\"d\xffmo\",\"client_secret\":\"demo\"}"],
    ['overlong UTF-8 in client_secret', "{\"client_id\":\"demo\",\"client_secret\":\"\xc0\xafdemo\"}"],
    ['\\u0000 in client_id', '{"client_id":"demo\u0000","client_secret":"demo"}'],
    ['lone surrogate in client_id', '{"client_id":"\ud800","client_secret":"demo"}'],
    ['client_id of 300 characters', '{"client_id":"' . ('u' x 300) . '","client_secret":"demo"}'],
    ['client_secret of 2000 characters', '{"client_id":"demo","client_secret":"' . ('p' x 2000) . '"}'],
    ['10000 "["', '[' x 10000],
    ['deep nesting in an ignored key', '{"client_id":"demo","client_secret":"demo","x":' . ('[' x 5000) . (']' x 5000) . '}'],
    ['form encoding', 'client_id=demo&client_secret=demo'],
    ['single quotes', "{'client_id':'demo','client_secret':'demo'}"],
);
c("/connect: $_->[0]", 400, m => 'POST', p => '/api/connect', b => $_->[1]) for @connect_bad;
c('/connect: client_secret of 70000 bytes: 413', 413, m => 'POST', p => '/api/connect',
  b => '{"client_id":"demo","client_secret":"' . ('p' x 70000) . '"}');
c('/small/connect: 65 bytes: 413', 413, m => 'POST', p => '/small/connect',
  b => '{"client_id":"demo","client_secret":"demo","pad":"' . ('z' x 15) . '"}');
c('/connect: empty strings', 401, m => 'POST', p => '/api/connect', b => '{"client_id":"","client_secret":""}',
  msg => 'Invalid credentials');
c('/connect: wrong password', 401, m => 'POST', p => '/api/connect',
  b => '{"client_id":"demo","client_secret":"wrong"}', msg => 'Invalid credentials');
c('/connect: user name in another case', 401, m => 'POST', p => '/api/connect',
  b => '{"client_id":"DEMO","client_secret":"demo"}', msg => 'Invalid credentials');
c('/connect: disabled user', 401, m => 'POST', p => '/api/connect',
  b => '{"client_id":"retired","client_secret":"retired"}', msg => 'Invalid credentials');
c('/connect: unknown keys are ignored (OAuth grant_type)', 200, m => 'POST', p => '/api/connect',
  b => '{"grant_type":"client_credentials","client_id":"demo","client_secret":"demo"}', key => 'access_token');

# ---- wrong methods on every route family ----
# (part 3: an organizer POSTs to the lists and PATCHes and DELETEs one resource of the
# setup routes; a reader's such write is 403, after the method's 405)
my $LIST_ALLOW = 'GET, HEAD, POST';
my $ONE_ALLOW = 'GET, HEAD, PATCH, DELETE';
my @read_routes = (
    ['/api/competition/', $LIST_ALLOW], ['/api/competition/1', $ONE_ALLOW],
    ['/api/competition/1/wod/', $LIST_ALLOW], ['/api/competition/1/wod/13', $ONE_ALLOW],
    ['/api/competition/1/spot/', $LIST_ALLOW], ['/api/competition/1/spot/101', $ONE_ALLOW],
    ['/api/competition/1/zone/', $LIST_ALLOW], ['/api/competition/1/zone/21', $ONE_ALLOW],
    ['/api/competition/1/zone/21/heat/', $LIST_ALLOW], ['/api/competition/1/zone/21/heat/202', $ONE_ALLOW],
    ['/api/competition/1/zone/21/heat/202/voie/', $LIST_ALLOW], ['/api/competition/1/heat/', $READ],
    ['/api/competition/1/heat/202', $READ], ['/api/competition/1/heat/202/line/', $READ],
    ['/api/competition/1/heat/202/line/1001', $READ],
    ['/api/competition/1/leaderboard', $READ], ['/api/competition/1/wod/13/leaderboard', $READ],
);
for my $r (@read_routes) {
    my ($p, $allow) = @$r;
    for my $m (qw(POST PUT DELETE PATCH FOO)) {
        my $body = $m =~ /^(POST|PUT|PATCH)$/ ? (b => '{"score":"405"}') : ();
        if (index($allow, $m) >= 0) {
            c("$m by a reader on a setup route: 403", 403, m => $m, p => $p, a => 'R', $body);
        }
        else {
            c("$m on a route without it: 405", 405, m => $m, p => $p, a => 'R', allow => $allow, $body);
        }
    }
}
c('PUT by an editor on a heat (competition 2)', 405, m => 'PUT', p => $HEAT, a => 'E',
  b => $NOOP, allow => $ONE_ALLOW);
c('PUT by an editor on the lane list', 405, m => 'PUT', p => "$HEAT/voie/", a => 'E', b => $NOOP,
  allow => $LIST_ALLOW);
c('PATCH by an editor on a heat: 403 (organizers)', 403, m => 'PATCH', p => $HEAT, a => 'E', b => $NOOP);
c('POST by an editor on the lane list: 403 (organizers)', 403, m => 'POST', p => "$HEAT/voie/", a => 'E',
  b => $NOOP);
c('POST on a lane', 405, m => 'POST', p => $V, a => 'E', b => $NOOP, allow => $LANE_ALLOW);
c('PATCH on a lane', 405, m => 'PATCH', p => $V, a => 'E', b => $NOOP, allow => $LANE_ALLOW);
c('FOO on a lane', 405, m => 'FOO', p => $V, a => 'E', allow => $LANE_ALLOW);
c('PROPFIND on a lane', 405, m => 'PROPFIND', p => $V, a => 'E', allow => $LANE_ALLOW);
c('"put" in lower case on a lane (methods are case-sensitive)', 405, m => 'put', p => $V, a => 'E',
  b => $NOOP, allow => $LANE_ALLOW);
c('a 200-letter method', 405, m => 'X' x 200, p => $C1, a => 'R', allow => $ONE_ALLOW);
c('PUT on a variant B line', 405, m => 'PUT', p => "/api/competition/2/heat/$H/line/$LANE0->{id}", a => 'E',
  b => $NOOP, allow => $READ);
c('DELETE on a variant B line', 405, m => 'DELETE', p => "/api/competition/2/heat/$H/line/$LANE0->{id}",
  a => 'E', allow => $READ);
c('PUT on a line of the B-only mount', 405, m => 'PUT', p => "/b/competition/2/heat/$H/line/$LANE0->{id}",
  a => 'E', b => $NOOP, allow => $READ);
c('DELETE on a line of the B-only mount', 405, m => 'DELETE', p => "/b/competition/2/heat/$H/line/$LANE0->{id}",
  a => 'E', allow => $READ);
for my $m (qw(GET PUT DELETE PATCH FOO)) {
    c("$m on /connect", 405, m => $m, p => '/api/connect', allow => 'POST',
      ($m =~ /^(PUT|PATCH)$/ ? (b => '{"client_id":"demo","client_secret":"demo"}') : ()));
}
c('HEAD on /connect', 405, m => 'HEAD', p => '/api/connect', allow => 'POST');
c('GET on /connect with a token', 405, p => '/api/connect', a => 'R', allow => 'POST');
c('"post" in lower case on /connect', 405, m => 'post', p => '/api/connect', allow => 'POST',
  b => '{"client_id":"demo","client_secret":"demo"}');
c('OPTIONS on a competition, no token: 204', 204, m => 'OPTIONS', p => $C1, allow => $ONE_ALLOW);
c('OPTIONS on a lane, no token: 204', 204, m => 'OPTIONS', p => $V, allow => $LANE_ALLOW);
c('OPTIONS on /connect: 204', 204, m => 'OPTIONS', p => '/api/connect', allow => 'POST');
c('OPTIONS on an unknown route: 404', 404, m => 'OPTIONS', p => '/api/nowhere');
c('HEAD on an unknown route: 404', 404, m => 'HEAD', p => '/api/nowhere', a => 'R');
c('[httpd] CONNECT: 400', 400, m => 'CONNECT', p => $C1, a => 'R');
# TRACE: httpd's core answers it itself (TraceEnable, default on), echoing the request
# with its Authorization header; on the module's mounts the module takes it over and
# treats it as any other method (401 without a token, 405 with one).
my $no_echo = sub { index($_[0]{body}, 'Bearer') >= 0 || index($_[0]{body}, $R) >= 0
                    ? ('the answer echoes the request (Authorization)') : () };
c('TRACE without a token: 401, no echo', 401, m => 'TRACE', p => $C1, www => 0, extra => $no_echo);
c('TRACE with a token: 405, no echo', 405, m => 'TRACE', p => $C1, a => 'R', allow => $ONE_ALLOW, extra => $no_echo);
c('TRACE on a lane: 405', 405, m => 'TRACE', p => $V, a => 'E', allow => $LANE_ALLOW, extra => $no_echo);
c('TRACE on /connect: 405', 405, m => 'TRACE', p => '/api/connect', h => ["Authorization: Bearer $R"],
  allow => 'POST', extra => $no_echo);
c('TRACE on an unknown route with a token: 404', 404, m => 'TRACE', p => '/api/nowhere', a => 'R', extra => $no_echo);
c('TRACE with a body: 405', 405, m => 'TRACE', p => $C1, a => 'R', b => '{"x":1}', allow => $ONE_ALLOW);
c('[httpd] TRACE outside the mounts: httpd echoes it (200 message/http)', 200, m => 'TRACE',
  p => '/index.html', httpd => 1,
  extra => sub { ($_[0]{h}{'content-type'}[0] // '') =~ m{^message/http} ? () : ('not message/http') });

# ---- order of checks ----
c('no token + unknown route: 401 first', 401, p => '/api/nowhere', www => 0);
c('no token + unknown id: 401 first', 401, p => '/api/competition/abc', www => 0);
c('no token + wrong method: 401 first', 401, m => 'DELETE', p => $C1, www => 0);
c('bad token + PUT on a missing lane: 401 first', 401, m => 'PUT', p => $NOLANE,
  h => ['Authorization: Bearer ' . ('A' x 43)], b => '{}', www => 1);
c('no token + PUT with a bad body: 401 first', 401, m => 'PUT', p => $V, ct => 'text/plain', b => 'x', www => 0);
c('reader + unknown route: 404', 404, m => 'PUT', p => '/api/nowhere', a => 'R', b => $NOOP);
c('reader + PUT on the lane list: 405 before 403', 405, m => 'PUT', p => "$HEAT/voie/", a => 'R',
  b => $NOOP, allow => $LIST_ALLOW);
c('reader + PUT on a missing lane: 403 before 404', 403, m => 'PUT', p => $NOLANE, a => 'R', b => $NOOP);
c('reader + PUT with a bad Content-Type and body: 403', 403, m => 'PUT', p => $V, a => 'R',
  ct => 'text/plain', b => 'x');
c('reader + DELETE on an existing lane: 403', 403, m => 'DELETE', p => $V, a => 'R');
c('reader + DELETE on a missing lane: 403', 403, m => 'DELETE', p => $NOLANE, a => 'R');
c('editor + PUT on a missing lane + bad Content-Type: 404 before 415', 404, m => 'PUT', p => $NOLANE,
  a => 'E', ct => 'text/plain', b => 'x');
c('editor + PUT on a lane of another heat + bad body: 404', 404, m => 'PUT', p => "$HEAT/voie/2001",
  a => 'E', b => '{}');
c('editor + PUT through the wrong zone: 404', 404, m => 'PUT',
  p => '/api/competition/2/zone/' . ($Z == 26 ? 27 : 26) . "/heat/$H/voie/$LANE0->{id}", a => 'E', b => $NOOP);
c('editor + PUT through the wrong competition: 404', 404, m => 'PUT',
  p => "/api/competition/1/zone/$Z/heat/$H/voie/$LANE0->{id}", a => 'E', b => $NOOP);
c('editor + PUT on a lane route of the B-only mount: 404', 404, m => 'PUT',
  p => "/b/competition/2/zone/$Z/heat/$H/voie/$LANE0->{id}", a => 'E', b => $NOOP);
c('editor + DELETE on a missing lane: 404', 404, m => 'DELETE', p => $NOLANE, a => 'E');
c('editor + PUT, bad Content-Type + bad body: 415 before 400', 415, m => 'PUT', p => $V, a => 'E',
  ct => 'text/plain', b => 'x');
c('editor + PUT, bad Content-Type + oversize body: 415 before 413', 415, m => 'PUT', p => $V, a => 'E',
  ct => 'text/plain', b => 'x' x 70000);
c('editor + PUT, oversize invalid body: 413 before 400', 413, m => 'PUT', p => $V, a => 'E', b => 'x' x 70000);
c('editor + PUT, oversize body announced only: 413 before 400', 413, m => 'PUT', p => $V, a => 'E',
  h => ['Content-Length: 70000'], b => 'x', noshut => 1, timeout => 10);
c('/connect: bad Content-Type + oversize + bad body: 415', 415, m => 'POST', p => '/api/connect',
  ct => 'text/plain', b => 'x' x 70000);
c('/connect: oversize invalid body: 413 before 400', 413, m => 'POST', p => '/api/connect', b => 'x' x 70000);

# ---------------------------------------------------------------- run

my %MSG = (401 => 'Unauthorized', 403 => 'Forbidden', 404 => 'Not found', 405 => 'Method not allowed');
my ($n_module, $n_httpd) = (0, 0);

sub judge {
    my ($c, $r) = @_;
    my @why;
    my $head = $c->{m} eq 'HEAD';
    my @ok_status = ($c->{st}, @{ $c->{alt} || [] });
    return ("no answer: " . ($r->{err} // ($r->{timeout} ? 'timed out' : 'connection closed')))
        unless $r->{status};
    push @why, "status $r->{status}, expected " . join(' or ', @ok_status)
        unless grep { $_ == $r->{status} } @ok_status;
    push @why, "a 5xx answer" if $r->{status} >= 500;
    my $ct = $r->{h}{'content-type'} ? $r->{h}{'content-type'}[0] : undef;
    if ($c->{httpd}) {
        push @why, $c->{extra}->($r) if $c->{extra};
        return @why;
    }
    if ($r->{status} == 204) {
        push @why, "a body on 204" if length $r->{body};
    }
    else {
        push @why, 'Content-Type ' . ($ct // 'none') . ', expected application/json'
            unless defined $ct && $ct =~ m{^application/json(\s*;\s*charset="?utf-8"?)?$}i;
        push @why, 'more than one Content-Type' if @{ $r->{h}{'content-type'} || [] } > 1;
        if ($head) {
            push @why, 'a body on HEAD' if length $r->{body};
        }
        else {
            my $d = eval { $JSON->decode($r->{body}) };
            if (ref $d ne 'HASH') {
                push @why, 'body is not a JSON object';
            }
            elsif ($r->{status} >= 400) {
                push @why, 'body is not {"status":"error","message":"<text>"}'
                    unless keys %$d == 2 && defined $d->{status} && !ref $d->{status}
                    && $d->{status} eq 'error' && defined $d->{message} && !ref $d->{message}
                    && length $d->{message};
                my $want = $c->{msg} // $MSG{ $c->{st} };
                push @why, "message '" . ($d->{message} // 'none') . "', expected '$want'"
                    if defined $want && (!defined $d->{message} || ref $d->{message} || $d->{message} ne $want);
            }
            else {
                push @why, "status member '" . ($d->{status} // 'none') . "', expected success"
                    unless ($d->{status} // '') eq 'success';
                if (defined $c->{key}) {
                    push @why, "no '$c->{key}' in the answer" unless defined $d->{$c->{key}};
                    push @why, "$c->{key}.id " . ($d->{$c->{key}}{id} // 'none') . ", expected $c->{id}"
                        if defined $c->{id} && (ref $d->{$c->{key}} ne 'HASH' || ($d->{$c->{key}}{id} // '') ne $c->{id});
                }
            }
        }
    }
    if ($c->{st} == 401) {
        my @w = @{ $r->{h}{'www-authenticate'} || [] };
        my $want = $c->{www} ? WWW_AUTH_INVALID : WWW_AUTH;
        push @why, 'WWW-Authenticate ' . (@w ? join(' | ', @w) : 'none') . ", expected $want"
            unless @w == 1 && $w[0] eq $want;
    }
    if (defined $c->{allow}) {
        my @a = @{ $r->{h}{allow} || [] };
        push @why, 'Allow ' . (@a ? join(' | ', @a) : 'none') . ", expected $c->{allow}"
            unless @a == 1 && $a[0] eq $c->{allow};
    }
    push @why, $c->{extra}->($r) if $c->{extra};
    return @why;
}

sub show_req {
    my ($bytes) = @_;
    my $s = length $bytes > 300 ? substr($bytes, 0, 300) . '...(' . length($bytes) . ' bytes)' : $bytes;
    $s =~ s/(Bearer\s+)\Q$R\E/${1}<reader token>/g;
    $s =~ s/(Bearer\s+)\Q$E\E/${1}<editor token>/g;
    $s =~ s/([^\x20-\x7e])/sprintf('\\x%02x', ord $1)/ge;
    return $s;
}

my $i = 0;
my %answered;
for my $c (@CASES) {
    $i++;
    my $bytes = build($c);
    my $r = send_raw($bytes, head => $c->{m} eq 'HEAD', map { $_ => $c->{$_} } grep { exists $c->{$_} }
                     qw(pause noshut timeout));
    $answered{$c} = $r;
    $c->{httpd} ? $n_httpd++ : $n_module++;
    my @why = judge($c, $r);
    my $name = sprintf('case %03d: %s %s: %s', $i, $c->{m} =~ s/^(.{12}).+/$1.../r,
                       $c->{name}, $c->{st});
    ok(!@why, $name) or do {
        diag($_) for @why;
        diag('request: ' . show_req($bytes));
        my $b = $r->{body} // '';
        $b = substr($b, 0, 300) . '...' if length $b > 300;
        diag('answer: ' . ($r->{status} // 0) . ' ' . join(' | ', map { "$_->[0]: $_->[1]" } @{ $r->{headers} || [] }));
        diag("body: $b");
    };
}
diag("$n_module module cases, $n_httpd [httpd] cases");
cmp_ok($n_module, '>=', 80, "at least 80 module cases ($n_module)");

# ---------------------------------------------------------------- after the table

# httpd answered the malformed chunk itself (400, HTML, through its input filter's
# error bucket): the access log must record that status, not another one the module
# sets afterwards
{
    my $log = t_logs() . '/access_log';
    my ($line, $got);
    for (1 .. 50) {
        if (open my $fh, '<', $log) {
            while (<$fh>) { $line = $_ if index($_, "?bad-chunk-$$ ") >= 0 }
            close $fh;
        }
        last if $line;
        sleep 0.1;
    }
    ($got) = ($line // '') =~ /" (\d{3}) \S+\s*$/;
    my ($case) = grep { ($_->{p} // '') =~ /bad-chunk-$$/ } @CASES;
    my $sent = $answered{$case}{status} // 0;
    is($got, $sent, "access log: the malformed-chunk PUT is logged with the status the client got ($sent)")
        or diag('access log line: ' . ($line // 'none'));
}

# the lanes touched are unchanged (refused writes change nothing; the no-op PUTs wrote
# back the same values)
is(json_cmp(get_json($V), $V_BEFORE), undef, "lane $LANE0->{id} unchanged after the table");
is(json_cmp(get_json("$HEAT/voie/$OTHER->{id}"), $O_BEFORE), undef, "lane $OTHER->{id} unchanged after the table");
for my $v (sort keys %TYPED_BEFORE) {
    ok(defined $TYPED_BEFORE{$v} && !defined json_cmp(get_json($v), $TYPED_BEFORE{$v}),
       "$v (typed-score cases) unchanged after the table");
}

# the server still answers
{
    my $r = send_raw(build({ m => 'GET', p => '/api/competition/', a => 'R' }));
    my $d = eval { $JSON->decode($r->{body}) };
    ok($r->{status} == 200 && ref $d eq 'HASH' && ref $d->{competitions} eq 'ARRAY' && @{ $d->{competitions} },
       'GET /api/competition/ with a valid token still answers 200 with the competitions')
        or diag("answer: $r->{status} " . substr($r->{body} // '', 0, 200));
}

# no crash in the part of the error log written meanwhile
{
    sleep 0.5;
    my $text = '';
    if (open my $fh, '<', $ERROR_LOG) {
        binmode $fh;
        seek $fh, $LOG_START, 0;
        local $/;
        $text = <$fh> // '';
        close $fh;
    }
    my @crash = grep { /segfault|Segmentation fault|child pid \d+ exit signal|AddressSanitizer|runtime error:|LeakSanitizer|double free|stack smashing/i }
                split /\n/, $text;
    ok(!@crash, 'error_log: no crash, signal or sanitizer report during the catalogue ('
       . length($text) . ' bytes read)') or diag(join("\n", @crash[0 .. ($#crash > 9 ? 9 : $#crash)]));
}

# the "# tests: N" line above is the number of tests this file runs
{
    tests_declared_ok(__FILE__);
}

done_testing();
