#!/usr/bin/env perl
# t/unit/seedref-selftest.pl [BUILD_DIR]
#
# Checks the Perl reference of heat generation (t/lib/SeedRef.pm) against tables worked
# out by hand, then compares it with the C planner (lib/rk_seed.c, run through
# t/unit/seed_driver, which this script builds with "make -C BUILD_DIR
# t/unit/seed_driver") on hand-made and random leaderboards and requests: the same
# heats, numbers, start times and lanes, or both refusing the request.
#
# BUILD_DIR defaults to ./build.  Prints each failure, then "N passed, M failed"; exits
# 1 when something failed, 2 when the driver cannot be built or run.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use File::Temp qw(tempfile);
use JSON::PP;
use SeedRef;

my $src = "$FindBin::Bin/../..";
my $build = shift // "$src/build";
my $driver = "$build/t/unit/seed_driver";
system('make', '-s', '-C', $build, 't/unit/seed_driver') == 0
    or die "seedref-selftest: cannot build $driver\n";
-x $driver or die "seedref-selftest: no $driver\n";

my $json = JSON::PP->new->utf8->canonical->allow_nonref;
my ($passed, $failed) = (0, 0);

sub ok {
    my ($cond, $what) = @_;
    if ($cond) { $passed++ } else { $failed++; print "FAIL: $what\n" }
    return $cond;
}

# ---------------------------------------------------------------- the reference alone

ok(join(' ', SeedRef::center_order(10)) eq '5 6 4 7 3 8 2 9 1 10', 'center order of 10 lanes');
ok(join(' ', SeedRef::center_order(9)) eq '5 4 6 3 7 2 8 1 9', 'center order of 9 lanes');
ok(join(' ', SeedRef::center_order(1)) eq '1', 'center order of 1 lane');
ok(join(',', SeedRef::heat_sizes(23, 10)) eq '7,8,8', '23 on 10: 7, 8, 8');
ok(join(',', SeedRef::heat_sizes(10, 4)) eq '3,3,4', '10 on 4: 3, 3, 4');
ok(join(',', SeedRef::heat_sizes(20, 10)) eq '10,10', '20 on 10');
ok(join(',', SeedRef::heat_sizes(0, 10)) eq '', 'no spot, no heat');
# PRNG and shuffle vectors computed with Python's integers from lib/rk_seed.h's text
{
    my $st = SeedRef::prng_new(0);
    my @v = map { sprintf '%016x', SeedRef::prng_next($st) } 1 .. 3;
    ok("@v" eq '353cfc387dfae6b8 a32edabf5585bd75 fc5639b16b714b4f', "PRNG seed 0: @v");
    $st = SeedRef::prng_new(2147483647);
    @v = map { sprintf '%016x', SeedRef::prng_next($st) } 1 .. 3;
    ok("@v" eq 'f929e7d35dd17b0d 92bb6bdad523babb 9c070f7c392c330e', "PRNG seed 2^31-1: @v");
    my @p = map { $_->{spot_id} } SeedRef::shuffle(42, map { { spot_id => "$_" } } reverse 1 .. 10);
    ok("@p" eq '2 6 9 3 8 10 7 1 4 5', "shuffle of 1..10 with seed 42: @p");
    @p = map { $_->{spot_id} } SeedRef::shuffle(7, map { { spot_id => $_ } } qw(25 3 10 4));
    ok("@p" eq '10 3 25 4', "shuffle by numeric id: @p");
}
ok(SeedRef::format_instant(SeedRef::parse_instant('2026-11-21T09:30:00Z') + 600) eq '2026-11-21T09:40:00Z',
   'instants');
ok(!defined SeedRef::parse_instant('2026-02-29T00:00:00Z'), 'no 29 February 2026');
ok(!defined SeedRef::parse_instant('2026-11-21T09:30:00+00:00'), 'Z only');

# a board by hand: RX 1: 7 (bib 12), 2: 9 (bib 3), 2: 8 (no bib), 4: 10 (bib 1); no division: 20
my $board = {
    status => 'success',
    leaderboard => {
        competition_id => '1', ranking => 'places', wods => ['3'],
        divisions => [
            { division => 'RX', entries => [
                { rank => 1, points => 1, spot_id => '7', spot_name => 'A', bib => 12, results => [] },
                { rank => 2, points => 2, spot_id => '9', spot_name => 'C', bib => 3, results => [] },
                { rank => 2, points => 2, spot_id => '8', spot_name => 'B', bib => undef, results => [] },
                { rank => 4, points => 4, spot_id => '10', spot_name => 'D', bib => 1, results => [] } ] },
            { division => undef, entries => [
                { rank => 1, points => 1, spot_id => '20', spot_name => 'Z', bib => undef, results => [] } ] },
        ],
    },
};
sub lanes_of {
    my ($ans) = @_;
    return join ' | ', map {
        my $h = $_;
        "$h->{number} " . ($h->{start_time} // '-') . ' '
            . join(',', map { "$_->{number}=$_->{spot_id}" } @{ $h->{voies} })
    } @{ $ans->{heats} };
}
{
    my $a = SeedRef::plan($board, { zone_id => '2', lanes => 3, lane_order => 'center',
                                    start_time => '2026-11-21T09:30:00Z', interval => 600 },
                          { id => '2', lane_count => 4 }, 5, '1', '3');
    ok(lanes_of($a) eq '5 2026-11-21T09:30:00Z 2=8,3=10 | 6 2026-11-21T09:40:00Z 2=7,3=9 | 7 2026-11-21T09:50:00Z 2=20',
       'hand table 1: ' . lanes_of($a));
    $a = SeedRef::plan($board, { zone_id => '2', order => 'bib', top => 2, divisions => ['RX'] },
                       { id => '2', lane_count => 4 }, 1, '1', '3');
    # top 2: 7, 9, 8; by bib: 9 (3), 7 (12), 8 (none): best seeded last
    ok(lanes_of($a) eq '1 - 1=8,2=7,3=9', 'hand table 2: ' . lanes_of($a));
    $a = SeedRef::plan($board, { zone_id => '2', divisions => ['Masters'] }, { id => '2', lane_count => 4 }, 1, '1', '3');
    ok(($a->{code} // 0) == 400, 'a division no spot has: 400');
    $a = SeedRef::plan($board, { zone_id => '2', lanes => 5 }, { id => '2', lane_count => 4 }, 1, '1', '3');
    ok(($a->{code} // 0) == 400, 'lanes above lane_count: 400');
}

# ---------------------------------------------------------------- against the C planner

sub run_driver {
    my ($in) = @_;
    my ($fh, $file) = tempfile('seedref-XXXXXX', TMPDIR => 1, UNLINK => 1);
    print $fh $json->encode($in);
    close $fh;
    my $out = `'$driver' <'$file'`;
    die "seedref-selftest: the driver failed (status $?)\n" if $? != 0;
    return $json->decode($out);
}

# equal JSON values (undef = null; numbers and strings by their text)
sub same {
    my ($x, $y) = @_;
    return !defined $y if !defined $x;
    return 0 if !defined $y;
    if (ref $x eq 'HASH') {
        return 0 unless ref $y eq 'HASH';
        for (keys %$x) { return 0 unless exists $y->{$_} && same($x->{$_}, $y->{$_}) }
        # a field the reference does not model (a later one) must be null
        for (keys %$y) { return 0 unless exists $x->{$_} || !defined $y->{$_} }
        return 1;
    }
    if (ref $x eq 'ARRAY') {
        return 0 unless ref $y eq 'ARRAY' && @$x == @$y;
        for (0 .. $#$x) { return 0 unless same($x->[$_], $y->[$_]) }
        return 1;
    }
    return !ref $y && "$x" eq "$y";
}

sub compare {
    my ($what, $board, $req, $zone, $first) = @_;
    # a raw body: the reference reads it as a client's JSON decoder would
    my $want = SeedRef::plan($board, ref $req ? $req : $json->decode($req), $zone, $first, '1', '3');
    my $in = { board => $board, lane_count => $zone->{lane_count}, first_number => $first,
               competition_id => '1', wod_id => '3' };
    if (ref $req) { $in->{request} = $req } else { $in->{raw} = $req }
    my $got = run_driver($in);
    if ($want->{status} eq 'error') {
        return ok($got->{status} eq 'error' && $got->{code} == 400,
                  "$what: the reference refuses, the planner answers "
                  . substr($json->encode($got), 0, 300));
    }
    return ok(same($want, $got), "$what: reference " . substr($json->encode($want), 0, 400)
              . "\n  planner " . substr($json->encode($got), 0, 400));
}

my $zone4 = { id => '2', lane_count => 4 };
compare('hand 1', $board, { zone_id => '2', lanes => 3, lane_order => 'center',
                            start_time => '2026-11-21T09:30:00Z', interval => 600 }, $zone4, 5);
compare('hand 2', $board, { zone_id => '2', order => 'bib', top => 2, divisions => ['RX'] }, $zone4, 1);
compare('hand 3', $board, { zone_id => '2', order => 'random', seed => 99, divisions => [undef, 'RX'] }, $zone4, 1);
compare('unknown division', $board, { zone_id => '2', divisions => ['Masters'] }, $zone4, 1);
compare('lanes above', $board, { zone_id => '2', lanes => 5 }, $zone4, 1);
compare('duplicate division', $board, { zone_id => '2', divisions => ['RX', 'RX'] }, $zone4, 1);
compare('empty divisions', $board, { zone_id => '2', divisions => [] }, $zone4, 1);
compare('top 0', $board, { zone_id => '2', top => 0 }, $zone4, 1);
compare('interval', $board, { zone_id => '2', interval => 86401 }, $zone4, 1);
compare('seed', $board, { zone_id => '2', seed => 2147483648 }, $zone4, 1);
compare('zone as a number', $board, { zone_id => 2 }, $zone4, 1);
compare('unknown key', $board, { zone_id => '2', wod_id => '3' }, $zone4, 1);
compare('start_time offset', $board, { zone_id => '2', start_time => '2026-11-21T09:30:00+01:00' }, $zone4, 1);
compare('past 9999', $board, { zone_id => '2', lanes => 1, start_time => '9999-12-31T23:59:00Z', interval => 30 },
        $zone4, 1);
compare('raw float lanes', $board, '{"zone_id":"2","lanes":2.0}', $zone4, 1);
compare('raw replace and dry_run', $board, '{"zone_id":"2","replace":true,"dry_run":true}', $zone4, 1);
compare('raw replace as a number', $board, '{"zone_id":"2","replace":1}', $zone4, 1);

# random boards as the API shows them: divisions by name, null last; entries by rank,
# bib, id; ranks with ties (1, 2, 2, 4)
srand(28);
my @NAMES = ('RX', 'Scaled', 'Masters 35+', "Ados \x{e9}", 'rx');
for my $case (1 .. 150) {
    my $next = 1 + int(rand(4));
    my @divs;
    my @names = grep { rand() < 0.6 } @NAMES;
    push @names, undef if rand() < 0.4;
    for my $name (@names) {
        my $n = int(rand(rand() < 0.5 ? 12 : 45));
        my @e;
        for my $k (0 .. $n - 1) {
            my $rank = $k && rand() < 0.25 ? $e[-1]{rank} : $k + 1;
            push @e, { rank => $rank, points => $rank, spot_id => '' . ($next += 1 + int(rand(3))),
                       spot_name => "team $next", bib => rand() < 0.8 ? 1 + int(rand(300)) : undef,
                       results => [] };
        }
        @e = sort {
            $a->{rank} <=> $b->{rank}
                || (defined $a->{bib} ? 0 : 1) <=> (defined $b->{bib} ? 0 : 1)
                || ($a->{bib} // 0) <=> ($b->{bib} // 0) || SeedRef::_id_cmp($a->{spot_id}, $b->{spot_id})
        } @e;
        push @divs, { division => $name, entries => \@e };
    }
    @divs = sort { (defined $a->{division} ? 0 : 1) <=> (defined $b->{division} ? 0 : 1)
                       || ($a->{division} // '') cmp ($b->{division} // '') } @divs;
    my $b = { status => 'success', leaderboard => { competition_id => '1', ranking => 'places',
                                                    wods => [], divisions => \@divs } };
    my $lc = 1 + int(rand(rand() < 0.7 ? 12 : 40));
    my %r = (zone_id => '' . (1 + int(rand(9))));
    $r{lanes} = 1 + int(rand($lc + (rand() < 0.1 ? 2 : 0))) if rand() < 0.6;
    $r{order} = (qw(ranking bib random))[int(rand(3))] if rand() < 0.8;
    $r{lane_order} = (qw(ascending center))[int(rand(2))] if rand() < 0.7;
    $r{top} = rand() < 0.7 ? 1 + int(rand(20)) : undef if rand() < 0.4;
    $r{seed} = int(rand(2147483648)) if rand() < 0.5;
    $r{interval} = int(rand(3600)) if rand() < 0.5;
    $r{start_time} = sprintf('2026-11-%02dT%02d:%02d:00Z', 1 + int(rand(30)), int(rand(24)), int(rand(60)))
        if rand() < 0.5;
    if (@divs && rand() < 0.35) {
        my @pick = map { $_->{division} } grep { rand() < 0.6 } @divs;
        @pick = ($divs[0]{division}) unless @pick;
        @pick = reverse @pick if rand() < 0.5;
        push @pick, 'Nobody' if rand() < 0.1;
        $r{divisions} = \@pick;
    }
    compare("random case $case", $b, \%r, { id => $r{zone_id}, lane_count => $lc }, 1 + int(rand(30)));
}

print "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
