# POST /competition/{c}/spot/ with Content-Type: text/csv (API.md part 3): a team list
# from a spreadsheet, in one transaction (all lines or none): a line with a bib
# updates the spot with that bib, else the spot with the same name, else adds one;
# 200 {"status":"success","added":N,"updated":M}; errors are 400 with the line
# number; ';' as the separator; a BOM; organizers only; each spot added or updated is
# in the change log.  Works on a competition of its own, deleted at the end.
# tests: 28 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $org = login('organizer', 'organizer');
my $judge = login('judge', 'judge');
ok(defined $org && defined $judge, 'organizer and judge log in') or die "cannot log in\n";
my $CSV = { 'Content-Type' => 'text/csv; charset=utf-8' };

my $res = req(POST => '/api/competition/', $org, { name => 'Spreadsheet Games' });
is($res->code, 201, 'a competition of its own');
my $C = $res->header('Location');
my $c = decode($res)->{competition}{id};
sub spots { my $d = decode(req(GET => "$C/spot/", $org)) // {};
    return join ';', map { join ',', $_->{name}, $_->{division} // '-', $_->{affiliate} // '-',
                                     $_->{bib} // '-' } @{ $d->{spots} // [] } }
sub csv_post { my ($text, $tok) = @_; return req(POST => "$C/spot/", $tok // $org, $text, $CSV) }

check_json(csv_post("Name,Division,bib\nIron Lions,RX,1\nSteel Owls,RX,2\nRust Rats,,\n"), 200,
           { status => 'success', added => 3, updated => 0 }, 'a first list: 3 added');
is(spots(), 'Iron Lions,RX,-,1;Steel Owls,RX,-,2;Rust Rats,-,-,-', 'the spots as listed');
check_json(csv_post("\x{feff}bib;name;affiliate\n1;Iron Lions;CF Nantes\n;Rust Rats;CF Lille\n;New Team;\n"),
           200, { status => 'success', added => 1, updated => 2 },
           "';' separators and a BOM: by bib, by name, a new one");
is(spots(), 'Iron Lions,-,CF Nantes,1;Steel Owls,RX,-,2;Rust Rats,-,CF Lille,-;New Team,-,-,-',
   '... updated in place (a column the file does not have is null, as for the command), one added');
# two spots swap their bibs in one file
$res = csv_post("bib,name\n2,Iron Lions\n1,Steel Owls\n");
check_json($res, 200, { status => 'success', added => 0, updated => 2 },
           'lines with a bib update the spot with that bib (names follow)');
is(spots(), 'Steel Owls,-,-,1;Iron Lions,-,-,2;Rust Rats,-,CF Lille,-;New Team,-,-,-',
   '... the two spots swapped their bibs in one transaction');

# ---- errors: 400 with the line, nothing written ----
my $before = spots();
my $tag = req(GET => '/api/competition/', $org)->header('ETag');
for ([ "name,colour\nA,red\n", qr/^Invalid body: line 1: /, 'an unknown column' ],
     [ "division\nRX\n", qr/^Invalid body: line 1: /, 'no name column' ],
     [ "name,bib\nA,7\nB,8\n,9\n", qr/^Invalid body: line 4: /, 'an empty name at line 4' ],
     [ "name,bib\nA,12\nB,13\nC,12\n", qr/^Invalid body: line 4: bib 12 is used twice/,
       'a bib twice: at its second line' ],
     [ "name,bib\nA,x\n", qr/^Invalid body: line 2: /, 'a bib that is not a number' ]) {
    my ($text, $re, $what) = @$_;
    $res = csv_post($text);
    is($res->code, 400, "$what: 400");
    like((decode($res) // {})->{message} // '', $re, "$what: the message names the line");
}
is(spots(), $before, 'nothing was written by the refused lists');
is(req(GET => '/api/competition/', $org)->header('ETag'), $tag, '... the data revision did not move');

# ---- roles, media type, existence ----
check_error(csv_post("name\nX\n", $judge), 403, 'Forbidden', 'an editor: 403');
check_error(req(POST => '/api/competition/999999/spot/', $org, "name\nX\n", $CSV), 404, 'Not found',
            'a competition that does not exist: 404');
my $log = decode(req(GET => "$C/changes", $org)) // {};
my @spot_records = grep { $_->{resource} eq 'spot' } @{ $log->{changes} // [] };
is(scalar @spot_records, 3 + 3 + 2, 'each spot added or updated is in the change log');

# ---- take it down ----
my $d = decode(req(GET => "$C/spot/", $org)) // {};
is(req(DELETE => "$C/spot/$_->{id}", $org)->code, 200, "DELETE spot $_->{id}") for @{ $d->{spots} };
is(req(DELETE => $C, $org)->code, 200, 'DELETE the competition');

done_testing();
