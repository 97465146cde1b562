#!/usr/bin/perl
# t/faults/faults.pl BUILD_DIR [MPM]
#
# Faults a server meets in production, on SQLite, each with its own httpd:
#  1. the database file missing at start-up: 503 JSON at once, no empty database
#     created, and recovery once the file is there (no restart);
#  2. the database unreadable: 503 JSON, recovery once readable again;
#  3. the database locked by another process past the busy timeout: a write answers
#     503 in bounded time (no hang) while reads go on; writes work once it is free;
#     eight writers at once all answer 503 within 5 s (the whole wait of a writer is
#     bounded), and all later writes succeed; a login (a write: its user read again
#     and its token stored in one transaction) is bounded alike, alone or queued
#     with the writers: 503 with Retry-After within 5 s;
#  4. graceful restarts under load: every request answered, none 5xx;
#  5. a child killed (SIGKILL) while writing: the database passes integrity_check,
#     no lane is half-applied, and the server goes on answering;
#  4b. a graceful restart while event streams are open: the streams end, the clients
#     reconnect with Last-Event-ID and miss none of the changes made meanwhile;
#  6. a database of the previous release (schema version 1): 503 JSON on every route
#     and a log line telling the admin to run `ranking-admin upgrade`; once it has
#     run, the server answers without a restart, every row of the old data there;
#  7. configtest (apache2 -t) fails, saying what to load, without mod_dbd or without
#     the socache provider of RankingLoginCache (none needs none).
#  8. an empty database (the schema and one user): /competition/ and every list of a
#     competition without data are 200 with [], an unknown id 404 even with
#     If-None-Match;
#  9. ./scripts/demo after an unclean stop: a pid file naming another process is
#     removed and the demo starts; one naming the running demo refuses a second start.
#  7b. over HTTP/2 (h2c): reads, an event stream and a long poll;
#  and no child crash in any server's error log (under prefork, but the known crash of
#  mod_http2, t/faults/h2prefork.pl);
# 11-13. (t/faults/database.pl) PostgreSQL restarted and killed, under load and idle;
#     SQLite made read-only under writers; SQLite on a full disk: only 200 or 503 with
#     Retry-After meanwhile, every route 200 within seconds after, no httpd restart;
# 14. (event MPM, t/faults/capacity.pl) on Debian's default MPM configuration, 1,000
#     event streams: those past the automatic RankingEventListeners answer 503 with
#     Retry-After, reads and lane PUTs on new connections are answered within 1 s;
# 10. (event MPM) 100,000 event streams opened and closed in turn leave the children's
#     sockets and memory where they were; a client that does not read its stream is
#     dropped past RankingEventBuffer without growing the server's memory.
# Prints "N passed, M failed"; exits non-zero on any failure.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use JSON::PP;
use LWP::UserAgent;
use IO::Socket::INET;
use POSIX qw(_exit);
use Time::HiRes qw(time sleep);
use lib dirname(abs_path(__FILE__)) . '/../lib';
use RkServer;
use SseClient;

*ok = \&RkServer::ok;
*like = \&RkServer::like;

my $build = abs_path(shift // 'build') or die "usage: $0 BUILD_DIR [MPM]\n";
my $mpm   = shift // 'event';
my $root  = abs_path(dirname(__FILE__) . '/../..');
my $so    = "$build/mod_ranking/.libs/mod_ranking.so";
-f $so or die "no module at $so\n";

my $tmp = tempdir('rk-faults-XXXXXX', TMPDIR => 1, CLEANUP => 0);
chmod 0755, $tmp;
my $parent = $$;
my @servers;
sub cleanup {
    return if $$ != $parent;
    $_->stop for @servers;
    @servers = ();
    remove_tree($tmp);
}
$SIG{INT} = $SIG{TERM} = sub { cleanup(); exit 1 };
END { cleanup() }

# a demo database in DIR/ranking.db, owned by the server's user
sub make_db {
    my ($file) = @_;
    make_path(dirname($file));
    system("sqlite3 '$file' < '$root/sql/schema.sql' >/dev/null") == 0 or die "schema\n";
    system("sqlite3 '$file' < '$root/sql/demo.sql'") == 0 or die "demo data\n";
    system('chown', '-R', 'www-data:', dirname($file)) == 0 or die "chown\n";
}

sub server {
    my ($name, $db) = @_;
    my $s = RkServer->new(dir => "$tmp/$name", so => $so, driver => 'sqlite3', mpm => $mpm,
                          params => "file:$db?mode=rw");
    push @servers, $s;
    return $s;
}

sub is_503_json {
    my ($code, $data) = @_;
    return $code == 503 && $data && $data->{status} eq 'error'
        && $data->{message} eq 'Service unavailable';
}

# ---- 1. missing at start-up, then there ----------------------------------------
{
    my $db = "$tmp/missing/ranking.db";
    make_path(dirname($db));
    system('chown', 'www-data:', dirname($db));
    my $s = server('missing', $db);
    my $t0 = time;
    my ($code, $data, $res) = $s->call('POST', '/connect', undef,
                                       { client_id => 'demo', client_secret => 'demo' });
    ok(is_503_json($code, $data), 'missing database: /connect answers 503 JSON');
    ok(time - $t0 < 5, 'missing database: answered at once');
    like($res->header('Content-Type'), qr{^application/json}, 'missing database: JSON content type');
    ($code, $data) = $s->call('GET', '/competition/', 'A' x 43);
    ok(is_503_json($code, $data), 'missing database: token check answers 503 JSON');
    ok(!-e $db, 'missing database: no empty database file created');
    like($s->error_log, qr/no database connection/, 'missing database: the error log says why');
    make_db($db);
    my $token = $s->login('demo', 'demo');
    ok(defined $token, 'missing database: recovers once the file is there, without restart');
    ($code) = $s->call('GET', '/competition/', $token);
    ok($code == 200, 'missing database: reads work after recovery');
    $s->stop;
}

# ---- 2. unreadable, then readable ------------------------------------------------
{
    my $db = "$tmp/unreadable/ranking.db";
    make_db($db);
    chmod 0000, $db;
    my $s = server('unreadable', $db);
    my ($code, $data) = $s->call('POST', '/connect', undef,
                                 { client_id => 'demo', client_secret => 'demo' });
    ok(is_503_json($code, $data), 'unreadable database: 503 JSON');
    ok($data && $data->{message} !~ m{/|sqlite|SELECT}i, 'unreadable database: no path or SQL in the answer');
    chmod 0644, $db;
    ok(defined $s->login('demo', 'demo'), 'unreadable database: recovers once readable');
    $s->stop;
}

# ---- 6. a database of the previous release, then upgraded ----------------------------
{
    my $old = "$tmp/v1/ranking.db";
    make_path(dirname($old));
    system("sqlite3 '$old' < '$root/t/upgrade/schema-v1.sql' >/dev/null") == 0 or die "v1 schema\n";
    system("sqlite3 '$old' < '$root/t/upgrade/demo-v1.sql'") == 0 or die "v1 demo\n";
    system('chown', '-R', 'www-data:', dirname($old)) == 0 or die "chown\n";
    my $s = server('v1', $old);
    my ($code, $data) = $s->call('POST', '/connect', undef,
                                 { client_id => 'demo', client_secret => 'demo' });
    ok(is_503_json($code, $data), 'schema version 1: /connect answers 503 JSON');
    ($code, $data) = $s->call('GET', '/competition/', 'A' x 43);
    ok(is_503_json($code, $data), 'schema version 1: a read answers 503 JSON');
    like($s->error_log, qr/schema version 1, this module needs version \d+: run `ranking-admin upgrade`/,
       'schema version 1: the error log says to run ranking-admin upgrade');
    my $out = `runuser -u www-data -- '$build/tools/ranking-admin' --params '$old' upgrade 2>&1`;
    ok($? == 0, "schema version 1: ranking-admin upgrade exits 0 (exit $?)") or print "# $out";
    like($out, qr/from schema version 1 to/, 'schema version 1: ranking-admin upgrade says it ran');
    my $token = $s->login('demo', 'demo');
    ok(defined $token, 'upgraded: /connect works without a restart');
    ($code, $data) = $s->call('GET', '/competition/1/zone/21/heat/201/voie/', $token);
    ok($code == 200 && $data && @{ $data->{voies} } == 5
       && scalar(grep { ($_->{score} // '') eq 'CAP+12' && exists $_->{tiebreak} } @{ $data->{voies} }),
       'upgraded: the old lanes are there, with the new tiebreak field');
    ($code, $data) = $s->call('GET', '/competition/2', $token);
    ok($code == 200 && $data && ($data->{competition}{ranking} // '') eq 'places',
       'upgraded: competitions have the default ranking policy');
    $s->stop;
}

# ---- 8. an empty database: the schema, one user, no competition yet ------------------
# What an administrator following the README meets first: every list that exists and
# has nothing is 200 with [], the top-level /competition/ too; what does not exist is
# 404, whatever the preconditions say.
{
    my $edb = "$tmp/empty/ranking.db";
    make_path(dirname($edb));
    system("sqlite3 '$edb' < '$root/sql/schema.sql' >/dev/null") == 0 or die "schema\n";
    system("printf 'pw\n' | '$build/tools/ranking-admin' --params '$edb' --cost 4 add first >/dev/null") == 0
        or die "ranking-admin add\n";
    system('chown', '-R', 'www-data:', dirname($edb)) == 0 or die "chown\n";
    my $s = server('empty', $edb);
    my $token = $s->login('first', 'pw');
    ok(defined $token, 'empty database: the first user logs in');
    for my $path ('/competition/', '/competition') {
        my ($code, $data, $res) = $s->call('GET', $path, $token);
        ok($code == 200 && $res->decoded_content eq '{"status":"success","competitions":[]}',
           "empty database: GET $path is 200 with []") or print "# $code ", $res->decoded_content, "\n";
    }
    my ($code, $data, $res) = $s->call('HEAD', '/competition/', $token);
    ok($code == 200, 'empty database: HEAD /competition/ is 200');
    my $etag = $res->header('ETag') // '';
    my $req = HTTP::Request->new(GET => $s->url('/competition/'));
    $req->header(Authorization => "Bearer $token", 'If-None-Match' => $etag);
    ok($s->{ua}->request($req)->code == 304, 'empty database: the empty list answers 304 to its ETag');
    for my $inm ('*', $etag) {
        $req = HTTP::Request->new(GET => $s->url('/competition/1'));
        $req->header(Authorization => "Bearer $token", 'If-None-Match' => $inm);
        my $r = $s->{ua}->request($req);
        ok($r->code == 404 && $r->decoded_content eq '{"status":"error","message":"Not found"}',
           "empty database: GET of a competition that does not exist with If-None-Match: $inm is 404")
            or print "# ", $r->code, "\n";
    }
    system('sqlite3', $edb, "INSERT INTO competition (id, name) VALUES (1, 'New');"
           . " INSERT INTO zone (id, competition_id, name, lane_count) VALUES (1, 1, 'Floor', 4), (2, 1, 'Empty', 4);"
           . " INSERT INTO heat (id, competition_id, zone_id, number) VALUES (1, 1, 1, 1);") == 0
        or die "insert\n";
    my %lists = ('/competition/1/wod/' => 'wods', '/competition/1/spot/' => 'spots',
                 '/competition/1/zone/2/heat/' => 'heats', '/competition/1/heat/1/line/' => 'lines',
                 '/competition/1/zone/1/heat/1/voie/' => 'voies');
    for my $path (sort keys %lists) {
        ($code, $data, $res) = $s->call('GET', $path, $token);
        ok($code == 200 && $res->decoded_content eq qq({"status":"success","$lists{$path}":[]}),
           "a competition without data: GET $path is 200 with []") or print "# $code\n";
    }
    ($code, $data) = $s->call('GET', '/competition/', $token);
    ok($code == 200 && $data && @{ $data->{competitions} } == 1, 'the new competition is listed');
    $s->stop;
}

# ---- 9. ./scripts/demo after an unclean stop ---------------------------------------
# Its pid file names a pid since reused by another process (here a sleep): the demo
# removes the stale file and starts; a file naming the running demo makes a second
# start refuse.
{
    my $dir = "$tmp/demo";
    make_path($dir);
    my $port = RkServer::free_port();
    my $sleeper = fork // die "fork: $!";
    if (!$sleeper) { exec 'sleep', '120'; POSIX::_exit(127); }
    open my $pf, '>', "$dir/httpd.pid" or die "$dir/httpd.pid: $!";
    print {$pf} "$sleeper\n";
    close $pf;
    my $start = sub {
        my ($log) = @_;
        my $pid = fork // die "fork: $!";
        if (!$pid) {
            $ENV{PORT} = $port;
            $ENV{RANKING_DEMO_DIR} = $dir;
            open STDOUT, '>', $log or POSIX::_exit(127);
            open STDERR, '>&', \*STDOUT;
            exec "$root/scripts/demo";
            POSIX::_exit(127);
        }
        return $pid;
    };
    my $demo = $start->("$tmp/demo1.log");
    my $ua = LWP::UserAgent->new(timeout => 5);
    my $code = 0;
    for (1 .. 600) {
        $code = $ua->get("http://127.0.0.1:$port/competition/")->code;
        last if $code == 401;
        last if waitpid($demo, POSIX::WNOHANG()) == $demo;
        sleep 0.1;
    }
    my $log = do { local (@ARGV, $/) = ("$tmp/demo1.log"); <> // '' };
    ok($code == 401, 'demo: starts although its pid file names another process')
        or print map { "# $_\n" } split /\n/, $log;
    like($log, qr/removing a stale pid file/, 'demo: says it removed the stale pid file');
    my $second = $start->("$tmp/demo2.log");
    waitpid($second, 0);
    my $log2 = do { local (@ARGV, $/) = ("$tmp/demo2.log"); <> // '' };
    ok($? != 0, "demo: a second start refuses while the first runs (exit $?)");
    like($log2, qr/already running/, 'demo: ... saying that one is already running');
    ok(kill(0, $demo), 'demo: the first one is still running');
    kill 'TERM', $demo;
    waitpid($demo, 0);
    kill 'KILL', $sleeper;
    waitpid($sleeper, 0);
}

# Once streams held open are closed: CMD (a curl of the events route printing the
# head) is tried every 0.25 s until its head matches OK, for at most 40 tries; returns
# that head, and the seconds from the first try to the try that was accepted (which
# then holds its stream 2 s, its timeout).
sub accepted_again {
    my ($cmd, $ok) = @_;
    my ($t1, $after, $head) = (time, 0, '');
    for (1 .. 40) {
        $after = time - $t1;
        $head = `timeout 2 $cmd`;
        last if $head =~ $ok;
        sleep 0.25;
    }
    return ($head, $after);
}

# ---- 7. over HTTP/2 (h2c, mod_http2): reads, an event stream and a long poll ----------
{
    my $db2 = "$tmp/h2/ranking.db";
    make_db($db2);
    my $moddir = `apxs -q LIBEXECDIR`;
    chomp $moddir;
    # prefork: what tells the known crash of mod_http2 from another (at the end)
    my $h2log = $mpm eq 'prefork' ? "LogLevel warn ranking:info http2:debug\n" : '';
    my $s = RkServer->new(dir => "$tmp/h2srv", so => $so, driver => 'sqlite3', mpm => $mpm,
                          params => "file:$db2?mode=rw",
                          extra => "LoadModule http2_module $moddir/mod_http2.so\nProtocols h2c http/1.1\n$h2log");
    push @servers, $s;
    my $judge = $s->login('judge', 'judge');
    my $url = "http://127.0.0.1:$s->{port}/api";
    my $h2 = "curl -s --http2-prior-knowledge -H 'Authorization: Bearer $judge'";
    my $out = `$h2 -o /dev/null -w '%{http_version} %{http_code}' $url/competition/2`;
    ok($out eq '2 200', "h2c: a read over HTTP/2 ($out)");
    my $sse = "$tmp/h2.sse";
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        { exec("timeout 6 $h2 -N -H 'Accept: text/event-stream' $url/competition/2/events > $sse 2>&1") }
        _exit(1);
    }
    sleep 1;
    my ($code) = $s->call('PUT', '/competition/2/zone/26/heat/251/voie/2001', $judge, { score => 'CAP+6' });
    ok($code == 200, 'h2c: a lane PUT (HTTP/1.1)');
    my $etag = `$h2 -s -D - -o /dev/null $url/competition/2/leaderboard` =~ /^etag: (\S+)/mi ? $1 : '';
    my $lp = fork // die "fork: $!";
    if (!$lp) {
        my $got = `$h2 -o /dev/null -w '%{http_code}' -H 'If-None-Match: $etag' -H 'Prefer: wait=10' $url/competition/2/leaderboard`;
        _exit($got eq '200' ? 0 : 1);
    }
    sleep 1;
    ($code) = $s->call('PUT', '/competition/2/zone/26/heat/251/voie/2001', $judge, { score => 'CAP+7' });
    waitpid $lp, 0;
    ok($? == 0, 'h2c: a long poll over HTTP/2 answers 200 after a change');
    waitpid $pid, 0;
    my $text = do { local (@ARGV, $/) = ($sse); <> } // '';
    like($text, qr/^event: lane\ndata: .*"score":"CAP\+6"/m, 'h2c: the event stream over HTTP/2 got the first change');
    like($text, qr/"score":"CAP\+7"/, 'h2c: ... and the second');
    $s->stop;

    # 7b. each stream over HTTP/2 holds one of mod_http2's workers: at most half of a
    #     child's H2MaxWorkers are given to listeners, the next one answers 503 with
    #     Retry-After, and the other workers still serve reads; streams whose clients
    #     are gone give their workers back well before their next keep-alive comment
    #     (15 s): a new stream is accepted within 10 s
    my $c = RkServer->new(dir => "$tmp/h2cap", so => $so, driver => 'sqlite3', mpm => $mpm,
                          params => "file:$db2?mode=rw", extra => <<"CONF");
LoadModule http2_module $moddir/mod_http2.so
Protocols h2c http/1.1
$h2log
StartServers 1
ServerLimit 1
MaxRequestWorkers 25
<IfModule mod_http2.c>
    H2MinWorkers 1
    H2MaxWorkers 4
</IfModule>
CONF
    push @servers, $c;
    $judge = $c->login('judge', 'judge');
    $url = "http://127.0.0.1:$c->{port}/api";
    $h2 = "curl -s --http2-prior-knowledge -H 'Authorization: Bearer $judge'";
    my @held;
    for my $k (1, 2) {
        my $p = fork // die "fork: $!";
        if (!$p) {
            # the shell becomes timeout, which passes the TERM below on to curl
            { exec("exec timeout 20 $h2 -N -H 'Accept: text/event-stream' $url/competition/2/events > $tmp/h2cap.$k 2>&1") }
            _exit(1);
        }
        push @held, $p;
    }
    sleep 1.5;
    my $third = `timeout 5 $h2 -s -D - -o /dev/null -H 'Accept: text/event-stream' $url/competition/2/events`;
    ok(($third =~ m{^HTTP/2 503} && $third =~ /^retry-after: 5/mi) ? 1 : 0,
       'h2c: with H2MaxWorkers 4, a third event stream answers 503 with Retry-After (two hold a worker each)')
        or print "# $third\n";
    my $t0 = time;
    $out = `timeout 5 $h2 -o /dev/null -w '%{http_version} %{http_code}' $url/competition/2`;
    ok($out eq '2 200' && time - $t0 < 2, sprintf('h2c: a read answers meanwhile (%s, %.2f s)', $out, time - $t0));
    my $first = do { local (@ARGV, $/) = ("$tmp/h2cap.1"); <> } // '';
    ok($first =~ /^: mod_ranking events/m ? 1 : 0, 'h2c: the two streams are open');
    kill 'TERM', @held;
    waitpid $_, 0 for @held;
    my ($again, $after) = accepted_again("$h2 -s -D - -o /dev/null -H 'Accept: text/event-stream' "
                                         . "$url/competition/2/events", qr{^HTTP/2 200});
    ok($again =~ m{^HTTP/2 200} ? 1 : 0, sprintf('h2c: once they are closed, a new stream is '
                                                . 'accepted (%.1f s after)', $after))
        or print "# $again\n";
    $c->stop;
}

# ---- 7c. RankingEventListeners: past the cap, 503 with Retry-After -------------------
# prefork (each listener holds its process: the cap is server-wide) and event (parked:
# the cap is per child, one child here): two streams open, the third answers 503 JSON
# with Retry-After and a private Cache-Control, a read still answers, and once the two
# are closed a new stream is accepted.
for my $m ('prefork', 'event') {
    my $db3 = "$tmp/cap-$m/ranking.db";
    make_db($db3);
    my $c = RkServer->new(dir => "$tmp/capsrv-$m", so => $so, driver => 'sqlite3', mpm => $m,
                          params => "file:$db3?mode=rw", extra => <<"CONF");
@{[ $m eq 'prefork' ? "StartServers 5\nServerLimit 10\nMaxRequestWorkers 10"
                     : "StartServers 1\nServerLimit 1\nMaxRequestWorkers 25" ]}
RankingEventListeners 2
CONF
    push @servers, $c;
    my $judge = $c->login('judge', 'judge');
    my $url = "http://127.0.0.1:$c->{port}/api";
    my $curl = "curl -s -H 'Authorization: Bearer $judge'";
    my @held;
    for my $k (1, 2) {
        my $p = fork // die "fork: $!";
        if (!$p) {
            { exec("exec timeout 20 $curl -N -H 'Accept: text/event-stream' $url/competition/2/events > $tmp/cap-$m.$k 2>&1") }
            _exit(1);
        }
        push @held, $p;
    }
    sleep 1.5;
    my $third = `timeout 5 $curl -D - -H 'Accept: text/event-stream' $url/competition/2/events`;
    my ($body) = $third =~ /\r\n\r\n(.*)\z/s;
    my $data = eval { JSON::PP::decode_json($body // '') };
    ok(($third =~ m{^HTTP/1.1 503} && $third =~ /^Retry-After: 5\r$/mi
        && $third =~ /^Cache-Control: private, no-cache\r$/mi && $third !~ /^X-Accel-Buffering/mi
        && is_503_json(503, $data)) ? 1 : 0,
       "$m: RankingEventListeners 2: a third stream answers 503 JSON with Retry-After")
        or print "# $third\n";
    my $t0 = time;
    my $out = `timeout 5 $curl -o /dev/null -w '%{http_code}' $url/competition/2`;
    ok($out eq '200' && time - $t0 < 2, sprintf('%s: a read answers meanwhile (%s, %.2f s)', $m, $out, time - $t0));
    kill 'TERM', @held;
    waitpid $_, 0 for @held;
    my ($again, $after) = accepted_again("$curl -D - -o /dev/null -H 'Accept: text/event-stream' "
                                         . "$url/competition/2/events", qr{^HTTP/1.1 200});
    ok($again =~ m{^HTTP/1.1 200} ? 1 : 0, sprintf('%s: once they are closed, a new stream is '
                                               . 'accepted (%.1f s after)', $m, $after))
        or print "# $again\n";
    $c->stop;
}

# ---- shared database for the next faults ------------------------------------------
my $db = "$tmp/main/ranking.db";
make_db($db);
my $s = server('main', $db);
my $judge = $s->login('judge', 'judge');
my $demo = $s->login('demo', 'demo');
ok(defined $judge && defined $demo, 'logins on the shared database');

# ---- 3. locked by another process ----------------------------------------------
{
    my $lane = '/competition/2/zone/26/heat/253/voie/2012';
    open my $locker, '|-', 'runuser -u www-data -- sqlite3 ' . $db or die "sqlite3: $!";
    select((select($locker), $| = 1)[0]);
    print $locker "BEGIN EXCLUSIVE;\nUPDATE lane SET score = 'locker' WHERE id = 2011;\n";
    sleep 0.5;
    my $t0 = time;
    my ($code, $data) = $s->call('PUT', $lane, $judge, { score => '111 kg' });   # WOD 17: load
    my $took = time - $t0;
    ok(is_503_json($code, $data), 'locked database: a write answers 503 JSON');
    # the README: "writes answer 503 within 5 s"
    ok($took < 5, sprintf('locked database: a write answers within 5 s (%.2f s)', $took));
    ($code) = $s->call('GET', '/competition/2/heat/253/line/', $demo);
    ok($code == 200, 'locked database: reads go on (WAL)');
    # a login is a write (its user read again, the token stored, in one transaction),
    # bounded like one: 503 with Retry-After within 5 s, not 6.9 s of statements each
    # waiting out SQLite's busy timeout
    $t0 = time;
    my $res;
    ($code, $data, $res) = $s->call('POST', '/connect', undef, { client_id => 'demo', client_secret => 'demo' });
    $took = time - $t0;
    ok(is_503_json($code, $data) && ($res->header('Retry-After') // '') eq '1',
       "locked database: /connect answers 503 JSON with Retry-After ($code)");
    ok($took < 5, sprintf('locked database: /connect answers within 5 s (%.2f s)', $took));
    print $locker "ROLLBACK;\n.quit\n";
    close $locker;
    ok(defined $s->login('demo', 'demo'), 'locked database: /connect works once free');

    # a password set while a login waits for the lock (its password checked against
    # the old hash): the login is refused, its user being read again in the token's
    # transaction, rather than given a token of the old password
    my $old = `runuser -u www-data -- sqlite3 '$db' "SELECT password_hash FROM account WHERE name = 'demo'"`;
    chomp $old;
    open $locker, '|-', 'runuser -u www-data -- sqlite3 ' . $db or die "sqlite3: $!";
    select((select($locker), $| = 1)[0]);
    print $locker "BEGIN IMMEDIATE;\n";
    sleep 0.3;
    pipe(my $rd, my $wr) or die "pipe: $!";
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        close $rd;
        my ($c) = $s->call('POST', '/connect', undef, { client_id => 'demo', client_secret => 'demo' },
                           LWP::UserAgent->new(keep_alive => 0, timeout => 30));
        print $wr "$c\n";
        close $wr;
        _exit(0);
    }
    close $wr;
    sleep 1;
    print $locker "UPDATE account SET password_hash = (SELECT password_hash FROM account "
        . "WHERE name = 'judge') WHERE name = 'demo';\nCOMMIT;\n.quit\n";
    close $locker;
    chomp(my $got = readline($rd) // '');
    waitpid $pid, 0;
    ok($got eq '401', "a password set while a login waits for the lock: the login is 401 ($got)");
    like($s->error_log, qr/login failed from [^:]+: user changed meanwhile, user "demo"/,
         '... and the error log says why');
    ok(defined $s->login('demo', 'judge'), '... the new password logs in');
    system('runuser', '-u', 'www-data', '--', 'sqlite3', $db,
           "UPDATE account SET password_hash = '$old' WHERE name = 'demo'") == 0 or die "restore\n";
    ok(defined $s->login('demo', 'demo'), '... and the old one again once it is put back');
    ($code, $data) = $s->call('PUT', $lane, $judge, { score => '112 kg' });
    ok($code == 200 && $data->{voie}{score} eq '112 kg', 'locked database: writes work once free');
    ($code, $data) = $s->call('GET', $lane, $demo);
    ok($code == 200 && $data->{voie}{score} eq '112 kg', 'locked database: the refused write changed nothing else');
}

# ---- 3b. eight writers at once against a held lock ------------------------------
# The whole wait of each writer (the child's group-commit queue, the ranking-write
# mutex, SQLite's lock) is bounded (RKM_WRITE_WAIT_MS, 5 s): every one answers 503
# with Retry-After within 5 s (the README's promise: every write waits at most 5 s in
# all, however many writers are queued), not one after the other.  Once the lock is gone, every
# later write succeeds.
{
    my @lanes = map { "/competition/2/zone/26/heat/253/voie/$_" } (2011, 2012, 2014);
    # eight concurrent PUTs, each in its own process: [code, seconds, Retry-After, status]
    my $burst = sub {
        my ($tag) = @_;
        my @kids;
        for my $i (0 .. 8) {
            pipe(my $rd, my $wr) or die "pipe: $!";
            my $pid = fork // die "fork: $!";
            if (!$pid) {
                close $rd;
                my $ua = LWP::UserAgent->new(keep_alive => 0, timeout => 60);
                my $t0 = time;
                # the ninth is a login, queued with the writers (a write too)
                my ($code, $data, $res) = $i == 8
                    ? $s->call('POST', '/connect', undef, { client_id => 'demo', client_secret => 'demo' }, $ua)
                    : $s->call('PUT', $lanes[$i % 3], $judge, { score => (120 + $i) . ' kg' }, $ua);
                printf $wr "%d %.3f %s %s\n", $code, time - $t0, $res->header('Retry-After') // '-',
                    ($data && $data->{status}) // '-';
                close $wr;
                _exit(0);
            }
            close $wr;
            push @kids, [$pid, $rd];
        }
        my @out;
        for my $k (@kids) {
            my $line = readline($k->[1]) // '0 99 - -';
            close $k->[1];
            waitpid($k->[0], 0);
            push @out, [split ' ', $line];
        }
        return @out;
    };
    open my $locker, '|-', 'runuser -u www-data -- sqlite3 ' . $db or die "sqlite3: $!";
    select((select($locker), $| = 1)[0]);
    print $locker "BEGIN EXCLUSIVE;\nUPDATE lane SET score = 'locker' WHERE id = 2011;\n";
    sleep 0.5;
    my $t0 = time;
    my @res = $burst->('locked');
    my $all = time - $t0;
    my $login = pop @res;
    ok($login->[0] == 503 && $login->[3] eq 'error' && $login->[2] eq '1' && $login->[1] < 5,
       sprintf('a login queued with them: 503 JSON with Retry-After within 5 s (%s in %.2f s)',
               $login->[0], $login->[1]));
    my @not503 = grep { $_->[0] != 503 || $_->[3] ne 'error' || $_->[2] eq '-' } @res;
    my ($slowest) = sort { $b <=> $a } map { $_->[1] } @res;
    ok(!@not503, '8 writers against a held lock: all 503 JSON with Retry-After'
       . (@not503 ? ' (got ' . join(', ', map { "$_->[0]/$_->[2]" } @not503) . ')' : ''));
    ok($slowest < 5, sprintf('8 writers against a held lock: all answered within 5 s '
       . '(slowest %.2f s, all in %.2f s)', $slowest, $all));
    print $locker "ROLLBACK;\n.quit\n";
    close $locker;
    @res = $burst->('free');
    my @failed = grep { $_->[0] != 200 } @res;
    ok(!@failed, '8 writers and a login once the lock is gone: all 200'
       . (@failed ? ' (got ' . join(', ', map { $_->[0] } @failed) . ')' : ''));
    my @later = map { ($s->call('PUT', $lanes[$_], $judge, { score => (130 + $_) . ' kg' }))[0] } 0 .. 2;
    ok(!(grep { $_ != 200 } @later), "later writes one by one: all 200 (@later)");
}

# ---- 4. graceful restarts under load ----------------------------------------------
{
    my $clients = 6;
    my $seconds = 6;
    my @pids;
    pipe(my $rd, my $wr) or die "pipe: $!";
    for my $c (1 .. $clients) {
        my $pid = fork // die "fork: $!";
        if ($pid == 0) {
            close $rd;
            # a new connection for every request: no idle keep-alive connection can
            # be closed under the client, so every failure counts
            my $ua = LWP::UserAgent->new(keep_alive => 0, timeout => 30);
            my ($n, $bad) = (0, 0);
            my $end = time + $seconds;
            while (time < $end) {
                my ($code) = $s->call('GET', '/competition/1/spot/', $demo, undef, $ua);
                $n++;
                $bad++ if $code != 200;
            }
            print $wr "$n $bad\n";
            close $wr;   # _exit does not flush
            _exit(0);
        }
        push @pids, $pid;
    }
    close $wr;
    for (1 .. 3) {
        sleep 1.5;
        $s->httpd('-k', 'graceful');
    }
    waitpid($_, 0) for @pids;
    my ($n, $bad) = (0, 0);
    while (my $line = <$rd>) {
        my ($a, $b) = split ' ', $line;
        $n += $a;
        $bad += $b;
    }
    ok($n > 100 && $bad == 0, "graceful restarts under load: $n requests, $bad not 200");
    my ($code) = $s->call('GET', '/competition/', $demo);
    ok($code == 200, 'graceful restarts: a token issued before still works');
}

# ---- 4b. event streams across a graceful restart ----------------------------------
{
    my $lane = '/competition/2/zone/26/heat/253/voie/2014';   # WOD 17: load
    my @st = map { SseClient::open("127.0.0.1:$s->{port}", '/api/competition/2/events', $demo) } 1 .. 3;
    ok(!grep({ $_->{head} !~ m{^HTTP/1\.1 200} } @st), 'three event streams open');
    my ($code) = $s->call('PUT', $lane, $judge, { score => '120.01' });
    my @seen = map { [ SseClient::events(SseClient::read($_, 5, qr/120\.01/)) ] } @st;
    my $last = $seen[0][-1]{id} // 0;
    ok($code == 200 && $last && !grep({ ($_->[-1]{id} // 0) != $last } @seen), 'each stream got the change');
    $s->httpd('-k', 'graceful');
    # changes made while the streams are down
    for my $n (2 .. 4) {
        my $ok = 0;
        for (1 .. 50) {
            ($code) = $s->call('PUT', $lane, $judge, { score => sprintf('120.%02d', $n) });
            if ($code == 200) { $ok = 1; last; }
            sleep 0.1;
        }
    }
    SseClient::read($_, 10, undef) for @st;
    ok(!grep({ !$_->{closed} } @st), 'the graceful restart ended every stream');
    my @again = map { SseClient::open("127.0.0.1:$s->{port}", '/api/competition/2/events', $demo,
                                      "Last-Event-ID: $last") } @st;
    my @got = map { join ',', map { /"score":"([^"]+)"/ ? $1 : '?' } map { $_->{data} }
                    SseClient::events(SseClient::read($_, 5, qr/120\.04/)) } @again;
    ok(!grep({ $_ ne '120.02,120.03,120.04' } @got), 'reconnected with Last-Event-ID: nothing missed, in order')
        or print "# got: @got\n";
    SseClient::close($_) for @again;
    $s->call('PUT', $lane, $judge, { score => '102kg' });   # as in the demo
}

# ---- 5. a child killed while writing ------------------------------------------
{
    # each writer owns a lane and sets spot and score together; a lane is consistent
    # when its score names its spot ("<spot>.<n>", a load in kg: heat 253 is of WOD 17)
    my %pairs = (2011 => [151, 154], 2012 => [152, 155], 2014 => [153, 156]);
    my @pids;
    for my $lane (sort keys %pairs) {
        my $pid = fork // die "fork: $!";
        if ($pid == 0) {
            my $ua = LWP::UserAgent->new(keep_alive => 1, timeout => 30);
            my $end = time + 5;
            my $n = 0;
            while (time < $end) {
                my $spot = $pairs{$lane}[$n % 2];
                # the spots of another lane are never taken: no 409
                $s->call('PUT', "/competition/2/zone/26/heat/253/voie/$lane", $judge,
                         { spot_id => "$spot", score => sprintf('%d.%02d', $spot, $n % 100) }, $ua);
                $n++;
            }
            _exit(0);
        }
        push @pids, $pid;
    }
    my $killed = 0;
    for (1 .. 4) {
        sleep 0.8;
        my $master = $s->pid;
        my @children = grep { $_ } map { /^\s*(\d+)/ ? $1 : undef } `ps -o pid= --ppid $master`;
        if (@children) {
            $killed += kill 'KILL', $children[int rand @children];
        }
    }
    waitpid($_, 0) for @pids;
    ok($killed >= 1, "killed $killed child(ren) while writing");
    my $check = `sqlite3 '$db' 'PRAGMA integrity_check;'`;
    chomp $check;
    ok($check eq 'ok', "integrity_check after the kills: $check");
    my @bad = grep { length }
        split /\n/, `sqlite3 '$db' "SELECT id FROM lane WHERE id IN (2011, 2012, 2014) AND score IS NOT NULL AND score NOT LIKE spot_id || '.%';"`;
    ok(!@bad, 'no half-applied lane' . (@bad ? " (@bad)" : ''));
    my $ok = 0;
    for (1 .. 50) {
        my ($code) = $s->call('GET', '/competition/2/zone/26/heat/253/voie/', $demo);
        if ($code == 200) { $ok = 1; last; }
        sleep 0.1;
    }
    ok($ok, 'the server goes on answering after the kills');
}

# ---- 7. configtest: apache2 -t fails when mod_dbd or the socache provider is missing
# (check_config), so that "apache2ctl configtest && apache2ctl graceful" never takes a
# running server down.
{
    my $moddir = `apxs -q LIBEXECDIR`;
    chomp $moddir;
    my $db = "$tmp/configtest/ranking.db";
    make_db($db);
    # configtest NAME, dbd => 0|1, shmcb => 0|1, cache => RankingLoginCache value:
    # (exit status, output) of apache2 -t on that configuration
    my $configtest = sub {
        my ($name, %o) = @_;
        my $dir = "$tmp/configtest/$name";
        make_path("$dir/logs");
        open my $fh, '>', "$dir/httpd.conf" or die "$dir/httpd.conf: $!";
        print $fh map { "$_\n" } "ServerRoot \"$dir\"", 'ServerName 127.0.0.1',
            'Listen 127.0.0.1:' . RkServer::free_port(), "PidFile \"$dir/httpd.pid\"",
            "ErrorLog \"$dir/logs/error_log\"", "DocumentRoot \"$dir\"",
            "LoadModule mpm_${mpm}_module $moddir/mod_mpm_$mpm.so",
            "LoadModule authz_core_module $moddir/mod_authz_core.so",
            ($o{dbd} ? "LoadModule dbd_module $moddir/mod_dbd.so" : ()),
            ($o{shmcb} ? "LoadModule socache_shmcb_module $moddir/mod_socache_shmcb.so" : ()),
            "LoadModule ranking_module $so",
            (defined $o{cache} ? "RankingLoginCache $o{cache}" : ()),
            ($o{dbd} ? ('DBDriver sqlite3', "DBDParams \"file:$db?mode=rw\"") : ()),
            '<Location /api>', 'SetHandler ranking', 'Require all granted', '</Location>';
        close $fh;
        my $out = `apache2 -t -f '$dir/httpd.conf' 2>&1`;
        return ($? >> 8, $out);
    };
    my ($rc, $out) = $configtest->('complete', dbd => 1, shmcb => 1);
    ok($rc == 0, "configtest: exit 0 with mod_dbd and mod_socache_shmcb (exit $rc)") or print map { "# $_\n" } split /\n/, $out;
    like($out, qr/Syntax OK/, 'configtest: ... Syntax OK');
    ($rc, $out) = $configtest->('no-dbd', dbd => 0, shmcb => 1);
    ok($rc != 0 && $out !~ /Syntax OK/, "configtest: fails without mod_dbd (exit $rc)");
    like($out, qr/mod_ranking needs mod_dbd: load it \(a2enmod dbd/, 'configtest: ... saying to load mod_dbd');
    ($rc, $out) = $configtest->('no-shmcb', dbd => 1, shmcb => 0);
    ok($rc != 0 && $out !~ /Syntax OK/, "configtest: fails without the socache provider of RankingLoginCache (exit $rc)");
    like($out, qr/socache provider "shmcb" for RankingLoginCache is not loaded \(LoadModule socache_shmcb_module, or a2enmod socache_shmcb\)/,
       'configtest: ... naming the provider and how to load it');
    ($rc, $out) = $configtest->('memcache', dbd => 1, shmcb => 1, cache => 'memcache:127.0.0.1:11211');
    ok($rc != 0, "configtest: RankingLoginCache memcache without mod_socache_memcache fails (exit $rc)");
    like($out, qr/socache provider "memcache" for RankingLoginCache is not loaded/,
         'configtest: ... naming the memcache provider');
    ($rc, $out) = $configtest->('cache-none', dbd => 1, shmcb => 0, cache => 'none');
    ok($rc == 0, "configtest: RankingLoginCache none needs no socache provider (exit $rc)") or print map { "# $_\n" } split /\n/, $out;
    like($out, qr/Syntax OK/, 'configtest: ... Syntax OK');
}

# ---- 10. event streams opened and closed in turn; a reader that does not read -------
# (event MPM only: there a stream is parked, without a thread)
# 10a. 100,000 streams opened and closed in turn (bench/sse-clients.c, 100 at a time)
#      leave each child's sockets and memory where they were after a warm-up of 5,000:
#      at most 2 more sockets per child (keep-alive connections of this script), at
#      most 1 MiB more RSS per child (a leak of 20 bytes per stream would be 1 MiB in
#      each of the 2 children), the same children;
# 10b. a stream whose client never reads, while lane PUTs are made: the server drops it
#      past RankingEventBuffer (its log says so, its connection ends), a child's RSS
#      grows by less than 8 MiB meanwhile, and a stream that reads gets every change
#      (reconnecting with Last-Event-ID when it was dropped too).
if ($mpm eq 'event') {
    my $db8 = "$tmp/streams/ranking.db";
    make_db($db8);
    my $client = "$tmp/sse-clients";
    system('cc', '-O2', '-Wall', '-Wextra', '-Werror', '-o', $client, "$root/bench/sse-clients.c") == 0
        or die "cannot build bench/sse-clients.c\n";
    my $s = RkServer->new(dir => "$tmp/streamsrv", so => $so, driver => 'sqlite3', mpm => $mpm,
                          params => "file:$db8?mode=rw", nofile => 20_000, extra => <<'CONF');
StartServers 2
ServerLimit 2
ThreadsPerChild 32
MaxRequestWorkers 64
MinSpareThreads 1
MaxSpareThreads 64
AsyncRequestWorkerFactor 64
RankingEventBuffer 4096
# (a stream whose client closed is ended at the watcher's next tick: at this rate of
# churn thousands are still open per child as far as the server knows, more than the
# automatic limit, half of what a child accepts; this test is about what they leave)
RankingEventListeners 20000
<Location /api>
    RankingLoginLimit 0
</Location>
CONF
    push @servers, $s;
    my $judge = $s->login('judge', 'judge');
    my $children = sub {
        my %c;
        for my $pid (split ' ', `ps --ppid @{[ $s->pid ]} -o pid=`) {
            my $socks = grep { (readlink($_) // '') =~ /^socket:/ } glob("/proc/$pid/fd/*");
            open my $fh, '<', "/proc/$pid/status" or next;
            my ($rss) = map { /^VmRSS:\s+(\d+)/ ? $1 : () } <$fh>;
            $c{$pid} = { socks => $socks, rss => $rss };
        }
        return \%c;
    };
    my $churn = sub {
        my $out = `'$client' churn $s->{port} '$judge' /api/competition/2/events $_[0] 100`;
        return (eval { JSON::PP::decode_json($out) } // {})->{ok} // 0;
    };
    my $warm = $churn->(5000);
    sleep 1;
    my $before = $children->();
    my $t0 = time;
    my $ok = $churn->(100_000);
    my $secs = time - $t0;
    sleep 1;   # the watcher's tick: the last streams' ends
    my $after = $children->();
    ok($warm == 5000 && $ok == 100_000, sprintf('100,000 event streams opened and closed in turn, '
                                                . 'each answered 200 (%d, in %.0f s)', $ok, $secs));
    my @pids = sort keys %$before;
    ok(@pids == 2 && !grep({ !$after->{$_} } @pids) && keys %$after == 2,
       'the same two children before and after');
    my @socks = map { "$before->{$_}{socks} -> " . ($after->{$_}{socks} // '?') } @pids;
    ok(!grep({ ($after->{$_}{socks} // 1e9) > $before->{$_}{socks} + 2 } @pids),
       "each child's sockets where they were (@socks)");
    my @rss = map { "$before->{$_}{rss} -> " . ($after->{$_}{rss} // '?') . ' KiB' } @pids;
    ok(!grep({ ($after->{$_}{rss} // 1e9) > $before->{$_}{rss} + 1024 } @pids),
       "each child's memory where it was, within 1 MiB (@rss)");

    # 10b: the slow reader: a receive buffer of 4 KiB it never reads
    require Socket;
    my $slow = IO::Socket::INET->new(Proto => 'tcp', PeerAddr => "127.0.0.1:$s->{port}") or die "connect: $!";
    setsockopt($slow, Socket::SOL_SOCKET(), Socket::SO_RCVBUF(), 4096);
    print $slow "GET /api/competition/2/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              . "Authorization: Bearer $judge\r\nAccept: text/event-stream\r\n\r\n";
    my $reader = SseClient::open("127.0.0.1:$s->{port}", '/api/competition/2/events', $judge);
    # one change read at leisure: its id is where the reading stream starts
    $s->call('PUT', '/competition/2/zone/26/heat/253/voie/2014', $judge, { score => '99.99' });
    my ($first) = grep { defined $_->{id} && ($_->{data} // '') =~ /"score":"99\.99"/ }
                  SseClient::events(SseClient::read($reader, 5, qr/"score":"99\.99"/));
    my $rss0 = $children->();
    my $ua = LWP::UserAgent->new(keep_alive => 1, timeout => 30);
    my ($puts, $bad) = (0, 0);
    my $end = time + 8;
    my $last;
    while (time < $end) {
        $last = sprintf '%d.%02d', 1000 + $puts, $puts % 100;   # unique per PUT
        my ($code) = $s->call('PUT', '/competition/2/zone/26/heat/253/voie/2014', $judge,
                              { score => $last }, $ua);
        $bad++ if $code != 200;
        $puts++;
        SseClient::read($reader, 0.001, undef) if $puts % 50 == 0;   # keeps up
    }
    my $rss1 = $children->();
    # the reading stream: with a buffer this small it may be dropped too (the watcher
    # queues a tick's worth of events at once: at several hundred PUTs a second that is
    # more than 4 KiB); it then reconnects with Last-Event-ID, as a browser does, until
    # it has the last change, and must have missed none
    my $until = qr/"score":"\Q$last\E"/;
    my @got = grep { defined $_->{id} && defined $_->{data} && $_->{id} > ($first->{id} // 0) }
              SseClient::events(SseClient::read($reader, 5, $until));
    my $reconnects = 0;
    while (!grep({ $_->{data} =~ $until } @got) && $reader->{closed} && $reconnects < 50) {
        SseClient::close($reader);
        $reader = SseClient::open("127.0.0.1:$s->{port}", '/api/competition/2/events', $judge,
                                  "Last-Event-ID: " . (@got ? $got[-1]{id} : $first->{id} // 0));
        $reconnects++;
        push @got, grep { defined $_->{id} && defined $_->{data} }
                   SseClient::events(SseClient::read($reader, 5, $until));
    }
    my @gaps = grep { $got[$_]{id} != $got[$_ - 1]{id} + 1 } 1 .. $#got;
    my $log = '';
    for (1 .. 30) {
        $log = $s->error_log;
        last if $log =~ /event stream dropped: its client reads too slowly/;
        sleep 0.2;
    }
    ok($puts > 500 && !$bad, "$puts lane PUTs while a client does not read its stream");
    like($log, qr/event stream dropped: its client reads too slowly/,
       'the stream that is not read is dropped past RankingEventBuffer');
    my $grew = 0;
    for my $pid (keys %$rss0) {
        my $g = ($rss1->{$pid}{rss} // 0) - $rss0->{$pid}{rss};
        $grew = $g if $g > $grew;
    }
    ok($grew < 8192, "a child's RSS grew by $grew KiB meanwhile (less than 8 MiB)");
    ok(scalar(grep { $_->{data} =~ $until } @got),
       "a stream that reads got the last change ($reconnects reconnection(s) with Last-Event-ID)");
    ok(@got >= $puts && !@gaps, sprintf('it got every change, in order: %d events for %d PUTs, '
                                        . 'ids %s to %s, %d gap(s)', scalar @got, $puts,
                                        $got[0]{id} // '-', $got[-1]{id} // '-', scalar @gaps));
    # the server ended the slow stream: once read, its connection ends
    $slow->blocking(0);
    my ($buf, $eof, $t1) = ('', 0, time);
    while (time - $t1 < 10) {
        my $n = sysread($slow, $buf, 65536);
        if (defined $n && $n == 0) { $eof = 1; last; }
        sleep 0.05 unless defined $n;
    }
    ok($eof, 'the dropped stream\'s connection ends');
    SseClient::close($reader);
    close $slow;
    $s->stop;
}

# ---- 11-13. the database going away: PostgreSQL restarted or killed, SQLite read-only
# or on a full disk (t/faults/database.pl)
require(dirname(abs_path(__FILE__)) . '/database.pl');
FaultsDb::run($so, $mpm, $tmp, \@servers);

# ---- 14. (event MPM) more event streams than the children accept: the API still
# answers (t/faults/capacity.pl)
require(dirname(abs_path(__FILE__)) . '/capacity.pl');
FaultsCap::run($so, $mpm, $tmp, \@servers);

# Under prefork, a child stopped while its HTTP/2 connection waits for a stream's worker
# crashes in mod_http2 (doc/operations.md, "HTTP/2 under prefork"; t/faults/h2prefork.pl
# shows it without mod_ranking): that one, told by its AH10020 line, is reported, not
# failed; any other crash fails.
my (@errors, @known);
for my $srv (@servers) {
    my $log = $srv->error_log;
    for my $line (grep { /AddressSanitizer|runtime error:|segfault|Segmentation/ } split /\n/, $log) {
        push @{ $mpm eq 'prefork' && RkServer::known_h2_prefork_crash($log, $line) ? \@known : \@errors }, $line;
    }
}
ok(!@errors, 'no crash or sanitizer report in the error logs'
   . (@known ? sprintf(' (but %d known crash(es) of mod_http2 under prefork)', scalar @known) : ''));
print "# $_\n" for @errors;
print "# known, mod_http2 under prefork: $_\n" for @known;

cleanup();
exit RkServer::done();
