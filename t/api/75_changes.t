# The change log of a competition (API.md part 3): every accepted setup change is
# recorded in the write's transaction (who, when, create/update/delete, which
# resource, before and after), listed by GET /competition/{c}/changes (organizers;
# paged like every list), and pushed on the event stream as "event: change" (a lane
# created by POST: "event: lane", action create, and a lane history record of action
# create); Last-Event-ID replays both kinds in id order; a PATCH of a heat's status
# reaches an open stream within 1 s; a refused write records nothing; a non-lane
# change (a spot renamed, a heat deleted with its lanes, a WOD's scoring) shows in the
# leaderboard at once (its inputs are read again, never patched wrongly).  Works on
# competitions of its own, deleted at the end.
# tests: 58 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(time);
use Apache::Test ();
use Apache::TestRequest ();
use RankingTest;
use SseClient;

my $org = login('organizer', 'organizer');
my $judge = login('judge', 'judge');
my $demo = login('demo', 'demo');
ok(defined $org && defined $judge && defined $demo, 'organizer, judge and demo log in')
    or die "cannot log in\n";
sub made { my ($path, $body, $key) = @_;
    my $res = req(POST => $path, $org, $body);
    die "POST $path: " . $res->status_line . ' ' . $res->content . "\n" unless $res->code == 201;
    return (decode($res)->{$key}, $res->header('Location'));
}
sub stream { SseClient::open(Apache::TestRequest::hostport(Apache::Test::config()), @_) }
sub changes { my ($C, $q) = @_; my $res = req(GET => "$C/changes" . ($q // ''), $org);
    return ($res, decode($res)) }

my ($comp, $C) = made('/api/competition/', { name => 'Changelog Classic' }, 'competition');
my $c = $comp->{id};
my $st = stream("$C/events", $org);
like($st->{head}, qr{^HTTP/1\.1 200}, 'an event stream of the new competition');

my ($w, $W) = made("$C/wod/", { name => 'Isabel', scoring => 'time', time_cap => 600 }, 'wod');
my ($s1, $S1) = made("$C/spot/", { name => 'Red', division => 'RX', bib => 1 }, 'spot');
my ($s2, $S2) = made("$C/spot/", { name => 'Blue', division => 'RX', bib => 2 }, 'spot');
my ($z, $Z) = made("$C/zone/", { name => 'Floor', lane_count => 4 }, 'zone');
my ($h, $H) = made("$Z/heat/", { number => 1, wod_id => $w->{id} }, 'heat');
my ($l1, $L1) = made("$H/voie/", { number => 1, spot_id => $s1->{id}, score => '5:00' }, 'voie');
my ($l2, $L2) = made("$H/voie/", { number => 2, spot_id => $s2->{id}, score => '6:00' }, 'voie');

# ---- a PATCH of a heat's status reaches the open stream within 1 s ----
my $t0 = time;
my $res = req(PATCH => $H, $org, { status => 'running' });
is($res->code, 200, 'PATCH the heat: running');
my $text = SseClient::read($st, 5, qr/"resource":"heat","id":"$h->{id}"[^\n]*"status":"running"/);
my $dt = time - $t0;
ok($text =~ /"status":"running"/ && $dt < 1.0, sprintf('the heat\'s change reached the stream in %.3f s (< 1 s)', $dt));
my @ev = SseClient::events($text);
my @kinds = map { $_->{event} . ':' . ((decode($_->{data}) // {})->{resource} // 'lane') } @ev;
is("@kinds", 'change:wod change:spot change:spot change:zone change:heat lane:lane lane:lane change:heat',
   'the stream got every change, in order, of both kinds');
my $hev = decode($ev[-1]{data}) // {};
is_deeply($hev, { action => 'update', resource => 'heat', id => $h->{id}, competition_id => $c,
                  heat => { %$h, status => 'running' } }, 'event: change of the heat, as documented');
my $lev = decode($ev[5]{data}) // {};
is($lev->{action}, 'create', 'a lane created by POST: event: lane, action create');
is_deeply($lev->{voie}, $l1, '... with the lane as shown');
my @ids = map { $_->{id} } @ev;
is_deeply(\@ids, [sort { $a <=> $b } @ids], 'event ids in order');

# ---- a delete carries no body; a refused write records nothing ----
my ($r0, $d0) = changes($C);
my $total = $r0->header('X-Total-Count');
is(req(DELETE => $S1, $org)->code, 409, 'DELETE a spot that is in a lane: 409');
my ($r1) = changes($C);
is($r1->header('X-Total-Count'), $total, '... no record for the refused write');
my ($s3, $S3) = made("$C/spot/", { name => 'Spare' }, 'spot');
is(req(DELETE => $S3, $org)->code, 200, 'DELETE an unused spot');
$text = SseClient::read($st, 5, qr/"action":"delete","resource":"spot"/);
my ($del) = grep { ($_->{data} // '') =~ /"action":"delete"/ } SseClient::events($text);
is_deeply(decode($del->{data} // 'null'), { action => 'delete', resource => 'spot', id => $s3->{id},
                                            competition_id => $c }, 'event: change of a delete: no body');
SseClient::close($st);

# ---- GET .../changes: organizers only, paged like every list ----
check_error(req(GET => "$C/changes", $demo), 403, 'Forbidden', 'a reader: 403');
check_error(req(GET => "$C/changes", $judge), 403, 'Forbidden', 'an editor: 403');
check_error(req(GET => '/api/competition/999999/changes', $org), 404, 'Not found',
            'a competition that does not exist: 404');
my ($rl, $dl) = changes($C);
is($rl->code, 200, 'the organizer reads the change log');
my @log = @{ $dl->{changes} // [] };
is(scalar @log, $rl->header('X-Total-Count'), 'X-Total-Count: every record');
is($log[0]{resource} . ' ' . $log[0]{action}, 'competition create', 'the first: the competition created');
is_deeply($log[0]{after}, $comp, '... its after: the competition as shown');
is($log[0]{before}, undef, '... no before');
is($log[0]{user}, 'organizer', '... by the organizer');
like($log[0]{at}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, '... at an instant UTC');
my ($patch) = grep { $_->{resource} eq 'heat' && $_->{action} eq 'update' } @log;
is($patch->{before}{status}, 'scheduled', 'the heat PATCH: before');
is($patch->{after}{status}, 'running', '... and after');
is($patch->{resource_id} . ' ' . $patch->{zone_id} . ' ' . $patch->{heat_id},
   "$h->{id} $z->{id} $h->{id}", '... its id, zone and heat');
my ($lc) = grep { $_->{resource} eq 'lane' } @log;
is($lc->{action} . ' ' . $lc->{resource_id} . ' ' . $lc->{heat_id}, "create $l1->{id} $h->{id}",
   'a lane record: create, the lane and its heat');
my ($sd) = grep { $_->{resource} eq 'spot' && $_->{action} eq 'delete' } @log;
is_deeply([$sd->{before}, $sd->{after}], [$s3, undef], 'a delete: before, after null');
my @lid = map { $_->{id} } @log;
is_deeply(\@lid, [sort { $a <=> $b } @lid], 'oldest first');
($res) = changes($C, '?limit=3&offset=2');
is(scalar @{ (decode($res) // {})->{changes} // [] }, 3, 'a page of 3');
like($res->header('Link') // '', qr/offset=5>; rel="next"/, 'Link to the next page');
is($res->header('X-Total-Count'), scalar @log, 'X-Total-Count on a page');
check_error(req(GET => "$C/changes?limit=0", $org), 400, 'Invalid query', 'a bad limit: 400');
is(req(GET => "$L1/history", $judge)->code, 200, 'the new lane has a history');
my $hist = decode(req(GET => "$L1/history", $judge))->{history} // [];
is($hist->[0]{action} . ' ' . (defined $hist->[0]{before} ? 'x' : 'null'), 'create null',
   'its first record: create, before null');
admin_ok('grant judge organizer on the competition', 'grant', 'judge', 'organizer', '--competition', $c);
is(req(GET => "$C/changes", $judge)->code, 200, 'an organizer granted there reads it');
admin_ok('revoke-grant', 'revoke-grant', 'judge', '--competition', $c);

# ---- Last-Event-ID replays both kinds, in id order ----
my $replay = stream("$C/events", $org, "Last-Event-ID: $log[0]{id}");
$text = SseClient::read($replay, 5, qr/"action":"delete","resource":"spot"[^\n]*\n\n/);
SseClient::close($replay);
my @rep = SseClient::events($text);
is_deeply([map { $_->{id} } @rep], [@lid[1 .. $#lid]], 'the replay: every record after the id, in order');
ok((grep { $_->{event} eq 'lane' } @rep) && (grep { $_->{event} eq 'change' } @rep),
   '... lane and change events alike');

# ---- the leaderboard after non-lane changes: read again, right at once ----
my $LB = "$W/leaderboard";   # the WOD's: no score, no rank
sub board { my $d = decode(req(GET => $LB, $demo)) // {};
    return join ',', map { "$_->{spot_name}:" . ($_->{rank} // '-') }
                     map { @{ $_->{entries} } } @{ $d->{leaderboard}{divisions} // [] } }
is(board(), 'Red:1,Blue:2', 'the leaderboard: Red first (5:00)');
is(req(PATCH => $S1, $org, { name => 'Crimson' })->code, 200, 'rename a spot (one revision step, one record)');
is(board(), 'Crimson:1,Blue:2', '... the leaderboard shows the new name at once');
is(req(PUT => $L2, $judge, { score => '4:00' })->code, 200, 'a lane PUT');
is(board(), 'Blue:1,Crimson:2', '... followed');
is(req(PATCH => $W, $org, { time_cap => 500 })->code, 200, 'a WOD\'s time_cap that every score fits');
is(req(PUT => $L2, $judge, { score => undef })->code, 200, 'Blue\'s score emptied');
is(req(PUT => $L1, $judge, { score => undef })->code, 200, 'Crimson\'s too');
is(board(), 'Crimson:-,Blue:-', 'no score, no rank');
is(req(DELETE => $H, $org)->code, 200, 'DELETE the heat with its lanes (several revision steps)');
is(board(), 'Crimson:-,Blue:-', 'the leaderboard after the heat delete');

# ---- ids are not given twice ----
is(req(DELETE => $_, $org)->code, 200, "DELETE $_") for $S1, $S2, $W, $Z, $C;
my ($again) = made('/api/competition/', { name => 'Changelog Classic again' }, 'competition');
ok($again->{id} > $c, "a new competition gets a new id ($again->{id} > $c), the change log remembers $c");
is(req(DELETE => "/api/competition/$again->{id}", $org)->code, 200, 'DELETE it');

done_testing();
