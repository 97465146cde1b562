# Public mounts (issue 18; doc/api.md section 12).  RankingPublic On (mount /public,
# RankingPublicCache 1 2): GET and HEAD of the read routes (lists, details,
# leaderboards) answer without a token, with Cache-Control: public, max-age=1,
# stale-while-revalidate=2 and Vary: Prefer; 304s and long polls work; errors to
# them say no-store; a lane's history, the event stream, writes and other methods
# still need a token (401) and their role (403); a request that carries an
# Authorization header is checked as on any mount (a valid token: the private answer;
# a bad one: 401); RankingPublic Off in a section inside turns it off.
# Behind httpd's mod_cache (mount /pubcache, CacheEnable socache, RankingPublicCache 2
# 30, CORS on): the second read is a HIT served by the cache, with one entry per
# Accept-Encoding and per Origin; an answer to a request with a token is never stored
# nor served to anyone else; a long poll passes the cache; a lane PUT through /api is
# seen there within 2 s.  Bad values of the directives are refused at start-up.
# tests: 113 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use File::Temp ();
use Time::HiRes qw(time sleep);
use Apache::Test ();
use RankingTest;

my $reader = login('demo', 'demo');
my $editor = login('judge', 'judge');
ok(defined $reader && defined $editor, 'demo and judge log in') or die "cannot log in\n";

my $PUBLIC_CC = 'public, max-age=1, stale-while-revalidate=2';
my $CACHED_CC = 'public, max-age=2, stale-while-revalidate=30';
my $O = 'https://scores.example.org';
my $VOIE = $FREE{voie};              # /competition/2/zone/26/heat/258/voie/2029
my $LINE = $FREE{line};
my $HISTORY = "$VOIE/history";

sub vary { return join(', ', $_[0]->header('Vary')) }
sub varies_on { my ($res, $h) = @_; return scalar grep { lc $_ eq lc $h } split /\s*,\s*/, vary($res) }
sub body_of { my $d = decode($_[0]); return $d }

# ---- every read route of competition 1 answers without a token, as /api with one ----
my ($bad, $n) = (0, 0);
for my $rt (read_routes()) {
    next if $rt->{path} =~ m{^/competition/3\b};   # RankingPublic Off there (below)
    my $pub = req(GET => "/public$rt->{path}");
    my $api = req(GET => "/api$rt->{path}", $reader);
    $n++;
    if ($pub->code != 200 || $pub->content ne $api->content
        || ($pub->header('Cache-Control') // '') ne $PUBLIC_CC
        || ($pub->header('ETag') // '') ne ($api->header('ETag') // '')) {
        diag("$rt->{path}: " . $pub->code . ' ' . ($pub->header('Cache-Control') // 'no Cache-Control'));
        $bad++;
    }
}
ok($n > 40 && $bad == 0, "every read route ($n) without a token: 200, the body and ETag of "
   . "/api with a token, Cache-Control: $PUBLIC_CC");

my $res = req(GET => '/public/competition/1/spot/');
is($res->code, 200, 'a list without a token: 200');
is($res->header('Cache-Control'), $PUBLIC_CC, "Cache-Control: $PUBLIC_CC");
ok(varies_on($res, 'Accept-Encoding') && varies_on($res, 'Prefer'), 'Vary: Accept-Encoding and Prefer')
    or diag('Vary: ' . vary($res));
is(scalar(my @v = $res->header('Vary')), 1, 'in one Vary header (a cache may read only the first)')
    or diag('Vary: ' . vary($res));
ok(!defined $res->header('WWW-Authenticate'), 'no WWW-Authenticate');
is($res->header('X-Total-Count'), '9', 'X-Total-Count as on any list');
my $etag = $res->header('ETag');

$res = req(GET => '/public/competition/1/spot/', undef, undef, { 'If-None-Match' => $etag });
is($res->code, 304, 'If-None-Match with the ETag, no token: 304');
is($res->header('Cache-Control'), $PUBLIC_CC, 'the 304 carries the public Cache-Control');

$res = req(HEAD => '/public/competition/1/leaderboard');
ok($res->code == 200 && $res->content eq '', 'HEAD of a leaderboard, no token: 200, no body');
is($res->header('Cache-Control'), $PUBLIC_CC, 'with the public Cache-Control');
for my $p ('/competition/1/leaderboard', '/competition/1/wod/11/leaderboard',
           '/competition/1/leaderboard?division=RX', $LINE, $VOIE, '/competition/2/heat/?limit=2') {
    my $pub = req(GET => "/public$p");
    my $api = req(GET => "/api$p", $reader);
    ok($pub->code == $api->code && $pub->content eq $api->content
       && ($api->code != 200 || ($pub->header('Cache-Control') // '') eq $PUBLIC_CC),
       "GET $p without a token: what /api answers a reader (" . $api->code . ')')
        or diag($pub->code . ' ' . $pub->content);
}
$res = req(GET => '/public/competition/2/spot/', undef, undef, { 'Accept-Encoding' => 'gzip' });
ok($res->code == 200 && ($res->header('Content-Encoding') // '') eq 'gzip'
   && ($res->header('Cache-Control') // '') eq $PUBLIC_CC, 'gzip answers are public too');

# ---- errors of a public read: no-store ----
$res = req(GET => '/public/competition/999999');
check_error($res, 404, 'Not found', 'an unknown competition, no token: 404');
is($res->header('Cache-Control'), 'no-store', 'Cache-Control: no-store');
$res = req(GET => '/public/nothing/here');
check_error($res, 404, 'Not found', 'a path that is no route, no token: 404 (not 401)');
is($res->header('Cache-Control'), 'no-store', 'no-store');
$res = req(GET => '/public/competition/1/spot/?limit=0');
check_error($res, 400, 'Invalid query', 'a bad query, no token: 400');
is($res->header('Cache-Control'), 'no-store', 'no-store');
$res = req(GET => '/public/competition/1/spot/', undef, undef, { 'Accept-Encoding' => 'identity;q=0' });
is($res->code, 406, 'no acceptable coding: 406');
is($res->header('Cache-Control'), 'no-store', 'no-store');

# ---- what stays closed ----
check_401(req(GET => "/public$HISTORY"), 0, "a lane's history without a token");
is(req(GET => "/public$HISTORY")->header('Cache-Control'), 'private, no-cache',
   'its 401: private, no-cache');
# spectators live (API.md part 3): the event stream needs no token either (its
# published view: t/api/77_publication.t); HEAD answers its head
{
    my $res = req(HEAD => '/public/competition/2/events', undef, undef, { Accept => 'text/event-stream' });
    is($res->code, 200, 'the event stream without a token: 200 (spectators live)');
    like($res->header('Content-Type') // '', qr{^text/event-stream}, '... text/event-stream');
}
check_401(req(PUT => "/public$VOIE", undef, { score => 'x' }), 0, 'PUT without a token');
check_401(req(DELETE => "/public$VOIE"), 0, 'DELETE without a token');
check_401(req(POST => '/public/competition/'), 0, 'POST on a read route without a token (token first)');
check_401(req(PATCH => '/public/competition/1'), 0, 'PATCH without a token');
check_401(req(PUT => '/public/nothing/here', undef, { score => 'x' }), 0, 'PUT on no route without a token');
check_error(req(PUT => "/public$VOIE", $reader, { score => 'x' }), 403, 'Forbidden',
            "a reader's PUT: 403");
check_error(req(GET => "/public$HISTORY", $reader), 403, 'Forbidden', "a reader's history: 403");
$res = req(PUT => "/public$VOIE", $editor, { score => 'public mount' });
is($res->code, 200, "an editor's PUT: 200");
is($res->header('Cache-Control'), 'private, no-cache', 'private, no-cache');
$res = req(GET => "/public$HISTORY", $editor);
is($res->code, 200, "an editor's history: 200");
$res = req(OPTIONS => "/public$VOIE");
ok($res->code == 204 && !defined $res->header('Cache-Control'), 'OPTIONS: 204, no Cache-Control');
ok(defined login('demo', 'demo', '/public'), '/connect on a public mount');

# ---- a request with Authorization is checked as on any mount ----
$res = req(GET => '/public/competition/1', $reader);
is($res->code, 200, 'a valid token: 200');
is($res->header('Cache-Control'), 'private, no-cache', 'the private answer');
ok(!varies_on($res, 'Prefer'), 'without Vary: Prefer');
check_401(req(GET => '/public/competition/1', 'x' x 43), 1, 'an unknown token');
check_401(req(GET => '/public/competition/1', undef, undef, { Authorization => 'Bearer a b' }), 1,
          'a malformed token');
check_401(req(GET => '/public/competition/1', undef, undef, { Authorization => 'Basic ZGVtbzpkZW1v' }), 0,
          'another scheme');
check_401(req(GET => '/public/competition/1', undef, undef, { Authorization => '' }), 0,
          'an empty Authorization header');

# ---- RankingPublic Off in a section inside ----
check_401(req(GET => '/public/competition/3'), 0, 'under a section with RankingPublic Off');
is(req(GET => '/public/competition/3', $reader)->code, 200, 'there, with a token: 200');
is(req(GET => '/api/competition/1')->code, 401, 'a mount without RankingPublic: 401 as before');

# ---- long polls without a token ----
$res = req(GET => $VOIE =~ s{^}{/public}r);
my $lane_etag = $res->header('ETag');
my $t0 = time;
$res = req(GET => "/public$VOIE", undef, undef, { 'If-None-Match' => $lane_etag, Prefer => 'wait=1' });
my $took = time - $t0;
ok($res->code == 304 && $took >= 0.8, sprintf('a long poll without a token waits: 304 after %.1f s', $took));
is($res->header('Preference-Applied'), 'wait=1', 'Preference-Applied: wait=1');
is($res->header('Cache-Control'), 'no-store', 'a long poll is not stored by caches');
my @r = run_parallel(
    sub {
        my $t = time;
        my $r = req(GET => "/public$VOIE", undef, undef, { 'If-None-Match' => $lane_etag, Prefer => 'wait=20' });
        return { code => $r->code, took => time - $t, score => (decode($r) // {})->{voie}{score} };
    },
    sub { sleep 0.7; return { code => req(PUT => "/api$VOIE", $editor, { score => 'woken' })->code } });
ok($r[0]{code} == 200 && $r[0]{took} < 10 && ($r[0]{score} // '') eq 'woken',
   sprintf('a change wakes it: %s after %.1f s', $r[0]{code} // '?', $r[0]{took} // -1))
    or diag(explain(\@r));

# ---- behind mod_cache ----
sub xcache { return $_[0]->header('X-Cache') // 'none' }
sub hit { return xcache($_[0]) =~ /^HIT/ }

# a URL that nobody read through the cache yet
my $LIST = '/pubcache/competition/2/spot/?fresh=' . int(time * 1000);
$res = req(GET => $LIST);
is($res->code, 200, 'through the cache, no token: 200');
is($res->header('Cache-Control'), $CACHED_CC, "Cache-Control: $CACHED_CC");
ok(!hit($res), 'the first read is not a hit (' . xcache($res) . ')');
my ($body, $tag) = ($res->content, $res->header('ETag'));
$res = req(GET => $LIST);
ok(hit($res), 'the second is a HIT served by the cache (' . xcache($res) . ')')
    or diag('X-Cache-Detail: ' . ($res->header('X-Cache-Detail') // 'none'));
like($res->header('X-Cache-Detail') // '', qr/cache hit/, 'X-Cache-Detail: cache hit');
ok($res->content eq $body && ($res->header('ETag') // '') eq $tag, 'the same body and ETag');
$res = req(GET => $LIST, undef, undef, { 'If-None-Match' => $tag });
ok($res->code == 304 && hit($res), 'If-None-Match: 304 from the cache');

# Accept-Encoding: an entry per coding
$res = req(GET => $LIST, undef, undef, { 'Accept-Encoding' => 'gzip' });
ok(!hit($res) && ($res->header('Content-Encoding') // '') eq 'gzip',
   'Accept-Encoding: gzip: not the plain entry, gzip from the module (' . xcache($res) . ')');
my $gz = $res->content;
$res = req(GET => $LIST, undef, undef, { 'Accept-Encoding' => 'gzip' });
ok(hit($res) && ($res->header('Content-Encoding') // '') eq 'gzip' && $res->content eq $gz,
   'again: the gzip entry, a HIT');
$res = req(GET => $LIST);
ok(hit($res) && !defined $res->header('Content-Encoding') && $res->content eq $body,
   'without Accept-Encoding: the plain entry, a HIT');

# Origin (CORS): an entry per origin
my $L2 = '/pubcache/competition/2/wod/?fresh=' . int(time * 1000);
$res = req(GET => $L2, undef, undef, { Origin => $O });
ok(!hit($res) && ($res->header('Access-Control-Allow-Origin') // '') eq $O, "Origin $O: miss, its ACAO");
ok(varies_on($res, 'Origin') && varies_on($res, 'Accept-Encoding') && varies_on($res, 'Prefer')
   && scalar(my @vv = $res->header('Vary')) == 1, 'one Vary: Origin, Accept-Encoding, Prefer')
    or diag('Vary: ' . vary($res));
$res = req(GET => $L2, undef, undef, { Origin => $O });
ok(hit($res) && ($res->header('Access-Control-Allow-Origin') // '') eq $O, 'again: a HIT with its ACAO');
$res = req(GET => $L2, undef, undef, { Origin => 'http://localhost:8080' });
is($res->header('Access-Control-Allow-Origin'), 'http://localhost:8080',
   'another listed origin: its own ACAO, never the first one\'s (' . xcache($res) . ')');
$res = req(GET => $L2, undef, undef, { Origin => 'https://evil.example' });
ok(!defined $res->header('Access-Control-Allow-Origin'), 'an origin not listed: no ACAO');
$res = req(GET => $L2);
ok(!defined $res->header('Access-Control-Allow-Origin'), 'no Origin: no ACAO');

# an answer to a request with a token is neither stored nor served to anyone else
my $P = '/pubcache/competition/2/zone/?fresh=' . int(time * 1000);
for (1 .. 2) {
    $res = req(GET => $P, $reader);
    ok($res->code == 200 && !hit($res) && ($res->header('Cache-Control') // '') eq 'private, no-cache',
       "with a token ($_): the private answer from the module (" . xcache($res) . ')');
}
$res = req(GET => $P);
ok($res->code == 200 && !hit($res) && ($res->header('Cache-Control') // '') eq $CACHED_CC,
   'then without a token: not from the cache (the private answer was not stored) (' . xcache($res) . ')');
$res = req(GET => $P);
ok(hit($res), 'then the public answer is (' . xcache($res) . ')');
$res = req(GET => $P, $reader);
ok($res->code == 200 && !hit($res) && ($res->header('Cache-Control') // '') eq 'private, no-cache',
   'a token still gets the private answer from the module, not the cached public one');
check_401(req(GET => $P, 'x' x 43), 1, 'a bad token on a cached URL: 401 from the module');

# errors are not stored
for (1 .. 2) {
    $res = req(GET => '/pubcache/competition/999999');
    ok($res->code == 404 && !hit($res) && ($res->header('Cache-Control') // '') eq 'no-store',
       "a 404 ($_): no-store, never from the cache");
}

# a long poll passes the cache (Vary: Prefer, and its answers are not stored)
$res = req(GET => $LIST);
$tag = $res->header('ETag');
$t0 = time;
$res = req(GET => $LIST, undef, undef, { 'If-None-Match' => $tag, Prefer => 'wait=1' });
$took = time - $t0;
ok($res->code == 304 && $took >= 0.8 && ($res->header('Preference-Applied') // '') eq 'wait=1',
   sprintf('a long poll through the cache reaches the module: 304 after %.1f s (%s)', $took, xcache($res)));

# a lane PUT is seen through the cache within max-age (2 s)
my $PV = "/pubcache$VOIE";
req(GET => $PV);
$res = req(GET => $PV);
ok(hit($res), 'the lane, read twice: a HIT') or diag(xcache($res));
is((decode($res) // {})->{voie}{score}, 'woken', 'with the score as it was');
$res = req(PUT => "/api$VOIE", $editor, { score => 'seen through the cache' });
is($res->code, 200, 'a lane PUT through /api (another mount, the same database)');
$t0 = time;
my $seen;
while (time - $t0 < 6) {
    $res = req(GET => $PV);
    if ((decode($res) // {})->{voie}{score} eq 'seen through the cache') { $seen = time - $t0; last }
    sleep 0.1;
}
ok(defined $seen && $seen <= 3, sprintf('the cached read shows the new score after %s s (max-age 2)',
                                        defined $seen ? sprintf('%.1f', $seen) : 'never'));
$res = req(GET => $PV);
ok(hit($res), 'and is cached again (' . xcache($res) . ')');

# put the lane back as it was (empty)
is(req(PUT => "/api$VOIE", $editor, { score => undef })->code, 200, 'lane 2029 put back');

# ---- configuration: bad values are refused at start-up ----
my $so = "$FindBin::Bin/../modules/mod_ranking.so";
my $moddir = `apxs -q LIBEXECDIR`;
chomp $moddir;
for my $case (['RankingPublic yes', 0, 'RankingPublic'], ['RankingPublic On', 1],
              ['RankingPublic Off', 1], ['RankingPublicCache', 0, 'RankingPublicCache'],
              ['RankingPublicCache -1', 0, 'MAXAGE'], ['RankingPublicCache 86401', 0, 'MAXAGE'],
              ['RankingPublicCache 5s', 0, 'MAXAGE'], ['RankingPublicCache 5 x', 0, 'STALE'],
              ['RankingPublicCache 5 86401', 0, 'STALE'], ['RankingPublicCache 1 2 3', 0, 'RankingPublicCache'],
              ['RankingPublicCache 0 0', 1], ['RankingPublicCache 86400', 1]) {
    my ($line, $ok, $word) = @$case;
    my $conf = File::Temp->new(SUFFIX => '.conf');
    print {$conf} "ServerRoot /tmp\nServerName localhost\nListen 127.0.0.1:1\nErrorLog /dev/stderr\n"
        . "LoadModule mpm_event_module $moddir/mod_mpm_event.so\n"
        . "LoadModule dbd_module $moddir/mod_dbd.so\n"
        . "LoadModule socache_shmcb_module $moddir/mod_socache_shmcb.so\nLoadModule ranking_module $so\n"
        . "<Location /x>\n SetHandler ranking\n $line\n</Location>\n";
    close $conf;
    my $httpd = Apache::Test::vars('httpd') || 'apache2';
    my $out = `$httpd -t -f $conf 2>&1`;
    if ($ok) {
        is($?, 0, "$line: accepted") or diag($out);
    }
    else {
        ok($? != 0 && $out =~ /\Q$word\E/, "$line: refused, the message names $word") or diag($out);
    }
}

tests_declared_ok(__FILE__);
done_testing();
