# Heat generation (shared API.md Part 3, "Heat generation and cut lines"):
# POST /competition/{c}/wod/{w}/generate-heats.
#
# Expectations never come from the module: every plan is t/lib/SeedRef.pm's, computed
# from the API's own overall leaderboard (full view), as t/lib/RankingRef.pm does for
# the rankings.  The demo's competition 4 (WOD 35, the points test, has finished heats
# with scores in zones 41 to 43) gets two zones of its own for the test, 44 (10 lanes)
# and 45 (4 lanes), removed at the end with everything generated in them, so that the
# files after this one see the demo data.
#
# tests: 87
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use JSON::PP ();
use RankingTest;
use RankingRef;
use SeedRef;

my $SRC = $ENV{RANKING_SRC} // "$FindBin::Bin/../..";
my $DEMO = RankingRef::demo("$SRC/sql/demo.sql");
my $R = login('demo', 'demo');     # reader
my $E = login('organizer', 'organizer');   # generates heats (organizers only)
my $J = login('judge', 'judge');   # an editor: may write lanes, not generate heats
my $T = JSON::PP::true;
my $F = JSON::PP::false;
my $GEN = '/api/competition/4/wod/35/generate-heats';
my %Z44 = (id => '44', lane_count => 10);
my %Z45 = (id => '45', lane_count => 4);

my ($rc, $out) = db_exec("INSERT INTO zone (id, competition_id, name, lane_count) VALUES "
                         . "(44, 4, 'Final Floor', 10), (45, 4, 'Small Rig', 4)");
is($rc, 0, 'zones 44 and 45 of competition 4 made for the test') or diag($out);

my $board = decode(req(GET => '/api/competition/4/leaderboard', $E));
is(json_cmp($board, RankingRef::overall_board($DEMO, 4)), undef,
   'the overall leaderboard the reference reads is the ranking reference\'s');

# ids of an answer, put aside: the reference's plan has them null
sub strip_ids {
    my ($body) = @_;
    my (@h, @l);
    for my $h (@{ $body->{heats} // [] }) {
        push @h, $h->{id};
        $h->{id} = undef;
        for my $v (@{ $h->{voies} }) {
            push @l, [$v->{id}, $v->{heat_id}, $h[-1]];
            $v->{id} = undef;
            $v->{heat_id} = undef;
        }
    }
    return (\@h, \@l);
}

sub gen { my ($body, $tok) = @_; return req(POST => $GEN, $tok // $E, $body) }

# a dry run checked against the reference (one test)
sub dry_ok {
    my ($body, $zone, $first, $name) = @_;
    my $want = SeedRef::plan($board, $body, $zone, $first, '4', '35');
    return check_json(gen({ %$body, dry_run => $T }), 200, $want, "dry run: $name");
}

# ---------------------------------------------------------------- dry runs: every rule
my $etag = sub { req(GET => $_[0], $R)->header('ETag') // 'none' };
my @watched = ('/api/competition/4/leaderboard', '/api/competition/4/zone/44/heat/',
               '/api/competition/4/wod/35/leaderboard', '/api/competition/4');
my %before = map { $_ => $etag->($_) } @watched;

dry_ok({ zone_id => '44' }, \%Z44, 1, 'defaults (ranking, every division, 10 lanes, ascending)');
dry_ok({ zone_id => '44', lanes => 4 }, \%Z44, 1, 'lanes 4: sizes as even as possible, smaller first');
dry_ok({ zone_id => '44', lanes => 3, lane_order => 'center' }, \%Z44, 1, 'lanes 3, center of 10');
dry_ok({ zone_id => '45', lane_order => 'center' }, \%Z45, 1, 'center of 4 lanes (2, 3, 1, 4)');
dry_ok({ zone_id => '44', order => 'bib', lanes => 5 }, \%Z44, 1, 'order bib');
dry_ok({ zone_id => '44', order => 'random', lanes => 4 }, \%Z44, 1, 'order random, seed 0');
dry_ok({ zone_id => '44', order => 'random', seed => 12345, lanes => 4 }, \%Z44, 1, 'order random, seed 12345');
dry_ok({ zone_id => '44', order => 'random', seed => 2147483647 }, \%Z44, 1, 'order random, the largest seed');
{
    my $a = gen({ zone_id => '44', order => 'random', seed => 99, lanes => 3, dry_run => $T });
    my $b = gen({ zone_id => '44', order => 'random', seed => 99, lanes => 3, dry_run => $T });
    is($a->content, $b->content, 'random: the same seed gives the same draw (byte for byte)');
    my $c = gen({ zone_id => '44', order => 'random', seed => 100, lanes => 3, dry_run => $T });
    isnt($a->content, $c->content, 'random: another seed, another draw');
}
dry_ok({ zone_id => '44', divisions => ['Scaled', 'RX'] }, \%Z44, 1, 'divisions: only those, in that order');
dry_ok({ zone_id => '44', divisions => [undef, 'Masters 40+'] }, \%Z44, 1, 'divisions: null = the spots without division');
dry_ok({ zone_id => '44', top => 3, lane_order => 'center' }, \%Z44, 1, 'top 3 per division');
{
    # ties at the line: a top that cuts inside a shared rank lets every tied spot through
    my ($tie) = grep { $_->[1] > 1 }
                map { my $d = $_; my %n; $n{ $_->{rank} }++ for @{ $d->{entries} };
                      map { [$_, $n{$_}] } sort { $a <=> $b } keys %n }
                @{ $board->{leaderboard}{divisions} };
    ok($tie, 'the demo board has a shared overall rank (for top with ties)');
    my $top = $tie ? 0 + $tie->[0] : 1;
    dry_ok({ zone_id => '44', top => $top }, \%Z44, 1, "top $top: the tied spots at the line all go through");
    my $want = SeedRef::plan($board, { zone_id => '44', top => $top }, \%Z44, 1, '4', '35');
    my $n = 0;
    $n += @{ $_->{voies} } for @{ $want->{heats} };
    my $cut = 0;
    for my $d (@{ $board->{leaderboard}{divisions} }) {
        my @e = @{ $d->{entries} };
        $cut += @e < $top ? @e : $top;
    }
    ok($n > $cut, "top $top with ties: more spots than $top per division ($n > $cut)");
}
dry_ok({ zone_id => '44', top => 100 }, \%Z44, 1, 'top above every rank: everyone');
dry_ok({ zone_id => '44', lanes => 4, start_time => '2026-11-15T16:00:00Z', interval => 900 }, \%Z44, 1,
       'start_time and interval: the k-th heat at start + k x interval');
dry_ok({ zone_id => '44', start_time => '2026-11-15T16:00:00Z' }, \%Z44, 1, 'start_time, interval 0');
dry_ok({ zone_id => '44', lanes => 1 }, \%Z44, 1, 'lanes 1: one spot per heat');
is_deeply({ map { $_ => $etag->($_) } @watched }, \%before, 'the dry runs changed no ETag');

# ---------------------------------------------------------------- refusals
my %ok_body = (zone_id => '44');
check_error(gen(\%ok_body, $R), 403, 'Forbidden', 'a reader: 403');
check_error(gen(\%ok_body, $J), 403, 'Forbidden', 'an editor (a judge): 403');
check_error(gen({ %ok_body, dry_run => $T }, $J), 403, 'Forbidden', 'an editor\'s dry run: 403');
check_error(req(POST => $GEN, undef, \%ok_body), 401, 'Unauthorized', 'no token: 401');
check_405(req(GET => $GEN, $E), 'POST', 'GET generate-heats');
check_error(req(POST => '/api/competition/4/wod/36/generate-heats', $E, \%ok_body), 404,
            'Not found', 'a WOD of another competition: 404');
check_error(req(POST => '/api/competition/99/wod/35/generate-heats', $E, \%ok_body), 404,
            'Not found', 'no such competition: 404');
check_error(req(POST => $GEN, $E, '{"zone_id":"44"}', { 'Content-Type' => 'text/plain' }), 415,
            undef, 'not JSON: 415');
check_error(req(POST => $GEN, $E, '{"zone_id":"44","x":"' . ('a' x 70000) . '"}'), 413, undef,
            'a body over the limit: 413');
for my $bad (
    ['{}', 'no zone_id'],
    ['{"zone_id":44}', 'zone_id as a number'],
    ['{"zone_id":"21"}', 'a zone of another competition'],
    ['{"zone_id":"999"}', 'no such zone'],
    ['{"zone_id":"45","lanes":5}', 'lanes above the zone\'s lane_count'],
    ['{"zone_id":"44","lanes":0}', 'lanes 0'],
    ['{"zone_id":"44","order":"name"}', 'an unknown order'],
    ['{"zone_id":"44","lane_order":"outside"}', 'an unknown lane_order'],
    ['{"zone_id":"44","divisions":[]}', 'divisions []'],
    ['{"zone_id":"44","divisions":["Elite"]}', 'a division no spot has'],
    ['{"zone_id":"44","divisions":["RX","RX"]}', 'a division twice'],
    ['{"zone_id":"44","top":0}', 'top 0'],
    ['{"zone_id":"44","start_time":"2026-11-15 16:00"}', 'a start_time not UTC ISO'],
    ['{"zone_id":"44","interval":86401}', 'interval above a day'],
    ['{"zone_id":"44","seed":-1}', 'a negative seed'],
    ['{"zone_id":"44","replace":1}', 'replace not a boolean'],
    ['{"zone_id":"44","start_time":"9999-12-31T23:00:00Z","interval":86400,"lanes":1}',
     'start times past the year 9999'],
    ['{"zone_id":"44"} x', 'trailing garbage'],
) {
    check_error(req(POST => $GEN, $E, $bad->[0]), 400, undef, "400: $bad->[1]");
}
is_deeply({ map { $_ => $etag->($_) } @watched }, \%before, 'the refusals changed no ETag');

# ---------------------------------------------------------------- a real generation
my $req1 = { zone_id => '44', lanes => 4, lane_order => 'center', start_time => '2026-11-15T16:00:00Z',
             interval => 600 };
my $res = gen($req1);
is($res->code, 201, 'generate: 201') or diag($res->content);
my $got = decode($res);
my ($hids, $lids) = strip_ids($got);
is(json_cmp($got, SeedRef::plan($board, $req1, \%Z44, 1, '4', '35')), undef,
   'generate: the reference\'s plan, ids aside');
ok(@$hids && !(grep { !defined || !/\A[1-9][0-9]*\z/ } @$hids), 'every new heat has an id');
ok(@$lids && !(grep { !defined $_->[0] || !defined $_->[1] || $_->[1] ne $_->[2] } @$lids),
   'every new lane has an id, and its heat\'s id as heat_id');
{
    my $list = decode(req(GET => '/api/competition/4/zone/44/heat/', $R));
    is_deeply([map { $_->{id} } @{ $list->{heats} }], $hids, 'the zone\'s heats are the new ones, in order');
    my $raw = decode(gen({ %$req1, dry_run => $T, replace => $T }));
    my $h0 = $got->{heats}[0];
    my $voies = decode(req(GET => "/api/competition/4/zone/44/heat/$hids->[0]/voie/", $R));
    is_deeply([map { [$_->{number}, $_->{spot_id}] } @{ $voies->{voies} }],
              [map { [$_->{number}, $_->{spot_id}] } @{ $h0->{voies} }], 'the first heat\'s lanes are stored');
    is(scalar @{ $raw->{heats} }, scalar @$hids, 'a dry run with replace plans the same heats again');
    my $hist = decode(req(GET => "/api/competition/4/zone/44/heat/$hids->[0]/voie/$voies->{voies}[0]{id}/history", $E));
    is_deeply([map { $_->{action} } @{ $hist->{history} // [] }], ['create'],
              'a new lane\'s history: one create record');
}
isnt($etag->('/api/competition/4/zone/44/heat/'), $before{'/api/competition/4/zone/44/heat/'},
     'the generation moved the heat list\'s ETag');
check_json(req(GET => '/api/competition/4/leaderboard', $R), 200, RankingRef::overall_board($DEMO, 4),
           'the overall leaderboard is unchanged (no new score)');

# existing heats: 409 unless replace
check_error(gen({ zone_id => '44' }), 409, undef, 'again without replace: 409');
check_error(gen({ zone_id => '44', dry_run => $T }), 409, undef, 'a dry run sees the 409 too');
is_deeply([map { $_->{id} } @{ decode(req(GET => '/api/competition/4/zone/44/heat/', $R))->{heats} }], $hids,
          'the 409 changed nothing');

# numbering: from one more than the largest heat number left in the zone
($rc, $out) = db_exec("INSERT INTO heat (id, competition_id, zone_id, wod_id, number, status) VALUES "
                      . "(490, 4, 44, NULL, 7, 'scheduled')");
is($rc, 0, 'a heat of no WOD, number 7, in zone 44') or diag($out);
my $req2 = { zone_id => '44', replace => $T, order => 'bib', lanes => 6 };
$res = gen($req2);
is($res->code, 201, 'replace: 201') or diag($res->content);
$got = decode($res);
my ($hids2) = strip_ids($got);
is(json_cmp($got, SeedRef::plan($board, $req2, \%Z44, 8, '4', '35')), undef,
   'replace: the old heats gone, the new ones numbered from 8 (after heat 7, which stays)');
is(req(GET => "/api/competition/4/zone/44/heat/$hids->[0]", $R)->code, 404, 'a replaced heat is gone');
is_deeply([sort { $a <=> $b } map { $_->{id} } @{ decode(req(GET => '/api/competition/4/zone/44/heat/', $R))->{heats} }],
          [sort { $a <=> $b } (490, @$hids2)], 'the zone holds heat 490 and the new heats');

# replace with a score: 409, nothing changes
{
    my $voies = decode(req(GET => "/api/competition/4/zone/44/heat/$hids2->[-1]/voie/", $R))->{voies};
    my $v = "/api/competition/4/zone/44/heat/$hids2->[-1]/voie/$voies->[0]{id}";
    is(req(PUT => $v, $E, { score => '88' })->code, 200, 'a score in a generated lane');
    my $tag = $etag->('/api/competition/4/zone/44/heat/');
    check_error(gen({ zone_id => '44', replace => $T }), 409, undef, 'replace when a lane has a score: 409');
    is($etag->('/api/competition/4/zone/44/heat/'), $tag, 'the 409 changed nothing');
    is(req(PUT => $v, $E, { score => undef })->code, 200, 'the score removed');
    is(gen({ zone_id => '44', replace => $T, dry_run => $T })->code, 200, 'without the score, replace plans again');
}

# ---------------------------------------------------------------- the final of the README
# README: WOD 34 has no heat in zone 43 (6 lanes, heats numbered up to 4): one request
{
    my $final = { zone_id => '43', top => 10, lane_order => 'center' };
    $res = req(POST => '/api/competition/4/wod/34/generate-heats', $E, $final);
    is($res->code, 201, 'the README\'s request: 201') or diag($res->content);
    $got = decode($res);
    strip_ids($got);
    is(json_cmp($got, SeedRef::plan($board, $final, { id => '43', lane_count => 6 }, 5, '4', '34')), undef,
       'the README\'s final, WOD 34 in zone 43 from heat 5, as the reference plans it');
    ($rc, $out) = db_exec('DELETE FROM lane WHERE heat_id IN (SELECT id FROM heat WHERE zone_id = 43 AND wod_id = 34); '
                          . 'DELETE FROM heat WHERE zone_id = 43 AND wod_id = 34');
    is($rc, 0, 'the README\'s final removed') or diag($out);
}
{
    my $final = { zone_id => '44', top => 10, lane_order => 'center', replace => $T };
    $res = gen($final);
    is($res->code, 201, 'the README\'s final: top 10, center, one request');
    $got = decode($res);
    strip_ids($got);
    is(json_cmp($got, SeedRef::plan($board, $final, \%Z44, 8, '4', '35')), undef, 'the final as the reference plans it');
}

# ---------------------------------------------------------------- advance and advancing
($rc, $out) = db_exec('UPDATE competition SET advance = 2 WHERE id = 4');
is($rc, 0, 'competition 4: advance 2') or diag($out);
{
    my ($c4) = grep { $_->{id} == 4 } @{ $DEMO->{competition} };
    local $c4->{advance} = 2;
    check_json(req(GET => '/api/competition/4/leaderboard', $R), 200, RankingRef::overall_board($DEMO, 4),
               'advance 2: advancing for ranks 1 and 2 of each division');
}
($rc, $out) = db_exec('UPDATE competition SET advance = NULL WHERE id = 4');
is($rc, 0, 'competition 4: advance null again') or diag($out);

# ---------------------------------------------------------------- the demo data back
($rc, $out) = db_exec('DELETE FROM lane WHERE heat_id IN (SELECT id FROM heat WHERE zone_id IN (44, 45)); '
                      . 'DELETE FROM heat WHERE zone_id IN (44, 45); DELETE FROM zone WHERE id IN (44, 45)');
is($rc, 0, 'zones 44 and 45 removed with their heats') or diag($out);
check_json(req(GET => '/api/competition/4/leaderboard', $R), 200, RankingRef::overall_board($DEMO, 4),
           'the overall leaderboard as in the demo data');
check_json(req(GET => '/api/competition/4/wod/35/leaderboard', $R), 200, RankingRef::wod_board($DEMO, 4, 35),
           'WOD 35\'s leaderboard as in the demo data');

tests_declared_ok(__FILE__);
done_testing();
