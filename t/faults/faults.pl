#!/usr/bin/perl
# t/faults/faults.pl BUILD_DIR [MPM]
#
# Faults a server meets in production, on SQLite, each with its own httpd:
#  1. the database file missing at start-up: 503 JSON at once, no empty database
#     created, and recovery once the file is there (no restart);
#  2. the database unreadable: 503 JSON, recovery once readable again;
#  3. the database locked by another process past the busy timeout: a write answers
#     503 in bounded time (no hang) while reads go on; writes work once it is free;
#     eight writers at once all answer 503 within 7 s (the whole wait of a writer is
#     bounded), and all later writes succeed;
#  4. graceful restarts under load: every request answered, none 5xx;
#  5. a child killed (SIGKILL) while writing: the database passes integrity_check,
#     no lane is half-applied, and the server goes on answering;
#  4b. a graceful restart while event streams are open: the streams end, the clients
#     reconnect with Last-Event-ID and miss none of the changes made meanwhile;
#  6. a database of the previous release (schema version 1): 503 JSON on every route
#     and a log line telling the admin to run `ranking-admin upgrade`; once it has
#     run, the server answers without a restart, every row of the old data there.
# Prints "N passed, M failed"; exits non-zero on any failure.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use LWP::UserAgent;
use POSIX qw(_exit);
use Time::HiRes qw(time sleep);
use lib dirname(abs_path(__FILE__)) . '/../lib';
use RkServer;
use SseClient;

*ok = \&RkServer::ok;

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
    ok(($res->header('Content-Type') // '') =~ m{^application/json}, 'missing database: JSON content type');
    ($code, $data) = $s->call('GET', '/competition/', 'A' x 43);
    ok(is_503_json($code, $data), 'missing database: token check answers 503 JSON');
    ok(!-e $db, 'missing database: no empty database file created');
    ok($s->error_log =~ /no database connection/, 'missing database: the error log says why');
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
    ok($s->error_log =~ /schema version 1, this module needs version \d+: run `ranking-admin upgrade`/,
       'schema version 1: the error log says to run ranking-admin upgrade');
    my $out = `runuser -u www-data -- '$build/tools/ranking-admin' --params '$old' upgrade 2>&1`;
    ok($? == 0 && $out =~ /from schema version 1 to/, 'schema version 1: ranking-admin upgrade ran')
        or print "# $out";
    my $token = $s->login('demo', 'demo');
    ok(defined $token, 'upgraded: /connect works without a restart');
    ($code, $data) = $s->call('GET', '/competition/1/zone/21/heat/201/voie/', $token);
    ok($code == 200 && $data && @{ $data->{voies} } == 5
       && (grep { ($_->{score} // '') eq 'CAP+12' && exists $_->{tiebreak} } @{ $data->{voies} }),
       'upgraded: the old lanes are there, with the new tiebreak field');
    ($code, $data) = $s->call('GET', '/competition/2', $token);
    ok($code == 200 && $data && ($data->{competition}{ranking} // '') eq 'places',
       'upgraded: competitions have the default ranking policy');
    $s->stop;
}

# ---- 7. over HTTP/2 (h2c, mod_http2): reads, an event stream and a long poll ----------
{
    my $db2 = "$tmp/h2/ranking.db";
    make_db($db2);
    my $moddir = `apxs -q LIBEXECDIR`;
    chomp $moddir;
    my $s = RkServer->new(dir => "$tmp/h2srv", so => $so, driver => 'sqlite3', mpm => $mpm,
                          params => "file:$db2?mode=rw",
                          extra => "LoadModule http2_module $moddir/mod_http2.so\nProtocols h2c http/1.1");
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
    ok($text =~ /^event: lane\ndata: .*"score":"CAP\+6"/m && $text =~ /"score":"CAP\+7"/,
       'h2c: the event stream over HTTP/2 got both changes') or print "# $text\n";
    $s->stop;
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
    ok($took < 10, sprintf('locked database: within bounded time (%.1f s)', $took));
    ($code) = $s->call('GET', '/competition/2/heat/253/line/', $demo);
    ok($code == 200, 'locked database: reads go on (WAL)');
    print $locker "ROLLBACK;\n.quit\n";
    close $locker;
    ($code, $data) = $s->call('PUT', $lane, $judge, { score => '112 kg' });
    ok($code == 200 && $data->{voie}{score} eq '112 kg', 'locked database: writes work once free');
    ($code, $data) = $s->call('GET', $lane, $demo);
    ok($code == 200 && $data->{voie}{score} eq '112 kg', 'locked database: the refused write changed nothing else');
}

# ---- 3b. eight writers at once against a held lock ------------------------------
# The whole wait of each writer (the child's group-commit queue, the ranking-write
# mutex, SQLite's lock) is bounded (RK_WRITE_WAIT_MS, 5 s): every one answers 503
# with Retry-After within 7 s, not one after the other.  Once the lock is gone, every
# later write succeeds.
{
    my @lanes = map { "/competition/2/zone/26/heat/253/voie/$_" } (2011, 2012, 2014);
    # eight concurrent PUTs, each in its own process: [code, seconds, Retry-After, status]
    my $burst = sub {
        my ($tag) = @_;
        my @kids;
        for my $i (0 .. 7) {
            pipe(my $rd, my $wr) or die "pipe: $!";
            my $pid = fork // die "fork: $!";
            if (!$pid) {
                close $rd;
                my $ua = LWP::UserAgent->new(keep_alive => 0, timeout => 60);
                my $t0 = time;
                my ($code, $data, $res) = $s->call('PUT', $lanes[$i % 3], $judge,
                                                   { score => (120 + $i) . ' kg' }, $ua);
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
    my @not503 = grep { $_->[0] != 503 || $_->[3] ne 'error' || $_->[2] eq '-' } @res;
    my ($slowest) = sort { $b <=> $a } map { $_->[1] } @res;
    ok(!@not503, '8 writers against a held lock: all 503 JSON with Retry-After'
       . (@not503 ? ' (got ' . join(', ', map { "$_->[0]/$_->[2]" } @not503) . ')' : ''));
    ok($slowest < 7, sprintf('8 writers against a held lock: all answered within 7 s '
       . '(slowest %.1f s, all in %.1f s)', $slowest, $all));
    print $locker "ROLLBACK;\n.quit\n";
    close $locker;
    @res = $burst->('free');
    my @failed = grep { $_->[0] != 200 } @res;
    ok(!@failed, '8 writers once the lock is gone: all 200'
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

my @errors = grep { /AddressSanitizer|runtime error:|segfault|Segmentation/ } map { split /\n/, $_->error_log } @servers;
ok(!@errors, 'no crash or sanitizer report in the error logs');
print "# $_\n" for @errors;

cleanup();
exit RkServer::done();
