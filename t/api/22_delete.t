# DELETE of a lane (variant A): 200 {"status":"success"}, then 404 on every route of
# both variants, and a second DELETE is 404.  Deletes lane 2026 (heat 257, the empty
# lane at number 3), which no other test reads, and puts it back at the end (with
# sqlite3: the API has no route that creates a lane) so that the file can run again.
# tests: 26 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $editor = login('judge', 'judge');
my $reader = login('demo', 'demo');
ok(defined $editor && defined $reader, 'judge and demo log in') or die "cannot log in\n";
my $NF = { status => 'error', message => 'Not found' };

my $A = '/api/competition/2/zone/27/heat/257/voie';
my $B = '/api/competition/2/heat/257/line';
my $lane = lane_obj(2026, 257, 3, undef, undef, undef);
my @others = (lane_obj(2024, 257, 1, '156', 'Masters of Disaster', undef),
              lane_obj(2025, 257, 2, '157', 'Grey Hair Gainz', undef));

check_json(req(GET => "$A/2026", $reader), 200, { status => 'success', voie => $lane },
           'lane 2026 exists');
check_json(req(GET => "$A/", $reader), 200, { status => 'success', voies => [@others, $lane] },
           'heat 257 has three lanes');

# refused deletes change nothing
check_json(req(DELETE => "$A/2026", $reader), 403, { status => 'error', message => 'Forbidden' },
           'reader DELETE: 403');
for my $p ('/api/competition/2/zone/27/heat/254/voie/2026',   # another heat
           '/api/competition/2/zone/26/heat/257/voie/2026',   # another zone
           '/api/competition/1/zone/27/heat/257/voie/2026',   # another competition
           '/b/competition/2/zone/27/heat/257/voie/2026') {   # variant A disabled
    check_json(req(DELETE => $p, $editor), 404, $NF, "DELETE $p: 404");
}
check_json(req(GET => "$A/2026", $reader), 200, { status => 'success', voie => $lane },
           'lane 2026 is still there');

# the delete
check_json(req(DELETE => "$A/2026", $editor), 200, { status => 'success' }, 'DELETE: 200');

# gone everywhere
for my $p ("$A/2026", "$A/2026/", "$B/2026", "$B/2026/", '/a/competition/2/zone/27/heat/257/voie/2026',
           '/b/competition/2/heat/257/line/2026',
           '/deep/mount/v1/competition/2/zone/27/heat/257/voie/2026') {
    check_json(req(GET => $p, $reader), 404, $NF, "GET $p: 404");
}
is(req(HEAD => "$A/2026", $reader)->code, 404, 'HEAD voie: 404');
is(req(HEAD => "$B/2026", $reader)->code, 404, 'HEAD line: 404');
check_json(req(PUT => "$A/2026", $editor, '{"score":"ghost"}'), 404, $NF, 'PUT after DELETE: 404');
check_json(req(DELETE => "$A/2026", $editor), 404, $NF, 'a second DELETE: 404');
check_json(req(GET => "$A/", $reader), 200, { status => 'success', voies => \@others },
           'voie list of heat 257 without it');
check_json(req(GET => "$B/", $reader), 200, { status => 'success', lines => \@others },
           'line list of heat 257 without it');
check_json(req(GET => '/api/competition/2/zone/27/heat/257', $reader), 200,
           { status => 'success',
             heat => heat_obj(257, '27', '18', 2, '2026-11-21T14:00:00Z', 'scheduled', '2') },
           'the heat itself is still there');

# put it back
my ($rc, $out) = db_exec('INSERT INTO lane (id, heat_id, number, spot_id, score) '
                         . 'VALUES (2026, 257, 3, NULL, NULL)');
is($rc, 0, 'lane 2026 inserted again in the database') or diag($out);
check_json(req(GET => "$A/2026", $reader), 200, { status => 'success', voie => $lane },
           'lane 2026 is back');

done_testing();
