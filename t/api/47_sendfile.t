# Large answers by sendfile (doc/design.md, "Large answers by sendfile"): an answer
# of 64 KiB to 1 MiB is sent from a memory file of its own (memfd "rk-answer", made
# once per answer and child, closed with it), as httpd sends a static file; the bytes
# are the same as from memory (mount /nosendfile: EnableSendfile Off), for GET, HEAD,
# gzip, a Range, many clients at once and after a change; the memory files of former
# revisions are closed (no descriptor kept per revision).  Works on a competition of
# its own (1,000 spots from a CSV), deleted at the end.
# tests: 27 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use IO::Uncompress::Gunzip qw(gunzip $GunzipError);
use RankingTest;

my $org = login('organizer', 'organizer');
my $reader = login('demo', 'demo');
ok(defined $org && defined $reader, 'organizer and demo log in') or die "cannot log in\n";

my $res = req(POST => '/api/competition/', $org, { name => 'Large Answers Open' });
is($res->code, 201, 'a competition of its own');
my $c = decode($res)->{competition}{id};
# two lists of 500 (a body is at most 64 KiB here)
my @added;
for my $half (0, 1) {
    my $csv = "name,division,affiliate,bib\n"
              . join('', map { sprintf "Team %04d of the long names,Masters 35+,CrossFit Affiliate %04d,%d\n",
                                       $_, $_, $_ } 500 * $half + 1 .. 500 * $half + 500);
    push @added, (decode(req(POST => "/api/competition/$c/spot/", $org, $csv,
                             { 'Content-Type' => 'text/csv' })) // {})->{added} // 0;
}
is("@added", '500 500', '1,000 spots from two CSV lists');

my $LIST = "/competition/$c/spot/";

# the memory files of the server's children: "memfd:rk-answer" descriptors
sub answer_files {
    open my $fh, '<', t_logs() . '/httpd.pid' or return -1;
    chomp(my $ppid = <$fh> // '');
    my $n = 0;
    for my $pid (split ' ', `ps --ppid $ppid -o pid=`) {
        opendir my $d, "/proc/$pid/fd" or return -1;
        for (readdir $d) {
            my $to = readlink "/proc/$pid/fd/$_" // next;
            $n++ if $to =~ /^\/memfd:rk-answer/;
        }
    }
    return $n;
}

my $plain = req(GET => "/nosendfile$LIST", $reader);
is($plain->code, 200, 'EnableSendfile Off: 200');
my $body = $plain->content;
ok(length($body) >= 65536, 'an answer of 64 KiB or more (' . length($body) . ' bytes)');
is(scalar @{ (decode($plain) // {})->{spots} // [] }, 1000, '... with the 1,000 spots');

my $before = answer_files();
ok($before >= 0, "the children's descriptors are readable (run as root)")
    or diag('cannot read /proc/PID/fd of the httpd children');
my $sf = req(GET => "/api$LIST", $reader);
is($sf->code, 200, 'EnableSendfile unset: 200');
is($sf->header('Content-Length'), length($body), 'Content-Length');
ok($sf->content eq $body, 'the same bytes as from memory');
ok(answer_files() > $before, 'sent from a memory file of its own (a memfd rk-answer is open)');
ok(req(GET => "/api$LIST", $reader)->content eq $body, 'again: the same bytes');

# anonymous, on a public mount: from the quick handler (the second read)
my @pub = map { req(GET => "/public$LIST") } 1 .. 2;
ok(!grep({ $_->code != 200 || $_->content ne $body } @pub), 'a public mount, anonymous: the same bytes, twice');
my $h = req(HEAD => "/api$LIST", $reader);
ok($h->code == 200 && $h->content eq '' && $h->header('Content-Length') == length($body),
   'HEAD: the length, no body');
my $z = req(GET => "/api$LIST", $reader, undef, { 'Accept-Encoding' => 'gzip' });
my $unz;
gunzip(\($z->content) => \$unz);
ok($z->code == 200 && ($z->header('Content-Encoding') // '') eq 'gzip' && ($unz // '') eq $body,
   'gzip: the same bytes once gunzipped');
my $r = req(GET => "/api$LIST", $reader, undef, { Range => 'bytes=100-199' });
ok(($r->code == 206 && $r->content eq substr($body, 100, 100)) || ($r->code == 200 && $r->content eq $body),
   'a Range: the bytes asked, or the whole answer (' . $r->code . ')');
my $ims = req(GET => "/api$LIST", $reader, undef, { 'If-None-Match' => $sf->header('ETag') });
is($ims->code, 304, 'If-None-Match: 304');

# many clients at once, each reading it on a connection of its own
my @got = run_parallel(map { my $i = $_; sub {
    my @bad;
    for (1 .. 15) {
        my $x = req(GET => "/api$LIST", $reader);
        push @bad, $x->code if $x->code != 200 || $x->content ne $body;
    }
    return { bad => \@bad };
} } 1 .. 8);
is(scalar(grep { $_->{died} || @{ $_->{bad} // [] } } @got), 0, '8 clients, 15 reads each: every answer the same bytes');

# a change: the new answer, from a new memory file; the former one closed
my $files = answer_files();
for my $round (1 .. 6) {
    my $line = sprintf "name,affiliate,bib\nTeam 0001 of the long names,Changed %d,1\n", $round;
    req(POST => "/api/competition/$c/spot/", $org, $line, { 'Content-Type' => 'text/csv' });
    my $new = req(GET => "/api$LIST", $reader)->content;
    my $mem = req(GET => "/nosendfile$LIST", $reader)->content;
    ok($new eq $mem && index($new, "Changed $round") >= 0, "change $round: the new answer, the same bytes as from memory");
}
my $after = answer_files();
ok($after <= $files + 2, "six changes later, the memory files of former answers are closed ($files then $after)");

# a competition is deleted once it has no spot
{
    local $RankingTest::UA = RankingTest::ua(keep_alive => 1);
    my @ids = map { $_->{id} } @{ (decode(req(GET => "/api$LIST", $org)) // {})->{spots} // [] };
    req(DELETE => "/api$LIST$_", $org) for @ids;
}
is(req(DELETE => "/api/competition/$c", $org)->code, 200, 'the competition deleted');
tests_declared_ok(__FILE__);
done_testing();
