#!/usr/bin/perl
# t/stress/stress.pl BUILD_DIR [--seconds N] [--tsan]
#
# Races caught by a test (issue 34): one httpd of the event MPM with 2 children of 64
# threads each (the shape of the bench's memory run, where the leaderboard-input race
# crashed every child), on the demo data with competitions 1 and 4 switched to
# publication 'validated', under, for N seconds (default 40) at once:
#  - 24 readers: every read route of competitions 1, 2, 4 and 5 (overall, WOD and
#    division leaderboards, the competition and its list, WODs, spots, zones, heats of
#    both variants, lanes, lines, a lane's history, the change log) as the judge (full
#    view), the judge with ?view=published, the organizer, a reader and anonymously on
#    a public mount (published view), half of them asking for gzip, half sending
#    If-None-Match with the last ETag they got (some of those a long poll, Prefer:
#    wait=2); the history and change log answer 401 / 403 to whom they must;
#  - 6 writers: each owns some lanes of the four competitions and PUTs their scores
#    (the judge), and in the validated competitions has the organizer validate them;
#  - the organizer PATCHing heats (status running <-> finished: a change that is not a
#    lane change, so that kept leaderboard inputs are read again in full);
#  - 4 event-stream clients (judge, reader, anonymous, organizer), reconnecting every
#    few seconds with Last-Event-ID.
# Six leaderboard inputs (1, 1 published, 2, 4, 4 published, 5) for the four a child
# keeps: inputs are replaced all the time, by two threads of a child at once.
# Every answer is checked: its status (200, or 304 with the ETag sent; a write may be
# 503 with Retry-After, then read back), JSON well formed, the right resource (a
# leaderboard of competition C lists exactly the spots of C, places in order).  At
# the end every leaderboard, both views, read several times (both children), equals
# RankingRef's from the demo data and the acknowledged writes; the children are the
# ones of the start and the error log has no "exit signal".
#
# --tsan: BUILD_DIR holds the module built with ThreadSanitizer (rk_build build-tsan
# CC=clang --enable-sanitizers=thread); httpd (not instrumented) runs with a TSan
# runtime in LD_PRELOAD (GCC's libtsan.so.2: clang 14's cannot be preloaded), and any
# TSan report fails the run (doc/testing.md, "ThreadSanitizer").
#
# The proof that it catches the race of the last stage (f9ebd88), plain and under TSan:
# t/stress/PROOFS.md (the patch that brings it back, and the failing lines: children
# lost to SIGSEGV, "exit signal" in the log, the TSan report in input_take).
# Prints "N passed, M failed"; exits non-zero on any failure.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use Getopt::Long;
use JSON::PP;
use LWP::UserAgent;
use HTTP::Request;
use POSIX qw(_exit);
use Time::HiRes qw(time sleep);
use URI::Escape qw(uri_escape uri_unescape);
use lib dirname(abs_path(__FILE__)) . '/../lib';
use RkServer;
use SseClient;
use RankingRef;
use RankingTest ();

*ok = \&RkServer::ok;
*like = \&RkServer::like;

my %o = (seconds => 40, readers => 24, writers => 6, streams => 4);
GetOptions(\%o, 'seconds=i', 'tsan', 'readers=i', 'writers=i', 'streams=i')
    or die "usage: $0 BUILD_DIR [--seconds N] [--tsan]\n";
my $build = abs_path(shift // 'build') or die "usage: $0 BUILD_DIR [--seconds N] [--tsan]\n";
my $root = abs_path(dirname(__FILE__) . '/../..');
my $so = "$build/mod_ranking/.libs/mod_ranking.so";
-f $so or die "no module at $so\n";
my $JSON = JSON::PP->new->canonical;

my $tmp = tempdir('rk-stress-XXXXXX', TMPDIR => 1, CLEANUP => 0);
chmod 0755, $tmp;
my ($parent, $srv) = ($$);
sub cleanup { return if $$ != $parent; $srv->stop if $srv; $srv = undef; remove_tree($tmp) }
$SIG{INT} = $SIG{TERM} = sub { cleanup(); exit 1 };
END { local $?; cleanup() }

# ---------------------------------------------------------------- the server
my $db = "$tmp/db/ranking.db";
make_path(dirname($db));
system("sqlite3 '$db' < '$root/sql/schema.sql' >/dev/null") == 0 or die "schema\n";
system("sqlite3 '$db' < '$root/sql/demo.sql'") == 0 or die "demo data\n";
system('chown', '-R', 'www-data:', dirname($db)) == 0 or die "chown\n";
my (%env, $tsan_dir);
if ($o{tsan}) {
    # GCC's runtime (libtsan2): clang 14's own, libclang_rt.tsan-x86_64.so, dies with
    # SIGSEGV when preloaded, into any program (/bin/true too): doc/testing.md
    chomp(my $rt = $ENV{RK_TSAN_RUNTIME} // `gcc -print-file-name=libtsan.so`);
    $rt = abs_path($rt) // '';
    -f $rt or die "no TSan runtime (gcc -print-file-name=libtsan.so; package libtsan2)\n";
    $tsan_dir = "$tmp/tsan";
    make_path($tsan_dir);
    chmod 01777, $tsan_dir;
    %env = (LD_PRELOAD => $rt,
            TSAN_OPTIONS => "log_path=$tsan_dir/report halt_on_error=0 report_signal_unsafe=0");
}
$srv = RkServer->new(dir => "$tmp/srv", so => $so, driver => 'sqlite3', mpm => 'event',
                     params => "file:$db?mode=rw", env => \%env, extra => <<'CONF');
StartServers 2
ServerLimit 2
ThreadLimit 64
ThreadsPerChild 64
MaxRequestWorkers 128
MinSpareThreads 1
MaxSpareThreads 128
MaxConnectionsPerChild 0
KeepAliveTimeout 30
MaxKeepAliveRequests 0
<Location /api>
    RankingLoginLimit 0
</Location>
<Location /pub>
    SetHandler ranking
    Require all granted
    RankingLoginLimit 0
    RankingPublic On
</Location>
CONF
sub children { return sort { $a <=> $b } split ' ', `ps --ppid @{[ $srv->pid ]} -o pid=` }
my %tok = map { ($_ => $srv->login($_, $_)) } qw(judge organizer demo);
ok(!grep({ !defined } values %tok), 'the judge, the organizer and a reader log in');
for my $c (1, 4) {
    my ($code, $d) = $srv->call('PATCH', "/competition/$c", $tok{organizer}, { publication => 'validated' });
    ok($code == 200 && ($d->{competition}{publication} // '') eq 'validated',
       "competition $c becomes publication 'validated' ($code)");
}
my @kids0 = children();
for (1 .. 50) { last if @kids0 == 2; sleep 0.1; @kids0 = children() }
ok(@kids0 == 2, '2 children: ' . scalar(@kids0));
if ($o{tsan}) {
    my $maps = do { local (@ARGV, $/) = ("/proc/$kids0[0]/maps"); <> } // '';
    like($maps, qr/libtsan|libclang_rt\.tsan/, 'the children run with the TSan runtime loaded');
}

# ---------------------------------------------------------------- the data
my $demo = RankingRef::demo("$root/sql/demo.sql");
my @COMPS = (1, 2, 4, 5);
my %VALIDATED = (1 => 1, 4 => 1);
my %comp_of_heat = map { ($_->{id} => $_->{competition_id}) } @{ $demo->{heat} };
my %heat = map { ($_->{id} => $_) } @{ $demo->{heat} };
my (%spots, %div_spots, %wods, %zones, %heats_of_zone, %lanes_of_heat);
for my $s (@{ $demo->{spot} }) {
    push @{ $spots{ $s->{competition_id} } }, "$s->{id}";
    push @{ $div_spots{ $s->{competition_id} }{ $s->{division} } }, "$s->{id}" if defined $s->{division};
}
push @{ $wods{ $_->{competition_id} } }, $_->{id} for @{ $demo->{wod} };
for my $h (@{ $demo->{heat} }) {
    next unless defined $h->{zone_id};
    $zones{ $h->{competition_id} }{ $h->{zone_id} } = 1;
    push @{ $heats_of_zone{ $h->{zone_id} } }, $h->{id};
}
push @{ $lanes_of_heat{ $_->{heat_id} } }, $_->{id} for @{ $demo->{lane} };
sub lane_path {
    my ($l) = @_;
    my $h = $heat{ $l->{heat_id} };
    return "/competition/$h->{competition_id}/zone/$h->{zone_id}/heat/$h->{id}/voie/$l->{id}";
}
# the lanes writers own: a team, a scored WOD, a score; the values a PUT may give one:
# the scores the demo has in that WOD
my (%cands, @writable);
for my $l (@{ $demo->{lane} }) {
    my $h = $heat{ $l->{heat_id} };
    next unless defined $h->{wod_id} && defined $h->{zone_id} && defined $l->{score};
    next unless grep { $_ == $h->{competition_id} } @COMPS;
    $cands{ $h->{wod_id} }{ $l->{score} } = 1;
    push @writable, $l if defined $l->{spot_id};
}
my %IN = map { ($_ => 1) } @COMPS;
my @patchable = grep { defined $_->{zone_id} && $_->{status} ne 'scheduled' && $IN{ $_->{competition_id} } }
                @{ $demo->{heat} };
ok(@writable >= 40 && @patchable >= 4,
   scalar(@writable) . ' lanes to write, ' . scalar(@patchable) . ' heats to PATCH');

# ---------------------------------------------------------------- the clients
my $deadline;
my $ua_of = sub { LWP::UserAgent->new(keep_alive => 2, timeout => 60) };
sub request {
    my ($ua, $method, $path, $token, $body, @h) = @_;
    my $req = HTTP::Request->new($method => "http://127.0.0.1:$srv->{port}$path");
    $req->header(Authorization => "Bearer $token") if defined $token;
    $req->header(@h) if @h;
    if (defined $body) {
        $req->header('Content-Type' => 'application/json');
        $req->content($JSON->encode($body));
    }
    my $res = $ua->request($req);
    my $text = $res->decoded_content(charset => 'none');
    my $data = length($text // '') ? eval { JSON::PP->new->utf8->decode($text) } : undef;
    return ($res->code, $data, $res);
}

# A structural check of a 200 read of PATH (competition C): undef when right
sub check_read {
    my ($path, $c, $d) = @_;
    (my $p = $path) =~ s/\?.*//;
    return 'not JSON' unless ref $d eq 'HASH';
    return 'status not success' unless ($d->{status} // '') eq 'success';
    if ($p =~ m{/leaderboard}) {
        my $lb = $d->{leaderboard} // return 'no leaderboard';
        return "competition_id $lb->{competition_id}" unless $lb->{competition_id} eq "$c";
        return "wod_id $lb->{wod_id}" if $p =~ m{/wod/(\d+)/} && ($lb->{wod_id} // '') ne $1;
        my ($div) = $path =~ /division=([^&]+)/;
        $div = uri_unescape($div) if defined $div;
        my @want = sort @{ defined $div ? $div_spots{$c}{$div} : $spots{$c} };
        my @got;
        for my $dv (@{ $lb->{divisions} }) {
            my $last = 0;
            for my $e (@{ $dv->{entries} }) {
                push @got, $e->{spot_id};
                my $r = $e->{rank} // 1e9;
                return "rank $r after $last in $path" if $r < $last;
                $last = $r;
            }
        }
        @got = sort @got;
        return "spots (@got) instead of (@want)" unless "@got" eq "@want";
    }
    elsif (my ($key, $id) = $p =~ m{/(competition|wod|zone|heat|spot|voie)/(\d+)$}) {
        return "not $key $id" unless ($d->{$key}{id} // '') eq $id;
    }
    elsif ($p =~ m{/(history|changes|line|wod|zone)$}) {
        my $key = { line => 'lines', wod => 'wods', zone => 'zones' }->{$1} // $1;
        return "no $key list" unless ref $d->{$key} eq 'ARRAY';
        return "$key of another competition" if $key =~ /wods|zones/ && grep { $_->{competition_id} ne "$c" } @{ $d->{$key} };
        return "$key missing" if $key eq 'wods' && @{ $d->{wods} } != @{ $wods{$c} };
    }
    elsif ($p =~ m{^/competition/$c/heat$}) {
        return 'a heat of another competition' if grep { $_->{competition_id} ne "$c" } @{ $d->{heats} };
    }
    elsif ($p =~ m{/heat/(\d+)/voie$}) {
        my $h = $1;
        return 'a lane of another heat' if grep { $_->{heat_id} ne $h } @{ $d->{voies} };
        return 'lanes missing' unless @{ $d->{voies} } == @{ $lanes_of_heat{$h} // [] };
    }
    elsif ($p =~ m{/zone/(\d+)/heat$}) {
        my $z = $1;
        return 'a heat of another zone' if grep { $_->{zone_id} ne $z } @{ $d->{heats} };
        return 'heats missing' unless @{ $d->{heats} } == @{ $heats_of_zone{$z} };
    }
    elsif ($p =~ m{/spot$}) { return 'spots' unless @{ $d->{spots} } == @{ $spots{$c} } }
    elsif ($p =~ m{/competition/$}) { return 'competitions' unless @{ $d->{competitions} } == 5 }
    return undef;
}

# the read paths of competition C
sub read_paths {
    my ($c) = @_;
    my @p = ("/competition/$c/leaderboard", map { "/competition/$c/wod/$_/leaderboard" } @{ $wods{$c} });
    push @p, map { "/competition/$c/leaderboard?division=" . uri_escape($_) } sort keys %{ $div_spots{$c} };
    push @p, "/competition/$c/spot", "/competition/", "/competition/$c", "/competition/$c/wod",
             "/competition/$c/wod/$wods{$c}[0]", "/competition/$c/spot/$spots{$c}[0]", "/competition/$c/zone",
             "/competition/$c/heat", "/competition/$c/changes";
    for my $z (sort keys %{ $zones{$c} }) {
        push @p, "/competition/$c/zone/$z", "/competition/$c/zone/$z/heat";
        for my $h (@{ $heats_of_zone{$z} }) {
            my ($v) = @{ $lanes_of_heat{$h} // [] } or next;
            push @p, map { "/competition/$c/zone/$z/heat/$h$_" } '', '/voie', "/voie/$v", "/voie/$v/history";
            push @p, "/competition/$c/heat/$h/line";
        }
    }
    return @p;
}
my @READS = map { my $c = $_; map { [$c, $_] } read_paths($c) } @COMPS;
my @BOARDS = grep { $_->[1] =~ /leaderboard/ } @READS;
my @WHO = (['/api', 'judge', ''], ['/api', 'judge', 'view=published'], ['/api', 'organizer', ''],
           ['/api', 'demo', ''], ['/pub', undef, '']);

sub reader {
    my ($n, $bad, %etag, %kind) = (0, []);
    my $ua = $ua_of->();
    # half of the requests are the reader's own 8 "screens", asked again and again
    # (so that If-None-Match finds the current ETag), the others anything; leaderboards
    # half of the time: the kept inputs are the race's place
    my $any = sub { [@{ rand() < 0.5 ? $BOARDS[rand @BOARDS] : $READS[rand @READS] }, $WHO[rand @WHO], rand() < 0.5] };
    my @screens = map { $any->() } 1 .. 8;
    while (time < $deadline) {
        my ($c, $path, $whom, $gzip) = @{ rand() < 0.5 ? $screens[rand @screens] : $any->() };
        my ($mount, $who, $q) = @$whom;
        $path .= ($path =~ /\?/ ? '&' : '?') . $q if $q;
        my @h = $gzip ? ('Accept-Encoding' => 'gzip') : ();
        my $key = join ' ', $mount, $who // '-', $path, @h;
        my $inm = rand() < 0.5 ? $etag{$key} : undef;
        push @h, 'If-None-Match' => $inm if defined $inm;
        my $poll = defined $inm && rand() < 0.05;   # a long poll: 200 on a change, else 304 after 2 s
        push @h, Prefer => 'wait=2' if $poll;
        my ($code, $d, $res) = request($ua, 'GET', "$mount$path", defined $who ? $tok{$who} : undef, undef, @h);
        # a lane's history is the editors', the change log the organizer's
        my $want = $path !~ m{/(history|changes)(\?|$)} ? 200 : !defined $who ? 401
                 : $who eq 'organizer' || ($1 eq 'history' && $who eq 'judge') ? 200 : 403;
        $n++;
        my $why;
        if ($code == 304) {
            $why = '304 without If-None-Match' unless defined $inm;
            $why //= '304 with another ETag' unless ($res->header('ETag') // '') eq $inm;
            $why //= '304 with a body' if length $res->content;
            $why //= 'a long poll without Preference-Applied' if $poll && ($res->header('Preference-Applied') // '') ne 'wait=2';
        }
        elsif ($code != 200 || $want != 200) {
            $why = "status $code, not $want" if $code != $want;
            $why //= 'not a JSON error' unless ($d->{status} // '') eq 'error';
        }
        else {
            my $ce = $res->header('Content-Encoding') // '';
            $why = 'gzip not asked' if $ce eq 'gzip' && !grep { $_ eq 'gzip' } @h;
            $why //= 'gzip answer with a plain ETag' if $ce eq 'gzip' && ($res->header('ETag') // '') !~ /-gzip"$/;
            $why //= check_read($path, $c, $d);
            $etag{$key} = $res->header('ETag');
        }
        push @$bad, "GET $mount$path as " . ($who // 'anonymous') . ": $why" if $why && @$bad < 20;
        $kind{304}++ if $code == 304;
        $kind{gzip}++ if ($res->header('Content-Encoding') // '') eq 'gzip';
        $kind{poll}++ if $poll;
        $kind{denied}++ if $code == 401 || $code == 403;
        $kind{published}++ if $code == 200 && (!defined $who || $who eq 'demo' || $q) && $path =~ /leaderboard/;
    }
    return { n => $n, bad => $bad, %kind };
}

# A writer: the lanes of slice K of N, written until the deadline. Returns the last
# known score of each lane, current and published.
sub writer {
    my ($k, $nw) = @_;
    my @own = @writable[grep { $_ % $nw == $k } 0 .. $#writable];
    my (%cur, %pub);
    my ($bad, $n, $n503) = ([], 0, 0);
    my $ua = $ua_of->();
    my $reread = sub {   # the lane as stored, after an answer that does not say (asked
        my ($l) = @_;    # again until both views answer: a child may have died)
        for my $try (1 .. 30) {
            my ($cf, $f) = request($ua, 'GET', '/api' . lane_path($l), $tok{judge});
            my ($cp, $p) = request($ua, 'GET', '/api' . lane_path($l) . '?view=published', $tok{judge});
            if ($cf == 200 && $cp == 200) {
                ($cur{ $l->{id} }, $pub{ $l->{id} }) = ($f->{voie}{score}, $p->{voie}{score});
                return;
            }
            sleep 0.5;
        }
        push @$bad, 'lane ' . lane_path($l) . ' cannot be read back';
    };
    while (time < $deadline) {
        my $l = $own[rand @own];
        my $c = $comp_of_heat{ $l->{heat_id} };
        my @v = grep { $_ ne ($cur{ $l->{id} } // $l->{score}) } sort keys %{ $cands{ $heat{ $l->{heat_id} }{wod_id} } };
        next unless @v;
        my $v = $v[rand @v];
        my ($code, $d, $res) = request($ua, 'PUT', '/api' . lane_path($l), $tok{judge}, { score => $v });
        $n++;
        if ($code == 200 && ($d->{voie}{score} // '') eq $v) { $cur{ $l->{id} } = $v }
        elsif ($code == 503 && $res->header('Retry-After')) { $n503++; $reread->($l) }
        else { push @$bad, "PUT " . lane_path($l) . ": $code " . substr($res->content, 0, 200); $reread->($l) }
        next unless $VALIDATED{$c} && rand() < 0.3;
        ($code, $d, $res) = request($ua, 'POST', '/api' . lane_path($l) . '/validate', $tok{organizer}, {});
        $n++;
        if ($code == 200 && ($d->{voie}{score} // '') eq ($cur{ $l->{id} } // '')
            && ($d->{voie}{score_status} // '') eq 'validated') { $pub{ $l->{id} } = $cur{ $l->{id} } }
        elsif ($code == 503 && $res->header('Retry-After')) { $n503++; $reread->($l) }
        else { push @$bad, "validate " . lane_path($l) . ": $code " . substr($res->content, 0, 200); $reread->($l) }
    }
    return { n => $n, n503 => $n503, bad => $bad, cur => \%cur, pub => \%pub };
}

sub heat_patcher {
    my ($n, $bad, %st) = (0, []);
    my $ua = $ua_of->();
    while (time < $deadline) {
        my $h = $patchable[rand @patchable];
        my $s = ($st{ $h->{id} } // $h->{status}) eq 'running' ? 'finished' : 'running';
        my ($code, $d, $res) = request($ua, 'PATCH', "/api/competition/$h->{competition_id}/zone/$h->{zone_id}/heat/$h->{id}",
                                       $tok{organizer}, { status => $s });
        $n++;
        if ($code == 200 && ($d->{heat}{status} // '') eq $s) { $st{ $h->{id} } = $s }
        elsif ($code != 503 || !$res->header('Retry-After')) { push @$bad, "PATCH heat $h->{id}: $code" if @$bad < 20 }
        sleep 0.05;
    }
    return { n => $n, bad => $bad };
}

sub streamer {
    my ($k) = @_;
    my @who = (['/api', 'judge', 1], ['/api', 'demo', 4], ['/pub', undef, 2], ['/api', 'organizer', 5]);
    my ($mount, $who, $c) = @{ $who[$k % @who] };
    my ($opened, $events, $bad, $last) = (0, 0, [], undef);
    while (time < $deadline - 1) {
        my $st = SseClient::open("127.0.0.1:$srv->{port}", "$mount/competition/$c/events",
                                 defined $who ? $tok{$who} : undef,
                                 defined $last ? ("Last-Event-ID: $last") : ());
        $opened++;
        unless ($st->{head} =~ m{^HTTP/1\.1 200} && $st->{head} =~ m{^Content-Type: text/event-stream}mi) {
            push @$bad, 'stream: ' . ((split /\r\n/, $st->{head})[0] // 'no answer') if @$bad < 20;
            sleep 0.5;
            next;
        }
        my $text = SseClient::read($st, 3 + rand 3);
        SseClient::close($st);
        for my $e (SseClient::events($text)) {
            $events++;
            push @$bad, "event $e->{event} with data that is not JSON: $e->{data}"
                if defined $e->{data} && !eval { decode_json($e->{data}); 1 } && @$bad < 20;
            if (defined $e->{id} && length $e->{id}) {
                push @$bad, "event id $e->{id} after $last" if defined $last && $e->{id} <= $last && @$bad < 20;
                $last = $e->{id};
            }
        }
    }
    return { n => $opened, events => $events, bad => $bad };
}

# every client in a process of its own, started together; what each returns
sub run_clients {
    my @subs = @_;
    my @kids;
    for my $sub (@subs) {
        my $file = "$tmp/client-" . scalar(@kids) . '.json';
        my $pid = fork // die "fork: $!";
        if (!$pid) {
            srand($$ ^ int(time * 1000));
            my $out = eval { $sub->() } // { died => "$@" };
            open my $fh, '>', $file or _exit(1);
            print {$fh} encode_json($out);
            close $fh;
            _exit(0);
        }
        push @kids, [$pid, $file];
    }
    return map {
        waitpid($_->[0], 0);
        my $t = do { local (@ARGV, $/) = ($_->[1]); eval { <> } } // '';
        length $t ? decode_json($t) : { died => "exit $?", bad => [] };
    } @kids;
}

$deadline = time + $o{seconds};
my @res = run_clients((map { \&reader } 1 .. $o{readers}),
                      (map { my $k = $_; sub { writer($k, $o{writers}) } } 0 .. $o{writers} - 1),
                      \&heat_patcher, (map { my $k = $_; sub { streamer($k) } } 0 .. $o{streams} - 1));
my @readers = splice @res, 0, $o{readers};
my @writers = splice @res, 0, $o{writers};
my ($patcher, @streams) = @res;
my $sum = sub { my ($k, @r) = @_; my $t = 0; $t += $_->{$k} // 0 for @r; $t };
my @died = grep { $_->{died} } @readers, @writers, $patcher, @streams;
ok(!@died, 'every client ran to its end' . (@died ? ": $died[0]{died}" : ''));
for my $g (['reads', \@readers, 10], ['lane PUTs and validations', \@writers, 10],
           ['heat PATCHes', [$patcher], 10], ['event streams opened', \@streams, 2]) {
    my ($name, $r, $min) = @$g;
    my @bad = map { @{ $_->{bad} // [] } } @$r;
    my $n = $sum->('n', @$r);
    ok($n >= $min * @$r && !@bad, "$n $name, every answer as expected" . (@bad ? ": @bad[0 .. ($#bad < 4 ? $#bad : 4)]" : ''));
}
my %kinds = map { ($_ => $sum->($_, @readers)) } qw(304 gzip poll denied published);
ok(!grep({ !$_ } values %kinds), 'the reads were of every kind: ' . join(', ', map { "$kinds{$_} $_" } sort keys %kinds));
my $n503 = $sum->('n503', @writers);
ok($n503 <= $sum->('n', @writers) / 10, "writes answered 503 with Retry-After (then read back): $n503");
ok($sum->('events', @streams) > 0, $sum->('events', @streams) . ' events received on the streams');

# ---------------------------------------------------------------- at the end
my (%cur, %pub);
for my $w (@writers) { %cur = (%cur, %{ $w->{cur} // {} }); %pub = (%pub, %{ $w->{pub} // {} }) }
my $full = { %$demo, lane => [map { +{ %$_, score => exists $cur{ $_->{id} } ? $cur{ $_->{id} } : $_->{score} } } @{ $demo->{lane} }] };
my $published = { %$demo, lane => [map {
    my $c = $comp_of_heat{ $_->{heat_id} } // 0;
    # a validated competition shows the last validated score (the demo's at the PATCH);
    # an immediate one, the current score
    my $kept = $VALIDATED{$c} ? \%pub : \%cur;
    +{ %$_, score => exists $kept->{ $_->{id} } ? $kept->{ $_->{id} } : $_->{score} }
} @{ $demo->{lane} }] };
ok(keys(%cur) >= 20, scalar(keys %cur) . ' lanes written, ' . scalar(keys %pub) . ' validated');
sleep 1.5;   # RankingRevisionCheck: every child has seen the last write
my $ua = LWP::UserAgent->new(keep_alive => 0, timeout => 60);
for my $b (grep { $_->[1] !~ /division/ } @BOARDS) {
    my ($c, $path) = @$b;
    my ($w) = $path =~ m{/wod/(\d+)/};
    for my $v (['judge', $full, 'full'], ['demo', $published, 'published'],
               [undef, $published, 'published, anonymous']) {
        my ($who, $ref, $name) = @$v;
        my $exp = defined $w ? RankingRef::wod_board($ref, $c, $w) : RankingRef::overall_board($ref, $c);
        my @diff;
        for (1 .. 4) {   # new connections: both children answer
            my ($code, $d) = request($ua, 'GET', (defined $who ? '/api' : '/pub') . $path, defined $who ? $tok{$who} : undef);
            my $diff = $code == 200 ? RankingTest::json_cmp($d, $exp) : "status $code";
            push @diff, $diff if defined $diff;
        }
        ok(!@diff, "at the end, $path ($name view) is the reference's from the acknowledged writes"
                   . (@diff ? ": $diff[0]" : ''));
    }
}
my @wrong = grep {
    my (undef, $d) = request($ua, 'GET', '/api' . lane_path($_), $tok{judge});
    ($d->{voie}{score} // '') ne ($cur{ $_->{id} } // $_->{score});
} @writable;
ok(!@wrong, 'every written lane holds its last acknowledged score' . (@wrong ? ": lane $wrong[0]{id}" : ''));

my @kids1 = children();
ok("@kids0" eq "@kids1", "the same 2 children at the end (@kids0 / @kids1): none crashed");
my $log = $srv->error_log;
# (a write that waited past the busy timeout is logged as an error with its 503: those
# are counted above, and only they may be in the log)
my $module_error = qr/\] \[ranking:(?:error|crit|alert|emerg)\](?!.*(?:database is locked|busy))/;
my @checks = ([qr/exit signal|Segmentation|AH00052|AH00060/, 'no child exited on a signal (error log)'],
              [$module_error, 'no error of the module in the log']);
for my $t (@checks) {
    my @lines = grep { $_ =~ $t->[0] } split /\n/, $log;
    ok(!@lines, $t->[1] . (@lines ? ":\n" . join("\n", @lines[0 .. ($#lines < 4 ? $#lines : 4)]) : ''));
}
$srv->stop;
$srv = undef;
if ($o{tsan}) {
    my @reports = glob("$tsan_dir/report.*");
    my $first = @reports ? do { local (@ARGV, $/) = ($reports[0]); <> } : '';
    ok(!@reports, 'ThreadSanitizer: no report' . (@reports ? " (" . scalar(@reports) . " files; the first:)\n$first" : ''));
}
exit RkServer::done();
