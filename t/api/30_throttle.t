# Login throttling (conf/ranking-vhost.conf.example: RankingLoginLimit,
# RankingLoginWindow) on the /throttle mount: 3 failed logins per 3-second window.
# Once a client address has failed 3 times, /connect answers 429 with Retry-After,
# even for good credentials, until the window ends.  Other mounts (limit 0) neither
# count nor refuse.
# tests: 9 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(sleep);
use RankingTest;

my $GOOD = { client_id => 'demo', client_secret => 'demo' };
my $BAD = { client_id => 'demo', client_secret => 'wrong' };

# start from a fresh window
sleep 3.5;
is(req(POST => '/throttle/connect', undef, $GOOD)->code, 200, 'a good login');
for my $i (1 .. 3) {
    check_error(req(POST => '/throttle/connect', undef, $BAD), 401, 'Invalid credentials',
                "failed login $i: 401");
}
my $res = req(POST => '/throttle/connect', undef, $GOOD);
check_error($res, 429, undef, 'after 3 failures, even good credentials: 429');
my $ra = $res->header('Retry-After') // '';
ok($ra =~ /^\d+$/ && $ra >= 1 && $ra <= 3, "Retry-After: $ra (1 to 3 seconds)");
check_error(req(POST => '/throttle/connect', undef, $BAD), 429, undef,
            'and bad credentials: 429 as well');
is(req(POST => '/api/connect', undef, $GOOD)->code, 200, '/api (throttling off) is not affected');
sleep(($ra =~ /^\d+$/ ? $ra : 3) + 0.5);
is(req(POST => '/throttle/connect', undef, $GOOD)->code, 200, 'after Retry-After: a good login works');

done_testing();
