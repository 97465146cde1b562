# Conditional GET: every read answer carries a strong ETag; If-None-Match with it is
# answered 304 without a body; the ETag changes when any data behind the answer
# changes: through the API, and directly in the database by another process (as a
# write through another server sharing the database would).  Answers served from the
# module's cache stay exact after such changes (the direct change writes a score that
# is not a number of reps, as only a write outside the API can: it is shown as stored).
# tests: 16 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $reader = login('demo', 'demo');
my $editor = login('judge', 'judge');
ok(defined $reader && defined $editor, 'demo and judge log in') or die "cannot log in\n";

my $LINES = '/api/competition/2/heat/255/line/';
my $VOIE = '/api/competition/2/zone/26/heat/255/voie/2019';

my $res = req(GET => $LINES, $reader);
my $etag = $res->header('ETag') // '';
like($etag, qr/^"[0-9a-f]+-[0-9]+"$/, "a strong ETag ($etag)");
is(req(GET => $LINES, $reader)->header('ETag'), $etag, 'the same ETag while nothing changes');
is(req(HEAD => $LINES, $reader)->header('ETag'), $etag, 'HEAD carries it too');

$res = req(GET => $LINES, $reader, undef, { 'If-None-Match' => $etag });
is($res->code, 304, 'If-None-Match with it: 304');
is($res->content, '', '304 has no body');
is($res->header('ETag'), $etag, '304 repeats the ETag');
is(req(GET => $LINES, $reader, undef, { 'If-None-Match' => '"0-0"' })->code, 200,
   'another ETag: 200');

# a change through the API
my $before = decode(req(GET => $VOIE, $reader));
my $score = $$ % 1000000;   # heat 255 is WOD 18 (reps): a number of reps, unique per run
$score = "$score";
is(req(PUT => $VOIE, $editor, { score => $score })->code, 200, 'a lane PUT');
$res = req(GET => $LINES, $reader, undef, { 'If-None-Match' => $etag });
is($res->code, 200, 'the old ETag no longer matches after the PUT');
my ($line) = grep { $_->{id} eq '2019' } @{ (decode($res) // {})->{lines} // [] };
is($line && $line->{score}, $score, 'and the answer shows the new score');
my $etag2 = $res->header('ETag') // '';
isnt($etag2, $etag, 'a new ETag');

# a change by another process, straight into the database
my ($rc, $out) = db_exec("UPDATE lane SET score = 'direct-$$' WHERE id = 2019");
is($rc, 0, 'another process updates the lane in the database') or diag($out);
$res = req(GET => $LINES, $reader, undef, { 'If-None-Match' => $etag2 });
is($res->code, 200, 'the ETag no longer matches after a change by another process');
($line) = grep { $_->{id} eq '2019' } @{ (decode($res) // {})->{lines} // [] };
is($line && $line->{score}, "direct-$$", 'the cached answer was not served: the new score shows');

# put the lane back as it was
my $old = $before && $before->{voie} ? $before->{voie}{score} : undef;
is(req(PUT => $VOIE, $editor, { score => $old })->code, 200, 'the lane is put back');

done_testing();
