# Scores entered, validated, published (API.md part 3): the competition's
# publication, the lane's score_status and published values, the validate routes, and
# the two views of every read (lanes of both variants, lists and single, leaderboards
# per WOD, overall, per division, gzip, 304, event streams, the public mount).
#
# Its data: competition 9001 "Validation Cup" (publication 'validated'), added at the
# start by SQL and deleted at the end, so that no other test's expectations change
# (the demo's competitions all publish immediately).  Ids far from the demo's ranges.
# The expected leaderboards are those of t/lib/RankingRef.pm, computed from this
# file's own table of the lanes (kept as the test changes them): on the current
# values for the full view, on the published values for the published view.
# Competition 2 (publication 'immediate') checks that nothing changes there.
# tests: 137 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use JSON::PP ();
use IO::Uncompress::Gunzip ();
use Time::HiRes qw(time sleep);
use Apache::Test ();
use Apache::TestRequest ();
use RankingTest;
use RankingRef;
use SseClient;

# Who validates: an organizer (a judge, an editor, gets 403).
my $VALIDATOR = 'organizer';

my $editor = login('judge', 'judge');
my $reader = login('demo', 'demo');
my $validator = $VALIDATOR eq 'judge' ? $editor : login($VALIDATOR, $VALIDATOR);
ok(defined $editor && defined $reader && defined $validator, 'judge, demo and the validator log in')
    or die "cannot log in\n";

# ---------------------------------------------------------------- the data
my %COMP = (id => 9001, name => 'Validation Cup', start_date => '2026-12-05', publication => 'validated');
my @WODS = ({ id => 9011, competition_id => 9001, name => 'Row', description => '', position => 1,
              scoring => 'reps', time_cap => undef },
            { id => 9012, competition_id => 9001, name => 'Lift', description => '', position => 2,
              scoring => 'load', time_cap => undef });
my @SPOTS = map { { id => $_->[0], competition_id => 9001, name => $_->[1], division => $_->[2],
                    affiliate => undef, bib => $_->[3] } }
            ([9101, 'Alpha', 'RX', 1], [9102, 'Bravo', 'RX', 2], [9103, 'Charlie', 'Scaled', 3],
             [9104, 'Delta', 'RX', 4]);
my @HEATS = ({ id => 9201, competition_id => 9001, zone_id => 9021, wod_id => 9011, number => 1,
               start_time => '2026-12-05T09:00:00Z', status => 'running' },
             { id => 9202, competition_id => 9001, zone_id => 9021, wod_id => 9012, number => 2,
               start_time => '2026-12-05T10:00:00Z', status => 'scheduled' });
# id => [heat, number, spot, score, tiebreak, score_status, published score, published tiebreak]
my %L = (
    9301 => [9201, 1, 9101, '120', undef, 'validated', '120', undef],
    9302 => [9201, 2, 9102, '130', undef, 'entered', '110', undef],     # validated 110, then 130
    9303 => [9201, 3, 9103, '100', undef, 'entered', undef, undef],     # never validated
    9304 => [9201, 4, 9104, undef, undef, undef, undef, undef],
    9305 => [9202, 1, 9101, '50 kg', undef, 'entered', undef, undef],
    9306 => [9202, 2, 9102, '60 kg', undef, 'entered', undef, undef],
    9307 => [9202, 3, 9103, '70 kg', undef, 'validated', '70 kg', undef],
);
my %SPOT_NAME = map { $_->{id} => $_->{name} } @SPOTS;

sub q_ { my ($v) = @_; return defined $v ? "'" . ($v =~ s/'/''/gr) . "'" : 'NULL' }
sub rows_sql {
    my ($table, $cols, @rows) = @_;
    return "INSERT INTO $table (" . join(', ', @$cols) . ") VALUES "
        . join(', ', map { my $r = $_; '(' . join(', ', map { q_($r->{$_}) } @$cols) . ')' } @rows) . ";\n";
}
sub lane_rows {
    return map { my $l = $L{$_};
                 { id => $_, heat_id => $l->[0], number => $l->[1], spot_id => $l->[2], score => $l->[3],
                   tiebreak => $l->[4], score_status => $l->[5], published_score => $l->[6],
                   published_tiebreak => $l->[7] } } sort keys %L;
}
my $FIXTURE = rows_sql('competition', [qw(id name start_date publication)], \%COMP)
    . rows_sql('wod', [qw(id competition_id name description position scoring time_cap)], @WODS)
    . rows_sql('spot', [qw(id competition_id name division affiliate bib)], @SPOTS)
    . "INSERT INTO zone (id, competition_id, name, lane_count) VALUES (9021, 9001, 'Floor', 6);\n"
    . rows_sql('heat', [qw(id competition_id zone_id wod_id number start_time status)], @HEATS)
    . rows_sql('lane', [qw(id heat_id number spot_id score tiebreak score_status published_score
                           published_tiebreak)], lane_rows());
my $CLEANUP = 'DELETE FROM lane WHERE heat_id IN (9201, 9202); DELETE FROM heat WHERE competition_id = 9001; '
    . 'DELETE FROM zone WHERE competition_id = 9001; DELETE FROM spot WHERE competition_id = 9001; '
    . 'DELETE FROM wod WHERE competition_id = 9001; DELETE FROM competition WHERE id = 9001;';
my ($rc, $out) = db_exec($FIXTURE);
is($rc, 0, 'competition 9001 (publication validated) added') or diag($out);
END { db_exec($CLEANUP) if $rc == 0 }

# the lanes as each view shows them, and the leaderboards of RankingRef on each
sub full_lane {
    my ($id) = @_;
    my $l = $L{$id};
    return lane_obj($id, $l->[0], $l->[1], $l->[2], defined $l->[2] ? $SPOT_NAME{ $l->[2] } : undef,
                    $l->[3], $l->[4], $l->[5]);
}
sub pub_lane {
    my ($id) = @_;
    my $l = $L{$id};
    return lane_obj($id, $l->[0], $l->[1], $l->[2], defined $l->[2] ? $SPOT_NAME{ $l->[2] } : undef,
                    $l->[6], $l->[7], defined $l->[6] ? 'validated' : undef);
}
sub ref_db {
    my ($published) = @_;
    return { competition => [{ %COMP }], wod => [@WODS], spot => [@SPOTS], heat => [@HEATS],
             lane => [map { my $l = $L{$_};
                            { id => $_, heat_id => $l->[0], number => $l->[1], spot_id => $l->[2],
                              score => $published ? $l->[6] : $l->[3],
                              tiebreak => $published ? $l->[7] : $l->[4] } } sort keys %L] };
}

my $C = '/api/competition/9001';
my $H1 = "$C/zone/9021/heat/9201";
my $H2 = "$C/zone/9021/heat/9202";
sub voie { return "$H1/voie/$_[0]" }

# ---------------------------------------------------------------- lanes, per view
# the full view first (the cache warmed by an editor), then the reader's: never the same answer
for my $round (1, 2) {
    check_json(req(GET => voie(9302), $editor), 200, ok_one_('voie', full_lane(9302)),
               "round $round: the editor sees the current score of lane 9302 (entered)");
    check_json(req(GET => voie(9302), $reader), 200, ok_one_('voie', pub_lane(9302)),
               "round $round: the reader sees its published score (validated 110)");
    check_json(req(GET => "$H1/voie/", $editor), 200,
               { status => 'success', voies => [map { full_lane($_) } 9301 .. 9304] },
               "round $round: the editor's lane list");
    check_json(req(GET => "$H1/voie/", $reader), 200,
               { status => 'success', voies => [map { pub_lane($_) } 9301 .. 9304] },
               "round $round: the reader's lane list");
}
check_json(req(GET => "$C/heat/9201/line/9303", $editor), 200, ok_one_('line', full_lane(9303)),
           'variant B line, editor: entered 100');
check_json(req(GET => "$C/heat/9201/line/9303", $reader), 200, ok_one_('line', pub_lane(9303)),
           'variant B line, reader: nothing published');
check_json(req(GET => "$C/heat/9201/line/?limit=2&offset=1", $reader), 200,
           { status => 'success', lines => [map { pub_lane($_) } 9302, 9303] },
           'variant B lines, reader, a page: published values');
check_json(req(GET => "$C/heat/9201/line/?limit=2&offset=1", $editor), 200,
           { status => 'success', lines => [map { full_lane($_) } 9302, 9303] },
           'variant B lines, editor, the same page: current values');
check_json(req(GET => voie(9302) . '?view=published', $editor), 200, ok_one_('voie', pub_lane(9302)),
           'an editor asks for ?view=published: the reader\'s view');
check_json(req(GET => voie(9302) . '?view=full', $editor), 200, ok_one_('voie', full_lane(9302)),
           'an editor asks for ?view=full');
check_error(req(GET => voie(9302) . '?view=full', $reader), 403, 'Forbidden', 'a reader\'s ?view=full: 403');
check_error(req(GET => "$C/leaderboard?view=full", $reader), 403, 'Forbidden',
            'a reader\'s ?view=full of a leaderboard: 403');
check_error(req(GET => voie(9302) . '?view=draft', $editor), 400, 'Invalid query', '?view=draft: 400');
check_error(req(GET => "$H1/voie/9399?view=draft", $editor), 404, 'Not found',
            '?view=draft of a lane that does not exist: 404');
{
    my $e = req(GET => voie(9302), $editor)->header('ETag');
    my $p = req(GET => voie(9302), $reader)->header('ETag');
    ok($e && $p && $e ne $p, 'the two views of lane 9302: two ETags') or diag("$e $p");
    is(req(GET => voie(9302), $reader, undef, { 'If-None-Match' => $e })->code, 200,
       'the editor\'s ETag is no 304 for the reader');
    is(req(GET => voie(9302), $editor, undef, { 'If-None-Match' => $p })->code, 200,
       'the reader\'s ETag is no 304 for the editor');
    is(req(GET => voie(9302), $reader, undef, { 'If-None-Match' => $p })->code, 304,
       'the reader\'s own ETag: 304');
}

# ---------------------------------------------------------------- leaderboards, per view
my $JSONC = JSON::PP->new->utf8->canonical;
sub boards_ok {
    my ($label) = @_;
    for my $view ([$editor, 0, 'editor'], [$reader, 1, 'reader']) {
        my ($tok, $pub, $who) = @$view;
        my $db = ref_db($pub);
        check_json(req(GET => "$C/leaderboard", $tok), 200, RankingRef::overall_board($db, 9001),
                   "$label: $who, overall leaderboard (RankingRef on the " . ($pub ? 'published' : 'current') . ' values)');
        check_json(req(GET => "$C/wod/9011/leaderboard", $tok), 200, RankingRef::wod_board($db, 9001, 9011),
                   "$label: $who, WOD 9011 leaderboard");
        check_json(req(GET => "$C/wod/9012/leaderboard?division=RX", $tok), 200,
                   RankingRef::wod_board($db, 9001, 9012, 'RX'), "$label: $who, WOD 9012, division RX");
    }
}
boards_ok('at the start');
{
    my $e = req(GET => "$C/leaderboard", $editor);
    my $p = req(GET => "$C/leaderboard", $reader);
    isnt($e->header('ETag'), $p->header('ETag'), 'overall leaderboard: an ETag per view');
    is(req(GET => "$C/leaderboard", $reader, undef, { 'If-None-Match' => $e->header('ETag') })->code, 200,
       'overall leaderboard: the editor\'s ETag is no 304 for the reader');
    is(req(GET => "$C/leaderboard", $reader, undef, { 'If-None-Match' => $p->header('ETag') })->code, 304,
       'overall leaderboard: the reader\'s ETag, 304');
    # gzip: each view its own coding and ETag
    my %gz;
    for my $v ([$editor, 'editor', $e], [$reader, 'reader', $p]) {
        my $res = req(GET => "$C/leaderboard", $v->[0], undef, { 'Accept-Encoding' => 'gzip, identity;q=0' });
        my $body = $res->content;
        my $plain;
        IO::Uncompress::Gunzip::gunzip(\$body => \$plain) if ($res->header('Content-Encoding') // '') eq 'gzip';
        $gz{ $v->[1] } = $res->header('ETag');
        is($res->header('Content-Encoding'), 'gzip', "gzip, $v->[1]: gzip coded");
        is($plain, $v->[2]->content, "gzip, $v->[1]: the plain answer of the same view");
    }
    isnt($gz{editor}, $gz{reader}, 'gzip: an ETag per view');
    is(req(GET => "$C/leaderboard", $reader, undef,
           { 'Accept-Encoding' => 'gzip, identity;q=0', 'If-None-Match' => $gz{editor} })->code, 200,
       'gzip: the editor\'s ETag is no 304 for the reader');
}

# ---------------------------------------------------------------- a judge's PUT
{
    my $before = req(GET => voie(9301), $reader);
    my $lb = req(GET => "$C/leaderboard", $reader);
    my $list = req(GET => "$H1/voie/", $reader);
    $L{9301}[3] = '125';
    $L{9301}[5] = 'entered';
    check_json(req(PUT => voie(9301), $editor, { score => '125' }), 200, ok_one_('voie', full_lane(9301)),
               'a judge enters 125 on lane 9301 (validated 120): entered');
    RankingTest::settle();
    my $after = req(GET => voie(9301), $reader);
    is($after->content, $before->content, 'the reader\'s lane 9301: the same body (120, validated)');
    is($after->header('ETag'), $before->header('ETag'), 'the reader\'s lane 9301: the same ETag');
    my $list2 = req(GET => "$H1/voie/", $reader);
    is($list2->content, $list->content, 'the reader\'s lane list: the same body');
    is($list2->header('ETag'), $list->header('ETag'), 'the reader\'s lane list: the same ETag');
    my $lb2 = req(GET => "$C/leaderboard", $reader);
    is($lb2->content, $lb->content, 'the reader\'s leaderboard: the same body');
    is($lb2->header('ETag'), $lb->header('ETag'), 'the reader\'s leaderboard: the same ETag');
    is(req(GET => "$C/leaderboard", $reader, undef, { 'If-None-Match' => $lb->header('ETag') })->code, 304,
       'the reader\'s leaderboard: still 304 for its former ETag');
    check_json(req(GET => voie(9301), $editor), 200, ok_one_('voie', full_lane(9301)),
               'the editor sees 125, entered');
    # the same score again: the status stays
    check_json(req(PUT => voie(9301), $editor, { score => '125', number => 1 }), 200,
               ok_one_('voie', full_lane(9301)), 'the same score again: still entered');
}
boards_ok('after an entry');

# ---------------------------------------------------------------- validation of a lane
my $V1 = voie(9301) . '/validate';
check_error(req(POST => $V1, $reader, '{}'), 403, 'Forbidden', 'a reader may not validate: 403');
check_error(req(POST => $V1, $editor, '{}'), 403, 'Forbidden', 'a judge (editor) may not validate: 403');
check_error(req(POST => "$H1/voie/9399/validate", $validator, '{}'), 404, 'Not found',
            'validate a lane that does not exist: 404');
check_error(req(POST => $V1, $validator, '{"score":"1"}'), 400,
            'Invalid body: a validation takes no body, or an empty object {}', 'a body other than {}: 400');
check_error(req(POST => $V1, $validator, '{}', { 'If-Match' => '"stale"' }), 412, 'Precondition failed',
            'If-Match with another ETag: 412');
check_json(req(GET => voie(9301), $reader), 200, ok_one_('voie', pub_lane(9301)), '... nothing published');
my $history = sub { scalar @{ decode(req(GET => voie(9301) . '/history', $editor))->{history} // [] } };
my $n_hist = $history->();
{
    my $etag = req(GET => voie(9301), $editor)->header('ETag');
    @{ $L{9301} }[5, 6, 7] = ('validated', '125', undef);
    my $res = req(POST => $V1, $validator, undef, { 'If-Match' => $etag });
    check_json($res, 200, ok_one_('voie', full_lane(9301)), 'validate lane 9301 (no body, If-Match): 200');
    is($res->header('ETag'), req(GET => voie(9301), $editor)->header('ETag'), 'its answer\'s ETag: the lane\'s');
}
RankingTest::settle();
check_json(req(GET => voie(9301), $reader), 200, ok_one_('voie', pub_lane(9301)),
           'the reader sees 125, validated');
is($history->(), $n_hist + 1, 'one history record');
{
    my $last = decode(req(GET => voie(9301) . '/history', $editor))->{history}[-1] // {};
    is($last->{action}, 'validate', 'its action: validate');
    is($last->{after}{score_status}, 'validated', 'after: validated');
}
check_json(req(POST => $V1, $validator, '{}'), 200, ok_one_('voie', full_lane(9301)),
           'validate it again: 200, as it is');
is($history->(), $n_hist + 1, '... no record');
check_error(req(POST => voie(9304) . '/validate', $validator), 409, 'Conflict: the lane has no score to validate',
            'a lane without score: 409');
boards_ok('after a validation');

# a later entry: entered again, readers keep the published score
$L{9301}[3] = '128';
$L{9301}[5] = 'entered';
check_json(req(PUT => voie(9301), $editor, { score => '128' }), 200, ok_one_('voie', full_lane(9301)),
           'a later entry, 128: entered');
check_json(req(GET => voie(9301), $reader), 200, ok_one_('voie', pub_lane(9301)),
           'the reader keeps 125, validated');
# taking the score off: null status, the published score stays
$L{9303}[3] = undef;
$L{9303}[5] = undef;
check_json(req(PUT => voie(9303), $editor, { score => undef }), 200, ok_one_('voie', full_lane(9303)),
           'score taken off lane 9303: score_status null');
$L{9303}[3] = '100';
$L{9303}[5] = 'entered';
check_json(req(PUT => voie(9303), $editor, { score => '100' }), 200, ok_one_('voie', full_lane(9303)),
           'lane 9303 back to 100: entered');

# ---------------------------------------------------------------- a whole heat
check_error(req(POST => "$C/zone/9021/heat/9299/validate", $validator, '{}'), 404, 'Not found',
            'validate a heat that does not exist: 404');
check_error(req(POST => "$H2/validate", $reader, '{}'), 403, 'Forbidden', 'a reader may not validate a heat');
check_error(req(POST => "$H2/validate", $editor, '{}'), 403, 'Forbidden', 'a judge may not validate a heat');
for my $id (9305, 9306) {
    @{ $L{$id} }[5, 6, 7] = ('validated', $L{$id}[3], $L{$id}[4]);
}
check_json(req(POST => "$H2/validate", $validator, '{}'), 200,
           { status => 'success', voies => [map { full_lane($_) } 9305, 9306, 9307] },
           'validate heat 9202: every lane, by number');
RankingTest::settle();
check_json(req(GET => "$H2/voie/", $reader), 200,
           { status => 'success', voies => [map { pub_lane($_) } 9305, 9306, 9307] },
           'the reader sees them');
check_json(req(POST => "$H2/validate", $validator), 200,
           { status => 'success', voies => [map { full_lane($_) } 9305, 9306, 9307] },
           'validate it again: 200, nothing to do');
boards_ok('after a heat\'s validation');

# ---------------------------------------------------------------- event streams, per view
sub open_stream {
    my ($path, $token) = @_;
    return SseClient::open(Apache::TestRequest::hostport(Apache::Test::config()), $path, $token);
}
# the events of ST not returned before: reading until N new ones came or SECS passed
sub lane_events {
    my ($st, $secs, $n) = @_;
    my $seen = $st->{seen} // 0;
    my $want = $seen + $n;
    my @all = SseClient::events(SseClient::read($st, $secs, qr/(?:event: lane.*){$want}/s));
    $st->{seen} = @all;
    return map { { %$_, json => eval { JSON::PP->new->decode($_->{data}) } // {} } } @all[$seen .. $#all];
}
{
    my $se = open_stream("$C/events", $editor);
    my $sr = open_stream("$C/events", $reader);
    my $sp = open_stream('/public/competition/9001/events', undef);
    like($se->{head}, qr{^HTTP/1\.1 200}, 'the editor\'s stream');
    like($sr->{head}, qr{^HTTP/1\.1 200}, 'the reader\'s stream');
    like($sp->{head}, qr{^HTTP/1\.1 200}, 'a spectator\'s stream on the public mount, without a token');
    check_error(req(GET => "$C/events?view=full", $reader, undef, { Accept => 'text/event-stream' }), 403,
                'Forbidden', 'a reader\'s stream of ?view=full: 403');
    check_401(req(GET => '/public/competition/9001/events', 'not-a-token', undef,
                  { Accept => 'text/event-stream' }), 1, 'a public stream with a bad token: checked, 401');
    SseClient::read($_, 1) for $se, $sr, $sp;   # the opening comments
    # 1. an entry: the editor's stream only
    $L{9302}[3] = '135';
    check_json(req(PUT => voie(9302), $editor, { score => '135' }), 200, ok_one_('voie', full_lane(9302)),
               'an entry on lane 9302');
    my @e = lane_events($se, 5, 1);
    ok(@e == 1 && !defined json_cmp($e[0]{json}{voie}, full_lane(9302)), 'the editor\'s stream: the entry')
        or diag(explain(\@e));
    # 2. a validation: every stream, each in its view (the published view: the validated lane)
    @{ $L{9302} }[5, 6] = ('validated', '135');
    is(req(POST => voie(9302) . '/validate', $validator)->code, 200, 'lane 9302 validated');
    my @v = lane_events($se, 5, 1);
    ok(@v == 1 && $v[0]{json}{action} eq 'validate' && !defined json_cmp($v[0]{json}{voie}, full_lane(9302)),
       'the editor\'s stream: the validation') or diag(explain(\@v));
    for my $s ([$sr, 'reader'], [$sp, 'spectator']) {
        my @r = lane_events($s->[0], 5, 1);
        ok(@r == 1 && $r[0]{json}{action} eq 'validate' && !defined json_cmp($r[0]{json}{voie}, pub_lane(9302)),
           "the $s->[1]'s stream: only the validation, the lane as published") or diag(explain(\@r));
        is($r[0]{id}, $v[0]{id}, "the $s->[1]'s event: the same record id");
    }
    # 3. a change the published view shows (the lane's number) of an entered lane
    $L{9303}[1] = 5;
    check_json(req(PUT => voie(9303), $editor, { number => 5 }), 200, ok_one_('voie', full_lane(9303)),
               'lane 9303 moves to number 5');
    for my $s ([$sr, 'reader'], [$sp, 'spectator']) {
        my @r = lane_events($s->[0], 5, 1);
        ok(@r == 1 && !defined json_cmp($r[0]{json}{voie}, pub_lane(9303)),
           "the $s->[1]'s stream: the move, without the entered score") or diag(explain(\@r));
    }
    # 4. a replay from before the entry: the reader's replay skips it too
    my $sr2 = SseClient::open(Apache::TestRequest::hostport(Apache::Test::config()), "$C/events", $reader,
                              'Last-Event-ID: ' . ($e[0]{id} - 1));
    my @r = lane_events($sr2, 3, 3);
    is(scalar(@r), 2, 'a reader\'s replay: the validation and the move, not the entry')
        or diag(explain(\@r));
    ok(@r == 2 && $r[0]{json}{action} eq 'validate' && !defined json_cmp($r[1]{json}{voie}, pub_lane(9303)),
       '... each as published') or diag(explain(\@r));
    SseClient::close($_) for $se, $sr, $sp, $sr2;
}

# ---------------------------------------------------------------- the public mount
check_json(req(GET => '/public/competition/9001/zone/9021/heat/9201/voie/9301'), 200,
           ok_one_('voie', pub_lane(9301)), 'the public mount, anonymous: the published view');
check_json(req(GET => '/public/competition/9001/zone/9021/heat/9201/voie/9301', $editor), 200,
           ok_one_('voie', full_lane(9301)), 'the public mount with an editor\'s token: the full view');
check_json(req(GET => '/public/competition/9001/leaderboard'), 200,
           RankingRef::overall_board(ref_db(1), 9001), 'the public mount: the published leaderboard');

# ---------------------------------------------------------------- immediate: as before
{
    my $P = '/api/competition/2/zone/26/heat/253/voie/2014';
    my $orig = decode(req(GET => $P, $editor))->{voie};
    my $e = req(GET => $P, $editor);
    my $r = req(GET => $P, $reader);
    is($r->content, $e->content, 'publication immediate: one view of a lane');
    is($r->header('ETag'), $e->header('ETag'), '... one ETag');
    my $le = req(GET => '/api/competition/2/leaderboard', $editor);
    my $lr = req(GET => '/api/competition/2/leaderboard', $reader);
    is($lr->content, $le->content, 'publication immediate: one leaderboard');
    is($lr->header('ETag'), $le->header('ETag'), '... one ETag');
    check_json(req(PUT => $P, $editor, { score => '99 kg' }), 200,
               { status => 'success', voie => { %$orig, score => '99 kg', score_status => 'entered' } },
               'publication immediate: an entry');
    check_json(req(GET => $P, $reader), 200, { status => 'success', voie => { %$orig, score => '99 kg',
                                                                             score_status => 'entered' } },
               '... the reader sees it at once');
    check_json(req(GET => $P . '?view=published', $editor), 200,
               { status => 'success', voie => { %$orig, score => '99 kg', score_status => 'entered' } },
               '... ?view=published shows it too');
    check_json(req(PUT => $P, $editor, { score => $orig->{score} }), 200,
               { status => 'success', voie => $orig }, '(put back)');
}
# the list of competitions: nothing of the views
is(req(GET => '/api/competition/9001', $reader)->code, 200, 'competition 9001 is readable');

# ---------------------------------------------------------------- the competition's publication
# GET shows it, an organizer's PATCH changes it; immediate -> validated keeps every
# score published as it is (lane 9303: entered, never validated; with 'immediate' the
# public sees its current score, and still after the switch back)
{
    my $CP = '/api/competition/9001';
    is(decode(req(GET => $CP, $reader))->{competition}{publication}, 'validated',
       'GET of competition 9001: publication validated');
    my $cur = $L{9303}[3];
    isnt(decode(req(GET => voie(9303), $reader))->{voie}{score} // '', $cur,
         'lane 9303: the reader does not see its entered score');
    check_error(req(PATCH => $CP, $editor, { publication => 'immediate' }), 403, 'Forbidden',
                'a judge may not change the publication');
    my $p = req(PATCH => $CP, $validator, { publication => 'immediate' });
    is($p->code, 200, 'the organizer switches to immediate: 200');
    is(decode($p)->{competition}{publication}, 'immediate', '... the answer shows it');
    is(decode(req(GET => voie(9303), $reader))->{voie}{score}, $cur,
       'immediate: the reader sees the current score of lane 9303');
    $p = req(PATCH => $CP, $validator, { publication => 'validated' });
    is(decode($p)->{competition}{publication}, 'validated', 'back to validated: the answer shows it');
    @{ $L{9303} }[6, 7] = @{ $L{9303} }[3, 4];
    check_json(req(GET => voie(9303), $reader), 200, ok_one_('voie', pub_lane(9303)),
               'immediate -> validated: the score the public saw stays published');
    check_json(req(GET => voie(9303), $editor), 200, ok_one_('voie', full_lane(9303)),
               '... the full view as it was (score_status kept)');
}

# ---------------------------------------------------------------- the full view by grant
# a reader granted editor on competition 9001 sees its full view (a new token: the
# role is read with it), and may ask for ?view=full; without the grant, 403 again
admin_ok('grant demo editor on competition 9001', 'grant', 'demo', 'editor', '--competition', '9001');
{
    my $granted = login('demo', 'demo');
    check_json(req(GET => voie(9302), $granted), 200, ok_one_('voie', full_lane(9302)),
               'a reader granted editor: the full view by default');
    is(req(GET => voie(9302) . '?view=full', $granted)->code, 200, '... and ?view=full: 200');
}
admin_ok('revoke the grant', 'revoke-grant', 'demo', '--competition', '9001');
check_error(req(GET => voie(9302) . '?view=full', login('demo', 'demo')), 403, 'Forbidden',
            'without the grant: ?view=full 403');

sub ok_one_ { my ($key, $obj) = @_; return { status => 'success', $key => $obj } }

done_testing();
