# Revocation and disabled users, through the admin command on the live database:
# `ranking-admin revoke USER` and `disable USER` cut the user's tokens at once,
# `delete USER` too; other users are untouched.  Leaves every user as it found it.
# tests: 33 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
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
check_401(req(GET => '/api/competition/1', $again), 1, "a disabled user's token stops at once");
check_401(req(HEAD => '/api/competition/1', $again), 1, '... also for HEAD');
check_error(req(POST => '/api/connect', undef, { client_id => 'demo', client_secret => 'demo' }),
            401, 'Invalid credentials', 'a disabled user cannot log in');
check_json(req(GET => '/api/competition/1', $judge), 200, $C1, "judge's token still works");
admin_ok('ranking-admin enable demo', 'enable', 'demo');
$re_enable = 0;
my $after = login('demo', 'demo');
check_json(req(GET => '/api/competition/1', $after), 200, $C1, 're-enabled demo logs in again');

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
check_401(req(GET => '/api/competition/1', $tmp), 1, "a deleted user's token stops at once");
check_error(req(POST => '/api/connect', undef, { client_id => $user, client_secret => "s3cret-$$" }),
            401, 'Invalid credentials', 'a deleted user cannot log in');

done_testing();
