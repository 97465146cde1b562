# Reads, variant A (zones, heats of a zone, voies), on /api: the exact body of every
# route for competition 1 (and the empty lists of competition 3), compared with the
# expectations written by hand in t/lib/RankingTest.pm from sql/demo.sql: list
# order (nulls last), ids as strings, integers as numbers, null fields, spot_name.
# Then: every element of every list equals the detail of that element.
# tests: 86 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $tok = login('demo', 'demo');
ok(defined $tok, 'demo logs in') or die "cannot log in\n";

my @routes = grep { $_->{variant} eq 'A' } read_routes();
for my $r (@routes) {
    check_json(req(GET => "/api$r->{path}", $tok), 200, $r->{expected}, "GET $r->{path}");
}

# detail equals its list element (as served, whatever the expectations say)
my %singular = (competitions => 'competition', wods => 'wod', spots => 'spot', zones => 'zone',
                heats => 'heat', voies => 'voie', lines => 'line');
for my $r (grep { $_->{list} } @routes) {
    my $list = decode(req(GET => "/api$r->{path}", $tok)) // {};
    for my $el (@{ $list->{$r->{key}} // [] }) {
        my $path = "/api$r->{path}" . ($el->{id} // 'undef');
        my $one = decode(req(GET => $path, $tok)) // {};
        is(json_cmp($one->{$singular{$r->{key}}}, $el), undef,
           "$path equals its element of $r->{path}");
    }
}

done_testing();
