# server-status (mod_status, ExtendedStatus On) has a mod_ranking section, through
# httpd's status hook: per child, the answer cache (entries, bytes, hits, misses), the
# token cache, grouped lane commits (count, mean size), open event streams and long
# polls, and the data revision last read; in the HTML page and in "?auto".  The
# figures are checked to move exactly with what the test does: answer lookups, a lane
# PUT, a stream opened then closed, a long poll waiting.  (Apache::Test runs one file
# at a time: nothing else talks to the server meanwhile.)
# tests: 35
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(time sleep);
use IO::Socket::INET;
use RankingTest;
use SseClient;

my $R = login('demo', 'demo');
my $E = login('judge', 'judge');
ok(defined $R && defined $E, 'demo and judge log in') or die "cannot log in\n";

# the "?auto" form: (totals, [per child { pid => ..., key => value }])
sub status {
    my $res = req(GET => '/ranking-status?auto');
    die "server-status: " . $res->status_line . "\n" unless $res->code == 200;
    my (%tot, @children);
    for (split /\n/, $res->content) {
        if (/^RankingChild: (.*)$/) { push @children, { map { split /=/, $_, 2 } split / /, $1 } }
        elsif (/^(Ranking\w+): (\S+)$/) { $tot{$1} = $2 }
    }
    return (\%tot, \@children);
}
# wait until CODE (given the totals) is true, at most SECONDS (3); the last totals
sub status_until {
    my ($code, $seconds) = @_;
    my $t;
    for (1 .. 10 * ($seconds // 3)) { ($t) = status(); last if $code->($t); sleep 0.1 }
    return $t;
}

my ($t0, $c0) = status();
ok($t0->{RankingChildren} >= 1 && $t0->{RankingChildren} == @$c0,
   "?auto: RankingChildren ($t0->{RankingChildren}) and one RankingChild line each");
my @keys = qw(answers answer_bytes answer_hits answer_misses tokens token_hits token_misses
              commit_groups commit_lanes streams polls revision revision_reads revision_shared
              commit_mean);
ok(!grep({ my $c = $_; grep { !defined $c->{$_} } 'pid', @keys } @$c0), 'each child line has every figure');
ok(!grep({ $_->{pid} !~ /^\d+$/ || !kill(0, $_->{pid}) } @$c0), 'each child line names a live process');
for my $k (qw(RankingAnswerHits RankingTokenHits RankingCommitGroups RankingStreams RankingRevision
              RankingRevisionReads RankingRevisionShared RankingCommitMeanGroup)) {
    ok(defined $t0->{$k}, "?auto has $k");
}
my $sum = 0;
$sum += $_->{answer_hits} for @$c0;
is($sum, $t0->{RankingAnswerHits}, 'RankingAnswerHits is the sum of the children\'s');

# ten reads of one list: each either found in the answer cache of the child that
# serves it (a hit) or built there (a miss, at most one per child)
for (1 .. 10) { req(GET => '/api/competition/', $R)->code == 200 or die "GET /api/competition/\n" }
my ($t1) = status();
is(($t1->{RankingAnswerHits} + $t1->{RankingAnswerMisses})
   - ($t0->{RankingAnswerHits} + $t0->{RankingAnswerMisses}), 10, 'ten reads: ten hits or misses');
ok($t1->{RankingAnswerHits} - $t0->{RankingAnswerHits} >= 10 - $t1->{RankingChildren},
   'at most one miss per child (' . ($t1->{RankingAnswerHits} - $t0->{RankingAnswerHits}) . ' hits, '
   . "$t1->{RankingChildren} children)");
ok($t1->{RankingAnswerEntries} >= 1 && $t1->{RankingAnswerBytes} > 0, 'answers held: entries and bytes');
ok($t1->{RankingTokenHits} + $t1->{RankingTokenMisses} > $t0->{RankingTokenHits} + $t0->{RankingTokenMisses},
   'token checks counted');

# RankingRevisionCheck (300 ms here): reads take the change counters from the table the
# children share, reading them from the database once they are older than that
# The totals are sums over the live children: under prefork a child may be reaped
# between the two snapshots (idle children above MaxSpareServers) and take its counts
# with it, so the measure is taken again (at most 5 times) until both snapshots name
# the same children.
my ($ts0, $cs0, $ts1, $cs1, $start, $elapsed);
for my $attempt (1 .. 5) {
    ($ts0, $cs0) = status();
    $start = time;
    for (1 .. 20) { req(GET => '/api/competition/', $R)->code == 200 or die "GET /api/competition/\n" }
    $elapsed = time - $start;
    ($ts1, $cs1) = status();
    my $pids = sub { join ',', sort map { $_->{pid} } @{ $_[0] } };
    last if $pids->($cs0) eq $pids->($cs1);
    diag("attempt $attempt: the children changed between the two snapshots");
}
my $reads = $ts1->{RankingRevisionReads} - $ts0->{RankingRevisionReads};
my $shared = $ts1->{RankingRevisionShared} - $ts0->{RankingRevisionShared};
# (a read whose answer is built reads them again, so that its ETag is the rows')
ok($reads + $shared >= 20, "twenty reads: each read the counters or took them shared ($reads + $shared)");
# (a read of the database per expiry of 300 ms, one more per child at most racing it)
my $most = (int($elapsed / 0.3) + 1) * ($ts1->{RankingChildren} + 1);
ok($shared > 0 && $reads <= $most,
   sprintf('the counters were read %d times in %.0f ms (at most %d), taken shared %d times',
           $reads, 1000 * $elapsed, $most, $shared));

# the revision: what the ETag of a read says
my $etag = req(GET => '/api/competition/', $R)->header('ETag') // '';   # a list: the revision's tag
my ($rev) = $etag =~ /-(\d+)"$/;
my ($t2) = status();
is($t2->{RankingRevision}, $rev, "RankingRevision is the data revision of the ETag ($rev)");

# a lane PUT: one group of one lane (then put back: one more)
my $V = '/api/competition/2/zone/26/heat/255/voie/2017';
is(req(PUT => $V, $E, { score => '42' })->code, 200, 'a lane PUT');
is(req(PUT => $V, $E, { score => undef })->code, 200, 'put back');
my ($t3) = status();
is($t3->{RankingCommitGroups} - $t2->{RankingCommitGroups}, 2, 'two lane commits counted');
is($t3->{RankingCommitLanes} - $t2->{RankingCommitLanes}, 2, 'two lanes in them');

# an event stream: counted while it is open, not after
my $st = SseClient::open(Apache::TestRequest::hostport(Apache::Test::config()), '/api/competition/2/events', $R);
SseClient::read($st, 2, qr/\n\n|:/);
my $t4 = status_until(sub { $_[0]{RankingStreams} == $t3->{RankingStreams} + 1 });
is($t4->{RankingStreams}, $t3->{RankingStreams} + 1, 'an open event stream is counted');
SseClient::close($st);
# (the server learns it at its next write: a keep-alive comment every 2 s here)
my $t5 = status_until(sub { $_[0]{RankingStreams} == $t3->{RankingStreams} }, 10);
is($t5->{RankingStreams}, $t3->{RankingStreams}, 'a closed stream is no longer counted');

# a long poll waiting for a change
my $hostport = Apache::TestRequest::hostport(Apache::Test::config());
my $s = IO::Socket::INET->new(PeerAddr => $hostport) or die "connect: $!\n";
my $etag1 = req(GET => '/api/competition/1', $R)->header('ETag');
print {$s} "GET /api/competition/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $R\r\n"
         . "If-None-Match: $etag1\r\nPrefer: wait=3\r\nConnection: close\r\n\r\n";
my $t6 = status_until(sub { $_[0]{RankingPolls} == $t5->{RankingPolls} + 1 });
is($t6->{RankingPolls}, $t5->{RankingPolls} + 1, 'a waiting long poll is counted');
my $answer = '';
$s->blocking(0);
for (1 .. 100) {   # the head of the answer (304: no body), at most 10 s
    my $n = sysread($s, $answer, 4096, length $answer);
    last if $answer =~ /\r\n\r\n/ || (defined $n && $n == 0);
    sleep 0.1;
}
close $s;
like($answer, qr{^HTTP/1\.1 304}, 'the long poll ends with 304 after 3 s');
my $t7 = status_until(sub { $_[0]{RankingPolls} == $t5->{RankingPolls} });
is($t7->{RankingPolls}, $t5->{RankingPolls}, 'an answered long poll is no longer counted');

# the quick handler (an anonymous read of a public mount): a read it leaves to the
# normal path (its answer not in the child's cache: built there) counts how it found
# the change counters once, as one it answers (they counted twice: the quick handler's
# finding, then the normal path's)
is(req(PUT => $V, $E, { score => '43' })->code, 200, 'a lane PUT: a new revision, no answer cached');
my ($q0) = status();
my @codes = map { req(GET => '/pubcors/competition/2/wod/')->code } 1 .. 6;
my ($q1) = status();
is("@codes", '200 200 200 200 200 200', 'six anonymous reads of a public mount (quick handler)');
# (an answer built reads them again from the database when it took them shared: one
# more read per build, RankingAnswerMisses, as above)
my $counted = ($q1->{RankingRevisionReads} + $q1->{RankingRevisionShared})
              - ($q0->{RankingRevisionReads} + $q0->{RankingRevisionShared});
my $built = $q1->{RankingAnswerMisses} - $q0->{RankingAnswerMisses};
ok($built >= 1 && $counted >= 6 && $counted - $built <= 6,
   "their change counters counted once each, those left to the normal path too ($counted, "
   . "$built answer(s) built)");
is(req(PUT => $V, $E, { score => undef })->code, 200, 'put back');

# the HTML page
my $html = req(GET => '/ranking-status')->content;
like($html, qr{<h2>mod_ranking</h2>}, 'the HTML page has the mod_ranking section');

tests_declared_ok(__FILE__);
done_testing();
