# Query parameters on lists (shared API.md Part 2, "Query parameters"; doc/api.md):
# limit (1-1000) and offset (0 or more) page every list, with Link rel="next" on
# every page but the last and X-Total-Count on every list answer; filters division
# (spot list), status and wod (both heat lists); a known parameter with a bad value
# is 400 "Invalid query" (on a list that exists; 404 first), unknown ones are
# ignored; each parameter set has its own ETag (their order does not matter), 304
# for it; a flood of distinct parameter sets does not evict the other answers.
# Expectations come from the whole lists the API gives, cut and filtered here.
# tests: 50
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $R = login('demo', 'demo');
ok(defined $R, 'demo logs in') or die "cannot log in\n";
local $RankingTest::UA = RankingTest::ua(keep_alive => 1);   # one connection: one child
my $BADQ = { status => 'error', message => 'Invalid query' };

sub list { my ($path, $key) = @_; my $res = req(GET => $path, $R); return ($res, decode($res)->{$key} // []) }

# ---- paging
my ($all, $spots) = list('/api/competition/2/spot/', 'spots');
my $n = @$spots;
ok($n >= 6, "competition 2 has $n spots");
is($all->header('X-Total-Count'), $n, 'the whole list: X-Total-Count');
ok(!defined $all->header('Link'), 'the whole list: no Link');
my ($p1, $s1) = list('/api/competition/2/spot/?limit=2', 'spots');
is_deeply($s1, [@$spots[0, 1]], 'limit=2: the first two');
is($p1->header('X-Total-Count'), $n, 'X-Total-Count: the whole list\'s length');
is($p1->header('Link'), '</api/competition/2/spot/?limit=2&offset=2>; rel="next"', 'Link to the next page');
my ($p2, $s2) = list('/api/competition/2/spot/?limit=2&offset=2&_=17', 'spots');
is_deeply($s2, [@$spots[2, 3]], 'limit=2&offset=2: the next two');
is($p2->header('Link'), '</api/competition/2/spot/?limit=2&_=17&offset=4>; rel="next"',
   'Link keeps the other parameters');
my $lastoff = $n - 2;
my ($pl, $sl) = list("/api/competition/2/spot/?limit=2&offset=$lastoff", 'spots');
is_deeply($sl, [@$spots[$lastoff .. $n - 1]], 'the last page');
ok(!defined $pl->header('Link'), 'the last page: no Link');
my ($pb, $sb) = list("/api/competition/2/spot/?offset=$n", 'spots');
ok($pb->code == 200 && !@$sb, 'an offset past the end: 200 []');
is($pb->header('X-Total-Count'), $n, 'with X-Total-Count all the same');
my ($pm, $smax) = list('/api/competition/2/spot/?limit=1000', 'spots');
is_deeply($smax, $spots, 'limit=1000: everything');
my ($pw, $sw) = list('/api/competition/2/spot/?offset=1', 'spots');
is_deeply($sw, [@$spots[1 .. $n - 1]], 'offset without limit: the rest');

# ---- filters
my @rx = grep { ($_->{division} // '') eq 'RX' } @$spots;
my ($fd, $sd) = list('/api/competition/2/spot/?division=RX', 'spots');
is_deeply($sd, \@rx, 'division=RX: the RX spots');
is($fd->header('X-Total-Count'), scalar @rx, 'X-Total-Count of the filtered list');
my ($fd2, $sd2) = list('/api/competition/2/spot/?division=RX&limit=1&offset=1', 'spots');
is_deeply($sd2, [$rx[1]], 'a filter and a page');
my ($fn, $sn) = list('/api/competition/2/spot/?division=Nobody', 'spots');
ok($fn->code == 200 && !@$sn && $fn->header('X-Total-Count') eq '0', 'a division nobody has: 200 [], 0');
my (undef, $heats) = list('/api/competition/2/heat/', 'heats');
for my $st (qw(scheduled running finished)) {
    my (undef, $h) = list("/api/competition/2/heat/?status=$st", 'heats');
    is_deeply($h, [grep { $_->{status} eq $st } @$heats], "variant B heats, status=$st");
}
my (undef, $hw) = list('/api/competition/2/heat/?wod=18', 'heats');
is_deeply($hw, [grep { ($_->{wod_id} // '') eq '18' } @$heats], 'variant B heats, wod=18');
my (undef, $zh) = list('/api/competition/2/zone/26/heat/', 'heats');
my (undef, $zhf) = list('/api/competition/2/zone/26/heat/?status=scheduled&wod=18', 'heats');
is_deeply($zhf, [grep { $_->{status} eq 'scheduled' && ($_->{wod_id} // '') eq '18' } @$zh],
          'variant A heats, status and wod');
my (undef, $v) = list('/api/competition/2/zone/26/heat/255/voie/?limit=1', 'voies');
is(scalar @$v, 1, 'a lane list pages too');
my (undef, $w) = list('/api/competition/?limit=1', 'competitions');
is(scalar @$w, 1, 'the competition list pages too');
my (undef, $sq) = list('/api/competition/2/spot/?status=bogus&wod=x', 'spots');
is_deeply($sq, $spots, 'parameters of another list are ignored on this one');

# ---- bad values
for my $q ('limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'limit=2&limit=2', 'limit=',
           'division=a&division=b', 'limit=%zz') {
    check_json(req(GET => "/api/competition/2/spot/?$q", $R), 400, $BADQ, "spots ?$q: 400");
}
for my $q ('status=bogus', 'wod=x', 'wod=0', 'status=running&status=running') {
    check_json(req(GET => "/api/competition/2/heat/?$q", $R), 400, $BADQ, "heats ?$q: 400");
}
check_json(req(GET => '/api/competition/999999/spot/?limit=0', $R), 404,
           { status => 'error', message => 'Not found' }, 'a bad query of a list that does not exist: 404');

# ---- ETags
my %etag = map { $_ => req(GET => "/api/competition/2/spot/$_", $R)->header('ETag') }
           ('', '?limit=2', '?limit=3', '?offset=2&limit=2', '?limit=2&offset=2', '?limit=2&cb=1',
            '?division=RX', '?limit=02');
isnt($etag{'?limit=2'}, $etag{''}, 'a page has its own ETag');
isnt($etag{'?limit=2'}, $etag{'?limit=3'}, 'each page its own');
is($etag{'?offset=2&limit=2'}, $etag{'?limit=2&offset=2'}, 'the order of the parameters does not matter');
is($etag{'?limit=2&cb=1'}, $etag{'?limit=2'}, 'an unknown parameter does not change it');
is($etag{'?limit=02'}, $etag{'?limit=2'}, 'nor a leading zero');
isnt($etag{'?division=RX'}, $etag{''}, 'a filter has its own ETag');
is(req(GET => '/api/competition/2/spot/?limit=2&offset=2', $R, undef, { 'If-None-Match' => $etag{'?offset=2&limit=2'} })->code,
   304, '304 for a page');

# ---- a flood of distinct parameter sets does not evict the other answers
req(GET => '/api/competition/2/spot/', $R);   # the whole list, cached in this child
for my $i (1 .. 4200) {   # more than the 4,096 entries of the main answer cache
    req(GET => "/api/competition/1/spot/?offset=$i", $R)->code == 200 or die "flood $i\n";
}
my $status = sub {
    my %t = map { /^(Ranking\w+): (\d+)$/ ? ($1 => $2) : () } split /\n/, req(GET => '/ranking-status?auto')->content;
    return \%t;
};
my $t0 = $status->();
req(GET => '/api/competition/2/spot/', $R);
my $t1 = $status->();
is($t1->{RankingAnswerMisses} - $t0->{RankingAnswerMisses}, 0,
   'after 4,200 distinct pages, the whole list is still cached (no new build)');
is($t1->{RankingAnswerHits} - $t0->{RankingAnswerHits}, 1, '... it was a hit');

tests_declared_ok(__FILE__);
done_testing();
