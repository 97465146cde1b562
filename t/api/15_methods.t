# Methods (405 with Allow, OPTIONS 204 without a token) and the order of checks:
# token (401), route shape (404), method (405), role (403), existence (404),
# Content-Type (415), body size (413), body (400), conflicts (409).
# Nothing here changes data: every write is refused.
# tests: 106 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $reader = login('demo', 'demo');
my $editor = login('judge', 'judge');
ok(defined $reader && defined $editor, 'demo and judge log in') or die "cannot log in\n";
my $NF = { status => 'error', message => 'Not found' };
my $FORBIDDEN = { status => 'error', message => 'Forbidden' };

my $READ = 'GET, HEAD';
my $LANE = 'GET, HEAD, PUT, DELETE';
my $VOIE = '/api/competition/2/zone/26/heat/253/voie/2012';
my $VOIE_SMALL = '/small/competition/2/zone/26/heat/253/voie/2012';
my $VOIE_ORIG = { status => 'success',
                  voie => lane_obj(2012, 253, 2, 152, "Les Ch'tis Costauds", undef) };

# ---- 405 with Allow ----
# (part 3: POST on the lists, PATCH and DELETE on one resource, of competitions, WODs,
# spots, zones, variant A heats and (POST) lanes; variant B stays read-only)
my $LIST = 'GET, HEAD, POST';
my $ONE = 'GET, HEAD, PATCH, DELETE';
my @m405 = (
    [PUT    => '/api/competition/', $LIST],
    [DELETE => '/api/competition/', $LIST],
    [PATCH  => '/api/competition/', $LIST],
    [PUT    => '/api/competition', $LIST],
    [POST   => '/api/competition/1', $ONE],
    [PUT    => '/api/competition/1', $ONE],
    [PATCH  => '/api/competition/1/wod/', $LIST],
    [PUT    => '/api/competition/1/wod/13', $ONE],
    [POST   => '/api/competition/1/spot/105', $ONE],
    [DELETE => '/api/competition/1/zone/', $LIST],
    [PUT    => '/api/competition/1/zone/21', $ONE],
    [DELETE => '/api/competition/1/zone/21/heat/', $LIST],
    [POST   => '/api/competition/1/zone/21/heat/202', $ONE],
    [PATCH  => '/api/competition/2/zone/26/heat/253/voie/', $LIST],
    [PUT    => '/api/competition/2/zone/26/heat/253/voie/', $LIST],
    [DELETE => '/api/competition/2/zone/26/heat/253/voie/', $LIST],
    [POST   => $VOIE, $LANE],
    [PATCH  => $VOIE, $LANE],
    [POST   => '/api/competition/1/heat/', $READ],
    [DELETE => '/api/competition/1/heat/202', $READ],
    [PATCH  => '/api/competition/1/heat/202', $READ],
    [POST   => '/api/competition/2/heat/253/line/', $READ],
    [PUT    => '/api/competition/2/heat/253/line/2012', $READ],
    [DELETE => '/api/competition/2/heat/253/line/2012', $READ],
    [PATCH  => '/api/competition/2/heat/253/line/2012', $READ],
    [PUT    => '/b/competition/2/heat/253/line/2012', $READ],
    [PUT    => '/deep/mount/v1/competition/1', $ONE],
);
for my $t (@m405) {
    my ($m, $path, $allow) = @$t;
    my $body = $m =~ /^(POST|PUT|PATCH)$/ ? '{"score":"405"}' : undef;
    check_405(req($m => $path, $editor, $body), $allow, "$m $path (editor)");
}
check_405(req(GET => '/api/connect'), 'POST', 'GET /connect (no token needed)');
check_405(req(PATCH => $VOIE, $reader, '{"score":"x"}'), $LANE,
          'PATCH voie as reader: 405 (method before role)');
check_json(req(GET => $VOIE, $reader), 200, $VOIE_ORIG, 'the voie is unchanged');

# ---- OPTIONS: 204, Allow, no body, no token needed ----
my @opt = (
    ['/api/competition/', $LIST], ['/api/competition', $LIST], ['/api/competition/1', $ONE],
    ['/api/competition/1/wod/', $LIST], ['/api/competition/1/spot/105', $ONE],
    ['/api/competition/1/zone/', $LIST], ['/api/competition/1/zone/21/heat/202', $ONE],
    ['/api/competition/1/zone/21/heat/202/voie/', $LIST],
    ['/api/competition/1/zone/21/heat/202/voie/1001', $LANE],
    ['/api/competition/1/zone/21/heat/202/voie/1001/', $LANE],
    ['/api/competition/1/heat/', $READ], ['/api/competition/1/heat/202/line/1001', $READ],
    ['/api/connect', 'POST'], ['/deep/mount/v1/connect', 'POST'],
);
for my $t (@opt) {
    my ($path, $allow) = @$t;
    my $res = req(OPTIONS => $path);
    my @why;
    push @why, 'status ' . $res->code if $res->code != 204;
    push @why, 'Allow ' . ($res->header('Allow') // 'none') if ($res->header('Allow') // '') ne $allow;
    push @why, 'a body: ' . $res->content if length $res->content;
    ok(!@why, "OPTIONS $path: 204, Allow: $allow, no body") or diag(join '; ', @why);
}
my $res = req(OPTIONS => '/api/competition/1', undef, undef, { Authorization => 'Bearer junk' });
is($res->code, 204, 'OPTIONS with an invalid token: 204 all the same');
check_json(req(OPTIONS => '/api/no/such/route'), 404, $NF, 'OPTIONS on an unknown route: 404');
check_json(req(OPTIONS => '/api/competition/abc'), 404, $NF, 'OPTIONS with a malformed id: 404');

# ---- order of checks ----
check_401(req(GET => '/api/nothing/here'), 0, 'no token + unknown route: 401');
check_401(req(PUT => '/api/competition/1'), 0, 'no token + wrong method: 401');
check_401(req(PUT => '/api/competition/2/zone/26/heat/253/voie/999999', undef, '{'), 0,
          'no token + PUT of an unknown voie with a bad body: 401');
check_json(req(GET => '/api/nothing/here', $reader), 404, $NF, 'token + unknown route: 404');
check_json(req(DELETE => '/api/competition/1/wod/nothing', $reader), 404, $NF,
           'token + unknown route + unknown method for any route: 404');
check_405(req(PUT => '/api/competition/999', $reader), $ONE,
          'token + known route + wrong method + unknown id: 405 (method before existence)');
check_json(req(PUT => $VOIE, $reader, '{"score":"reader"}'), 403, $FORBIDDEN,
           'reader PUT: 403 Forbidden');
check_json(req(DELETE => $VOIE, $reader), 403, $FORBIDDEN, 'reader DELETE: 403 Forbidden');
check_json(req(PUT => '/api/competition/2/zone/26/heat/253/voie/999999', $reader, '{"score":"r"}'),
           403, $FORBIDDEN, 'reader PUT of an unknown voie: 403 (role before existence)');
check_json(req(DELETE => '/api/competition/2/zone/26/heat/253/voie/999999', $reader),
           403, $FORBIDDEN, 'reader DELETE of an unknown voie: 403 (role before existence)');
check_json(req(PUT => $VOIE, $reader, 'x', { 'Content-Type' => 'text/plain' }), 403, $FORBIDDEN,
           'reader PUT with a wrong Content-Type: 403 (role before Content-Type)');
check_json(req(PUT => '/api/competition/2/zone/26/heat/253/voie/999999', $editor, 'x',
               { 'Content-Type' => 'text/plain' }), 404, $NF,
           'editor PUT of an unknown voie with a wrong Content-Type: 404 (existence before 415)');
check_json(req(PUT => '/api/competition/2/zone/27/heat/253/voie/2012', $editor, '{'), 404, $NF,
           'editor PUT under the wrong zone, bad body: 404 (nesting before body)');
check_json(req(PUT => '/api/competition/2/zone/26/heat/254/voie/2012', $editor, '{"score":"x"}'),
           404, $NF, 'editor PUT of a voie of another heat: 404');
check_json(req(DELETE => '/api/competition/2/zone/26/heat/254/voie/2012', $editor), 404, $NF,
           'editor DELETE of a voie of another heat: 404');
check_json(req(PUT => '/api/competition/1/zone/26/heat/253/voie/2012', $editor, '{"score":"x"}'),
           404, $NF, 'editor PUT under another competition: 404');
check_error(req(PUT => $VOIE_SMALL, $editor, 'x' x 100,
                { 'Content-Type' => 'text/plain' }), 415, undef,
            '/small: oversized body with a wrong Content-Type: 415 (type before size)');
check_error(req(PUT => $VOIE_SMALL, $editor, '{' . ('x' x 100)),
            413, undef, '/small: oversized malformed body: 413 (size before syntax)');
check_error(req(PUT => $VOIE, $editor, '{"number":1,"colour":"red"}'), 400, undef,
            'conflicting number + unknown key: 400 (body before conflicts)');
check_error(req(PUT => $VOIE, $editor, '{"number":1,"score":5}'), 400, undef,
            'conflicting number + wrong type: 400 (body before conflicts)');
check_json(req(PUT => '/b/competition/2/zone/26/heat/253/voie/2012', $editor, '{"score":"b"}'),
           404, $NF, 'PUT on a voie through /b (variant A disabled): 404');
# part 3: the organizer's routes, in the same order
check_json(req(DELETE => '/api/competition/1', $editor), 403, $FORBIDDEN,
           'editor DELETE of a competition: 403');
check_json(req(PATCH => '/api/competition/999999/wod/1', $reader, 'x', { 'Content-Type' => 'text/plain' }),
           403, $FORBIDDEN, 'reader PATCH of an unknown WOD, wrong Content-Type: 403 (role first)');
check_json(req(POST => '/api/competition/', $editor, '{'), 403, $FORBIDDEN,
           'editor POST of a competition with a bad body: 403 (role before body)');
check_json(req(GET => $VOIE, $reader), 200, $VOIE_ORIG, 'the voie is unchanged after all that');

done_testing();
