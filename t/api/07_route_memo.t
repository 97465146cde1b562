# The route remembered per connection (mod_ranking_request.c: a keep-alive client that
# asks the same path again has it parsed once): on one connection, every request
# below must get what a connection of its own would get.  The same path under mounts
# of other variants (/a: A only, /b: B only) is that mount's route; paths of the same
# length with other ids are those ids' answers; a path too long to be remembered, then
# a short one; a path that is no route between two that are.  Every request goes on
# one socket, kept alive (a closed connection fails the test).
# tests: 16 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use IO::Socket::INET;
use JSON::PP;
use RankingTest;

my ($host, $port) = base_url() =~ m{^http://([^:/]+):(\d+)} or die "base url\n";
my $tok = login('demo', 'demo');
ok(defined $tok, 'demo logs in') or die "cannot log in\n";
my $sock = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => 'tcp')
    or die "connect $host:$port: $!\n";
my $sent = 0;

# GET PATH on the socket: (status, decoded JSON body or undef)
sub get_on_conn {
    my ($path) = @_;
    $sent++;
    my ($status, undef, $body) = kept_alive(
        $sock, "GET $path HTTP/1.1\r\nHost: $host:$port\r\nAuthorization: Bearer $tok\r\n\r\n",
        "request $sent (GET $path)");
    return ($status, eval { JSON::PP->new->decode($body) });
}

# the ids of a list's elements (KEY: its plural), or of one resource (KEY: its name)
sub ids_of {
    my ($json, $key) = @_;
    my $v = $json && $json->{$key};
    return ref $v eq 'ARRAY' ? join(',', map { $_->{id} } @$v) : ref $v eq 'HASH' ? $v->{id} : undef;
}

my ($st, $j);
# the same path on the A mount, the B mount, then A again: each mount's route
my $voies = '/competition/1/zone/21/heat/201/voie/';
($st, $j) = get_on_conn("/a$voies");
is($st, 200, "GET /a$voies: 200 (variant A)");
my $first = ids_of($j, 'voies');
ok(defined $first && length $first, 'the voies of heat 201: ' . ($first // 'none'));
($st) = get_on_conn("/b$voies");
is($st, 404, "the same path on /b (variant B only): 404");
($st, $j) = get_on_conn("/a$voies");
is("$st " . (ids_of($j, 'voies') // ''), "200 $first", 'then on /a again: the same voies');
($st) = get_on_conn("/a$voies");
is($st, 200, 'and once more on /a (the path repeated): 200');

# variant B's path on B, then on A
my $lines = '/competition/1/heat/201/line/';
($st, $j) = get_on_conn("/b$lines");
is("$st " . (ids_of($j, 'lines') // ''), "200 $first", "GET /b$lines: the same lanes as lines");
($st) = get_on_conn("/a$lines");
is($st, 404, 'the same path on /a (variant A only): 404');

# paths of the same length, other ids: each its own resource
for my $id (1, 2, 1, 1, 3) {
    ($st, $j) = get_on_conn("/api/competition/$id");
    is("$st " . (ids_of($j, 'competition') // ''), "200 $id", "GET /api/competition/$id on the connection");
}

# a path too long to be remembered (404: no route), then the short one again
($st) = get_on_conn('/api/competition/1/' . ('x' x 120));
is($st, 404, 'a path of 139 characters: 404');
($st, $j) = get_on_conn('/api/competition/2');
is("$st " . (ids_of($j, 'competition') // ''), '200 2', 'then /api/competition/2: competition 2');
($st) = get_on_conn('/api/competition/2/nothing');
is($st, 404, 'a path that is no route after it: 404');

close $sock;
done_testing();
