# Login throttling behind a reverse proxy, and no lock-out of a user by anyone.
# Virtual host ranking_proxy (t/conf/extra.conf.in): mod_remoteip takes the client's
# address from X-Forwarded-For sent by the trusted proxy (the test client,
# 127.0.0.1); RankingLoginLimit 4, RankingLoginWindow 60.
# - the throttle counts the address mod_remoteip sets: an address with 4 failures is
#   refused (429), even with the right password, while another address behind the
#   same proxy logs in;
# - failures for one user name from many addresses never refuse that user: they are
#   only answered more slowly (250 ms more per failure beyond half the limit), and
#   the right password from an address that has not failed logs in at once;
# - the main server has no mod_remoteip: there X-Forwarded-For changes nothing.
# tests: 28 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(time sleep);
use RankingTest;

local $RankingTest::VHOST = 'ranking_proxy';

# connect(USER, PASSWORD, ADDRESS) -> (response, seconds)
sub connect_from {
    my ($user, $pass, $addr) = @_;
    my $t0 = time;
    my $res = req(POST => '/api/connect', undef, { client_id => $user, client_secret => $pass },
                  { 'X-Forwarded-For' => $addr });
    return ($res, time - $t0);
}

# ---- per address: the address mod_remoteip sets ----
for my $i (1 .. 4) {
    my ($res) = connect_from('demo', 'wrong', '192.0.2.10');
    check_error($res, 401, 'Invalid credentials', "192.0.2.10: failed login $i: 401");
}
my ($res) = connect_from('demo', 'demo', '192.0.2.10');
check_error($res, 429, 'Too many failed logins, retry later',
            '192.0.2.10 after 4 failures: 429, even with the right password');
my $ra = $res->header('Retry-After') // '';
ok($ra =~ /^\d+$/ && $ra >= 1 && $ra <= 60, "... Retry-After: $ra (1 to 60 seconds)");
($res) = connect_from('judge', 'judge', '192.0.2.10');
is($res->code, 429, '... and for another user from that address');
($res) = connect_from('judge', 'judge', '192.0.2.11');
is($res->code, 200, 'another address behind the same proxy logs in');
($res) = connect_from('demo', 'demo', '192.0.2.12');
is($res->code, 200, '... also as the user who failed 4 times from 192.0.2.10');
($res) = connect_from('demo', 'demo', '192.0.2.13, 127.0.0.1');
is($res->code, 200, 'the proxy itself in the header chain is skipped (a trusted proxy)');

# ---- per user name: slowed down, never refused ----
# 9 failures for judge, each from a new address (nobody reaches the address limit).
# The first 2 (half the limit) are not slowed; then 250 ms more each, at most 2 s.
my @took;
for my $i (1 .. 9) {
    my ($r, $t) = connect_from('judge', "wrong$i", "198.51.100.$i");
    push @took, $t;
    check_error($r, 401, 'Invalid credentials', "judge from 198.51.100.$i: 401 (failure $i)");
}
# failures 3.. wait 250, 500, ... ms: the 8th waits 1.5 s, the 9th 1.75 s
ok($took[7] >= 1.4 && $took[8] >= 1.6,
   sprintf('the 8th and 9th failures are slowed down (%.2f s, %.2f s)', $took[7], $took[8]));
ok($took[8] < 2.0 + 3.0, sprintf('... and capped (the 9th: %.2f s)', $took[8]));
my $t;
($res, $t) = connect_from('judge', 'judge', '198.51.100.200');
is($res->code, 200, 'the right password from an address that has not failed: 200, not 429');
ok($t < 1.0, sprintf('... at once (%.2f s): a correct login is never delayed', $t));
($res) = connect_from('judge', 'judge', '198.51.100.1');
is($res->code, 200, 'the right password from an address that failed once: 200');

# ---- the main server has no mod_remoteip: X-Forwarded-For changes nothing ----
{
    local $RankingTest::VHOST;
    sleep 3.5;   # a fresh window of /throttle (3 failures per 3 s)
    for my $i (1 .. 3) {
        my $r = req(POST => '/throttle/connect', undef, { client_id => 'demo', client_secret => 'x' },
                    { 'X-Forwarded-For' => "203.0.113.$i" });
        is($r->code, 401, "main server, X-Forwarded-For 203.0.113.$i: 401");
    }
    my $r = req(POST => '/throttle/connect', undef, { client_id => 'demo', client_secret => 'demo' },
                { 'X-Forwarded-For' => '203.0.113.99' });
    is($r->code, 429, 'without mod_remoteip the header is ignored: every failure counted for 127.0.0.1');
}

done_testing();
