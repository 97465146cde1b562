# Revocation and disabled users, through the admin command on the live database:
# `ranking-admin revoke USER` and `disable USER` cut the user's tokens, `delete USER`
# too (at once for writes, within RankingRevisionCheck for reads: admin() waits that
# long, but in the section that measures the bound); other users are untouched.  Leaves every user as it found it.
# tests: 42 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(time);
use RankingTest;

ok(defined $ENV{RANKING_ADMIN} && -x $ENV{RANKING_ADMIN},
   'RANKING_ADMIN is an executable (' . ($ENV{RANKING_ADMIN} // 'unset') . ')')
    or die "no admin command: build it (tools/ranking-admin)\n";

my $C1 = { status => 'success', competition => $COMP{1} };
my $re_enable = 0;
END { admin('enable', 'demo') if $re_enable }   # also when a test dies half-way

# ---- revoke ----
my @demo = (login('demo', 'demo'), login('demo', 'demo', '/short'), login('demo', 'demo', '/b'));
my $judge = login('judge', 'judge');
is(scalar(grep { defined } @demo, $judge), 4, 'three demo tokens, one judge token');
check_json(req(GET => '/api/competition/1', $_), 200, $C1, 'demo token works before revoke')
    for @demo;

admin_ok('ranking-admin revoke demo', 'revoke', 'demo');
check_401(req(GET => '/api/competition/1', $demo[$_]), 1, "demo token $_ after revoke") for 0 .. 2;
check_401(req(GET => '/b/competition/1', $demo[2]), 1, 'demo token 2 after revoke, on its mount');
check_json(req(GET => '/api/competition/1', $judge), 200, $C1, "judge's token still works");
my $again = login('demo', 'demo');
check_json(req(GET => '/api/competition/1', $again), 200, $C1, 'demo can log in again after revoke');

# ---- disable / enable ----
$re_enable = 1;
admin_ok('ranking-admin disable demo', 'disable', 'demo');
check_401(req(GET => '/api/competition/1', $again), 1, "a disabled user's token stops");
check_401(req(HEAD => '/api/competition/1', $again), 1, '... also for HEAD');
check_error(req(POST => '/api/connect', undef, { client_id => 'demo', client_secret => 'demo' }),
            401, 'Invalid credentials', 'a disabled user cannot log in');
check_json(req(GET => '/api/competition/1', $judge), 200, $C1, "judge's token still works");
admin_ok('ranking-admin enable demo', 'enable', 'demo');
$re_enable = 0;
my $after = login('demo', 'demo');
check_json(req(GET => '/api/competition/1', $after), 200, $C1, 're-enabled demo logs in again');

# ---- disable: at once for writes, within RankingRevisionCheck for reads ----
# (doc/api.md 2.2.)  A write reads the database's auth revision itself: the token of
# a user just disabled is refused by the first write after the command.  A read may
# trust the revision another child read up to RankingRevisionCheck (300 ms here)
# before: once that has passed since the command, every read is refused, whichever
# child answers it (a new connection each).
{
    # a write, at once (first: a write's fresh revision is shared with the reads)
    my $tok = login('demo', 'demo');
    check_json(req(GET => '/api/competition/1', $tok), 200, $C1, 'demo reads before the disable');
    $re_enable = 1;
    admin_ok('ranking-admin disable demo (no wait after it)', { nosettle => 1 }, 'disable', 'demo');
    # demo is a reader: a write its token still passed would be 403
    check_401(req(PUT => '/api/competition/2/zone/26/heat/253/voie/2012', $tok, { score => '1 kg' }),
              1, "a disabled user's token on a write, at once");
    admin_ok('ranking-admin enable demo', 'enable', 'demo');
    $re_enable = 0;

    # reads: within the bound
    $tok = login('demo', 'demo');
    check_json(req(GET => '/api/competition/1', $tok), 200, $C1, 'demo reads before the disable (again)');
    $re_enable = 1;
    admin_ok('ranking-admin disable demo (no wait after it, again)', { nosettle => 1 }, 'disable', 'demo');
    my $t0 = time;
    my $bound = ($RankingTest::REVISION_CHECK_MS + 50) / 1000;
    my ($first, @codes);
    while (!defined $first && time - $t0 < $bound) {   # when the reads see it (reported)
        $first = time - $t0 if req(GET => '/api/competition/1', $tok)->code == 401;
        Time::HiRes::sleep(0.02);
    }
    Time::HiRes::sleep($bound - (time - $t0)) if time - $t0 < $bound;
    push @codes, req($_ % 2 ? 'HEAD' : 'GET', '/api/competition/1', $tok)->code for 1 .. 12;
    ok(!grep({ $_ != 401 } @codes), sprintf('reads with it %d ms after the disable '
       . '(RankingRevisionCheck %d ms): all 401, in every child (first 401 after %s ms): %s',
       1000 * (time - $t0), $RankingTest::REVISION_CHECK_MS, defined $first ? int(1000 * $first) : 'none', "@codes"));
    admin_ok('ranking-admin enable demo', 'enable', 'demo');
    $re_enable = 0;
}

# ---- a user created, used, deleted ----
my $user = "tmp$$";
admin_ok("ranking-admin add $user --role editor", { stdin => "s3cret-$$\n" },
         'add', $user, '--role', 'editor');
my $tmp = login($user, "s3cret-$$");
ok(defined $tmp, 'the new user logs in');
check_json(req(GET => '/api/competition/1', $tmp), 200, $C1, "the new user's token works");
check_error(req(PUT => '/api/competition/2/zone/26/heat/253/voie/2012', $tmp, { score => [] }),
            400, undef, 'the new user is an editor (a bad PUT is a 400, not a 403)');
admin_ok("ranking-admin delete $user", 'delete', $user);
check_401(req(GET => '/api/competition/1', $tmp), 1, "a deleted user's token stops");
check_error(req(POST => '/api/connect', undef, { client_id => $user, client_secret => "s3cret-$$" }),
            401, 'Invalid credentials', 'a deleted user cannot log in');

done_testing();
