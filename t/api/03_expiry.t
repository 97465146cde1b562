# Token lifetime: /short issues tokens that live 2 seconds (RankingTokenLifetime 2);
# an expired token is a 401 with error="invalid_token" on every mount, others keep
# working.
# tests: 13 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(sleep);
use RankingTest;

my $res = req(POST => '/short/connect', undef, { client_id => 'demo', client_secret => 'demo' });
my $d = decode($res) // {};
is($res->code, 200, '/short: login');
is(json_cmp($d->{expires_in}, 2), undef, '/short: expires_in 2');
my $short = $d->{access_token};
my $long = login('demo', 'demo');
ok(defined $short && defined $long, 'two tokens');

check_json(req(GET => '/short/competition/1', $short), 200,
           { status => 'success', competition => $COMP{1} }, 'the short token works on /short');
is(req(GET => '/api/competition/1', $short)->code, 200, 'and on /api (its lifetime is its own)');

sleep 3.2;
check_401(req(GET => '/short/competition/1', $short), 1, 'after 3 s, on /short');
check_401(req(GET => '/api/competition/1', $short), 1, 'after 3 s, on /api');
check_401(req(GET => '/api/competition/1/wod/', $short), 1, 'after 3 s, a list');
is(req(GET => '/api/competition/1', $long)->code, 200, 'a 3600 s token still works');
is(req(GET => '/short/competition/1', $long)->code, 200, '... also on /short');

done_testing();
