# Leaderboards follow every write.  Each child keeps the rows of the competitions it
# ranked and, on a new data revision made only of recorded lane changes, reads just
# the changed lanes (mod_ranking_leaderboard.c); anything else reads the whole competition.
# This walks competition 4 (every scoring, four divisions) through writes that take
# each path, and after each batch compares the overall leaderboard and one WOD's with
# t/lib/RankingRef.pm fed with the demo data plus the same changes (expectations never
# come from the server):
#   - 25 batches of 1 to 3 random lane PUTs (score of the WOD's scoring, WD, CAP+N,
#     kg and lb, null; tiebreak or null), then both leaderboards;
#   - a write on another competition only (the revision moves, nothing of 4 changes);
#   - a lane given another spot; a lane given another number; a lane emptied (spot
#     null: it can no longer rank);
#   - 70 lanes changed in one go (more than are followed one by one);
#   - a lane deleted, then inserted again with SQL (a change without a record);
#   - concurrent readers of every leaderboard of every competition while lanes are
#     written (the kept inputs change hands between competitions);
#   - everything put back: the leaderboards of the demo data.
# The random choices come from a fixed seed: a failure is reproducible.
# tests: 105
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;
use RankingRef;

srand(20261123);
my $SRC = $ENV{RANKING_SRC} // "$FindBin::Bin/../..";
my $DEMO = RankingRef::demo("$SRC/sql/demo.sql");
my $R = login('demo', 'demo');
my $E = login('judge', 'judge');
ok(defined $R && defined $E, 'demo (reader) and judge (editor) log in') or die "cannot log in\n";

# the data as the test has changed it: a copy of the demo data with its own lane rows
my $db = { %$DEMO, lane => [map { {%$_} } @{ $DEMO->{lane} }] };
my %HEAT = map { $_->{id} => $_ } grep { $_->{competition_id} == 4 } @{ $DEMO->{heat} };
my %WOD = map { $_->{id} => $_ } @{ $DEMO->{wod} };
my %ZONE = map { $_->{id} => $_ } @{ $DEMO->{zone} };
my @SPOTS4 = map { $_->{id} } grep { $_->{competition_id} == 4 } @{ $DEMO->{spot} };
sub lanes4 { return grep { $HEAT{ $_->{heat_id} } } @{ $db->{lane} } }
my @RANKED = grep { defined $HEAT{ $_->{heat_id} }{wod_id} } lanes4();
my %ORIG = map { $_->{id} => {%$_} } lanes4();
die "competition 4 of the demo data has no lanes\n" unless @RANKED > 30;

sub path {
    my ($l) = @_;
    my $h = $HEAT{ $l->{heat_id} } // die "lane $l->{id}: not of competition 4\n";
    return "/api/competition/4/zone/$h->{zone_id}/heat/$h->{id}/voie/$l->{id}";
}
sub lane_row { my ($id) = @_; my ($l) = grep { $_->{id} eq $id } @{ $db->{lane} }; return $l }

# PUT SET on lane L; on 200, the test's copy changes the same way.  1 when 200.
sub put {
    my ($l, %set) = @_;
    my $res = req(PUT => path($l), $E, \%set);
    if ($res->code != 200) {
        diag("PUT " . path($l) . ": " . $res->status_line . ' ' . $res->content);
        return 0;
    }
    $l->{$_} = defined $set{$_} ? "$set{$_}" : undef for keys %set;
    return 1;
}

sub mmss { my ($s) = @_; return sprintf('%d:%02d', int($s / 60), $s % 60) }
# a score that fits the scoring of lane L's WOD
sub score_for {
    my ($l) = @_;
    my $w = $WOD{ $HEAT{ $l->{heat_id} }{wod_id} };
    my $x = rand();
    return undef if $x < 0.08;
    return 'WD' if $x < 0.16;
    if ($w->{scoring} eq 'time') {
        my $cap = $w->{time_cap};
        return 'CAP+' . int(rand(40)) if defined $cap && $x < 0.35;
        my $t = 120 + int(rand(defined $cap ? $cap - 120 : 3000));
        return rand() < 0.3 ? mmss($t) . '.' . int(rand(10)) : mmss($t);
    }
    return '' . int(rand(60)) if $w->{scoring} eq 'reps';   # few values: ties
    if ($w->{scoring} eq 'load') {
        return rand() < 0.5 ? (40 + int(rand(30))) . ' kg' : (90 + int(rand(60))) . ' lb';
    }
    return sprintf('%d.%d', int(rand(20)) - 5, int(rand(2)) * 5);   # points
}
sub tiebreak { return rand() < 0.5 ? undef : mmss(60 + int(rand(20))) }

# the two leaderboards against the reference: 2 tests
sub check_boards {
    my ($what) = @_;
    my $wod = (31 .. 35)[int(rand(5))];
    check_json(req(GET => '/api/competition/4/leaderboard', $R), 200,
               RankingRef::overall_board($db, 4), "$what: the overall leaderboard");
    check_json(req(GET => "/api/competition/4/wod/$wod/leaderboard", $R), 200,
               RankingRef::wod_board($db, 4, $wod), "$what: WOD $wod's leaderboard");
}

check_json(req(GET => '/api/competition/4/leaderboard', $R), 200,
           RankingRef::overall_board($db, 4), 'the overall leaderboard of the demo data');

# ---------------------------------------------------------------- random batches
for my $b (1 .. 25) {
    my $ok = 1;
    for (1 .. 1 + int(rand(3))) {
        my $l = $RANKED[int(rand(@RANKED))];
        $ok &&= put($l, score => score_for($l), tiebreak => tiebreak());
    }
    ok($ok, "batch $b: every PUT answered 200");
    check_boards("batch $b");
}

# ---------------------------------------------------------------- another competition
{
    my $l2017 = '/api/competition/2/zone/26/heat/255/voie/2017';
    my $ok = req(PUT => $l2017, $E, { score => '77' })->code == 200;
    $ok &&= req(PUT => $l2017, $E, { score => undef })->code == 200;
    ok($ok, 'a lane of competition 2 changed and put back');
    check_boards('after writes on competition 2 only');
}

# ---------------------------------------------------------------- another spot, number
sub free_spot {   # a spot of competition 4 in no lane of L's heat
    my ($l) = @_;
    my %used = map { defined $_->{spot_id} ? ($_->{spot_id} => 1) : () }
               grep { $_->{heat_id} eq $l->{heat_id} } @{ $db->{lane} };
    my ($s) = grep { !$used{$_} } @SPOTS4;
    return $s;
}
sub free_number {
    my ($l) = @_;
    my %used = map { $_->{number} => 1 } grep { $_->{heat_id} eq $l->{heat_id} } @{ $db->{lane} };
    my ($n) = grep { !$used{$_} } reverse 1 .. $ZONE{ $HEAT{ $l->{heat_id} }{zone_id} }{lane_count};
    return $n;
}
{
    my ($l) = grep { defined $_->{spot_id} && defined $_->{score} } @RANKED;
    ok(put($l, spot_id => free_spot($l)), "lane $l->{id} given another spot");
    check_boards('after a spot change');
    my ($m) = grep { defined $_->{spot_id} && defined free_number($_) && $_ != $l } @RANKED;
    ok(put($m, number => 0 + free_number($m), score => score_for($m)), "lane $m->{id} given another number");
    check_boards('after a number change');
    my ($n) = grep { defined $_->{spot_id} && $_ != $l && $_ != $m } @RANKED;
    ok(put($n, spot_id => undef), "lane $n->{id} emptied (spot null)");
    check_boards('after a lane was emptied');
}

# ---------------------------------------------------------------- many at once
{
    my $ok = 1;
    for my $i (0 .. 69) {
        my $l = $RANKED[$i % @RANKED];
        $ok &&= put($l, score => score_for($l));
    }
    ok($ok, '70 lane PUTs in one go');
    check_boards('after 70 changes');
}

# ---------------------------------------------------------------- a delete, then SQL
{
    my ($l) = grep { defined $_->{spot_id} && defined $_->{score} && $_->{score} ne 'WD' } @RANKED;
    my %row = %{ $ORIG{ $l->{id} } };
    is(req(DELETE => path($l), $E)->code, 200, "lane $l->{id} deleted");
    $db->{lane} = [grep { $_ != $l } @{ $db->{lane} }];
    check_boards('after a delete');
    my @cols = qw(id heat_id number spot_id score tiebreak);
    # as the demo data has it: published (publication immediate), entered
    my ($rc, $out) = db_exec(sprintf('INSERT INTO lane (%s, score_status, published_score, published_tiebreak)'
                                     . ' VALUES (%s, %s)', join(', ', @cols),
        join(', ', map { defined $row{$_} ? "'$row{$_}'" : 'NULL' } @cols),
        join(', ', map { defined $_ ? "'$_'" : 'NULL' } ($row{score} ? 'entered' : undef), $row{score}, $row{tiebreak})));
    is($rc, 0, "lane $l->{id} inserted again with SQL, as in the demo data") or diag($out);
    push @{ $db->{lane} }, {%row};
    @RANKED = map { $_ == $l ? $db->{lane}[-1] : $_ } @RANKED;   # the row as it is now
    check_boards('after an insert made with SQL (no change record)');
}

# ---------------------------------------------------------------- at the same time
# Eight clients read the leaderboards of all five competitions (one more than the
# inputs a child keeps, so that inputs change hands) while two write lanes of
# competition 4: every read answers 200 with a whole body; afterwards the leaderboards
# are the reference's.  (A reader once read another thread's input while it was being
# replaced: the children crashed; the ASan build of this suite reports such a read.)
{
    my @boards = map { "/api/competition/$_/leaderboard" } 1 .. 5;
    my @wods = map { "/api/competition/$_->{competition_id}/wod/$_->{id}/leaderboard" } @{ $DEMO->{wod} };
    my @paths = (@boards, @wods);
    my @writes = map { my $l = $_; [path($l), { score => score_for($l) }] } @RANKED[0 .. 19];
    my @out = run_parallel(
        (map { my $k = $_; sub {
            my ($bad, $n) = (0, 0);
            for my $i (0 .. 59) {
                my $res = req(GET => $paths[($i * 7 + $k) % @paths], $R);
                $n++;
                $bad++ unless $res->code == 200 && (decode($res)->{status} // '') eq 'success';
            }
            return { n => $n, bad => $bad };
        } } 1 .. 8),
        (map { my $k = $_; sub {
            my $bad = 0;
            for my $w (@writes[map { 2 * $_ + $k } 0 .. 9]) {
                $bad++ unless req(PUT => $w->[0], $E, $w->[1])->code == 200;
            }
            return { n => 10, bad => $bad };
        } } 0, 1));
    my ($n, $bad) = (0, 0);
    for (@out) { $n += $_->{n} // 0; $bad += $_->{bad} // 1000; }
    is($bad, 0, "$n concurrent reads of every leaderboard and writes: each answered whole");
    for my $i (0 .. 19) {   # the test's copy of the data follows the writes
        my $l = $RANKED[$i];
        $l->{score} = $writes[$i][1]{score};
    }
    check_boards('after the concurrent reads and writes');
}

# ---------------------------------------------------------------- everything put back
{
    my $ok = 1;
    for my $l (lanes4()) {
        my $o = $ORIG{ $l->{id} };
        next unless grep { ($l->{$_} // "\0") ne ($o->{$_} // "\0") } qw(number spot_id score tiebreak);
        $ok &&= put($l, number => 0 + $o->{number}, spot_id => $o->{spot_id}, score => $o->{score},
                    tiebreak => $o->{tiebreak});
    }
    ok($ok, 'every lane of competition 4 put back');
    check_json(req(GET => '/api/competition/4/leaderboard', $R), 200,
               RankingRef::overall_board($DEMO, 4), 'the overall leaderboard of the demo data again');
    check_json(req(GET => '/api/competition/4/wod/31/leaderboard', $R), 200,
               RankingRef::wod_board($DEMO, 4, 31), 'WOD 31\'s leaderboard of the demo data again');
}

tests_declared_ok(__FILE__);
done_testing();
