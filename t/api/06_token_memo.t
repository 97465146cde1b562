# The token check remembered per connection (mod_ranking_auth.c: a keep-alive client
# sends the same Authorization header on every request, and a request that repeats it
# takes the last check's result): on one connection, every request below must get what
# a connection of its own would get.  Another token on the same connection is that
# token's user and role (and back again); a token revoked, a user disabled or a token
# expired is refused on the connection that used it a moment before; a damaged token
# after a good one is refused; a token on another competition's path is checked
# against that competition.  Every request goes on one socket, kept alive (a closed
# connection fails the test).
# tests: 21 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use IO::Socket::INET;
use JSON::PP;
use Time::HiRes qw(sleep);
use RankingTest;

ok(defined $ENV{RANKING_ADMIN} && -x $ENV{RANKING_ADMIN},
   'RANKING_ADMIN is an executable (' . ($ENV{RANKING_ADMIN} // 'unset') . ')')
    or die "no admin command: build it (tools/ranking-admin)\n";

my ($host, $port) = base_url() =~ m{^http://([^:/]+):(\d+)} or die "base url\n";
my $sock = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => 'tcp')
    or die "connect $host:$port: $!\n";
my $sent = 0;

# One request on the socket: (status, decoded JSON body or undef, WWW-Authenticate).
sub on_conn {
    my ($method, $path, $tok, $body) = @_;
    my $req = "$method $path HTTP/1.1\r\nHost: $host:$port\r\n";
    $req .= "Authorization: Bearer $tok\r\n" if defined $tok;
    if (defined $body) {
        $req .= "Content-Type: application/json\r\nContent-Length: " . length($body) . "\r\n";
    }
    $req .= "\r\n" . ($body // '');
    $sent++;
    my ($status, $head, $got) = kept_alive($sock, $req, "request $sent ($method $path)");
    die "request $sent: the server closes the connection\n" if $head =~ /^Connection:\s*close/mi;
    my ($www) = $head =~ /^WWW-Authenticate:\s*([^\r\n]*)/mi;
    my $json = eval { JSON::PP->new->decode($got) };
    diag("request $sent ($method $path): $head$got") if $ENV{MEMO_DEBUG};
    return ($status, $json, $www);
}

# a lane that does not exist: an editor's PUT is a 404, a reader's a 403 (the role is
# checked first); neither changes data nor closes the connection (a 400 would)
my $lane = '/api/competition/2/zone/26/heat/253/voie/999999';
my $demo = login('demo', 'demo');
my $judge = login('judge', 'judge');
ok(defined $demo && defined $judge, 'a reader and an editor log in');

# the same token, three times: the same answer each time
my @codes = map { (on_conn(GET => '/api/competition/1', $demo))[0] } 1 .. 3;
is("@codes", '200 200 200', "a reader's token, three times on one connection");

# another token on the same connection is its own user, then back
my ($st, $j) = on_conn(PUT => $lane, $judge, '{"score":"1 kg"}');
is($st, 404, "the editor's token after the reader's: a PUT of no lane is a 404 (an editor)");
($st, $j) = on_conn(PUT => $lane, $demo, '{"score":"1 kg"}');
is($st, 403, "the reader's token again on that connection: the same PUT is a 403");
($st) = on_conn(PUT => $lane, $judge, '{"score":"1 kg"}');
is($st, 404, "and the editor's again: 404");

# a damaged token after a good one
my $bad = $demo;
substr($bad, 5, 1) = substr($bad, 5, 1) eq 'A' ? 'B' : 'A';
my $www;
($st, $j, $www) = on_conn(GET => '/api/competition/1', $bad);
is($st, 401, 'a damaged token after a good one on the connection: 401');
like($www // '', qr/invalid_token/, '... error="invalid_token"');
($st) = on_conn(GET => '/api/competition/1', $demo);
is($st, 200, 'the good one again: 200');

# another competition's path with the same token: checked for that competition
($st) = on_conn(GET => '/api/competition/2', $demo);
is($st, 200, "the same token on another competition's path: 200");
($st) = on_conn(GET => '/api/competition/999999', $demo);
is($st, 404, '... and on a competition that does not exist: 404');

# a token revoked while the connection is open (its last check, just before, was of
# the same request)
($st) = on_conn(GET => '/api/competition/1', $demo);
is($st, 200, 'the token once more before it is revoked: 200');
admin_ok('ranking-admin revoke demo', 'revoke', 'demo');
($st, $j, $www) = on_conn(GET => '/api/competition/1', $demo);
is($st, 401, 'a token revoked after its use on this connection: 401 on it');
like($www // '', qr/invalid_token/, '... error="invalid_token"');
($st) = on_conn(GET => '/api/competition/1', $judge);
is($st, 200, "another user's token on the connection still works");

# a user disabled while the connection is open
my $again = login('demo', 'demo');
($st) = on_conn(GET => '/api/competition/1', $again);
is($st, 200, 'a new token of the user: 200');
my $re_enable = 1;
END { admin('enable', 'demo') if $re_enable }
admin_ok('ranking-admin disable demo', 'disable', 'demo');
($st) = on_conn(GET => '/api/competition/1', $again);
is($st, 401, 'the user disabled after its use on this connection: 401 on it');
admin('enable', 'demo');
$re_enable = 0;

# a token that expires while the connection is open (/short: tokens of 2 seconds)
my $short = login('demo', 'demo', '/short');
($st) = on_conn(GET => '/short/competition/1', $short);
is($st, 200, 'a token of 2 seconds: 200');
sleep 3.2;
($st) = on_conn(GET => '/short/competition/1', $short);
is($st, 401, 'the same token on the same connection once expired: 401');

close $sock;
done_testing();
