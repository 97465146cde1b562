# The same routes through other paths and mounts: the optional trailing slash, HEAD,
# percent-decoding, the mount /deep/mount/v1 (both variants), /a (variant A only:
# variant B routes are 404) and /b (variant B only: variant A and zone routes are 404).
# The leaderboards are common to both variants: every mount serves them, /a and /b
# included (competition 1's, worked out by hand in RankingTest.pm).
# tests: 526 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

my $tok = login('demo', 'demo');
ok(defined $tok, 'demo logs in') or die "cannot log in\n";
my $NF = { status => 'error', message => 'Not found' };
my @routes = read_routes();

# ---- one trailing slash is optional: lists without it, details with it ----
for my $r (@routes) {
    my $p = $r->{path};
    $p = $p =~ m{/$} ? substr($p, 0, -1) : "$p/";
    check_json(req(GET => "/api$p", $tok), 200, $r->{expected}, "GET $p");
}

# ---- HEAD: the headers of GET, no body ----
for my $r (grep { $_->{list} || $_->{path} =~ m{/(1|13|105|21|202|1001)$} } @routes) {
    my $get = req(GET => "/api$r->{path}", $tok);
    my $head = req(HEAD => "/api$r->{path}", $tok);
    my @why;
    push @why, 'status ' . $head->code if $head->code != 200;
    push @why, 'Content-Type ' . ($head->header('Content-Type') // 'none')
        unless ($head->header('Content-Type') // '') =~ m{^application/json\b};
    push @why, 'body of ' . length($head->content) . ' bytes' if length $head->content;
    push @why, 'Content-Length ' . ($head->header('Content-Length') // 'none') . ', GET sends '
        . length($get->content) if defined $head->header('Content-Length')
        && $head->header('Content-Length') != length $get->content;
    ok(!@why, "HEAD $r->{path}") or diag(join '; ', @why);
}

# ---- percent-decoding is httpd's ----
check_json(req(GET => '/api/competition/%31', $tok), 200,
           { status => 'success', competition => $COMP{1} }, '/competition/%31 is /competition/1');
check_json(req(GET => '/api/%63ompetition/1/wod/%31%33', $tok), 200,
           { status => 'success', wod => $WOD{13} }, '/%63ompetition/1/wod/%31%33 is wod 13');

# ---- /deep/mount/v1 serves everything /api does ----
for my $r (@routes) {
    check_json(req(GET => "/deep/mount/v1$r->{path}", $tok), 200, $r->{expected},
               "/deep/mount/v1 GET $r->{path}");
}

# ---- /a: common + variant A; variant B is 404 ----
for my $r (@routes) {
    if ($r->{variant} eq 'B') {
        check_json(req(GET => "/a$r->{path}", $tok), 404, $NF, "/a GET $r->{path}: 404");
    }
    else {
        check_json(req(GET => "/a$r->{path}", $tok), 200, $r->{expected}, "/a GET $r->{path}");
    }
}
# ---- /b: common + variant B; variant A (zones included) is 404 ----
for my $r (@routes) {
    if ($r->{variant} eq 'A') {
        check_json(req(GET => "/b$r->{path}", $tok), 404, $NF, "/b GET $r->{path}: 404");
    }
    else {
        check_json(req(GET => "/b$r->{path}", $tok), 200, $r->{expected}, "/b GET $r->{path}");
    }
}
# a disabled variant is 404 for every method, also OPTIONS
check_json(req(OPTIONS => '/b/competition/1/zone/21/heat/202/voie/1001'), 404, $NF,
           '/b OPTIONS on a voie: 404');
check_json(req(OPTIONS => '/a/competition/1/heat/202/line/1001'), 404, $NF,
           '/a OPTIONS on a line: 404');
is(req(OPTIONS => '/a/competition/1/zone/21/heat/202/voie/1001')->code, 204,
   '/a OPTIONS on a voie: 204');
is(req(OPTIONS => '/b/competition/1/heat/202/line/1001')->code, 204, '/b OPTIONS on a line: 204');

# ---- the leaderboards: on every mount, whatever its variants ----
for my $m ('/b', '/a', '/deep/mount/v1') {
    check_json(req(GET => "$m/competition/1/leaderboard", $tok), 200, lb1_overall(),
               "$m GET /competition/1/leaderboard");
    check_json(req(GET => "$m/competition/1/wod/11/leaderboard/", $tok), 200, lb1_wod(11),
               "$m GET /competition/1/wod/11/leaderboard/");
    check_json(req(GET => "$m/competition/1/wod/12/leaderboard?division=RX", $tok), 200, lb1_wod(12, 'RX'),
               "$m GET /competition/1/wod/12/leaderboard?division=RX");
    my $head = req(HEAD => "$m/competition/1/leaderboard", $tok);
    ok($head->code == 200 && $head->content eq '', "$m HEAD /competition/1/leaderboard: 200, no body")
        or diag($head->status_line);
    my $opt = req(OPTIONS => "$m/competition/1/wod/13/leaderboard");
    ok($opt->code == 204 && ($opt->header('Allow') // '') eq 'GET, HEAD',
       "$m OPTIONS on a leaderboard: 204, Allow: GET, HEAD") or diag($opt->status_line);
    check_json(req(GET => "$m/competition/999999/leaderboard", $tok), 404, $NF,
               "$m GET an unknown competition's leaderboard: 404");
}

done_testing();
