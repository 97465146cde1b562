# Conditional requests on one lane (issue 17, points 5 and 6).  A lane has an ETag of
# its own, on GET of the voie or the line and on the PUT answer, which changes when
# that lane changes and not when another one does.  PUT and DELETE with a failing
# If-Match / If-None-Match answer 412 {"status":"error","message":"Precondition
# failed"} and change nothing, also when several writers race with the same ETag
# (grouped commits); order: 404, then 412, then 415.  A GET with a failing If-Match is
# 412; what does not exist is 404 whatever the preconditions say (never 304).
# Lanes 2024 and 2025 (heat 257, WOD 18: reps) are written and put back at the end;
# lane 2026 is deleted and put back (sqlite3 / psql, as 22_delete.t does).
# tests: 60 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp ();
use JSON::PP ();
use POSIX ();
use RankingTest;

my $editor = login('judge', 'judge');
my $reader = login('demo', 'demo');
ok(defined $editor && defined $reader, 'judge and demo log in') or die "cannot log in\n";

my $A = '/api/competition/2/zone/27/heat/257/voie';
my $B = '/api/competition/2/heat/257/line';
my $PF = { status => 'error', message => 'Precondition failed' };
my $NF = { status => 'error', message => 'Not found' };
my $TAG = qr/^"[0-9a-f]+-l[0-9a-f]{32}"$/;

sub etag_of { my ($res) = @_; return $res->header('ETag') // '' }
sub score_of {
    my $d = decode(req(GET => "$A/$_[0]", $reader));
    return $d && $d->{voie} ? $d->{voie}{score} : 'none';
}

# ---- the lane's own ETag ----
my $res = req(GET => "$A/2024", $reader);
my $t0 = etag_of($res);
like($t0, $TAG, "a lane's ETag ($t0)");
is(etag_of(req(GET => "$B/2024", $reader)), $t0, 'the same lane read as a line: the same ETag');
is(etag_of(req(HEAD => "$A/2024", $reader)), $t0, 'HEAD: the same ETag');
my $list_tag = etag_of(req(GET => "$A/", $reader));

# another lane changes: this lane's ETag stays, the list's moves
is(req(PUT => "$A/2025", $editor, { score => '31' })->code, 200, 'another lane of the heat changes');
is(etag_of(req(GET => "$A/2024", $reader)), $t0, "the lane's ETag has not moved");
is(req(GET => "$A/2024", $reader, undef, { 'If-None-Match' => $t0 })->code, 304,
   'If-None-Match with it: still 304');
isnt(etag_of(req(GET => "$A/", $reader)), $list_tag, "the list's ETag has moved");

# ---- PUT with If-Match ----
$res = req(PUT => "$A/2024", $editor, { score => '40' }, { 'If-Match' => $t0 });
is($res->code, 200, 'PUT with If-Match of the current ETag: 200');
my $t1 = etag_of($res);
like($t1, $TAG, 'the PUT answer carries the lane\'s new ETag');
isnt($t1, $t0, 'a new ETag');
is(etag_of(req(GET => "$A/2024", $reader)), $t1, 'GET shows the ETag the PUT gave');
is(etag_of(req(GET => "$B/2024", $reader)), $t1, 'and so does the line');

check_json(req(PUT => "$A/2024", $editor, { score => '41' }, { 'If-Match' => $t0 }), 412, $PF,
           'PUT with If-Match of the old ETag: 412 Precondition failed');
is(score_of(2024), '40', 'the lane is unchanged');
check_json(req(PUT => "$A/2024", $editor, { score => '41' }, { 'If-Match' => "W/$t1" }), 412, $PF,
           'a weak tag never matches If-Match: 412');
check_json(req(PUT => "$A/2024", $editor, { score => '41' }, { 'If-Match' => '"a", "b"' }), 412, $PF,
           'a list of other tags: 412');
check_json(req(PUT => "$A/2024", $editor, { score => '41' }, { 'If-None-Match' => '*' }), 412, $PF,
           'PUT with If-None-Match: * on a lane that exists: 412');
check_json(req(PUT => "$A/2024", $editor, { score => '41' }, { 'If-None-Match' => $t1 }), 412, $PF,
           'PUT with If-None-Match of the current ETag: 412');
is(score_of(2024), '40', 'the lane is still unchanged');
is(etag_of(req(GET => "$A/2024", $reader)), $t1, 'and its ETag too');
$res = req(PUT => "$A/2024", $editor, { score => '42' }, { 'If-Match' => qq("x", $t1) });
is($res->code, 200, 'If-Match listing the current ETag among others: 200');
my $t2 = etag_of($res);
is(req(PUT => "$A/2024", $editor, { score => '43' }, { 'If-Match' => '*' })->code, 200,
   'If-Match: * on a lane that exists: 200');
is(req(PUT => "$A/2024", $editor, { score => '44' }, { 'If-None-Match' => $t2 })->code, 200,
   'If-None-Match of an old ETag: 200');
is(score_of(2024), '44', 'the lane has the last score');

# ---- order: 404, then 412, then 415, 400 ----
check_json(req(PUT => "$A/999999", $editor, { score => '1' }, { 'If-Match' => '"stale"' }), 404, $NF,
           'PUT of a lane that does not exist with a failing If-Match: 404');
check_json(req(PUT => '/api/competition/2/zone/26/heat/257/voie/2024', $editor, { score => '1' },
               { 'If-Match' => '"stale"' }), 404, $NF, 'a wrongly nested lane: 404 first');
check_json(req(PUT => "$A/2024", $editor, '{"score":"1"}', { 'If-Match' => '"stale"', 'Content-Type' => 'text/plain' }),
           412, $PF, 'a failing If-Match with a wrong Content-Type: 412 before 415');
check_json(req(PUT => "$A/2024", $editor, '{"score":', { 'If-Match' => '"stale"' }),
           412, $PF, 'a failing If-Match with a bad body: 412 before 400');
is(req(PUT => "$A/2024", $editor, '{"score":"1"}', { 'If-Match' => '*', 'Content-Type' => 'text/plain' })->code,
   415, 'a passing If-Match with a wrong Content-Type: 415');
is(req(PUT => "$A/2024", $reader, { score => '1' }, { 'If-Match' => '"stale"' })->code, 403,
   "a reader's PUT with a failing If-Match: 403 (the role before the preconditions)");

for my $round (1 .. 3) {
    my $tag = etag_of(req(GET => "$A/2024", $reader));
    my @out = run_parallel(map {
        my $score = "${round}0$_";
        sub {
            my $r = req(PUT => "$A/2024", $editor, { score => $score }, { 'If-Match' => $tag });
            return { code => $r->code, body => $r->decoded_content, score => $score };
        }
    } 1 .. 6);
    my @won = grep { $_->{code} == 200 } @out;
    my @lost = grep { $_->{code} == 412 && $_->{body} eq '{"status":"error","message":"Precondition failed"}' } @out;
    # (the answers are in the name: a failure in a CI log shows them without the diagnostics)
    my $codes = join ' ', sort map { $_->{code} // "died: $_->{died}" } @out;
    is(scalar @won, 1, "round $round: 6 writers with the same If-Match, exactly one 200 ($codes)");
    is(scalar @lost, 5, "round $round: the 5 others 412");
    is(score_of(2024), @won ? $won[0]{score} : 'none', "round $round: the winner's score is stored");
}

# ---- DELETE ----
my $t26 = etag_of(req(GET => "$A/2026", $reader));
check_json(req(DELETE => "$A/2026", $editor, undef, { 'If-Match' => $t0 }), 412, $PF,
           'DELETE with If-Match of another ETag: 412');
check_json(req(DELETE => "$A/2026", $editor, undef, { 'If-None-Match' => '*' }), 412, $PF,
           'DELETE with If-None-Match: *: 412');
is(req(GET => "$A/2026", $reader)->code, 200, 'the lane is still there');
check_json(req(DELETE => "$A/999999", $editor, undef, { 'If-Match' => '"stale"' }), 404, $NF,
           'DELETE of a lane that does not exist with a failing If-Match: 404');
is(req(DELETE => "$A/2026", $editor, undef, { 'If-Match' => $t26 })->code, 200,
   'DELETE with If-Match of its ETag: 200');
is(req(GET => "$A/2026", $reader)->code, 404, 'the lane is gone');
my ($rc, $out) = db_exec('INSERT INTO lane (id, heat_id, number) VALUES (2026, 257, 3)');
is($rc, 0, 'lane 2026 put back') or diag($out);

# ---- GET with If-Match ----
check_json(req(GET => "$A/2024", $reader, undef, { 'If-Match' => $t0 }), 412, $PF,
           'GET with a failing If-Match: 412');
is(req(HEAD => "$A/2024", $reader, undef, { 'If-Match' => $t0 })->code, 412, 'HEAD too');
my $cur = etag_of(req(GET => "$A/2024", $reader));
is(req(GET => "$A/2024", $reader, undef, { 'If-Match' => $cur })->code, 200,
   'GET with If-Match of the current ETag: 200');
my $ltag = etag_of(req(GET => '/api/competition/2/wod/', $reader));
check_json(req(GET => '/api/competition/2/wod/', $reader, undef, { 'If-Match' => '"0-0"' }), 412, $PF,
           'a list with a failing If-Match: 412');
is(req(GET => '/api/competition/2/wod/', $reader, undef, { 'If-Match' => $ltag })->code, 200,
   'a list with If-Match of its ETag: 200');

# ---- what does not exist: 404, never 304 or 412 ----
for my $h ({ 'If-None-Match' => '*' }, { 'If-None-Match' => $ltag }, { 'If-Match' => '"x"' }) {
    my ($k) = keys %$h;
    check_json(req(GET => '/api/competition/999999999', $reader, undef, $h), 404, $NF,
               "GET of a competition that does not exist, $k: $h->{$k}: 404");
}
check_json(req(GET => '/api/competition/1/wod/31', $reader, undef, { 'If-None-Match' => '*' }), 404, $NF,
           'a wrongly nested id with If-None-Match: *: 404');
is(req(HEAD => "$A/999999", $reader, undef, { 'If-None-Match' => '*' })->code, 404,
   'HEAD of a lane that does not exist with If-None-Match: *: 404');
is(req(GET => '/api/competition/2/wod/', $reader, undef, { 'If-None-Match' => '*' })->code, 304,
   'If-None-Match: * on a list that exists: 304');

# put the lanes back as they were
is(req(PUT => "$A/2024", $editor, { score => undef })->code, 200, 'lane 2024 put back');
is(req(PUT => "$A/2025", $editor, { score => undef })->code, 200, 'lane 2025 put back');

done_testing();
