# Typed scores (doc/api.md 8.1, 8.2; shared API.md Part 2 "Typed scores"): a lane PUT's
# score is read by the scoring of its heat's WOD.  For every scoring, a table of accepted
# scores (200, stored and shown exactly as sent, in the PUT's answer, the voie and the
# line) and of refused ones (400 with the scoring's message, which starts with
# "Invalid body: ", and the lane unchanged); the tiebreak (a time on every heat, not
# CAP+N, not WD, not limited by the cap); and a heat without WOD, where any text of at
# most 64 characters stays legal.  Empty lanes of competition 2 are used and put back:
#   2006  heat 251, zone 26, WOD 16 DT Relay: time, cap 720 s (12:00)
#   2034  heat 260, zone 27, WOD 20 Row 2K: time, no cap
#   2018  heat 255, zone 26, WOD 18 Synchro Cindy: reps
#   2013  heat 253, zone 26, WOD 17 Snatch Complex: load
#   2032  heat 259, zone 27, WOD 19 Skill Station: points
#   2029  heat 258, zone 26: no WOD (free text)
# tests: 245 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use JSON::PP ();
use Test::More;
use RankingTest;

my $E = login('judge', 'judge');
my $R = login('demo', 'demo');
ok(defined $E && defined $R, 'judge and demo log in') or die "cannot log in\n";

my %LANE = (   # lane => [heat, zone, number]
    2006 => [251, 26, 6], 2034 => [260, 27, 2], 2018 => [255, 26, 2], 2013 => [253, 26, 3],
    2032 => [259, 27, 2], 2029 => [258, 26, 3],
);
my %MSG = (
    time_cap => 'Invalid body: score must be a time like 7:45 (within the time cap), CAP+N or WD',
    time     => 'Invalid body: score must be a time like 7:45 or WD (CAP+N needs a time cap)',
    reps     => 'Invalid body: score must be a number of reps from 0 to 999999999 or WD',
    load     => 'Invalid body: score must be a load like 102.5, 100 kg or 225 lb (0 to 99999, at most 2 decimals) or WD',
    points   => 'Invalid body: score must be points like 87.5 (-99999 to 99999, at most 3 decimals) or WD',
    tiebreak => 'Invalid body: tiebreak must be a time like 1:02.5',
    tb_type  => 'Invalid body: tiebreak must be a string or null',
);
sub voie { my ($l) = @_; my ($h, $z) = @{ $LANE{$l} }; return "/api/competition/2/zone/$z/heat/$h/voie/$l" }
sub line { my ($l) = @_; my ($h) = @{ $LANE{$l} }; return "/api/competition/2/heat/$h/line/$l" }
sub lane_as { my ($l, $score, $tb) = @_;
    return lane_obj($l, $LANE{$l}[0], $LANE{$l}[2], undef, undef, $score, $tb) }

# every lane empty, as in the demo data
for my $l (sort keys %LANE) {
    check_json(req(GET => voie($l), $R), 200, { status => 'success', voie => lane_as($l) },
               "lane $l (heat $LANE{$l}[0]) before: empty");
}

# accepted(LANE, BODY, SCORE, TIEBREAK, NAME): one test: 200 with the lane as stored, and
# the voie and the line show the same
sub accepted {
    my ($l, $body, $score, $tb, $name) = @_;
    my $want = lane_as($l, $score, $tb);
    my $res = req(PUT => voie($l), $E, $body);
    my @why;
    my $d = json_cmp(decode($res), { status => 'success', voie => $want });
    push @why, 'PUT: ' . $res->code . ($d ? ", $d" : '') if $res->code != 200 || $d;
    for my $g ([voie($l), 'voie'], [line($l), 'line']) {
        my $r = req(GET => $g->[0], $R);
        my $e = json_cmp(decode($r), { status => 'success', $g->[1] => $want });
        push @why, "GET $g->[1]: $e" if $e;
    }
    ok(!@why, $name) or diag(join "\n", @why, 'answer: ' . $res->content);
}
# refused(LANE, BODY, MESSAGE, NAME): one test: 400 with MESSAGE, and the lane as before
sub refused {
    my ($l, $body, $msg, $name) = @_;
    my $before = req(GET => voie($l), $R)->content;
    my $res = req(PUT => voie($l), $E, $body);
    my @why;
    my $d = json_cmp(decode($res), { status => 'error', message => $msg });
    push @why, 'status ' . $res->code if $res->code != 400;
    push @why, "body: $d" if $d;
    push @why, 'the message does not start with "Invalid body: "'
        unless (eval { decode($res)->{message} } // '') =~ /^Invalid body: /;
    my $after = req(GET => voie($l), $R)->content;
    push @why, "the lane changed: $after" if $after ne $before;
    ok(!@why, $name) or diag(join "\n", @why);
}
sub score_body { my ($s) = @_; return { score => $s } }
# a score as a test name shows it: control characters escaped
sub q_ { my ($s) = @_; $s =~ s/([\x00-\x1f])/sprintf('\\x%02x', ord $1)/ge; return "'$s'" }

# ---------------------------------------------------------------- time, cap 12:00 (lane 2006)
for my $s ('7:45', '07:45', '0:07:45', '00:07:45', '7:45.0', '7:45.000', '7:45.5', '7:45.25', '0:00',
           '00:00', '0:01.001', '11:59.999', '12:00', '12:00.0', '12:00.000', '0:12:00', '0:11:59.9',
           'CAP+12', 'CAP+0', 'CAP+007', 'CAP+99999', 'CAP+000099999', 'WD') {
    accepted(2006, score_body($s), $s, undef, "time, cap 12:00: '$s' accepted");
}
for my $s ('12:00.001', '12:01', '1:02:03.5', '59:59', '99:59', '1:00:00', '7:60', '7:5', '1:2:03',
           '7:45.1234', '7:45.', '.5', ' 7:45', '7:45 ', '7 :45', '-7:45', '+7:45', "7'45\"", '7h45',
           '123:00', '007:45', '7:045', '1:60:00', '100:00:00', '7:45:00:00', ':45', '7:', '745',
           'cap+3', 'Cap+3', 'CAP+', 'CAP-3', 'CAP+-3', 'CAP+3.5', 'CAP + 3', 'CAP+ 3', 'CAP3',
           'CAP+100000', 'CAP+1e3', 'CAP', 'DNF', 'wd', 'Wd', 'WD ', ' WD', '', ' ', "7:45\n",
           "\x{ff17}:45") {
    refused(2006, score_body($s), $MSG{time_cap}, "time, cap 12:00: " . q_($s) . ' refused');
}

# ---------------------------------------------------------------- time, no cap (lane 2034)
for my $s ('1:02:03.5', '01:02:03.5', '1:00:00', '99:59:59.999', '99:59', '59:59.99', '7:45', 'WD') {
    accepted(2034, score_body($s), $s, undef, "time, no cap: '$s' accepted");
}
for my $s ('CAP+12', 'CAP+0', '100:00:00', '1:2:03', '1:60:00', '7:60', '7:5', '99:59:59.9999', 'x') {
    refused(2034, score_body($s), $MSG{time}, "time, no cap: '$s' refused (CAP+N needs a cap)");
}

# ---------------------------------------------------------------- reps (lane 2018)
for my $s ('212', '007', '0', '000', '999999999', '0999999999', '000000000000212', 'WD') {
    accepted(2018, score_body($s), $s, undef, "reps: '$s' accepted");
}
for my $s ('-1', '1e3', '12.5', '12.', '+5', '1000000000', '9999999999', ' 212', '212 ', '1,000',
           '1 000', '0x10', '212 reps', '', 'abc', '７', 'CAP+3', '7:45', 'wd') {
    refused(2018, score_body($s), $MSG{reps}, "reps: '$s' refused");
}

# ---------------------------------------------------------------- load (lane 2013)
for my $s ('102.5', '225 lb', '100kg', '100 kg', '100', '100.00 kg', '100.0', '0', '0kg', '99999',
           '99999 lb', '99999.00', '007.5kg', '0.01lb', '65.25 lb', 'WD') {
    accepted(2013, score_body($s), $s, undef, "load: '$s' accepted");
}
for my $s ('100  kg', '100 lbs', '100.123', '100KG', '100 Kg', '100 LB', '100kgs', '100 g', '100 t',
           '100000', '99999.5', '99999.01', '-5', '+5', '.5', '5.', '100 ', ' 100', '100kg ',
           'kg', '1e2', '100lb.', '100 kg kg', '100,5', '', 'WD kg', 'CAP+3') {
    refused(2013, score_body($s), $MSG{load}, "load: '$s' refused");
}

# ---------------------------------------------------------------- points (lane 2032)
for my $s ('87.5', '-3', '-0', '0', '99999', '-99999', '87.125', '087.500', '-0.001', '99999.000',
           'WD') {
    accepted(2032, score_body($s), $s, undef, "points: '$s' accepted");
}
for my $s ('87.1234', '100000', '-100000', '99999.001', '+3', '--3', '3-', '- 3', '87.', '.5',
           '-.5', '1e2', ' 87.5', '87.5 ', '87,5', '', 'CAP+3', '7:45') {
    refused(2032, score_body($s), $MSG{points}, "points: '$s' refused");
}

# ---------------------------------------------------------------- tiebreak
# a time on every heat, the cap does not limit it, null clears it; shown on voie and line
accepted(2006, { score => '12:00', tiebreak => '1:02.5' }, '12:00', '1:02.5', 'a score and a tiebreak');
for my $t ('3:12', '0:00', '59:59.999', '1:02:03', '99:59:59.999', '00:07', '7:45.000') {
    accepted(2006, { tiebreak => $t }, '12:00', $t, "tiebreak '$t' accepted (score kept; no cap limit)");
}
accepted(2006, { tiebreak => undef }, '12:00', undef, 'tiebreak null accepted (cleared)');
accepted(2006, { tiebreak => '3:12', score => 'CAP+3' }, 'CAP+3', '3:12', 'a tiebreak with CAP+N');
for my $t ('CAP+3', 'WD', '1:02.5000', '7:5', '7:60', ' 1:02', '1:02 ', '', 'abc', '-1:00', '1:2:03',
           '100:00:00', '62') {
    refused(2006, { tiebreak => $t }, $MSG{tiebreak}, "tiebreak '$t' refused");
}
refused(2006, { tiebreak => 62 }, $MSG{tb_type}, 'tiebreak as a number refused');
refused(2006, { tiebreak => JSON::PP::true() }, $MSG{tb_type}, 'tiebreak true refused');
refused(2006, { tiebreak => ['1:02'] }, $MSG{tb_type}, 'tiebreak as an array refused');
refused(2006, { score => '7:45', tiebreak => 'WD' }, $MSG{tiebreak}, 'a good score with a bad tiebreak: nothing written');
refused(2006, { score => '7:61', tiebreak => '1:00' }, $MSG{time_cap}, 'a bad score with a good tiebreak: nothing written');
accepted(2006, { score => undef, tiebreak => undef }, undef, undef, 'lane 2006: score and tiebreak cleared');
# the tiebreak is checked as a time on a heat without WOD too
accepted(2029, { tiebreak => '3:12' }, undef, '3:12', 'heat without WOD: tiebreak 3:12 accepted');
refused(2029, { tiebreak => 'first' }, $MSG{tiebreak}, 'heat without WOD: a tiebreak that is not a time refused');

# ---------------------------------------------------------------- heat without WOD (lane 2029)
# any score of at most 64 characters: nothing is read
for my $s ('', 'WD', '7:61', 'CAP+', 'cap+3', '100 lbs', '-1', ' 7:45 ', 'DNF — lane 3 judge', 'x' x 64,
           "\x{1F3C6}" x 64) {
    accepted(2029, score_body($s), $s, '3:12', 'heat without WOD: ' . (length $s > 20 ? length($s) . ' characters' : "'$s'") . ' accepted');
}
refused(2029, score_body('x' x 65), 'Invalid body: score longer than 64 characters', 'heat without WOD: 65 characters refused');

# null clears a score on every heat; put every lane back
for my $l (sort keys %LANE) {
    accepted($l, { score => undef, tiebreak => undef }, undef, undef, "lane $l: score null accepted (put back)");
}

tests_declared_ok(__FILE__);
done_testing();
