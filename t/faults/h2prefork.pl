#!/usr/bin/perl
# t/faults/h2prefork.pl BUILD_DIR
#
# The child crash of prefork with HTTP/2 (h2c), and whose it is: mod_http2's, not
# mod_ranking's (doc/operations.md, "HTTP/2 under prefork").  A prefork child stopped
# (SIGTERM: apache2 -k stop, or a restart) while its HTTP/2 connection, whose client has
# gone, waits for the worker of a stream still running, destroys its pool in the signal
# handler: mod_http2's workers are cleaned up first, then the connection's h2 session,
# which joins those workers again: SIGSEGV in h2_workers_join (mod_http2 2.0.42,
# Apache 2.4.71).  Each run here, tried up to 3 times until a child crashes:
#   1. mod_ranking, prefork, h2c: an event stream over HTTP/2 whose client goes away
#      (timeout 2 s), the server stopped at once;
#   2. the same without mod_ranking (httpd with mod_cgi only): a CGI that writes a
#      line and sleeps, over HTTP/2, its client gone after 2 s, stopped at once.
# Checks: every child crash of 1 is the known one (its AH10020 line); when 1 crashed,
# 2 crashed the same way without mod_ranking loaded (so the crash is not ours); any
# other crash, or one that only happens with mod_ranking, fails.  When mod_http2 no
# longer crashes (a fixed release), both runs end cleanly and this says so.
# Prints "N passed, M failed"; exits non-zero on any failure.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use IO::Socket::INET;
use POSIX qw(_exit);
use Time::HiRes qw(time sleep);
use lib dirname(abs_path(__FILE__)) . '/../lib';
use RkServer;

*ok = \&RkServer::ok;

my $build = abs_path(shift // 'build') or die "usage: $0 BUILD_DIR\n";
my $root  = abs_path(dirname(__FILE__) . '/../..');
my $so    = "$build/mod_ranking/.libs/mod_ranking.so";
-f $so or die "no module at $so\n";
my $moddir = `apxs -q LIBEXECDIR`;
chomp $moddir;

my $tmp = tempdir('rk-h2prefork-XXXXXX', TMPDIR => 1, CLEANUP => 0);
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

# (crash lines, known ones) of an error log
sub crashes {
    my ($log) = @_;
    my @lines = grep { /Segmentation|segfault/ } split /\n/, $log;
    return (\@lines, [grep { RkServer::known_h2_prefork_crash($log, $_) } @lines]);
}

my $h2conf = "LoadModule http2_module $moddir/mod_http2.so\nProtocols h2c http/1.1\n";

# ---- 1. mod_ranking ----
my (@ours, @ours_known, $ours_runs);
for my $try (1 .. 3) {
    $ours_runs = $try;
    my $db = "$tmp/r$try/ranking.db";
    make_path(dirname($db));
    system("sqlite3 '$db' < '$root/sql/schema.sql' >/dev/null") == 0 or die "schema\n";
    system("sqlite3 '$db' < '$root/sql/demo.sql'") == 0 or die "demo data\n";
    system('chown', '-R', 'www-data:', dirname($db)) == 0 or die "chown\n";
    my $s = RkServer->new(dir => "$tmp/srv$try", so => $so, driver => 'sqlite3', mpm => 'prefork',
                          params => "file:$db?mode=rw",
                          extra => "${h2conf}LogLevel warn ranking:info http2:debug\n");
    push @servers, $s;
    my $judge = $s->login('judge', 'judge');
    my $url = "http://127.0.0.1:$s->{port}/api";
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        { exec("timeout 2 curl -s --http2-prior-knowledge -N -H 'Authorization: Bearer $judge' "
               . "-H 'Accept: text/event-stream' $url/competition/2/events > /dev/null 2>&1") }
        _exit(1);
    }
    sleep 0.5;
    $s->call('PUT', '/competition/2/zone/26/heat/251/voie/2001', $judge, { score => 'CAP+6' });
    waitpid $pid, 0;
    $s->stop;
    my ($all, $known) = crashes($s->error_log);
    push @ours, @$all;
    push @ours_known, @$known;
    last if @$all;
}
ok(@ours == @ours_known, sprintf('mod_ranking, prefork, h2c, stopped as a stream\'s client went '
   . 'away: %d child crash(es) in %d run(s), all the known one of mod_http2', scalar @ours, $ours_runs));
print "# $_\n" for @ours;

# ---- 2. httpd without mod_ranking: mod_cgi over h2c ----
my (@plain, @plain_known, $plain_runs);
for my $try (1 .. 3) {
    $plain_runs = $try;
    my $dir = "$tmp/plain$try";
    make_path("$dir/logs");
    open(my $cg, '>', "$dir/slow.cgi") or die "$dir/slow.cgi: $!";
    print $cg "#!/bin/sh\nprintf 'Content-Type: text/plain\\r\\n\\r\\n'\necho start\nsleep 20\n";
    close $cg;
    chmod 0755, "$dir/slow.cgi";
    system('chown', '-R', 'www-data:', $dir) == 0 or die "chown $dir\n";
    my $port = RkServer::free_port();
    open(my $fh, '>', "$dir/httpd.conf") or die "$dir/httpd.conf: $!";
    print $fh <<"CONF";
ServerRoot "$dir"
ServerName 127.0.0.1
Listen 127.0.0.1:$port
PidFile "$dir/httpd.pid"
Mutex file:$dir
ErrorLog "$dir/logs/error_log"
User www-data
Group www-data
LoadModule mpm_prefork_module $moddir/mod_mpm_prefork.so
LoadModule authz_core_module $moddir/mod_authz_core.so
LoadModule alias_module $moddir/mod_alias.so
LoadModule cgi_module $moddir/mod_cgi.so
${h2conf}LogLevel warn http2:debug
ScriptAlias /slow "$dir/slow.cgi"
<Location /slow>
    Require all granted
</Location>
CONF
    close $fh;
    system('apache2', '-f', "$dir/httpd.conf", '-k', 'start') == 0 or die "cannot start the plain httpd\n";
    my $up = 0;
    for (1 .. 50) {
        last if ($up = IO::Socket::INET->new(PeerAddr => "127.0.0.1:$port") ? 1 : 0);
        sleep 0.1;
    }
    $up or die "the plain httpd does not answer\n";
    my $out = `timeout 2 curl -s --http2-prior-knowledge -N http://127.0.0.1:$port/slow`;
    system('apache2', '-f', "$dir/httpd.conf", '-k', 'stop');
    my $ppid = do { local (@ARGV, $/) = ("$dir/httpd.pid"); eval { <> } };
    for (1 .. 100) {
        last unless $ppid && kill 0, $ppid;
        sleep 0.1;
    }
    my $log = do { local (@ARGV, $/) = ("$dir/logs/error_log"); eval { <> } } // '';
    my ($all, $known) = crashes($log);
    push @plain, @$all;
    push @plain_known, @$known;
    last if @$all;
}
print "# without mod_ranking: $_\n" for @plain;
ok(!@ours || @plain_known > 0, sprintf('the crash happens without mod_ranking too (httpd with mod_cgi, '
   . 'prefork, h2c: %d known crash(es) in %d run(s)): it is mod_http2\'s', scalar @plain_known, $plain_runs));
print "# mod_http2 crashed in neither run: a release without the bug? (doc/operations.md, "
    . "\"HTTP/2 under prefork\", and the exception of t/faults/faults.pl can go)\n" if !@ours && !@plain;

cleanup();
exit RkServer::done();
