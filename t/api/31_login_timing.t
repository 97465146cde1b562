# Every failed POST /connect takes the time of one bcrypt check at RankingPasswordCost
# (10 here, t/conf/extra.conf.in), so that time tells nothing about which user names
# exist: an unknown user, a wrong password of a user whose hash has that cost, a
# disabled user, a wrong password of a user whose hash has a lower cost (padded),
# a secret over 72 bytes.  While a hash of a higher cost is stored (a user added with
# `ranking-admin --cost 12`), every failure costs a check at that cost, an unknown name
# as much as that user's wrong password, until the user's next successful login, which
# rehashes the password at RankingPasswordCost.
#
# Deterministic on a loaded machine: what is compared is the server's own cost of each
# login, the CPU time its processes spent on it (the sum over every thread of the
# server's processes of /proc/PID/task/TID/schedstat's run time, in ns, read before
# and after the request: a request waiting for a CPU taken by other work costs no CPU
# time, where its wall-clock time grows), not the time the client waited.  The tries
# of the cases are interleaved (each round tries every case once, in a shuffled
# order: a slower CPU for a while, an SMT sibling busy, weighs on every case alike),
# the medians of 10 tries are compared (within 15% of each other), and a measure that
# falls outside is taken again, up to 5 times, before the test fails.  A try during
# which a thread of the server ended (its run time lost) is taken again.  The
# wall-clock medians are reported, not compared.
# tests: 19 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use List::Util qw(shuffle max min);
use Test::More;
use Time::HiRes qw(time);
use RankingTest;

my $TRIES = 10;
my $TOLERANCE = 0.15;
my $ATTEMPTS = 5;

# a user at a lower cost than the server's 10 (t12, of a higher cost, comes later)
admin_ok('add t4 (bcrypt cost 4)', { stdin => "Four-Pw-4\n" }, '--cost', '4', 'add', 't4');
my ($rc, $out) = admin('--cost', '10', 'list');
like($out, qr/^t4\s.*\s4\*$/m, 'ranking-admin list marks t4 (cost 4, not 10)');

# The server's processes: httpd's parent (its pid file) and its children.
sub server_pids {
    open(my $fh, '<', t_logs() . '/httpd.pid') or die "httpd.pid: $!";
    chomp(my $parent = <$fh> // '');
    close $fh;
    my @pids = ($parent);
    for my $stat (glob '/proc/[0-9]*/stat') {
        open(my $sf, '<', $stat) or next;
        my $line = <$sf> // '';
        close $sf;
        # pid (comm) state ppid ...: comm may hold blanks and parentheses
        push @pids, $1 if $line =~ /^(\d+) \(.*\) \S+ (\d+) / && $2 == $parent;
    }
    return @pids;
}

# { tid => ns of CPU time } over every thread of the server's processes
sub server_cpu {
    my %ns;
    for my $pid (server_pids()) {
        for my $f (glob "/proc/$pid/task/*/schedstat") {
            open(my $fh, '<', $f) or next;   # a thread that just ended
            my ($run) = split ' ', <$fh> // '';
            close $fh;
            my ($tid) = $f =~ m{/task/(\d+)/};
            $ns{$tid} = $run if defined $run;
        }
    }
    return \%ns;
}

# (status, seconds of the server's CPU, seconds of wall clock), or the CPU undef when
# a thread of the server ended during the request
sub try_login {
    my ($user, $pass) = @_;
    my $before = server_cpu();
    my $t0 = time;
    my $res = req(POST => '/api/connect', undef, { client_id => $user, client_secret => $pass });
    my $wall = time - $t0;
    my $after = server_cpu();
    my $ns = 0;
    for my $tid (keys %$before) {
        return ($res->code, undef, $wall) unless exists $after->{$tid};
        $ns += $after->{$tid} - $before->{$tid};
    }
    $ns += $after->{$_} for grep { !exists $before->{$_} } keys %$after;   # a new thread
    return ($res->code, $ns / 1e9, $wall);
}

sub median { my @s = sort { $a <=> $b } @_; return ($s[$#s / 2] + $s[@s / 2]) / 2 }

# measure(CASES) -> { name => median CPU seconds }, or undef when an answer was not
# 401; the wall-clock medians are noted.  CASES: [name, user, password] ...
sub measure {
    my @cases = @_;
    my (%cpu, %wall);
    for my $round (1 .. $TRIES) {
        for my $c (shuffle @cases) {
            my ($code, $cpu, $wall);
            for (1 .. 5) {
                ($code, $cpu, $wall) = try_login($c->[1], $c->[2]);
                last if defined $cpu;
            }
            if ($code != 401 || !defined $cpu) {
                diag("$c->[0]: $code, not 401") if $code != 401;
                diag("$c->[0]: threads of the server kept ending") if !defined $cpu;
                return undef;
            }
            push @{$cpu{$c->[0]}}, $cpu;
            push @{$wall{$c->[0]}}, $wall;
        }
    }
    note('wall clock (not compared): '
         . show_medians({ map { $_ => median(@{$wall{$_}}) } keys %wall }));
    return { map { $_ => median(@{$cpu{$_}}) } keys %cpu };
}

sub spread { my ($m) = @_; my @v = values %$m; return min(@v) > 0 ? max(@v) / min(@v) - 1 : 9e9 }

sub show_medians {
    my ($m) = @_;
    return join(', ', map { sprintf '%s %.1f ms', $_, 1000 * $m->{$_} } sort keys %$m);
}

# within(NAME, CASES): the medians within TOLERANCE of each other (ATTEMPTS tries)
sub within {
    my ($name, @cases) = @_;
    my ($m, $s);
    for my $attempt (1 .. $ATTEMPTS) {
        $m = measure(@cases) or last;
        $s = spread($m);
        last if $s <= $TOLERANCE;
        diag(sprintf 'attempt %d: spread %.0f%%: %s', $attempt, 100 * $s, show_medians($m));
    }
    ok($m && $s <= $TOLERANCE, $name)
        and note(sprintf 'spread %.1f%%, CPU: %s', 100 * $s, show_medians($m));
    return $m;
}

my $long = 'x' x 100;
my $m = within('failures of every kind cost the server the same CPU time (medians within 15%)',
       [ 'unknown user', 'nosuchuser', 'wrong' ],
       [ 'wrong password, cost 10', 'demo', 'wrong' ],
       [ 'disabled user', 'retired', 'retired' ],
       [ 'wrong password, cost 4', 't4', 'wrong' ],
       [ 'secret of 100 bytes', 'demo', $long ]);
ok($m && min(values %$m) > 0.005, 'and that time is a real bcrypt check (over 5 ms of CPU)')
    or diag($m ? show_medians($m) : 'no measure');

# cost 12 (4 times cost 10): while it is stored, every failure costs a check at 12
admin_ok('add t12 (bcrypt cost 12)', { stdin => "Twelve-Pw-12\n" }, '--cost', '12', 'add', 't12');
($rc, $out) = admin('--cost', '10', 'list');
like($out, qr/^t12\s.*\s12\*$/m, 'ranking-admin list marks t12 (cost 12, not 10)');
my $m12 = within('while a hash of cost 12 is stored, an unknown name fails in the time of its '
                 . 'wrong password, as every other failure (within 15%)',
                 [ 'unknown user', 'nosuchuser', 'wrong' ],
                 [ 'wrong password, cost 10', 'demo', 'wrong' ],
                 [ 'wrong password, cost 12', 't12', 'wrong' ],
                 [ 'wrong password, cost 4', 't4', 'wrong' ]);
ok($m12 && $m && $m12->{'unknown user'} > 2 * $m->{'unknown user'},
   '... which is a check at cost 12 (4 times one at 10), until its next login')
    or diag($m12 && $m ? show_medians($m12) . '; before t12: ' . show_medians($m) : 'no measure');

# a successful login rehashes at the server's cost
ok(defined login('t12', 'Twelve-Pw-12'), 't12 logs in (and its password is rehashed at cost 10)');
ok(defined login('t4', 'Four-Pw-4'), 't4 logs in (and its password is rehashed at cost 10)');
($rc, $out) = admin('--cost', '10', 'list');
like($out, qr/^t12\s.*\s10$/m, 'ranking-admin list: t12 now has a hash of cost 10');
like($out, qr/^t4\s.*\s10$/m, '... and t4');
my $tok = login('t12', 'Twelve-Pw-12');
ok(defined $tok, 't12 still logs in with the same password');
is(req(GET => '/api/competition/1', $tok)->code, 200, "... and the token works");
is((try_login('t12', 'Twelve-Pw-12x'))[0], 401, '... not with another');
ok(defined login('t4', 'Four-Pw-4'), 't4 still logs in with the same password');
within('after the rehash, t12 and t4 fail in the same time as the others (within 15%)',
       [ 'unknown user', 'nosuchuser', 'wrong' ],
       [ 'wrong password, cost 10', 'demo', 'wrong' ],
       [ 'wrong password, was cost 12', 't12', 'wrong' ],
       [ 'wrong password, was cost 4', 't4', 'wrong' ]);

# the log says so, without the password or a hash
open(my $fh, '<', t_logs() . '/error_log') or die "error_log: $!";
my $log = do { local $/; <$fh> };
close $fh;
like($log, qr/password of user "t12" rehashed from bcrypt cost 12 to 10/,
     'the error log records the rehash');
unlike($log, qr/Twelve-Pw-12|\$2[aby]\$\d\d\$/, '... without the password or a hash');

done_testing();
