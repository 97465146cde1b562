# The authenticated user is httpd's r->user: the access log (%u of the common log
# format Apache::Test configures) names the token's user; refused requests show "-".
# tests: 13 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use Time::HiRes qw(sleep);
use RankingTest;

my $log = t_logs() . '/access_log';
ok(-f $log, "access log $log exists");

# the last access-log line for REQUEST_LINE ("GET /path HTTP/1.1"), waiting for it
sub log_line {
    my ($request_line) = @_;
    for (1 .. 50) {
        open my $fh, '<', $log or return undef;
        my $found;
        while (<$fh>) { $found = $_ if index($_, qq("$request_line")) >= 0 }
        close $fh;
        return $found if $found;
        sleep 0.1;
    }
    return undef;
}

# common log format: host ident user [time] "request" status bytes
sub log_user { my ($l) = @_; return defined $l && $l =~ /^\S+ \S+ (\S+) \[/ ? $1 : undef }

my $demo = login('demo', 'demo');
my $judge = login('judge', 'judge');
my $n = int(rand 1e6);

is(req(GET => "/api/competition/3?demo$n", $demo)->code, 200, 'GET as demo');
is(log_user(log_line("GET /api/competition/3?demo$n HTTP/1.1")), 'demo', 'access log: user demo');
is(req(HEAD => "/api/competition/3?judge$n", $judge)->code, 200, 'HEAD as judge');
is(log_user(log_line("HEAD /api/competition/3?judge$n HTTP/1.1")), 'judge', 'access log: user judge');
is(req(GET => "/api/competition/999?judge$n", $judge)->code, 404, 'a 404 as judge');
is(log_user(log_line("GET /api/competition/999?judge$n HTTP/1.1")), 'judge',
   'access log: user judge on a 404');
is(req(GET => "/api/competition/3?anon$n")->code, 401, 'no token');
is(log_user(log_line("GET /api/competition/3?anon$n HTTP/1.1")), '-', 'access log: no user on a 401');
is(req(GET => "/api/competition/3?bad$n", 'x' x 43)->code, 401, 'unknown token');
is(log_user(log_line("GET /api/competition/3?bad$n HTTP/1.1")), '-',
   'access log: no user for an unknown token');

# the log never holds a token
open my $fh, '<', $log or die "$log: $!";
my $leak = grep { index($_, $demo) >= 0 || index($_, $judge) >= 0 } <$fh>;
close $fh;
is($leak, 0, 'no token in the access log');
open $fh, '<', t_logs() . '/error_log' or die "error_log: $!";
$leak = grep { index($_, $demo) >= 0 || index($_, $judge) >= 0 } <$fh>;
close $fh;
is($leak, 0, 'no token in the error log');

done_testing();
