# PUT of a lane (variant A, competition 2): 200 with the lane as stored; a partial
# update keeps the other keys; spot_id null empties the lane; score null; the change
# is visible through the voie and the variant B line routes and in the lists.
# Uses lane 2013 (heat 253, zone 26 of 6 lanes; empty at number 3) and lane 2016
# (heat 254, zone 27 of 4 lanes) and puts both back as they were.
# tests: 62 (t/run-apache-test.sh fails when fewer run)
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

my %NAME = (151 => 'Lille Lifting Club', 152 => "Les Ch'tis Costauds",
            153 => 'Double Under Dynamos', 154 => 'Snatch Squad', 156 => 'Masters of Disaster',
            157 => 'Grey Hair Gainz', 160 => 'Hang Clean Heroes');
sub lane2 { my ($id, $heat, $n, $spot, $score) = @_;
    return lane_obj($id, $heat, $n, $spot, defined $spot ? $NAME{$spot} : undef, $score) }

my $A = '/api/competition/2/zone/26/heat/253/voie';
my $B = '/api/competition/2/heat/253/line';
my $V = "$A/2013";

# PUT BODY, then the answer, the voie and the line must all be LANE (3 tests)
sub put_ok {
    my ($body, $lane, $name, $path) = @_;
    check_json(req(PUT => $path // $V, $editor, $body), 200, { status => 'success', voie => $lane },
               "PUT $name: 200, the lane as stored");
    check_json(req(GET => "$A/$lane->{id}", $reader), 200, { status => 'success', voie => $lane },
               "PUT $name: GET voie");
    check_json(req(GET => "$B/$lane->{id}", $reader), 200, { status => 'success', line => $lane },
               "PUT $name: GET line (variant B)");
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
put_ok('{"score":""}', lane2(2013, 253, 6, 156, ''), 'empty score');
put_ok(qq({"score":"@{['é' x 64]}"}), lane2(2013, 253, 6, 156, 'é' x 64),
       'a score of 64 non-ASCII characters');
put_ok(qq({"score":"@{["\x{1F3C6}" x 64]}"}), lane2(2013, 253, 6, 156, "\x{1F3C6}" x 64),
       'a score of 64 characters outside the BMP (256 bytes of UTF-8)');
put_ok('{"score":"' . ('\ud83c\udfc6' x 64) . '"}', lane2(2013, 253, 6, 156, "\x{1F3C6}" x 64),
       'a score of 64 escaped surrogate pairs');
put_ok('{"score":"\u00e9\"\\\\/\n\t\ud83c\udfc6"}', lane2(2013, 253, 6, 156, "é\"\\/\n\t\x{1F3C6}"),
       'a score with JSON escapes (quote, backslash, newline, a surrogate pair)');
put_ok("\t{ \"score\" : \"08:01\" }\r\n", lane2(2013, 253, 6, 156, '08:01'),
       'whitespace around the body');
check_json(req(PUT => $V, $editor, '{"score":"08:02"}',
               { 'Content-Type' => 'application/json; charset=utf-8' }),
           200, { status => 'success', voie => lane2(2013, 253, 6, 156, '08:02') },
           'Content-Type with charset=utf-8');
put_ok('{"number":6,"spot_id":"156","score":"08:02"}', lane2(2013, 253, 6, 156, '08:02'),
       'the same values again (no conflict with itself)');
put_ok('{"score":"slash"}', lane2(2013, 253, 6, 156, 'slash'), 'a trailing slash on the PUT path',
       "$V/");
put_ok('{"score":"via /a"}', lane2(2013, 253, 6, 156, 'via /a'), 'through the /a mount',
       '/a/competition/2/zone/26/heat/253/voie/2013');
put_ok('{"score":"via deep"}', lane2(2013, 253, 6, 156, 'via deep'), 'through /deep/mount/v1',
       '/deep/mount/v1/competition/2/zone/26/heat/253/voie/2013');

# put lane 2013 back
put_ok('{"number":3,"spot_id":null,"score":null}', lane2(2013, 253, 3), 'back to the start');
check_json(req(GET => "$A/", $reader), 200,
           { status => 'success',
             voies => [lane2(2011, 253, 1, 151, '95kg'), lane2(2012, 253, 2, 152, undef),
                       lane2(2013, 253, 3), lane2(2014, 253, 4, 153, '102kg')] },
           'heat 253 as in the demo data again');

# zone 27 has 4 lanes: number 4 is the highest (lane 2016 of heat 254, at number 1)
my $V254 = '/api/competition/2/zone/27/heat/254/voie/2016';
check_json(req(PUT => $V254, $editor, '{"number":4}'), 200,
           { status => 'success', voie => lane2(2016, 254, 4, 157) }, 'heat 254: number 4 is fine');
check_json(req(PUT => $V254, $editor, '{"number":1}'), 200,
           { status => 'success', voie => lane2(2016, 254, 1, 157) }, 'heat 254: back to number 1');

done_testing();
