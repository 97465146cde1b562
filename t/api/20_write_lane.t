# PUT of a lane (variant A, competition 2): 200 with the lane as stored; a partial
# update keeps the other keys; spot_id null empties the lane; score null; the change
# is visible through the voie and the variant B line routes and in the lists.
# Uses lane 2013 (heat 253, zone 26 of 6 lanes; empty at number 3; WOD 17, scoring
# load: its scores are loads, stored as sent), lane 2016 (heat 254, zone 27 of 4
# lanes) and lane 2029 (heat 258, zone 26: a heat WITHOUT WOD, where any score of at
# most 64 characters is legal: the free-text cases go there), and puts them back as
# they were.  The typed scores of every scoring: 24_typed_scores.t.
# tests: 80 (t/run-apache-test.sh fails when fewer run)
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

sub lane2 { my ($id, $heat, $n, $spot, $score) = @_;
    return lane_obj($id, $heat, $n, $spot, defined $spot ? $SPOT2{$spot} : undef, $score) }

my $A = '/api/competition/2/zone/26/heat/253/voie';
my $B = '/api/competition/2/heat/253/line';
my $V = "$A/2013";

# PUT BODY, then the answer, the voie and the line must all be LANE (3 tests)
sub put_ok {
    my ($body, $lane, $name, $path) = @_;
    check_json(req(PUT => $path // $V, $editor, $body), 200, { status => 'success', voie => $lane },
               "PUT $name: 200, the lane as stored");
    my ($h, $z) = ($lane->{heat_id}, { 253 => 26, 254 => 27, 258 => 26 }->{ $lane->{heat_id} });
    check_json(req(GET => "/api/competition/2/zone/$z/heat/$h/voie/$lane->{id}", $reader), 200,
               { status => 'success', voie => $lane }, "PUT $name: GET voie");
    check_json(req(GET => "/api/competition/2/heat/$h/line/$lane->{id}", $reader), 200,
               { status => 'success', line => $lane }, "PUT $name: GET line (variant B)");
}

check_json(req(GET => $V, $reader), 200, { status => 'success', voie => lane2(2013, 253, 3) },
           'lane 2013 before: number 3, empty');

put_ok('{"score":"77kg"}', lane2(2013, 253, 3, undef, '77kg'), 'score');
put_ok('{"spot_id":"154"}', lane2(2013, 253, 3, 154, '77kg'), 'spot_id (score kept)');
put_ok('{"number":5}', lane2(2013, 253, 5, 154, '77kg'), 'number (spot and score kept)');

# lists: number order, the changed lane in its new place
my @list = (lane2(2011, 253, 1, 151, '95kg'), lane2(2012, 253, 2, 152, undef),
            lane2(2014, 253, 4, 153, '102kg'), lane2(2013, 253, 5, 154, '77kg'));
check_json(req(GET => "$A/", $reader), 200, { status => 'success', voies => \@list },
           'voie list of heat 253 in number order');
check_json(req(GET => "$B/", $reader), 200, { status => 'success', lines => \@list },
           'line list of heat 253 in number order');

put_ok('{"spot_id":null}', lane2(2013, 253, 5, undef, '77kg'), 'spot_id null (lane emptied)');
put_ok('{"score":null}', lane2(2013, 253, 5), 'score null');
put_ok('{"number":6,"spot_id":"160","score":"101kg"}', lane2(2013, 253, 6, 160, '101kg'),
       'the three keys (number 6 = the zone\'s lane_count)');
put_ok('{"spot_id":"156"}', lane2(2013, 253, 6, 156, '101kg'),
       'a spot that has a lane in another heat');
put_ok("\t{ \"score\" : \"80.5 kg\" }\r\n", lane2(2013, 253, 6, 156, '80.5 kg'),
       'whitespace around the body');
check_json(req(PUT => $V, $editor, '{"score":"180 lb"}',
               { 'Content-Type' => 'application/json; charset=utf-8' }),
           200, { status => 'success', voie => lane2(2013, 253, 6, 156, '180 lb') },
           'Content-Type with charset=utf-8');
put_ok('{"number":6,"spot_id":"156","score":"180 lb"}', lane2(2013, 253, 6, 156, '180 lb'),
       'the same values again (no conflict with itself)');
put_ok('{"score":"81"}', lane2(2013, 253, 6, 156, '81'), 'a trailing slash on the PUT path',
       "$V/");
put_ok('{"score":"82kg"}', lane2(2013, 253, 6, 156, '82kg'), 'through the /a mount',
       '/a/competition/2/zone/26/heat/253/voie/2013');
put_ok('{"score":"083.25"}', lane2(2013, 253, 6, 156, '083.25'), 'through /deep/mount/v1',
       '/deep/mount/v1/competition/2/zone/26/heat/253/voie/2013');

# put lane 2013 back
put_ok('{"number":3,"spot_id":null,"score":null}', lane2(2013, 253, 3), 'back to the start');
check_json(req(GET => "$A/", $reader), 200,
           { status => 'success',
             voies => [lane2(2011, 253, 1, 151, '95kg'), lane2(2012, 253, 2, 152, undef),
                       lane2(2013, 253, 3), lane2(2014, 253, 4, 153, '102kg')] },
           'heat 253 as in the demo data again');

# ---- free text: lane 2029 of heat 258, a heat without WOD (any score of at most 64
# characters; typed scores do not apply there) ----
my $F = "/api$FREE{voie}";
my $FB = "/api$FREE{line}";
sub lane258 { my ($n, $spot, $score) = @_; return lane2(2029, 258, $n, $spot, $score) }
check_json(req(GET => $F, $reader), 200, { status => 'success', voie => lane258(3) },
           'lane 2029 (heat 258, no WOD) before: number 3, empty');
put_ok('{"score":""}', lane258(3, undef, ''), 'empty score (heat without WOD)', $F);
put_ok('{"spot_id":"160"}', lane258(3, 160, ''), 'a team (heat without WOD)', $F);
put_ok(qq({"score":"@{['é' x 64]}"}), lane258(3, 160, 'é' x 64),
       'a score of 64 non-ASCII characters', $F);
put_ok(qq({"score":"@{["\x{1F3C6}" x 64]}"}), lane258(3, 160, "\x{1F3C6}" x 64),
       'a score of 64 characters outside the BMP (256 bytes of UTF-8)', $F);
put_ok('{"score":"' . ('\ud83c\udfc6' x 64) . '"}', lane258(3, 160, "\x{1F3C6}" x 64),
       'a score of 64 escaped surrogate pairs', $F);
put_ok('{"score":"\u00e9\"\\\\/\n\t\ud83c\udfc6"}', lane258(3, 160, "é\"\\/\n\t\x{1F3C6}"),
       'a score with JSON escapes (quote, backslash, newline, a surrogate pair)', $F);
put_ok('{"score":"7:61"}', lane258(3, 160, '7:61'), 'not a time: free text on a heat without WOD', $F);
put_ok('{"score":" w3-12 "}', lane258(3, 160, ' w3-12 '), 'spaces around: free text', $F);
put_ok('{"score":"via /a","number":6}', lane258(6, 160, 'via /a'), 'through the /a mount',
       "/a$FREE{voie}");
check_json(req(GET => "/api/competition/2/zone/26/heat/258/voie/", $reader), 200,
           { status => 'success', voies => [(free_lanes())[0, 1, 3], lane258(6, 160, 'via /a')] },
           'voie list of heat 258 in number order');
put_ok('{"number":3,"spot_id":null,"score":null}', lane258(3), 'lane 2029 back to the start', $F);
check_json(req(GET => "/api/competition/2/heat/258/line/", $reader), 200,
           { status => 'success', lines => [free_lanes()] }, 'heat 258 as in the demo data again');

# zone 27 has 4 lanes: number 4 is the highest (lane 2016 of heat 254, at number 1)
my $V254 = '/api/competition/2/zone/27/heat/254/voie/2016';
check_json(req(PUT => $V254, $editor, '{"number":4}'), 200,
           { status => 'success', voie => lane2(2016, 254, 4, 157) }, 'heat 254: number 4 is fine');
check_json(req(PUT => $V254, $editor, '{"number":1}'), 200,
           { status => 'success', voie => lane2(2016, 254, 1, 157) }, 'heat 254: back to number 1');

done_testing();
