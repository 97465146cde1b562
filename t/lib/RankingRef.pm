package RankingRef;
# An independent reference of the leaderboards, written from the contract (doc/api.md
# section 8, shared API.md Part 2 "Typed scores", "Ranking policy", "Leaderboards"),
# for t/api/50_leaderboard.t.  It shares no code with the module (lib/rk_score.c,
# rk_leaderboard.c): scores are read with regular expressions and exact integers, places
# and points are counted the plain way (quadratic, obviously right).  Its input is
# sql/demo.sql, parsed here (never the server's answers nor the database); the test
# checks the reference itself against tables worked out by hand before trusting it.
#
#   my $db = RankingRef::demo("$src/sql/demo.sql");      # tables of rows (hashes)
#   RankingRef::wod_board($db, COMPETITION, WOD[, DIVISION])  -> expected body
#   RankingRef::overall_board($db, COMPETITION[, DIVISION])   -> expected body
#   RankingRef::score(SCORING, CAP, TEXT) -> [kind, value]   (kind: value, capped, wd, none)
use strict;
use warnings;
use utf8;
use JSON::PP ();

# ---------------------------------------------------------------- sql/demo.sql

# tokens of an INSERT's VALUES list: strings ('' escapes), NULL, numbers, punctuation
sub _tokens {
    my ($text) = @_;
    my @t;
    pos($text) = 0;
    while (pos($text) < length $text) {
        if ($text =~ /\G\s+/gc || $text =~ /\G--[^\n]*/gc) { next }
        if ($text =~ /\G'((?:[^']|'')*)'/gc) { push @t, ['s', $1 =~ s/''/'/gr]; next }
        if ($text =~ /\GNULL\b/gc) { push @t, ['n', undef]; next }
        if ($text =~ /\G(-?[0-9]+(?:\.[0-9]+)?)/gc) { push @t, ['d', $1]; next }
        if ($text =~ /\G([(),;])/gc) { push @t, ['p', $1]; next }
        die "demo.sql: cannot read at: " . substr($text, pos($text), 40) . "\n";
    }
    return @t;
}

# demo(FILE) -> { table => [ {column => value} ... ] } of every INSERT of FILE.  Values
# are Perl strings (numbers too) or undef; columns not given are absent (the schema's
# default applies: competition.ranking 'places').
sub demo {
    my ($file) = @_;
    open my $fh, '<:encoding(UTF-8)', $file or die "$file: $!\n";
    local $/;
    my $sql = <$fh>;
    close $fh;
    $sql =~ s/^--[^\n]*\n//mg;   # whole-line comments (none inside strings)
    my %db;
    while ($sql =~ /INSERT INTO (\w+) \(([^)]*)\) VALUES(.*?;)\s*$/msg) {
        my ($table, $cols, $values) = ($1, $2, $3);
        my @cols = split /\s*,\s*/, $cols;
        my @t = _tokens($values);
        my @row;
        for my $tok (@t) {
            my ($k, $v) = @$tok;
            if ($k eq 'p') {
                if ($v eq '(') { @row = () }
                elsif ($v eq ')') {
                    die "demo.sql: $table row of " . @row . " values for " . @cols . " columns\n"
                        unless @row == @cols;
                    my %r;
                    @r{@cols} = @row;
                    push @{ $db{$table} }, \%r;
                }
                next;
            }
            push @row, $v;
        }
    }
    return \%db;
}

# ---------------------------------------------------------------- scores

# the integer value of a digit string with leading zeros, or undef beyond MAXDIGITS
# significant digits
sub _int {
    my ($digits, $maxdigits) = @_;
    (my $sig = $digits) =~ s/^0+//;
    return undef if length $sig > $maxdigits;
    return length $sig ? 0 + $sig : 0;
}

# a time -> milliseconds, or undef
sub time_ms {
    my ($t) = @_;
    return undef unless defined $t;
    my ($h, $m, $s, $f);
    if ($t =~ /\A([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,3}))?\z/) { ($h, $m, $s, $f) = ($1, $2, $3, $4) }
    elsif ($t =~ /\A([0-9]{1,2}):([0-9]{2})(?:\.([0-9]{1,3}))?\z/) { ($h, $m, $s, $f) = (0, $1, $2, $3) }
    else { return undef }
    return undef if $s > 59 || ($t =~ tr/:// == 2 && $m > 59);
    $f = defined $f ? substr($f . '00', 0, 3) : 0;
    return (($h * 60 + $m) * 60 + $s) * 1000 + $f;
}

# score(SCORING, CAP (seconds or undef), TEXT) -> [kind, value]: kind 'value' (value
# comparable: ms, reps, 1e-10 kg, thousandths), 'capped' (reps left), 'wd' or 'none'
sub score {
    my ($scoring, $cap, $text) = @_;
    return ['none'] if !defined $text || !defined $scoring;
    return ['wd'] if $text eq 'WD';
    if ($scoring eq 'time') {
        if ($text =~ /\ACAP\+([0-9]+)\z/) {
            my $n = _int($1, 5);
            return defined $cap && defined $n ? ['capped', $n] : ['none'];
        }
        my $ms = time_ms($text);
        return ['none'] if !defined $ms || (defined $cap && $ms > $cap * 1000);
        return ['value', $ms];
    }
    if ($scoring eq 'reps') {
        return ['none'] unless $text =~ /\A([0-9]+)\z/;
        my $n = _int($1, 9);
        return defined $n ? ['value', $n] : ['none'];
    }
    if ($scoring eq 'load') {
        return ['none'] unless $text =~ /\A([0-9]+)(?:\.([0-9]{1,2}))?(?: ?(kg|lb))?\z/;
        my ($i, $f, $unit) = ($1, $2 // '', $3 // 'kg');
        my $n = _int($i, 5);
        return ['none'] unless defined $n;
        my $hundredths = $n * 100 + (length $f ? substr($f . '0', 0, 2) : 0);
        return ['none'] if $hundredths > 9999900;
        # in units of 1e-10 kg: 0.01 kg = 10^8, 0.01 lb = 0.0045359237 kg = 45359237
        return ['value', $hundredths * ($unit eq 'kg' ? 100_000_000 : 45_359_237)];
    }
    if ($scoring eq 'points') {
        return ['none'] unless $text =~ /\A(-?)([0-9]+)(?:\.([0-9]{1,3}))?\z/;
        my ($neg, $i, $f) = ($1, $2, $3 // '');
        my $n = _int($i, 5);
        return ['none'] unless defined $n;
        my $th = $n * 1000 + (length $f ? substr($f . '00', 0, 3) : 0);
        return ['none'] if $th > 99999000;
        return ['value', $neg ? -$th : $th];
    }
    return ['none'];
}

sub placed { return $_[0][0] eq 'value' || $_[0][0] eq 'capped' }

# <0 when A is better than B (two placed scores of SCORING)
sub score_cmp {
    my ($scoring, $a, $b) = @_;
    if ($a->[0] ne $b->[0]) { return $a->[0] eq 'value' ? -1 : 1 }   # finished before CAP+N
    return $a->[1] <=> $b->[1] if $scoring eq 'time';   # lower time, fewer reps left
    return $b->[1] <=> $a->[1];                          # higher is better
}

# tiebreak: lower first, none after any
sub tb_cmp {
    my ($a, $b) = @_;
    return 0 if !defined $a && !defined $b;
    return 1 if !defined $a;
    return -1 if !defined $b;
    return $a <=> $b;
}

sub chart100 {
    my ($place) = @_;
    return (100, 95, 90, 85, 80, 75)[$place - 1] if $place <= 6;
    return $place <= 43 ? 87 - 2 * $place : 0;
}

# ---------------------------------------------------------------- rankings

sub _num { return defined $_[0] ? 0 + $_[0] : undef }
sub _str { return defined $_[0] ? "$_[0]" : undef }

# bib (null last), then id
sub _bib_id {
    my ($x, $y) = @_;
    return (defined $x->{bib} ? 0 : 1) <=> (defined $y->{bib} ? 0 : 1)
        || ($x->{bib} // 0) <=> ($y->{bib} // 0) || $x->{id} <=> $y->{id};
}

# compute(DB, COMPETITION) -> { ranking, wods => [ids], divs => [names, undef last],
#   wod => { w => { spot => {rank, points, lane} } }, total => { spot => {rank, points} },
#   spots => [spot rows] }
sub compute {
    my ($db, $c) = @_;
    my ($comp) = grep { $_->{id} == $c } @{ $db->{competition} };
    return undef unless $comp;
    my $policy = $comp->{ranking} // 'places';
    my @wods = sort { $a->{position} <=> $b->{position} || $a->{id} <=> $b->{id} }
               grep { $_->{competition_id} == $c } @{ $db->{wod} || [] };
    my @spots = grep { $_->{competition_id} == $c } @{ $db->{spot} || [] };
    my @heats = sort { (defined $a->{start_time} ? 0 : 1) <=> (defined $b->{start_time} ? 0 : 1)
                       || ($a->{start_time} // '') cmp ($b->{start_time} // '')
                       || $a->{number} <=> $b->{number} || $a->{id} <=> $b->{id} }
                grep { $_->{competition_id} == $c } @{ $db->{heat} || [] };
    my %heat_pos = map { $heats[$_]{id} => $_ } 0 .. $#heats;
    my %heat = map { $_->{id} => $_ } @heats;
    # lanes with a team in heats of a WOD, in heat-list order, then lane number
    my @lanes = sort { $heat_pos{ $a->{heat_id} } <=> $heat_pos{ $b->{heat_id} }
                       || $a->{number} <=> $b->{number} || $a->{id} <=> $b->{id} }
                grep { exists $heat{ $_->{heat_id} } && defined $heat{ $_->{heat_id} }{wod_id}
                       && defined $_->{spot_id} } @{ $db->{lane} || [] };
    my %div_of = map { $_->{id} => $_->{division} } @spots;
    my %divs = map { ($_->{division} // "\0none") => 1 } @spots;
    my @divs = sort grep { $_ ne "\0none" } keys %divs;
    push @divs, undef if $divs{"\0none"};
    my $same_div = sub { my ($x, $y) = @_; (defined $x ? $x : "\0none") eq (defined $y ? $y : "\0none") };

    my %res;
    for my $w (@wods) {
        my ($scoring, $cap) = ($w->{scoring}, $w->{time_cap});
        my %best;   # spot -> { lane, score, tb }
        for my $l (grep { $heat{ $_->{heat_id} }{wod_id} == $w->{id} } @lanes) {
            my $cand = { lane => $l, score => score($scoring, $cap, $l->{score}),
                         tb => time_ms($l->{tiebreak}) };
            my $cur = $best{ $l->{spot_id} };
            if (!$cur) { $best{ $l->{spot_id} } = $cand; next }
            next unless placed($cand->{score});   # the first lane stays when none places
            if (!placed($cur->{score})
                || score_cmp($scoring, $cand->{score}, $cur->{score}) < 0
                || (score_cmp($scoring, $cand->{score}, $cur->{score}) == 0
                    && tb_cmp($cand->{tb}, $cur->{tb}) < 0)) {
                $best{ $l->{spot_id} } = $cand;   # strictly better only: ties keep the first
            }
        }
        for my $s (@spots) {
            my $b = $best{ $s->{id} };
            my $rank;
            if ($b && placed($b->{score})) {
                $rank = 1;
                for my $o (@spots) {
                    next unless $same_div->($o->{division}, $s->{division});
                    my $ob = $best{ $o->{id} };
                    next unless $ob && placed($ob->{score});
                    my $d = score_cmp($scoring, $ob->{score}, $b->{score}) || tb_cmp($ob->{tb}, $b->{tb});
                    $rank++ if $d < 0;
                }
            }
            $res{ $w->{id} }{ $s->{id} } = { rank => $rank, lane => $b ? $b->{lane} : undef };
        }
        for my $s (@spots) {
            my $r = $res{ $w->{id} }{ $s->{id} };
            if ($policy eq 'chart100') {
                $r->{points} = defined $r->{rank} ? chart100($r->{rank}) : 0;
            }
            else {
                my $nplaced = grep { $same_div->($_->{division}, $s->{division})
                                     && defined $res{ $w->{id} }{ $_->{id} }{rank} } @spots;
                $r->{points} = $r->{rank} // $nplaced + 1;
            }
        }
    }
    # overall: total, then countback (more 1st places, then more 2nd places, ...)
    my %total;
    for my $s (@spots) {
        my ($sum, @count) = (0);
        for my $w (@wods) {
            my $r = $res{ $w->{id} }{ $s->{id} };
            $sum += $r->{points};
            $count[ $r->{rank} ]++ if defined $r->{rank};
        }
        $total{ $s->{id} } = { points => $sum, count => \@count };
    }
    my $better = sub {   # <0 when spot X is ahead of spot Y
        my ($x, $y) = map { $total{$_} } @_;
        my $d = $policy eq 'chart100' ? $y->{points} <=> $x->{points} : $x->{points} <=> $y->{points};
        return $d if $d;
        my $n = @{ $x->{count} } > @{ $y->{count} } ? @{ $x->{count} } : @{ $y->{count} };
        for my $p (1 .. $n - 1) {
            my $e = ($y->{count}[$p] // 0) <=> ($x->{count}[$p] // 0);
            return $e if $e;
        }
        return 0;
    };
    for my $s (@spots) {
        my $rank = 1;
        for my $o (@spots) {
            next unless $same_div->($o->{division}, $s->{division});
            $rank++ if $better->($o->{id}, $s->{id}) < 0;
        }
        $total{ $s->{id} }{rank} = $rank;
    }
    return { comp => $comp, policy => $policy, advance => $comp->{advance}, wods => \@wods, divs => \@divs, spots => \@spots,
             res => \%res, total => \%total, same_div => $same_div };
}

sub _divs {
    my ($k, $only) = @_;
    return grep { !defined $only || (defined $_ && $_ eq $only) } @{ $k->{divs} };
}

# wod_board(DB, C, W[, DIVISION]) -> the expected body (undef: no such competition/WOD)
sub wod_board {
    my ($db, $c, $w, $only) = @_;
    my $k = compute($db, $c) or return undef;
    my ($wod) = grep { $_->{id} == $w } @{ $k->{wods} };
    return undef unless $wod;
    my @divisions;
    for my $d (_divs($k, $only)) {
        my @e;
        for my $s (grep { $k->{same_div}->($_->{division}, $d) } @{ $k->{spots} }) {
            my $r = $k->{res}{$w}{ $s->{id} };
            my $l = $r->{lane};
            push @e, { rank => _num($r->{rank}), points => 0 + $r->{points}, spot_id => "$s->{id}",
                       spot_name => $s->{name} // '', bib => _num($s->{bib}),
                       score => $l ? $l->{score} : undef, tiebreak => $l ? $l->{tiebreak} : undef,
                       heat_id => $l ? "$l->{heat_id}" : undef, lane_id => $l ? "$l->{id}" : undef,
                       id => $s->{id} };
        }
        @e = sort { (defined $a->{rank} ? 0 : 1) <=> (defined $b->{rank} ? 0 : 1)
                    || ($a->{rank} // 0) <=> ($b->{rank} // 0) || _bib_id($a, $b) } @e;
        delete $_->{id} for @e;
        push @divisions, { division => $d, entries => \@e };
    }
    return { status => 'success', leaderboard => {
        competition_id => "$c", wod_id => "$w", scoring => $wod->{scoring},
        ranking => $k->{policy}, divisions => \@divisions } };
}

# overall_board(DB, C[, DIVISION]) -> the expected body (undef: no such competition)
sub overall_board {
    my ($db, $c, $only) = @_;
    my $k = compute($db, $c) or return undef;
    my @divisions;
    for my $d (_divs($k, $only)) {
        my @e;
        for my $s (grep { $k->{same_div}->($_->{division}, $d) } @{ $k->{spots} }) {
            my $t = $k->{total}{ $s->{id} };
            my @results = map {
                my $r = $k->{res}{ $_->{id} }{ $s->{id} };
                { wod_id => "$_->{id}", rank => _num($r->{rank}), points => 0 + $r->{points},
                  score => $r->{lane} ? $r->{lane}{score} : undef }
            } @{ $k->{wods} };
            # advancing (API.md Part 3): null without the competition's advance, else
            # whether the overall rank is at most it
            my $adv = $k->{advance};
            push @e, { rank => 0 + $t->{rank}, points => 0 + $t->{points}, spot_id => "$s->{id}",
                       spot_name => $s->{name} // '', bib => _num($s->{bib}),
                       advancing => defined $adv ? ($t->{rank} <= $adv ? JSON::PP::true : JSON::PP::false) : undef,
                       results => \@results, id => $s->{id} };
        }
        @e = sort { $a->{rank} <=> $b->{rank} || _bib_id($a, $b) } @e;
        delete $_->{id} for @e;
        push @divisions, { division => $d, entries => \@e };
    }
    return { status => 'success', leaderboard => {
        competition_id => "$c", ranking => $k->{policy},
        wods => [map { "$_->{id}" } @{ $k->{wods} }], divisions => \@divisions } };
}

1;
