#!/usr/bin/perl
# t/faults/capacity.pl BUILD_DIR [MPM]: streams never starve the API (run by
# t/faults/faults.pl, or alone; event MPM only, where a stream is parked):
# 14. on Debian's default configuration of the event MPM (mpm_event.conf: 2 children
#     at start, 25 threads each, AsyncRequestWorkerFactor 2), 1,000 event streams are
#     opened at once, more than all the children (6 at most) accept (a child stops accepting past
#     ThreadsPerChild x (1 + factor) connections): those past the automatic
#     RankingEventListeners (half of that, per child) answer 503 with Retry-After at
#     once, and while the others stay open, reads and lane PUTs on new connections are
#     each answered 200 within 1 s, and a lane PUT reaches the open streams.
# Prints "N passed, M failed" when run alone.
package FaultsCap;
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use IO::Select;
use IO::Socket::INET;
use LWP::UserAgent;
use Time::HiRes qw(time sleep);
use lib dirname(abs_path(__FILE__)) . '/../lib';
use RkServer;
use SseClient;

*ok = \&RkServer::ok;
*like = \&RkServer::like;

my $root = abs_path(dirname(__FILE__) . '/../..');
my $STREAMS = 1000;

sub run {
    my ($so, $mpm, $tmp, $servers) = @_;
    return if $mpm ne 'event';
    my $db = "$tmp/cap14/ranking.db";
    make_path(dirname($db));
    system("sqlite3 '$db' < '$root/sql/schema.sql' >/dev/null") == 0 or die "schema\n";
    system("sqlite3 '$db' < '$root/sql/demo.sql'") == 0 or die "demo data\n";
    system('chown', '-R', 'www-data:', dirname($db)) == 0 or die "chown\n";
    # /etc/apache2/mods-available/mpm_event.conf of Debian, as installed
    my $s = RkServer->new(dir => "$tmp/cap14srv", so => $so, driver => 'sqlite3', mpm => 'event',
                          params => "file:$db?mode=rw", nofile => 4096, extra => <<'CONF');
StartServers 2
MinSpareThreads 25
MaxSpareThreads 75
ThreadLimit 64
ThreadsPerChild 25
MaxRequestWorkers 150
MaxConnectionsPerChild 0
<Location /api>
    RankingLoginLimit 0
</Location>
CONF
    push @$servers, $s;
    my $demo = $s->login('demo', 'demo');
    my $judge = $s->login('judge', 'judge');
    like($s->error_log, qr/event streams and long polls: at most 37 per child \(half of the 75 connections/,
         "Debian's MPM defaults: the automatic limit is 37 streams per child, and the log says why");
    # every stream asked for at once, their heads read together (5 s at most)
    my $hostport = "127.0.0.1:$s->{port}";
    my @st;
    for (1 .. $STREAMS) {
        my $sock = IO::Socket::INET->new(PeerAddr => $hostport, Timeout => 5) or last;
        binmode $sock;
        print {$sock} join("\r\n", 'GET /api/competition/2/events HTTP/1.1', "Host: $hostport",
                           "Authorization: Bearer $demo", 'Accept: text/event-stream', '', '');
        push @st, { sock => $sock, buf => '' };
    }
    my $sel = IO::Select->new(map { $_->{sock} } @st);
    my %by = map { ($_->{sock} => $_) } @st;
    my $t0 = time;
    while ($sel->count && time - $t0 < 5) {
        for my $fh ($sel->can_read(0.5)) {
            my $x = $by{$fh};
            my $n = sysread($fh, $x->{buf}, 65536, length $x->{buf});
            $sel->remove($fh) if !$n || $x->{buf} =~ /\r\n\r\n/;
        }
    }
    my @open = grep { $_->{buf} =~ m{^HTTP/1\.1 200} } @st;
    my @refused = grep { $_->{buf} =~ m{^HTTP/1\.1 503} && $_->{buf} =~ /^Retry-After: \d+\r$/mi } @st;
    my $none = grep { $_->{buf} !~ m{^HTTP/1\.1 } } @st;
    my $children = my @kids = split ' ', `ps --ppid @{[ $s->pid ]} -o pid=`;
    ok(@st == $STREAMS && @open >= 37 && @open <= 37 * $children && @open + @refused == $STREAMS,
       sprintf('%d event streams asked for: %d open (at most 37 in each of %d children), %d answered '
               . '503 with Retry-After, %d unanswered after 5 s', scalar @st, scalar @open, $children,
               scalar @refused, $none));
    # while they are open: reads and lane PUTs, each on a new connection
    my ($slowest, @bad) = (0);
    for my $i (1 .. 30) {
        my $ua = LWP::UserAgent->new(keep_alive => 0, timeout => 3);
        my $t1 = time;
        my ($code) = $i % 3 ? $s->call('GET', $i % 2 ? '/competition/2' : '/competition/2/leaderboard', $demo, undef, $ua)
                            : $s->call('PUT', '/competition/2/zone/26/heat/253/voie/2014', $judge,
                                       { score => sprintf('%d.5', 500 + $i) }, $ua);
        my $took = time - $t1;
        $slowest = $took if $took > $slowest;
        push @bad, "$code/" . sprintf('%.2f', $took) if $code != 200 || $took > 1;
    }
    ok(!@bad, sprintf('while they are open, 20 reads and 10 lane PUTs on new connections each answer 200 '
                      . 'within 1 s (slowest %.2f s)%s', $slowest, @bad ? ": @bad" : ''));
    my $got = 0;
    if (@open) {
        my $text = SseClient::read({ sock => $open[0]{sock}, raw => $open[0]{buf} =~ s/\A.*?\r\n\r\n//sr,
                                     sel => IO::Select->new($open[0]{sock}) }, 5, qr/"score":"530\.5"/);
        $got = $text =~ /"score":"530\.5"/ ? 1 : 0;
    }
    ok($got, 'an open stream got the last lane PUT');
    close $_->{sock} for @st;
    # the streams end at the watcher's next tick: the server is stopped after it (a
    # stop while 74 ended streams were being processed crashed a child in about one
    # run of six, in the event MPM's close_worker_sockets, on the module before this
    # limit too, with RankingEventListeners 37: a known problem, not this test's)
    sleep 2;
    $s->stop;
}

unless (caller) {
    my $build = abs_path(shift // 'build') or die "usage: $0 BUILD_DIR [MPM]\n";
    my $mpm = shift // 'event';
    my $tmp = tempdir('rk-capfaults-XXXXXX', TMPDIR => 1, CLEANUP => 0);
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
