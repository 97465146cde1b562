#!/usr/bin/perl
# bench/bench.pl: the benchmark behind ./scripts/bench (which builds the module and
# installs wrk first; run that).  Starts httpd (event MPM) on loopback with the module
# built in BUILD, on a SQLite database holding the demo and the large competition of
# bench/large.sql, and measures with wrk:
#   - each read route against the same bytes served by the same httpd as a static file,
#     and by nginx (Debian's, a process of the bench's own: one worker pinned with httpd,
#     sendfile, gzip_static for the gzip rows, no access log; its answers compared with
#     the module's byte for byte), and by httpd's floor (bench/mod_floor.c), token
#     checking on (the same Authorization header on all); the leaderboards (overall and
#     one WOD's) among them; PAIRS rounds (15) of PAIR_DURATION-second runs (1), the
#     module's in the middle of each round, beside its baselines', every ratio the
#     median of the rounds' ratios (paired(), read_row()); and once, httpd's floor
#     against itself with the same schedule: how far noise alone moves a ratio;
#   - the leaderboard's rebuild after a write: a lane PUT, then at once a GET of the
#     overall leaderboard, whose time includes the rebuild (REBUILDS rounds, 200; 20 in
#     --smoke mode);
#   - anonymous GETs of a public mount (/pub, RankingPublic On: the module's quick
#     handler) against the same bytes as a static file of httpd and of nginx;
#   - conditional GETs (304) against the static file's 304 (httpd's and nginx's);
#   - lane PUT with 16 clients against SQLite's own single-row commit rate on the same
#     disk (sqlite3, WAL, synchronous=FULL), alternating runs;
#   - POST /connect against one bcrypt check (bench/bcrypt-cost.c);
#   - the token check's share of a request, in instructions (callgrind), if valgrind
#     is installed;
#   - the floor (callgrind): instructions per request of the WOD list as a static file,
#     from bench/mod_floor.c (a handler answering the same bytes: httpd's own cost),
#     from the module with a token and anonymously from the public mount, and its 304;
#   - where the CPU goes under load (perf record -e cpu-clock, if perf is installed):
#     the WOD list with a token from the module and from the floor under wrk, the
#     children's CPU time per request by library (kernel, httpd, APR, libc, ours);
#   - publication (API.md Part 3): the bench competition has `publication: validated`
#     (lane 7 of every heat entered, not validated); the overall leaderboard and a
#     heat's lanes as a reader (published view) and as an editor (full view), each
#     against its static file; a validation, then at once a reader's overall leaderboard
#     (50 rounds; 5 in --smoke mode), its delay;
#   - the memory of the httpd children over REQUESTS requests (every read route,
#     leaderboards included, both views of the overall leaderboard and of a heat's
#     lanes, and one lane PUT in 500): their RSS twice a second (the steady RSS:
#     medians) and their peak RSS.
# Prints one table and writes it as JSON.  Exit status: 0 when every target is met
# (in --smoke mode: when every measurement ran without an error), 1 otherwise.
#
#   - PostgreSQL: the demo's read routes on a server over a throwaway PostgreSQL
#     (t/pg/pg-server.sh) and on the SQLite server, each against its static file
#     (target: PostgreSQL at least 0.9x); its lane PUTs against the same PUTs on SQLite,
#     and against PostgreSQL's own single-row commits (pgbench, 16 clients; target at
#     least 0.6x);
#   - event streams: STREAMS (10,000; 200 in --smoke mode) open on a server of 4
#     children of 64 threads: the delay from a lane PUT's answer to each stream's event,
#     the RSS per open stream, the read rate while they are open (bench/sse-clients.c).
#
#   bench.pl --build DIR [--smoke] [--duration S] [--rounds N] [--pairs N]
#            [--pair-duration S] [--requests N]
#            [--rebuilds REBUILDS] [--streams STREAMS] [--json FILE] [--no-callgrind]
#            [--only REGEX] [--memory-log DIR]
#
#   --only REGEX: only the sections whose name matches: the read routes by their names
#   (competition, wods, spots-2000, ..., public-competition and public-wods: the public
#   mount's; the measure against itself runs with the first of them that has a floor), leaderboard (the rebuild), publication (both views' reads and the
#   validation's delay), lane-put, connect, callgrind, floor (httpd's own cost per
#   request against ours, callgrind; with --smoke only when --only names it), cpu
#   (perf's profile under load; needs the wods row too: '^(wods|cpu)$'), memory
#   (with its whole mix of routes), postgresql, streams, generate
#   (heat generation, then the leaderboard read after it: last); the ETag
#   check runs with the lanes-B route.  --memory-log DIR: the measured part
#   of the memory run also writes DIR/samples.txt (each child's RSS and peak RSS twice a
#   second, and the requests done at each wrk run's end) and a copy of a child's
#   /proc/PID/smaps at each wrk run's end and whenever its peak RSS rose by 256 KiB.
#   RK_BENCH_EXTRA (environment): more lines for the server's configuration, to look
#   inside a run (e.g. 'LogLevel warn ranking:trace1': whether a rebuild followed the
#   lane changes or read the whole competition); not for measured runs.
use strict;
use warnings;
use feature 'state';
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use Getopt::Long;
use IO::Socket::INET;
use Socket qw(IPPROTO_TCP TCP_NODELAY);
use JSON::PP;
use LWP::UserAgent;
use POSIX qw(strftime);
use Time::HiRes qw(time sleep);

my $ROOT;
BEGIN { $ROOT = abs_path(dirname(__FILE__) . '/..'); }
use lib "$ROOT/t/lib", "$ROOT/bench";
use BenchLanes qw(large_wods lane_path lane_score);
use RkServer;

my %o = (duration => 5, rounds => 3, requests => 1_000_000, connections => 32,
         pairs => 15, pair_duration => 1, interleave_runs => 3, interleave_duration => 5,
         interleave_phase => 50, callgrind => 1, pin => 1, only => '');
GetOptions(\%o, 'build=s', 'smoke', 'duration=f', 'rounds=i', 'requests=i', 'rebuilds=i',
           'pairs=i', 'pair-duration=f' => \$o{pair_duration},
           'interleave-runs=i' => \$o{interleave_runs}, 'interleave-duration=i' => \$o{interleave_duration},
           'interleave-phase=i' => \$o{interleave_phase},
           'json=s', 'connections=i', 'threads=i', 'callgrind!', 'pin!', 'only=s', 'streams=i',
           'memory-log=s')
    or die "bad options\n";
# With 2 CPUs or more, wrk runs on the last one and httpd on the others, so that the
# load generator does not take the server's CPU time at random moments: the figures
# then compare the server's cost per request, which is what the module changes.
my $ncpu = `nproc` + 0;
$o{pin} = 0 if $ncpu < 2 || !`sh -c 'command -v taskset'`;
$o{threads} //= $o{pin} ? 1 : 2;
my @wrk_prefix = $o{pin} ? ('taskset', '-c', $ncpu - 1) : ();
my $server_cpus = $ncpu > 2 ? '0-' . ($ncpu - 2) : '0';
die "--build DIR is required\n" unless $o{build};
if ($o{smoke}) {
    $o{duration} = 1;
    $o{rounds} = 1;
    $o{pairs} = 1;
    $o{requests} = 20_000;
    $o{rebuilds} //= 20;
    $o{callgrind} = 0;
}
my $build = abs_path($o{build}) or die "no build directory $o{build}\n";
my $so = "$build/mod_ranking/.libs/mod_ranking.so";
-f $so or die "$so: not built\n";
$o{json} //= "$build/bench.json";
$o{rebuilds} //= 200;

sub info { print STDERR "bench: @_\n"; }

# ---- database and server -------------------------------------------------------------

my $dir = "$build/bench-run";
remove_tree($dir);
make_path("$dir/db", "$dir/static");
my $db = "$dir/db/bench.db";

sub make_db {
    my $file = shift;
    for my $sql ("$ROOT/sql/schema.sql", "$ROOT/sql/demo.sql", "$ROOT/bench/large.sql") {
        system("sqlite3 '$file' < '$sql' >/dev/null") == 0 or die "sqlite3 $file < $sql\n";
    }
}
info("creating the database (demo + 2,000 spots, 12 WODs, 8 zones, 2,400 heats, "
     . "24,000 lanes)");
make_db($db);
# The large competition's WODs, in list order, as bench/lanes.lua reads them: lane
# PUTs write scores of the lane's WOD's scoring (API.md Part 2, "Typed scores").
my @wods = large_wods($db);
$ENV{BENCH_WODS} = join ' ', map { "$_->[1]:$_->[2]" } @wods;
# Publication (API.md Part 3, doc/api.md section 13): the bench competition publishes
# validated scores only, so that every section reads a competition with two views (the
# judge, an editor, gets the full view; readers the published one).  Its lanes with a
# score are validated (published values = current ones) but lane 7 of every heat:
# entered, never validated, so that the published view differs from the full one.
# Only when a section that needs it runs (publication, memory: every full run), so
# that `--only` runs of the other sections still read an `immediate` competition, as
# the runs before issue 29 did, and compare with them.
my $validated = !$o{only} || grep { $_ =~ /$o{only}/ } qw(publication memory);
!$validated or system("sqlite3 '$db' \"UPDATE competition SET publication = 'validated' WHERE id = 100;
        UPDATE lane SET score_status = CASE WHEN score IS NULL THEN NULL
                                            WHEN number = 7 THEN 'entered' ELSE 'validated' END,
                        published_score = CASE WHEN number = 7 THEN NULL ELSE score END,
                        published_tiebreak = CASE WHEN number = 7 THEN NULL ELSE tiebreak END
        WHERE heat_id BETWEEN 400001 AND 402400\"") == 0
    or die "cannot switch competition 100 to publication: validated\n";
my @rows;       # the table
my %targets;    # name => { met, what }
my @errors;     # what went wrong (any mode)

# The read routes (their static copies are NAME.json in $dir/static)
my @routes = (
    [competition    => '/competition/100'],
    [competitions   => '/competition/'],
    [wods           => '/competition/100/wod/'],
    ['spots-2000'   => '/competition/100/spot/'],
    ['zone-heats-A' => '/competition/100/zone/300001/heat/'],
    ['heats-B'      => '/competition/100/heat/'],
    ['lanes-A'      => '/competition/100/zone/300001/heat/400001/voie/'],
    ['lanes-B'      => '/competition/100/heat/400001/line/'],
    [leaderboard    => '/competition/100/leaderboard'],
    ['wod-leaderboard' => "/competition/100/wod/$wods[0][0]/leaderboard"],
);
# The memory run's mix: every route, whatever --only says, and the published view of
# the overall leaderboard and of a heat's lanes (the judge's token with ?view=published;
# the routes above are the full view, the judge's default)
my @all_routes = (@routes,
                  ['leaderboard-published' => '/competition/100/leaderboard?view=published'],
                  ['lanes-A-published' => '/competition/100/zone/300001/heat/400001/voie/?view=published']);
@routes = grep { $_->[0] =~ /$o{only}/ } @routes if $o{only};

# httpd's floor (bench/mod_floor.c), built before the server starts: a third baseline
# of the read rows, the same bytes as the module's answer from httpd itself, and the
# callgrind floor's handler.  The handler's floor for the rows with a token (every
# phase of a request, then a handler: SetHandler floor in <Location /floor/NAME>, with
# the mount's own access line, Require all granted, as doc/guide.md has a mount say), the
# quick handler's for the anonymous rows of the public mount (FloorQuick
# /floorq/NAME: answered before every phase, as the module answers them).  Each file is
# read at its first request, once the bench has written it (the module's answer).
my $floor_dir = "$dir/floor";
make_path($floor_dir);
copy("$ROOT/bench/mod_floor.c", "$floor_dir/mod_floor.c") or die "copy mod_floor.c: $!\n";
system("cd '$floor_dir' && apxs -c -Wc,-O2 mod_floor.c >apxs.log 2>&1") == 0
    or die "cannot build bench/mod_floor.c (see $floor_dir/apxs.log)\n";
my $floor_conf = qq(LoadModule floor_module "$floor_dir/.libs/mod_floor.so"\n);
for my $name ((map { $_->[0] } @routes), 'public-competition', 'public-wods') {
    $floor_conf .= qq(<Location /floor/$name>\n    SetHandler floor\n    Require all granted\n)
                 . qq(    FloorBody "$dir/static/$name.json"\n</Location>\n);
}
for my $name ('spots-2000', 'leaderboard') {
    $floor_conf .= qq(<Location /floor/$name-gzip>\n    SetHandler floor\n    Require all granted\n)
                 . qq(    FloorBody "$dir/static/$name.json.gz" gzip\n</Location>\n);
}
$floor_conf .= qq(FloorQuick /floorq/$_ "$dir/static/$_.json"\n) for 'public-competition', 'public-wods';
# Whether RES is a 200 of BODY as JSON, gzip-encoded when GZIP (and only then): the
# module's answer, as a baseline (nginx, the floor) must serve it.
sub same_answer {
    my ($res, $body, $gzip) = @_;
    return $res->code == 200 && $res->content eq $body
           && ($res->header('Content-Type') // '') =~ m{^application/json}
           && (($res->header('Content-Encoding') // '') eq ($gzip ? 'gzip' : ''));
}
my $floor_checks = 0;   # floor answers compared with the module's (a failed one is in @errors)
# The headers of the module's answer RES that httpd does not write itself (ETag, Vary,
# Cache-Control, X-Content-Type-Options, X-Total-Count), as FILE.headers: mod_floor
# sends them with FILE's bytes, so that the floor's answer is the module's on the wire.
my %httpd_writes = map { lc $_ => 1 } qw(Date Server Content-Length Content-Type
    Content-Encoding Connection Keep-Alive);
sub floor_headers {
    my ($file, $res) = @_;
    my @h = grep { !$httpd_writes{lc $_} && !/^Client-/i } $res->headers->header_field_names;
    open my $fh, '>', "$file.headers" or die "$file.headers: $!";
    print $fh map { "$_: " . join(',', $res->header($_)) . "\n" } @h;
    close $fh;
    return { map { lc($_) => join(',', $res->header($_)) } @h };
}
# Whether the floor's answer RES is BODY (gzip-encoded when GZIP) with the headers
# HEADERS (floor_headers), as the module's; as nginx_same.
sub floor_same {
    my ($what, $res, $body, $gzip, $headers) = @_;
    $floor_checks++;
    my @diff = grep { join(',', $res->header($_)) ne $headers->{$_} } sort keys %{ $headers // {} };
    my $ok = same_answer($res, $body, $gzip) && !@diff;
    push @errors, "floor: $what: not the module's answer (" . $res->status_line . ', '
                  . length($res->content) . ' bytes' . (@diff ? ", headers @diff differ" : '') . ')'
        unless $ok;
    return $ok;
}

# mod_mime types the static copies; its only type is ours
open my $mt, '>', "$dir/mime.types" or die;
print $mt "application/json json\n";
close $mt;
my $moddir = `apxs -q LIBEXECDIR`;
chomp $moddir;

# Fixed children so that their memory can be followed: 2 processes of 64 threads (the
# PostgreSQL run's server has the same shape).
my $shape = <<"CONF";
LoadModule mime_module $moddir/mod_mime.so
TypesConfig "$dir/mime.types"
StartServers 2
ServerLimit 2
ThreadsPerChild 64
MaxRequestWorkers 128
MinSpareThreads 1
MaxSpareThreads 128
MaxConnectionsPerChild 0
KeepAliveTimeout 30
MaxKeepAliveRequests 0
# a public mount (RankingPublic): the anonymous rows and the floor's profile
<Location /pub>
    SetHandler ranking
    Require all granted
    RankingPublic On
    RankingLoginLimit 0
</Location>
CONF
# The mount's own lines go inside its one <Location /api> (api =>), as an admin
# writes them: a second <Location /api> would make httpd merge two sections on every
# request (about 750 instructions in its three walks), where the floor's merges one.
my $srv = RkServer->new(dir => $dir, so => $so, driver => 'sqlite3',
                        params => "file:$db?mode=rw", mpm => 'event', api => "    RankingLoginLimit 0",
                        extra => "$shape\nAddEncoding gzip .gz\n$floor_conf\n" . ($ENV{RK_BENCH_EXTRA} // ""));
END { local $?; $srv->stop if $srv; }   # local: stop() runs system(), which sets $?
if ($o{pin}) {
    for my $pid ($srv->pid, split ' ', `ps --ppid @{[ $srv->pid ]} -o pid=`) {
        system("taskset -a -p -c $server_cpus $pid >/dev/null") == 0 or die "taskset $pid\n";
    }
}
$SIG{INT} = $SIG{TERM} = sub { exit 1 };

my $base = "http://127.0.0.1:$srv->{port}";
my $token = $srv->login('judge', 'judge') or die "cannot log in as judge\n";
my $auth = "Authorization: Bearer $token";
my $ua = LWP::UserAgent->new(keep_alive => 1, timeout => 60);

sub get {
    my ($url, @h) = @_;
    my $res = $ua->get($url, Authorization => "Bearer $token", @h);
    return $res;
}

# ---- wrk -----------------------------------------------------------------------------

sub ms {
    my ($v, $unit) = @_;
    return $v * ($unit eq 'us' ? 0.001 : $unit eq 's' ? 1000 : $unit eq 'm' ? 60000 : 1);
}

# One wrk run: { rps, requests, bad (non-2xx/3xx and socket errors), p50, p99 (ms) }
sub wrk {
    my (%a) = @_;
    my @cmd = (@wrk_prefix, 'wrk', '-t', $a{threads} // $o{threads}, '-c', $a{connections} // $o{connections},
               '-d', ($a{duration} // $o{duration}) . 's', '--latency', '--timeout', '10s');
    push @cmd, '-H', $_ for @{ $a{headers} // [] };
    push @cmd, '-s', $a{script} if $a{script};
    push @cmd, $a{url};
    push @cmd, '--', @{ $a{args} } if $a{args};
    open my $fh, '-|', @cmd or die "wrk: $!\n";
    my $out = do { local $/; <$fh> };
    close $fh or die "wrk failed: @cmd\n$out";
    state $n = 0;
    if (open my $log, '>', sprintf("$dir/wrk-%03d.txt", ++$n)) { print $log "@cmd\n$out"; }
    my %r = (bad => 0);
    ($r{rps}) = $out =~ /Requests\/sec:\s+([\d.]+)/ or die "no Requests/sec in wrk's output:\n$out";
    $r{rps} += 0;   # a number in the JSON
    ($r{requests}) = $out =~ /(\d+) requests in/;
    $r{bad} += $1 if $out =~ /Non-2xx or 3xx responses:\s+(\d+)/;
    if ($out =~ /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/) {
        $r{bad} += $1 + $2 + $3 + $4;
    }
    $r{p50} = ms($1, $2) if $out =~ /^\s+50%\s+([\d.]+)(us|ms|s|m)\s*$/m;
    $r{p99} = ms($1, $2) if $out =~ /^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m;
    if ($out =~ /^interleave A (\d+) ([\d.]+) B (\d+) ([\d.]+) ab (\d+) ba (\d+)$/m) {
        @r{qw(na ta nb tb xab xba)} = map { $_ + 0 } $1, $2, $3, $4, $5, $6;
    }
    return \%r;
}

# ---- the floor, interleaved ----------------------------------------------------------
# The module's answer A against httpd's floor B (or any two URLs of one server) in one
# wrk run (bench/interleave.lua): phases of INTERLEAVE_PHASE ms (50), A, B, A, ... on
# every connection, so that the machine's moments weigh on both alike.  Each run gives
# the ratio of A's rate to B's; INTERLEAVE_RUNS runs (3) of INTERLEAVE_DURATION seconds
# (5; one run of 1 s with --smoke), the median.
#
# A phase change leaves the connection's request in flight (K = connections / threads
# of them) to be answered in the next phase: with cA and cB the server's time per
# request of A and of B, NA and NB the requests sent in A's and B's phases, TA and TB
# their times, XAB and XBA the changes from A to B and from B to A:
#     TA = (NA - K XAB) cA + K XBA cB
#     TB = (NB - K XBA) cB + K XAB cA
# solved for cA and cB; the ratio is cB / cA (A's rate over B's).  Uncorrected, the
# other's requests would pull the ratio towards 1 (by 0.1-0.4% at 50 ms phases).
sub interleave_ratio {
    my ($r, $k) = @_;
    return undef unless $r->{na} && $r->{nb} && $r->{ta} > 0 && $r->{tb} > 0;
    my ($a11, $a12, $a21, $a22) = ($r->{na} - $k * $r->{xab}, $k * $r->{xba},
                                   $k * $r->{xab}, $r->{nb} - $k * $r->{xba});
    my $det = $a11 * $a22 - $a12 * $a21;
    return undef unless $det > 0;
    my $ca = ($r->{ta} * $a22 - $a12 * $r->{tb}) / $det;
    my $cb = ($a11 * $r->{tb} - $a21 * $r->{ta}) / $det;
    return undef unless $ca > 0 && $cb > 0;
    return $cb / $ca;
}

# The phase is INTERLEAVE_PHASE ms, or longer for a slow answer: at RATE (A's rate
# in its own runs) a phase holds at least 40 K requests, so that the K left in flight
# at each change stay a small correction.
sub interleaved {
    my ($path_a, $path_b, $rate, @headers) = @_;
    my $runs = $o{smoke} ? 1 : $o{interleave_runs};
    my $k = int($o{connections} / $o{threads});
    my $phase = $o{interleave_phase};
    $phase = int(1000 * 40 * $k / $rate + 0.5) if $rate && 1000 * 40 * $k / $rate > $phase;
    # and a run holds at least 30 phases of each (2 with --smoke), up to 30 seconds
    my $duration = $o{smoke} ? 1 : $o{interleave_duration};
    my $least = int(($o{smoke} ? 4 : 60) * $phase / 1000 + 0.999);
    $least = 30 if $least > 30 && !$o{smoke};
    $duration = $least if $least > $duration;
    my (@ratios, $bad);
    for (1 .. $runs) {
        my $r = wrk(url => $base, script => "$ROOT/bench/interleave.lua",
                    duration => $duration, args => [$path_a, $path_b, $phase, @headers]);
        $bad += $r->{bad};
        my $ratio = interleave_ratio($r, $k);
        defined $ratio or die "interleave $path_a / $path_b: no ratio from wrk (see $dir/wrk-*.txt)\n";
        push @ratios, $ratio;
    }
    return { ratio => percentile(0.5, @ratios), runs => \@ratios, bad => $bad // 0,
             phase_ms => $phase + 0, duration_s => $duration + 0 };
}

sub median_run {
    my @runs = sort { $a->{rps} <=> $b->{rps} } @_;
    return $runs[$#runs / 2];
}

# Alternate A and B (and C, ...), ROUNDS times each, after a warm-up of each: each
# round starts one further along (A first in odd rounds with two); returns the median
# run of each, then every figure of each (A's, B's, ...).
sub alternate {
    my @subs = @_;
    return in_rounds(sub { my $round = shift; map { ($round - 1 + $_) % @subs } 0 .. $#subs }, @subs);
}

# The runs of alternate() and paired(): a warm-up of each sub (none with --smoke), then
# ROUNDS rounds, each running the subs in the order ORDER gives for the round (a list
# of their indices); returns the median run of each, then every figure of each.
sub in_rounds {
    my ($order, @subs) = @_;
    my @runs = map { [] } @subs;
    unless ($o{smoke}) { $_->(1) for @subs; }
    for my $round (1 .. $o{rounds}) {
        push @{ $runs[$_] }, $subs[$_]->() for $order->($round);
    }
    return ((map { median_run(@$_) } @runs), (map { [map { $_->{rps} } @$_] } @runs));
}

# The read rows' schedule (issue 31): PAIRS rounds (15; 1 with --smoke) of runs of
# PAIR_DURATION seconds (1), after a warm-up of each.  This machine's rate moves by
# 10-30% from one run to the next, for nginx as for httpd (2-second runs of nginx's
# static file: 102,000-140,000 a second; httpd's floor drifts from 30,000 to 40,000
# over a minute), so a ratio of the medians of three 5-second runs taken a minute
# apart judged noise.  Here the module's run (the first sub) sits in the middle of
# every round, beside the baselines judged against it (the subs after it: nginx, the
# floor), and the order is reversed every other round, so that a drift weighs the same
# on both sides; read_row() takes each ratio as the median of the rounds' ratios.
# Returns what alternate() does.
sub paired {
    my @subs = @_;
    local $o{rounds} = $o{pairs};
    local $o{duration} = $o{pair_duration};
    my @order = (1 .. $#subs);
    splice @order, int(@subs / 2), 0, 0;
    return in_rounds(sub { $_[0] % 2 ? @order : reverse @order }, @subs);
}

# The ratio of the runs A to the runs B (lists of rates, round by round): the median
# of each round's ratio, and the ratios.
sub round_ratio {
    my ($a, $b) = @_;
    my @r = map { $b->[$_] ? $a->[$_] / $b->[$_] : 0 } 0 .. ($#$a < $#$b ? $#$a : $#$b);
    return (percentile(0.5, @r), \@r);
}

# Whether the section NAME runs: every one, or with --only those whose name matches.
sub wanted {
    my ($name) = @_;
    return !$o{only} || $name =~ /$o{only}/;
}


# A row of the table from what alternate() returns (the module's runs against the
# baseline's), and the row's own fields.
sub compared_row {
    my ($m, $s, $ma, $sa, %fields) = @_;
    push @rows, { module_rps => $m->{rps}, static_rps => $s->{rps},
                  ratio => $s->{rps} ? $m->{rps} / $s->{rps} : 0,
                  p50_ms => $m->{p50}, p99_ms => $m->{p99}, static_p99_ms => $s->{p99},
                  module_runs => $ma, static_runs => $sa, errors => $m->{bad} + $s->{bad},
                  %fields };
}

# A target; REPORTED: shown and written like the others, but not part of the exit
# status (the issue's targets against nginx, until the module reaches them).
sub target {
    my ($name, $met, $what, $reported) = @_;
    $targets{$name} = { met => $met ? JSON::PP::true : JSON::PP::false, what => $what,
                        $reported ? (reported => JSON::PP::true) : () };
}

# ---- nginx: the second baseline ------------------------------------------------------
#
# Debian's nginx (nginx-light, installed by ./scripts/bench without its service) run by
# the bench as a process of its own, with its own configuration in the run directory,
# on a free loopback port: one worker, pinned to the CPU(s) of httpd, serving the very
# files of httpd's static baseline ($dir/static, written below), NAME.json.gz beside
# NAME.json for the gzip rows (gzip_static).  Each read row is measured against it too,
# with the same wrk parameters and headers.

my %nginx;            # what ran: version, port, configuration
my $nginx_checks = 0; # byte-for-byte comparisons made (a failed one is in @errors)
my $nginx_bin = `sh -c 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'`;
chomp $nginx_bin;
my $nginx_base;
if ($nginx_bin) {
    my $nd = "$dir/nginx";
    make_path("$nd/tmp");
    my $port = RkServer::free_port();
    my $user = $> == 0 ? 'user www-data www-data;' : '';
    my $conf = "$nd/nginx.conf";
    open my $nc, '>', $conf or die "$conf: $!";
    print $nc <<"CONF";
# written by bench/bench.pl: the bench's own nginx, not the system's
$user
worker_processes 1;
pid "$nd/nginx.pid";
error_log "$nd/error.log" warn;
events { worker_connections 1024; }
http {
    types { application/json json; }
    default_type application/octet-stream;
    # as Debian's nginx.conf
    sendfile on;
    tcp_nopush on;
    # no access log: the bench's httpd loads no mod_log_config, so its static baseline
    # (and the module) write none either
    access_log off;
    # as httpd's: KeepAliveTimeout 30, MaxKeepAliveRequests 0 (unlimited; nginx's
    # default of 1000 would reconnect wrk's connections)
    keepalive_timeout 30s;
    keepalive_requests 4000000000;
    client_body_temp_path "$nd/tmp/body";
    proxy_temp_path "$nd/tmp/proxy";
    fastcgi_temp_path "$nd/tmp/fastcgi";
    uwsgi_temp_path "$nd/tmp/uwsgi";
    scgi_temp_path "$nd/tmp/scgi";
    server {
        listen 127.0.0.1:$port;
        root "$dir";
        location /static/ {
            # NAME.json.gz, when there, for a request of NAME.json that accepts gzip
            # (the gzip rows); Vary: Accept-Encoding, as the module's gzip answers
            gzip_static on;
            gzip_vary on;
        }
        location / { return 404; }
    }
}
CONF
    close $nc;
    my ($version) = `'$nginx_bin' -v 2>&1` =~ m{nginx/(\S+)};
    my @start = (($o{pin} ? ('taskset', '-c', $server_cpus) : ()),
                 $nginx_bin, '-p', "$nd/", '-e', "$nd/error.log", '-c', $conf);
    if (system(@start) == 0) {
        my $pid;
        for (1 .. 50) {
            if (open my $pf, '<', "$nd/nginx.pid") { $pid = <$pf>; }
            last if $pid;
            sleep 0.1;
        }
        chomp $pid if $pid;
        if ($pid && kill 0, $pid) {
            %nginx = (version => $version, port => $port, conf => $conf, master_pid => $pid + 0,
                      worker_processes => 1, sendfile => 'on', tcp_nopush => 'on',
                      gzip_static => 'on', access_log => 'off');
            $nginx_base = "http://127.0.0.1:$port";
            if ($o{pin}) {
                for my $p ($pid, split ' ', `ps --ppid $pid -o pid=`) {
                    system("taskset -a -p -c $server_cpus $p >/dev/null") == 0 or die "taskset $p\n";
                }
                $nginx{pinned} = "CPU $server_cpus";
            }
        }
    }
    push @errors, "nginx did not start ($conf; see $nd/error.log)" unless $nginx_base;
}
else {
    push @errors, 'nginx: not installed (apt-get install nginx-light; ./scripts/bench does)';
}
END {
    local $?;
    if (%nginx && kill 0, $nginx{master_pid}) {
        kill 'QUIT', $nginx{master_pid};   # graceful: the worker ends its connections
        for (1 .. 50) { last unless kill 0, $nginx{master_pid}; sleep 0.1; }
        kill 'TERM', $nginx{master_pid} if kill 0, $nginx{master_pid};
    }
}

# Whether nginx's answer RES is BODY (and gzip-encoded when GZIP), as the module's: one
# check of the smoke count; a difference is an error.
sub nginx_same {
    my ($what, $res, $body, $gzip) = @_;
    $nginx_checks++;
    my $ok = same_answer($res, $body, $gzip);
    push @errors, "nginx: $what: not the module's bytes (" . $res->status_line . ', '
                  . length($res->content) . ' bytes, Content-Encoding '
                  . ($res->header('Content-Encoding') // 'none') . ')' unless $ok;
    return $ok;
}

# A read row: the module's runs against httpd's static file's and the other baselines'
# (what alternate() returns: the median run of each, then the figures of each, then the
# row's fields); the subs after the module's and the static file's are named by the
# field `baselines` (default: nginx only): nginx's (ratio module/nginx) and httpd's
# floor (bench/mod_floor.c: the same bytes from a handler or the quick handler of the
# same httpd; ratio module/floor, and floor/nginx when both ran).
sub read_row {
    my @r = @_;
    my $n = 0;
    $n++ while ref $r[$n] eq 'HASH';
    my %fields = @r[2 * $n .. $#r];
    my @names = ('module', 'static', @{ delete $fields{baselines} // ['nginx'] });
    my (%med, %all);
    @med{@names[0 .. $n - 1]} = @r[0 .. $n - 1];
    @all{@names[0 .. $n - 1]} = @r[$n .. 2 * $n - 1];
    # the floors interleaved with the module (fields floor_interleaved and
    # floor_quick_interleaved: [PATH_A, PATH_B, HEADER ...]), after its paired runs
    for my $f (grep { ref $fields{$_} eq 'ARRAY' } 'floor_interleaved', 'floor_quick_interleaved') {
        my ($pa, $pb, @h) = @{ $fields{$f} };
        $fields{$f} = interleaved($pa, $pb, $med{module}{rps}, @h);
    }
    compared_row($med{module}, $med{static}, $all{module}, $all{static}, %fields);
    my $row = $rows[-1];
    # every ratio: the median of the rounds' ratios (paired(); a run and its baseline's
    # of the same round are next to each other or nearly), not the ratio of the medians
    ($row->{ratio}, $row->{round_ratios}) = round_ratio($all{module}, $all{static});
    # each baseline's fields, under its prefix: nginx_*, floor_*, floor_quick_*; a
    # floor's rate against nginx's too
    for my $b (['nginx', 'nginx'], ['floor', 'floor'], ['floorq', 'floor_quick']) {
        my ($name, $pre) = @$b;
        my $x = $med{$name} or next;
        $row->{"${pre}_rps"} = $x->{rps};
        ($row->{"${pre}_ratio"}, $row->{"${pre}_round_ratios"}) = round_ratio($all{module}, $all{$name});
        $row->{"${pre}_p99_ms"} = $x->{p99};
        $row->{"${pre}_runs"} = $all{$name};
        ($row->{"${pre}_nginx_ratio"}) = round_ratio($all{$name}, $all{nginx})
            if $name ne 'nginx' && $all{nginx};
        $row->{errors} += $x->{bad};
    }
    $row->{errors} += $_->{bad} for grep { defined } @$row{qw(floor_interleaved floor_quick_interleaved)};
}

# ---- read routes against static files ------------------------------------------------

my %etag;
for my $rt (@routes) {
    my ($name, $path) = @$rt;
    my $res = get("$base/api$path");
    $res->code == 200 or die "GET $path: " . $res->status_line . "\n";
    my $body = $res->content;
    $etag{$name} = $res->header('ETag') or die "GET $path: no ETag\n";
    open my $fh, '>:raw', "$dir/static/$name.json" or die;
    print $fh $body;
    close $fh;
    my $st = get("$base/static/$name.json");
    $st->code == 200 && $st->content eq $body or die "static copy of $path differs\n";
    $st->header('Content-Type') =~ m{^application/json} or die "static $name: not JSON\n";
    # nginx serves the same file: the same bytes as the module's answer
    my $nx = $nginx_base && nginx_same("GET /static/$name.json ($path)",
                                       get("$nginx_base/static/$name.json"), $body);
    # httpd's floor: the same bytes from a handler of the same httpd
    my $fhd = floor_headers("$dir/static/$name.json", $res);   # before the floor's first request
    my $fl = floor_same("GET /floor/$name ($path)", get("$base/floor/$name"), $body, 0, $fhd);
    info(sprintf "%-14s %8d bytes: module vs static file%s%s", $name, length $body,
                 $nx ? ' vs nginx' : '', $fl ? ' vs the floor' : '');
    read_row(paired(
        sub { wrk(url => "$base/api$path", headers => [$auth], $_[0] ? (duration => 1) : ()) },
        sub { wrk(url => "$base/static/$name.json", headers => [$auth],
                  $_[0] ? (duration => 1) : ()) },
        $nx ? sub { wrk(url => "$nginx_base/static/$name.json", headers => [$auth],
                        $_[0] ? (duration => 1) : ()) } : (),
        $fl ? sub { wrk(url => "$base/floor/$name", headers => [$auth],
                        $_[0] ? (duration => 1) : ()) } : ()),
        route => "GET $path", name => $name, kind => 'read', bytes => length $body,
        baselines => [($nx ? 'nginx' : ()), ($fl ? 'floor' : ())],
        $fl ? (floor_interleaved => ["/api$path", "/floor/$name", $auth]) : ());
}

# ---- the measure against itself -------------------------------------------------------
# How far the read rows' ratios move by noise alone: httpd's floor for the first read
# row measured against itself, with the read rows' schedule (paired()) and the same
# wrk parameters.  Its ratio should be 1; how far it is, and the spread of its rounds'
# ratios, are what a read row's ratio can be trusted to (reported, not judged: the
# machine's noise is no target of the module's).
my %measure;
if (my ($first) = grep { defined $_->{floor_rps} && $_->{kind} eq 'read' } @rows) {
    my $url = "$base/floor/$first->{name}";
    info("the measure: httpd's floor for $first->{name} against itself");
    my @r = paired(map { sub { wrk(url => $url, headers => [$auth], $_[0] ? (duration => 1) : ()) } } 1, 2);
    my ($ratio, $rounds) = round_ratio($r[2], $r[3]);
    my $il = interleaved("/floor/$first->{name}", "/floor/$first->{name}", $first->{floor_rps}, $auth);
    %measure = (route => $first->{route}, ratio => $ratio, round_ratios => $rounds,
                q1 => percentile(0.25, @$rounds), q3 => percentile(0.75, @$rounds),
                rates => [@r[2, 3]], interleaved => $il);
    push @errors, "the measure: $il->{bad} failed requests" if $il->{bad};
    target('the measure', abs($ratio - 1) <= 0.03,
           sprintf('httpd\'s floor against itself (%s), paired runs: ratio %.3f (median of %d rounds; '
                   . 'their middle half %.3f-%.3f; at most 0.03 from 1)', $first->{route},
                   $ratio, scalar @$rounds, @measure{qw(q1 q3)}), 1) unless $o{smoke};
    target('the measure, interleaved', abs($il->{ratio} - 1) <= 0.02,
           sprintf('httpd\'s floor against itself (%s), interleaved: ratio %.3f (median of %s; '
                   . 'at most 0.02 from 1)', $first->{route}, $il->{ratio},
                   join(' ', map { sprintf '%.3f', $_ } @{ $il->{runs} })), 1) unless $o{smoke};
}

# ---- anonymous answers of a public mount (issue 31) ----------------------------------
# The public mount /pub (RankingPublic On): GETs without a token, which the module
# answers from its quick handler once the answer is cached, against the same bytes as
# a static file of httpd and of nginx, also without a token (target: at least 0.9x
# nginx, reported).
for my $rt (grep { wanted($_->[0]) } ['public-competition' => '/competition/100'],
                                     ['public-wods' => '/competition/100/wod/']) {
    my ($name, $path) = @$rt;
    my $res = $ua->get("$base/pub$path");
    $res->code == 200 && ($res->header('Cache-Control') // '') =~ /^public/
        or die "GET /pub$path: " . $res->status_line . ", not a public answer\n";
    my $body = $res->content;
    open my $fh, '>:raw', "$dir/static/$name.json" or die;
    print $fh $body;
    close $fh;
    my $st = $ua->get("$base/static/$name.json");
    $st->code == 200 && $st->content eq $body or die "static copy of /pub$path differs\n";
    my $nx = $nginx_base && nginx_same("GET /static/$name.json (/pub$path)",
                                       $ua->get("$nginx_base/static/$name.json"), $body);
    # httpd's floors for an anonymous answer: the same answer from a handler (the
    # issue's floor) and from the quick handler (the least httpd does per request)
    my $fhd = floor_headers("$dir/static/$name.json", $res);   # before the floors' first request
    my $fl = floor_same("GET /floor/$name (/pub$path)", $ua->get("$base/floor/$name"), $body, 0, $fhd);
    my $fq = floor_same("GET /floorq/$name (/pub$path)", $ua->get("$base/floorq/$name"), $body, 0, $fhd);
    info(sprintf "%-18s %8d bytes: anonymous, module vs static file%s%s%s", $name, length $body,
                 $nx ? ' vs nginx' : '', $fl ? ' vs the floor' : '', $fq ? ' vs the quick floor' : '');
    read_row(paired(
        sub { wrk(url => "$base/pub$path", $_[0] ? (duration => 1) : ()) },
        sub { wrk(url => "$base/static/$name.json", $_[0] ? (duration => 1) : ()) },
        $nx ? sub { wrk(url => "$nginx_base/static/$name.json", $_[0] ? (duration => 1) : ()) }
            : (),
        $fl ? sub { wrk(url => "$base/floor/$name", $_[0] ? (duration => 1) : ()) } : (),
        $fq ? sub { wrk(url => "$base/floorq/$name", $_[0] ? (duration => 1) : ()) } : ()),
        route => "GET /pub$path (anonymous)", name => $name, kind => 'read-public',
        bytes => length $body,
        baselines => [($nx ? 'nginx' : ()), ($fl ? 'floor' : ()), ($fq ? 'floorq' : ())],
        $fl ? (floor_interleaved => ["/pub$path", "/floor/$name"]) : (),
        $fq ? (floor_quick_interleaved => ["/pub$path", "/floorq/$name"]) : ());
}

# ---- conditional GET -----------------------------------------------------------------

for my $name (grep { my $n = $_; grep { $_->[0] eq $n } @routes } 'wods', 'spots-2000') {
    my ($path) = map { $_->[1] } grep { $_->[0] eq $name } @routes;
    my $res = get("$base/api$path", 'If-None-Match' => $etag{$name});
    $res->code == 304 or die "If-None-Match on $path: " . $res->status_line . "\n";
    my $st = get("$base/static/$name.json");
    my $setag = $st->header('ETag');
    get("$base/static/$name.json", 'If-None-Match' => $setag)->code == 304
        or die "static $name: no 304\n";
    # nginx's 304 to its own ETag of the same file
    my $netag;
    if ($nginx_base) {
        $nginx_checks++;
        $netag = get("$nginx_base/static/$name.json")->header('ETag');
        my $nr = $netag && get("$nginx_base/static/$name.json", 'If-None-Match' => $netag);
        unless ($nr && $nr->code == 304 && $nr->content eq '') {
            push @errors, "nginx: static $name: no 304 to its ETag";
            undef $netag;
        }
    }
    info("$name 304: module vs static file" . ($netag ? ' vs nginx' : ''));
    read_row(paired(
        sub { wrk(url => "$base/api$path", headers => [$auth, "If-None-Match: $etag{$name}"],
                  $_[0] ? (duration => 1) : ()) },
        sub { wrk(url => "$base/static/$name.json", headers => [$auth, "If-None-Match: $setag"],
                  $_[0] ? (duration => 1) : ()) },
        $netag ? sub { wrk(url => "$nginx_base/static/$name.json",
                           headers => [$auth, "If-None-Match: $netag"],
                           $_[0] ? (duration => 1) : ()) } : ()),
        route => "GET $path (304)", name => "$name-304", kind => 'read-304', bytes => 0);
}

# ---- gzip answers against the same gzip bytes as a static file ----------------------
# The module's gzip answer (Accept-Encoding: gzip) against httpd serving those bytes
# from NAME.json.gz (AddEncoding: Content-Encoding: gzip); and the wire bytes of the
# 2,000-spot list gzipped against plain (issue: at most 15%).
my %gzip;
for my $name (grep { my $n = $_; grep { $_->[0] eq $n } @routes } 'spots-2000', 'leaderboard') {
    my ($path) = map { $_->[1] } grep { $_->[0] eq $name } @routes;
    my $res = get("$base/api$path", 'Accept-Encoding' => 'gzip');
    ($res->header('Content-Encoding') // '') eq 'gzip' or die "GET $path: not gzipped\n";
    my $gz = $res->content;
    my $plain = -s "$dir/static/$name.json";
    open my $fh, '>:raw', "$dir/static/$name.json.gz" or die;
    print $fh $gz;
    close $fh;
    my $st = get("$base/static/$name.json.gz", 'Accept-Encoding' => 'gzip');
    $st->content eq $gz && ($st->header('Content-Encoding') // '') eq 'gzip'
        or die "static gzip copy of $path differs\n";
    $gzip{$name} = { plain => $plain, gzip => length $gz, share => length($gz) / $plain };
    # nginx's gzip_static: NAME.json asked with Accept-Encoding: gzip is NAME.json.gz
    my $nx = $nginx_base && nginx_same("GET /static/$name.json, gzip ($path)",
                                       get("$nginx_base/static/$name.json", 'Accept-Encoding' => 'gzip'),
                                       $gz, 1);
    my $fhd = floor_headers("$dir/static/$name.json.gz", $res);   # before the floor's first request
    my $fl = floor_same("GET /floor/$name-gzip ($path, gzip)",
                        get("$base/floor/$name-gzip", 'Accept-Encoding' => 'gzip'), $gz, 1, $fhd);
    info(sprintf "%-14s %8d gzip bytes (%.1f%% of %d): module vs static file%s%s", $name,
                 length $gz, 100 * length($gz) / $plain, $plain, $nx ? ' vs nginx gzip_static' : '',
                 $fl ? ' vs the floor' : '');
    my @h = ($auth, 'Accept-Encoding: gzip');
    read_row(paired(
        sub { wrk(url => "$base/api$path", headers => \@h, $_[0] ? (duration => 1) : ()) },
        sub { wrk(url => "$base/static/$name.json.gz", headers => \@h, $_[0] ? (duration => 1) : ()) },
        $nx ? sub { wrk(url => "$nginx_base/static/$name.json", headers => \@h,
                        $_[0] ? (duration => 1) : ()) } : (),
        $fl ? sub { wrk(url => "$base/floor/$name-gzip", headers => \@h,
                        $_[0] ? (duration => 1) : ()) } : ()),
        route => "GET $path (gzip)", name => "$name-gzip", kind => 'read-gzip', bytes => length $gz,
        baselines => [($nx ? 'nginx' : ()), ($fl ? 'floor' : ())],
        $fl ? (floor_interleaved => ["/api$path", "/floor/$name-gzip", @h]) : ());
}
if ($gzip{'spots-2000'}) {
    my $g = $gzip{'spots-2000'};
    target('gzip-bytes', $g->{share} <= 0.15,
           sprintf('the 2,000-spot list gzipped: %d bytes, %.1f%% of its %d plain bytes (at most 15%%)',
                   $g->{gzip}, 100 * $g->{share}, $g->{plain}));
}

# The ETag changes with the data: one lane PUT, and the old ETag is no longer current.
if (defined $etag{'lanes-B'}) {
    my $lane = '/competition/100/zone/300001/heat/400001/voie/500001';
    my $req = HTTP::Request->new(PUT => "$base/api$lane",
        ['Authorization' => "Bearer $token", 'Content-Type' => 'application/json'],
        '{"score":"' . lane_score(\@wods, 0, 465) . '"}');
    my $put = $ua->request($req);
    my $after = get("$base/api/competition/100/heat/400001/line/",
                    'If-None-Match' => $etag{'lanes-B'});
    my $ok = $put->code == 200 && $after->code == 200
             && ($after->header('ETag') // '') ne $etag{'lanes-B'};
    target('etag-changes', $ok, 'a lane PUT changes the ETag of the heat\'s lanes '
                                . '(old ETag answered 200 with a new ETag)');
    push @errors, 'the ETag did not change after a lane PUT' unless $ok;
}

# ---- the leaderboard's rebuild after a write -----------------------------------------
#
# REBUILDS rounds on one keep-alive connection: a lane PUT with a new score, then at
# once a GET of the overall leaderboard.  Every answer is cached per data revision, so
# that GET finds the revision moved on and builds the leaderboard (the SELECTs of the
# competition's rows, the ranking, the body) before answering: its time, from the moment the PUT's answer has
# been read to the last byte of the leaderboard, is the delay after which a write is
# on the leaderboard.  Each answer is checked to hold the new score.  The client is a
# few lines over a socket, so that its own cost (LWP would take milliseconds to read
# 1.6 MB) is not measured.

# Connect to the server; one request on that connection: (status, body, seconds to
# the first byte of the answer, seconds to the last).
sub raw_connect {
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $srv->{port},
                                  Proto => 'tcp') or die "connect: $!\n";
    setsockopt($s, IPPROTO_TCP, TCP_NODELAY, 1);
    binmode $s;
    return $s;
}
sub raw_request {
    my ($s, $method, $path, $body, $tok) = @_;   # TOK: the judge's token unless given
    my $req = "$method /api$path HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
              . ($tok // $token) . "\r\n";
    $req .= "Content-Type: application/json\r\nContent-Length: " . length($body) . "\r\n"
        if defined $body;
    $req .= "\r\n" . ($body // '');
    my $t0 = time;
    syswrite($s, $req) == length $req or die "$method $path: cannot send\n";
    my ($buf, $first, $hlen, $want) = ('');
    while (!defined $want || length $buf < $hlen + $want) {
        my $n = sysread($s, $buf, 1 << 21, length $buf);
        die "$method $path: connection closed\n" unless $n;
        $first //= time;
        if (!defined $hlen && (my $e = index($buf, "\r\n\r\n")) >= 0) {
            $hlen = $e + 4;
            ($want) = substr($buf, 0, $e) =~ /^Content-Length:\s*(\d+)/mi
                or die "$method $path: no Content-Length\n";
        }
    }
    my $last = time;
    my ($status) = $buf =~ m{^HTTP/1\.\d (\d{3})} or die "$method $path: no status\n";
    return ($status, substr($buf, $hlen, $want), $first - $t0, $last - $t0);
}
sub percentile {
    my ($p, @v) = @_;
    @v = sort { $a <=> $b } @v;
    return @v ? $v[POSIX::ceil($p * @v) - 1] : 0;
}

my %rebuild;
if ($o{rebuilds} > 0 && (!$o{only} || 'leaderboard' =~ /$o{only}/)) {
    info("leaderboard rebuild after a lane PUT, $o{rebuilds} rounds");
    # lanes spread over the 12 WODs and the 2,400 heats (7919 is prime to 24,000)
    my @k = map { ($_ * 7919 + 13) % 24000 } 1 .. $o{rebuilds};
    my %spot = map { split /\|/ } split /\n/,
        `sqlite3 '$db' "SELECT id, spot_id FROM lane WHERE id IN (@{[ join ',', map { 500001 + $_ } @k ]})"`;
    my $s = raw_connect();
    raw_request($s, 'GET', '/competition/100/leaderboard');   # a first build (warm)
    my (@total, @first, @bytes, $bad);
    for my $r (0 .. $#k) {
        my $k = $k[$r];
        my $score = lane_score(\@wods, $k, 100_000 + $r);
        my ($pst) = raw_request($s, 'PUT', lane_path($k), qq({"score":"$score"}));
        my ($st, $body, $t1, $t2) = raw_request($s, 'GET', '/competition/100/leaderboard');
        push @first, 1000 * $t1;
        push @total, 1000 * $t2;
        push @bytes, length $body;
        # the new score is the spot's result in the lane's WOD
        my $wod = $wods[int($k / 2000)][0];
        my $at = index($body, qq("spot_id":"$spot{500001 + $k}"));
        my $entry = $at < 0 ? '' : substr($body, $at, index($body, ']', $at) - $at);
        unless ($pst == 200 && $st == 200
                && $entry =~ /"wod_id":"$wod","rank":[^,]*,"points":[^,]*,"score":"\Q$score\E"/) {
            $bad++;
            push @errors, "rebuild round $r: PUT $pst, GET $st, the new score $score of lane "
                          . (500001 + $k) . ' not on the leaderboard' if $bad <= 3;
        }
    }
    close $s;
    %rebuild = (rounds => scalar @total, errors => $bad // 0, bytes => $bytes[-1],
                median_ms => percentile(0.5, @total), p99_ms => percentile(0.99, @total),
                max_ms => percentile(1, @total), first_byte_median_ms => percentile(0.5, @first),
                first_byte_p99_ms => percentile(0.99, @first), times_ms => \@total);
    target('leaderboard-rebuild', !$rebuild{errors} && $rebuild{median_ms} <= 20
                                  && $rebuild{p99_ms} <= 50,
           sprintf('a lane PUT is on the overall leaderboard (%d bytes) %.1f ms after its '
                   . 'answer (median of %d rounds; at most 20), p99 %.1f ms (at most 50)',
                   $rebuild{bytes}, $rebuild{median_ms}, $rebuild{rounds}, $rebuild{p99_ms}));
}

# ---- publication: the two views of a validated competition (issue 29) ---------------
#
# The bench competition has `publication: validated` (set above).  Four read rows with
# the same wrk parameters as the others, each against its static file of the same bytes
# (target 1.0x): the overall leaderboard and heat 400001's lanes as a reader (the demo
# reader's token: the published view) and as an editor (the judge's: the full view).
# Then the validation's delay: ROUNDS rounds on one keep-alive connection of a judge's
# lane PUT (the reader's leaderboard, read then, must not show it yet), a validation of
# that lane, then at once a reader's GET of the overall leaderboard, timed from the
# validation's answer to its last byte, which must hold the new score (target: median
# at most 20 ms, as the rebuild after a write).  Validation needs an editor today, an
# organizer soon: the judge first, the demo organizer from the first 403 on.
my %pubval;
my $pub_views_checked = 0;
if (wanted('publication')) {
    my $reader = $srv->login('demo', 'demo') or die "cannot log in as the demo reader\n";
    my %body;
    for my $v (['leaderboard', '/competition/100/leaderboard'],
               ['lanes', '/competition/100/zone/300001/heat/400001/voie/']) {
        my ($what, $path) = @$v;
        for my $view (['published', $reader], ['full', $token]) {
            my ($vname, $tok) = @$view;
            my $name = "publication-$what-$vname";
            my $res = $ua->get("$base/api$path", Authorization => "Bearer $tok");
            $res->code == 200 or die "GET $path as $vname: " . $res->status_line . "\n";
            my $b = $body{"$what-$vname"} = $res->content;
            open my $fh, '>:raw', "$dir/static/$name.json" or die;
            print $fh $b;
            close $fh;
            my $st = get("$base/static/$name.json");
            $st->code == 200 && $st->content eq $b or die "static copy of $path ($vname) differs\n";
            info(sprintf "%-34s %8d bytes: module vs static file", $name, length $b);
            my @h = ("Authorization: Bearer $tok");
            read_row(paired(
                sub { wrk(url => "$base/api$path", headers => \@h, $_[0] ? (duration => 1) : ()) },
                sub { wrk(url => "$base/static/$name.json", headers => \@h,
                          $_[0] ? (duration => 1) : ()) }),
                route => "GET $path ($vname view)", name => $name, kind => 'read',
                bytes => length $b, view => $vname);
        }
        # lane 7 of every heat is entered, not validated: the views must differ
        $pub_views_checked++;
        push @errors, "publication: the published and full views of $path are the same bytes"
            if $body{"$what-published"} eq $body{"$what-full"};
    }

    my $rounds = $o{smoke} ? 5 : 50;
    info("publication: a validation, then a reader's overall leaderboard, $rounds rounds");
    # lanes spread over the WODs and heats, none of the rebuild's (4001 is prime to 24,000)
    my @k = grep { int($_ / 10) < 2308 } map { ($_ * 4001 + 29) % 24000 } 1 .. 2 * $rounds;
    splice @k, $rounds;
    my %spot = map { split /\|/ } split /\n/,
        `sqlite3 '$db' "SELECT id, spot_id FROM lane WHERE id IN (@{[ join ',', map { 500001 + $_ } @k ]})"`;
    my $vtok = $token;
    my $validator = 'judge';
    my $s = raw_connect();
    my $lb = '/competition/100/leaderboard';
    raw_request($s, 'GET', $lb, undef, $reader);   # a first build (warm)
    my (@total, @first, @vtime, $bad);
    my $entry_of = sub {
        my ($body, $k) = @_;
        my $at = index($body, qq("spot_id":"$spot{500001 + $k}"));
        return $at < 0 ? '' : substr($body, $at, index($body, ']', $at) - $at);
    };
    for my $r (0 .. $#k) {
        my $k = $k[$r];
        my $score = lane_score(\@wods, $k, 200_000 + $r);
        my $wod = $wods[int($k / 2000)][0];
        my $shows = qr/"wod_id":"$wod","rank":[^,]*,"points":[^,]*,"score":"\Q$score\E"/;
        my ($pst) = raw_request($s, 'PUT', lane_path($k), qq({"score":"$score"}));
        my ($bst, $before) = raw_request($s, 'GET', $lb, undef, $reader);
        my ($vst, undef, undef, $vt) = raw_request($s, 'POST', lane_path($k) . '/validate', '{}', $vtok);
        if ($vst == 403 && $validator eq 'judge') {
            $vtok = $srv->login('organizer', 'organizer')
                or die "validation: 403 for the judge, and no organizer login\n";
            $validator = 'organizer';
            info('publication: validation is 403 for the judge, the organizer validates');
            ($vst, undef, undef, $vt) = raw_request($s, 'POST', lane_path($k) . '/validate', '{}', $vtok);
        }
        my ($st, $body, $t1, $t2) = raw_request($s, 'GET', $lb, undef, $reader);
        push @vtime, 1000 * $vt;
        push @first, 1000 * $t1;
        push @total, 1000 * $t2;
        unless ($pst == 200 && $bst == 200 && $vst == 200 && $st == 200
                && $entry_of->($before, $k) !~ $shows && $entry_of->($body, $k) =~ $shows) {
            $bad++;
            push @errors, "publication round $r: PUT $pst, GET $bst, validate $vst, GET $st: the "
                          . 'reader\'s leaderboard ' . ($entry_of->($before, $k) =~ $shows
                                                       ? 'showed the score before its validation'
                                                       : 'does not show the validated score')
                          . " $score of lane " . (500001 + $k) if $bad <= 3;
        }
    }
    close $s;
    %pubval = (rounds => scalar @total, errors => $bad // 0, validator => $validator,
               bytes => length($body{'leaderboard-published'}),
               median_ms => percentile(0.5, @total), p99_ms => percentile(0.99, @total),
               max_ms => percentile(1, @total), first_byte_median_ms => percentile(0.5, @first),
               validate_median_ms => percentile(0.5, @vtime), times_ms => \@total);
    target('publication-validate', !$pubval{errors} && $pubval{median_ms} <= 20,
           sprintf('a validation (%s) is on a reader\'s overall leaderboard %.1f ms after its '
                   . 'answer (median of %d rounds; at most 20), p99 %.1f ms; the validation '
                   . 'itself %.1f ms', $validator, $pubval{median_ms}, $pubval{rounds},
                   $pubval{p99_ms}, $pubval{validate_median_ms}));
}

# ---- lane PUT against SQLite's own commit rate ---------------------------------------

if (wanted('lane-put')) {
    my $raw = "$dir/db/raw.db";
    make_db($raw);
    my $raw_n = $o{smoke} ? 200 : 3000;
    my $raw_sql = "$dir/db/raw.sql";
    {
        open my $fh, '>', $raw_sql or die;
        print $fh "PRAGMA journal_mode = WAL;\nPRAGMA synchronous = FULL;\nPRAGMA foreign_keys = ON;\n";
        printf $fh "UPDATE lane SET score = '%d' WHERE id = %d;\n", $_, 500001 + ($_ * 7919) % 24000
            for 1 .. $raw_n;
        close $fh;
    }
    my $sqlite_commits = sub {
        my $t0 = time;
        system("sqlite3 '$raw' < '$raw_sql' >/dev/null") == 0 or die "sqlite3 $raw\n";
        return { rps => $raw_n / (time - $t0), bad => 0 };
    };
    # the CPU time httpd's processes spent (user and system, clock ticks of
    # /proc/PID/stat, every thread) per PUT of each measured run: what one core can
    # carry, whatever the disk does
    my $tck = `getconf CLK_TCK` + 0 || 100;
    my $cpu_ticks = sub {
        my ($u, $k) = (0, 0);
        for my $pid ($srv->pid, split ' ', `ps --ppid @{[ $srv->pid ]} -o pid=`) {
            open my $fh, '<', "/proc/$pid/stat" or next;
            my @f = split ' ', (<$fh> =~ s/^.*\)\s*//r);
            $u += $f[11];   # utime, stime: fields 14 and 15 of stat(5)
            $k += $f[12];
        }
        return ($u, $k);
    };
    my @put_cpu;
    info('lane PUT, 16 clients, vs sqlite3 committing single-row updates');
    compared_row(alternate(
        sub {
            my @c0 = $cpu_ticks->();
            my $w = wrk(url => "$base/api", headers => [$auth], script => "$ROOT/bench/put.lua",
                        connections => 16, $_[0] ? (duration => 1) : ());
            my @c1 = $cpu_ticks->();
            push @put_cpu, [map { 1e6 * ($c1[$_] - $c0[$_]) / $tck / ($w->{requests} || 1) } 0, 1]
                unless $_[0];
            return $w;
        },
        sub { $sqlite_commits->() }),
        route => 'PUT …/voie/{v} (16 clients)', name => 'lane-put', kind => 'write', bytes => 0,
        baseline => 'sqlite3 single-row commits/s, WAL, synchronous=FULL');
    if (@put_cpu) {
        my @by = sort { $a->[0] + $a->[1] <=> $b->[0] + $b->[1] } @put_cpu;
        my $mid = $by[$#by / 2];
        $rows[-1]{cpu_us_per_put} = { user => sprintf('%.1f', $mid->[0]) + 0,
                                      system => sprintf('%.1f', $mid->[1]) + 0,
                                      runs => [map { [map { sprintf('%.1f', $_) + 0 } @$_] } @put_cpu] };
    }
}

# ---- /connect against one bcrypt check -----------------------------------------------

if (wanted('connect')) {
    my $bcost = "$build/bench-run/bcrypt-cost";
    system('sh', '-c', "cc -O2 -o '$bcost' '$ROOT/bench/bcrypt-cost.c' "
           . '$(apr-1-config --cflags --cppflags --includes) $(apu-1-config --includes) '
           . '$(apu-1-config --link-ld --libs) $(apr-1-config --link-ld --libs)') == 0
        or die "cannot build bench/bcrypt-cost.c\n";
    my ($hash) = `sqlite3 '$db' "SELECT password_hash FROM account WHERE name = 'judge'"`;
    chomp $hash;
    my ($bcrypt_us) = split ' ', `'$bcost' judge '$hash' @{[ $o{smoke} ? 3 : 20 ]}`;
    die "bcrypt-cost failed\n" unless $bcrypt_us;
    info('POST /connect, 1 and 2 clients');
    my $c1 = wrk(url => "$base/api", script => "$ROOT/bench/connect.lua", threads => 1,
                 connections => 1, duration => 3);   # smoke too: a 1 s run on a busy machine finished no login
    my $c2 = wrk(url => "$base/api", script => "$ROOT/bench/connect.lua", threads => 2,
                 connections => 2, duration => 3);
    my $per_login_ms = $c1->{rps} ? 1000 / $c1->{rps} : 0;
    push @rows, { route => 'POST /connect (2 clients)', name => 'connect', kind => 'login',
                  bytes => 0, module_rps => $c2->{rps}, static_rps => 1e6 / $bcrypt_us,
                  baseline => 'bcrypt checks/s on one core (bench/bcrypt-cost.c)',
                  ratio => $c2->{rps} * $bcrypt_us / 1e6, p50_ms => $c2->{p50}, p99_ms => $c2->{p99},
                  static_p99_ms => undef, errors => $c1->{bad} + $c2->{bad},
                  one_client_ms => $per_login_ms, bcrypt_ms => $bcrypt_us / 1000 };
    target('connect-one-bcrypt', $per_login_ms < 1.5 * $bcrypt_us / 1000,
           sprintf('a login with 1 client takes %.1f ms, one bcrypt check %.1f ms (< 1.5x)',
                   $per_login_ms, $bcrypt_us / 1000));
}

# ---- the token check's share of a request (callgrind) --------------------------------

my %token_share;
if ($o{callgrind} && wanted('callgrind') && `sh -c 'command -v valgrind'`) {
    info('token check share of a request, under callgrind (slow)');
    my $port = RkServer::free_port();
    my $conf = "$dir/callgrind.conf";
    open my $in, '<', $srv->{conf} or die;
    open my $out, '>', $conf or die;
    while (<$in>) {
        s/^Listen .*/Listen 127.0.0.1:$port/;
        s/^PidFile .*/PidFile "$dir\/callgrind.pid"/;
        s/^ErrorLog .*/ErrorLog "$dir\/logs\/callgrind_error_log"/;
        print $out $_;
    }
    close $out;
    my $cg = "$dir/logs/callgrind.out";
    my $pid = fork // die;
    if (!$pid) {
        open STDOUT, '>', "$dir/callgrind.log";
        open STDERR, '>&', \*STDOUT;
        # instructions counted inside connection processing only (reading, handling
        # and writing each request), not in the listener or at start-up
        # as the server's user from the start: httpd -X would drop root's rights
        # before callgrind writes its profile
        exec 'runuser', '-u', 'www-data', '--', 'valgrind', '--tool=callgrind', '--collect-atstart=no',
             '--toggle-collect=ap_run_process_connection',
             "--callgrind-out-file=$cg", 'apache2', '-X', '-f', $conf;
    }
    my $url = "http://127.0.0.1:$port/api/competition/100/wod/";
    my $up = 0;
    for (1 .. 600) {
        my $r = $ua->get($url, Authorization => "Bearer $token");
        if ($r->code == 200) { $up = 1; last; }
        sleep 0.1;
    }
    system("ab -q -k -n 2000 -H '$auth' '$url' >'$dir/callgrind-ab.txt' 2>&1") if $up;
    kill 'TERM', $pid;   # httpd -X stops; callgrind writes its profile
    waitpid $pid, 0;
    my ($dump) = sort glob("$cg*");
    if ($up && $dump) {
        my $ann = `callgrind_annotate --inclusive=yes --threshold=100 '$dump' 2>/dev/null`;
        # inclusive instructions of a function: the largest of its lines
        my $incl = sub {
            my $name = shift;
            my $max;
            while ($ann =~ /^\s*([\d,]+)\s+\([^)]*\)\s+\S*?[:?]\Q$name\E(?:\s|$)/mg) {
                (my $v = $1) =~ tr/,//d;
                $max = $v if !defined $max || $v > $max;
            }
            return $max;
        };
        my ($total) = $ann =~ /^\s*([\d,]+)\s+\([^)]*\)\s+PROGRAM TOTALS/m;
        $total =~ tr/,//d if defined $total;
        # the token check: parsing the header, then the cache (the database on a miss);
        # opening the connection and reading the revision serve the handler as well
        my ($parse, $lookup) = map { $incl->($_) } 'rk_bearer_parse', 'token_lookup';
        if ($total && defined $parse && defined $lookup) {
            %token_share = (instructions_total => $total + 0, requests => 2000,
                            instructions_bearer_parse => $parse + 0,
                            instructions_token_lookup => $lookup + 0,
                            instructions_db_open => $incl->('rk_db_open'),
                            instructions_handler => $incl->('rk_handler'),
                            share => ($parse + $lookup) / $total);
            target('token-check', $token_share{share} < 0.05,
                   sprintf('the token check is %.2f%% of the instructions of a request '
                           . '(GET wods, 2,000 requests on one keep-alive connection, callgrind)',
                           100 * $token_share{share}));
        } else {
            push @errors, 'callgrind: no rk_bearer_parse or token_lookup in the profile';
        }
    } else {
        push @errors, 'callgrind: httpd under valgrind did not answer';
    }
}

# ---- the floor: httpd's own cost per request, and ours above it (callgrind) -----------
#
# Instructions per request (callgrind: robust on a shared machine, where rates are
# not) of httpd -X in the bench's configuration under callgrind, requests on one
# keep-alive connection (ab -k): per case, the difference between a run of FLOOR_BASE
# requests and one of FLOOR_BASE + FLOOR_N, divided by FLOOR_N (start-up, warm-up and
# the first answer's building cancel out).  The WOD list (2 KB) served
#   - static: as a static file (core's handler, the same Authorization header),
#   - floor: by bench/mod_floor.c, a handler that answers the same bytes from memory
#     (what httpd costs per request with any handler: the floor),
#   - token: by the module with the judge's token (the bench's read rows),
#   - public: by the module to an anonymous GET of the public mount /pub,
#   - public-304: the same with If-None-Match: its ETag.
# Each case's total per request, and the inclusive share of httpd's phases, filters,
# logging and our hooks (doc/performance.md, "The floor").
my %floor;
my @floor_funcs = (
    # httpd's phases
    'ap_read_request', 'ap_run_post_read_request', 'ap_run_quick_handler',
    'ap_process_request_internal', 'ap_run_translate_name', 'ap_run_map_to_storage',
    'ap_location_walk', 'ap_directory_walk', 'ap_file_walk', 'ap_run_header_parser',
    'ap_run_access_checker', 'ap_run_access_checker_ex', 'ap_run_check_user_id',
    'ap_run_auth_checker', 'ap_run_type_checker', 'ap_run_fixups', 'ap_run_insert_filter',
    'ap_invoke_handler', 'ap_run_handler', 'ap_process_request_after_handler',
    'ap_run_log_transaction', 'ap_update_child_status', 'apr_pool_destroy',
    # filters
    'ap_pass_brigade', 'ap_http_header_filter', 'ap_content_length_filter',
    'ap_byterange_filter', 'ap_http_outerror_filter', 'ap_core_output_filter',
    'ap_finalize_request_protocol',
    # ours
    'rkm_quick', 'rkm_translate', 'rkm_map_to_storage', 'rkm_access', 'rkm_handler',
    'rkm_request', 'rkm_common_headers', 'rkm_authenticate', 'rk_bearer_parse',
    'token_lookup', 'rkm_read', 'rkm_request_revision', 'rkm_answer_acquire',
    'rkm_send_value', 'rkm_view_of', 'rkm_role_on', 'floor_handler', 'floor_quick');
my $FLOOR_N = $o{smoke} ? 200 : 2000;
my $FLOOR_BASE = 100;
# In a full run (with callgrind), or when --only names it (also in --smoke mode).
if (($o{callgrind} || ($o{only} && 'floor' =~ /$o{only}/)) && wanted('floor')
    && `sh -c 'command -v valgrind && command -v apxs && command -v ab'`) {
    info('the floor: instructions per request under callgrind (slow)');
    my $fd = $floor_dir;   # mod_floor.so: built and loaded with the server
    my $wods = '/competition/100/wod/';
    my $res = get("$base/api$wods");
    $res->code == 200 or die "GET $wods: " . $res->status_line . "\n";
    my $body = $res->content;
    for my $f ("$fd/wods.json", "$dir/static/floor-wods.json") {
        open my $fh, '>:raw', $f or die "$f: $!";
        print $fh $body;
        close $fh;
    }
    my $pub = $ua->get("$base/pub$wods");
    $pub->code == 200 && $pub->content eq $body or die "GET /pub$wods: not the same answer\n";
    my $petag = $pub->header('ETag');
    # the floors answer the module's headers too: the token's answer's for the handler,
    # the public answer's for the quick handler
    floor_headers("$fd/wods.json", $res);
    copy("$fd/wods.json", "$fd/pub-wods.json") or die "copy: $!\n";
    floor_headers("$fd/pub-wods.json", $pub);
    my $port = RkServer::free_port();
    my $conf = "$fd/callgrind.conf";
    open my $in, '<', $srv->{conf} or die;
    open my $out, '>', $conf or die;
    while (<$in>) {
        s/^Listen .*/Listen 127.0.0.1:$port/;
        s/^PidFile .*/PidFile "$fd\/httpd.pid"/;
        s/^ErrorLog .*/ErrorLog "$fd\/error_log"/;
        print $out $_;
    }
    # RankingRevisionCheck: one read of the revision per 60 s, not per second: under
    # callgrind a second of the bench's runs (tens of thousands of requests) is a few
    # hundred requests, and each would pay a share of a database read it does not pay
    print $out <<"CONF";
RankingRevisionCheck 60000
<Location /floor/wods>
    SetHandler floor
    Require all granted
    FloorBody "$fd/wods.json"
</Location>
FloorQuick /floorq/floor-wods "$fd/pub-wods.json"
CONF
    close $out;
    system('chown', '-R', 'www-data:', $fd) == 0 or die "chown $fd\n";
    my $hb = "http://127.0.0.1:$port";
    my @cases = (
        [static => "$hb/static/floor-wods.json", $auth],
        [floor => "$hb/floor/wods", $auth],
        ['floor-quick' => "$hb/floorq/floor-wods"],
        [token => "$hb/api$wods", $auth],
        [public => "$hb/pub$wods"],
        ['public-304' => "$hb/pub$wods", "If-None-Match: $petag"],
    );
    # One httpd -X under callgrind, counting inside connection processing only: a
    # warm-up request of the case, then N on one keep-alive connection (ab -k); the
    # inclusive instructions of the program and of each function of @floor_funcs.
    # No request before the warm-up: the listener is open once the pid file is.
    my $profile = sub {
        my ($name, $n, $url, @h) = @_;
        my $cg = "$fd/callgrind-$name-$n.out";
        unlink $cg, "$fd/httpd.pid";
        my $pid = fork // die;
        if (!$pid) {
            open STDOUT, '>', "$fd/callgrind-$name-$n.log";
            open STDERR, '>&', \*STDOUT;
            exec 'runuser', '-u', 'www-data', '--', 'valgrind', '--tool=callgrind',
                 '--collect-atstart=no', '--toggle-collect=ap_run_process_connection',
                 "--callgrind-out-file=$cg", 'apache2', '-X', '-f', $conf;
        }
        for (1 .. 600) { last if -s "$fd/httpd.pid"; sleep 0.1; }
        sleep 0.5;
        my $hs = join ' ', map { "-H '$_'" } @h;
        # the warm-up: the same bytes in every case (the 304: none)
        my $w = LWP::UserAgent->new(keep_alive => 0, timeout => 120)
                ->get($url, map { split /: /, $_, 2 } @h);
        my $want = $name =~ /304/ ? 304 : 200;
        unless ($w->code == $want && ($want == 304 || $w->content eq $body)) {
            push @errors, "floor: $name: " . $w->status_line . ', not the WOD list';
            kill 'TERM', $pid;
            waitpid $pid, 0;
            return;
        }
        system("ab -q -k -n $n $hs '$url' >'$fd/ab-$name-$n.txt' 2>&1");
        my ($failed) = do { local (@ARGV, $/) = ("$fd/ab-$name-$n.txt"); <> } =~ /Failed requests:\s+(\d+)/;
        push @errors, "floor: $name: " . ($failed // 'no') . " failed requests under ab" if $failed || !defined $failed;
        kill 'TERM', $pid;   # httpd -X stops; callgrind writes its profile
        waitpid $pid, 0;
        -s $cg or return;
        my $ann = `callgrind_annotate --inclusive=yes --threshold=100 '$cg' 2>/dev/null`;
        my ($total) = $ann =~ /^\s*([\d,]+)\s+\([^)]*\)\s+PROGRAM TOTALS/m;
        defined $total or return;
        $total =~ tr/,//d;
        my %f;
        for my $fn (@floor_funcs) {
            my $max;
            while ($ann =~ /^\s*([\d,]+)\s+\([^)]*\)\s+\S*?[:?]\Q$fn\E(?:\s|$)/mg) {
                (my $v = $1) =~ tr/,//d;
                $max = $v if !defined $max || $v > $max;
            }
            $f{$fn} = $max // 0;
        }
        return { total => $total, functions => \%f };
    };
    for my $c (@cases) {
        my ($name, $url, @h) = @$c;
        # two runs, FLOOR_BASE and FLOOR_BASE + FLOOR_N requests: their difference is
        # FLOOR_N requests, without the start-up, the warm-up or the first request
        my ($a, $b) = map { $profile->($name, $_, $url, @h) } $FLOOR_BASE, $FLOOR_BASE + $FLOOR_N;
        next unless $a && $b;
        $floor{$name} = {
            per_request => sprintf('%.0f', ($b->{total} - $a->{total}) / $FLOOR_N) + 0,
            functions => { map { $_ => sprintf('%.0f', ($b->{functions}{$_} - $a->{functions}{$_})
                                                       / $FLOOR_N) + 0 }
                           grep { $b->{functions}{$_} } @floor_funcs } };
    }
    if (keys %floor == @cases) {
        $floor{requests} = $FLOOR_N;
        $floor{bytes} = length $body;
    } else {
        push @errors, 'floor: ' . (keys %floor) . ' of ' . @cases . ' cases profiled (see '
                      . "$fd/callgrind-*.log)";
    }
}

# ---- where the CPU goes under load: perf's samples by library ------------------------
#
# callgrind (above) counts user-space instructions of one process on one connection.
# Under wrk's 32 connections most of a request's time is the kernel's (loopback TCP,
# epoll, the MPM's threads handing connections over), and the kernel's share moves
# from run to run with how requests batch, so the rate rows' module/floor ratios move
# by several hundredths between runs of the same code.  Here `perf record -e
# cpu-clock` (a software clock: no hardware counters, which virtual machines often
# lack) samples the httpd children while wrk asks the WOD list with a token, from the
# module (/api) and from the floor's handler (/floor/wods, the same bytes and headers),
# ROUNDS runs of each, alternated.  Each library's samples are turned into CPU time
# per request (samples / rate / requests): how much of a request is the kernel's,
# httpd's, APR's, libc's and the module's own code, and by how much the module's
# request costs more than the floor's outside the kernel (what the module changes).
# Reported, not a target.
my %cpu;
my $perf = `sh -c 'command -v perf'`;
chomp $perf;
# (the WOD list's row writes the floor's file: with --only, name both: '^(wods|cpu)$')
if (wanted('cpu') && (grep { $_->[0] eq 'wods' } @routes) && !$o{smoke}) {
    if (!$perf) {
        push @errors, 'cpu: perf is not installed (apt-get install linux-perf; ./scripts/bench does)';
    }
    else {
        info('where the CPU goes: perf samples of the children, the WOD list from the module and the floor');
        my $F = 999;   # samples a second
        my @pids = split ' ', `ps --ppid @{[ $srv->pid ]} -o pid=`;
        my %case = (module => "$base/api/competition/100/wod/", floor => "$base/floor/wods");
        my (%samples, %requests);
        for my $round (1 .. $o{rounds}) {
            for my $c ($round % 2 ? qw(module floor) : qw(floor module)) {
                my $data = "$dir/perf-$c-$round.data";
                my $pid = fork // die "fork: $!";
                if (!$pid) {
                    open STDOUT, '>', '/dev/null';
                    open STDERR, '>', "$dir/perf-$c-$round.log";
                    exec $perf, 'record', '-q', '-e', 'cpu-clock', '-F', $F, '-p', join(',', @pids),
                         '-o', $data, '--', 'sleep', $o{duration} + 1;
                    exit 127;
                }
                select undef, undef, undef, 0.3;   # perf attached before wrk starts
                my $w = wrk(url => $case{$c}, headers => [$auth]);
                waitpid $pid, 0;
                if ($? != 0 || $w->{bad}) {
                    push @errors, "cpu: $c, round $round: perf record failed ($dir/perf-$c-$round.log)"
                                  . ($w->{bad} ? " or $w->{bad} bad answers" : '');
                    next;
                }
                $requests{$c} += $w->{requests};
                for (`'$perf' report -i '$data' --no-children --sort dso -n -q -g none 2>/dev/null`) {
                    $samples{$c}{$2} += $1 if /^\s*[\d.]+%\s+(\d+)\s+(\S+)/;
                }
                unlink $data;
            }
        }
        if ($requests{module} && $requests{floor}) {
            # CPU time per request in microseconds, by library
            my $us = sub { my ($c, $n) = @_; 1e6 * $n / $F / $requests{$c} };
            for my $c (qw(module floor)) {
                my %by = map { $_ => sprintf('%.3f', $us->($c, $samples{$c}{$_})) + 0 } keys %{ $samples{$c} };
                my $total = 0;
                $total += $_ for values %by;
                my $kernel = $by{'[kernel.kallsyms]'} // 0;
                $cpu{$c} = { us_per_request => sprintf('%.2f', $total) + 0,
                             kernel_us => $kernel, user_us => sprintf('%.2f', $total - $kernel) + 0,
                             by_library => \%by, requests => $requests{$c} };
            }
            $cpu{module_own_share} = sprintf('%.4f', ($cpu{module}{by_library}{'mod_ranking.so'} // 0)
                                                     / $cpu{module}{us_per_request}) + 0;
            $cpu{user_over_floor_us} = sprintf('%.2f', $cpu{module}{user_us} - $cpu{floor}{user_us}) + 0;
            # what the module's request costs over the floor's outside the kernel, as a
            # share of the floor's whole request: the rate the module loses to the floor
            # when the kernel's part is the same
            $cpu{user_over_floor_share} = sprintf('%.4f', $cpu{user_over_floor_us}
                                                          / $cpu{floor}{us_per_request}) + 0;
            $cpu{samples_per_second} = $F;
        }
        else {
            push @errors, 'cpu: no run of both cases';
        }
    }
}

# ---- memory over REQUESTS requests ---------------------------------------------------

sub children {
    my $ppid = $srv->pid;
    my %m;
    for my $pid (split ' ', `ps --ppid $ppid -o pid=`) {
        open my $fh, '<', "/proc/$pid/status" or next;
        while (<$fh>) {
            $m{$pid}{rss_kib} = $1 if /^VmRSS:\s+(\d+)/;
            $m{$pid}{hwm_kib} = $1 if /^VmHWM:\s+(\d+)/;
        }
    }
    return \%m;
}
# every read route (both leaderboards among them) and one division's leaderboard
$ENV{BENCH_PATHS} = join ' ', (map { $_->[1] } @all_routes),
    '/competition/100/leaderboard?division=Masters%2035%2B';
my @samples;   # [requests so far, the largest peak RSS of a child in KiB]
# A process of its own samples the children's RSS twice a second during the measured
# run (into $dir/rss-samples.txt; with --memory-log also the peaks and smaps copies)
my ($mlog, $sampler);
my $rss_file = "$dir/rss-samples.txt";
sub smaps_copy {
    my ($pid, $tag) = @_;
    copy("/proc/$pid/smaps", sprintf('%s/%s-%d.smaps', $o{'memory-log'}, $tag, $pid));
}
sub mlog {
    return unless $mlog;
    printf $mlog "%.1f %s\n", time, join ' ', @_;
    $mlog->flush;
}
if ($o{'memory-log'}) {
    make_path($o{'memory-log'});
    open $mlog, '>', "$o{'memory-log'}/samples.txt" or die "$o{'memory-log'}: $!\n";
}
sub start_sampler {
    $sampler = fork // die "fork: $!\n";
    if (!$sampler) {
        $SIG{TERM} = sub { POSIX::_exit(0) };   # not exit: END would stop the server
        open my $rf, '>', $rss_file or POSIX::_exit(1);
        my %shot;   # pid => peak RSS at its last smaps copy
        while (1) {
            my $c = children();
            for my $pid (sort keys %$c) {
                printf $rf "%.2f %d %d\n", time, $pid, $c->{$pid}{rss_kib};
                $rf->flush;
                next unless $mlog;
                mlog('child', $pid, 'rss', $c->{$pid}{rss_kib}, 'hwm', $c->{$pid}{hwm_kib});
                if ($c->{$pid}{hwm_kib} >= ($shot{$pid} // 0) + 256) {
                    smaps_copy($pid, sprintf('%.1f-hwm%d', time, $c->{$pid}{hwm_kib}));
                    $shot{$pid} = $c->{$pid}{hwm_kib};
                }
            }
            sleep 0.5;
        }
    }
}
sub mix {
    my ($want, $sample) = @_;
    my ($done, $bad) = (0, 0);
    while ($done < $want) {
        my $r = wrk(url => "$base/api", headers => [$auth], script => "$ROOT/bench/mix.lua",
                    duration => $o{smoke} ? 1 : 10);
        $done += $r->{requests};
        $bad += $r->{bad};
        if ($sample) {
            my $c = children();
            push @samples, [$done, (sort { $b <=> $a } map { $_->{hwm_kib} } values %$c)[0]];
            mlog('done', $done);
            smaps_copy($_, sprintf('%.1f-done%d', time, $done)) for $mlog ? keys %$c : ();
        }
    }
    return ($done, $bad);
}
my (%memory, $grow_max, $hwm_before, $hwm_after, $done);
if (wanted('memory')) {
    # the warm-up lets every thread of both children build the large answers a few times
    info('memory: warm-up, ' . int($o{requests} / 2) . ' requests');
    my ($warm, $wbad) = mix($o{requests} / 2);
    my $before = children();
    info("memory: $o{requests} requests (reads, 1 lane PUT in 500)");
    start_sampler();
    my $mbad;
    ($done, $mbad) = mix($o{requests}, 1);
    my $after = children();
    if ($sampler) {
        kill 'TERM', $sampler;
        waitpid $sampler, 0;
    }
    # The steady RSS of each child over the second half of the run: the median of its
    # samples in the first and in the last tenth of that half.  A leak moves it; the
    # working set of the moment (answers of the former revision still being sent, a
    # leaderboard's build) moves the peak, not the median.
    my %steady;
    {
        my %rs;
        if (open my $rf, '<', $rss_file) {
            while (<$rf>) {
                my ($t, $pid, $kib) = split;
                push @{ $rs{$pid} }, [$t, $kib] if defined $kib && $before->{$pid};
            }
        }
        my $median = sub { my @v = sort { $a <=> $b } @_; @v ? $v[$#v / 2] : 0 };
        for my $pid (keys %rs) {
            my @v = @{ $rs{$pid} };
            my @half = @v[int(@v / 2) .. $#v];
            my $k = int(@half / 10) || 1;
            next if @half < 2 * $k;
            my $from = $median->(map { $_->[1] } @half[0 .. $k - 1]);
            my $to = $median->(map { $_->[1] } @half[$#half - $k + 1 .. $#half]);
            $steady{$pid} = { from_kib => $from, to_kib => $to, growth_kib => $to - $from,
                              samples => scalar @v };
        }
    }
    ($grow_max, $hwm_before, $hwm_after) = (0, 0, 0);
    for my $pid (keys %$before) {
        next unless $after->{$pid};
        my $g = $after->{$pid}{hwm_kib} - $before->{$pid}{hwm_kib};
        $grow_max = $g if $g > $grow_max;
        $hwm_before = $before->{$pid}{hwm_kib} if $before->{$pid}{hwm_kib} > $hwm_before;
        $hwm_after = $after->{$pid}{hwm_kib} if $after->{$pid}{hwm_kib} > $hwm_after;
    }
    my $same = grep { $after->{$_} } keys %$before;
    %memory = (requests => $done, warmup_requests => $warm, errors => $mbad + $wbad,
                  children_before => $before, children_after => $after,
                  same_children => $same, peak_rss_before_kib => $hwm_before,
                  peak_rss_after_kib => $hwm_after, max_growth_kib => $grow_max,
                  samples => \@samples, steady_rss => \%steady);
    push @errors, 'the httpd children changed during the memory run' unless $same == 2;
    push @errors, "$memory{errors} failed requests in the memory run" if $memory{errors};
    # A leak grows with the requests; an allocator settling into its working set does not.
    # Judged on the second half of the run (500,000 requests or more): the steady RSS of
    # each child (above) grows by at most 512 KiB (half a byte per request), and the
    # largest peak RSS of a child by at most 2 MiB (a peak is the largest working set met
    # so far: it may rise now and then when answers in flight and a build coincide, but
    # never by a leak's slope).  Both figures are printed.
    my ($mid) = grep { $_->[0] >= $done / 2 } @samples;
    my $late = $mid ? $samples[-1][1] - $mid->[1] : undef;
    $memory{second_half} = $mid ? { from_requests => $mid->[0], to_requests => $samples[-1][0],
                                    growth_kib => $late } : undef;
    my ($steady_max) = sort { $b <=> $a } map { $_->{growth_kib} } values %steady;
    my $steady_text = join ', ', map { sprintf '%d -> %d KiB', $steady{$_}{from_kib}, $steady{$_}{to_kib} }
                                 sort keys %steady;
    target('memory', $same == 2 && defined $late && $late <= 2048 && defined $steady_max
                     && keys %steady == 2 && $steady_max <= 512,
           sprintf('over the second half (%dk to %dk requests): steady RSS of each child (median '
                   . 'of its samples, first and last tenth) %s, largest growth %+d KiB (at most '
                   . '512); peak RSS of a child %d KiB after the warm-up, %d KiB at the end, %+d KiB '
                   . 'over the second half (at most 2048)',
                   ($mid ? $mid->[0] : 0) / 1000, ($samples[-1] ? $samples[-1][0] : 0) / 1000,
                   $steady_text || 'no samples', $steady_max // 0, $hwm_before, $hwm_after, $late // 0));
}

# ---- PostgreSQL against SQLite: the demo's reads -------------------------------------
#
# The same read routes of the demo data (sql/demo.sql) on a server of the same shape
# (2 children x 64 threads) over a throwaway PostgreSQL on loopback (t/pg/pg-server.sh,
# pinned with httpd), each against the same bytes served by that server as a static
# file; and the same routes on the SQLite server above.  Target: PostgreSQL reads at
# least 0.9x the static file (RankingRevisionCheck at its default: a read whose answer
# and token are cached does not ask the database).

my @backend_routes = (
    ['demo-competitions' => '/competition/'],
    ['demo-competition'  => '/competition/4'],
    ['demo-spots'        => '/competition/4/spot/'],
    ['demo-heats'        => '/competition/4/zone/41/heat/'],
    ['demo-leaderboard'  => '/competition/4/leaderboard'],
);
my %pg;
if ((!$o{only} || 'postgresql' =~ /$o{only}/) && -x "$ROOT/t/pg/pg-server.sh"
    && `sh -c 'ls -d /usr/lib/postgresql/*/bin 2>/dev/null'`) {
    my $pgdir = "$dir/pg";
    my $pgport = RkServer::free_port();
    my $conninfo = `"$ROOT/t/pg/pg-server.sh" start "$pgdir" $pgport`;
    chomp $conninfo;
    if ($? != 0 || !$conninfo) {
        push @errors, 'PostgreSQL: cannot start a server (t/pg/pg-server.sh)';
    }
    else {
        my $ps = RkServer->new(dir => "$dir/pgsrv", so => $so, driver => 'pgsql',
                               params => $conninfo, mpm => 'event', api => "    RankingLoginLimit 0",
                               extra => "$shape\nDBDMax 64\n");
        if ($o{pin}) {
            my ($pm) = `head -1 '$pgdir/data/postmaster.pid'` =~ /(\d+)/;
            for my $pid ($ps->pid, split(' ', `ps --ppid @{[ $ps->pid ]} -o pid=`),
                         $pm ? ($pm, split(' ', `ps --ppid $pm -o pid=`)) : ()) {
                system("taskset -a -p -c $server_cpus $pid >/dev/null");
            }
        }
        my $pgbase = "http://127.0.0.1:$ps->{port}";
        my $pgtoken = $ps->login('judge', 'judge');
        make_path("$dir/pgsrv/static");
        for my $rt ($pgtoken ? @backend_routes : ()) {
            my ($name, $path) = @$rt;
            for my $b (['postgresql', $pgbase, "$dir/pgsrv/static", $pgtoken],
                       ['sqlite', $base, "$dir/static", $token]) {
                my ($backend, $url, $sdir, $tok) = @$b;
                my $res = $ua->get("$url/api$path", Authorization => "Bearer $tok");
                if ($res->code != 200) {
                    push @errors, "$backend: GET $path: " . $res->status_line;
                    next;
                }
                open my $fh, '>:raw', "$sdir/$name.json" or die;
                print $fh $res->content;
                close $fh;
                info(sprintf "%-18s %-10s %6d bytes: module vs static file", $name, $backend,
                     length $res->content);
                compared_row(alternate(
                    sub { wrk(url => "$url/api$path", headers => ["Authorization: Bearer $tok"],
                              $_[0] ? (duration => 1) : ()) },
                    sub { wrk(url => "$url/static/$name.json", headers => ["Authorization: Bearer $tok"],
                              $_[0] ? (duration => 1) : ()) }),
                    route => "GET $path ($backend)", name => "$name-$backend", kind => $backend,
                    bytes => length $res->content);
            }
        }
        # the server's connections to PostgreSQL once the reads are done (mod_dbd keeps
        # them per child: DBDKeep, DBDMax), then once the PUTs are
        my $pg_conns = sub {
            my $n = `runuser -u postgres -- psql -X -tAq -h 127.0.0.1 -p $pgport -U postgres -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'ranking'"`;
            return $n =~ /(\d+)/ ? $1 + 0 : -1;
        };
        $pg{connections_after_reads} = $pg_conns->();
        # lane PUTs (16 clients) on the demo's lanes of competition 4, both back ends
        $ENV{BENCH_LANES} = join ' ', map { s/\|/\//gr } map {
            my ($z, $h, $l) = split /\|/; "/competition/4/zone/$z/heat/$h/voie/$l" }
            split /\n/, `sqlite3 '$db' "SELECT h.zone_id, h.id, l.id FROM lane l JOIN heat h
                                       ON h.id = l.heat_id WHERE h.competition_id = 4
                                       AND h.zone_id IS NOT NULL"`;
        if ($pgtoken && $ENV{BENCH_LANES}) {
            info('lane PUT on the demo, 16 clients: PostgreSQL vs SQLite');
            compared_row(alternate(
                sub { wrk(url => "$pgbase/api", headers => ["Authorization: Bearer $pgtoken"],
                          script => "$ROOT/bench/put-demo.lua", connections => 16,
                          $_[0] ? (duration => 1) : ()) },
                sub { wrk(url => "$base/api", headers => [$auth], script => "$ROOT/bench/put-demo.lua",
                          connections => 16, $_[0] ? (duration => 1) : ()) }),
                route => 'PUT …/voie/{v} of the demo (16 clients, PostgreSQL vs SQLite)',
                name => 'lane-put-postgresql', kind => 'postgresql-write', bytes => 0,
                baseline => 'the same PUTs on the SQLite server');
        }
        # PostgreSQL's lane PUTs against its own single-row commits, as SQLite's against
        # sqlite3: pgbench (its client on wrk's CPU), the same 16 clients, each
        # transaction one UPDATE of a demo lane's score (its trigger moves the revision
        # row, as a PUT's does; each commit waits for its WAL flush), on the same
        # database, alternating with the PUTs
        my ($pgbench) = sort { $b cmp $a } glob('/usr/lib/postgresql/*/bin/pgbench');
        if ($pgtoken && $ENV{BENCH_LANES} && $pgbench) {
            my @ids = map { m{/(\d+)$} } split ' ', $ENV{BENCH_LANES};
            my $script = "$pgdir/commit.sql";
            open my $fh, '>', $script or die "$script: $!";
            printf $fh "\\set i random(1, %d)\n\\set s random(1, 999999)\n"
                     . "UPDATE lane SET score = CAST(:s AS text) WHERE id = (ARRAY[%s])[:i];\n",
                   scalar @ids, join(',', @ids);
            close $fh;
            chmod 0644, $script;
            my $pg_commits = sub {
                my $t = $_[0] ? 1 : $o{duration};
                my $out = `@wrk_prefix runuser -u postgres -- '$pgbench' -n -c 16 -j 1 -T $t -f '$script' -h 127.0.0.1 -p $pgport -U postgres ranking 2>&1`;
                my ($tps) = $out =~ /^tps = ([\d.]+)/m;
                my ($failed) = $out =~ /number of failed transactions: (\d+)/;
                return { rps => ($tps // 0) + 0, bad => defined $tps ? $failed // 0 : 1 };
            };
            info('lane PUT on the demo, 16 clients: PostgreSQL vs its own single-row commits (pgbench)');
            compared_row(alternate(
                sub { wrk(url => "$pgbase/api", headers => ["Authorization: Bearer $pgtoken"],
                          script => "$ROOT/bench/put-demo.lua", connections => 16,
                          $_[0] ? (duration => 1) : ()) },
                $pg_commits),
                route => 'PUT …/voie/{v} of the demo (16 clients) vs pgbench',
                name => 'lane-put-pgbench', kind => 'postgresql-write', bytes => 0,
                baseline => "PostgreSQL's single-row commits/s (pgbench, 16 clients)");
        }
        $pg{connections_after_puts} = $pg_conns->();
        push @errors, 'PostgreSQL: cannot log in as judge' unless $pgtoken;
        my @pgrows = grep { $_->{kind} eq 'postgresql' } @rows;
        if (@pgrows) {
            my ($worst) = sort { $a->{ratio} <=> $b->{ratio} } @pgrows;
            %pg = (%pg, rows => scalar @pgrows, worst_ratio => $worst->{ratio}, worst => $worst->{route});
            target('postgresql-reads', $worst->{ratio} >= 0.9,
                   sprintf('PostgreSQL reads of the demo: every route at least 0.9x the static '
                           . 'file (worst %s: %.3f)', $worst->{route}, $worst->{ratio}));
        }
        $ps->stop;
    }
    system("$ROOT/t/pg/pg-server.sh", 'stop', $pgdir, $pgport);
}
elsif (!$o{only} || 'postgresql' =~ /$o{only}/) {
    push @errors, 'PostgreSQL: no server installed (apt-get install postgresql libaprutil1-dbd-pgsql)';
}

# ---- event streams: 10,000 open on one server ----------------------------------------
#
# A server of its own (event MPM, 4 children of 64 threads, a high
# AsyncRequestWorkerFactor so that each child accepts thousands of parked connections)
# on the same database.  bench/sse-clients.c opens STREAMS event streams of the large
# competition (200 in --smoke mode), then one lane PUT is made: the delay from the PUT's
# answer to each stream's event (p50, p99, max; target p99 at most 1 s, every stream
# reached).  While the streams stay open: the sum of the children's RSS against the same
# sum with half of them open, per stream of the second half (at most 32 KiB; the client
# pauses at the half: SSE_PAUSE_AT), and the read rate (wrk, GET
# of the WODs, the median of ROUNDS runs) against the rate without them (the median of
# ROUNDS runs before they were opened and ROUNDS after they were closed; at least 0.8).

my %streams;
if (!$o{only} || 'streams' =~ /$o{only}/) {
    my $n = $o{streams} // ($o{smoke} ? 200 : 10_000);
    my $client = "$dir/sse-clients";
    system('cc', '-O2', '-Wall', '-Wextra', '-Werror', '-o', $client, "$ROOT/bench/sse-clients.c") == 0
        or die "cannot build bench/sse-clients.c\n";
    my $ls = RkServer->new(dir => "$dir/streams", so => $so, driver => 'sqlite3',
                           params => "file:$db?mode=rw", mpm => 'event', nofile => 20_000,
                           api => "    RankingLoginLimit 0", extra => <<"CONF");
StartServers 4
ServerLimit 4
ThreadsPerChild 64
MaxRequestWorkers 256
MinSpareThreads 1
MaxSpareThreads 256
AsyncRequestWorkerFactor 160
MaxConnectionsPerChild 0
KeepAliveTimeout 30
MaxKeepAliveRequests 0
DBDMax 64
CONF
    my $stop_ls = sub { $ls->stop if $ls; undef $ls; };
    if ($o{pin}) {
        for my $pid ($ls->pid, split ' ', `ps --ppid @{[ $ls->pid ]} -o pid=`) {
            system("taskset -a -p -c $server_cpus $pid >/dev/null") == 0 or die "taskset $pid\n";
        }
    }
    my $lbase = "http://127.0.0.1:$ls->{port}";
    my $read = sub { wrk(url => "$lbase/api/competition/100/wod/", headers => [$auth], @_) };
    my $rss = sub {
        my $sum = 0;
        for my $pid (split ' ', `ps --ppid @{[ $ls->pid ]} -o pid=`) {
            open my $fh, '<', "/proc/$pid/status" or next;
            while (<$fh>) { $sum += $1 if /^VmRSS:\s+(\d+)/; }
        }
        return $sum;
    };
    $read->(duration => 1);                           # warm-up: every child builds the answer
    # the median of ROUNDS runs while the streams are open, against the median of ROUNDS
    # runs before they were opened and ROUNDS after they were closed: one run of each
    # read 0.78 and 1.05 of the other in two runs of the same code, and the rate of the
    # machine drifted within one bench (the same reads: 101,000 req/s in two runs before
    # the streams, 77,000 in the third)
    my @before = map { $read->() } 1 .. $o{rounds};
    my $rss_before = $rss->();
    info("event streams: $n open, one lane PUT");
    my $k = 1234;
    my $body = '{"score":"' . lane_score(\@wods, $k, 777) . '"}';
    my $hold = int(($o{rounds} + 1) * $o{duration} + 60);
    require IPC::Open2;
    my ($out, $in);
    # the client pauses with half of the streams open (SSE_PAUSE_AT): the RSS then, and
    # with all of them open, give the increment of the second half
    my $half = int($n / 2);
    my $pid = do {
        local $ENV{SSE_PAUSE_AT} = $half;
        IPC::Open2::open2($out, $in, @wrk_prefix, $client, 'stream', $ls->{port}, $token,
                          '/api/competition/100/events', $n, '/api' . lane_path($k), $body, $hold);
    };
    my $paused = <$out> // '';
    my $rss_half;
    if ($paused =~ /"phase":"paused"/) {
        sleep 1;
        $rss_half = $rss->();
        $in->autoflush(1);
        print $in "go\n";
    }
    my $holding = defined $rss_half ? <$out> // '' : $paused;
    my ($with, $rss_with);
    if ($holding =~ /"phase":"holding"/ && defined $rss_half) {
        sleep 1;
        $rss_with = $rss->();
        $read->(duration => 1);                       # warm-up: the PUT moved the data
        $with = median_run(map { $read->() } 1 .. $o{rounds});
    }
    close $in;                                        # the client closes its streams
    my $line = <$out> // '';
    waitpid $pid, 0;
    my $status = $? >> 8;
    my $r = eval { decode_json($line) } // {};
    my @after;
    if ($with) {
        sleep 1;                                      # the watcher's tick: they are gone
        @after = map { $read->() } 1 .. $o{rounds};
    }
    my $before = median_run(@before, @after);
    $stop_ls->();
    if (!$with || !%$r) {
        push @errors, "event streams: the client did not hold its streams ($holding$line)";
    } else {
        # KiB per stream: the increment from N/2 to N streams (judged), and the whole
        # from none (the figure judged until the evening of 2026-11-27; shown, not
        # judged: it also holds what the first streams pay once, which depends on what
        # the reads before left resident: 30.7-36.2 KiB in four runs of the same code,
        # with the same end state)
        my $per = ($rss_with - $rss_half) / ($n - $half);
        my $per_all = ($rss_with - $rss_before) / $n;
        %streams = (%$r, streams => $n, client_exit => $status, rss_before_kib => $rss_before,
                    rss_half_kib => $rss_half, rss_with_kib => $rss_with, kib_per_stream => $per,
                    kib_per_stream_from_none => $per_all,
                    read_rps_before => $before->{rps}, read_rps_with => $with->{rps},
                    read_runs_before_open => [map { $_->{rps} } @before],
                    read_runs_after_close => [map { $_->{rps} } @after],
                    read_ratio => $before->{rps} ? $with->{rps} / $before->{rps} : 0,
                    mpm => 'event, 4 children x 64 threads, AsyncRequestWorkerFactor 160');
        push @rows, { route => "GET /competition/100/wod/ with $n streams open",
                      name => 'reads-with-streams', kind => 'streams', bytes => 0,
                      module_rps => $with->{rps}, static_rps => $before->{rps},
                      baseline => 'the same reads before the streams were opened and after they were closed',
                      ratio => $streams{read_ratio}, p50_ms => $with->{p50}, p99_ms => $with->{p99},
                      static_p99_ms => $before->{p99}, errors => $with->{bad} + $before->{bad} };
        push @errors, "event streams: $r->{failed} of $n not established, "
                      . "$r->{received} got the event (client exit $status)"
            if $status != 0;
        target('streams-delay', $r->{received} == $n && $r->{p99_ms} >= 0 && $r->{p99_ms} <= 1000,
               sprintf('%d open event streams: a lane PUT reached %d of them, %.0f ms after its '
                       . 'answer at p99 (at most 1000), p50 %.0f, max %.0f',
                       $n, $r->{received}, $r->{p99_ms}, $r->{p50_ms}, $r->{max_ms}));
        target('streams-memory', $per <= 32,
               sprintf('%d open event streams: %.1f KiB of RSS per stream from %d to %d open '
                       . '(children %d KiB -> %d KiB; at most 32); from none: %.1f KiB '
                       . '(%d KiB -> %d KiB)', $n, $per, $half, $n, $rss_half, $rss_with,
                       $per_all, $rss_before, $rss_with));
        target('streams-reads', $streams{read_ratio} >= 0.8,
               sprintf('reads while %d event streams are open: %.0f req/s vs %.0f without them '
                       . '(median of the runs before they opened and after they closed; %.3f, '
                       . 'at least 0.8)', $n, $with->{rps}, $before->{rps}, $streams{read_ratio}));
    }
}

# ---- heat generation (issue 28) ------------------------------------------------------
#
# POST /competition/100/wod/W/generate-heats for the bench competition's first WOD: 2,000
# spots in 4 divisions, 10 lanes per heat, 200 heats and 2,000 lanes in one request
# (API.md Part 3).  Each real run writes into a zone of its own, made empty for it, so
# that every run creates its heats and none replaces another's: the median of the runs
# (target 200 ms, SQLite); the dry run, the median of as many runs on another empty
# zone (target 50 ms).  Then the overall leaderboard, read after the generations (the
# competition has their lanes now), against its static copy (target 1.0x, as the other
# leaderboards).  Last of the sections, since the heats it makes stay.
my %gen;
if (wanted('generate')) {
    my $runs = $o{smoke} ? 3 : 11;
    my $wod = $wods[0][0];
    my @zones = map { 390000 + $_ } 0 .. $runs;   # the last: the dry runs'
    system("sqlite3 '$db' \"INSERT INTO zone (id, competition_id, name, lane_count) VALUES "
           . join(', ', map { "($_, 100, 'Generated $_', 10)" } @zones) . '"') == 0
        or die "cannot make the zones of the generate-heats runs\n";
    info("generate-heats: $runs runs of 200 heats, $runs dry runs");
    my $path = "/competition/100/wod/$wod/generate-heats";
    # heat generation needs an organizer on the competition (API.md part 3)
    my $org = $srv->login('organizer', 'organizer') or die "cannot log in as the organizer\n";
    my $s = raw_connect();
    my (@dry, @real, $bad);
    # 200 heats of 2,000 spots: "number" once per heat and once per lane
    my $plan_ok = sub { my ($body) = @_; my $n = () = $body =~ /"number":/g; $n == 2200 };
    for my $r (1 .. $runs) {
        my ($st, $body, undef, $t) = raw_request($s, 'POST', $path,
                                                 qq({"zone_id":"$zones[-1]","dry_run":true}), $org);
        push @dry, 1000 * $t;
        unless ($st == 200 && $plan_ok->($body)) {
            push @errors, "generate-heats dry run $r: $st, " . length($body) . ' bytes' if !$bad++;
        }
    }
    for my $r (0 .. $runs - 1) {
        my ($st, $body, undef, $t) = raw_request($s, "POST", $path, qq({"zone_id":"$zones[$r]"}), $org);
        push @real, 1000 * $t;
        unless ($st == 201 && $plan_ok->($body)) {
            push @errors, "generate-heats run $r: $st, " . length($body) . ' bytes' if !$bad++;
        }
    }
    close $s;
    my $stored = `sqlite3 '$db' "SELECT COUNT(*) FROM lane l JOIN heat h ON h.id = l.heat_id
                                 WHERE h.zone_id BETWEEN $zones[0] AND $zones[-1]"` + 0;
    push @errors, "generate-heats: $stored lanes stored, " . (2000 * $runs) . ' expected'
        unless $stored == 2000 * $runs;
    %gen = (runs => $runs, errors => $bad // 0, median_ms => percentile(0.5, @real),
            max_ms => percentile(1, @real), dry_median_ms => percentile(0.5, @dry),
            dry_max_ms => percentile(1, @dry), times_ms => \@real, dry_times_ms => \@dry);
    target('generate-heats', !$gen{errors} && $gen{median_ms} <= 200,
           sprintf('200 heats and 2,000 lanes of 2,000 spots generated in one request: '
                   . '%.1f ms (median of %d; at most 200)', $gen{median_ms}, $runs));
    target('generate-heats-dry-run', !$gen{errors} && $gen{dry_median_ms} <= 50,
           sprintf('the same plan, dry run: %.1f ms (median of %d; at most 50)',
                   $gen{dry_median_ms}, $runs));
    # the overall leaderboard afterwards, against its static copy
    my $lb = '/competition/100/leaderboard';
    my $res = get("$base/api$lb");
    $res->code == 200 or die "GET $lb after generate-heats: " . $res->status_line . "\n";
    open my $fh, '>:raw', "$dir/static/leaderboard-after-generate.json" or die;
    print $fh $res->content;
    close $fh;
    info(sprintf 'leaderboard after generate-heats, %d bytes: module vs static file',
                 length $res->content);
    read_row(paired(
        sub { wrk(url => "$base/api$lb", headers => [$auth], $_[0] ? (duration => 1) : ()) },
        sub { wrk(url => "$base/static/leaderboard-after-generate.json", headers => [$auth],
                  $_[0] ? (duration => 1) : ()) }),
        route => "GET $lb (after generate-heats)", name => 'leaderboard-after-generate',
        kind => 'read', bytes => length $res->content);
}

# ---- targets and the table -----------------------------------------------------------

my @reads = grep { $_->{kind} =~ /^read/ } @rows;
for my $r (@reads) {
    # the leaderboards' target is the issue's: at least as fast as the static file
    # and gzip answers at least as fast as the same gzip bytes from a static file
    # and both views of a validated competition (publication) as well
    my $min = $r->{name} =~ /leaderboard|gzip|^publication-/ ? 1.0 : 0.95;
    target("ratio $r->{name}", $r->{ratio} >= $min,
           sprintf('%s: %.0f req/s vs %.0f for the static file (ratio %.3f, at least %.2f)',
                   $r->{route}, $r->{module_rps}, $r->{static_rps}, $r->{ratio}, $min));
}
# Issue 31's targets against nginx: answers under 4 KiB at least 0.7x nginx's static
# file, larger ones at least 0.95x, gzip answers at least 0.7x nginx's gzip_static,
# anonymous answers of a public mount at least 0.9x (304s have no target of their own).
# Where httpd's own floor (bench/mod_floor.c: the same bytes from a handler of the same
# httpd, or from its quick handler for the anonymous rows) is itself below the target
# against nginx, the target is beyond httpd: it is then met when the module reaches the
# floor (at least 0.95x the floor's rate: the gap to it closed), as the issue says.
# Without a floor measured (nginx or mod_floor missing), a missed target is reported,
# not judged.
for my $r (grep { $_->{kind} =~ /^read(-gzip|-public)?$/ && defined $_->{nginx_rps} } @rows) {
    my $min = $r->{kind} eq 'read-gzip' ? 0.7 : $r->{kind} eq 'read-public' ? 0.9
              : $r->{bytes} < 4096 ? 0.7 : 0.95;
    $r->{nginx_target} = $min;
    my $what = sprintf('%s: %.0f req/s vs %.0f for nginx\'s %s (ratio %.3f, at least %.2f)', $r->{route},
                       $r->{module_rps}, $r->{nginx_rps},
                       $r->{kind} eq 'read-gzip' ? 'gzip_static' : 'static file', $r->{nginx_ratio}, $min);
    if ($r->{nginx_ratio} >= $min || !defined $r->{floor_nginx_ratio}) {
        target("nginx $r->{name}", $r->{nginx_ratio} >= $min, $what, !defined $r->{floor_nginx_ratio});
        next;
    }
    # the module against the floor: interleaved with it in one run where that ran (the
    # machine's moments weigh on both alike), else the paired runs' ratio
    my $beyond = $r->{floor_nginx_ratio} < $min;
    $r->{beyond_floor} = $beyond ? JSON::PP::true : JSON::PP::false;
    my $fi = $r->{floor_interleaved};
    my $fr = $fi ? $fi->{ratio} : $r->{floor_ratio};
    my $fqi = $r->{floor_quick_interleaved};
    target("nginx $r->{name}", $beyond && $fr >= 0.95,
           $what . sprintf('; httpd\'s floor %.0f req/s, %.3f of nginx: %s; the module %.3f of '
                           . 'the floor%s%s%s', $r->{floor_rps}, $r->{floor_nginx_ratio},
                           $beyond ? 'the target is beyond httpd' : 'httpd can reach the target',
                           $fr, $fi ? ' interleaved (' . sprintf('%.3f', $r->{floor_ratio}) . ' in the paired runs)' : '',
                           $beyond ? ' (at least 0.95)' : '',
                           defined $r->{floor_quick_nginx_ratio}
                               ? sprintf('; the quick floor %.3f of nginx, the module %.3f of it%s',
                                         $r->{floor_quick_nginx_ratio},
                                         $fqi ? $fqi->{ratio} : $r->{floor_quick_ratio},
                                         $fqi ? ' interleaved' : '')
                               : ''));
}
my ($put) = grep { $_->{name} eq 'lane-put' } @rows;
target('lane-put', $put->{ratio} >= 1.0 && !$put->{errors},
       sprintf('%.0f PUT/s with 16 clients vs %.0f SQLite commits/s (%.3f, at least 1.0), '
               . '%d errors', $put->{module_rps}, $put->{static_rps}, $put->{ratio},
               $put->{errors}))
    if $put;
my ($pgput) = grep { $_->{name} eq 'lane-put-pgbench' } @rows;
target('lane-put-pgbench', $pgput->{ratio} >= 0.6 && !$pgput->{errors},
       sprintf('PostgreSQL: %.0f PUT/s with 16 clients vs %.0f PostgreSQL commits/s (pgbench; '
               . '%.3f, at least 0.6), %d errors', $pgput->{module_rps}, $pgput->{static_rps},
               $pgput->{ratio}, $pgput->{errors}))
    if $pgput;
for my $r (@rows) {
    push @errors, "$r->{route}: $r->{errors} failed requests" if $r->{errors};
    push @errors, "$r->{route}: no request served" unless $r->{module_rps} > 0;
}

my $cpu = `sh -c "grep -m1 'model name' /proc/cpuinfo"` =~ s/.*:\s*//r;
chomp $cpu;
my %result = (
    date => strftime('%Y-%m-%dT%H:%M:%SZ', gmtime), mode => $o{smoke} ? 'smoke' : 'full',
    machine => { cpu => $cpu, cores => `nproc` + 0, kernel => scalar(`uname -r`) =~ s/\s+$//r },
    settings => { duration_s => $o{duration}, rounds => $o{rounds}, threads => $o{threads},
                  read_rows => { rounds => $o{pairs}, duration_s => $o{pair_duration},
                                 ratio => 'median of the rounds\' ratios' },
                  pinned => $o{pin} ? "httpd on CPU $server_cpus, wrk on CPU " . ($ncpu - 1)
                                    : JSON::PP::false,
                  connections => $o{connections}, mpm => 'event, 2 children x 64 threads',
                  database => 'SQLite, WAL, synchronous=FULL' },
    rows => \@rows, token_check => \%token_share, floor => \%floor, cpu => \%cpu,
    memory => \%memory,
    leaderboard_rebuild => \%rebuild,
    gzip => \%gzip, measure => \%measure, streams => \%streams, postgresql => \%pg, nginx => \%nginx,
    generate_heats => \%gen,
    publication_validate => \%pubval,
    targets => \%targets, errors => \@errors);
open my $jf, '>', $o{json} or die "$o{json}: $!";
print $jf JSON::PP->new->canonical->pretty->encode(\%result);
close $jf;

printf "\n%-52s %8s %10s %10s %7s %10s %7s %10s %7s %7s %8s %8s\n", 'route', 'bytes', 'module/s',
       'static/s', 'ratio', 'nginx/s', 'ratio', 'floor/s', 'ratio', 'interl.', 'p50 ms', 'p99 ms';
for my $r (@rows) {
    my $nx = defined $r->{nginx_rps};
    my $fl = defined $r->{floor_rps};
    my $fi = $r->{floor_interleaved};
    printf "%-52s %8s %10.0f %10.0f %7.3f %10s %7s %10s %7s %7s %8.2f %8.2f\n", $r->{route},
           $r->{bytes} || '-', $r->{module_rps}, $r->{static_rps}, $r->{ratio},
           $nx ? sprintf('%.0f', $r->{nginx_rps}) : '-', $nx ? sprintf('%.3f', $r->{nginx_ratio}) : '-',
           $fl ? sprintf('%.0f', $r->{floor_rps}) : '-',
           $fl ? sprintf('%.3f', $r->{floor_ratio}) : '-',
           $fi ? sprintf('%.3f', $fi->{ratio}) : '-',
           $r->{p50_ms} // 0, $r->{p99_ms} // 0;
}
print "  (read rows: $o{pairs} rounds of $o{pair_duration} s runs, the module's beside its "
    . "baselines'; rates: the median run; ratios: the median of the rounds' ratios)\n";
print "  (static/s: the same bytes as a static file of the same httpd, ratio module/static; "
    . "nginx/s: the same file from nginx $nginx{version}, one worker on the same CPU, ratio "
    . "module/nginx)\n" if %nginx;
print "  (floor/s: httpd's floor, the module's answer (headers and bytes) from "
    . "bench/mod_floor.c's handler in the same httpd, ratio module/floor; interl.: the "
    . "module's rate over the floor's, the two interleaved in one run, phases of "
    . "$o{interleave_phase} ms (longer for slow answers), median of $o{interleave_runs} runs of "
    . "$o{interleave_duration} s or more)\n"
    if grep { defined $_->{floor_rps} } @rows;
for my $r (grep { defined $_->{floor_quick_rps} } @rows) {
    printf "  %s: httpd's quick floor (the same answer from mod_floor's quick handler) %.0f/s, "
           . "module/quick floor %.3f%s\n", $r->{route}, $r->{floor_quick_rps}, $r->{floor_quick_ratio},
           defined $r->{floor_quick_nginx_ratio}
               ? sprintf(', quick floor/nginx %.3f', $r->{floor_quick_nginx_ratio}) : '';
}
print "  (lane PUT: static/s is sqlite3's single-row commits/s on the same disk; vs pgbench: "
    . "PostgreSQL's single-row commits/s; /connect: static/s is one core's bcrypt checks/s)\n";
for my $r (grep { $_->{cpu_us_per_put} } @rows) {
    printf "%s: httpd's CPU per PUT %.0f us (user %.0f, system %.0f; the median run): one core "
           . "carries at most %.0f PUT/s\n", $r->{route},
           $r->{cpu_us_per_put}{user} + $r->{cpu_us_per_put}{system}, $r->{cpu_us_per_put}{user},
           $r->{cpu_us_per_put}{system},
           1e6 / (($r->{cpu_us_per_put}{user} + $r->{cpu_us_per_put}{system}) || 1);
}
printf "leaderboard rebuild after a lane PUT: median %.2f ms, p99 %.2f ms, max %.2f ms "
       . "(first byte: median %.2f, p99 %.2f; %d rounds, %d bytes)\n",
       @rebuild{qw(median_ms p99_ms max_ms first_byte_median_ms first_byte_p99_ms rounds bytes)}
    if %rebuild;
printf "validation on a reader's leaderboard (%s): median %.2f ms, p99 %.2f ms, max %.2f ms "
       . "after the validation's answer (the validation: median %.2f ms; %d rounds, %d bytes)\n",
       @pubval{qw(validator median_ms p99_ms max_ms validate_median_ms rounds bytes)}
    if %pubval;
printf "token check: %.2f%% of a request's instructions (%.0f of %.0f per request, callgrind)\n",
       100 * $token_share{share},
       ($token_share{instructions_bearer_parse} + $token_share{instructions_token_lookup}) / 2000,
       $token_share{instructions_total} / 2000
    if %token_share;
if (%floor) {
    printf "the floor (instructions per request, callgrind, %d requests of the %d-byte WOD "
           . "list on one connection):\n", $floor{requests}, $floor{bytes};
    for my $c (grep { ref $floor{$_} } qw(static floor floor-quick token public public-304)) {
        printf "  %-11s %8d  (over the floor: %+d)\n", $c, $floor{$c}{per_request},
               $floor{$c}{per_request} - $floor{floor}{per_request};
    }
}
if (%cpu) {
    printf "where the CPU goes (perf record -e cpu-clock, the WOD list with a token under wrk, "
           . "%d and %d requests), microseconds a request:\n", $cpu{module}{requests}, $cpu{floor}{requests};
    for my $c (qw(module floor)) {
        my $by = $cpu{$c}{by_library};
        printf "  %-7s %6.2f: kernel %.2f, outside it %.2f (%s)\n", $c, $cpu{$c}{us_per_request},
               $cpu{$c}{kernel_us}, $cpu{$c}{user_us},
               join(', ', map { sprintf '%s %.2f', $_, $by->{$_} }
                          grep { $_ ne '[kernel.kallsyms]' && $by->{$_} >= 0.05 }
                          sort { $by->{$b} <=> $by->{$a} } keys %$by);
    }
    printf "  the module's own code: %.1f%% of its request; outside the kernel it costs %+.2f us over "
           . "the floor (%.1f%% of the floor's request)\n", 100 * $cpu{module_own_share},
           $cpu{user_over_floor_us}, 100 * $cpu{user_over_floor_share};
}
printf "event streams: %d open, the lane PUT reached %d: p50 %.1f ms, p99 %.1f ms, max %.1f ms "
       . "after its answer; %.1f KiB of RSS per stream; reads %.3f of their rate\n",
       @streams{qw(streams received p50_ms p99_ms max_ms kib_per_stream read_ratio)}
    if %streams;
printf "PostgreSQL: the server's connections to it: %d after the reads, %d after the PUTs "
       . "(2 children, DBDMax 64)\n", @pg{qw(connections_after_reads connections_after_puts)}
    if %pg;
printf "memory: peak RSS of a child %d KiB -> %d KiB over %d requests (largest growth of a "
       . "child %d KiB)\n  along the run (requests: KiB): %s\n",
       $hwm_before, $hwm_after, $done, $grow_max,
       join(', ', map { sprintf '%dk: %d', $_->[0] / 1000, $_->[1] } @samples)
    if %memory;
print "\ntargets:\n";
for my $t (sort keys %targets) {
    printf "  [%s] %s\n", ($targets{$t}{met} ? 'met' : 'MISSED') . ($targets{$t}{reported} ? ', reported' : ''),
           $targets{$t}{what};
}
print "  (reported: the issue's targets against nginx, not judged in the exit status)\n"
    if grep { $_->{reported} } values %targets;
print "errors:\n", map { "  $_\n" } @errors if @errors;
print "JSON: $o{json}\n";

if ($o{smoke}) {
    # one check per measurement (each table row, the ETag change, the memory run,
    # the leaderboard rebuild, the token profile when it ran) and one per comparison of
    # nginx's answer with the module's (bytes, gzip, 304); ratios are not judged in a
    # short run
    my $checks = @rows + (exists $targets{'etag-changes'} ? 1 : 0) + (%memory ? 1 : 0)
                 + (%token_share ? 1 : 0) + (%floor ? 1 : 0) + (%rebuild ? 1 : 0) + (%streams ? 1 : 0)
                 + (%pubval ? 1 : 0) + $pub_views_checked
                 + $nginx_checks + $floor_checks;
    my $failed = @errors > $checks ? $checks : scalar @errors;
    print @errors ? "bench smoke: FAILED\n" : "bench smoke: every measurement ran\n";
    printf "%d passed, %d failed\n", $checks - $failed, $failed;
    exit(@errors ? 1 : 0);
}
my @missed = grep { !$targets{$_}{met} && !$targets{$_}{reported} } keys %targets;
my $reported_missed = grep { !$_->{met} && $_->{reported} } values %targets;
print @missed || @errors ? "bench: targets missed" : "bench: every target met",
      $reported_missed ? " ($reported_missed reported target(s) against nginx missed)\n" : "\n";
exit(@missed || @errors ? 1 : 0);
