#!/usr/bin/perl
# t/faults/database.pl BUILD_DIR [MPM]: the database going away and coming back, each
# with its own httpd (run by t/faults/faults.pl, or alone):
# 11. PostgreSQL (t/pg/pg-server.sh) restarted (pg_ctl restart -m fast), then its
#     postmaster killed (SIGKILL) and started again, with the pooled connections warm
#     (40 GETs and 10 lane PUTs from eight clients): during each fault every answer is
#     200, or 503 with Retry-After, never 500; once the database is back, every route
#     (reads, a lane PUT, /connect) answers 200 within a few seconds, without an httpd
#     restart (a pooled connection that libpq reset has its statements prepared
#     again); idle meanwhile, the first requests once it is back answer 200 (a pooled
#     connection idle over a second is tried before its use), and so do those of
#     children a graceful restart started before it (a connection the module never
#     used is tried before its first use); and a child logs the
#     outage's errors at most once a second, with a count. A database of the first
#     release (schema version 1) answers 503 JSON and the log says to upgrade.
# 12. SQLite made read-only while writers run, and a burst of 48 readers opening new
#     connections meanwhile (SQLite opens them read-only, without an error); then,
#     still read-only, a graceful restart: the new children's lane PUTs answer 503
#     with Retry-After; once it is writable again, lane PUTs and /connect answer 200 within a few seconds, and
#     the log says at warn what happened (an admin under LogLevel warn sees it).
# 13. SQLite on a full disk (a tmpfs of 4 MiB, filled): reads and lane PUTs answer 200
#     or 503 with Retry-After, the log says the disk is full (and no misleading
#     "cannot rollback" after a failed commit); once there is space, a PUT answers 200
#     and the database passes integrity_check.
# Prints "N passed, M failed" when run alone.
package FaultsDb;
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use LWP::UserAgent;
use POSIX qw(_exit);
use Time::HiRes qw(time sleep);
use lib dirname(abs_path(__FILE__)) . '/../lib';
use RkServer;

*ok = \&RkServer::ok;
*like = \&RkServer::like;
*unlike = \&RkServer::unlike;

my $root = abs_path(dirname(__FILE__) . '/../..');
my $LANE = '/competition/2/zone/26/heat/253/voie/2014';   # WOD 17: a load
my @READS = ('/competition/', '/competition/2', '/competition/2/wod/', '/competition/2/leaderboard',
             '/competition/2/zone/26/heat/253/voie/', $LANE);

# N clients at once, each making the requests REQS->(client, i) returns (METHOD, PATH,
# TOKEN, BODY) for, until it returns nothing or UNTIL (an absolute time) has passed:
# the list of [code, Retry-After, seconds, METHOD:PATH] of every answer.
sub clients {
    my ($s, $n, $reqs, $until) = @_;
    my @kids;
    for my $k (1 .. $n) {
        pipe(my $rd, my $wr) or die "pipe: $!";
        my $pid = fork // die "fork: $!";
        if (!$pid) {
            close $rd;
            my $ua = LWP::UserAgent->new(keep_alive => 1, timeout => 30);
            for (my $i = 0; !$until || time < $until; $i++) {
                my @req = $reqs->($k, $i) or last;
                my $t0 = time;
                my ($code, undef, $res) = $s->call(@req[0 .. 3], $ua);
                printf {$wr} "%d %s %.3f %s:%s\n", $code, $res->header('Retry-After') // '-', time - $t0,
                       $req[0], $req[1];
            }
            close $wr;
            _exit(0);
        }
        close $wr;
        push @kids, [$pid, $rd];
    }
    my @got;
    for my $kid (@kids) {
        my $fh = $kid->[1];
        push @got, map { [split ' '] } <$fh>;
        waitpid $kid->[0], 0;
    }
    return @got;
}

# The answers of GOT that are neither 200 nor 503 with Retry-After, as "code" strings.
sub bad_answers {
    return map { "$_->[0]" } grep { $_->[0] != 200 && !($_->[0] == 503 && $_->[1] ne '-') } @_;
}

# A mix of every route: reads, a lane PUT by the judge, a /connect.
sub mix {
    my ($demo, $judge, $k, $i) = @_;
    my $j = ($k * 7 + $i) % (@READS + 2);
    return ('PUT', $LANE, $judge, { score => sprintf('%d.%02d', 100 + $k, $i % 100) }) if $j == @READS;
    return ('POST', '/connect', undef, { client_id => 'demo', client_secret => 'demo' }) if $j == @READS + 1;
    return ('GET', $READS[$j], $demo);
}

# Once the database is back: rounds of 64 requests (eight clients, every route) until
# one round is all 200, for at most LIMIT seconds.  (seconds taken, last round's codes
# that were not 200).
sub recovered {
    my ($s, $demo, $judge, $limit) = @_;
    my $t0 = time;
    my @bad;
    while (time - $t0 < $limit) {
        my @got = clients($s, 8, sub { $_[1] < 8 ? mix($demo, $judge, @_) : () });
        @bad = map { $_->[0] } grep { $_->[0] != 200 } @got;
        return (time - $t0, ()) if !@bad && @got == 64;
        sleep 0.2;
    }
    return (time - $t0, @bad ? @bad : ('none'));
}

# One round of 64 requests (eight clients, every route), which must all answer 200: ok
# with NAME, else the answers that were not (code and route) and the error log of the
# round.
sub first_requests {
    my ($s, $demo, $judge, $name) = @_;
    my $log0 = length $s->error_log;
    my @first = clients($s, 8, sub { $_[1] < 8 ? mix($demo, $judge, @_) : () });
    my @no = map { "$_->[0] $_->[3]" } grep { $_->[0] != 200 } @first;
    ok(@first == 64 && !@no, $name . (@no ? " (not: @no)" : ''))
        or print map { "#   $_\n" } grep { length } split /\n/, substr($s->error_log, $log0);
}

# The most lines of the module's database errors one process logged in one second.
sub errors_per_second {
    my ($log) = @_;
    my %n;
    for (split /\n/, $log) {
        next unless /^\[\w+ (\w+ \d+ [\d:]+)\.\d+ \d+\] \[ranking:error\] \[pid (\d+)/;
        $n{"$1 $2"}++;
    }
    my ($max) = sort { $b <=> $a } values %n;
    return $max // 0;
}

sub pg_fault_tests {
    my ($so, $mpm, $tmp, $servers) = @_;
    my $pgdir = "$tmp/pg";
    my $pgport = RkServer::free_port();
    my $conninfo = `"$root/t/pg/pg-server.sh" start "$pgdir" $pgport`;
    chomp $conninfo;
    if ($? != 0 || !$conninfo) {
        ok(0, 'PostgreSQL: a server for the tests starts');
        return;
    }
    my $bin = `ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1`;
    chomp $bin;
    my $s = RkServer->new(dir => "$tmp/pgsrv", so => $so, driver => 'pgsql', mpm => $mpm,
                          params => $conninfo, extra => "<Location /api>\n RankingLoginLimit 0\n</Location>");
    push @$servers, $s;
    my $demo = $s->login('demo', 'demo');
    my $judge = $s->login('judge', 'judge');
    my @faults = (
        ['pg_ctl restart -m fast', sub {
             system('runuser', '-u', 'postgres', '--', "$bin/pg_ctl", '-D', "$pgdir/data", '-m', 'fast',
                    '-l', "$pgdir/server.log", '-s', '-w', '-t', '60', 'restart') == 0 }],
        ['SIGKILL of the postmaster, then a start', sub {
             open my $fh, '<', "$pgdir/data/postmaster.pid" or return 0;
             my $pid = <$fh>;
             chomp $pid;
             kill 'KILL', $pid or return 0;
             # its backends end once they see it gone; then it can start again
             for (1 .. 100) { last unless `pgrep -u postgres -f 'postgres: ranking'`; sleep 0.1; }
             # (tried again while the old processes still hold its shared memory)
             for (1 .. 40) {
                 return 1 if system("'$root/t/pg/pg-server.sh' up '$pgdir' $pgport >/dev/null 2>&1") == 0;
                 sleep 0.25;
             }
             return 0 }],
    );
    for my $f (@faults) {
        for my $busy (1, 0) {
            my ($name, $fault) = @$f;
            $name .= $busy ? ', under load' : ', idle';
            # warm: 40 GETs and 10 lane PUTs from five clients, pooled connections made
            my @warm = clients($s, 5, sub {
                my ($k, $i) = @_;
                return if $i >= 10;
                return $i == 9 || $i == 4 ? ('PUT', $LANE, $judge, { score => "$k$i.5" })
                                          : ('GET', $READS[$i % @READS], $demo);
            });
            my @warm_bad = map { $_->[0] } grep { $_->[0] != 200 } @warm;
            ok(@warm == 50 && !@warm_bad, "PostgreSQL, $name: 40 GETs and 10 PUTs answer 200"
                                          . (@warm_bad ? " (not: @warm_bad)" : ''))
                or print map { "#   $_\n" } grep { length } (split /\n/, $s->error_log)[-12 .. -1];
            my $log0 = length $s->error_log;
            # the fault, with eight clients going on meanwhile for 8 s (the fault takes 1
            # to 3), or none: then the connections meet the database once it is back
            # (libpq resets them, in a new session)
            my $pid = fork // die "fork: $!";
            if (!$pid) {
                sleep 0.5 if $busy;
                _exit($fault->() ? 0 : 1);
            }
            my @during = $busy ? clients($s, 8, sub { mix($demo, $judge, @_) }, time + 8) : ();
            waitpid($pid, 0);
            ok($? == 0, "PostgreSQL, $name: done");
            my @bad = bad_answers(@during);
            my $n503 = grep { $_->[0] == 503 } @during;
            my ($slowest) = sort { $b <=> $a } map { $_->[2] } @during;
            ok(!@bad && @during > 50, sprintf('PostgreSQL, %s: during it, %d answers, each 200 or 503 '
                                               . 'with Retry-After (%d 503s, slowest %.2f s)%s', $name,
                                               scalar @during, $n503, $slowest // 0,
                                               @bad ? ": @bad[0 .. ($#bad < 9 ? $#bad : 9)]" : ''))
                if $busy;
            if (!$busy) {
                # every pooled connection is idle since before the fault: each is tried
                # before its use (libpq only learns of a restart when a statement fails)
                sleep 1.1;
                first_requests($s, $demo, $judge, "PostgreSQL, $name: the first 64 requests once "
                                                  . 'it is back answer 200');
            }
            my ($secs, @left) = recovered($s, $demo, $judge, 10);
            ok(!@left, sprintf('PostgreSQL, %s: then every route answers 200, in %.1f s, without '
                               . 'an httpd restart%s', $name, $secs,
                               @left ? " (still: @left[0 .. ($#left < 9 ? $#left : 9)])" : ''));
            my $log = substr($s->error_log, $log0);
            my $most = errors_per_second($log);
            ok($most <= 6, "PostgreSQL, $name: the module's database errors at most once a second "
                           . "per child (most in a second of one process: $most)");
            # mod_dbd's own lines too: a child tries to connect a few times a second
            # while the database is down, not once per request
            my $lines = () = $log =~ /^\[.*\] \[\w+:(?:error|crit|warn)\]/mg;
            ok($lines < 600, sprintf('PostgreSQL, %s: %d lines in the error log for %d requests '
                                     . '(fewer than 600)', $name, $lines, scalar @during))
                if $busy;
        }
    }
    # connections the module never used: the children a graceful restart starts open
    # mod_dbd's DBDMin connection each at once; the database restarted since, the first
    # request of each child meets that one (tried before its first use as an idle one;
    # a CI run saw "no connection to the server" and a 503 once, in a child started
    # during the faults above)
    {
        $s->httpd('-k', 'graceful') or die "graceful restart\n";
        sleep 2;   # the new children up, their connections opened
        ok($faults[0][1]->(), 'PostgreSQL, pg_ctl restart -m fast after a graceful restart of httpd: done');
        sleep 1.1;
        first_requests($s, $demo, $judge, 'PostgreSQL, pg_ctl restart -m fast after a graceful '
                                          . 'restart of httpd: the first 64 requests answer 200, on '
                                          . 'connections the module never used before');
    }
    print "# $_\n" for grep { /DEBUG/ } split /\n/, $s->error_log;
    like($s->error_log, qr/\[ranking:warn\].*database session of a pooled connection was reset/,
         'PostgreSQL: the log says the statements were prepared again');
    like($s->error_log, qr/more database error\(s\) of this process since the last one said/,
         'PostgreSQL: the errors not logged are counted');
    $s->stop;
    pg_old_schema_tests($so, $mpm, $tmp, $servers, $pgport);
    system("$root/t/pg/pg-server.sh", 'stop', $pgdir, $pgport);
}

# A PostgreSQL database of the first release (no schema_version table): every route
# answers 503 JSON and the log says to run ranking-admin upgrade, as on SQLite
# (t/faults/faults.pl, part 6); once upgraded, /connect works without a restart.
sub pg_old_schema_tests {
    my ($so, $mpm, $tmp, $servers, $pgport) = @_;
    my $admin = dirname(dirname(dirname($so))) . '/tools/ranking-admin';
    # a database NAME of role ranking, made by psql with ARGS, and a server on it:
    # (server, conninfo), or nothing when the database could not be made (said as WHAT)
    my $server_on = sub {
        my ($name, $what, $args) = @_;
        my $made = system('runuser', '-u', 'postgres', '--', 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
                          '-h', '127.0.0.1', '-p', $pgport, '-U', 'postgres', '-d', 'postgres',
                          '-c', "CREATE DATABASE $name OWNER ranking") == 0
            && system("PGPASSWORD=ranking psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p $pgport "
                      . "-U ranking -d $name $args >/dev/null") == 0;
        ok($made, "PostgreSQL, $what: the database is made");
        return unless $made;
        my $conninfo = "host=127.0.0.1 port=$pgport dbname=$name user=ranking password=ranking";
        my $s = RkServer->new(dir => "$tmp/$name", so => $so, driver => 'pgsql', mpm => $mpm,
                              params => $conninfo);
        push @$servers, $s;
        return ($s, $conninfo);
    };
    my ($s, $conninfo) = $server_on->('ranking_v1', 'schema version 1',
        "-f '$root/t/upgrade/schema-v1-pg.sql' -f '$root/t/upgrade/demo-v1.sql'") or return;
    my ($code, $data) = $s->call('POST', '/connect', undef, { client_id => 'demo', client_secret => 'demo' });
    ok($code == 503 && ref $data eq 'HASH' && defined $data->{message},
       "PostgreSQL, schema version 1: /connect answers 503 JSON (got $code)");
    like($s->error_log, qr/schema version 1, this module needs version \d+: run `ranking-admin upgrade`/,
         'PostgreSQL, schema version 1: the error log says to run ranking-admin upgrade');
    unlike($s->error_log, qr/cannot prepare statement/,
           'PostgreSQL, schema version 1: ... not that a statement cannot be prepared');
    my $out = `'$admin' --driver pgsql --params '$conninfo' upgrade 2>&1`;
    ok($? == 0 && $out =~ /from schema version 1 to/,
       "PostgreSQL, schema version 1: ranking-admin upgrade runs (exit $?)") or print "# $out";
    ok(defined $s->login('demo', 'demo'), 'PostgreSQL, upgraded: /connect works without a restart');
    $s->stop;
    # a schema that lacks a column: PostgreSQL's message quotes the statement around the
    # error ("LINE 1: ..."), and the log must not
    ($s) = $server_on->('ranking_bad', 'a column missing',
        "-f '$root/sql/schema-pg.sql' -c 'ALTER TABLE competition DROP COLUMN ranking'") or return;
    ($code, $data) = $s->call('POST', '/connect', undef, { client_id => 'demo', client_secret => 'demo' });
    ok($code == 503 && ref $data eq 'HASH', "PostgreSQL, a column missing: /connect answers 503 JSON (got $code)");
    my ($line) = $s->error_log =~ /^(.*cannot prepare statement.*)$/m;
    ok(defined $line && $line =~ /column .*ranking does not exist/,
       'PostgreSQL, a column missing: the log says which statement and why') or print "# ", $s->error_log;
    ok(defined $line && $line !~ /LINE \d|SELECT|start_date/,
       'PostgreSQL, a column missing: ... without the SQL around it') or print "# $line\n";
    $s->stop;
}

# Rounds of 48 requests (8 clients: lane PUTs with scores from BASE, /connect) until
# one round is all 200, for at most 10 s: (seconds taken, last round's codes not 200).
sub writable_again {
    my ($s, $judge, $base) = @_;
    my $t0 = time;
    my @bad;
    while (time - $t0 < 10) {
        my @got = clients($s, 8, sub {
            my ($k, $i) = @_;
            return if $i >= 6;
            return $i % 2 ? ('POST', '/connect', undef, { client_id => 'demo', client_secret => 'demo' })
                          : ('PUT', $LANE, $judge, { score => sprintf('%d.%d', $base + $k, $i) });
        });
        @bad = map { $_->[0] } grep { $_->[0] != 200 } @got;
        return (time - $t0) if !@bad && @got == 48;
        @bad = ('none') unless @bad;
        sleep 0.2;
    }
    return (time - $t0, @bad);
}

sub sqlite_readonly_tests {
    my ($so, $mpm, $tmp, $servers) = @_;
    my $db = "$tmp/ro/ranking.db";
    make_path(dirname($db));
    system("sqlite3 '$db' < '$root/sql/schema.sql' >/dev/null") == 0 or die "schema\n";
    system("sqlite3 '$db' < '$root/sql/demo.sql'") == 0 or die "demo data\n";
    system('chown', '-R', 'www-data:', dirname($db)) == 0 or die "chown\n";
    my $s = RkServer->new(dir => "$tmp/rosrv", so => $so, driver => 'sqlite3', mpm => $mpm,
                          params => "file:$db?mode=rw",
                          extra => "LogLevel warn\n<Location /api>\n RankingLoginLimit 0\n</Location>");
    push @$servers, $s;
    my $demo = $s->login('demo', 'demo');
    my $judge = $s->login('judge', 'judge');
    # two writers all along
    my $stop = time + 6;
    my $writers = fork // die "fork: $!";
    if (!$writers) {
        my @got = clients($s, 2, sub { ('PUT', $LANE, $judge, { score => sprintf('%d.5', 200 + $_[1] % 50) }) }, $stop);
        _exit(bad_answers(@got) ? 1 : 0);
    }
    sleep 1;
    chmod 0444, $db;
    # a burst of 48 readers, each with its own connection: new pooled connections.
    # Each asks pages no one asked before (a limit of its own): an answer in the cache
    # needs no database connection, and with every write refused nothing else makes
    # the cached ones old (a run of the fresh clone saw no connection opened at all).
    my @burst = clients($s, 48, sub {
        my ($k, $i) = @_;
        return if $i >= 3;
        my $limit = 1 + ($k * 3 + $i) % 1000;
        return ('GET', ($i % 2 ? '/competition/2/wod/' : '/competition/2/zone/26/heat/253/voie/') . "?limit=$limit", $demo);
    });
    waitpid $writers, 0;
    ok($? == 0, 'read-only SQLite: the writers meanwhile got 200, or 503 with Retry-After');
    ok(!bad_answers(@burst) && @burst == 144, sprintf('read-only SQLite: a burst of 48 readers answered (%d of %d 200)',
                                                       scalar(grep { $_->[0] == 200 } @burst), scalar @burst));
    chmod 0644, $db;
    # writable again: PUTs and /connect
    my ($t0, @bad) = writable_again($s, $judge, 300);
    ok(!@bad, sprintf('read-only SQLite, writable again: lane PUTs and /connect answer 200 within %.1f s%s',
                      $t0, @bad ? " (still: @bad[0 .. ($#bad < 9 ? $#bad : 9)])" : ''));
    # Whether the burst opened a connection depends on how many the children had idle
    # (a CI run saw none opened, and nothing logged).  Read-only again, then a graceful
    # restart with no client left: the new children open every connection read-only
    # (and SQLite makes the -shm file read-only, with the file's mode, when it creates
    # it); a lane PUT answers 503 with Retry-After and the opening is logged at warn.
    chmod 0444, $db;
    my $log0 = length $s->error_log;
    $s->httpd('-k', 'graceful') or die "graceful restart\n";
    my ($ro_put, $ro_retry, $t_ro) = (0, '-', time);
    while (time - $t_ro < 10) {
        my (undef, undef, $res) = $s->call('PUT', $LANE, $judge, { score => '250.5' });
        ($ro_put, $ro_retry) = ($res->code, $res->header('Retry-After') // '-');
        last if $ro_put == 503;
        sleep 0.2;
    }
    ok($ro_put == 503 && $ro_retry ne '-', "read-only SQLite, children started meanwhile: a lane "
                                           . "PUT answers 503 with Retry-After (got $ro_put, Retry-After $ro_retry)");
    like(substr($s->error_log, $log0), qr/\[ranking:warn\].*opened read-only/,
         'read-only SQLite: the log says so at warn (seen under LogLevel warn)');
    # Writable again: those children share SQLite's read-only state of the file, which
    # the log says a graceful restart ends; the new children's connections write (the
    # -shm file left read-only is given the file's mode again before they map it).
    chmod 0644, $db;
    sleep 1.1;   # (a child logs one database warning a second)
    my (undef, undef, $res) = $s->call('PUT', $LANE, $judge, { score => '251.5' });
    like(substr($s->error_log, $log0), qr/\[ranking:warn\].*(graceful restart|opened again)/,
         "read-only SQLite, writable again: a lane PUT (${\ $res->code}) before a restart; the log says what to do");
    $s->httpd('-k', 'graceful') or die "graceful restart\n";
    ($t0, @bad) = writable_again($s, $judge, 500);
    ok(!@bad, sprintf('read-only SQLite, writable again and a graceful restart: lane PUTs and /connect '
                      . 'answer 200 within %.1f s%s', $t0, @bad ? " (still: @bad[0 .. ($#bad < 9 ? $#bad : 9)])" : ''));
    like($s->error_log, qr/\[ranking:warn\].*shared-memory file \(-shm\) was read-only/,
         'read-only SQLite: the -shm file left read-only was repaired, and the log says so');
    my $check = `sqlite3 '$db' 'PRAGMA integrity_check;'`;
    chomp $check;
    ok($check eq 'ok', "read-only SQLite: integrity_check: $check");
    $s->stop;
}

sub full_disk_tests {
    my ($so, $mpm, $tmp, $servers) = @_;
    my $mnt = "$tmp/full";
    make_path($mnt);
    if (system('mount', '-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', $mnt) != 0) {
        ok(0, 'full disk: a tmpfs of 4 MiB is mounted (needs root)');
        return;
    }
    my $db = "$mnt/db/ranking.db";
    make_path(dirname($db));
    system("sqlite3 '$db' < '$root/sql/schema.sql' >/dev/null") == 0 or die "schema\n";
    system("sqlite3 '$db' < '$root/sql/demo.sql'") == 0 or die "demo data\n";
    system('chown', '-R', 'www-data:', dirname($db)) == 0 or die "chown\n";
    my $s = RkServer->new(dir => "$tmp/fullsrv", so => $so, driver => 'sqlite3', mpm => $mpm,
                          params => "file:$db?mode=rw");
    push @$servers, $s;
    my $demo = $s->login('demo', 'demo');
    my $judge = $s->login('judge', 'judge');
    my ($code) = $s->call('PUT', $LANE, $judge, { score => '400.5' });
    ok($code == 200, 'full disk: a lane PUT before');
    # fill it: the writes of the journal and of the database fail
    system("dd if=/dev/zero of='$mnt/filler' bs=64k >/dev/null 2>&1");
    my $log0 = length $s->error_log;
    my @got = clients($s, 4, sub {
        my ($k, $i) = @_;
        return if $i >= 10;
        return $i % 2 ? ('GET', $READS[$i % @READS], $demo)
                      : ('PUT', $LANE, $judge, { score => sprintf('%d.%d', 410 + $k, $i) });
    });
    my @bad = bad_answers(@got);
    ok(!@bad && @got == 40, sprintf('full disk: reads and lane PUTs answer 200 or 503 with Retry-After '
                                    . '(%d 503s)%s', scalar(grep { $_->[0] == 503 } @got),
                                    @bad ? ": @bad" : ''));
    my $log = substr($s->error_log, $log0);
    like($log, qr/\[ranking:error\].*database or disk is full/, 'full disk: the log says the disk is full');
    unlike($log, qr/cannot rollback/, 'full disk: no misleading "cannot rollback" after the failed commit');
    unlink "$mnt/filler";
    my $t0 = time;
    my $ok = 0;
    while (time - $t0 < 5) {
        ($code) = $s->call('PUT', $LANE, $judge, { score => '420.5' });
        if ($code == 200) { $ok = 1; last; }
        sleep 0.1;
    }
    ok($ok, sprintf('full disk, space again: a lane PUT answers 200 (%.1f s)', time - $t0));
    my $check = `sqlite3 '$db' 'PRAGMA integrity_check;'`;
    chomp $check;
    ok($check eq 'ok', "full disk: integrity_check: $check");
    $s->stop;
    system('umount', $mnt);
}

# SERVERS: the caller's list of servers to stop at its end
sub run {
    my ($so, $mpm, $tmp, $servers) = @_;
    my $only = $ENV{RK_FAULTS_DB} // '';   # pg, sqlite or full: only those (to try one)
    pg_fault_tests($so, $mpm, $tmp, $servers) if $only eq '' || $only eq 'pg';
    sqlite_readonly_tests($so, $mpm, $tmp, $servers) if $only eq '' || $only eq 'sqlite';
    full_disk_tests($so, $mpm, $tmp, $servers) if $only eq '' || $only eq 'full';
}

unless (caller) {
    my $build = abs_path(shift // 'build') or die "usage: $0 BUILD_DIR [MPM]\n";
    my $mpm = shift // 'event';
    my $tmp = tempdir('rk-dbfaults-XXXXXX', TMPDIR => 1, CLEANUP => 0);
    chmod 0755, $tmp;
    my @servers;
    my $parent = $$;
    my $cleanup = sub { return if $$ != $parent; $_->stop for @servers; @servers = (); remove_tree($tmp); };
    $SIG{INT} = $SIG{TERM} = sub { $cleanup->(); exit 1 };
    run("$build/mod_ranking/.libs/mod_ranking.so", $mpm, $tmp, \@servers);
    $cleanup->();
    exit RkServer::done();
}
1;
