# Compression (shared API.md Part 2, "Compression"; doc/api.md): with Accept-Encoding
# allowing gzip, an answer of 1 KiB or more is sent gzipped (Content-Encoding: gzip),
# built once per data revision like the plain one, with its own strong ETag; Vary:
# Accept-Encoding on every read answer; 304 for both codings; q values, identity and
# "*" as RFC 9110 reads them (406 when neither coding is acceptable); HEAD; a write
# gives new bytes and ETags for both; a mount with httpd's DEFLATE filter does not
# compress twice.
# tests: 42
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use IO::Uncompress::Gunzip qw(gunzip $GunzipError);
use RankingTest;

my $R = login('demo', 'demo');
my $E = login('judge', 'judge');
ok(defined $R && defined $E, 'demo and judge log in') or die "cannot log in\n";
my $GZ = { 'Accept-Encoding' => 'gzip' };
sub ungz { my ($in, $out) = (shift); gunzip(\$in => \$out) or return undef; return $out }

my $LIST = '/api/competition/2/spot/';   # several KiB
my $plain = req(GET => $LIST, $R);
is($plain->code, 200, 'a list, no Accept-Encoding: 200');
ok(length($plain->content) >= 1024, 'of 1 KiB or more (' . length($plain->content) . ' bytes)');
ok(!defined $plain->header('Content-Encoding'), 'sent as it is');
like($plain->header('Vary') // '', qr/\bAccept-Encoding\b/, 'Vary: Accept-Encoding');
my $etag = $plain->header('ETag');

my $z = req(GET => $LIST, $R, undef, $GZ);
is($z->code, 200, 'Accept-Encoding: gzip: 200');
is($z->header('Content-Encoding'), 'gzip', 'Content-Encoding: gzip');
like($z->header('Vary') // '', qr/\bAccept-Encoding\b/, 'Vary: Accept-Encoding');
my $zetag = $z->header('ETag') // '';
like($zetag, qr/^"[^"]+"$/, 'a strong ETag');
isnt($zetag, $etag, 'not the plain answer\'s');
is($z->header('Content-Length'), length($z->content), 'Content-Length is the gzip length');
ok(length($z->content) < length($plain->content) / 2, 'smaller than half the plain answer');
is(ungz($z->content), $plain->content, 'gunzipped: the plain answer, byte for byte');
is(req(GET => $LIST, $R, undef, $GZ)->content, $z->content, 'the same bytes again (cached)');

# 304s, each coding with its own ETag
is(req(GET => $LIST, $R, undef, { %$GZ, 'If-None-Match' => $zetag })->code, 304, 'gzip ETag, gzip allowed: 304');
is(req(GET => $LIST, $R, undef, { 'If-None-Match' => $etag })->code, 304, 'plain ETag, no Accept-Encoding: 304');
is(req(GET => $LIST, $R, undef, { %$GZ, 'If-None-Match' => $etag })->code, 200, 'plain ETag, gzip allowed: 200 (another coding)');
is(req(GET => $LIST, $R, undef, { 'If-None-Match' => $zetag })->code, 200, 'gzip ETag, no Accept-Encoding: 200');
my $nm = req(GET => $LIST, $R, undef, { %$GZ, 'If-None-Match' => $zetag });
like($nm->header('Vary') // '', qr/\bAccept-Encoding\b/, 'the 304 has Vary too');
is($nm->header('ETag'), $zetag, 'and the gzip ETag');

# HEAD
my $h = req(HEAD => $LIST, $R, undef, $GZ);
ok($h->code == 200 && ($h->header('Content-Encoding') // '') eq 'gzip' && $h->content eq '',
   'HEAD: gzip headers, no body');
is($h->header('Content-Length'), length($z->content), 'HEAD: the gzip length');

# small answers; q values
my $small = req(GET => '/api/competition/1', $R, undef, $GZ);
ok(length($small->content) < 1024 && !defined $small->header('Content-Encoding'),
   'an answer under 1 KiB is sent as it is');
like($small->header('Vary') // '', qr/\bAccept-Encoding\b/, 'with Vary all the same');
for my $c (['gzip;q=0', 0], ['deflate, br', 0], ['*', 1], ['GZIP;q=0.5', 1], ['x-gzip', 1],
           ['gzip;q=0, *', 0], ['identity;q=0.5, gzip;q=0.001', 1]) {
    my $res = req(GET => $LIST, $R, undef, { 'Accept-Encoding' => $c->[0] });
    is(($res->header('Content-Encoding') // 'none') . ' ' . $res->code, ($c->[1] ? 'gzip' : 'none') . ' 200',
       "Accept-Encoding: $c->[0]");
}
my $forced = req(GET => '/api/competition/1', $R, undef, { 'Accept-Encoding' => 'identity;q=0, gzip' });
ok($forced->code == 200 && ($forced->header('Content-Encoding') // '') eq 'gzip'
   && ungz($forced->content) eq $small->content, 'identity refused: even a small answer is gzipped');
my $none = req(GET => $LIST, $R, undef, { 'Accept-Encoding' => 'identity;q=0, gzip;q=0' });
check_error($none, 406, 'Not acceptable', 'no acceptable coding: 406');

# a leaderboard
my $lb = req(GET => '/api/competition/4/leaderboard', $R, undef, $GZ);
is($lb->header('Content-Encoding'), 'gzip', 'a leaderboard: gzip');
is(ungz($lb->content), req(GET => '/api/competition/4/leaderboard', $R)->content, 'the same JSON');

# a write: new bytes and ETags for both codings
my $V = '/api/competition/2/zone/26/heat/255/voie/2017';
my $HL = '/api/competition/2/zone/26/heat/255/voie/';
my $before = req(GET => $HL, $R, undef, $GZ);
is(req(PUT => $V, $E, { score => '99' })->code, 200, 'a lane PUT');
my $after = req(GET => $HL, $R, undef, { %$GZ, 'If-None-Match' => $before->header('ETag') });
is($after->code, 200, 'the old gzip ETag no longer matches');
like(ungz($after->content) // '', qr/"score":"99"/, 'the new gzip bytes hold the write');
is(req(PUT => $V, $E, { score => undef })->code, 200, 'put back');

# httpd's own DEFLATE filter on a mount: nothing compressed twice
my $d = req(GET => '/deflate/competition/2/spot/', $R, undef, $GZ);
is($d->header('Content-Encoding'), 'gzip', 'a DEFLATE mount: gzip once');
is(ungz($d->content), $plain->content, 'one gunzip gives the JSON');

tests_declared_ok(__FILE__);
done_testing();
