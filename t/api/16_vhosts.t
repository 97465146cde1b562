# Two virtual hosts side by side: the main server's /api (both variants, 3600 s
# tokens) and virtual host ranking_vh2's /api (variant B only, 60 s tokens), with
# their own mod_dbd configuration on the same database: tokens work on both.
# The leaderboards, common to both variants, are served by ranking_vh2's B-only mount.
# tests: 51 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $NF = { status => 'error', message => 'Not found' };
my $main_tok = login('demo', 'demo');
my ($vh_tok, $d);
{
    local $RankingTest::VHOST = 'ranking_vh2';
    ok(base_url() ne do { local $RankingTest::VHOST; base_url() }, 'ranking_vh2 has its own port');
    my $res = req(POST => '/api/connect', undef, { client_id => 'demo', client_secret => 'demo' });
    $d = decode($res) // {};
    is($res->code, 200, 'vh2: login');
    is(json_cmp($d->{expires_in}, 60), undef, 'vh2: expires_in 60 (its own RankingTokenLifetime)');
    $vh_tok = $d->{access_token};

    check_401(req(GET => '/api/competition/1'), 0, 'vh2: no token');
    for my $r (read_routes()) {
        next unless $r->{path} =~ m{^/competition/(1/?|1/(zone/21|heat/202)(/.*)?|1/zone/)$};
        if ($r->{variant} eq 'A') {
            check_json(req(GET => "/api$r->{path}", $main_tok), 404, $NF,
                       "vh2 GET $r->{path}: 404 (variant A off)");
        }
        else {
            check_json(req(GET => "/api$r->{path}", $main_tok), 200, $r->{expected},
                       "vh2 GET $r->{path} with a token of the main server");
        }
    }
    check_json(req(GET => '/api/competition/1/leaderboard', $main_tok), 200, lb1_overall(),
               'vh2 (variant B only) serves the overall leaderboard');
    check_json(req(GET => '/api/competition/1/wod/13/leaderboard', $vh_tok), 200, lb1_wod(13),
               'vh2 serves a WOD leaderboard, with its own token');
    check_json(req(GET => '/api/competition/1/leaderboard?division=Masters', $vh_tok), 200,
               lb1_overall('Masters'), 'vh2: a division filter');
    is(req(OPTIONS => '/api/competition/1/wod/13/leaderboard')->code, 204, 'vh2: OPTIONS on a leaderboard: 204');
}
check_json(req(GET => '/api/competition/1/zone/21', $vh_tok), 200,
           { status => 'success', zone => $ZONE{21} },
           'main server: variant A on /api, with a token of vh2');
check_json(req(GET => '/api/competition/1/heat/202/line/1001', $vh_tok), 200,
           { status => 'success', line => $LANE{1001} }, 'main server: variant B on /api');

done_testing();
