#!/usr/bin/perl
# bench/put-cost.pl: the instructions a lane PUT costs the server, counted by callgrind
# (deterministic, unlike a rate on a shared machine; doc/performance.md quotes it).
#
#   perl bench/put-cost.pl --build build-bench [--root CHECKOUT] [--n N] [--top]
#
# Makes the bench's database (CHECKOUT's sql/schema.sql, sql/demo.sql, bench/large.sql;
# CHECKOUT defaults to this one, so that an older checkout's build can be measured with
# its own schema), logs in as the judge on a normal server, then runs httpd -X under
# callgrind twice, counting only connection processing (ap_run_process_connection):
# once with W warm-up PUTs, once with W + N, each on one keep-alive connection, each
# PUT a new score on another lane of the large competition (the same sequence in both
# runs and for every build).  Instructions per PUT = the difference / N: start-up,
# warm-up and the connection's own cost cancel out (the server keeps one database
# connection: its opening and statements are made in the first request of each run).  --top prints the inclusive counts
# of the second run's heaviest functions (callgrind_annotate).
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use Getopt::Long;
use HTTP::Request;
use LWP::UserAgent;
use Time::HiRes qw(sleep);

my $ROOT;
BEGIN { $ROOT = abs_path(dirname(__FILE__) . '/..'); }
use lib "$ROOT/t/lib", "$ROOT/bench";
use BenchLanes qw(large_wods lane_path lane_score);
use RkServer;

my %o = (n => 300, warm => 30, root => $ROOT);
GetOptions(\%o, 'build=s', 'root=s', 'n=i', 'warm=i', 'top', 'header=s@', 'dir=s') or die "bad options\n";
die "--build DIR is required\n" unless $o{build};
my $build = abs_path($o{build}) or die "no build directory $o{build}\n";
my $root = abs_path($o{root}) or die "no checkout $o{root}\n";
my $so = "$build/mod_ranking/.libs/mod_ranking.so";
-f $so or die "$so: not built\n";
`sh -c 'command -v valgrind'` or die "valgrind is not installed\n";

my $dir = $o{dir} // "$build/put-cost-run";
remove_tree($dir);
make_path("$dir/db");
my $db = "$dir/db/bench.db";
for my $sql ("$root/sql/schema.sql", "$root/sql/demo.sql", "$root/bench/large.sql") {
    system("sqlite3 '$db' < '$sql' >/dev/null") == 0 or die "sqlite3 $db < $sql\n";
}
my @wods = large_wods($db);


# one database connection: a second one, opened when the watcher thread holds the
# first or when a request comes before the previous one gave its connection back
# (timing decides), would be counted (opening it, its setup)
my $extra = "DBDMin 1\nDBDKeep 1\nDBDMax 1\n";
my $srv = RkServer->new(dir => $dir, so => $so, driver => 'sqlite3', params => "file:$db?mode=rw",
                        mpm => 'event', api => "    RankingLoginLimit 0", extra => $extra);
my $token = $srv->login('judge', 'judge') or die "cannot log in as judge\n";
$srv->stop;
undef $srv;

# One run under callgrind with COUNT PUTs: the instructions counted, and the profile
sub run {
    my ($count, $tag) = @_;
    my $port = RkServer::free_port();
    my $conf = "$dir/callgrind-$tag.conf";
    open my $in, '<', "$dir/httpd.conf" or die;
    open my $out, '>', $conf or die;
    while (<$in>) {
        s/^Listen .*/Listen 127.0.0.1:$port/;
        s/^PidFile .*/PidFile "$dir\/callgrind-$tag.pid"/;
        s/^ErrorLog .*/ErrorLog "$dir\/logs\/callgrind-$tag-error_log"/;
        print $out $_;
    }
    close $out;
    my $cg = "$dir/logs/callgrind-$tag.out";
    unlink glob("$cg*");
    my $pid = fork // die;
    if (!$pid) {
        open STDOUT, '>', "$dir/callgrind-$tag.log";
        open STDERR, '>&', \*STDOUT;
        # as the server's user from the start: httpd -X would drop root's rights
        # before callgrind writes its profile
        exec 'runuser', '-u', 'www-data', '--', 'valgrind', '--tool=callgrind', '--collect-atstart=no',
             '--toggle-collect=ap_run_process_connection',
             "--callgrind-out-file=$cg", 'apache2', '-X', '-f', $conf;
    }
    my $ua = LWP::UserAgent->new(keep_alive => 1, timeout => 120);
    my $base = "http://127.0.0.1:$port/api";
    my $up = 0;
    for (1 .. 600) {
        my $r = $ua->get("$base/competition/100", Authorization => "Bearer $token");
        if ($r->code == 200) { $up = 1; last; }
        sleep 0.1;
    }
    die "httpd under valgrind did not answer (see $dir/callgrind-$tag.log)\n" unless $up;
    my $bad = 0;
    for my $i (1 .. $count) {
        my $k = ($i * 7919) % 24000;
        my $req = HTTP::Request->new(PUT => $base . lane_path($k));
        $req->header(Authorization => "Bearer $token", 'Content-Type' => 'application/json');
        for (@{ $o{header} // [] }) {
            my ($h, $v) = split /:\s*/, $_, 2;
            $req->header($h => $v =~ s/\{i\}/$i/gr);
        }
        $req->content('{"score":"' . lane_score(\@wods, $k, 100_000 + $i) . '"}');
        my $res = $ua->request($req);
        $bad++ unless $res->code == 200;
    }
    kill 'TERM', $pid;   # httpd -X stops; callgrind writes its profile
    waitpid $pid, 0;
    die "$bad PUTs of $count failed\n" if $bad;
    my ($dump) = sort glob("$cg*");
    die "no callgrind profile ($cg)\n" unless $dump;
    my ($total) = `callgrind_annotate '$dump' 2>/dev/null` =~ /^\s*([\d,]+)\s+\([^)]*\)\s+PROGRAM TOTALS/m;
    die "no total in $dump\n" unless defined $total;
    $total =~ tr/,//d;
    return ($total, $dump);
}

my ($t1) = run($o{warm}, 'warm');
my ($t2, $dump) = run($o{warm} + $o{n}, 'all');
printf "instructions per lane PUT: %.0f (callgrind, httpd -X, %d PUTs after %d; %s)\n",
       ($t2 - $t1) / $o{n}, $o{n}, $o{warm}, $so;
print `callgrind_annotate --inclusive=yes --threshold=99 '$dump' 2>/dev/null | head -80` if $o{top};
