#!/usr/bin/perl
# t/multi/two-servers.pl BUILD_DIR
#
# Two httpd servers (different ports, event MPM) sharing one PostgreSQL database:
#  - a token issued by one is accepted by the other;
#  - a lane PUT through one is read at once through every child of that server, and
#    through the other within RankingRevisionCheck (1 s);
#  - revoking a user (ranking-admin) locks them out of both within RankingRevisionCheck;
#  - a grant on a competition, and its removal, apply at once to the writes of the
#    user's existing token on both;
#  - concurrent lane writers spread over both servers lose no update;
#  - a lane change through one server reaches an event stream open on the other, and
#    a long poll waiting on the other answers with the new data;
#  - safe retries: a write with an Idempotency-Key retried on the other server is
#    replayed there, not applied twice, also when both arrive at once.
# Starts a throwaway PostgreSQL (t/pg/pg-server.sh) and both servers, stops them all.
# Prints "N passed, M failed" and exits non-zero on any failure.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(remove_tree);
use File::Temp qw(tempdir);
use LWP::UserAgent;
use POSIX qw(_exit);
use Time::HiRes ();
use lib dirname(abs_path(__FILE__)) . '/../lib';
use RkServer;
use SseClient;

*ok = \&RkServer::ok;
*like = \&RkServer::like;

my $build = abs_path(shift // 'build') or die "usage: $0 BUILD_DIR\n";
my $root  = abs_path(dirname(__FILE__) . '/../..');
my $so    = "$build/mod_ranking/.libs/mod_ranking.so";
my $admin = "$build/tools/ranking-admin";
-f $so    or die "no module at $so\n";
-x $admin or die "no ranking-admin at $admin\n";

my $tmp = tempdir('rk-two-servers-XXXXXX', TMPDIR => 1, CLEANUP => 0);
chmod 0755, $tmp;   # the postgres and www-data users work inside
my $pgdir  = "$tmp/pg";
my $pgport = RkServer::free_port();
my ($conninfo, @servers);
my $CHECK = 1000;
my $moddir = `apxs -q LIBEXECDIR`;
chomp $moddir;   # RankingRevisionCheck (ms) of both servers: the default
my $parent = $$;

sub cleanup {
    return if $$ != $parent;
    $_->stop for @servers;
    @servers = ();
    system("$root/t/pg/pg-server.sh", 'stop', $pgdir, $pgport) if $conninfo;
    $conninfo = undef;
    remove_tree($tmp);
}
$SIG{INT} = $SIG{TERM} = sub { cleanup(); exit 1 };
END { cleanup() }

$conninfo = `"$root/t/pg/pg-server.sh" start "$pgdir" $pgport`;
$? == 0 or die "cannot start PostgreSQL\n";
chomp $conninfo;
for my $i (0, 1) {
    push @servers, RkServer->new(dir => "$tmp/httpd$i", so => $so, driver => 'pgsql',
                                 params => $conninfo,
                                 extra => "DBDMax 25\nRankingRevisionCheck $CHECK\n"
                                          . "LoadModule status_module $moddir/mod_status.so\n"
                                          . "<Location /status>\n SetHandler server-status\n"
                                          . " Require all granted\n</Location>");
}
my ($a, $b) = @servers;

# ---- a token from one server works on the other -------------------------------
my $demo = $a->login('demo', 'demo');
ok(defined $demo, 'demo logs in on server A');
my ($code, $data) = $b->call('GET', '/competition/', $demo);
ok($code == 200 && @{ $data->{competitions} } == 5, 'server B accepts the token of server A');
my $judge = $b->login('judge', 'judge');
ok(defined $judge, 'judge logs in on server B');
($code) = $a->call('GET', '/competition/1', $judge);
ok($code == 200, 'server A accepts the token of server B');

# ---- RankingRevisionCheck: the bounds -------------------------------------------
# Each server's children share the change counters they read (RankingRevisionCheck,
# $CHECK ms here): a write through a server is seen at once by every child of that
# server; one through the other server (or ranking-admin) within $CHECK ms.
my $lane = '/competition/2/zone/26/heat/255/voie/2017';
my $line = '/competition/2/heat/255/line/2017';
sub score_on {   # the lane's score read through SERVER on a new connection
    my ($server, $token, $path) = @_;
    my ($c, $d) = $server->call('GET', $path // $lane, $token, undef, LWP::UserAgent->new(timeout => 10));
    return $c == 200 ? ($d->{voie} // $d->{line} // {})->{score} // '' : "status $c";
}
# heat 255 is of WOD 18 (reps): a score is a number of reps
Time::HiRes::sleep($CHECK / 1000 + 0.2);   # what B holds is out of date:
score_on($b, $demo);                       # this read of B reads the counters (t_r)
my $t_r = Time::HiRes::time();
($code, $data) = $a->call('PUT', $lane, $judge, { score => '4242' });
ok($code == 200 && $data->{voie}{score} eq '4242', 'PUT through server A');
my @a_reads = map { score_on($a, $demo) } 1 .. 20;
ok(!grep({ $_ ne '4242' } @a_reads),
   'server A: 20 reads on new connections (its children) show the new score at once')
    or print "# @a_reads\n";
my $seen;
while (Time::HiRes::time() - $t_r < $CHECK / 1000 + 2) {
    if (score_on($b, $demo) eq '4242' && score_on($b, $judge, $line) eq '4242') {
        $seen = Time::HiRes::time() - $t_r;
        last;
    }
    Time::HiRes::sleep(0.02);
}
ok(defined $seen && $seen <= $CHECK / 1000 + 0.25,
   sprintf('server B shows the new score (variants A and B) within RankingRevisionCheck '
           . '%d ms of its last read of the counters (%s)', $CHECK,
           defined $seen ? sprintf('%.0f ms', 1000 * $seen) : 'never'));

# reads of B take the counters from the table its children share: 50 reads in a
# burst read them from PostgreSQL about once per RankingRevisionCheck
sub status_totals {
    my $res = LWP::UserAgent->new(timeout => 10)->get("http://127.0.0.1:$_[0]{port}/status?auto");
    return { map { /^(Ranking\w+): (\S+)$/ ? ($1 => $2) : () } split /\n/, $res->content };
}
{
    my $s0 = status_totals($b);
    my $t0 = Time::HiRes::time();
    my $good = grep { ($b->call('GET', '/competition/2/zone/26/heat/255/voie/', $demo))[0] == 200 } 1 .. 50;
    my $ms = 1000 * (Time::HiRes::time() - $t0);
    my $s1 = status_totals($b);
    my $reads = ($s1->{RankingRevisionReads} // 0) - ($s0->{RankingRevisionReads} // 0);
    my $shared = ($s1->{RankingRevisionShared} // 0) - ($s0->{RankingRevisionShared} // 0);
    my $most = (int($ms / $CHECK) + 1) * (($s1->{RankingChildren} // 1) + 1);
    ok($good == 50 && $reads + $shared >= 50 && $shared > 0 && $reads <= $most,
       sprintf('server B, 50 reads in %.0f ms: counters read from PostgreSQL %d times (at most %d), '
               . 'taken from the shared table %d times', $ms, $reads, $most, $shared));
}

# ---- revoking a user locks them out of both within the bound ---------------------
Time::HiRes::sleep(0.1);
score_on($_, $demo) for $a, $b;            # both hold counters read just now
my $out = `"$admin" --driver pgsql --params "$conninfo" revoke demo 2>&1`;
my $t_rev = Time::HiRes::time();
ok($? == 0, "ranking-admin revokes demo's tokens on PostgreSQL") or print "# $out";
my %cut;
while (Time::HiRes::time() - $t_rev < $CHECK / 1000 + 2 && keys %cut < 2) {
    for my $i (0, 1) {
        next if defined $cut{$i};
        my ($c) = $servers[$i]->call('GET', '/competition/', $demo, undef, LWP::UserAgent->new(timeout => 10));
        $cut{$i} = Time::HiRes::time() - $t_rev if $c == 401;
    }
    Time::HiRes::sleep(0.02);
}
for my $i (0, 1) {
    ok(defined $cut{$i} && $cut{$i} <= $CHECK / 1000 + 0.25,
       sprintf('revoked token refused by server %s within RankingRevisionCheck (%s)', ('A', 'B')[$i],
               defined $cut{$i} ? sprintf('%.0f ms', 1000 * $cut{$i}) : 'never'));
}
my $again = $b->login('demo', 'demo');
ok(defined $again && ($a->call('GET', '/competition/', $again))[0] == 200,
   'a new login works again on both');
$demo = $again;

# ---- a grant, and its removal, apply to the tokens the user has, on both servers,
# at once for writes (API.md part 3, "Roles") ----------------------------------------
score_on($_, $demo) for $a, $b;            # demo's token and role cached on both
$out = `"$admin" --driver pgsql --params "$conninfo" grant demo editor --competition 2 2>&1`;
ok($? == 0, 'ranking-admin grants demo (a reader) editor on competition 2') or print "# $out";
my @w = map { ($_->call('PUT', $lane, $demo, { score => '4242' }))[0] } $a, $b;
ok("@w" eq '200 200', "its existing token writes at once through both servers (@w)");
$out = `"$admin" --driver pgsql --params "$conninfo" revoke-grant demo --competition 2 2>&1`;
ok($? == 0, 'ranking-admin revokes the grant') or print "# $out";
@w = map { ($_->call('PUT', $lane, $demo, { score => '4242' }))[0] } $b, $a;
ok("@w" eq '403 403', "the same token is refused at once on both (@w)");

# ---- concurrent writers over both servers ---------------------------------------
# each writer owns one lane of heat 253 (zone 26) and sets its score N times,
# alternating between the two servers; every answer must be 200 and the final
# score of each lane that writer's last value (heat 253 is of WOD 17, load: a score
# "<writer + 1>.<round>" is a load in kg, distinct per writer and round).
my @lanes = (2011, 2012, 2013, 2014);
my $rounds = 25;
my @pids;
for my $w (0 .. $#lanes) {
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        my $ua = LWP::UserAgent->new(keep_alive => 2, timeout => 60);
        my $bad = 0;
        for my $n (1 .. $rounds) {
            my ($c) = $servers[$n % 2]->call('PUT', "/competition/2/zone/26/heat/253/voie/$lanes[$w]",
                                             $judge, { score => sprintf('%d.%02d', $w + 1, $n) }, $ua);
            $bad++ if $c != 200;
        }
        _exit($bad ? 1 : 0);
    }
    push @pids, $pid;
}
my $writers_ok = 1;
for my $pid (@pids) {
    waitpid($pid, 0);
    $writers_ok = 0 if $? != 0;
}
ok($writers_ok, scalar(@lanes) . " writers x $rounds PUTs over both servers: all 200");
Time::HiRes::sleep($CHECK / 1000 + 0.1);   # the writes through A show on B
($code, $data) = $b->call('GET', '/competition/2/zone/26/heat/253/voie/', $judge);
my %score = map { $_->{id} => $_->{score} } @{ $data->{voies} || [] };
ok(!grep({ ($score{$lanes[$_]} // '') ne sprintf('%d.%02d', $_ + 1, $rounds) } 0 .. $#lanes),
   "final state: each writer's last value on its lane");

# ---- live updates across servers -------------------------------------------------
{
    my $st = SseClient::open("127.0.0.1:$b->{port}", '/api/competition/2/events', $judge);
    like($st->{head}, qr{^HTTP/1\.1 200}, 'an event stream open on server B');
    my ($etag) = map { $_->header('ETag') }
        (LWP::UserAgent->new->get($b->url('/competition/2/leaderboard'), Authorization => "Bearer $judge"));
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        # a long poll on server B, waiting for a change
        my $res = LWP::UserAgent->new(timeout => 30)->get($b->url('/competition/2/leaderboard'),
            Authorization => "Bearer $judge", 'If-None-Match' => $etag, Prefer => 'wait=20');
        _exit($res->code == 200 && ($res->header('ETag') // '') ne $etag ? 0 : 1);
    }
    sleep 1;
    my $t0 = Time::HiRes::time();
    ($code, $data) = $a->call('PUT', $lane, $judge, { score => '4343' });
    ok($code == 200, 'a lane PUT through server A');
    my $text = SseClient::read($st, 5, qr/4343/);
    my @ev = SseClient::events($text);
    ok(@ev && $ev[-1]{data} =~ /"score":"4343"/ && Time::HiRes::time() - $t0 < 2,
       sprintf('the change reached the stream on server B within 2 s (%.2f s)', Time::HiRes::time() - $t0))
        or print "# $text\n";
    waitpid $pid, 0;
    ok($? == 0, 'a long poll on server B answered 200 with the new data');
    SseClient::close($st);
}

# ---- safe retries across servers -------------------------------------------------
# the key is kept in the shared database: a retry on the other server is replayed
# (Idempotent-Replayed: true, the same body), and the lane's history has one record;
# two requests with one new key sent at once to both servers apply it once.
{
    my $key_lane = '/competition/2/zone/26/heat/255/voie/2019';
    my $keyed = sub {
        my ($server, $key, $body) = @_;
        my $req = HTTP::Request->new(PUT => $server->url($key_lane));
        $req->header(Authorization => "Bearer $judge", 'Content-Type' => 'application/json',
                     'Idempotency-Key' => $key);
        $req->content($body);
        return LWP::UserAgent->new(timeout => 30)->request($req);
    };
    my $history = sub {
        my ($c, $d) = $b->call('GET', "$key_lane/history", $judge);
        return $c == 200 ? scalar @{ $d->{history} } : -1;
    };
    my $h0 = $history->();
    my $r1 = $keyed->($a, "retry-$$", '{"score":"31"}');
    my $r2 = $keyed->($b, "retry-$$", '{"score":"31"}');
    ok($r1->code == 200 && !$r1->header('Idempotent-Replayed'), 'a PUT with a key through server A: 200');
    ok($r2->code == 200 && ($r2->header('Idempotent-Replayed') // '') eq 'true'
       && $r2->content eq $r1->content, 'the retry through server B is replayed, the same answer');
    ok($history->() == $h0 + 1, 'one history record for both');
    my $r3 = $keyed->($b, "retry-$$", '{"score":"32"}');
    ok($r3->code == 422, 'the key with another body on server B: 422');
    # at once on both servers, with a new key: each a child writing its answer
    my @kids;
    my $race = "race-$$";   # the parent's pid: one key for both children
    for my $server ($a, $b) {
        pipe(my $rd, my $wr) or die "pipe: $!";
        my $pid = fork // die "fork: $!";
        if (!$pid) {
            close $rd;
            my $res = $keyed->($server, $race, '{"score":"33"}');
            print {$wr} $res->code, ' ', ($res->header('Idempotent-Replayed') ? 1 : 0), "\n";
            close $wr;
            _exit(0);
        }
        close $wr;
        push @kids, [$pid, $rd];
    }
    my @got = map { my $l = readline($_->[1]) // ''; waitpid($_->[0], 0); [split ' ', $l] } @kids;
    ok(!grep({ ($_->[0] // 0) != 200 } @got) && (grep { $_->[1] } @got) == 1,
       'one key sent at once to both servers: both 200, one of them replayed')
        or print '# ', join(' | ', map { "@$_" } @got), "\n";
    ok($history->() == $h0 + 2, 'and one more history record only');
}

for my $i (0, 1) {
    my @bad = grep { /ranking:error|database is locked/ } split /\n/, $servers[$i]->error_log;
    ok(!@bad, "server $i logged no database error");
    print "# $_\n" for @bad;
}

cleanup();
exit RkServer::done();
