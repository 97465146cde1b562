# Public answers from the quick handler (issue 31; doc/api.md section 12).  On /public
# (RankingPublic On) an anonymous GET or HEAD whose answer is in the child's cache is
# answered in httpd's quick-handler phase; /pubnormal is the same mount with
# RankingPublicQuick Off, whose answers all take the normal path.  Which path answered
# is in the access log ranking_path_log (the note ranking-path, "quick"; "-" for the
# normal path), never in the answer.  Checked: every read route, gzip, HEAD, a list's
# query, CORS (/pubcors against /pubcorsnormal, the same pair with
# RankingCORSOrigins), 304s (plain and gzip ETags) answer identically (status, every header but
# Date, body) from the quick handler and from the normal path; an answer not in the
# cache (a query never asked) takes the normal path first; errors, long polls
# (Prefer: wait), requests with a token (checked by the access hook: a bad one is 401),
# /api and /pubnormal never take the quick path; a lane PUT shows at once in the quick
# answers after the revision check (the lane is put back).
# tests: 26 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(sleep);
use Apache::Test ();
use RankingTest;

my $reader = login('demo', 'demo');
my $editor = login('judge', 'judge');
ok(defined $reader && defined $editor, 'demo and judge log in') or die "cannot log in\n";

my $LOG = t_logs() . '/ranking_path_log';
my $next = int(rand 1e9);

# The path that answered the request X-Test-Id ID: "quick" or "-" (waits for its line).
sub path_of {
    my ($id) = @_;
    for (1 .. 100) {
        if (open my $fh, '<', $LOG) {
            while (<$fh>) { return $2 if /^\Q$id\E (\d+) (\S+)$/ }
        }
        sleep 0.05;
    }
    return 'none';
}

# (response, path) of METHOD PATH with TOKEN and the headers H (hash reference)
sub get_path {
    my ($method, $path, $token, $h) = @_;
    my $id = 'q31-' . $next++;
    my $res = req($method, $path, $token, undef, { %{ $h // {} }, 'X-Test-Id' => $id });
    return ($res, path_of($id));
}

# The answer of the quick handler to METHOD PATH (asked until a child that has it in
# its cache answers), or undef after 40 tries.
sub quick {
    my ($method, $path, $h) = @_;
    for (1 .. 40) {
        my ($res, $p) = get_path($method, $path, undef, $h);
        return $res if $p eq 'quick';
    }
    return undef;
}

# The answer of the normal path (/pubnormal for /public, /pubcorsnormal for /pubcors);
# its path must be "-".
sub normal {
    my ($method, $path, $h) = @_;
    my $np = $path =~ s{^/public/}{/pubnormal/}r =~ s{^/pubcors/}{/pubcorsnormal/}r;
    my ($res, $p) = get_path($method, $np, undef, $h);
    return $p eq '-' ? $res : undef;
}

# '' when A and B have the same status, headers (but Date and LWP's Client-*) and
# body, else what differs (the mount's name in a Link aside).
sub differ {
    my ($a, $b) = @_;
    return 'no answer' unless $a && $b;
    return 'status ' . $a->code . ' vs ' . $b->code if $a->code != $b->code;
    my %names = map { lc $_ => 1 } grep { !/^(date|client-.*)$/i } $a->header_field_names,
                                                                  $b->header_field_names;
    for my $n (sort keys %names) {
        # (a Link names the mount it was asked on)
        my ($x, $y) = map { join(', ', $_->header($n)) =~ s{/pubnormal/}{/public/}gr
                                                   =~ s{/pubcorsnormal/}{/pubcors/}gr } $a, $b;
        return "$n: '$x' vs '$y'" if $x ne $y;
    }
    return $a->content eq $b->content ? '' : 'body';
}

sub same {
    my ($method, $path, $h, $name) = @_;
    my $q = quick($method, $path, $h);
    my $n = normal($method, $path, $h);
    my $d = differ($q, $n);
    ok($q && $n && $d eq '', $name) or diag("$method $path: $d");
    return ($q, $n);
}

# ---- every read route: the same answer from the quick handler and the normal path ----
my ($bad, $count) = (0, 0);
for my $rt (read_routes()) {
    next if $rt->{path} =~ m{^/competition/3\b};   # RankingPublic Off there on /public
    $count++;
    my $d = differ(quick(GET => "/public$rt->{path}"), normal(GET => "/public$rt->{path}"));
    if ($d ne '') { diag("$rt->{path}: $d"); $bad++ }
}
ok($count > 40 && $bad == 0, "every read route ($count): the quick handler's answer is the "
   . 'normal path\'s (status, headers, ETag, Vary, Cache-Control, body)');

my ($q) = same(GET => '/public/competition/1/spot/', { 'Accept-Encoding' => 'gzip' },
               'gzip: the same answer');
is($q && $q->header('Content-Encoding'), 'gzip', 'gzip: Content-Encoding gzip from the quick handler');
like($q && $q->header('ETag'), qr/-gzip"$/, 'gzip: its own ETag');
my %vary = map { lc $_ => 1 } split /\s*,\s*/, join(', ', $q ? $q->header('Vary') : ());
ok($vary{'accept-encoding'} && $vary{prefer}, 'Vary: Prefer and Accept-Encoding');
($q) = same(HEAD => '/public/competition/1/wod/', undef, 'HEAD: the same answer');
is($q && $q->content, '', 'HEAD: no body');
($q) = same(GET => '/public/competition/1/spot/?limit=2&offset=1', undef,
            'a page of a list: the same answer');
ok($q && defined $q->header('X-Total-Count') && defined $q->header('Link'),
   'a page: X-Total-Count and Link');

# ---- CORS ----
my $O = 'https://scores.example.org';
($q) = same(GET => '/pubcors/competition/1/spot/?limit=5', { Origin => $O, 'Accept-Encoding' => 'gzip' },
            'CORS, a listed Origin: the same answer');
ok($q && ($q->header('Access-Control-Allow-Origin') // '') eq $O
   && join(',', $q->header('Vary')) =~ /^Prefer,\s*Origin,\s*Accept-Encoding$/,
   'CORS: Access-Control-Allow-Origin, Vary: Prefer, Origin, Accept-Encoding')
    or diag($q ? join(', ', $q->header('Vary')) : 'no quick answer');
($q) = same(GET => '/pubcors/competition/1/wod/', { Origin => 'https://other.example' },
            'CORS, another Origin: the same answer, without Access-Control-Allow-Origin');

# ---- 304 ----
my $plain = quick(GET => '/public/competition/1/wod/');
my $etag = $plain && $plain->header('ETag');
($q) = same(GET => '/public/competition/1/wod/', { 'If-None-Match' => $etag }, '304: the same answer');
is($q && $q->code, 304, 'If-None-Match: 304 from the quick handler');
my $gz = quick(GET => '/public/competition/1/spot/', { 'Accept-Encoding' => 'gzip' });
($q) = same(GET => '/public/competition/1/spot/',
            { 'Accept-Encoding' => 'gzip', 'If-None-Match' => $gz && $gz->header('ETag') },
            '304 to the gzip ETag: the same answer');
is($q && $q->code, 304, 'the gzip ETag: 304 from the quick handler');

# ---- what is not in the cache takes the normal path first ----
my $fresh = '/public/competition/1/spot/?limit=3&offset=' . (1 + $next % 7) . '&division=Men';
my ($res, $p) = get_path(GET => $fresh);
ok($res->code == 200 && $p eq '-', "a query never asked: 200 from the normal path ($p)");
ok(quick(GET => $fresh), 'then from the quick handler, once the answer is in the cache');

# ---- never the quick path: errors, long polls, tokens, /api, /pubnormal ----
my @never;
for my $c ([GET => '/public/competition/1/nothing', undef, undef, 404],
           [GET => '/public/competition/1/spot/?limit=x', undef, undef, 400],
           [GET => '/public/competition/999', undef, undef, 404],
           [GET => '/public/competition/1/wod/', $reader, undef, 200],
           [GET => '/public/competition/1/wod/', 'not-a-token', undef, 401],
           [GET => '/api/competition/1/wod/', $reader, undef, 200],
           [GET => '/api/competition/1/wod/', undef, undef, 401],
           [GET => '/pubnormal/competition/1/wod/', undef, undef, 200],
           [POST => '/public/competition/1/wod/', undef, undef, 401],
           [GET => '/public/competition/1/wod/', undef, { 'Prefer' => 'wait=1', 'If-None-Match' => $etag }, 304]) {
    my ($m, $path, $tok, $h, $want) = @$c;
    for (1 .. 3) {
        my ($r, $pp) = get_path($m, $path, $tok, $h);
        push @never, "$m $path: " . $r->code . " $pp" if $r->code != $want || $pp ne '-';
    }
}
ok(!@never, 'errors, a long poll, requests with a token (good or bad), /api and '
   . '/pubnormal: the normal path, with their usual status') or diag(join "\n", @never);
my ($tq, $tp) = get_path(GET => '/public/competition/1/wod/', $reader);
is($tq->header('Cache-Control'), 'private, no-cache', 'with a token: the private answer');

# ---- a change shows in the quick answers ----
my $lane = $FREE{voie};
my $score = 'q31 ' . ($next % 100000);
my $was = decode(req(GET => "/api$lane", $editor))->{voie}{score};   # put back below
my $put = req(PUT => "/api$lane", $editor, { score => $score });
is($put->code, 200, 'a lane PUT through /api');
RankingTest::settle();
my $after;
for (1 .. 40) {
    $after = quick(GET => "/public$lane");
    last if $after && index($after->content, $score) >= 0;
}
ok($after && index($after->content, $score) >= 0, 'the quick handler answers the new score');
my $d = differ($after, normal(GET => "/public$lane"));
is($d, '', 'and the same answer as the normal path');
is(req(PUT => "/api$lane", $editor, { score => $was })->code, 200, 'the lane put back');

# ---- the answer never says which path served it ----
ok($q && !grep({ /quick|ranking-path/i } map { $_ . ': ' . join(',', $plain->header($_)) }
                $plain->header_field_names), 'no header names the path');

done_testing();
