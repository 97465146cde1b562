# 404 {"status":"error","message":"Not found"}: unknown routes, malformed ids in every
# id position, encoded slashes, extra segments, nesting mismatches and unknown ids
# (ids that exist nowhere in sql/demo.sql: 999999; competitions 1 to 5 exist).
# tests: 333 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $tok = login('demo', 'demo');
ok(defined $tok, 'demo logs in') or die "cannot log in\n";
my $NF = { status => 'error', message => 'Not found' };
sub nf { my ($path, $name) = @_;
    check_json(req(GET => "/api$path", $tok), 404, $NF, $name // "GET $path: 404") }

# ---- unknown routes ----
nf($_) for qw(
    /
    /competitions
    /competitions/
    /Competition/
    /COMPETITION/1
    /competition/1/wods/
    /competition/1/wod/13/extra
    /competition/1/spot/105/x
    /competition/1/zone/21/heat/202/voie/1001/x
    /competition/1/heat/202/line/1001/x
    /competition/1/heat/202/line/1001/score
    /competition/1/voie/
    /competition/1/line/
    /competition/1/zone/21/line/
    /competition/1/zone/21/heat/202/line/
    /competition/1/zone/21/heat/202/line/1001
    /competition/1/heat/202/voie/
    /competition/1/heat/202/voie/1001
    /competition/1/lane/
    /competition/1/zone/21/voie/
    /connect/x
    /index.html
);
nf('', 'GET the mount point /api: 404');

# ---- malformed ids, in each id position ----
my @bad_ids = ('abc', '0', '00', '01', '007', '-1', '+1', '0x1', '1.0', '1e3', '1a', 'a1',
               '%201', '1%20', '%2B1', '1234567890123456789', '9223372036854775807',
               '99999999999999999999', '1%2F2', '1%2f', '%2F', '%00');
my @positions = (
    '/competition/ID',
    '/competition/ID/wod/',
    '/competition/1/wod/ID',
    '/competition/1/spot/ID',
    '/competition/1/zone/ID',
    '/competition/1/zone/ID/heat/',
    '/competition/1/zone/21/heat/ID',
    '/competition/1/zone/21/heat/ID/voie/',
    '/competition/1/zone/21/heat/202/voie/ID',
    '/competition/1/heat/ID',
    '/competition/1/heat/ID/line/',
    '/competition/1/heat/202/line/ID',
);
for my $pos (@positions) {
    for my $id (@bad_ids) {
        next if $id eq '%00';   # httpd itself refuses %00 (HTML 404): tested once below
        (my $path = $pos) =~ s/ID/$id/;
        nf($path);
    }
}
# an encoded slash between two valid ids must not be taken as a separator
nf('/competition/1%2Fwod%2F13', 'GET /competition/1%2Fwod%2F13 (encoded slashes): 404');
nf('/competition/1/zone/21%2Fheat/202', 'GET /competition/1/zone/21%2Fheat/202: 404');
# 18 digits is the longest id: valid shape, unknown
nf('/competition/999999999999999999', '18-digit unknown id: 404');
nf('/competition/1/wod/123456789012345678', '18-digit unknown wod: 404');

# ---- nesting mismatches (each resource exists, but not under that path) ----
nf($_, "GET $_: 404 (nesting)") for qw(
    /competition/1/wod/16
    /competition/2/wod/13
    /competition/1/spot/151
    /competition/2/spot/101
    /competition/1/zone/26
    /competition/2/zone/21
    /competition/2/zone/21/heat/
    /competition/2/zone/21/heat/202
    /competition/1/zone/22/heat/202
    /competition/1/zone/21/heat/203
    /competition/1/zone/21/heat/207
    /competition/1/zone/21/heat/251
    /competition/1/zone/26/heat/253
    /competition/1/zone/22/heat/202/voie/
    /competition/1/zone/22/heat/202/voie/1001
    /competition/1/zone/21/heat/202/voie/1011
    /competition/1/zone/21/heat/201/voie/1001
    /competition/1/zone/21/heat/202/voie/2001
    /competition/2/zone/26/heat/202/voie/1001
    /competition/1/heat/251
    /competition/2/heat/202
    /competition/2/heat/202/line/
    /competition/1/heat/202/line/1011
    /competition/1/heat/201/line/1001
    /competition/1/heat/202/line/2001
    /competition/2/heat/251/line/1001
    /competition/1/heat/21
    /competition/1/wod/101
    /competition/1/spot/13
    /competition/1/heat/202/line/202
);

# ---- unknown ids ----
nf($_, "GET $_: 404 (unknown)") for qw(
    /competition/999999
    /competition/999999/
    /competition/999999/wod/
    /competition/999999/spot/
    /competition/999999/zone/
    /competition/999999/heat/
    /competition/999999/leaderboard
    /competition/999999/wod/31/leaderboard
    /competition/4/wod/999999/leaderboard
    /competition/1/wod/31/leaderboard
    /competition/1/wod/15
    /competition/1/spot/110
    /competition/1/zone/24
    /competition/1/zone/24/heat/
    /competition/1/zone/21/heat/299
    /competition/1/zone/21/heat/299/voie/
    /competition/1/zone/21/heat/202/voie/1099
    /competition/1/heat/299
    /competition/1/heat/299/line/
    /competition/1/heat/202/line/1099
);

# ---- the same through HEAD: 404, no body ----
my $res = req(HEAD => '/api/competition/999999', $tok);
is($res->code, 404, 'HEAD /competition/999999: 404');
is($res->content, '', 'HEAD /competition/999999: no body');

# ---- %00 is refused by httpd before the module: still a 404 ----
is(req(GET => '/api/competition/%00', $tok)->code, 404, 'GET /competition/%00: 404');

done_testing();
