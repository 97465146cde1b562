package SeedRef;
# An independent reference of heat generation, written from the contract only (shared
# API.md Part 3, "Heat generation and cut lines") and the PRNG that lib/rk_seed.h
# documents for `random`.  It shares no code with lib/rk_seed*.c: heat sizes come from
# Hermite's identity (the k-th of H heats holds floor((n + k) / H) spots), the center
# order from sorting lanes by their distance to (lane_count + 1) / 2 as a Perl number,
# instants from Time::Local and gmtime.  Its input is what the API itself answers: the
# body of GET /competition/{c}/leaderboard (full view), decoded.
#
#   my $want = SeedRef::plan($board, $request, $zone, $first_number, $competition_id, $wod_id);
#
#   $board    the decoded overall leaderboard body ({status, leaderboard => {divisions =>
#             [{division, entries => [{rank, spot_id, spot_name, bib, ...}]}]}}), or
#             its "leaderboard" object
#   $request  the decoded request body (a hash; JSON booleans as JSON::PP gives them)
#   $zone     {id => "2", lane_count => 10}
#   $first_number  one more than the largest heat number left in the zone (1 if none)
#
# Returns the expected dry-run answer {status => "success", heats => [{id => undef,
# competition_id, zone_id, wod_id, number, start_time, status => "scheduled",
# voies => [{id => undef, heat_id => undef, number, spot_id, spot_name, score => undef,
# tiebreak => undef, score_status => undef}, ...]}, ...]}, or {status => "error", code => 400} for a request
# the contract refuses (the message is not modelled).  A real (not dry) run answers the
# same with ids filled in.
#
# The PRNG (RK_SEED_PRNG of lib/rk_seed.h): xorshift64 with shifts 13, 7, 17 on an
# unsigned 64-bit state; state = 0x9E3779B97F4A7C15 xor seed, then 16 steps dropped;
# the spots of a division sorted by id (numerically), then for i = n-1 down to 1:
# j = next() mod (i + 1), swap.  Perl's <<, >>, ^ and % work on unsigned 64-bit
# integers here (64-bit perl, no "use integer"), so the arithmetic is exact.
use strict;
use warnings;
no warnings 'portable';   # the 64-bit constant
use Config;
use Scalar::Util qw(blessed);
use Time::Local qw(timegm_modern);
use B ();

die "SeedRef needs a perl with 64-bit integers\n" unless $Config{ivsize} >= 8;

my $MASK = 0xFFFFFFFFFFFFFFFF;

# ids (decimal strings, no leading zero) in numeric order, compared as text so that the
# caller's values stay strings (a numeric comparison would make JSON::PP write them as
# numbers afterwards)
sub _id_cmp {
    my ($x, $y) = ("$_[0]", "$_[1]");
    return length($x) <=> length($y) || $x cmp $y;
}

# ---------------------------------------------------------------- the PRNG

sub prng_new {
    my ($seed) = @_;
    my $s = 0x9E3779B97F4A7C15 ^ $seed;
    my $st = \$s;
    prng_next($st) for 1 .. 16;
    return $st;
}

sub prng_next {
    my ($st) = @_;
    my $x = $$st;
    $x = ($x ^ ($x << 13)) & $MASK;
    $x = $x ^ ($x >> 7);
    $x = ($x ^ ($x << 17)) & $MASK;
    $$st = $x;
    return $x;
}

# the spots (hashes with spot_id) in the draw of SEED
sub shuffle {
    my ($seed, @spots) = @_;
    my @a = sort { _id_cmp($a->{spot_id}, $b->{spot_id}) } @spots;
    my $st = prng_new($seed);
    for (my $i = $#a; $i >= 1; $i--) {
        my $j = prng_next($st) % ($i + 1);
        @a[$i, $j] = @a[$j, $i];
    }
    return @a;
}

# ---------------------------------------------------------------- small rules

# lanes 1..N by distance from (N + 1) / 2, nearer first, lower number first
sub center_order {
    my ($n) = @_;
    my $mid = ($n + 1) / 2;
    return sort { abs($a - $mid) <=> abs($b - $mid) || $a <=> $b } 1 .. $n;
}

# sizes of the heats of N spots, at most L per heat: ceil(N / L) heats, as even as
# possible, the smaller first
sub heat_sizes {
    my ($n, $l) = @_;
    return () unless $n;
    my $h = int(($n + $l - 1) / $l);
    return map { int(($n + $_) / $h) } 0 .. $h - 1;
}

# an instant of the API ("YYYY-MM-DDTHH:MM:SSZ") to seconds, or undef
sub parse_instant {
    my ($s) = @_;
    return undef unless defined $s && !ref $s
        && $s =~ /\A([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z\z/;
    my ($y, $mo, $d, $h, $mi, $se) = ($1, $2, $3, $4, $5, $6);
    return undef if $y < 1 || $mo < 1 || $mo > 12 || $d < 1 || $h > 23 || $mi > 59 || $se > 59;
    my @dim = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31);
    my $leap = ($y % 4 == 0 && $y % 100 != 0) || $y % 400 == 0;
    my $max = $mo == 2 && $leap ? 29 : $dim[$mo - 1];
    return undef if $d > $max;
    return timegm_modern($se, $mi, $h, $d, $mo - 1, $y);
}

sub format_instant {
    my ($t) = @_;
    my @g = gmtime($t);
    return sprintf('%04d-%02d-%02dT%02d:%02d:%02dZ', $g[5] + 1900, $g[4] + 1, $g[3], $g[2], $g[1], $g[0]);
}

# ---------------------------------------------------------------- the request

# JSON types as JSON::PP decodes them (and encodes them: a scalar with a string value
# is a string, else a number): an integer has an integer value and no string one; a
# string has a string value and no numeric one.  ("1.0" decodes to a float: not an
# integer, as for the module; an exponent form such as 1e2 is not modelled.)
sub _flags { return B::svref_2object(\$_[0])->FLAGS }
sub _is_bool { my ($v) = @_; return blessed($v) && $v->isa('JSON::PP::Boolean') }
sub _is_int {
    my ($v) = @_;
    return 0 if !defined $v || ref $v;
    my $f = _flags($v);
    return ($f & B::SVf_IOK()) && !($f & B::SVf_POK()) ? 1 : 0;
}
sub _is_str {
    my ($v) = @_;
    return 0 if !defined $v || ref $v;
    my $f = _flags($v);
    return ($f & B::SVf_POK()) && !($f & (B::SVf_IOK() | B::SVf_NOK())) ? 1 : 0;
}

my %KEYS = map { $_ => 1 } qw(zone_id lanes order lane_order divisions top start_time interval
                               replace dry_run seed);

# the request with its defaults, or undef when the contract refuses it (400);
# lanes is checked against the zone by plan()
sub request {
    my ($r) = @_;
    return undef unless ref $r eq 'HASH';
    for (keys %$r) { return undef unless $KEYS{$_} }
    my %q = (lanes => undef, order => 'ranking', lane_order => 'ascending', divisions => undef,
             top => undef, start => undef, interval => 0, seed => 0);
    my $z = $r->{zone_id};
    return undef unless _is_str($z) && $z =~ /\A[1-9][0-9]{0,17}\z/;
    $q{zone_id} = $z;
    if (exists $r->{lanes}) {
        return undef unless _is_int($r->{lanes}) && $r->{lanes} >= 1;
        $q{lanes} = $r->{lanes};
    }
    if (exists $r->{order}) {
        return undef unless _is_str($r->{order}) && $r->{order} =~ /\A(?:ranking|bib|random)\z/;
        $q{order} = $r->{order};
    }
    if (exists $r->{lane_order}) {
        return undef unless _is_str($r->{lane_order}) && $r->{lane_order} =~ /\A(?:ascending|center)\z/;
        $q{lane_order} = $r->{lane_order};
    }
    if (defined $r->{divisions}) {
        my $d = $r->{divisions};
        return undef unless ref $d eq 'ARRAY' && @$d;
        my %seen;
        for (@$d) {
            return undef if defined $_ && !_is_str($_);
            my $k = defined $_ ? "s$_" : 'n';
            return undef if $seen{$k}++;
        }
        $q{divisions} = [@$d];
    }
    if (defined $r->{top}) {
        return undef unless _is_int($r->{top}) && $r->{top} >= 1;
        $q{top} = $r->{top};
    }
    if (defined $r->{start_time}) {
        $q{start} = parse_instant($r->{start_time});
        return undef unless defined $q{start};
    }
    if (exists $r->{interval}) {
        return undef unless _is_int($r->{interval}) && $r->{interval} >= 0 && $r->{interval} <= 86400;
        $q{interval} = $r->{interval};
    }
    if (exists $r->{seed}) {
        return undef unless _is_int($r->{seed}) && $r->{seed} >= 0 && $r->{seed} <= 2147483647;
        $q{seed} = $r->{seed};
    }
    for my $k (qw(replace dry_run)) {
        return undef if exists $r->{$k} && !_is_bool($r->{$k});
    }
    return \%q;
}

# ---------------------------------------------------------------- the plan

sub _refused { return { status => 'error', code => 400 } }

sub _num_or_last { defined $_[0] ? $_[0] : 9**99 }

sub plan {
    my ($board, $req, $zone, $first, $cid, $wid) = @_;
    my $q = request($req) or return _refused();
    my $lane_count = $zone->{lane_count};
    return _refused() if defined $q->{lanes} && $q->{lanes} > $lane_count;
    my $per = $q->{lanes} // $lane_count;

    my $lb = exists $board->{leaderboard} ? $board->{leaderboard} : $board;
    my %div;          # "s<name>" or "n" -> entries
    my @names;        # the board's divisions
    for my $g (@{ $lb->{divisions} }) {
        my $k = defined $g->{division} ? "s$g->{division}" : 'n';
        $div{$k} = $g->{entries};
        push @names, $g->{division};
    }
    my @blocks;
    if ($q->{divisions}) {
        for (@{ $q->{divisions} }) {
            my $k = defined $_ ? "s$_" : 'n';
            return _refused() unless $div{$k};
            push @blocks, [$_, $div{$k}];
        }
    }
    else {
        # every division: names by their bytes (code points compare the same way), null last
        my @sorted = sort { (defined $a ? 0 : 1) <=> (defined $b ? 0 : 1) || (defined $a && $a cmp $b) } @names;
        @blocks = map { [$_, $div{defined $_ ? "s$_" : 'n'}] } @sorted;
    }

    my @lane_order = $q->{lane_order} eq 'center' ? center_order($lane_count) : (1 .. $lane_count);
    my @heats;
    for my $blk (@blocks) {
        my ($name, $entries) = @$blk;
        my @in = grep { !defined $q->{top} || (defined $_->{rank} && $_->{rank} <= $q->{top}) } @$entries;
        my @seeding;    # worst first, best seeded last
        if ($q->{order} eq 'ranking') {
            # the board's order (rank, bib, id; null after), reversed
            @seeding = reverse sort {
                _num_or_last($a->{rank}) <=> _num_or_last($b->{rank})
                    || _num_or_last($a->{bib}) <=> _num_or_last($b->{bib})
                    || _id_cmp($a->{spot_id}, $b->{spot_id})
            } @in;
        }
        elsif ($q->{order} eq 'bib') {
            @seeding = sort {
                _num_or_last($a->{bib}) <=> _num_or_last($b->{bib}) || _id_cmp($a->{spot_id}, $b->{spot_id})
            } @in;
        }
        else {
            @seeding = shuffle($q->{seed}, @in);
        }
        for my $size (heat_sizes(scalar @seeding, $per)) {
            my @mine = splice @seeding, 0, $size;
            my @best_first = reverse @mine;
            my @voies;
            for my $i (0 .. $#best_first) {
                push @voies, {
                    id => undef, heat_id => undef, number => $lane_order[$i],
                    spot_id => "$best_first[$i]{spot_id}", spot_name => $best_first[$i]{spot_name},
                    score => undef, tiebreak => undef, score_status => undef,
                };
            }
            push @heats, {
                id => undef, competition_id => $cid, zone_id => $q->{zone_id}, wod_id => $wid,
                number => $first + @heats, start_time => undef, status => 'scheduled',
                voies => [sort { $a->{number} <=> $b->{number} } @voies],
            };
        }
    }
    if (defined $q->{start}) {
        for my $k (0 .. $#heats) {
            my $t = $q->{start} + $k * $q->{interval};
            return _refused() if $t > 253402300799;    # past 9999-12-31T23:59:59Z
            $heats[$k]{start_time} = format_instant($t);
        }
    }
    return { status => 'success', heats => \@heats };
}

1;
