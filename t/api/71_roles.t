# Roles and grants (API.md part 3, "Roles"): reader < editor < organizer; a user's
# role on a competition is the higher of its server-wide role and its grant there
# (ranking-admin grant / revoke-grant), everywhere else its server-wide role; a grant
# or its removal applies to the tokens the user already has, at once for writes; a
# write without the role is 403 after 401, the route's 404 and 405, and before the
# existence of what the path names (so a 403 tells nothing a read would not).
# Writes lane 2029 (heat 258, zone 26 of competition 2: free-text scores) and puts it
# back; leaves no grant behind.
# tests: 44 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $reader = login('demo', 'demo');
my $editor = login('judge', 'judge');
my $organizer = login('organizer', 'organizer');
ok(defined $reader && defined $editor && defined $organizer, 'demo, judge and organizer log in')
    or die "cannot log in\n";

my $V2 = '/api/competition/2/zone/26/heat/258/voie/2029';   # competition 2's lane
my $V1 = '/api/competition/1/zone/21/heat/201/voie/1001';   # competition 1's (never written)
my @grants;   # (user) to revoke at the end, also when a test dies
END { admin('revoke-grant', $_, '--competition', '2') for @grants }

sub score_put { my ($tok, $score, $path) = @_;
    return req(PUT => $path // $V2, $tok, { score => $score }) }
sub lane_score { my $d = decode(req(GET => $V2, $editor)); return $d->{voie}{score} }

# ---- server-wide roles ----
check_error(score_put($reader, 'r1'), 403, 'Forbidden', 'a reader cannot PUT a lane');
check_error(req(DELETE => $V2, $reader), 403, 'Forbidden', 'a reader cannot DELETE a lane');
is(lane_score(), undef, '... and the lane is unchanged');
is(score_put($editor, 'by judge')->code, 200, 'an editor PUTs a lane');
my $res = score_put($organizer, 'by organizer');
is($res->code, 200, 'an organizer may do what an editor may: PUT a lane');
is(decode($res)->{voie}{score}, 'by organizer', '... the organizer\'s score is stored');
is(req(GET => "$V2/history", $organizer)->code, 200, 'an organizer reads a lane\'s history');
check_error(req(GET => "$V2/history", $reader), 403, 'Forbidden', 'a reader does not');

# ---- order of checks: 404 of the route shape and 405 before 403; 403 before the
# existence of the resources in the path ----
check_error(req(PUT => '/api/competition/2/zone/26/heat/258/voie/x', $reader, { score => '1' }),
            404, 'Not found', 'a reader\'s PUT on a path that is no route: 404');
check_405(req(POST => $V2, $reader, { score => '1' }), 'GET, HEAD, PUT, DELETE',
          'a reader\'s POST on a lane');
my $missing = req(PUT => '/api/competition/999/zone/26/heat/258/voie/2029', $reader, { score => '1' });
my $existing = req(PUT => $V1, $reader, { score => '1' });
check_error($missing, 403, 'Forbidden', 'a reader\'s PUT in a competition that does not exist: 403');
is($missing->content, $existing->content, '... the same answer as in one that exists');
check_error(req(PUT => '/api/competition/2/zone/26/heat/258/voie/999999', $reader, { score => '1' }),
            403, 'Forbidden', 'a reader\'s PUT of a lane that does not exist: 403, not 404');
check_error(req(PUT => '/api/competition/2/zone/26/heat/258/voie/999999', $editor, { score => '1' }),
            404, 'Not found', 'an editor\'s: 404');

# ---- a grant raises a reader on one competition only ----
push @grants, 'demo';
admin_ok('grant demo editor on competition 2', 'grant', 'demo', 'editor', '--competition', '2');
$res = score_put($reader, 'by demo');
is($res->code, 200, 'the reader\'s existing token may now PUT in competition 2')
    or diag($res->content);
is(lane_score(), 'by demo', '... stored');
is(req(GET => "$V2/history", $reader)->code, 200, '... and read its lanes\' history');
check_error(score_put($reader, 'x', $V1), 403, 'Forbidden', '... but not in competition 1');
check_error(req(GET => "$V1/history", $reader), 403, 'Forbidden',
            '... nor read a history there');
my $fresh = login('demo', 'demo');
is(score_put($fresh, 'by demo again')->code, 200, 'a token taken after the grant has it too');

# a grant never lowers: an organizer's grant "editor" leaves it organizer
push @grants, 'organizer';
admin_ok('grant organizer editor on competition 2', 'grant', 'organizer', 'editor',
         '--competition', '2');
is(score_put($organizer, 'still organizer')->code, 200,
   'a lower grant leaves the server-wide role (the higher of the two)');

# an editor granted organizer: its role on competition 2 only (its writes there as
# an editor still pass; elsewhere it stays an editor)
push @grants, 'judge';
admin_ok('grant judge organizer on competition 2', 'grant', 'judge', 'organizer',
         '--competition', '2');
is(score_put($editor, 'judge as organizer')->code, 200, 'a granted organizer PUTs a lane');
check_error(req(GET => "$V1/history", $reader), 403, 'Forbidden',
            'the grants of others change nothing for the reader on competition 1');

# ---- a revoked grant stops at once for writes, on the token already used ----
# the token's role is cached (a read just now); the revocation is not followed by a
# pause: the next write must see it
is(req(GET => "$V2/history", $reader)->code, 200, 'the reader\'s token is in use (cached)');
{
    my @argv = ($ENV{RANKING_ADMIN}, '--driver', $ENV{RANKING_DBD_DRIVER} // 'sqlite3',
                '--params', $ENV{RANKING_DB}, 'revoke-grant', 'demo', '--competition', '2');
    unshift @argv, 'runuser', '-u', $ENV{RANKING_HTTPD_USER}, '--'
        if $> == 0 && $ENV{RANKING_HTTPD_USER};
    my $out = `@{[join ' ', map { "'$_'" } @argv]} 2>&1`;
    is($?, 0, 'revoke-grant demo (no pause after it)') or diag($out);
}
@grants = grep { $_ ne 'demo' } @grants;
check_error(score_put($reader, 'after revoke'), 403, 'Forbidden',
            'the very next write of the reader\'s token: 403');
check_error(req(DELETE => $V2, $reader), 403, 'Forbidden', '... a DELETE too');
isnt(lane_score(), 'after revoke', '... and nothing was written');
RankingTest::settle();
check_error(req(GET => "$V2/history", $reader), 403, 'Forbidden',
            'reads follow within the bounded staleness (RankingRevisionCheck)');
check_error(score_put($fresh, 'x'), 403, 'Forbidden', 'the other token of the reader too');

# ---- a server-wide role change applies to existing tokens too ----
admin_ok('role demo editor', 'role', 'demo', 'editor');
my $ok = score_put($reader, 'demo is an editor')->code == 200;
admin_ok('role demo reader again', 'role', 'demo', 'reader');
ok($ok, 'a reader made editor server-wide PUTs with its existing token');
$reader = login('demo', 'demo');   # (a role change keeps the tokens; a new one anyway)
check_error(score_put($reader, 'x'), 403, 'Forbidden', 'and back to reader: 403');

# ---- put everything back ----
for my $u (@grants) {
    admin_ok("revoke-grant $u", 'revoke-grant', $u, '--competition', '2');
}
@grants = ();
is(req(GET => "$V2/history", $editor)->code, 200, 'judge still reads histories (editor)');
is(score_put($editor, undef)->code, 200, 'lane 2029 put back (score null)');
is(lane_score(), undef, '... and it is');

done_testing();
