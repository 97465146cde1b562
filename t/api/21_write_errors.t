# Refused lane writes (competition 2, lane 2012 of heat 253: number 2, spot 152, no
# score; WOD 17, scoring load): 415, 400, 409, 413, 403, and each leaves the lane
# exactly as it was.  The limit of 64 characters of a score is checked on lane 2029 of
# heat 258, a heat without WOD (where any shorter text is legal); the bad scores of each
# scoring are in 24_typed_scores.t.  A good key next to a bad one uses a valid load
# ("99kg"), so that the other key is what the write is refused for.
# tests: 169 (t/run-apache-test.sh fails when fewer run)
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

my $V = '/api/competition/2/zone/26/heat/253/voie/2012';
my $ORIG = { status => 'success', voie => lane_obj(2012, 253, 2, 152, "Les Ch'tis Costauds", undef) };
my $ORIG_LINE = { status => 'success', line => $ORIG->{voie} };

check_json(req(GET => $V, $reader), 200, $ORIG, 'lane 2012 before');

# refused(RES, STATUS, MESSAGE, NAME): the error (1 test), then the lane unchanged (1 test)
sub refused {
    my ($res, $status, $message, $name) = @_;
    check_error($res, $status, $message, "$name: $status");
    check_json(req(GET => $V, $reader), 200, $ORIG, "$name: lane unchanged");
}

# ---- 415 ----
for my $ct (undef, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonx',
            'text/json') {
    refused(req(PUT => $V, $editor, '{"score":"415"}', { 'Content-Type' => $ct }), 415, undef,
            'Content-Type ' . ($ct // 'missing'));
}

# ---- 400 ----
my $e65 = 'é' x 65;
my @bad = (
    ['empty body', ''],
    ['not JSON', 'score=1'],
    ['truncated', '{"score":"x"'],
    ['truncated string', '{"score":"x'],
    ['array', '[{"score":"x"}]'],
    ['string', '"x"'],
    ['null', 'null'],
    ['number', '7'],
    ['empty object', '{}'],
    ['unknown key', '{"scor":"x"}'],
    ['unknown key next to a good one', '{"score":"99kg","colour":"red"}'],
    ['id in the body', '{"id":"2012","score":"x"}'],
    ['heat_id in the body', '{"heat_id":"254"}'],
    ['spot_name in the body (read-only)', '{"spot_name":"x"}'],
    ['number as a string', '{"number":"3"}'],
    ['number with a fraction', '{"number":2.5}'],
    ['number true', '{"number":true}'],
    ['number null', '{"number":null}'],
    ['number an array', '{"number":[3]}'],
    ['number 0', '{"number":0}'],
    ['number -1', '{"number":-1}'],
    ['number 7 > lane_count 6 of zone 26', '{"number":7}'],
    ['number 999', '{"number":999}'],
    ['number 1000', '{"number":1000}'],
    ['number 2^63', '{"number":9223372036854775808}'],
    ['number 10^20', '{"number":100000000000000000000}'],
    ['spot_id as a number', '{"spot_id":154}'],
    ['spot_id not an id', '{"spot_id":"abc"}'],
    ['spot_id empty', '{"spot_id":""}'],
    ['spot_id 0', '{"spot_id":"0"}'],
    ['spot_id -154', '{"spot_id":"-154"}'],
    ['spot_id true', '{"spot_id":true}'],
    ['spot of another competition', '{"spot_id":"101"}'],
    ['unknown spot', '{"spot_id":"999999"}'],
    ['unknown spot, 18 digits', '{"spot_id":"999999999999999999"}'],
    ['spot_id of 19 digits', '{"spot_id":"1234567890123456789"}'],
    ['spot_id with a leading zero', '{"spot_id":"0154"}'],
    ['key in another case', '{"Score":"x"}'],
    ['score a number', '{"score":12}'],
    ['score true', '{"score":true}'],
    ['score an array', '{"score":["x"]}'],
    ['score an object', '{"score":{}}'],
    ['score of 65 characters', '{"score":"' . ('x' x 65) . '"}'],
    ['a score that is not a load (heat with a WOD)', '{"score":"x"}'],
    ['an empty score (heat with a WOD)', '{"score":""}'],
    ['lone surrogate escape', '{"score":"\ud800"}'],
    ['invalid UTF-8', qq({"score":"\xff"})],
    ['overlong UTF-8', qq({"score":"\xc0\xaf"})],
    ['truncated UTF-8 sequence', qq({"score":"\xe2\x82"})],
    ['UTF-8 surrogate', qq({"score":"\xed\xa0\x80"})],
    ['invalid UTF-8 in a key', qq({"sc\xffore":"x"})],
    ['duplicate key', '{"score":"a","score":"b"}'],
    ['duplicate key with other keys between', '{"score":"a","number":2,"score":"a"}'],
    ['trailing garbage', '{"score":"a"} x'],
    ['two objects', '{"score":"a"}{"score":"b"}'],
    ['trailing comma', '{"score":"a",}'],
    ['a good key with an out-of-range one', '{"score":"99kg","number":7}'],
    ['a good key with a wrong type', '{"score":"99kg","spot_id":152}'],
    ['a good key with an unknown spot', '{"score":"99kg","spot_id":"101"}'],
    ['a good key with a bad score', '{"number":5,"score":"99 kgs"}'],
    ['a good score with a bad tiebreak', '{"score":"99kg","tiebreak":"CAP+3"}'],
);
for my $b (@bad) {
    refused(req(PUT => $V, $editor, $b->[1]), 400, undef, $b->[0]);
}

# ---- 409 ----
my @conflicts = (
    ['number of lane 2011', '{"number":1}'],
    ['number of lane 2014', '{"number":4}'],
    ['spot of lane 2011', '{"spot_id":"151"}'],
    ['spot of lane 2014', '{"spot_id":"153"}'],
    ['a score with a used number', '{"score":"99kg","number":4}'],
    ['a score with a used spot', '{"score":"99kg","spot_id":"151"}'],
);
for my $c (@conflicts) {
    refused(req(PUT => $V, $editor, $c->[1]), 409, undef, $c->[0]);
}

# ---- 413 ----
my $big = '{"score":"' . ('x' x 60) . '"}';
refused(req(PUT => '/small/competition/2/zone/26/heat/253/voie/2012', $editor, $big), 413, undef,
        '/small: a ' . length($big) . '-byte body');
refused(req(PUT => $V, $editor, '{"score":"x"}' . (' ' x 65536)), 413, undef,
        '/api: a body over 64 KiB');
# a valid load padded with JSON whitespace to exactly 64 bytes
my $b64 = '{"score":"102.5 kg"' . (' ' x 44) . '}';
is(length $b64, 64, '(a 64-byte body)');
check_json(req(PUT => '/small/competition/2/zone/26/heat/253/voie/2012', $editor, $b64), 200,
           { status => 'success', voie => { %{ $ORIG->{voie} }, score => '102.5 kg', score_status => 'entered' } },
           '/small: a 64-byte body is accepted');
check_json(req(PUT => $V, $editor, '{"score":null}'), 200, $ORIG, '(score put back)');

# ---- 403 and 405 ----
refused(req(PUT => $V, $reader, '{"score":"reader"}'), 403, 'Forbidden', 'reader PUT');
refused(req(DELETE => $V, $reader), 403, 'Forbidden', 'reader DELETE');
refused(req(PUT => '/api/competition/2/heat/253/line/2012', $editor, '{"score":"b"}'), 405,
        'Method not allowed', 'PUT on the variant B line');

check_json(req(GET => '/api/competition/2/heat/253/line/2012', $reader), 200, $ORIG_LINE,
           'lane 2012 after all: the line is as in the demo data');
# ---- scores of 65 characters on a heat without WOD (lane 2029 of heat 258) ----
my $F = "/api$FREE{voie}";
my $FREE_ORIG = { status => 'success', voie => (free_lanes())[2] };
check_json(req(GET => $F, $reader), 200, $FREE_ORIG, 'lane 2029 (heat 258, no WOD) before');
my @long = (
    ['score of 65 characters', '{"score":"' . ('x' x 65) . '"}'],
    ['score of 65 non-ASCII characters', qq({"score":"$e65"})],
    ['score of 65 characters outside the BMP', qq({"score":"@{["\x{1F3C6}" x 65]}"})],
    ['score of 65 escaped surrogate pairs', '{"score":"' . ('\ud83c\udfc6' x 65) . '"}'],
);
for my $b (@long) {
    check_error(req(PUT => $F, $editor, $b->[1]), 400, 'Invalid body: score longer than 64 characters',
                "heat without WOD, $b->[0]: 400");
    check_json(req(GET => $F, $reader), 200, $FREE_ORIG, "heat without WOD, $b->[0]: lane unchanged");
}

# in case a refused write went through after all: put it back for the other tests
req(PUT => $V, $editor, '{"number":2,"spot_id":"152","score":null,"tiebreak":null}');
req(PUT => $F, $editor, '{"number":3,"spot_id":null,"score":null,"tiebreak":null}');

done_testing();
