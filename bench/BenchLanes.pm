# BenchLanes: the lanes of the bench's large competition (bench/large.sql), as
# bench/bench.pl and bench/put-cost.pl write to them (and bench/lanes.lua, in Lua).
package BenchLanes;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT_OK = qw(large_wods lane_path lane_score);

# The large competition's WODs in database DB, in list order: [id, scoring, time_cap
# or ''] each (lane PUTs write scores of the lane's WOD's scoring: API.md Part 2,
# "Typed scores").
sub large_wods {
    my $db = shift;
    my @wods = map { [split /\|/, $_, -1] }
               split /\n/, `sqlite3 '$db' "SELECT id, scoring, coalesce(time_cap, '') FROM wod
                                          WHERE competition_id = 100 ORDER BY position, id"`;
    @wods == 12 or die "bench/large.sql: 12 WODs expected in competition 100\n";
    return @wods;
}

# Lane K (0 .. 23,999): its path (variant A).
sub lane_path {
    my $k = shift;
    my $heat = int($k / 10);
    return sprintf '/competition/100/zone/%d/heat/%d/voie/%d', 300001 + $heat % 8,
                   400001 + $heat, 500001 + $k;
}

# A score that fits lane K's WOD (of WODS, large_wods's list), made from the counter N.
sub lane_score {
    my ($wods, $k, $n) = @_;
    my (undef, $scoring, $cap) = @{ $wods->[int($k / 2000)] };
    if ($scoring eq 'time') {
        my $t = $n % ($cap || 3600);
        return sprintf '%d:%02d.%03d', int($t / 60), $t % 60, $n % 1000;
    }
    return sprintf '%d', $n % 1_000_000_000 if $scoring eq 'reps';
    return sprintf '%d.%02d kg', $n % 99999, $n % 100 if $scoring eq 'load';
    return sprintf '%d.%03d', $n % 99999, $n % 1000;
}

1;
