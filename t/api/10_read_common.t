# Reads, the routes common to both variants (competitions, wods, spots), on /api: the exact body of every
# route for competition 1 (and the empty lists of competition 3), compared with the
# expectations written by hand in t/lib/RankingTest.pm from sql/demo.sql: list
# order (nulls last), ids as strings, integers as numbers, null fields, spot_name.
# Then: every element of every list equals the detail of that element.
# tests: 42 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $tok = login('demo', 'demo');
ok(defined $tok, 'demo logs in') or die "cannot log in\n";

check_reads($tok, 'common');

done_testing();
