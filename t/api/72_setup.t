# Setup and day-of changes (API.md part 3): an organizer builds a competition through
# the API (POST of a competition, WODs, spots, zones, heats, lanes), changes it
# (PATCH, application/json and application/merge-patch+json), moves a heat to
# another zone, and deletes it all again (DELETE 200, then 404).  201 + Location +
# the resource as a GET shows it; the roles (403 for readers and editors, a
# server-wide organizer to create a competition); 404, 405, 415, 400 in the
# contract's order.  Works on a competition of its own, deleted at the end.
# tests: 141 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $org = login('organizer', 'organizer');
my $judge = login('judge', 'judge');
my $demo = login('demo', 'demo');
ok(defined $org && defined $judge && defined $demo, 'organizer, judge and demo log in')
    or die "cannot log in\n";
END { admin('revoke-grant', 'judge', '--competition', '2') }

# post_ok(PATH, BODY, KEY, EXPECTED, NAME) -> the new resource (4 tests): 201, the body
# as expected (id aside), Location names it, a GET of Location shows the same
sub post_ok {
    my ($path, $body, $key, $exp, $name) = @_;
    my $res = req(POST => $path, $org, $body);
    my $d = decode($res);
    is($res->code, 201, "$name: 201") or diag($res->content);
    my $got = ref $d eq 'HASH' ? $d->{$key} : undef;
    my $id = ref $got eq 'HASH' ? $got->{id} : undef;
    ok(defined $id && $id =~ /^[1-9][0-9]*$/, "$name: an id") or diag($res->content);
    my $want = { %$exp, id => $id };
    check_json($res, 201, { status => 'success', $key => $want }, "$name: the resource as stored");
    my $loc = $res->header('Location') // '';
    my $want_loc = $path =~ m{/$} ? "$path$id" : "$path/$id";
    is($loc, $want_loc, "$name: Location");
    return ($want, $loc);
}

# ---- a competition ----
my %cbody = (name => 'API Setup Cup', location => 'Nantes', start_date => '2026-12-05',
             end_date => '2026-12-06', timezone => 'Europe/Paris');
check_error(req(POST => '/api/competition/', $judge, \%cbody), 403, 'Forbidden',
            'an editor cannot create a competition');
check_error(req(POST => '/api/competition/', $demo, \%cbody), 403, 'Forbidden',
            'a reader cannot create a competition');
admin_ok('grant judge organizer on competition 2', 'grant', 'judge', 'organizer',
         '--competition', '2');
check_error(req(POST => '/api/competition/', $judge, \%cbody), 403, 'Forbidden',
            'an organizer of one competition only cannot create one (server-wide)');
my ($comp, $C) = post_ok('/api/competition/', \%cbody, 'competition',
    { %cbody, status => 'upcoming', ranking => 'places',
      publication => 'immediate', advance => undef }, 'POST competition');
my $c = $comp->{id};
check_json(req(GET => $C, $demo), 200, { status => 'success', competition => $comp },
           'GET of the new competition');
check_error(req(PATCH => $C, $judge, { status => 'in_progress' }), 403, 'Forbidden',
            'an editor cannot PATCH it (its grant is on competition 2)');
my ($c2, $C2) = post_ok('/api/competition', { name => 'Second' }, 'competition',
    { name => 'Second', location => undef, start_date => undef, end_date => undef,
      timezone => undef, status => 'upcoming', ranking => 'places',
      publication => 'immediate', advance => undef },
    'POST competition without the trailing slash, only a name');

# ---- PATCH ----
$comp->{status} = 'in_progress';
check_json(req(PATCH => $C, $org, { status => 'in_progress' }), 200,
           { status => 'success', competition => $comp }, 'PATCH status: 200, as stored');
$comp->{location} = undef;
check_json(req(PATCH => $C, $org, '{"location":null}',
               { 'Content-Type' => 'application/merge-patch+json' }), 200,
           { status => 'success', competition => $comp },
           'PATCH application/merge-patch+json, null empties a nullable field');
check_json(req(GET => $C, $demo), 200, { status => 'success', competition => $comp },
           'GET shows the changes');
check_error(req(PATCH => $C, $org, '{"status":"finished"}', { 'Content-Type' => 'text/plain' }),
            415, undef, 'PATCH text/plain: 415');
check_error(req(PATCH => $C, $org, {}), 400, undef, 'PATCH {}: 400');
check_error(req(PATCH => $C, $org, { name => undef }), 400, undef, 'PATCH name null: 400');
check_error(req(PATCH => $C, $org, { id => '9' }), 400, undef, 'PATCH of the id: 400');
check_error(req(PATCH => $C, $org, { end_date => '2026-12-01' }), 400, undef,
            'PATCH end_date before the stored start_date: 400');
check_error(req(PATCH => $C, $org, '{"name":"a","name":"b"}'), 400, undef,
            'duplicate key: 400');
check_json(req(GET => $C, $demo), 200, { status => 'success', competition => $comp },
           '... nothing changed');
check_error(req(PATCH => '/api/competition/999999', $org, { status => 'finished' }), 404,
            'Not found', 'PATCH of a competition that does not exist: 404');
check_error(req(PATCH => '/api/competition/999999', $org, 'x', { 'Content-Type' => 'text/plain' }),
            404, 'Not found', '... 404 before 415');

# ---- 405 and Allow ----
check_405(req(PUT => '/api/competition/', $org, {}), 'GET, HEAD, POST', 'PUT on the list');
check_405(req(POST => $C, $org, {}), 'GET, HEAD, PATCH, DELETE', 'POST on a competition');
check_405(req(PATCH => "/api/competition/$c/heat/1", $org, {}), 'GET, HEAD',
          'PATCH on a variant B heat (read-only)');
check_405(req(PUT => "/api/competition/$c/wod/1", $org, {}), 'GET, HEAD, PATCH, DELETE',
          'PUT on a WOD');

# ---- WODs, spots, zones ----
my ($w1, $W1) = post_ok("$C/wod/", { name => 'Fran', scoring => 'time', time_cap => 600 }, 'wod',
    { name => 'Fran', description => '', competition_id => $c, position => 1, scoring => 'time',
      time_cap => 600 }, 'POST wod');
my ($w2, $W2) = post_ok("$C/wod/", { name => 'Max DL', scoring => 'load', description => '1RM' },
    'wod', { name => 'Max DL', description => '1RM', competition_id => $c, position => 2,
             scoring => 'load', time_cap => undef }, 'POST wod: position one more');
check_error(req(POST => "$C/wod/", $org, { name => 'x' }), 400, undef, 'POST wod without scoring: 400');
check_error(req(POST => "$C/wod/", $judge, { name => 'x', scoring => 'time' }), 403, 'Forbidden',
            'an editor cannot POST a WOD');
check_error(req(POST => '/api/competition/999999/wod/', $org, { name => 'x', scoring => 'time' }),
            404, 'Not found', 'POST wod in a competition that does not exist: 404');
$w2->{position} = 5;
check_json(req(PATCH => $W2, $org, { position => 5 }), 200, { status => 'success', wod => $w2 },
           'PATCH wod position');
check_error(req(PATCH => "/api/competition/1/wod/$w2->{id}", $org, { position => 3 }), 404,
            'Not found', 'PATCH wod under another competition: 404');

my ($s1, $S1) = post_ok("$C/spot/", { name => 'Iron Lions', division => 'RX', bib => 1 }, 'spot',
    { competition_id => $c, name => 'Iron Lions', division => 'RX', affiliate => undef, bib => 1 },
    'POST spot');
my ($s2, $S2) = post_ok("$C/spot/", { name => 'Steel Owls' }, 'spot',
    { competition_id => $c, name => 'Steel Owls', division => undef, affiliate => undef,
      bib => undef }, 'POST spot without bib');
$s2->{bib} = 2; $s2->{affiliate} = 'CrossFit Nantes';
check_json(req(PATCH => $S2, $org, { bib => 2, affiliate => 'CrossFit Nantes' }), 200,
           { status => 'success', spot => $s2 }, 'PATCH spot');
check_error(req(POST => "$C/spot/", $org, { name => 'x', bib => '3' }), 400, undef,
            'a bib as a string: 400');

my ($z1, $Z1) = post_ok("$C/zone/", { name => 'Floor A', lane_count => 4 }, 'zone',
    { competition_id => $c, name => 'Floor A', lane_count => 4 }, 'POST zone');
my ($z2, $Z2) = post_ok("$C/zone/", { name => 'Floor B', lane_count => 8 }, 'zone',
    { competition_id => $c, name => 'Floor B', lane_count => 8 }, 'POST zone 2');

# ---- heats and lanes ----
my ($h1, $H1) = post_ok("$Z1/heat/", { number => 1, wod_id => $w1->{id},
                                       start_time => '2026-12-05T09:00:00Z' }, 'heat',
    { competition_id => $c, zone_id => $z1->{id}, wod_id => $w1->{id}, number => 1,
      start_time => '2026-12-05T09:00:00Z', status => 'scheduled' }, 'POST heat');
check_error(req(POST => "$Z1/heat/", $org, { number => 2, zone_id => $z2->{id} }), 400, undef,
            'a heat POST with zone_id: 400 (the path\'s)');
check_error(req(POST => "$Z1/heat/", $org, { number => 2, wod_id => '11' }), 400, undef,
            'a heat POST with a WOD of another competition: 400');
my ($l1, $L1) = post_ok("$H1/voie/", { number => 2, spot_id => $s1->{id} }, 'voie',
    { heat_id => $h1->{id}, number => 2, spot_id => $s1->{id}, spot_name => 'Iron Lions',
      score => undef, tiebreak => undef, score_status => undef }, 'POST lane');
my ($l2, $L2) = post_ok("$H1/voie", { number => 1, spot_id => $s2->{id}, score => '7:45' }, 'voie',
    { heat_id => $h1->{id}, number => 1, spot_id => $s2->{id}, spot_name => 'Steel Owls',
      score => '7:45', tiebreak => undef, score_status => 'entered' }, 'POST lane with a score');
check_error(req(POST => "$H1/voie/", $org, { number => 3, score => '12:00' }), 400, undef,
            'a lane POST with a score beyond the WOD\'s cap: 400');
check_error(req(POST => "$H1/voie/", $org, { number => 3, spot_id => '151' }), 400, undef,
            'a lane POST with a spot of another competition: 400');
check_error(req(POST => "$H1/voie/", $judge, { number => 3 }), 403, 'Forbidden',
            'an editor cannot POST a lane');
is(req(PUT => $L1, $demo, { score => '8:01' })->code, 403, 'a reader cannot PUT a lane');
check_json(req(GET => "$H1/voie/", $demo), 200,
           { status => 'success', voies => [$l2, $l1] }, 'the heat\'s lanes, by number');

$h1->{status} = 'running';
check_json(req(PATCH => $H1, $org, { status => 'running' }), 200,
           { status => 'success', heat => $h1 }, 'PATCH heat status running');
# move the heat to zone 2: found under its new zone only
$h1->{zone_id} = $z2->{id};
check_json(req(PATCH => $H1, $org, { zone_id => $z2->{id} }), 200,
           { status => 'success', heat => $h1 }, 'PATCH heat zone_id: moved');
check_error(req(GET => $H1, $demo), 404, 'Not found', 'the heat under its former zone: 404');
my $H1b = "$Z2/heat/$h1->{id}";
check_json(req(GET => $H1b, $demo), 200, { status => 'success', heat => $h1 },
           'the heat under its new zone');
check_json(req(GET => "$H1b/voie/$l1->{id}", $demo), 200, { status => 'success', voie => $l1 },
           'its lanes moved with it');
check_error(req(PATCH => $H1b, $org, { zone_id => '21' }), 400, undef,
            'PATCH heat zone_id of another competition: 400');
check_error(req(PATCH => $H1b, $org, { zone_id => undef }), 400, undef, 'zone_id null: 400');

# ---- 400: every kind of bad body, per resource; nothing is created or changed ----
my @bad = (
    ["$C/wod/", { name => 'x', scoring => 'time', time_cap => 0 }, 'time_cap 0'],
    ["$C/wod/", { name => 'x', scoring => 'time', time_cap => '720' }, 'time_cap as a string'],
    ["$C/wod/", { name => 'x', scoring => 'speed' }, 'an unknown scoring'],
    ["$C/wod/", { name => ' ', scoring => 'reps' }, 'a blank name'],
    ["$C/wod/", { name => 'x', scoring => 'reps', description => undef }, 'description null'],
    ["$C/wod/", { name => 'x', scoring => 'reps', id => '5' }, 'an id'],
    ["$C/wod/", { name => 'x', scoring => 'reps', competition_id => $c }, 'competition_id'],
    ["$C/spot/", { name => 'x', bib => 0 }, 'bib 0'],
    ["$C/spot/", { name => 'x', bib => 1.5 }, 'bib 1.5'],
    ["$C/spot/", { name => 'x', division => '' }, 'an empty division'],
    ["$C/spot/", { name => 'x', team => 'y' }, 'an unknown key'],
    ["$C/zone/", { name => 'x', lane_count => 1000 }, 'lane_count 1000'],
    ["$C/zone/", { name => 'x' }, 'no lane_count'],
    ["$Z2/heat/", { number => 0 }, 'number 0'],
    ["$Z2/heat/", { number => 1, start_time => '2026-12-05 09:00:00' }, 'a start_time not UTC ISO'],
    ["$Z2/heat/", { number => 1, status => 'done' }, 'an unknown status'],
    ["$Z2/heat/", { number => 1, wod_id => 16 }, 'wod_id as a number'],
    ['/api/competition/', { name => 'x', start_date => '2026-02-30' }, 'a date that does not exist'],
    ['/api/competition/', { name => 'x', timezone => 'Paris time' }, 'a timezone not IANA-shaped'],
    ['/api/competition/', { name => 'x', start_date => '2026-12-06', end_date => '2026-12-05' },
     'end_date before start_date'],
    ['/api/competition/', '[]', 'an array'],
    ['/api/competition/', '{"name":"x"} {}', 'trailing data'],
);
my $lists_before = join '|', map { req(GET => $_, $org)->content } '/api/competition/', "$C/wod/",
                                 "$C/spot/", "$C/zone/", "$Z2/heat/";
for my $b (@bad) {
    my ($path, $body, $what) = @$b;
    my $res = req(POST => $path, $org, $body);
    my $d = decode($res);
    ok($res->code == 400 && ref $d eq 'HASH' && ($d->{message} // '') =~ /^Invalid body: /,
       "POST $what: 400 Invalid body: ...") or diag($res->code . ' ' . $res->content);
}
is(join('|', map { req(GET => $_, $org)->content } '/api/competition/', "$C/wod/", "$C/spot/",
        "$C/zone/", "$Z2/heat/"), $lists_before, 'nothing was created');

# ---- DELETE, then 404 ----
check_error(req(DELETE => $H1b, $judge), 403, 'Forbidden', 'an editor cannot DELETE a heat');
is(req(PUT => "$H1b/voie/$l2->{id}", $org, { score => undef })->code, 200,
   'the organizer empties the score (so the heat may go)');
check_json(req(DELETE => $H1b, $org), 200, { status => 'success' }, 'DELETE heat: 200');
check_error(req(DELETE => $H1b, $org), 404, 'Not found', 'DELETE heat again: 404');
check_error(req(GET => "$H1b/voie/$l1->{id}", $demo), 404, 'Not found', 'its lanes are gone');
for ([$S1, 'spot'], [$S2, 'spot 2'], [$W1, 'wod'], [$W2, 'wod 2'], [$Z1, 'zone'], [$Z2, 'zone 2']) {
    my ($p, $what) = @$_;
    check_json(req(DELETE => $p, $org), 200, { status => 'success' }, "DELETE $what: 200");
    check_error(req(GET => $p, $demo), 404, 'Not found', "$what: then 404");
}
check_error(req(DELETE => $C, $judge), 403, 'Forbidden', 'an editor cannot DELETE a competition');
check_json(req(DELETE => $C, $org), 200, { status => 'success' }, 'DELETE competition: 200');
check_error(req(DELETE => $C, $org), 404, 'Not found', 'DELETE competition again: 404');
check_json(req(DELETE => $C2, $org), 200, { status => 'success' }, 'DELETE the second one');
# an id is not given twice (the change log remembers it)
my ($c3, $C3) = post_ok('/api/competition/', { name => 'Third' }, 'competition',
    { name => 'Third', location => undef, start_date => undef, end_date => undef,
      timezone => undef, status => 'upcoming', ranking => 'places',
      publication => 'immediate', advance => undef }, 'POST after the deletes');
check_json(req(DELETE => $C3, $org), 200, { status => 'success' }, 'DELETE it');

done_testing();
