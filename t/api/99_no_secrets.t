# No secret, SQL or internal detail leaks into the logs or the answers.  Runs LAST
# (99): it reads t/logs/error_log and t/logs/access_log as the whole run left them.
#
# It creates an editor with a distinctive password (canary) through the admin command
# ($RANKING_ADMIN), logs in with good and bad passwords (wrong-password canary, unknown
# and disabled users, malformed bodies carrying the canary: 400, 413, 415), uses the
# tokens (reads, 404, 405, lane PUTs: a no-op write, 400, 409 (a database constraint
# error, logged at info), 413, 415, 403), an expired and a revoked token, bogus tokens
# and Basic credentials carrying the canary.  Then:
#   - neither log holds an issued token, its SHA-256 hex, a password, a bcrypt hash,
#     Basic credentials, any token-shaped string (43 base64url characters with upper
#     case, lower case and digits: also the tokens of the other test files; client-sent
#     query strings left out) or any 64-hex-digit string; nor SQL text (upper-case
#     SELECT, INSERT INTO, UPDATE ... SET, DELETE FROM, WHERE, PRAGMA, ORDER BY, JOIN)
#     outside what clients sent (request lines, URIs and quoted user names are left
#     out of that scan);
#   - no answer collected here carries a token other than a /connect answer's own, a
#     password, a file path (/work, /tmp, ...; RANKING_SRC, RANKING_DB), SQL keywords or
#     driver text (sqlite, "constraint"), and none is a 5xx (no 503 either);
#   - the database files (ranking.db and its -wal) hold neither token nor password in
#     plain text;
#   - the admin command does not echo the password.
# tests: 71
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Digest::SHA qw(sha256_hex);
use MIME::Base64 qw(encode_base64);
use Test::More;
use Time::HiRes qw(sleep);
use RankingTest;

my $PW = 'Pw-SECRET-canary-123';
my $WRONG = 'Wrong-SECRET-canary-456';
my $USER = "canary$$";
my @COLLECTED;      # [label, HTTP::Response]
my %SECRET;         # text => what it is (must be in no log)
my @TOKENS;         # every token issued here

$SECRET{$PW} = 'the canary password';
$SECRET{$WRONG} = 'the wrong-password canary';

# r(LABEL, EXPECTED STATUS, req() arguments...): one test (the status); the answer is kept
sub r {
    my ($label, $status, @args) = @_;
    my $res = req(@args);
    push @COLLECTED, [$label, $res];
    is($res->code, $status, "$label: $status")
        or diag('body: ' . substr($res->content, 0, 300));
    return $res;
}

# a token from a /connect answer (kept as a secret)
sub token_of {
    my ($res) = @_;
    my $d = decode($res);
    my $t = ref $d eq 'HASH' ? $d->{access_token} : undef;
    if (defined $t) {
        push @TOKENS, $t;
        $SECRET{$t} = 'an issued token';
        $SECRET{ sha256_hex($t) } = 'the SHA-256 of an issued token';
        $SECRET{ uc sha256_hex($t) } = 'the SHA-256 of an issued token (upper case)';
    }
    return $t;
}

# ---------------------------------------------------------------- the canary user

# the admin command is part of every build (t/run-apache-test.sh sets RANKING_ADMIN):
# without it the checks of the password's echo cannot run, and the file fails
ok(defined $ENV{RANKING_ADMIN} && -x $ENV{RANKING_ADMIN},
   'RANKING_ADMIN is an executable (' . ($ENV{RANKING_ADMIN} // 'unset') . ')')
    or die "no admin command: build it (tools/ranking-admin)\n";
END { admin('delete', $USER) if $ENV{RANKING_ADMIN} && -x $ENV{RANKING_ADMIN} }
{
    my ($rc, $out) = admin({ stdin => "$PW\n" }, 'add', $USER, '--role', 'editor');
    is($rc, 0, "ranking-admin add $USER --role editor (password on stdin)") or diag($out);
    ok(index($out, $PW) < 0, 'the admin command does not echo the password') or diag($out);
}

# ---------------------------------------------------------------- logins

my $CONNECT = sub { { client_id => $_[0], client_secret => $_[1] } };
my $T1 = token_of(r('canary login on /api', 200, POST => '/api/connect', undef, $CONNECT->($USER, $PW)));
my $T2 = token_of(r('canary login on /a', 200, POST => '/a/connect', undef, $CONNECT->($USER, $PW)));
my $T3 = token_of(r('canary login on /b', 200, POST => '/b/connect', undef, $CONNECT->($USER, $PW)));
my $T4 = token_of(r('demo login', 200, POST => '/api/connect', undef, $CONNECT->('demo', 'demo')));
my $T5 = token_of(r('judge login', 200, POST => '/api/connect', undef, $CONNECT->('judge', 'judge')));
my $T6 = token_of(r('canary login on /short (2 s tokens)', 200, POST => '/short/connect', undef,
                    $CONNECT->($USER, $PW)));
ok(6 == grep({ defined } $T1, $T2, $T3, $T4, $T5, $T6), 'six tokens issued') or BAIL_OUT('logins failed');

r('canary, wrong password', 401, POST => '/api/connect', undef, $CONNECT->($USER, $WRONG));
r('unknown user with the canary password', 401, POST => '/api/connect', undef, $CONNECT->("nosuch$$", $PW));
r('disabled user with the canary password', 401, POST => '/api/connect', undef, $CONNECT->('retired', $PW));
r('demo with the wrong-password canary', 401, POST => '/api/connect', undef, $CONNECT->('demo', $WRONG));
r('canary user name in upper case', 401, POST => '/api/connect', undef, $CONNECT->(uc $USER, $PW));
r('canary login, trailing comma', 400, POST => '/api/connect', undef,
  qq({"client_id":"$USER","client_secret":"$PW",}));
r('canary login, duplicate key', 400, POST => '/api/connect', undef,
  qq({"client_id":"$USER","client_secret":"$PW","client_secret":"$PW"}));
r('canary login, password in an array', 400, POST => '/api/connect', undef,
  qq({"client_id":"$USER","client_secret":["$PW"]}));
r('canary login, trailing garbage', 400, POST => '/api/connect', undef,
  qq({"client_id":"$USER","client_secret":"$PW"} $PW));
r('canary login, invalid UTF-8', 400, POST => '/api/connect', undef,
  qq({"client_id":"$USER","client_secret":"$PW\xff"}));
r('canary login, password too long', 400, POST => '/api/connect', undef,
  $CONNECT->($USER, $PW x 60));
r('canary login, text/plain', 415, POST => '/api/connect', undef, $CONNECT->($USER, $PW),
  { 'Content-Type' => 'text/plain' });
r('canary login, 70000-byte body', 413, POST => '/api/connect', undef,
  $CONNECT->($USER, $PW x 3500));
r('canary login on /small (64-byte bodies)', 413, POST => '/small/connect', undef,
  $CONNECT->($USER, "$PW$PW$PW"));

# ---------------------------------------------------------------- token use

my $BOGUS = substr('Zq9CanaryBogusTokenSECRET7xY' . ('k4M' x 10), 0, 43);
$SECRET{$BOGUS} = 'a bogus token sent by the client';
my $BASIC = encode_base64("$USER:$PW", '');
$SECRET{$BASIC} = 'Basic credentials carrying the canary';
(my $ALTERED = $T1) =~ s/.$/$& eq 'A' ? 'B' : 'A'/e;
$SECRET{$ALTERED} = 'an altered token sent by the client';

my $LANES = '/api/competition/2/zone/26/heat/253/voie/';
my $list = decode(r('canary token: the lanes of heat 253', 200, GET => $LANES, $T1)) // {};
my @lanes = @{ $list->{voies} || [] };
my ($L) = @lanes;
my ($O) = grep { defined $_->{spot_id} && $_->{id} ne ($L->{id} // '') } @lanes;
ok($L && $O, 'two lanes of heat 253 (one with a spot)') or BAIL_OUT('competition 2 has no lanes');
my $V = "$LANES$L->{id}";

r('canary token: competitions', 200, GET => '/api/competition/', $T1);
r('canary token: HEAD competition 1', 200, HEAD => '/api/competition/1', $T1);
r('canary token on /a: a zone', 200, GET => '/a/competition/1/zone/21', $T2);
r('canary token on /b: a line', 200, GET => '/b/competition/1/heat/202/line/1001', $T3);
r('demo token: a wod', 200, GET => '/api/competition/1/wod/13', $T4);
r('canary token: unknown route', 404, GET => '/api/nowhere/at/all', $T1);
r('canary token: unknown competition', 404, GET => '/api/competition/999999', $T1);
r('canary token: PUT on a competition', 405, PUT => '/api/competition/1', $T1);
r('OPTIONS', 204, OPTIONS => '/api/competition/1', undef);
r('bogus token', 401, GET => '/api/competition/1', $BOGUS);
r('altered canary token', 401, GET => '/api/competition/1', $ALTERED);
r('Basic credentials with the canary password', 401, GET => '/api/competition/1', undef, undef,
  { Authorization => "Basic $BASIC" });
r('the password as a bearer token', 401, GET => '/api/competition/1', undef, undef,
  { Authorization => "Bearer $PW" });

r('canary PUT: a no-op write (the same score)', 200, PUT => $V, $T1, { score => $L->{score} });
r('canary PUT: score too long', 400, PUT => $V, $T1, { score => 'x' x 65 });
r('canary PUT: unknown key', 400, PUT => $V, $T1, '{"secret":"' . $PW . '"}');
r('canary PUT: number used by another lane (409)', 409, PUT => $V, $T1, { number => $O->{number} });
r('canary PUT: spot in another lane (409)', 409, PUT => $V, $T1, { spot_id => $O->{spot_id} });
r('canary PUT: text/plain', 415, PUT => $V, $T1, '{"score":"1"}', { 'Content-Type' => 'text/plain' });
r('canary PUT: 70000 bytes', 413, PUT => $V, $T1, { score => 'x' x 70000 });
r('canary PUT: missing lane', 404, PUT => "${LANES}999999999", $T1, { score => '1' });
r('canary DELETE: missing lane', 404, DELETE => "${LANES}999999999", $T1);
r('demo PUT (reader): 403', 403, PUT => $V, $T4, { score => '1' });
my $after = decode(req(GET => $V, $T4)) // {};
is(json_cmp($after->{voie}, $L), undef, "lane $L->{id} unchanged by the refused writes and the no-op");

# expired and revoked tokens
sleep 3.2;
r('expired /short token', 401, GET => '/short/competition/1', $T6);
{
    my ($rc, $out) = admin('revoke', $USER);
    is($rc, 0, "ranking-admin revoke $USER") or diag($out);
}
r('revoked canary token', 401, GET => '/api/competition/1', $T1);
r('revoked canary token on /b', 401, GET => '/b/competition/1', $T3);

# ---------------------------------------------------------------- the answers

my $SRC = $ENV{RANKING_SRC} // '';
my $DB = $ENV{RANKING_DB} // '';
my $path_re = qr{/(?:work|tmp|home|root|usr|var|etc|opt|srv|proc)/};
my $sql_re = qr/\b(?:SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WHERE|PRAGMA|ORDER\s+BY|JOIN)\b/;
{
    my @bad;
    my $n5xx = 0;
    for my $c (@COLLECTED) {
        my ($label, $res) = @$c;
        my $h = join "\n", map { my $k = $_; map { "$k: $_" } $res->header($k) }
                           grep { !/^Client-/i } $res->header_field_names;
        my $text = "$h\n\n" . $res->content;
        my $own = $res->request && $res->request->uri->path =~ m{/connect$} && $res->code == 200
                  ? (decode($res) // {})->{access_token} // '' : '';
        $n5xx++ if $res->code >= 500;
        for my $t (@TOKENS, $BOGUS, $ALTERED) {
            push @bad, "$label: carries a token" if $t ne $own && index($text, $t) >= 0;
        }
        for my $s ($PW, $WRONG, $BASIC) {
            push @bad, "$label: carries $SECRET{$s}" if index($text, $s) >= 0;
        }
        push @bad, "$label: carries a file path ($1)" if $text =~ m{($path_re\S*)};
        push @bad, "$label: carries RANKING_SRC" if length $SRC && index($text, $SRC) >= 0;
        push @bad, "$label: carries RANKING_DB" if length $DB && index($text, $DB) >= 0;
        push @bad, "$label: carries SQL ($1)" if $text =~ /($sql_re)/;
        push @bad, "$label: carries database driver text ($1)" if $text =~ /(sqlite|constraint|apr_dbd|\$2[aby]\$)/i;
    }
    is($n5xx, 0, 'no answer collected here is a 5xx (no 503 either)');
    ok(!@bad, 'no answer collected here (' . scalar(@COLLECTED) . ') carries a foreign token, a password, '
       . 'a path, SQL or driver text') or diag(join("\n", @bad));
}

# ---------------------------------------------------------------- the logs

# wait for the access log to hold the last request
my $marker = "/api/competition/3?last-of-99-$$";
req(GET => $marker, $T4);
my $logs = t_logs();
for (1 .. 50) {
    my $ok = 0;
    if (open my $fh, '<', "$logs/access_log") {
        while (<$fh>) { $ok = 1 if index($_, $marker) >= 0 }
        close $fh;
    }
    last if $ok;
    sleep 0.1;
}
sleep 0.3;

sub slurp {
    my ($file) = @_;
    open my $fh, '<:raw', $file or return undef;
    local $/;
    my $t = <$fh>;
    close $fh;
    return $t // '';
}

for my $log (qw(error_log access_log)) {
    my $text = slurp("$logs/$log");
    ok(defined $text && length $text, "$log read (" . length($text // '') . ' bytes)');
    $text //= '';
    my @found = map { $SECRET{$_} } grep { index($text, $_) >= 0 } sort keys %SECRET;
    ok(!@found, "$log: no issued token, SHA-256 of a token, password or client-sent secret")
        or diag(join("\n", map { "$log holds $_" } @found));
    # (query strings are the client's: a client that puts its token in the URL, as
    # 80_catalogue.t does on purpose, has it logged like any URL)
    (my $scan = $text) =~ s/\?[^"\s]*//g;
    my @shaped = grep { /[A-Z]/ && /[a-z]/ && /[0-9]/ }
                 $scan =~ /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/g;
    ok(!@shaped, "$log: no token-shaped string (43 base64url characters)")
        or diag(join("\n", map { "$log: " . substr($_, 0, 6) . '... (43 characters)' } @shaped[0 .. ($#shaped > 4 ? 4 : $#shaped)]));
    my @hex = $text =~ /(?<![0-9A-Fa-f])([0-9A-Fa-f]{64})(?![0-9A-Fa-f])/g;
    ok(!@hex, "$log: no 64-hex-digit string (a token's SHA-256)")
        or diag(join("\n", map { "$log: " . substr($_, 0, 8) . '...' } @hex[0 .. ($#hex > 4 ? 4 : $#hex)]));
    ok($text !~ /\$2[aby]\$\d\d\$/, "$log: no bcrypt hash");
    # SQL: leave out what clients sent (quoted request lines and user names, URIs)
    my @sql;
    for my $line (split /\n/, $text) {
        (my $l = $line) =~ s/"(?:[^"\\]|\\.)*"//g;
        $l =~ s{\S*/\S*}{}g;
        push @sql, $line if $l =~ $sql_re;
    }
    ok(!@sql, "$log: no SQL text (SELECT, INSERT INTO, UPDATE .. SET, DELETE FROM, WHERE, PRAGMA, ...)")
        or diag(join("\n", map { "$log: " . substr($_, 0, 300) } @sql[0 .. ($#sql > 9 ? 9 : $#sql)]));
}

# the database keeps no token and no password in plain text (the SQLite files, or a
# dump of the PostgreSQL database)
{
    my $bytes = ($ENV{RANKING_DBD_DRIVER} // 'sqlite3') eq 'pgsql'
        ? scalar `pg_dump --data-only -d '$DB' 2>/dev/null`
        : join '', map { slurp($_) // '' } grep { -f } ($DB, "$DB-wal");
    $bytes //= '';
    ok(length $bytes, 'database contents read (' . length($bytes) . ' bytes)');
    my @found = map { $SECRET{$_} } grep { index($bytes, $_) >= 0 } (@TOKENS, $PW, $WRONG);
    ok(!@found, 'the database files hold no token and no password in plain text')
        or diag(join("\n", map { "database holds $_" } @found));
}

# the "# tests: N" line above is the number of tests this file runs
{
    tests_declared_ok(__FILE__);
}

done_testing();
