# What httpd itself would otherwise do on a mount, before the module sees a request,
# and where the token is checked:
#  - TRACE is a method like any other on a mount: 401 without a token, a JSON 405
#    with one, never httpd's echo of the request (which would carry the token);
#  - a path longer than the file system allows is a JSON 404 (401 without a token),
#    not httpd's HTML 403 from mapping the URI onto the document root;
#  - the bearer token is checked in the access hook, before the handler (the module
#    says so at LogLevel trace1, which the test configuration sets).
# tests: 13 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $reader = login('demo', 'demo');
ok(defined $reader, 'demo logs in') or die "cannot log in\n";

# ---- TRACE ----
my $res = req(TRACE => '/api/competition/');
check_401($res, 0, 'TRACE without a token');
$res = req(TRACE => '/api/competition/', $reader);
check_405($res, 'GET, HEAD, POST', 'TRACE with a token');
ok(index($res->content, $reader) < 0, 'TRACE does not echo the token');
$res = req(TRACE => '/api/nothing/here', $reader);
check_error($res, 404, 'Not found', 'TRACE on an unknown route of a mount');

# ---- very long paths ----
my $long = '/api/competition/' . ('x' x 7900);
check_error(req(GET => $long, $reader), 404, 'Not found', 'a 7900-character path with a token');
check_401(req(GET => $long), 0, 'a 7900-character path without a token');

# ---- the token is checked in the access hook ----
my $mark = "glue-" . $$ . "-" . time;
my $log = t_logs() . '/error_log';
my $before = -s $log // 0;
req(GET => "/api/competition/1?$mark", $reader);
req(GET => "/api/competition/1?$mark");
my $text = '';
if (open my $fh, '<', $log) {
    seek $fh, $before, 0;
    local $/;
    $text = <$fh> // '';
}
like($text, qr/access hook: demo allowed GET COMPETITION/, 'an authorized request passed the access hook');
like($text, qr/access hook: refused GET COMPETITION/, 'a request without a token was refused by the access hook');
unlike($text, qr/handler: token not checked by the access hook/, 'the handler never had to check a token');

done_testing();
