# The answers httpd makes itself on a mount, before or around the module: each is the
# contract's JSON error ({"status":"error","message":...}, Content-Type
# application/json, X-Content-Type-Options: nosniff), one case per status and cause:
# %00 in the path (404; also on HEAD: no body), an invalid %-escape (400), a malformed
# request line (400), HTTP/1.1 without Host (400), an unknown method under
# HttpProtocolOptions RegisteredMethods (501),
# a malformed chunked body (400), a body over LimitRequestBody and
# an absurd chunk size (413), "Expect: 200-ok" (417), a request line over
# LimitRequestLine (414: httpd has not parsed the URI, the mount is found from the
# request line), a header over LimitRequestFieldSize and more headers than
# LimitRequestFields (400: httpd 2.4 never answers 431 to a request), a time-out while
# reading the headers (408, httpd) and while reading a body (408, the module).
# An error status another module answers on the mount (mod_alias's "Redirect 503",
# "Redirect 410") is JSON too (503 with Retry-After: 1, as the module's; a 4xx without
# a message of its own: "Request refused").  Requests off the mounts keep httpd's
# HTML pages.  Virtual host ranking_errors has
# Timeout 2, HttpProtocolOptions RegisteredMethods and LimitRequestBody 32 on its mount.  Each request is sent byte for byte
# on its own connection.
# tests: 24 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use IO::Select;
use IO::Socket::INET;
use JSON::PP ();
use Test::More;
use Time::HiRes qw(time);
use RankingTest;

my $JSON = JSON::PP->new->utf8->canonical;
my $MAIN = base_url() =~ s{^http://}{}r;
my $ERRS = do { local $RankingTest::VHOST = 'ranking_errors'; base_url() =~ s{^http://}{}r };

my $R = login('demo', 'demo');
my $E = login('judge', 'judge');
ok(defined $R && defined $E, 'demo (reader) and judge (editor) log in') or BAIL_OUT('cannot log in');

# an existing lane of competition 2, for the body cases (404 would come first)
my $lanes = decode(req(GET => '/api/competition/2/zone/26/heat/253/voie/', $R));
my $LANE = $lanes && $lanes->{voies} && @{ $lanes->{voies} }
    ? "/api/competition/2/zone/26/heat/253/voie/$lanes->{voies}[0]{id}" : undef;
ok(defined $LANE, 'a lane for the body cases') or BAIL_OUT('no lane in competition 2');

# send(HOSTPORT, BYTES, %o) -> { status, h => { lc name => [values] }, body, took }
# o: keep => do not end the request side (a time-out case), wait => seconds (10).
sub send_raw {
    my ($hp, $bytes, %o) = @_;
    my $s = IO::Socket::INET->new(PeerAddr => $hp, Timeout => 10) or die "connect $hp: $!\n";
    binmode $s;
    local $SIG{PIPE} = 'IGNORE';
    my $t0 = time;
    my $off = 0;
    while ($off < length $bytes) {
        my $n = syswrite($s, $bytes, 65536, $off) or last;
        $off += $n;
    }
    shutdown($s, 1) unless $o{keep};
    my $sel = IO::Select->new($s);
    my $raw = '';
    my $end = time + ($o{wait} // 10);
    while ((my $left = $end - time) > 0) {
        last unless $sel->can_read($left);
        my $n = sysread($s, my $buf, 65536);
        last unless $n;   # httpd closes after each of these answers
        $raw .= $buf;
    }
    close $s;
    my ($head, $body) = split /\r\n\r\n/, $raw, 2;
    my @lines = split /\r\n/, $head // '';
    my ($status) = (shift(@lines) // '') =~ m{^HTTP/1\.[01] (\d{3})};
    my %h;
    for (@lines) { my ($k, $v) = /^([^:]+):\s*(.*?)\s*$/ or next; push @{ $h{lc $k} }, $v }
    return { status => $status // 0, h => \%h, body => $body // '', took => time - $t0 };
}

# is_json_error(ANSWER, STATUS, MESSAGE, NAME[, head]): one test
sub is_json_error {
    my ($r, $status, $msg, $name, $head) = @_;
    my @why;
    push @why, "status $r->{status}, expected $status" unless $r->{status} == $status;
    my @ct = @{ $r->{h}{'content-type'} || [] };
    push @why, 'Content-Type ' . (@ct ? join(' | ', @ct) : 'none') . ', expected application/json'
        unless @ct == 1 && $ct[0] eq 'application/json';
    my @ns = @{ $r->{h}{'x-content-type-options'} || [] };
    push @why, 'X-Content-Type-Options ' . (@ns ? join(' | ', @ns) : 'none') . ', expected nosniff'
        unless @ns == 1 && $ns[0] eq 'nosniff';
    if ($head) {
        push @why, 'a body on HEAD' if length $r->{body};
    }
    else {
        my $d = eval { $JSON->decode($r->{body}) };
        push @why, 'body ' . substr($r->{body}, 0, 200) . ", expected {\"status\":\"error\",\"message\":\"$msg\"}"
            unless ref $d eq 'HASH' && keys %$d == 2 && ($d->{status} // '') eq 'error'
            && ($d->{message} // '') eq $msg;
        my @cl = @{ $r->{h}{'content-length'} || [] };
        push @why, 'Content-Length ' . ($cl[0] // 'none') . ', body ' . length($r->{body}) . ' bytes'
            if @cl && $cl[0] != length $r->{body};
    }
    ok(!@why, $name) or diag(join("\n", @why));
}

sub get { my ($path, @h) = @_;
    return "GET $path HTTP/1.1\r\nHost: $MAIN\r\nAuthorization: Bearer $R\r\n"
        . join('', map { "$_\r\n" } @h) . "\r\n" }
sub put { my ($host, $path, $h, $body) = @_;
    return "PUT $path HTTP/1.1\r\nHost: $host\r\nAuthorization: Bearer $E\r\n"
        . "Content-Type: application/json\r\n$h\r\n$body" }

my $C1 = '/api/competition/1';

# ---- 404: %00 in the path (httpd refuses it before translate_name) ----
is_json_error(send_raw($MAIN, get('/api/competition/%00')), 404, 'Not found',
              '%00 in the path: 404 JSON');
is_json_error(send_raw($MAIN, get('/api/competition/%00') =~ s/^GET/HEAD/r), 404, 'Not found',
              'HEAD with %00 in the path: 404, JSON headers, no body', 1);

# ---- 400: the URI, the request line, a chunked body ----
is_json_error(send_raw($MAIN, get('/api/competition/%zz')), 400, 'Bad request',
              'an invalid %-escape: 400 JSON');
is_json_error(send_raw($MAIN, "GET $C1 HTTP/1.1 x\r\nHost: $MAIN\r\n\r\n"), 400, 'Bad request',
              'a malformed request line: 400 JSON');
is_json_error(send_raw($MAIN, put($MAIN, $LANE, "Transfer-Encoding: chunked\r\n", "zz\r\nabc\r\n0\r\n\r\n")),
              400, 'Bad request', 'a malformed chunked body: 400 JSON');

is_json_error(send_raw($MAIN, "GET $C1 HTTP/1.1\r\nAuthorization: Bearer $R\r\n\r\n"), 400, 'Bad request',
              'HTTP/1.1 without Host: 400 JSON');
is_json_error(send_raw($ERRS, "BREW $C1 HTTP/1.1\r\nHost: $ERRS\r\nAuthorization: Bearer $R\r\n\r\n"),
              501, 'Not implemented', 'a method httpd does not know, with RegisteredMethods: 501 JSON');

# ---- 413: httpd's LimitRequestBody (32 on ranking_errors), an absurd chunk size ----
my $body = $JSON->encode({ score => 'x' x 60 });
is_json_error(send_raw($ERRS, put($ERRS, $LANE, 'Content-Length: ' . length($body) . "\r\n", $body)),
              413, 'Request body too large', 'a body over LimitRequestBody: 413 JSON');
is_json_error(send_raw($MAIN, put($MAIN, $LANE, "Transfer-Encoding: chunked\r\n",
                                  "ffffffffffffffffff\r\nabc\r\n0\r\n\r\n")),
              413, 'Request body too large', 'an absurd chunk size: 413 JSON');

# ---- 417 ----
is_json_error(send_raw($MAIN, get($C1, 'Expect: 200-ok')), 417, 'Expectation failed',
              'Expect: 200-ok: 417 JSON');

# ---- 414: the request line over LimitRequestLine (8190) ----
is_json_error(send_raw($MAIN, get('/api/competition/' . ('x' x 9000))), 414, 'URI too long',
              'a request line over LimitRequestLine: 414 JSON');

# ---- 400: headers (httpd 2.4 answers 400, never 431, to a request) ----
is_json_error(send_raw($MAIN, get($C1, 'X-Long: ' . ('a' x 9000))), 400, 'Bad request',
              'a header over LimitRequestFieldSize: 400 JSON');
is_json_error(send_raw($MAIN, get($C1, map { "X-H$_: $_" } 1 .. 120)), 400, 'Bad request',
              'more headers than LimitRequestFields (100): 400 JSON');

# ---- 408: Timeout 2 on ranking_errors ----
{
    my $r = send_raw($ERRS, "GET $C1 HTTP/1.1\r\nHost: $ERRS\r\nAuthorization: Bearer $R\r\n",
                     keep => 1, wait => 10);
    is_json_error($r, 408, 'Request timeout', 'the headers not finished within Timeout: 408 JSON');
    $r = send_raw($ERRS, put($ERRS, $LANE, "Content-Length: 20\r\n", '{"score"'), keep => 1, wait => 10);
    is_json_error($r, 408, 'Request timeout', 'the body not finished within Timeout: 408 JSON');
    cmp_ok($r->{took}, '<', 8, sprintf('408 after about Timeout (%.1f s)', $r->{took}));
}

# ---- another module's error status on the mount (mod_alias's Redirect 503 / 410) ----
{
    my $r = send_raw($ERRS, "GET /api/maintenance HTTP/1.1\r\nHost: $ERRS\r\nAuthorization: Bearer $R\r\n\r\n");
    is_json_error($r, 503, 'Service unavailable', 'another module\'s 503 on the mount: JSON');
    is_deeply($r->{h}{'retry-after'}, ['1'], '... with Retry-After: 1, as the module\'s 503');
    is_json_error(send_raw($ERRS, "GET /api/gone HTTP/1.1\r\nHost: $ERRS\r\nAuthorization: Bearer $R\r\n\r\n"),
                  410, 'Request refused', 'another module\'s 410 on the mount: JSON, a generic message');
}

# ---- off the mounts: httpd's own pages are left alone ----
{
    my $r = send_raw($MAIN, get('/elsewhere/%00'));
    ok($r->{status} == 404 && ($r->{h}{'content-type'}[0] // '') =~ m{^text/html},
       'off the mounts, %00: httpd\'s HTML 404') or diag("$r->{status} @{ $r->{h}{'content-type'} || [] }");
    $r = send_raw($MAIN, get('/elsewhere/' . ('x' x 9000)));
    ok($r->{status} == 414 && ($r->{h}{'content-type'}[0] // '') =~ m{^text/html},
       'off the mounts, a request line too long: httpd\'s HTML 414') or diag("$r->{status}");
}

# ---- the mount still answers normally afterwards ----
is(req(GET => $C1, $R)->code, 200, 'the mount answers after all this');

done_testing();
