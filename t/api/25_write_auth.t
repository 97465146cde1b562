# A lane PUT's token check with the change counters the children share (doc/api.md,
# "Tokens, roles and the change counters"): a PUT without If-Match, If-None-Match or
# Idempotency-Key may be checked with the counters a child read less than
# RankingRevisionCheck ago, whatever the server committed since; it is committed only
# when its write transaction finds the same auth revision, and any other answer
# than its success reads the counters from the database first.  So a change made by
# another process (here `ranking-admin`, no pause after it) still applies at once to
# the next write:
#   - a user disabled: a well-formed PUT is 401 and writes nothing (the transaction
#     found the auth revision moved, the token was checked again), a malformed one
#     401 too, not 400 (checked again before the body's refusal);
#   - a reader granted editor: its next PUT is 200, not 403 (checked again before the
#     refusal).
# The trace log shows which path each request took; each path must have run at least
# once (a round whose counters were read fresh anyway is tried again, up to 20
# rounds).  Writes lane 2029 (heat 258, zone 26 of competition 2: free-text scores)
# and puts it back; leaves no user or grant behind.
# tests: 14 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

ok(defined $ENV{RANKING_ADMIN} && -x $ENV{RANKING_ADMIN},
   'RANKING_ADMIN is an executable (' . ($ENV{RANKING_ADMIN} // 'unset') . ')')
    or die "no admin command: build it (tools/ranking-admin)\n";

my $V = '/api/competition/2/zone/26/heat/258/voie/2029';
my $err_log = t_logs() . '/error_log';
my $user = "w$$";
my ($granted, $added) = (0, 0);
END {
    admin('revoke-grant', 'demo', '--competition', '2') if $granted;
    admin('delete', $user) if $added;
}

my $judge = login('judge', 'judge');
sub lane_score { return decode(req(GET => $V, $judge))->{voie}{score} }
# the trace lines written since offset FROM of the error log
sub log_since {
    my ($from) = @_;
    open my $lf, '<', $err_log or die "$err_log: $!";
    seek $lf, $from, 0;
    my @l = <$lf>;
    close $lf;
    return join '', @l;
}
my $RECHECK = qr/lane writes: \d+ in one transaction, \d+ refused, committed; [1-9]\d* left to their token's check again/;
my $CONFIRM = qr/token of PUT A_VOIE checked again with the database's counters/;

$added = admin_ok("add $user (editor)", { stdin => "pw-$$\n" }, 'add', $user, '--role', 'editor');

# ---- a user disabled by another process ----
# The first PUT after the disable is the one checked with the shared counters (its
# check again puts the database's in the shared table): a well-formed one first in
# odd rounds, a malformed one first in even rounds.
my (@codes, @want, $in_tx, $before_body, $rounds);
my $written = 0;
for my $round (1 .. 20) {
    $rounds = $round;
    my $tok = login($user, "pw-$$");
    push @codes, req(PUT => $V, $tok, { score => "ok $round" })->code;
    req(GET => $V, $tok);   # the counters read lately: the next PUT may use them
    my ($rc) = admin({ nosettle => 1 }, 'disable', $user);
    my $from = -s $err_log;
    my @bodies = ({ score => "disabled $round" }, { score => [] });
    @bodies = reverse @bodies unless $round % 2;
    my $first = req(PUT => $V, $tok, $bodies[0]);
    my $seen = log_since($from);
    my $second = req(PUT => $V, $tok, $bodies[1]);
    push @codes, $rc, $first->code, $second->code,
         ($first->header('WWW-Authenticate') // '') =~ /invalid_token/ ? 'invalid_token' : '-';
    push @want, 200, 0, 401, 401, 'invalid_token';
    $written++ if (lane_score() // '') ne "ok $round";
    if ($round % 2) {
        $in_tx++ if $seen =~ $RECHECK && $seen =~ $CONFIRM;
    }
    else {
        $before_body++ if $seen =~ $CONFIRM && $seen !~ /lane writes:/;
    }
    admin('enable', $user);
    last if $in_tx && $before_body;
}
is("@codes", "@want", "$rounds rounds: the PUT before the disable 200; after it, a well-formed "
   . 'PUT and a malformed one 401 (invalid_token), whichever comes first');
is($written, 0, '... and no PUT after the disable changed the lane');
ok($in_tx, 'a well-formed PUT checked with the shared counters was held back by its '
   . 'transaction (the auth revision moved), then 401 by the check again ('
   . ($in_tx // 0) . " of @{[ int(($rounds + 1) / 2) ]} rounds)");
ok($before_body, 'a malformed PUT checked with the shared counters was checked again before '
   . 'the 400 it would get (' . ($before_body // 0) . " of @{[ int($rounds / 2) ]} rounds)");

# ---- a reader granted editor by another process ----
my $reader = login('demo', 'demo');
check_error(req(PUT => $V, $reader, { score => 'reader' }), 403, 'Forbidden', 'a reader cannot PUT the lane');
my ($grant_ok, $grant_path, @gcodes) = (0, 0);
for my $round (1 .. 20) {
    $rounds = $round;
    req(GET => $V, $reader);   # the counters read lately
    my ($rc) = admin({ nosettle => 1 }, 'grant', 'demo', 'editor', '--competition', '2');
    $granted = 1;
    my $from = -s $err_log;
    my $put = req(PUT => $V, $reader, { score => "granted $round" });
    my $seen = log_since($from);
    push @gcodes, $rc, $put->code;
    $grant_ok++ if (lane_score() // '') eq "granted $round";
    $grant_path++ if $seen =~ $CONFIRM;
    admin('revoke-grant', 'demo', '--competition', '2');
    $granted = 0;
    last if $grant_path;
}
is(join(' ', @gcodes), join(' ', map { ('0', '200') } 1 .. $rounds),
   "$rounds rounds: the reader's PUT right after the grant: 200");
is($grant_ok, $rounds, '... and its score is stored');
ok($grant_path, 'a PUT checked with the shared counters (403 there) was checked again and allowed');
check_error(req(PUT => $V, $reader, { score => 'revoked' }), 403, 'Forbidden',
            'the grant revoked: 403 again');

# ---- put back ----
$added = !admin_ok("delete $user", 'delete', $user);
is(req(PUT => $V, $judge, { score => undef })->code, 200, 'lane 2029 put back (score null)');
is(lane_score(), undef, '... and it is');

done_testing();
