# Leaderboards (doc/api.md section 8; shared API.md Part 2 "Ranking policy",
# "Leaderboards"): GET /competition/{c}/wod/{w}/leaderboard and /competition/{c}/leaderboard.
#
# Expectations never come from the server.  Two independent sources:
#   1. tables worked out BY HAND from sql/demo.sql (below, with the reasoning), for
#      competition 4 (policy places: every WOD in at least one division, WOD 31 in all
#      four, and the overall leaderboard of every division), competition 5 (chart100:
#      WODs 36, 37, 38 and the overall) and competition 1 (RankingTest::lb1_*);
#   2. t/lib/RankingRef.pm, a small reference written from the contract (regular
#      expressions and plain loops, no code shared with the module), fed with
#      sql/demo.sql parsed as text; it is first checked against the hand tables, then
#      gives the exact bodies of every leaderboard (every WOD, overall, every division
#      filter) of competitions 1 to 5, and of the changed data after a write.
# Then: the division filter (exact name, "+" and "%20" for a space, 404 for a division
# no spot has, 400 "Invalid query" for a repeated or undecodable one), 404s (unknown
# or foreign competition / WOD, malformed ids), HEAD, OPTIONS, 405 with Allow, 401,
# readers and editors read, strong ETag and 304 (a filtered answer has its own ETag),
# and writes: a lane PUT on competition 2 shows at once (then put back), and ONE write
# on competition 4 (lane 3024, heat 402: Scaled, WOD 31), whose effect on the WOD and
# overall leaderboards is worked out by hand, put back exactly at the end.
# tests: 234
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;
use RankingRef;

my $SRC = $ENV{RANKING_SRC} // "$FindBin::Bin/../..";
my $DEMO = RankingRef::demo("$SRC/sql/demo.sql");
my $R = login('demo', 'demo');     # reader
my $E = login('judge', 'judge');   # editor
ok(defined $R && defined $E, 'demo (reader) and judge (editor) log in') or die "cannot log in\n";
my $NF = { status => 'error', message => 'Not found' };
my $BADQ = { status => 'error', message => 'Invalid query' };
my %WODS = (1 => [13, 11, 12, 14], 2 => [16, 17, 18, 19, 20], 3 => [], 4 => [31 .. 35],
            5 => [36, 37, 38]);

my %SPOTROW = map { $_->{id} => $_ } @{ $DEMO->{spot} };
sub name_bib { my $s = $SPOTROW{ $_[0] }; return ($s->{name}, defined $s->{bib} ? 0 + $s->{bib} : undef) }

# ---------------------------------------------------------------- hand tables
# WOD entries, in answer order: [rank, points, spot, score, tiebreak, heat, lane]
# (score, tiebreak, heat, lane absent: the spot has no lane in the WOD).
sub wod_body {
    my ($c, $w, $scoring, $ranking, %divs) = @_;
    my @order = sort { !length $a ? 1 : !length $b ? -1 : $a cmp $b } keys %divs;
    return { status => 'success', leaderboard => {
        competition_id => "$c", wod_id => "$w", scoring => $scoring, ranking => $ranking,
        divisions => [map { my $d = $_;
            { division => length $d ? $d : undef, entries => [map {
                my ($rank, $points, $spot, $score, $tb, $heat, $lane) = @$_;
                my ($name, $bib) = name_bib($spot);
                { rank => $rank, points => $points, spot_id => "$spot", spot_name => $name, bib => $bib,
                  score => $score, tiebreak => $tb, heat_id => defined $heat ? "$heat" : undef,
                  lane_id => defined $lane ? "$lane" : undef } } @{ $divs{$d} }] } } @order] } };
}
my $u;   # undef, for the tables

# Competition 4, WOD 31 Sprint Chipper (time, cap 600 s), every division.
#  RX: the table of the header of sql/demo.sql (7:45 = 07:45, tiebreaks 3:02 < 3:10;
#   305's best lane is 9:12.5 in heat 404, not CAP+5 in heat 401; 10:00 equals the cap:
#   finished, ahead of every CAP+N; 8 placed, so 9 points without a place).
#  Scaled: 5:30; then three 8:05: tiebreak 4:00, 4:00.5, none (none after a value);
#   09:59.9; CAP+3 before CAP+20 (fewer reps left); 318 has no score: 7 + 1 = 8 points.
#  Masters 40+: 6:58 = 06:58 share 1st (2nd skipped); 10:00 3rd; CAP+0 4th (capped, after
#   a time equal to the cap); 323 WD and 324 without lane: 4 + 1 = 5 points, by bib.
#  No division: 8:30 = 8:30.0 share 1st, CAP+7 3rd.
my %C4W31 = (
    'Masters 40+' => [[1, 1, 319, '6:58', $u, 403, 3025], [1, 1, 320, '06:58', $u, 403, 3026],
                      [3, 3, 322, '10:00', $u, 403, 3028], [4, 4, 321, 'CAP+0', $u, 403, 3027],
                      [$u, 5, 323, 'WD', $u, 403, 3029], [$u, 5, 324]],
    RX => [[1, 1, 303, '07:45', '3:02', 401, 3009], [2, 2, 301, '7:45', '3:10', 401, 3007],
           [2, 2, 302, '07:45', '3:10', 401, 3008], [4, 4, 305, '9:12.5', $u, 404, 3033],
           [5, 5, 304, '10:00', $u, 401, 3010], [6, 6, 306, 'CAP+5', $u, 401, 3012],
           [6, 6, 307, 'CAP+5', $u, 401, 3013], [8, 8, 308, 'CAP+12', $u, 401, 3014],
           [$u, 9, 310], [$u, 9, 309, 'WD', $u, 401, 3015]],
    Scaled => [[1, 1, 317, '5:30', $u, 402, 3023], [2, 2, 312, '8:05', '4:00', 402, 3018],
               [3, 3, 313, '8:05', '4:00.5', 402, 3019], [4, 4, 311, '8:05', $u, 402, 3017],
               [5, 5, 316, '09:59.9', $u, 402, 3022], [6, 6, 315, 'CAP+3', $u, 402, 3021],
               [7, 7, 314, 'CAP+20', $u, 402, 3020], [$u, 8, 318, $u, $u, 402, 3024]],
    '' => [[1, 1, 325, '8:30', $u, 404, 3030], [1, 1, 326, '8:30.0', $u, 404, 3031],
           [3, 3, 327, 'CAP+7', $u, 404, 3032]],
);
# WOD 32 Murph (time, no cap), RX: 38:12 with tiebreak 20:01 before 38:12 without;
# 39:59.99 < 41:05 < 45:00 < 52:47 < 1:02:03.5 = 01:02:03.5 (7th twice); 8 spots placed,
# so 307 (WD) and 308 (no score) get 8 + 1 = 9 points.  No division: 327 has no lane: 2 + 1 = 3 points.
my %C4W32 = (
    RX => [[1, 1, 301, '38:12', '20:01', 405, 3034], [2, 2, 303, '38:12', $u, 405, 3036],
           [3, 3, 310, '39:59.99', $u, 405, 3043], [4, 4, 302, '41:05', $u, 405, 3035],
           [5, 5, 306, '45:00', $u, 405, 3039], [6, 6, 309, '52:47', $u, 405, 3042],
           [7, 7, 304, '1:02:03.5', $u, 405, 3037], [7, 7, 305, '01:02:03.5', $u, 405, 3038],
           [$u, 9, 307, 'WD', $u, 405, 3040], [$u, 9, 308, $u, $u, 405, 3041]],
    '' => [[1, 1, 325, '44:44', $u, 408, 3058], [2, 2, 326, '47:12', $u, 408, 3059], [$u, 3, 327]],
);
# WOD 33 Burpee Ladder (reps, higher first), RX: 120 twice, tiebreaks 6:40 < 6:52;
# 095 = 95 share 6th; 0 is a result (9th); 310 no score: 10 points.  Scaled: 80 twice
# share 2nd; 318 WD: 8 points.
my %C4W33 = (
    RX => [[1, 1, 303, '120', '6:40', 409, 3062], [2, 2, 308, '120', '6:52', 409, 3067],
           [3, 3, 301, '112', $u, 409, 3060], [4, 4, 306, '101', $u, 409, 3065],
           [5, 5, 302, '98', $u, 409, 3061], [6, 6, 304, '095', $u, 409, 3063],
           [6, 6, 305, '95', $u, 409, 3064], [8, 8, 307, '88', $u, 409, 3066],
           [9, 9, 309, '0', $u, 409, 3068], [$u, 10, 310, $u, $u, 409, 3069]],
    Scaled => [[1, 1, 315, '91', $u, 410, 3074], [2, 2, 311, '80', $u, 410, 3070],
               [2, 2, 313, '80', $u, 410, 3072], [4, 4, 312, '77', $u, 410, 3071],
               [5, 5, 317, '70', $u, 410, 3076], [6, 6, 314, '65', $u, 410, 3073],
               [7, 7, 316, '59', $u, 410, 3075], [$u, 8, 318, 'WD', $u, 410, 3077]],
);
# WOD 34 1RM Snatch (load, in kg; 1 lb = 0.45359237 kg), RX: 110kg; 102.5 = 102.5kg;
# 102.06kg > 225 lb (102.058...); 100 = 100 kg; 220.46lb (99.998...) < 100; 95.25 kg;
# 309 WD: 10 points.  Scaled: 72.5kg; 155 lb (70.306...); 70kg = 70; 154.32 lb (69.998...)
# < 70; 315 no score: 8.  Masters 40+: 187.5 lb (85.048...) > 85kg; 80kg = 80; 323 WD: 6.
# No division: 198.42lb (90.0017...) > 90kg = 90 kg.
my %C4W34 = (
    RX => [[1, 1, 310, '110kg', $u, 413, 3096], [2, 2, 301, '102.5', $u, 413, 3087],
           [2, 2, 302, '102.5kg', $u, 413, 3088], [4, 4, 304, '102.06kg', $u, 413, 3090],
           [5, 5, 303, '225 lb', $u, 413, 3089], [6, 6, 305, '100', $u, 413, 3091],
           [6, 6, 306, '100 kg', $u, 413, 3092], [8, 8, 307, '220.46lb', $u, 413, 3093],
           [9, 9, 308, '95.25 kg', $u, 413, 3094], [$u, 10, 309, 'WD', $u, 413, 3095]],
    Scaled => [[1, 1, 318, '72.5kg', $u, 414, 3104], [2, 2, 312, '155 lb', $u, 414, 3098],
               [3, 3, 311, '70kg', $u, 414, 3097], [3, 3, 313, '70', $u, 414, 3099],
               [5, 5, 316, '154.32 lb', $u, 414, 3102], [6, 6, 314, '65.5kg', $u, 414, 3100],
               [7, 7, 317, '60 kg', $u, 414, 3103], [$u, 8, 315, $u, $u, 414, 3101]],
    'Masters 40+' => [[1, 1, 320, '187.5 lb', $u, 415, 3106], [2, 2, 319, '85kg', $u, 415, 3105],
                      [3, 3, 321, '80kg', $u, 415, 3107], [3, 3, 322, '80', $u, 415, 3108],
                      [5, 5, 324, '77.5kg', $u, 415, 3110], [$u, 6, 323, 'WD', $u, 415, 3109]],
    '' => [[1, 1, 326, '198.42lb', $u, 415, 3112], [2, 2, 325, '90kg', $u, 415, 3111],
           [2, 2, 327, '90 kg', $u, 415, 3113]],
);
# WOD 35 Gymnastics Skill Test (points, may be negative), RX: 100.25; 92 = 92.000;
# 87.5 = 87.500; 78.125; 0; -5 last; 310 none and 309 WD: 8 + 1 = 9 points (310 first:
# bib 110, 309 has none).  Masters 40+: 72.5; 70 = 70.0; 68.125; 65; 321 none: 6.
my %C4W35 = (
    RX => [[1, 1, 305, '100.25', $u, 416, 3118], [2, 2, 302, '92', $u, 416, 3115],
           [2, 2, 306, '92.000', $u, 416, 3119], [4, 4, 301, '87.5', $u, 416, 3114],
           [4, 4, 303, '87.500', $u, 416, 3116], [6, 6, 307, '78.125', $u, 416, 3120],
           [7, 7, 308, '0', $u, 416, 3121], [8, 8, 304, '-5', $u, 416, 3117],
           [$u, 9, 310, $u, $u, 416, 3123], [$u, 9, 309, 'WD', $u, 416, 3122]],
    'Masters 40+' => [[1, 1, 320, '72.5', $u, 418, 3133], [2, 2, 319, '70', $u, 418, 3132],
                      [2, 2, 323, '70.0', $u, 418, 3136], [4, 4, 322, '68.125', $u, 418, 3135],
                      [5, 5, 324, '65', $u, 418, 3137], [$u, 6, 321, $u, $u, 418, 3134]],
);
# Competition 5 (chart100: 100, 95, 90, 85, 80, 75, then 73, 71...; 0 without place).
# WOD 36 Fran (time, cap 420 s): Men 3:45 twice share 1st (100 each), 4:02 3rd (90),
# 6:59.9 (85), 7:00 = the cap (80), CAP+10 twice 6th (75); 357 WD: 0.  Women: 4:30 =
# 04:30, tiebreak 2:00 < 2:05; CAP+4 4th; 363 no score and 364 no lane: 0.
my %C5W36 = (
    Men => [[1, 100, 351, '3:45', $u, 451, 3501], [1, 100, 353, '3:45', $u, 451, 3503],
            [3, 90, 352, '4:02', $u, 451, 3502], [4, 85, 355, '6:59.9', $u, 451, 3505],
            [5, 80, 356, '7:00', $u, 451, 3506], [6, 75, 354, 'CAP+10', $u, 451, 3504],
            [6, 75, 358, 'CAP+10', $u, 451, 3508], [$u, 0, 357, 'WD', $u, 451, 3507]],
    Women => [[1, 100, 362, '04:30', '2:00', 452, 3512], [2, 95, 359, '4:30', '2:05', 452, 3509],
              [3, 90, 360, '5:10', $u, 452, 3510], [4, 85, 361, 'CAP+4', $u, 452, 3511],
              [$u, 0, 363, $u, $u, 452, 3513], [$u, 0, 364]],
);
# WOD 37 Clean Ladder (load), Women: 85kg; 176.37 lb (80.0000863 kg) just above 80kg = 80.
my %C5W37 = (
    Women => [[1, 100, 361, '85kg', $u, 454, 3524], [2, 95, 360, '176.37 lb', $u, 454, 3523],
              [3, 90, 359, '80kg', $u, 454, 3522], [3, 90, 362, '80', $u, 454, 3525],
              [5, 80, 363, '75kg', $u, 454, 3526], [6, 75, 364, '70kg', $u, 454, 3527]],
);
# WOD 38 AMRAP 12 (reps), Men: 275; 261; 250 twice (3rd, 90 each); 0240 = 240 (5th, 80);
# 238 (75); 201 7th: 87 - 2 x 7 = 73; 357 no score: 0.
my %C5W38 = (
    Men => [[1, 100, 356, '275', $u, 455, 3533], [2, 95, 352, '261', $u, 455, 3529],
            [3, 90, 351, '250', $u, 455, 3528], [3, 90, 353, '250', $u, 455, 3530],
            [5, 80, 355, '0240', $u, 455, 3532], [6, 75, 354, '238', $u, 455, 3531],
            [7, 73, 358, '201', $u, 455, 3535], [$u, 0, 357, $u, $u, 455, 3534]],
);

# Overall, division => [rank, total, spot, "place:points" per WOD in list order ('-'
# for no place)]: the projection of the answer on these fields is compared.
# Competition 4 (places, WODs 31..35): sums of the WOD tables above (and of the other
# divisions of WODs 32..35, worked out the same way).  RX has no equal totals.  Scaled:
# 312 and 311 total 13; countback: one 1st each, then 312 has two 2nd places (WODs 31,
# 34) against one (WOD 33), so 312 is 1st (as the header of sql/demo.sql says).
# Masters 40+: no equal totals.  No division: 325 and 326 total 7 with three 1st and two
# 2nd places each: both 1st, 327 3rd.
my %C4ALL = (
    RX => [[1, 12, 301, '2:2 1:1 3:3 2:2 4:4'], [2, 13, 303, '1:1 2:2 1:1 5:5 4:4'],
           [3, 15, 302, '2:2 4:4 5:5 2:2 2:2'], [4, 23, 306, '6:6 5:5 4:4 6:6 2:2'],
           [5, 24, 305, '4:4 7:7 6:6 6:6 1:1'], [6, 30, 304, '5:5 7:7 6:6 4:4 8:8'],
           [7, 32, 310, '-:9 3:3 -:10 1:1 -:9'], [8, 35, 308, '8:8 -:9 2:2 9:9 7:7'],
           [9, 37, 307, '6:6 -:9 8:8 8:8 6:6'], [10, 43, 309, '-:9 6:6 9:9 -:10 -:9']],
    Scaled => [[1, 13, 312, '2:2 4:4 4:4 2:2 1:1'], [2, 13, 311, '4:4 1:1 2:2 3:3 3:3'],
               [3, 18, 313, '3:3 7:7 2:2 3:3 3:3'], [4, 19, 315, '6:6 3:3 1:1 -:8 1:1'],
               [5, 25, 314, '7:7 1:1 6:6 6:6 5:5'], [6, 26, 317, '1:1 5:5 5:5 7:7 8:8'],
               [7, 29, 318, '-:8 6:6 -:8 1:1 6:6'], [8, 32, 316, '5:5 -:8 7:7 5:5 7:7']],
    'Masters 40+' => [[1, 7, 320, '1:1 1:1 3:3 1:1 1:1'], [2, 9, 319, '1:1 3:3 1:1 2:2 2:2'],
                      [3, 16, 321, '4:4 2:2 1:1 3:3 -:6'], [4, 20, 322, '3:3 -:6 4:4 3:3 4:4'],
                      [5, 21, 323, '-:5 3:3 5:5 -:6 2:2'], [6, 26, 324, '-:5 5:5 6:6 5:5 5:5']],
    '' => [[1, 7, 325, '1:1 1:1 2:2 2:2 1:1'], [1, 7, 326, '1:1 2:2 2:2 1:1 1:1'],
           [3, 12, 327, '3:3 -:3 1:1 2:2 3:3']],
);
# Competition 5 (chart100, highest total first, WODs 36..38).  Men: 353 = 100 + 95 + 90
# = 285 is 1st; 356 = 80 + 100 + 100 and 351 = 100 + 90 + 90 both 280: countback, 356
# has two 1st places and 351 one, so 356 2nd, 351 3rd; 354 = 75 + 90 + 75 and 355 = 85
# + 75 + 80 both 240: no 1st or 2nd place either, 354 has a 3rd: 354 5th, 355 6th.
# Women: 359 = 95 + 90 + 90 and 361 = 85 + 100 + 90 both 275: 361 has a 1st place: 3rd.
my %C5ALL = (
    Men => [[1, 285, 353, '1:100 2:95 3:90'], [2, 280, 356, '5:80 1:100 1:100'],
            [3, 280, 351, '1:100 3:90 3:90'], [4, 265, 352, '3:90 5:80 2:95'],
            [5, 240, 354, '6:75 3:90 6:75'], [6, 240, 355, '4:85 6:75 5:80'],
            [7, 221, 358, '6:75 7:73 7:73'], [8, 0, 357, '-:0 -:0 -:0']],
    Women => [[1, 290, 362, '1:100 3:90 1:100'], [2, 280, 360, '3:90 2:95 2:95'],
              [3, 275, 361, '4:85 1:100 3:90'], [4, 275, 359, '2:95 3:90 3:90'],
              [5, 160, 363, '-:0 5:80 5:80'], [6, 150, 364, '-:0 6:75 6:75']],
);

# the projection of an overall body on (division, rank, total, spot, place:points...)
sub overall_proj {
    my ($body) = @_;
    my %p;
    for my $d (@{ ((ref $body eq 'HASH' ? $body : {})->{leaderboard} // {})->{divisions} // [] }) {
        $p{ $d->{division} // '' } = [map {
            [$_->{rank}, $_->{points}, 0 + $_->{spot_id},
             join(' ', map { ($_->{rank} // '-') . ":$_->{points}" } @{ $_->{results} })]
        } @{ $d->{entries} }];
    }
    return \%p;
}
# the projection of a WOD body on the divisions of HAND
sub wod_proj {
    my ($body, $hand) = @_;
    my %p;
    for my $d (@{ ((ref $body eq 'HASH' ? $body : {})->{leaderboard} // {})->{divisions} // [] }) {
        next unless exists $hand->{ $d->{division} // '' };
        $p{ $d->{division} // '' } = [map {
            [$_->{rank}, $_->{points}, 0 + $_->{spot_id},
             defined $_->{lane_id} ? ($_->{score}, $_->{tiebreak}, 0 + $_->{heat_id}, 0 + $_->{lane_id}) : ()]
        } @{ $d->{entries} }];
    }
    return \%p;
}

my @HAND_WOD = ([4, 31, \%C4W31], [4, 32, \%C4W32], [4, 33, \%C4W33], [4, 34, \%C4W34],
                [4, 35, \%C4W35], [5, 36, \%C5W36], [5, 37, \%C5W37], [5, 38, \%C5W38]);
my @HAND_ALL = ([4, \%C4ALL], [5, \%C5ALL]);

# ---------------------------------------------------------------- the reference, checked by hand
for my $h (@HAND_WOD) {
    my ($c, $w, $t) = @$h;
    is(json_cmp(wod_proj(RankingRef::wod_board($DEMO, $c, $w), $t), $t), undef,
       "reference: competition $c, WOD $w equals the hand table (" . join(', ', map { length ? $_ : 'no division' } sort keys %$t) . ')');
}
is(json_cmp(RankingRef::wod_board($DEMO, 4, 31),
            wod_body(4, 31, 'time', 'places', %C4W31)), undef,
   'reference: competition 4, WOD 31, the whole body equals the hand table');
for my $h (@HAND_ALL) {
    my ($c, $t) = @$h;
    is(json_cmp(overall_proj(RankingRef::overall_board($DEMO, $c)), $t), undef,
       "reference: competition $c overall equals the hand table");
}
for my $w (@{ $WODS{1} }) {
    is(json_cmp(RankingRef::wod_board($DEMO, 1, $w), lb1_wod($w)), undef,
       "reference: competition 1, WOD $w equals the hand table of RankingTest");
}
is(json_cmp(RankingRef::overall_board($DEMO, 1), lb1_overall()), undef,
   'reference: competition 1 overall equals the hand table of RankingTest');

# ---------------------------------------------------------------- the server, by hand
my $WB = sub { my ($c, $w, $q) = @_; "/api/competition/$c/wod/$w/leaderboard" . ($q // '') };
my $AB = sub { my ($c, $q) = @_; "/api/competition/$c/leaderboard" . ($q // '') };

for my $h (@HAND_WOD) {
    my ($c, $w, $t) = @$h;
    my $got = decode(req(GET => $WB->($c, $w), $R));
    is(json_cmp(wod_proj($got, $t), $t), undef,
       "GET competition $c, WOD $w: the hand table (" . join(', ', map { length ? $_ : 'no division' } sort keys %$t) . ')');
}
check_json(req(GET => $WB->(4, 31), $R), 200, wod_body(4, 31, 'time', 'places', %C4W31),
           'GET /competition/4/wod/31/leaderboard: the whole body, by hand');
check_json(req(GET => $WB->(4, 31, '?division=RX'), $R), 200,
           wod_body(4, 31, 'time', 'places', RX => $C4W31{RX}),
           '?division=RX: the table of the header of sql/demo.sql');
for my $h (@HAND_ALL) {
    my ($c, $t) = @$h;
    my $res = req(GET => $AB->($c), $R);
    is($res->code, 200, "GET /competition/$c/leaderboard: 200");
    is(json_cmp(overall_proj(decode($res)), $t), undef,
       "GET /competition/$c/leaderboard: the hand table (ranks, totals, countback, places and points)");
}
for my $w (@{ $WODS{1} }) {
    check_json(req(GET => $WB->(1, $w), $R), 200, lb1_wod($w),
               "GET /competition/1/wod/$w/leaderboard: the hand table (default policy places)");
}
check_json(req(GET => $AB->(1), $R), 200, lb1_overall(),
           'GET /competition/1/leaderboard: the hand table (104 before 102 on countback)');

# ---------------------------------------------------------------- the server, by the reference
# every WOD and overall leaderboard of competitions 1 to 5, and every division filter
sub enc {   # form encoding: space as "+", the rest of the unreserved set as is
    my ($s) = @_;
    utf8::encode($s);
    $s =~ s/([^A-Za-z0-9._~ -])/sprintf('%%%02X', ord $1)/ge;
    $s =~ tr/ /+/;
    return $s;
}
for my $c (1 .. 5) {
    my @divs = grep { defined } map { $_->{division} } @{ RankingRef::overall_board($DEMO, $c)->{leaderboard}{divisions} };
    for my $w (@{ $WODS{$c} }) {
        check_json(req(GET => $WB->($c, $w), $R), 200, RankingRef::wod_board($DEMO, $c, $w),
                   "GET /competition/$c/wod/$w/leaderboard: the reference's body");
        next unless $c == 4 || $c == 5;
        for my $d (@divs) {
            check_json(req(GET => $WB->($c, $w, '?division=' . enc($d)), $R), 200,
                       RankingRef::wod_board($DEMO, $c, $w, $d),
                       "GET /competition/$c/wod/$w/leaderboard?division=" . enc($d));
        }
    }
    check_json(req(GET => $AB->($c), $R), 200, RankingRef::overall_board($DEMO, $c),
               "GET /competition/$c/leaderboard: the reference's body");
    for my $d (@divs) {
        check_json(req(GET => $AB->($c, '?division=' . enc($d)), $R), 200,
                   RankingRef::overall_board($DEMO, $c, $d),
                   "GET /competition/$c/leaderboard?division=" . enc($d));
    }
}
check_json(req(GET => $AB->(3), $R), 200,
           { status => 'success', leaderboard => { competition_id => '3', ranking => 'places',
                                                   wods => [], divisions => [] } },
           'competition 3 (no WOD, no spot): empty wods and divisions');

# ---------------------------------------------------------------- division filter
my $M40 = RankingRef::overall_board($DEMO, 4, 'Masters 40+');
check_json(req(GET => $AB->(4, '?division=Masters+40%2B'), $R), 200, $M40, '"+" is a space: Masters+40%2B');
check_json(req(GET => $AB->(4, '?division=Masters%2040%2B'), $R), 200, $M40, '%20 is a space: Masters%2040%2B');
check_json(req(GET => $AB->(4, '?division=%4Dasters%2040%2b'), $R), 200, $M40, 'any escape, lower-case hex');
check_json(req(GET => $AB->(4, '?divisi%6Fn=Masters+40%2B'), $R), 200, $M40, 'the name is decoded too (divisi%6Fn)');
check_json(req(GET => $AB->(4, '?x=1&division=Masters+40%2B&y=%zz&z'), $R), 200, $M40,
           'other parameters are ignored, even undecodable ones');
check_json(req(GET => $WB->(4, 34, '?division=Masters+40%2B'), $R), 200,
           RankingRef::wod_board($DEMO, 4, 34, 'Masters 40+'), 'WOD 34, Masters 40+');
check_json(req(GET => $AB->(4, '?Division=RX'), $R), 200, RankingRef::overall_board($DEMO, 4),
           'Division (another name, case matters) is ignored: every division');
for my $q ('?division=Masters+40+', '?division=Masters%2040', '?division=masters+40%2B', '?division=rx',
           '?division=RX+', '?division=+RX', '?division=', '?division', '?division=Women',
           '?division=RXX', '?division=R%2BX') {
    check_json(req(GET => $AB->(4, $q), $R), 404, $NF, "overall $q: a division no spot has: 404");
}
check_json(req(GET => $WB->(4, 31, '?division=Men'), $R), 404, $NF, 'WOD 31 ?division=Men (a division of competition 5): 404');
check_json(req(GET => $AB->(3, '?division=RX'), $R), 404, $NF, 'competition 3 has no division: 404');
for my $q ('?division=RX&division=RX', '?division=RX&division=Scaled', '?division=RX&divisi%6Fn=RX',
           '?division=%zz', '?division=%00', '?division=RX%00', '?division=RX%', '?division=%4',
           '?division=%G1', '?x=1&division=%2') {
    check_json(req(GET => $AB->(4, $q), $R), 400, $BADQ, "overall $q: 400 Invalid query");
    check_json(req(GET => $WB->(4, 33, $q), $R), 400, $BADQ, "WOD 33 $q: 400 Invalid query");
}
# order of checks: the competition and WOD (404) before the query (400), the query
# before the division (404)
check_json(req(GET => $AB->(999999, '?division=%zz'), $R), 404, $NF, 'unknown competition + bad query: 404');
check_json(req(GET => $WB->(4, 11, '?division=%zz'), $R), 404, $NF, 'WOD of another competition + bad query: 404');
check_json(req(GET => $WB->(4, 999999, '?division=RX&division=RX'), $R), 404, $NF, 'unknown WOD + repeated division: 404');
check_json(req(GET => $AB->(4, '?division=Nope&division=%zz'), $R), 400, $BADQ, 'bad query + unknown division: 400');

# ---------------------------------------------------------------- 404
for my $p ('/competition/999999/leaderboard', '/competition/999999/wod/31/leaderboard',
           '/competition/4/wod/11/leaderboard',       # a WOD of competition 1
           '/competition/5/wod/31/leaderboard',       # a WOD of competition 4
           '/competition/4/wod/999999/leaderboard', '/competition/4/wod/420/leaderboard',
           '/competition/abc/leaderboard', '/competition/0/leaderboard', '/competition/04/leaderboard',
           '/competition/4/wod/031/leaderboard', '/competition/4/wod/-31/leaderboard',
           '/competition/4/wod/leaderboard', '/competition/4/leaderboard/x', '/competition/4/leaderboards',
           '/competition/4/Leaderboard', '/competition/4/wod/31/leaderboard/31',
           '/competition/4/zone/41/leaderboard', '/competition/4/heat/401/leaderboard', '/leaderboard') {
    check_json(req(GET => "/api$p", $R), 404, $NF, "GET $p: 404");
}
{
    my $res = req(HEAD => $AB->(999999), $R);
    ok($res->code == 404 && $res->content eq '', 'HEAD of an unknown competition: 404 without a body')
        or diag($res->status_line);
    $res = req(HEAD => $AB->(4, '?division=Nope'), $R);
    ok($res->code == 404 && $res->content eq '', 'HEAD with an unknown division: 404 without a body')
        or diag($res->status_line);
    $res = req(HEAD => $WB->(4, 31, '?division=%zz'), $R);
    ok($res->code == 400 && $res->content eq '' && ($res->header('Content-Type') // '') =~ m{^application/json},
       'HEAD with a bad query: 400 without a body') or diag($res->status_line);
}

# ---------------------------------------------------------------- trailing slash, HEAD, readers
check_json(req(GET => "/api/competition/4/leaderboard/", $R), 200, RankingRef::overall_board($DEMO, 4),
           'one trailing slash is optional (overall)');
check_json(req(GET => "/api/competition/5/wod/36/leaderboard/?division=Women", $R), 200,
           RankingRef::wod_board($DEMO, 5, 36, 'Women'), 'one trailing slash is optional (WOD, with a query)');
check_json(req(GET => $AB->(5), $E), 200, RankingRef::overall_board($DEMO, 5), 'an editor reads it too');
for my $p ($AB->(4), $WB->(5, 37), $AB->(4, '?division=Scaled')) {
    my $get = req(GET => $p, $R);
    my $head = req(HEAD => $p, $R);
    my @why;
    push @why, 'status ' . $head->code if $head->code != 200;
    push @why, 'a body' if length $head->content;
    push @why, 'Content-Type ' . ($head->header('Content-Type') // 'none')
        unless ($head->header('Content-Type') // '') =~ m{^application/json};
    push @why, 'Content-Length ' . ($head->header('Content-Length') // 'none') . ', GET sends ' . length($get->content)
        if ($head->header('Content-Length') // -1) != length $get->content;
    push @why, 'ETag ' . ($head->header('ETag') // 'none') . ', GET: ' . ($get->header('ETag') // 'none')
        if ($head->header('ETag') // '') ne ($get->header('ETag') // 'x');
    ok(!@why, "HEAD $p: GET's headers, no body") or diag(join '; ', @why);
}

# ---------------------------------------------------------------- methods, tokens
for my $p ($AB->(4), $WB->(4, 31), $AB->(999999), $WB->(4, 11)) {
    my $res = req(OPTIONS => $p);
    ok($res->code == 204 && ($res->header('Allow') // '') eq 'GET, HEAD' && $res->content eq '',
       "OPTIONS $p without a token: 204, Allow: GET, HEAD (existing or not)")
        or diag($res->status_line . ' Allow: ' . ($res->header('Allow') // 'none'));
}
for my $m (qw(POST PUT DELETE PATCH)) {
    check_405(req($m => $AB->(4), $E, ($m =~ /^P/ ? '{"score":"1"}' : undef)), 'GET, HEAD', "$m overall (editor)");
    check_405(req($m => $WB->(4, 31), $R, ($m =~ /^P/ ? '{"score":"1"}' : undef)), 'GET, HEAD', "$m WOD (reader)");
}
check_401(req(GET => $AB->(4)), 0, 'overall without a token');
check_401(req(GET => $WB->(4, 31), 'A' x 43), 1, 'WOD with an unknown token');
check_401(req(HEAD => $WB->(4, 31, '?division=RX')), 0, 'HEAD without a token');
check_401(req(POST => $AB->(4)), 0, 'POST without a token: 401 before 405');
check_401(req(GET => $AB->(999999, '?division=%zz')), 0, 'unknown competition, bad query, no token: 401 first');

# ---------------------------------------------------------------- ETag and 304
{
    my $res = req(GET => $AB->(4), $R);
    my $all = $res->header('ETag') // '';
    like($all, qr/^"[^"]+"$/, "a strong ETag ($all)");
    is(req(GET => '/api/competition/', $R)->header('ETag'), $all,
       'the unfiltered leaderboard carries the data revision\'s ETag, as every read route');
    is(req(GET => $AB->(4, '?cache=buster'), $R)->header('ETag'), $all, 'an ignored parameter does not change it');
    $res = req(GET => $AB->(4), $R, undef, { 'If-None-Match' => $all });
    ok($res->code == 304 && $res->content eq '' && ($res->header('ETag') // '') eq $all,
       'If-None-Match: 304, no body, the ETag repeated') or diag($res->status_line);
    $res = req(HEAD => $WB->(4, 35), $R, undef, { 'If-None-Match' => $all });
    is($res->code, 304, 'HEAD of a WOD leaderboard with If-None-Match: 304');
    my $rx = req(GET => $AB->(4, '?division=RX'), $R)->header('ETag') // '';
    my $sc = req(GET => $AB->(4, '?division=Scaled'), $R)->header('ETag') // '';
    like($rx, qr/^"[^"]+"$/, "a filtered answer has a strong ETag ($rx)");
    ok($rx ne $all && $sc ne $all && $rx ne $sc,
       'a division-filtered answer has an ETag of its own, one per division') or diag("$all $rx $sc");
    $res = req(GET => $AB->(4, '?division=RX'), $R, undef, { 'If-None-Match' => $rx });
    ok($res->code == 304 && $res->content eq '', '304 with the filtered ETag') or diag($res->status_line);
    is(req(GET => $AB->(4, '?division=RX'), $R, undef, { 'If-None-Match' => $all })->code, 200,
       'the unfiltered ETag does not match the filtered answer: 200');
    is(req(GET => $AB->(4), $R, undef, { 'If-None-Match' => $rx })->code, 200,
       'the filtered ETag does not match the unfiltered answer: 200');
    is(req(GET => $AB->(4, '?division=Scaled'), $R, undef, { 'If-None-Match' => $rx })->code, 200,
       'the ETag of RX does not match Scaled: 200');
}

# ---------------------------------------------------------------- a write on competition 2
# Lane 2017 (heat 255, WOD 18 Synchro Cindy, reps; spot 154 Snatch Squad, Scaled; no
# score yet): a score shows at once in the WOD and overall leaderboards, then put back.
sub with_lane {   # a copy of the demo data with lane ID changed
    my ($id, %set) = @_;
    my %db = %$DEMO;
    $db{lane} = [map { $_->{id} == $id ? { %$_, %set } : $_ } @{ $DEMO->{lane} }];
    return \%db;
}
{
    my $V = '/api/competition/2/zone/26/heat/255/voie/2017';
    my $lane = decode(req(GET => $V, $R));
    check_json(req(GET => $WB->(2, 18, '?division=Scaled'), $R), 200,
               RankingRef::wod_board($DEMO, 2, 18, 'Scaled'), 'competition 2, WOD 18, Scaled, before');
    my $etag = req(GET => $AB->(2), $R)->header('ETag') // '';
    is(req(PUT => $V, $E, { score => '150', tiebreak => '19:58.5' })->code, 200, 'PUT lane 2017: score 150');
    my $db = with_lane(2017, score => '150', tiebreak => '19:58.5');
    my $res = req(GET => $AB->(2), $R, undef, { 'If-None-Match' => $etag });
    is($res->code, 200, 'the overall leaderboard\'s old ETag no longer matches');
    isnt($res->header('ETag') // '', $etag, 'a new ETag');
    check_json($res, 200, RankingRef::overall_board($db, 2), 'overall at once: 154 gets WOD 18\'s 1st place in Scaled');
    my $wod = decode(req(GET => $WB->(2, 18, '?division=Scaled'), $R));
    is(json_cmp($wod->{leaderboard}{divisions}[0]{entries}[0],
                { rank => 1, points => 1, spot_id => '154', spot_name => 'Snatch Squad', bib => 24,
                  score => '150', tiebreak => '19:58.5', heat_id => '255', lane_id => '2017' }), undef,
       'WOD 18, Scaled: 154 first with its score and tiebreak');
    check_json(req(GET => $WB->(2, 18), $R), 200, RankingRef::wod_board($db, 2, 18), 'WOD 18: the reference\'s body');
    is(req(PUT => $V, $E, { score => undef, tiebreak => undef })->code, 200, 'lane 2017 put back');
    check_json(req(GET => $V, $R), 200, $lane, 'lane 2017 as before');
    check_json(req(GET => $AB->(2), $R), 200, RankingRef::overall_board($DEMO, 2), 'overall as before');
}

# ---------------------------------------------------------------- the write on competition 4
# The one write of this suite on competition 4: lane 3024 (heat 402, zone 42, WOD 31;
# spot 318 Brotteaux Brigade, Scaled, no score) gets 5:00 with tiebreak 2:00.  By hand:
#   WOD 31, Scaled: 318 is 1st (5:00 < 5:30), every other placed spot moves one place
#   down (317 2nd, 312 3rd, 313 4th, 311 5th, 316 6th, 315 7th, 314 8th), nobody is
#   left without a place, so no penalty points.
#   Overall, Scaled: 311 = 5+1+2+3+3 = 14 and 312 = 3+4+4+2+1 = 14: countback, one 1st
#   and one 2nd place each, then 311 has two 3rd places (WODs 34, 35) against one (WOD
#   31): 311 is now 1st and 312 2nd; 313 = 19, 315 = 20, 318 = 1+6+8+1+6 = 22 (was 7th
#   with 29, now 5th), 314 = 26, 317 = 27, 316 = 33.  RX, Masters 40+ and no division:
#   unchanged.
{
    my $V = '/api/competition/4/zone/42/heat/402/voie/3024';
    my $lane = lane_obj(3024, 402, 8, 318, 'Brotteaux Brigade', undef, undef);
    check_json(req(GET => $V, $R), 200, { status => 'success', voie => $lane }, 'lane 3024 before');
    my $etag = req(GET => $WB->(4, 31), $R)->header('ETag') // '';
    check_json(req(PUT => $V, $E, { score => '5:00', tiebreak => '2:00' }), 200,
               { status => 'success', voie => { %$lane, score => '5:00', tiebreak => '2:00', score_status => 'entered' } },
               'PUT lane 3024 (competition 4): 5:00, tiebreak 2:00');
    my $res = req(GET => $WB->(4, 31), $R, undef, { 'If-None-Match' => $etag });
    is($res->code, 200, 'WOD 31: the old ETag no longer matches');
    my %after = (%C4W31, Scaled => [
        [1, 1, 318, '5:00', '2:00', 402, 3024], [2, 2, 317, '5:30', $u, 402, 3023],
        [3, 3, 312, '8:05', '4:00', 402, 3018], [4, 4, 313, '8:05', '4:00.5', 402, 3019],
        [5, 5, 311, '8:05', $u, 402, 3017], [6, 6, 316, '09:59.9', $u, 402, 3022],
        [7, 7, 315, 'CAP+3', $u, 402, 3021], [8, 8, 314, 'CAP+20', $u, 402, 3020]]);
    check_json($res, 200, wod_body(4, 31, 'time', 'places', %after), 'WOD 31 after the write, by hand');
    my %all = (%C4ALL, Scaled => [
        [1, 14, 311, '5:5 1:1 2:2 3:3 3:3'], [2, 14, 312, '3:3 4:4 4:4 2:2 1:1'],
        [3, 19, 313, '4:4 7:7 2:2 3:3 3:3'], [4, 20, 315, '7:7 3:3 1:1 -:8 1:1'],
        [5, 22, 318, '1:1 6:6 -:8 1:1 6:6'], [6, 26, 314, '8:8 1:1 6:6 6:6 5:5'],
        [7, 27, 317, '2:2 5:5 5:5 7:7 8:8'], [8, 33, 316, '6:6 -:8 7:7 5:5 7:7']]);
    $res = req(GET => $AB->(4), $R);
    is(json_cmp(overall_proj(decode($res)), \%all), undef,
       'overall after the write, by hand: 311 passes 312 on countback, 318 from 7th to 5th');
    my $db = with_lane(3024, score => '5:00', tiebreak => '2:00');
    check_json($res, 200, RankingRef::overall_board($db, 4), 'overall after the write: the reference\'s body');
    check_json(req(GET => $AB->(4, '?division=RX'), $R), 200, RankingRef::overall_board($DEMO, 4, 'RX'),
               'overall RX: unchanged');
    # put it back exactly
    check_json(req(PUT => $V, $E, { score => undef, tiebreak => undef }), 200,
               { status => 'success', voie => $lane }, 'lane 3024 put back');
    check_json(req(GET => "/api/competition/4/heat/402/line/3024", $R), 200,
               { status => 'success', line => $lane }, 'lane 3024 as in the demo data (line)');
    check_json(req(GET => $WB->(4, 31), $R), 200, wod_body(4, 31, 'time', 'places', %C4W31),
               'WOD 31 as before');
    check_json(req(GET => $AB->(4), $R), 200, RankingRef::overall_board($DEMO, 4), 'overall as before');
}

# ---------------------------------------------------------------- advance and advancing
# API.md Part 3: the competition's advance (null in the demo data) is shown on the
# competition, and each overall entry says whether its rank is at most it (per
# division; null without one).  Set in the database, as the reference's input too.
{
    my ($c4) = grep { $_->{id} == 4 } @{ $DEMO->{competition} };
    check_json(req(GET => $AB->(4), $R), 200, RankingRef::overall_board($DEMO, 4),
               'advance null: every advancing null');
    my ($rc, $out) = db_exec('UPDATE competition SET advance = 3 WHERE id = 4');
    is($rc, 0, 'competition 4: advance 3') or diag($out);
    local $c4->{advance} = 3;
    my $want = RankingRef::overall_board($DEMO, 4);
    check_json(req(GET => $AB->(4), $R), 200, $want, 'advance 3: the reference\'s advancing');
    my @adv = map { my $d = $_; map { [$d->{division} // '', $_->{rank}, $_->{advancing}] } @{ $d->{entries} } }
              @{ decode(req(GET => $AB->(4), $R))->{leaderboard}{divisions} };
    ok((grep { $_->[2] } @adv) && (grep { defined $_->[2] && !$_->[2] } @adv)
       && !(grep { !defined $_->[2] || ($_->[1] <= 3 xor $_->[2]) } @adv),
       'advance 3: true exactly for ranks 1 to 3 of each division, both seen');
    check_json(req(GET => $AB->(4, '?division=Scaled'), $R), 200,
               RankingRef::overall_board($DEMO, 4, 'Scaled'), 'advance 3: one division');
    is(decode(req(GET => '/api/competition/4', $R))->{competition}{advance}, 3,
       'the competition shows advance 3');
    ($rc, $out) = db_exec('UPDATE competition SET advance = NULL WHERE id = 4');
    is($rc, 0, 'competition 4: advance back to null') or diag($out);
    local $c4->{advance} = undef;
    check_json(req(GET => $AB->(4), $R), 200, RankingRef::overall_board($DEMO, 4),
               'advance null again: every advancing null');
}

tests_declared_ok(__FILE__);
done_testing();
