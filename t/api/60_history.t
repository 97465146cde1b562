# Lane history (variant A): every accepted lane PUT and DELETE is recorded in the
# transaction of the change (when, by whom, the lane before and after), oldest first;
# editors only (a reader gets 403); a deleted lane keeps its history; an id never seen
# in the heat is 404; refused writes record nothing.  Uses lane 2015 (heat 254, zone
# 27, WOD 17 load, number 2, spot 156, score "88kg"), which no other test uses, deletes
# it and puts it back (with sqlite3/psql: the API has no route that creates a lane).
# The history only grows: the file compares the records it made itself.
# tests: 29 (t/run-apache-test.sh fails when fewer run)
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

my $V = '/api/competition/2/zone/27/heat/254/voie/2015';
my $H = "$V/history";
my $lane0 = lane_obj(2015, 254, 2, '156', 'Masters of Disaster', '88kg', undef);

sub history { my $res = req(GET => $H, $editor); return ($res, decode($res)) }
my ($res, $d) = history();
is($res->code, 200, 'GET history of an existing lane: 200');
my @old = $d && ref $d->{history} eq 'ARRAY' ? @{ $d->{history} } : ();
my $last = @old ? $old[-1]{id} : 0;
check_json(req(GET => $V, $reader), 200, { status => 'success', voie => $lane0 }, 'lane 2015 as in the demo');

# refused reads and writes
check_json(req(GET => $H, $reader), 403, { status => 'error', message => 'Forbidden' },
           'a reader may not read the history');
check_json(req(GET => '/api/competition/2/zone/27/heat/254/voie/2011/history', $editor), 404,
           { status => 'error', message => 'Not found' }, 'a lane of another heat: 404');
check_json(req(GET => '/api/competition/2/zone/27/heat/254/voie/999999/history', $editor), 404,
           { status => 'error', message => 'Not found' }, 'an id never seen in the heat: 404');
check_json(req(GET => '/api/competition/1/zone/27/heat/254/voie/2015/history', $editor), 404,
           { status => 'error', message => 'Not found' }, 'another competition in the path: 404');
check_json(req(GET => '/b/competition/2/zone/27/heat/254/voie/2015/history', $editor), 404,
           { status => 'error', message => 'Not found' }, 'variant A disabled: 404');
my $r405 = req(PUT => $H, $editor, { score => '1' });
is($r405->code, 405, 'PUT on the history: 405');
is($r405->header('Allow'), 'GET, HEAD', 'Allow: GET, HEAD');
is(req(PUT => $V, $editor, { score => 'not a load' })->code, 400, 'a refused PUT (400)');
is(req(PUT => $V, $editor, { number => 1 })->code, 409, 'a refused PUT (409)');
($res, $d) = history();
is(scalar @{ $d->{history} }, scalar @old, 'refused writes record nothing');

# two accepted PUTs
my $t0 = time;
my $lane1 = lane_obj(2015, 254, 2, '156', 'Masters of Disaster', '92.5 kg', '1:05');
check_json(req(PUT => $V, $editor, { score => '92.5 kg', tiebreak => '1:05' }), 200,
           { status => 'success', voie => $lane1 }, 'PUT score and tiebreak');
my $lane2 = lane_obj(2015, 254, 2, '156', 'Masters of Disaster', '205 lb', '1:05');
check_json(req(PUT => $V, $editor, { score => '205 lb' }), 200,
           { status => 'success', voie => $lane2 }, 'PUT another score');
($res, $d) = history();
my @new = grep { $_->{id} > $last } @{ $d->{history} };
is(scalar @new, 2, 'two records');
ok(!defined json_cmp($new[0]{before}, $lane0) && !defined json_cmp($new[0]{after}, $lane1)
   && !defined json_cmp($new[1]{before}, $lane1) && !defined json_cmp($new[1]{after}, $lane2),
   'before and after of each change, as the API showed the lane')
    or diag(explain(\@new));
ok(!grep({ $_->{user} ne 'judge' || $_->{action} ne 'update' } @new), 'by judge, action update');
ok(!grep({ $_->{at} !~ /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/ } @new), 'at: ISO 8601 UTC');
ok(!grep({ $_->{id} !~ /^[1-9][0-9]*$/ } @new) && $new[0]{id} < $new[1]{id}, 'ids: strings of digits, increasing');
my @all = @{ $d->{history} };
ok(!grep({ $all[$_ - 1]{id} >= $all[$_]{id} } 1 .. $#all), 'oldest first');
my $etag = $res->header('ETag');
is(req(GET => $H, $editor, undef, { 'If-None-Match' => $etag })->code, 304, 'If-None-Match: 304');
is(req(HEAD => $H, $editor)->content, '', 'HEAD: no body');

# DELETE: recorded, and the history of the deleted lane stays readable
check_json(req(DELETE => $V, $editor), 200, { status => 'success' }, 'DELETE the lane');
($res, $d) = history();
is($res->code, 200, 'the history of a deleted lane still answers 200');
@new = grep { $_->{id} > $last } @{ $d->{history} || [] };
ok(@new == 3 && $new[2]{action} eq 'delete' && !defined json_cmp($new[2]{before}, $lane2)
   && !defined $new[2]{after}, 'the delete is recorded: before the lane, after null')
    or diag(explain(\@new));
isnt($res->header('ETag'), $etag, 'a new ETag');

# put the lane back as it was (no route creates a lane)
my ($rc, $out) = db_exec("INSERT INTO lane (id, heat_id, number, spot_id, score, score_status, published_score) "
                         . "VALUES (2015, 254, 2, 156, '88kg', 'entered', '88kg')");
is($rc, 0, 'lane 2015 put back') or diag($out);
check_json(req(GET => $V, $reader), 200, { status => 'success', voie => $lane0 }, 'lane 2015 as in the demo again');

done_testing();
