# Setup and day-of changes: every 409 rule of API.md part 3's "Conflicts" list, and
# that nothing changed after it (the resource as a GET shows it, and the data
# revision: the competition list's ETag); the 400s of a value that must name
# something of the competition.  Builds a competition of its own through the API and
# deletes it at the end.
# tests: 108 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $org = login('organizer', 'organizer');
ok(defined $org, 'organizer logs in') or die "cannot log in\n";

sub made { my ($path, $body, $key) = @_;
    my $res = req(POST => $path, $org, $body);
    die "POST $path: " . $res->status_line . ' ' . $res->content . "\n" unless $res->code == 201;
    return (decode($res)->{$key}, $res->header('Location'));
}
sub revision_tag { return req(GET => '/api/competition/', $org)->header('ETag') }

# refused(METHOD, PATH, BODY, MESSAGE_RE, NAME, [PATHS...]): 3 tests + 1 per path:
# 409 "Conflict: ..." matching MESSAGE_RE, the data revision unmoved, and each of
# PATHS (default PATH) shows what it showed before
sub refused {
    my ($method, $path, $body, $re, $name, @paths) = @_;
    @paths = ($path) unless @paths;
    my @before = map { req(GET => $_, $org)->content } @paths;
    my $tag = revision_tag();
    my $res = req($method, $path, $org, $body);
    my $d = decode($res);
    is($res->code, 409, "$name: 409") or diag($res->content);
    like(ref $d eq 'HASH' ? $d->{message} // '' : '', qr/^Conflict: .*$re/, "$name: message");
    is(revision_tag(), $tag, "$name: the data revision did not move");
    for my $i (0 .. $#paths) {
        is(req(GET => $paths[$i], $org)->content, $before[$i], "$name: $paths[$i] unchanged");
    }
}

# ---- the competition ----
my ($comp, $C) = made('/api/competition/', { name => 'Conflict Open' }, 'competition');
my ($w_time, $W_time) = made("$C/wod/", { name => 'Time', scoring => 'time', time_cap => 600 }, 'wod');
my ($w_reps, $W_reps) = made("$C/wod/", { name => 'Reps', scoring => 'reps' }, 'wod');
my ($w_free, $W_free) = made("$C/wod/", { name => 'Unused', scoring => 'points' }, 'wod');
my ($s1, $S1) = made("$C/spot/", { name => 'A', bib => 11 }, 'spot');
my ($s2, $S2) = made("$C/spot/", { name => 'B', bib => 12 }, 'spot');
my ($s3, $S3) = made("$C/spot/", { name => 'C' }, 'spot');
my ($z4, $Z4) = made("$C/zone/", { name => 'Four', lane_count => 4 }, 'zone');
my ($z2, $Z2) = made("$C/zone/", { name => 'Two', lane_count => 2 }, 'zone');
my ($z9, $Z9) = made("$C/zone/", { name => 'Nine', lane_count => 9 }, 'zone');
my ($h1, $H1) = made("$Z4/heat/", { number => 1, wod_id => $w_time->{id} }, 'heat');
my ($h2, $H2) = made("$Z4/heat/", { number => 2, wod_id => $w_reps->{id} }, 'heat');
my ($l1, $L1) = made("$H1/voie/", { number => 4, spot_id => $s1->{id}, score => '7:45' }, 'voie');
my ($l2, $L2) = made("$H1/voie/", { number => 1, spot_id => $s2->{id}, score => '9:30' }, 'voie');
my ($l3, $L3) = made("$H2/voie/", { number => 1, spot_id => $s3->{id} }, 'voie');
ok(1, 'a competition of 3 WODs, 3 spots, 3 zones, 2 heats and 3 lanes built');

# ---- competition ----
refused(DELETE => $C, undef, qr/WODs, spots, zones or heats/,
        'DELETE a competition that has WODs, spots, zones, heats');

# ---- WOD ----
refused(DELETE => $W_time, undef, qr/heat uses this WOD/, 'DELETE a WOD a heat uses');
refused(PATCH => $W_time, { time_cap => 500 }, qr/1 stored score of/,
        'a time_cap below a stored time (one score)');
refused(PATCH => $W_time, { scoring => 'reps' }, qr/2 stored scores of/,
        'a scoring that reads no stored score (two scores)');
is(req(PATCH => $W_time, $org, { time_cap => 571 })->code, 200,
   'a time_cap every stored score fits: 200');
is(req(PATCH => $W_reps, $org, { scoring => 'points' })->code, 200,
   'a scoring change of a WOD without scores: 200');

# ---- spot ----
refused(POST => "$C/spot/", { name => 'D', bib => 12 }, qr/bib/, 'POST a spot with a bib taken',
        "$C/spot/");
refused(PATCH => $S3, { bib => 11 }, qr/bib/, 'PATCH a spot to a bib taken');
is(req(PATCH => $S1, $org, { bib => 11, name => 'A2' })->code, 200, 'PATCH a spot keeping its bib: 200');
refused(DELETE => $S3, undef, qr/in a lane/, 'DELETE a spot that is in a lane');

# ---- zone ----
refused(PATCH => $Z4, { lane_count => 3 }, qr/lane_count/, 'lane_count below a used lane number');
is(req(PATCH => $Z4, $org, { lane_count => 5 })->code, 200, 'lane_count above every lane: 200');
refused(DELETE => $Z4, undef, qr/has heats/, 'DELETE a zone that has heats');

# ---- heat ----
refused(POST => "$Z4/heat/", { number => 2 }, qr/number/, 'POST a heat with a number taken in its zone',
        "$Z4/heat/");
refused(PATCH => $H2, { number => 1 }, qr/number/, 'PATCH a heat to a number taken');
refused(PATCH => $H1, { wod_id => $w_free->{id} }, qr/WOD cannot change/,
        'change the WOD of a heat with a score');
refused(DELETE => $H1, undef, qr/has a score/, 'DELETE a heat with a score', $H1, "$H1/voie/");
is(req(PATCH => $H1, $org, { status => 'running' })->code, 200, 'a heat with scores may run');
refused(PATCH => $H1, { status => 'scheduled' }, qr/scheduled again/,
        'set a heat with a score back to scheduled');
is(req(PATCH => $H1, $org, { status => 'finished' })->code, 200, '... or be finished');
refused(PATCH => $H1, { zone_id => $z2->{id} }, qr/lane_count/,
        'move a heat to a zone whose lane_count is below its lane numbers', $H1, "$Z2/heat/");
my ($h3, $H3) = made("$Z9/heat/", { number => 1 }, 'heat');
refused(PATCH => $H3, { zone_id => $z4->{id} }, qr/number/,
        'move a heat to a zone where its number is taken', $H3);
is(req(PATCH => $H2, $org, { wod_id => undef, status => 'scheduled' })->code, 200,
   'a heat without score: its WOD changes (to none)');

# ---- lane ----
refused(POST => "$H1/voie/", { number => 4 }, qr/number/, 'POST a lane with a number taken', "$H1/voie/");
refused(POST => "$H1/voie/", { number => 3, spot_id => $s1->{id} }, qr/spot/,
        'POST a lane with a spot already in the heat', "$H1/voie/");
refused(POST => "$H1/voie/", { number => 6 }, qr/lane_count/,
        'POST a lane whose number is above the zone\'s lane_count', "$H1/voie/");

# ---- 400s that the database decides (nothing changed either) ----
my $tag = revision_tag();
check_error(req(POST => "$Z4/heat/", $org, { number => 7, wod_id => '16' }), 400, undef,
            'a heat with a WOD of another competition: 400');
check_error(req(PATCH => $H2, $org, { zone_id => '26' }), 400, undef,
            'a heat moved to a zone of another competition: 400');
check_error(req(POST => "$H1/voie/", $org, { number => 2, spot_id => '151' }), 400, undef,
            'a lane with a spot of another competition: 400');
check_error(req(POST => "$H1/voie/", $org, { number => 2, score => '212' }), 400, undef,
            'a lane whose score does not fit the WOD: 400');
is(revision_tag(), $tag, '... the data revision did not move');

# ---- take it all down ----
for my $p ($L1, $L2, $L3) {
    is(req(DELETE => $p, $org)->code, 200, "DELETE $p");
}
for my $p ($H1, $H2, $H3, $S1, $S2, $S3, $W_time, $W_reps, $W_free, $Z4, $Z2, $Z9, $C) {
    is(req(DELETE => $p, $org)->code, 200, "DELETE $p");
}

done_testing();
