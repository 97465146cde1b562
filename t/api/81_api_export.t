# A competition built only through the API (API.md part 3: the competition, its WODs,
# the teams from a spreadsheet's CSV, a zone, a heat, its lanes, a judge's scores; it
# publishes validated scores, with a cut line: one lane validated, one entered again
# after its validation)
# gives, through `ranking-admin export`, the same document as the same competition
# imported with the command (issue 27): the export is taken, the competition deleted
# through the API, the document (less its "origin", which records what it was made
# from) imported with `ranking-admin import`, exported again, and the two documents
# compared.  Works on a competition of its own, gone at the end.
# tests: 28 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use JSON::PP;
use Test::More;
use RankingTest;

my $org = login('organizer', 'organizer');
my $judge = login('judge', 'judge');
ok(defined $org && defined $judge, 'organizer and judge log in') or die "cannot log in\n";

sub created {
    my ($res, $key, $name) = @_;
    is($res->code, 201, "$name: 201") or diag($res->content);
    return (decode($res) // {})->{$key}{id};
}

my $c = created(req(POST => '/api/competition/', $org,
                    { name => 'Built by API Open', location => 'Lille', start_date => '2026-12-05',
                      end_date => '2026-12-06', timezone => 'Europe/Paris', ranking => 'places',
                      publication => 'validated', advance => 3 }),
                'competition', 'the competition');
my $C = "/api/competition/$c";
my $w1 = created(req(POST => "$C/wod/", $org, { name => 'Fran', scoring => 'time', time_cap => 600 }),
                 'wod', 'a time WOD with a cap');
my $w2 = created(req(POST => "$C/wod/", $org, { name => 'Max Cleans', scoring => 'load',
                                                description => '1RM in 10 minutes' }),
                 'wod', 'a load WOD');
my $res = req(POST => "$C/spot/", $org,
              "name,division,affiliate,bib\nIron Lions,RX,CF Lille,11\nSteel Owls,RX,,12\n"
              . "Rust Rats,Scaled,CF Arras,21\nNo Bib Crew,Scaled,,\n",
              { 'Content-Type' => 'text/csv; charset=utf-8' });
is($res->code, 200, 'the teams from a CSV: 200') or diag($res->content);
my %spot = map { $_->{name} => $_->{id} } @{ (decode(req(GET => "$C/spot/", $org)) // {})->{spots} // [] };
is(scalar keys %spot, 4, '... four spots');
my $z = created(req(POST => "$C/zone/", $org, { name => 'Floor A', lane_count => 4 }), 'zone', 'a zone');
my $h = created(req(POST => "$C/zone/$z/heat/", $org,
                    { number => 1, wod_id => $w1, start_time => '2026-12-05T09:00:00Z' }),
                'heat', 'a heat of the time WOD');
my @lanes;
my $n = 0;
for my $name ('Iron Lions', 'Steel Owls') {
    push @lanes, created(req(POST => "$C/zone/$z/heat/$h/voie/", $org,
                             { number => ++$n, spot_id => $spot{$name} }), 'voie', "lane $n");
}
$res = req(PUT => "$C/zone/$z/heat/$h/voie/$lanes[0]", $judge, { score => '4:12', tiebreak => '2:01' });
is($res->code, 200, "a judge's score on lane 1") or diag($res->content);
$res = req(PUT => "$C/zone/$z/heat/$h/voie/$lanes[1]", $judge, { score => '5:00' });
is($res->code, 200, "a judge's score on lane 2") or diag($res->content);
$res = req(POST => "$C/zone/$z/heat/$h/validate", $org, '{}');
is($res->code, 200, 'the heat validated: both lanes published') or diag($res->content);
$res = req(PUT => "$C/zone/$z/heat/$h/voie/$lanes[1]", $judge, { score => '4:58', tiebreak => '1:30' });
is($res->code, 200, "lane 2's score entered again (5:00 stays published)") or diag($res->content);

my ($rc, $out) = admin('export', $c);
is($rc, 0, 'ranking-admin export of the competition built through the API') or diag($out);
my $doc = eval { decode_json($out) };
ok($doc && $doc->{competition}, '... one JSON document') or diag($out);
my $orig = delete $doc->{origin};
ok($orig, '... which records its origin');
is(scalar @{ $doc->{lanes} // [] }, 2, '... with its two lanes');
is(join(' ', map { $_ // 'null' } @{ $doc->{competition} // {} }{qw(publication advance)}),
   'validated 3', '... the competition publishing validated scores, advance 3');
is(join(' | ', map { my $l = $_; join(' ', map { $_ // 'null' }
                                           @$l{qw(score tiebreak score_status published_score published_tiebreak)}) }
                   @{ $doc->{lanes} // [] }),
   '4:12 2:01 validated 4:12 2:01 | 4:58 1:30 entered 5:00 null',
   '... a validated lane, a lane entered again after its validation');

# the competition goes (through the API), then comes back from the document
is(join(' ', map { req(PUT => "$C/zone/$z/heat/$h/voie/$_", $judge, { score => undef, tiebreak => undef })->code }
              @lanes), '200 200', 'the scores taken off again (a heat with a score cannot be deleted)');
is(req(DELETE => "$C/zone/$z/heat/$h", $org)->code, 200, 'the heat deleted with its lanes');
my @gone = map { req(DELETE => $_, $org)->code }
           ("$C/zone/$z", (map { "$C/spot/$_" } sort values %spot), "$C/wod/$w1", "$C/wod/$w2", $C);
is("@gone", join(' ', (200) x 8), '... then the zone, the spots, the WODs and the competition');
my $canon = JSON::PP->new->canonical->utf8;
($rc, $out) = admin({ stdin => $canon->encode($doc) }, 'import', '-');
is($rc, 0, 'ranking-admin import of the document') or diag($out);
($rc, $out) = admin('export', $c);
is($rc, 0, 'ranking-admin export of the imported competition') or diag($out);
my $again = eval { decode_json($out) } // {};
delete $again->{origin};
is($canon->encode($again), $canon->encode($doc),
   'the imported competition exports the same document as the one built through the API');

# clean up: the imported competition goes too (its score first: a heat with a score
# cannot be deleted)
is(req(GET => $C, $org)->code, 200, 'the imported competition is served by the API');
my @heats = map { $_->{id} } @{ (decode(req(GET => "$C/zone/$z/heat/", $org)) // {})->{heats} // [] };
req(PUT => "$C/zone/$z/heat/$h/voie/$_", $judge, { score => undef, tiebreak => undef }) for @lanes;
my @end = map { req(DELETE => $_, $org)->code }
          ((map { "$C/zone/$z/heat/$_" } @heats), "$C/zone/$z", (map { "$C/spot/$_" } sort values %spot),
           "$C/wod/$w1", "$C/wod/$w2", $C);
ok(!grep({ $_ != 200 } @end), 'and it is deleted through the API at the end') or diag("@end");
done_testing();
