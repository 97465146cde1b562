# ETags of single resources (API.md part 3): every competition, WOD, spot, zone and
# heat has a tag of its own on its detail GET and on every write answer (a hash of the
# resource as shown: "-r" and 32 hex digits), which changes only when what is shown of
# it changes; lists and leaderboards keep the revision's tag.  If-Match and
# If-None-Match: * on PATCH and DELETE: 412 and nothing changed.  Works on a
# competition of its own, deleted at the end.
# tests: 46 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $org = login('organizer', 'organizer');
my $demo = login('demo', 'demo');
ok(defined $org && defined $demo, 'organizer and demo log in') or die "cannot log in\n";
my $RTAG = qr/^"[0-9a-f]+-r[0-9a-f]{32}"$/;

sub made { my ($path, $body, $key) = @_;
    my $res = req(POST => $path, $org, $body);
    die "POST $path: " . $res->status_line . ' ' . $res->content . "\n" unless $res->code == 201;
    return (decode($res)->{$key}, $res->header('Location'), $res->header('ETag'));
}
sub tag { return req(GET => $_[0], $demo)->header('ETag') // 'none' }

my ($comp, $C, $ctag) = made('/api/competition/', { name => 'Tag Trophy' }, 'competition');
like($ctag // '', $RTAG, 'POST answer: an ETag of the resource');
is(tag($C), $ctag, '... the one its GET shows');
my ($w, $W, $wtag) = made("$C/wod/", { name => 'Grace', scoring => 'time' }, 'wod');
my ($s, $S, $stag) = made("$C/spot/", { name => 'Team', bib => 3 }, 'spot');
my ($z, $Z, $ztag) = made("$C/zone/", { name => 'Floor', lane_count => 4 }, 'zone');
my ($h, $H, $htag) = made("$Z/heat/", { number => 1, wod_id => $w->{id} }, 'heat');
my ($l, $L, $ltag) = made("$H/voie/", { number => 1, spot_id => $s->{id} }, 'voie');
for ([$W, $wtag, 'WOD'], [$S, $stag, 'spot'], [$Z, $ztag, 'zone'], [$H, $htag, 'heat']) {
    my ($p, $t, $what) = @$_;
    like($t // '', $RTAG, "$what: an ETag of its own");
    is(tag($p), $t, "$what: the GET shows the POST's tag");
}
like($ltag // '', qr/^"[0-9a-f]+-l[0-9a-f]{32}"$/, 'a new lane: the lane tag');
is(tag($L), $ltag, '... the one its GET shows');
is(tag("$C/heat/$h->{id}"), $htag, 'the heat read through variant B: the same tag');

# the tags of the others stay when one resource changes (the data revision moves)
my $list_tag = tag('/api/competition/');
my $res = req(PATCH => $S, $org, { name => 'Team Renamed' });
is($res->code, 200, 'PATCH the spot');
my $stag2 = $res->header('ETag') // '';
like($stag2, $RTAG, 'PATCH answer: an ETag');
isnt($stag2, $stag, '... a new one: the spot changed');
is(tag($S), $stag2, '... the one its GET shows');
isnt(tag('/api/competition/'), $list_tag, 'the list\'s tag (the revision) moved');
is(tag($C), $ctag, 'the competition\'s tag did not');
is(tag($W), $wtag, 'nor the WOD\'s');
is(tag($Z), $ztag, 'nor the zone\'s');
is(tag($H), $htag, 'nor the heat\'s');
# a lane shows its spot's name: the lane's tag follows the rename
isnt(tag($L), $ltag, 'the lane of the spot shows its new name: its tag changed');
# a PATCH that changes nothing shown keeps the tag
$res = req(PATCH => $H, $org, { number => 1 });
is($res->header('ETag'), $htag, 'a PATCH to the same value: the same tag');
my $rev_tag = tag('/api/competition/');
like($rev_tag, qr/^"[0-9a-f]+-[0-9]+"$/, 'lists keep the revision\'s tag');
like(tag("$C/leaderboard"), qr/^"[0-9a-f]+-[0-9]+"$/, 'leaderboards too');

# 304 with the resource's tag
$res = req(GET => $H, $demo, undef, { 'If-None-Match' => $htag });
is($res->code, 304, 'GET with If-None-Match of its tag: 304');

# ---- preconditions on PATCH and DELETE ----
my $before = req(GET => $H, $demo)->content;
check_error(req(PATCH => $H, $org, { status => 'running' }, { 'If-Match' => $stag }), 412,
            'Precondition failed', 'PATCH with If-Match of another tag: 412');
check_error(req(PATCH => $H, $org, { status => 'running' }, { 'If-None-Match' => '*' }), 412,
            'Precondition failed', 'PATCH with If-None-Match: *: 412');
check_error(req(PATCH => $H, $org, '{', { 'If-Match' => '"0-r0"' }), 412, 'Precondition failed',
            'a stale If-Match with a bad body: 412 (before the body)');
check_error(req(PATCH => "$Z/heat/999999", $org, { status => 'running' }, { 'If-Match' => '"0-r0"' }),
            404, 'Not found', 'a stale If-Match on a heat that does not exist: 404 first');
is(req(GET => $H, $demo)->content, $before, '... the heat is unchanged');
$res = req(PATCH => $H, $org, { status => 'running' }, { 'If-Match' => $htag });
is($res->code, 200, 'PATCH with If-Match of its current tag: 200');
my $htag2 = $res->header('ETag');
check_error(req(PATCH => $H, $org, { status => 'finished' }, { 'If-Match' => $htag }), 412,
            'Precondition failed', 'the same If-Match again (now stale): 412');
is(decode(req(GET => $H, $demo))->{heat}{status}, 'running', '... the status is still running');
$res = req(PATCH => $H, $org, { status => 'finished' }, { 'If-Match' => "\"x\", $htag2" });
is($res->code, 200, 'If-Match with a list holding the current tag: 200');
check_error(req(DELETE => $W, $org, undef, { 'If-Match' => $wtag . 'x' }), 412, 'Precondition failed',
            'DELETE with a stale If-Match: 412');
check_error(req(DELETE => $S, $org, undef, { 'If-None-Match' => '*' }), 412, 'Precondition failed',
            'DELETE with If-None-Match: *: 412');
is(req(GET => $S, $demo)->code, 200, '... the spot is still there');

# ---- take it down (DELETE with the current tags) ----
is(req(DELETE => $L, $org, undef, { 'If-Match' => tag($L) })->code, 200, 'DELETE the lane (If-Match)');
is(req(DELETE => $_, $org, undef, { 'If-Match' => tag($_) })->code, 200, "DELETE $_ (If-Match)")
    for $H, $S, $W, $Z, $C;

done_testing();
