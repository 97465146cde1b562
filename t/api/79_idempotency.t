# Safe retries (API.md part 3, "Safe retries"): the Idempotency-Key header of a write.
# The first final answer (status and body) is kept per user and key; a repeat of the
# same request (method, path, body bytes) gets it again with Idempotent-Replayed:
# true and changes nothing (no second history record, no second event); the key with
# another request is 422; a malformed key is 400, looked at after the token, route,
# method and role; a kept 4xx is replayed as well; keys are per user; a key older than
# 24 hours is new again; two concurrent requests with one new key apply it once.
#
# Its data: competition 9270 (added by SQL at the start, deleted at the end with
# every key kept for it): WOD 9271 (reps) with heat 9277 in zone 9272 (6 lanes),
# lanes 9281 to 9284, spots 9273 to 9276; WOD 9278 without heats (generate-heats).
# tests: 64 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;
use SseClient;

my $FIXTURE = "INSERT INTO competition (id, name, start_date) VALUES (9270, 'Retry Cup', '2026-12-12');\n"
    . "INSERT INTO wod (id, competition_id, name, description, position, scoring) VALUES "
    . "(9271, 9270, 'Burpees', '', 1, 'reps'), (9278, 9270, 'Row', '', 2, 'reps');\n"
    . "INSERT INTO spot (id, competition_id, name, division, bib) VALUES (9273, 9270, 'Ant', 'RX', 1), "
    . "(9274, 9270, 'Bee', 'RX', 2), (9275, 9270, 'Cat', 'RX', 3), (9276, 9270, 'Dog', 'RX', 4);\n"
    . "INSERT INTO zone (id, competition_id, name, lane_count) VALUES (9272, 9270, 'Floor', 6);\n"
    . "INSERT INTO heat (id, competition_id, zone_id, wod_id, number, status) VALUES "
    . "(9277, 9270, 9272, 9271, 1, 'running');\n"
    . "INSERT INTO lane (id, heat_id, number, spot_id, score, score_status) VALUES "
    . "(9281, 9277, 1, 9273, NULL, NULL), (9282, 9277, 2, 9274, NULL, NULL), "
    . "(9283, 9277, 3, 9275, '10', 'entered'), (9284, 9277, 4, 9276, NULL, NULL);\n";
my $CLEANUP = 'DELETE FROM idempotency_key WHERE path LIKE \'/api/competition/9270/%\'; '
    . 'DELETE FROM lane WHERE heat_id IN (SELECT id FROM heat WHERE competition_id = 9270); '
    . 'DELETE FROM heat WHERE competition_id = 9270; DELETE FROM zone WHERE competition_id = 9270; '
    . 'DELETE FROM spot WHERE competition_id = 9270; DELETE FROM wod WHERE competition_id = 9270; '
    . 'DELETE FROM competition WHERE id = 9270;';

my ($rc, $out) = db_exec($FIXTURE);
is($rc, 0, 'competition 9270 added') or diag($out);
END { db_exec($CLEANUP) if defined $rc && $rc == 0 }

my $J = login('judge', 'judge');
my $R = login('demo', 'demo');
my $ORG = login('organizer', 'organizer');   # validations, heat generation, setup
# a second editor of its own (the organizer role is not served yet), deleted at the end
my $U2 = "idem$$";
admin_ok("ranking-admin add $U2 --role editor", { stdin => "Pw-$$-idem\n" }, 'add', $U2,
         '--role', 'editor');
END { admin('delete', $U2) }
my $O = login($U2, "Pw-$$-idem");
ok(defined $J && defined $O && defined $R && defined $ORG, 'judge, a second editor, demo and organizer log in') or die "cannot log in\n";

my $HEAT = '/api/competition/9270/zone/9272/heat/9277';
my $V1 = "$HEAT/voie/9281";
my $V2 = "$HEAT/voie/9282";
my $run = time . "-$$";   # keys of this run
sub key { return ('Idempotency-Key' => "$_[0]-$run") }
sub put { my ($path, $tok, $body, @h) = @_; return req(PUT => $path, $tok, $body, { @h }) }
sub history_n {
    my ($path) = @_;
    my $d = decode(req(GET => "$path/history", $J));
    return $d && ref $d->{history} eq 'ARRAY' ? scalar @{ $d->{history} } : -1;
}
sub replayed { return ($_[0]->header('Idempotent-Replayed') // '') eq 'true' }

# ---- a PUT, replayed: same answer, nothing changed, no second event ----
my $st = SseClient::open(Apache::TestRequest::hostport(Apache::Test::config()),
                         '/api/competition/9270/events', $J);
my $h0 = history_n($V1);
my $body = '{"score":"11"}';
my $first = put($V1, $J, $body, key('put'));
is($first->code, 200, 'PUT with a key: 200');
ok(!replayed($first), 'the first answer is not marked replayed');
is(history_n($V1), $h0 + 1, 'one history record');
my $again = put($V1, $J, $body, key('put'));
is($again->code, 200, 'the same PUT again: 200');
ok(replayed($again), 'Idempotent-Replayed: true');
is($again->content, $first->content, 'the same body');
is($again->header('ETag'), $first->header('ETag'), 'the same ETag');
is(history_n($V1), $h0 + 1, 'no second history record');
is(put($V1, $J, '{"score":"12"}')->code, 200, 'a PUT without a key (the marker on the stream)');
my $text = SseClient::read($st, 5, qr/"score":"12"/);
my @ev = grep { ($_->{data} // '') =~ /"id":"9281"/ } SseClient::events($text);
is(scalar(grep { $_->{data} =~ /"score":"11"/ } @ev), 1, 'one event for the PUT, none for its replay')
    or diag($text);
is(scalar(grep { $_->{data} =~ /"score":"12"/ } @ev), 1, 'the marker\'s event came');

# ---- the key with another request: 422 ----
check_error(put($V1, $J, '{"score":"13"}', key('put')), 422, 'Idempotency key reused', 'another body: 422');
check_error(put($V1, $J, '{"score": "11"}', key('put')), 422, 'Idempotency key reused',
            'the same JSON with other bytes: 422');
check_error(put($V2, $J, $body, key('put')), 422, 'Idempotency key reused', 'another path: 422');
check_error(req(DELETE => $V1, $J, undef, { key('put') }), 422, 'Idempotency key reused', 'another method: 422');
is(decode(req(GET => $V1, $J))->{voie}{score}, '12', 'the refusals changed nothing');

# ---- malformed keys: 400, after the role ----
for my $k (['', 'empty'], ['x' x 256, '256 characters'], ['a b', 'a space'], ["caf\x{e9}", 'not ASCII']) {
    my $hv = $k->[0];
    utf8::encode($hv);
    check_error(put($V2, $J, '{"score":"5"}', 'Idempotency-Key' => $hv), 400, 'Invalid header',
                "a key of $k->[1]: 400");
}
is(decode(req(GET => $V2, $J))->{voie}{score}, undef, 'the refused writes changed nothing');
my $long = put($V2, $J, '{"score":"5"}', 'Idempotency-Key' => ('k' x 240) . substr($run, 0, 15));
is($long->code, 200, 'a key of 255 visible characters: 200') or diag($long->content);
check_error(put($V2, $R, '{"score":"5"}', 'Idempotency-Key' => 'a b'), 403, 'Forbidden',
            'a reader with a malformed key: 403 first');
check_error(put('/api/competition/9270/zone/9272/heat/9277/voie/x', $J, '{"score":"5"}',
                'Idempotency-Key' => 'a b'), 404, 'Not found', 'an unknown route with a malformed key: 404 first');
is(req(POST => $V2, $J, '{"score":"5"}', { 'Idempotency-Key' => 'a b' })->code, 405,
   'a method the route does not take, with a malformed key: 405 first');
is(req(POST => '/api/connect', undef, { client_id => 'judge', client_secret => 'judge' },
       { 'Idempotency-Key' => 'a b' })->code, 200, '/connect ignores the header');

# ---- a 4xx answer is kept and replayed ----
my $bad = put($V2, $J, '{"score":"many"}', key('bad'));
is($bad->code, 400, 'a refused score: 400');
my $bad2 = put($V2, $J, '{"score":"many"}', key('bad'));
ok($bad2->code == 400 && replayed($bad2) && $bad2->content eq $bad->content, 'the 400 is replayed');
my $conf = put($V1, $J, '{"number":2}', key('conflict'));
is($conf->code, 409, 'a lane number in use: 409');
is((db_exec("UPDATE lane SET number = 5 WHERE id = 9282"))[0], 0, 'the number freed (SQL)');
my $conf2 = put($V1, $J, '{"number":2}', key('conflict'));
ok($conf2->code == 409 && replayed($conf2) && $conf2->content eq $conf->content,
   'the 409 is replayed, although the write would pass now') or diag($conf2->code, $conf2->content);
is(decode(req(GET => $V1, $J))->{voie}{number}, 1, 'and the lane kept its number');

# ---- keys are per user ----
my $o = put($V2, $O, '{"score":"7"}', key('put'));
ok($o->code == 200 && !replayed($o), 'another user\'s same key is a key of its own') or diag($o->content);

# ---- DELETE replayed: its first 200, not 404 ----
my $V4 = "$HEAT/voie/9284";
my $d1 = req(DELETE => $V4, $J, undef, { key('delete') });
is($d1->code, 200, 'DELETE with a key: 200');
my $d2 = req(DELETE => $V4, $J, undef, { key('delete') });
ok($d2->code == 200 && replayed($d2) && $d2->content eq $d1->content, 'the DELETE replayed: 200')
    or diag($d2->code, $d2->content);
is(req(DELETE => $V4, $J)->code, 404, 'a DELETE without the key: 404 (the lane is gone)');
is(history_n($V4), 1, 'the deleted lane\'s history: one record');

# ---- validate, replayed ----
my $V3 = "$HEAT/voie/9283";
my $h3 = history_n($V3);
my $v1 = req(POST => "$V3/validate", $ORG, undef, { key('validate') });
is($v1->code, 200, 'validate with a key: 200') or diag($v1->content);
my $v2 = req(POST => "$V3/validate", $ORG, undef, { key('validate') });
ok($v2->code == 200 && replayed($v2) && $v2->content eq $v1->content, 'validate replayed');
is(history_n($V3), $h3 + 1, 'one validate record');
my $vh = req(POST => "$HEAT/validate", $ORG, undef, { key('validate-heat') });
my $vh2 = req(POST => "$HEAT/validate", $ORG, undef, { key('validate-heat') });
ok($vh->code == 200 && $vh2->code == 200 && replayed($vh2) && $vh2->content eq $vh->content,
   'a heat\'s validate replayed');

# ---- generate-heats, replayed: the heats once ----
my $GEN = '/api/competition/9270/wod/9278/generate-heats';
my $gbody = '{"zone_id":"9272","order":"bib"}';
sub heats_n {
    my $d = decode(req(GET => '/api/competition/9270/zone/9272/heat/', $J));
    return $d && ref $d->{heats} eq 'ARRAY' ? scalar @{ $d->{heats} } : -1;
}
my $n0 = heats_n();
my $g1 = req(POST => $GEN, $ORG, $gbody, { key('gen') });
is($g1->code, 201, 'generate-heats with a key: 201') or diag($g1->content);
is(heats_n(), $n0 + 1, 'one heat made');
my $g2 = req(POST => $GEN, $ORG, $gbody, { key('gen') });
ok($g2->code == 201 && replayed($g2) && $g2->content eq $g1->content, 'generate-heats replayed: 201, the same heats')
    or diag($g2->code, $g2->content);
is(heats_n(), $n0 + 1, 'no second heat');
is(req(POST => $GEN, $ORG, $gbody)->code, 409, 'without the key: 409 (the WOD has heats in the zone now)');

# ---- setup writes (organizer): POST, PATCH, DELETE replayed ----
my $WODS = '/api/competition/9270/wod/';
sub wods_n { my $d = decode(req(GET => $WODS, $ORG)); return $d && ref $d->{wods} eq 'ARRAY' ? scalar @{ $d->{wods} } : -1 }
my $w0 = wods_n();
my $wbody = '{"name":"Sprint","scoring":"time"}';
my $p1 = req(POST => $WODS, $ORG, $wbody, { key('post') });
is($p1->code, 201, 'POST of a WOD with a key: 201') or diag($p1->content);
my $p2 = req(POST => $WODS, $ORG, $wbody, { key('post') });
ok($p2->code == 201 && replayed($p2) && $p2->content eq $p1->content
   && ($p2->header('Location') // '') eq ($p1->header('Location') // 'none')
   && ($p2->header('ETag') // '') eq ($p1->header('ETag') // 'none'),
   'the POST replayed: 201, the same body, Location and ETag') or diag($p2->code, $p2->content);
is(wods_n(), $w0 + 1, 'one WOD made');
my ($wid) = ($p1->header('Location') // '') =~ m{/wod/([0-9]+)$};
my $W = "/api/competition/9270/wod/" . ($wid // 0);
my $q1 = req(PATCH => $W, $ORG, '{"name":"Sprint 2"}', { key('patch') });
my $q2 = req(PATCH => $W, $ORG, '{"name":"Sprint 2"}', { key('patch') });
ok($q1->code == 200 && $q2->code == 200 && replayed($q2) && $q2->content eq $q1->content,
   'a PATCH replayed') or diag($q1->code, $q2->code);
check_error(req(PATCH => $W, $ORG, '{"name":"Sprint 3"}', { key('patch') }), 422, 'Idempotency key reused',
            'the PATCH\'s key with another body: 422');
my $x1 = req(DELETE => $W, $ORG, undef, { key('wod-delete') });
my $x2 = req(DELETE => $W, $ORG, undef, { key('wod-delete') });
ok($x1->code == 200 && $x2->code == 200 && replayed($x2), 'a WOD\'s DELETE replayed: 200, not 404');
is(wods_n(), $w0, 'the WOD is gone, once');

# ---- expiry: a key older than 24 hours is new again ----
my $kput = (key('put'))[1];
is((db_exec("UPDATE idempotency_key SET created_at = created_at - 90000 WHERE idem_key = '$kput'"))[0], 0,
   'the first PUT\'s key set back 25 hours (SQL)');
my $h1 = history_n($V1);
my $e = put($V1, $J, $body, key('put'));
ok($e->code == 200 && !replayed($e), 'the expired key: the PUT runs again');
is(history_n($V1), $h1 + 1, 'and is recorded');
my $e2 = put($V1, $J, $body, key('put'));
ok($e2->code == 200 && replayed($e2), 'the key is kept again from then on');

# ---- two concurrent requests with one new key: applied once ----
my $h2 = history_n($V2);
my @kids;
for my $i (1 .. 3) {
    pipe(my $rd, my $wr) or die "pipe: $!";
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        close $rd;
        local $RankingTest::UA = RankingTest::ua();
        my $res = put($V2, $J, '{"score":"21"}', key('race'));
        print {$wr} $res->code . ' ' . (replayed($res) ? 1 : 0) . ' ' . length($res->content) . "\n";
        close $wr;
        exit 0;
    }
    close $wr;
    push @kids, [$pid, $rd];
}
my @res;
for (@kids) {
    my $line = readline($_->[1]) // '';
    waitpid($_->[0], 0);
    push @res, [split / /, $line];
}
is(scalar(grep { ($_->[0] // 0) == 200 } @res), 3, 'three concurrent requests with one new key: 200');
is(scalar(grep { $_->[1] } @res), 2, 'two of them replayed');
ok(defined $res[0][2] && $res[0][2] eq ($res[1][2] // '') && $res[0][2] eq ($res[2][2] // ''), 'the same answer');
is(history_n($V2), $h2 + 1, 'one history record');

SseClient::close($st);
done_testing();
