# Every failed POST /connect takes the time of one bcrypt check at RankingPasswordCost
# (10 here, t/conf/extra.conf.in), so that time tells nothing about which user names
# exist: an unknown user, a wrong password of a user whose hash has that cost, a
# disabled user, a wrong password of a user whose hash has a lower cost (padded),
# a secret over 72 bytes.  While a hash of a higher cost is stored (a user added with
# `ranking-admin --cost 12`), every failure costs a check at that cost, an unknown name
# as much as that user's wrong password, until the user's next successful login, which
# rehashes the password at RankingPasswordCost.
#
# Robust on a loaded machine: the tries of the cases are interleaved (each round
# tries every case once, in a shuffled order), the medians of 10 tries are compared
# (within 15% of each other), and a measure that falls outside is taken again, up
# to 5 times (a machine busy with other work for a while), before the test fails.
# Mount /api: login throttling is off there (no delay).
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

sub try_login {
    my ($user, $pass) = @_;
    my $t0 = time;
    my $res = req(POST => '/api/connect', undef, { client_id => $user, client_secret => $pass });
    return ($res->code, time - $t0);
}

sub median { my @s = sort { $a <=> $b } @_; return ($s[$#s / 2] + $s[@s / 2]) / 2 }

# measure(CASES) -> { name => median seconds }, or undef when an answer was not 401.
# CASES: [name, user, password] ...
sub measure {
    my @cases = @_;
    my %t;
    for my $round (1 .. $TRIES) {
        for my $c (shuffle @cases) {
            my ($code, $s) = try_login($c->[1], $c->[2]);
            if ($code != 401) {
                diag("$c->[0]: $code, not 401");
                return undef;
            }
            push @{$t{$c->[0]}}, $s;
        }
    }
    return { map { $_ => median(@{$t{$_}}) } keys %t };
}

sub spread { my ($m) = @_; my @v = values %$m; return max(@v) / min(@v) - 1 }

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
        and note(sprintf 'spread %.1f%%: %s', 100 * $s, show_medians($m));
    return $m;
}

my $long = 'x' x 100;
my $m = within('failures of every kind take the same time (medians within 15%)',
       [ 'unknown user', 'nosuchuser', 'wrong' ],
       [ 'wrong password, cost 10', 'demo', 'wrong' ],
       [ 'disabled user', 'retired', 'retired' ],
       [ 'wrong password, cost 4', 't4', 'wrong' ],
       [ 'secret of 100 bytes', 'demo', $long ]);
ok($m && min(values %$m) > 0.005, 'and that time is a real bcrypt check (over 5 ms)')
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
