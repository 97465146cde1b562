# Live updates: GET /competition/{c}/events (Server-Sent Events) and the long poll
# (If-None-Match + Prefer: wait=N) of read routes.
#  - 406 without "Accept: text/event-stream" (a wildcard is not enough), 401 without a
#    token, 404 for an unknown competition, 405 for other methods;
#  - a stream gets one event per accepted lane change of its competition (id: the
#    change record's id, event: lane, data: one line of JSON with the lane under
#    "voie", or "line" on a variant-B mount; a delete carries lane_id), and nothing of
#    other competitions; keep-alive comments (RankingEventKeepAlive 2 in the test
#    configuration); Last-Event-ID replays what came after, in order;
#  - a long poll answers 200 with the new answer soon after a change, 304 once its
#    wait is over, with Preference-Applied; without a matching If-None-Match it
#    answers at once.
# Writes lane 2014 (heat 253, WOD 17 load) and puts it back.
# tests: 31 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use JSON::PP ();
use POSIX ();
use Time::HiRes qw(time sleep);
use Apache::Test ();
use Apache::TestRequest ();
use RankingTest;
use SseClient;

my $editor = login('judge', 'judge');
my $reader = login('demo', 'demo');
ok(defined $editor && defined $reader, 'judge and demo log in') or die "cannot log in\n";
my $V = '/api/competition/2/zone/26/heat/253/voie/2014';
my $orig = decode(req(GET => $V, $reader))->{voie};

sub open_stream {
    my ($path, $token, @h) = @_;
    return SseClient::open(Apache::TestRequest::hostport(Apache::Test::config()), $path, $token, @h);
}
*read_stream = \&SseClient::read;
*events = \&SseClient::events;

# ---- refusals ----
check_error(req(GET => '/api/competition/2/events', $reader), 406, 'Not acceptable', 'no Accept: 406');
check_error(req(GET => '/api/competition/2/events', $reader, undef, { Accept => '*/*' }), 406,
            'Not acceptable', 'Accept: */* is not a request for a stream: 406');
check_401(req(GET => '/api/competition/2/events', undef, undef, { Accept => 'text/event-stream' }), 0,
          'no token');
check_error(req(GET => '/api/competition/999999/events', $reader, undef, { Accept => 'text/event-stream' }),
            404, 'Not found', 'unknown competition: 404');
check_405(req(POST => '/api/competition/2/events', $reader, '{}'), 'GET, HEAD', 'POST');

# ---- a stream, a change, another competition's change is not sent ----
my $st = open_stream('/api/competition/2/events', $reader);
like($st->{head}, qr{^HTTP/1\.1 200}, 'the stream answers 200');
like($st->{head}, qr{^Content-Type: text/event-stream}mi, 'Content-Type: text/event-stream');
like($st->{head}, qr{^Cache-Control: no-cache}mi, 'Cache-Control: no-cache');
my $t0 = time;
check_json(req(PUT => $V, $editor, { score => '97.5 kg' }), 200,
           { status => 'success', voie => { %$orig, score => '97.5 kg' } }, 'a lane PUT');
my $text = read_stream($st, 5, qr/\n\n.*event: lane.*\n\n/s);
my @ev = events($text);
ok(@ev == 1 && time - $t0 < 2, 'the change reached the stream within 2 s') or diag($text);
my $e = $ev[0] // {};
is($e->{event}, 'lane', 'event: lane');
like($e->{id} // '', qr/^[1-9][0-9]*$/, 'id: the change record');
my $data = eval { JSON::PP->new->decode($e->{data} // '') } // {};
ok(!defined json_cmp($data, { action => 'update', competition_id => '2', zone_id => '26', heat_id => '253',
                              voie => { %$orig, score => '97.5 kg' } }), 'data: the lane as stored')
    or diag($e->{data});
my $first = $e->{id};

# keep-alive comments (every 2 s here)
$text = read_stream($st, 5, qr/: keep-alive\n\n/);
like($text, qr/\n: keep-alive\n\n/, 'a keep-alive comment after 2 s of silence');

# ---- Last-Event-ID: replay, in order, then live ----
check_json(req(PUT => $V, $editor, { score => '98 kg', tiebreak => '2:10' }), 200,
           { status => 'success', voie => { %$orig, score => '98 kg', tiebreak => '2:10' } }, 'another PUT');
$text = read_stream($st, 5, qr/98 kg/);
my @live = events($text);
my $second = $live[-1]{id} // 0;
ok($second > $first, 'the second change has a greater id');
close $st->{sock};

my $re = open_stream('/api/competition/2/events', $reader, "Last-Event-ID: " . ($first - 1));
$text = read_stream($re, 5, qr/98 kg.*\n\n/s);
my @replayed = grep { $_->{id} >= $first } events($text);
is(join(',', map { $_->{id} } @replayed[0, 1]), "$first,$second", 'replayed after Last-Event-ID, in order')
    or diag($text);
check_json(req(PUT => $V, $editor, { score => $orig->{score}, tiebreak => undef }), 200,
           { status => 'success', voie => $orig }, 'the lane put back');
$text = read_stream($re, 5, qr/"score":"\Q$orig->{score}\E"/);
my @after = grep { $_->{id} > $second } events($text);
is(scalar @after, 1, 'then live: the next change');
close $re->{sock};

# a variant-B mount: the lane under "line"
my $b = open_stream('/b/competition/2/events', login('judge', 'judge', '/b'));
check_json(req(PUT => $V, $editor, { score => '99 kg' }), 200,
           { status => 'success', voie => { %$orig, score => '99 kg' } }, 'a PUT while a variant-B stream listens');
$text = read_stream($b, 5, qr/99 kg/);
($e) = reverse events($text);
$data = eval { JSON::PP->new->decode($e->{data} // '') } // {};
ok(exists $data->{line} && !exists $data->{voie}, 'variant B: the lane under "line"') or diag($text);
close $b->{sock};
req(PUT => $V, $editor, { score => $orig->{score} });

# ---- long poll ----
my $res = req(GET => '/api/competition/2/leaderboard', $reader);
my $etag = $res->header('ETag');
my $pid = fork // die "fork: $!";
if (!$pid) {
    sleep 1.5;
    req(PUT => $V, $editor, { score => '96 kg' });
    POSIX::_exit(0);
}
$t0 = time;
$res = req(GET => '/api/competition/2/leaderboard', $reader, undef,
           { 'If-None-Match' => $etag, Prefer => 'wait=10' });
my $took = time - $t0;
waitpid $pid, 0;
is($res->code, 200, 'long poll: 200 after a change');
ok($took >= 1.2 && $took < 4, sprintf('... soon after the change (%.1f s)', $took));
is($res->header('Preference-Applied'), 'wait=10', '... Preference-Applied: wait=10');
isnt($res->header('ETag'), $etag, '... with a new ETag');
req(PUT => $V, $editor, { score => $orig->{score} });

$etag = req(GET => '/api/competition/2/leaderboard', $reader)->header('ETag');
$t0 = time;
$res = req(GET => '/api/competition/2/leaderboard', $reader, undef,
           { 'If-None-Match' => $etag, Prefer => 'wait=2' });
$took = time - $t0;
is($res->code, 304, 'long poll: 304 when nothing changed');
ok($took >= 1.9 && $took < 4, sprintf('... after its wait (%.1f s)', $took));
$t0 = time;
$res = req(GET => '/api/competition/2/leaderboard', $reader, undef,
           { 'If-None-Match' => '"stale"', Prefer => 'wait=5' });
ok($res->code == 200 && time - $t0 < 1, 'a stale ETag: 200 at once, no wait');

done_testing();
