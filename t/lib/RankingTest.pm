package RankingTest;
# Shared helpers of the Apache::Test suite (t/api/*.t):
#   - HTTP: base_url, req, login, auth (Authorization header), admin (ranking-admin);
#   - JSON checks: decode, json_cmp (JSON types matter: "1" is not 1), check_json,
#     check_error;
#   - the expected data of competition 1 (and 3), written by hand from sql/demo.sql,
#     and the table of every read route with its expected body (read_routes);
#   - competition 1's leaderboards, worked out by hand (lb1_wod, lb1_overall);
#   - competition 2 (the write competition): its spots' names (%SPOT2) and heat 258,
#     the heat WITHOUT WOD where free-text scores are legal (%FREE, free_lanes).
# The expectations are deliberately NOT computed from the database: they are what a
# client reading the contract (API.md) and the demo data must receive.
use strict;
use Time::HiRes ();
use File::Temp ();
use POSIX ();
use warnings;
use utf8;

use B ();
use Exporter 'import';
use HTTP::Request;
use JSON::PP ();
use LWP::UserAgent;
use Test::More;

use Apache::Test ();
use Apache::TestRequest ();

our @EXPORT = qw(
    base_url ua req raw_http kept_alive login auth admin admin_ok db_exec t_logs
    decode json_cmp check_json check_error check_401 check_405
    %COMP %WOD %SPOT %ZONE %HEAT %LANE
    @COMP_ORDER @WOD_ORDER @SPOT_ORDER @ZONE_ORDER @HEAT_B_ORDER %HEAT_A_ORDER %LANE_ORDER
    read_routes lane_obj heat_obj check_reads tests_declared_ok run_parallel
    lb1_wod lb1_overall %SPOT2 %FREE free_lanes
    WWW_AUTH WWW_AUTH_INVALID
);

use constant WWW_AUTH => 'Bearer realm="ranking"';
use constant WWW_AUTH_INVALID => 'Bearer realm="ranking", error="invalid_token"';

my $JSON = JSON::PP->new->utf8->canonical->allow_nonref;

# diagnostics may hold non-ASCII text (team names)
binmode(Test::More->builder->$_, ':encoding(UTF-8)') for qw(output failure_output todo_output);

# ---------------------------------------------------------------- HTTP

# The server req() talks to: undef for the main server, else the name of a virtual
# host of t/conf/extra.conf.in (<VirtualHost NAME>), e.g. local $RankingTest::VHOST =
# 'ranking_vh2'.
our $VHOST;

sub base_url {
    my $cfg = Apache::Test::config();
    my $hostport = defined $VHOST ? $cfg->{vhosts}{$VHOST}{hostport}
                                  : Apache::TestRequest::hostport($cfg);
    die "no virtual host $VHOST\n" unless defined $hostport;
    return "http://$hostport";
}

sub ua {
    my %o = @_;
    my $ua = LWP::UserAgent->new(timeout => 60, max_redirect => 0,
                                 keep_alive => $o{keep_alive} || 0);
    $ua->agent('mod_ranking-tests/1');
    return $ua;
}

# the user agent of req(); a forked child may set its own: local $RankingTest::UA = ua(...)
our $UA;

# req(METHOD, PATH, TOKEN, BODY, HEADERS) -> HTTP::Response
#   PATH is appended to base_url as is (no escaping: "%2F" stays "%2F").
#   TOKEN: undef (no Authorization header) or the token (sent as "Bearer TOKEN").
#   BODY: undef (no body), a string (of bytes, sent as is; a string of characters is
#   sent UTF-8 encoded), or a reference to a Perl structure sent as JSON.  A body gets "Content-Type: application/json" unless
#   HEADERS holds a Content-Type (undef there means: send none).
#   HEADERS: hash or array reference of more headers (Authorization in it wins).
sub req {
    my ($method, $path, $token, $body, $headers) = @_;
    my @h = ref $headers eq 'HASH' ? %$headers : ref $headers eq 'ARRAY' ? @$headers : ();
    my $r = HTTP::Request->new($method => base_url() . $path);
    my ($ct_given, $auth_given) = (0, 0);
    while (my ($k, $v) = splice @h, 0, 2) {
        $ct_given = 1 if lc $k eq 'content-type';
        $auth_given = 1 if lc $k eq 'authorization';
        $r->push_header($k => $v) if defined $v;
    }
    $r->header(Authorization => "Bearer $token") if defined $token && !$auth_given;
    if (defined $body) {
        $body = $JSON->encode($body) if ref $body;
        utf8::encode($body) if utf8::is_utf8($body);   # characters -> UTF-8 bytes
        $r->content($body);
        $r->header('Content-Length' => length $body);
        $r->header('Content-Type' => 'application/json') unless $ct_given;
    }
    $UA ||= ua();
    return $UA->request($r);
}

# raw_http(BYTES) -> (status, headers hash (lower-case names), body): sends BYTES as is
# on a new connection (for chunked bodies and other things LWP would tidy up).
sub raw_http {
    my ($bytes) = @_;
    require IO::Socket::INET;
    my $hostport = Apache::TestRequest::hostport(Apache::Test::config());
    my $s = IO::Socket::INET->new(PeerAddr => $hostport, Timeout => 30)
        or die "connect $hostport: $!\n";
    binmode $s;
    print {$s} $bytes;
    shutdown($s, 1);
    local $/;
    my $resp = <$s> // '';
    close $s;
    my ($head, $body) = split /\r\n\r\n/, $resp, 2;
    my @lines = split /\r\n/, $head // '';
    my ($status) = (shift(@lines) // '') =~ m{^HTTP/1\.\d (\d{3})};
    my %h;
    for (@lines) { my ($k, $v) = /^([^:]+):\s*(.*)$/ or next; $h{lc $k} = $v }
    return ($status // 0, \%h, $body // '');
}

# kept_alive(SOCKET, BYTES, WHAT) -> (status, head, body): sends the request BYTES on a
# socket kept alive across requests and reads one answer (by its Content-Length);
# dies (naming WHAT) when the connection closes or the answer has no Content-Length.
sub kept_alive {
    my ($sock, $bytes, $what) = @_;
    print {$sock} $bytes or die "$what: cannot send\n";
    my ($buf, $hlen, $want) = ('');
    while (!defined $want || length $buf < $hlen + $want) {
        my $n = sysread($sock, $buf, 65536, length $buf);
        die "$what: the connection was closed\n" unless $n;
        if (!defined $hlen && (my $e = index($buf, "\r\n\r\n")) >= 0) {
            $hlen = $e + 4;
            ($want) = substr($buf, 0, $e) =~ /^Content-Length:\s*(\d+)/mi;
            die "$what: no Content-Length\n" unless defined $want;
        }
    }
    my ($status) = $buf =~ m{^HTTP/1\.1 (\d{3})};
    return ($status, substr($buf, 0, $hlen), substr($buf, $hlen, $want));
}

# t_logs() -> the directory of the server's logs (error_log, access_log)
sub t_logs { return Apache::Test::vars('t_logs') }

# login(USER, PASSWORD[, MOUNT]) -> token (undef, with a diagnostic, on failure)
sub login {
    my ($user, $pass, $mount) = @_;
    $mount //= '/api';
    my $res = req(POST => "$mount/connect", undef,
                  { client_id => $user, client_secret => $pass });
    my $d = eval { $JSON->decode($res->content) };
    if ($res->code != 200 || ref $d ne 'HASH' || !defined $d->{access_token}) {
        diag("login $user on $mount: " . $res->status_line . ' ' . $res->content);
        return undef;
    }
    return $d->{access_token};
}

sub auth { return (Authorization => "Bearer $_[0]") }

# admin([{ stdin => TEXT },] ARGS...) -> (exit status, output):
#   ranking-admin --driver $RANKING_DBD_DRIVER --params $RANKING_DB ARGS, run as the
#   server's user (so that a -wal
#   or -shm file it creates stays usable by the server's children), stdin from TEXT
#   (else /dev/null).  Dies when the command is missing: that is a failure, not a skip.
#   It returns once what it changed shows in every child (settle), unless nosettle is
#   given: { nosettle => 1 } returns at once (a test of the bound itself).
# RankingRevisionCheck of t/conf/extra.conf.in (milliseconds): after a change made by
# hand, a read of the server may show the former data for that long.
our $REVISION_CHECK_MS = 300;
sub settle { Time::HiRes::sleep(($REVISION_CHECK_MS + 50) / 1000) }

sub admin {
    my $o = ref $_[0] eq 'HASH' ? shift : {};
    my @args = @_;
    my $cmd = $ENV{RANKING_ADMIN} // '';
    die "RANKING_ADMIN ($cmd) is not an executable\n" unless $cmd && -x $cmd;
    die "RANKING_DB is not set\n" unless $ENV{RANKING_DB};
    my @argv = ($cmd, '--driver', $ENV{RANKING_DBD_DRIVER} // 'sqlite3',
                '--params', $ENV{RANKING_DB}, @args);
    if ($> == 0 && $ENV{RANKING_HTTPD_USER}) {
        unshift @argv, 'runuser', '-u', $ENV{RANKING_HTTPD_USER}, '--';
    }
    require File::Temp;
    my $in = File::Temp->new;
    print {$in} $o->{stdin} // '';
    close $in;
    my $pid = open(my $fh, '-|') // die "fork: $!";
    if (!$pid) {
        open STDERR, '>&', \*STDOUT;
        open STDIN, '<', $in->filename or die "stdin: $!";
        exec @argv or do { print "exec $argv[0]: $!\n"; exit 127 };
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    my $rc = $? >> 8;
    settle() unless $o->{nosettle};   # what it changed shows in every child of the server
    return ($rc, $out);
}

# db_exec(SQL) -> (exit status, output): runs SQL on the test database (sqlite3 as the
# server's user, or psql when RANKING_DBD_DRIVER is pgsql and RANKING_DB a conninfo).
# Only to put back what a test deleted (never to compute expectations).
sub db_exec {
    my ($sql) = @_;
    die "RANKING_DB is not set\n" unless $ENV{RANKING_DB};
    my @argv;
    if (($ENV{RANKING_DBD_DRIVER} // 'sqlite3') eq 'pgsql') {
        @argv = ('psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $ENV{RANKING_DB}, '-c', $sql);
    }
    else {
        @argv = ('sqlite3', '-batch', '-cmd', '.timeout 5000', $ENV{RANKING_DB}, $sql);
        if ($> == 0 && $ENV{RANKING_HTTPD_USER}) {
            unshift @argv, 'runuser', '-u', $ENV{RANKING_HTTPD_USER}, '--';
        }
    }
    my $pid = open(my $fh, '-|') // die "fork: $!";
    if (!$pid) {
        open STDERR, '>&', \*STDOUT;
        exec @argv or do { print "exec $argv[0]: $!\n"; exit 127 };
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    my $rc = $? >> 8;
    settle();
    return ($rc, $out);
}

# admin_ok(NAME, ARGS...): one test, the command exits 0.
sub admin_ok {
    my ($name, @args) = @_;   # ARGS may start with { stdin => TEXT }
    my ($rc, $out) = eval { admin(@args) };
    if ($@) {
        fail($name);
        diag($@);
        return 0;
    }
    ok($rc == 0, $name) or diag("ranking-admin @{[grep { !ref } @args]}: exit $rc: $out");
    return $rc == 0;
}

# ---------------------------------------------------------------- JSON

sub decode {
    my ($res) = @_;
    my $text = ref $res ? $res->content : $res;
    my $d = eval { $JSON->decode($text) };
    return $d;
}

# The JSON type of a Perl value: hash, array, null, string, number or bool.
sub jtype {
    my ($v) = @_;
    return 'null' unless defined $v;
    my $r = ref $v;
    return 'hash' if $r eq 'HASH';
    return 'array' if $r eq 'ARRAY';
    return 'bool' if $r && JSON::PP::is_bool($v);
    return "ref $r" if $r;
    my $f = B::svref_2object(\$v)->FLAGS;
    return 'number' if ($f & (B::SVf_IOK | B::SVf_NOK)) && !($f & B::SVf_POK);
    return 'string';
}

# json_cmp(GOT, EXPECTED[, PATH]) -> undef when equal, else a description of the first
# difference.  Types count: the string "1" differs from the number 1, null from "".
# Key order does not matter (JSON objects); array order does.
sub json_cmp {
    my ($got, $exp, $path) = @_;
    $path //= '$';
    my ($tg, $te) = (jtype($got), jtype($exp));
    if ($tg ne $te) {
        return "$path: got $tg " . show($got) . ", expected $te " . show($exp);
    }
    if ($te eq 'hash') {
        for my $k (sort keys %$exp) {
            return "$path: key '$k' missing" unless exists $got->{$k};
            my $d = json_cmp($got->{$k}, $exp->{$k}, "$path.$k");
            return $d if defined $d;
        }
        for my $k (sort keys %$got) {
            return "$path: unexpected key '$k' (" . show($got->{$k}) . ')' unless exists $exp->{$k};
        }
        return undef;
    }
    if ($te eq 'array') {
        my $n = @$got < @$exp ? @$got : @$exp;
        for my $i (0 .. $n - 1) {
            my $d = json_cmp($got->[$i], $exp->[$i], "$path\[$i]");
            return $d if defined $d;
        }
        return "$path: " . scalar(@$got) . ' elements, expected ' . scalar(@$exp)
            if @$got != @$exp;
        return undef;
    }
    return undef if $te eq 'null';
    return ($got == $exp ? undef : "$path: got $got, expected $exp") if $te eq 'number';
    return ((!!$got) == (!!$exp) ? undef : "$path: got " . show($got) . ', expected ' . show($exp))
        if $te eq 'bool';
    return $got eq $exp ? undef : "$path: got " . show($got) . ', expected ' . show($exp);
}

sub show {
    my ($v) = @_;
    my $t = jtype($v);
    return 'null' if $t eq 'null';
    return "$v" if $t eq 'number';
    my $s = eval { JSON::PP->new->canonical->allow_nonref->encode($v) } // "$v";
    $s = substr($s, 0, 200) . '...' if length $s > 200;
    return $s;
}

sub ct_is_json {
    my ($res) = @_;
    my $ct = $res->header('Content-Type') // '';
    return $ct =~ m{^application/json(\s*;\s*charset="?utf-8"?)?$}i;
}

# check_json(RES, STATUS, EXPECTED, NAME): one test: the status, the JSON
# Content-Type, and a body equal (json_cmp) to EXPECTED.
sub check_json {
    my ($res, $status, $exp, $name) = @_;
    my @why;
    push @why, 'status ' . $res->code . ", expected $status" if $res->code != $status;
    push @why, 'Content-Type ' . ($res->header('Content-Type') // 'none') . ', expected application/json'
        unless ct_is_json($res);
    my $d = decode($res);
    if (!defined $d && $res->content ne 'null') {
        push @why, 'body is not JSON';
    }
    else {
        my $diff = json_cmp($d, $exp);
        push @why, "body differs: $diff" if defined $diff;
    }
    my $ok = ok(!@why, $name);
    if (!$ok) {
        diag($_) for @why;
        diag('request: ' . $res->request->method . ' ' . $res->request->uri) if $res->request;
        my $c = $res->content;
        $c = substr($c, 0, 600) . '...' if length $c > 600;
        diag("body: $c");
    }
    return $ok;
}

# check_error(RES, STATUS, MESSAGE, NAME): one test; MESSAGE undef means any
# non-empty string (the contract fixes no text for 400, 409, 413, 415).
sub check_error {
    my ($res, $status, $message, $name) = @_;
    if (defined $message) {
        return check_json($res, $status, { status => 'error', message => $message }, $name);
    }
    my $d = decode($res);
    my @why;
    push @why, 'status ' . $res->code . ", expected $status" if $res->code != $status;
    push @why, 'Content-Type ' . ($res->header('Content-Type') // 'none') unless ct_is_json($res);
    push @why, 'body is not {"status":"error","message":"<text>"}'
        unless ref $d eq 'HASH' && keys %$d == 2 && jtype($d->{status}) eq 'string'
        && $d->{status} eq 'error' && jtype($d->{message}) eq 'string' && length $d->{message};
    my $ok = ok(!@why, $name);
    if (!$ok) {
        diag($_) for @why;
        diag('request: ' . $res->request->method . ' ' . $res->request->uri) if $res->request;
        diag('body: ' . substr($res->content, 0, 600));
    }
    return $ok;
}

# check_401(RES, INVALID_TOKEN, NAME): two tests: the JSON 401 (for HEAD: no body)
# and the exact WWW-Authenticate header (with error="invalid_token" when INVALID_TOKEN).
sub check_401 {
    my ($res, $invalid, $name) = @_;
    if ($res->request && $res->request->method eq 'HEAD') {   # no body to check
        ok($res->code == 401 && $res->content eq '', "$name: 401, no body")
            or diag('status ' . $res->code . ', body: ' . $res->content);
    }
    else {
        check_error($res, 401, 'Unauthorized', "$name: 401 Unauthorized");
    }
    my @w = $res->header('WWW-Authenticate');
    my $want = $invalid ? WWW_AUTH_INVALID : WWW_AUTH;
    ok(@w == 1 && $w[0] eq $want, "$name: WWW-Authenticate: $want")
        or diag('WWW-Authenticate: ' . (@w ? join(' | ', @w) : 'none'));
}

# check_405(RES, ALLOW, NAME): two tests: the JSON 405 and the Allow header.
sub check_405 {
    my ($res, $allow, $name) = @_;
    check_error($res, 405, 'Method not allowed', "$name: 405 Method not allowed");
    my $got = $res->header('Allow') // 'none';
    is($got, $allow, "$name: Allow: $allow");
}

# ---------------------------------------------------------------- expected data
# Written by hand from sql/demo.sql; ids are strings, counts and numbers integers.

our %COMP = (
    1 => { id => '1', name => 'Paris Throwdown 2026', location => 'Halle Georges Carpentier, Paris',
           start_date => '2026-11-21', end_date => '2026-11-22', timezone => 'Europe/Paris',
           status => 'in_progress', ranking => 'places', publication => 'immediate',
           advance => undef },
    2 => { id => '2', name => 'Northern Throwdown 2026', location => 'Lille Grand Palais, Lille',
           start_date => '2026-11-20', end_date => '2026-11-22', timezone => 'Europe/Paris',
           status => 'in_progress', ranking => 'places', publication => 'immediate',
           advance => undef },
    3 => { id => '3', name => 'Lake Geneva Winter Games 2027',
           location => 'Centre sportif du Bout-du-Monde, Genève',
           start_date => '2027-02-06', end_date => '2027-02-07', timezone => 'Europe/Zurich',
           status => 'upcoming', ranking => 'places', publication => 'immediate',
           advance => undef },
    # the ranking demos (their leaderboards: t/api/50_leaderboard.t)
    4 => { id => '4', name => 'Lyon Winter Showdown 2026', location => 'Halle Tony Garnier, Lyon',
           start_date => '2026-11-14', end_date => '2026-11-15', timezone => 'Europe/Paris',
           status => 'finished', ranking => 'places', publication => 'immediate',
           advance => undef },
    5 => { id => '5', name => 'Bordeaux Chart Challenge 2026', location => 'Hangar 14, Bordeaux',
           start_date => '2026-11-07', end_date => '2026-11-07', timezone => 'Europe/Paris',
           status => 'finished', ranking => 'chart100', publication => 'immediate',
           advance => undef },
);
our @COMP_ORDER = (5, 4, 2, 1, 3);   # start_date, id

our %WOD = (
    11 => { id => '11', competition_id => '1', name => 'Partner Fran',
            description => 'Teams of 2, one partner works at a time. 21-15-9 reps for time of: '
                . 'thrusters (43/30 kg), pull-ups. Partners alternate rounds.',
            position => 2, scoring => 'time', time_cap => 480 },
    12 => { id => '12', competition_id => '1', name => 'Chipper AMRAP',
            description => 'AMRAP in 15 minutes, partners share the work as desired: 10 toes-to-bar, '
                . '15 wall-ball shots (9/6 kg), 20 double-unders, 5 power cleans (70/47 kg).',
            position => 3, scoring => 'reps', time_cap => 900 },
    13 => { id => '13', competition_id => '1', name => 'Clean & Jerk Ladder',
            description => 'Each partner has three attempts to establish a 1-rep-max clean and jerk. '
                . 'Team score is the sum of both best lifts.',
            position => 1, scoring => 'load', time_cap => undef },
    14 => { id => '14', competition_id => '1', name => 'Final', description => '',
            position => 4, scoring => 'time', time_cap => 600 },
);
our @WOD_ORDER = (13, 11, 12, 14);   # position, id

sub spot_ { my ($id, $name, $div, $aff, $bib) = @_;
    return { id => "$id", competition_id => '1', name => $name, division => $div,
             affiliate => $aff, bib => $bib } }
our %SPOT = (
    101 => spot_(101, "Les Costauds d'Évry", 'RX', 'CrossFit Évry', undef),
    102 => spot_(102, 'Barbell Brothers', 'RX', 'CrossFit Bastille', 12),
    103 => spot_(103, 'Wall Ball Warriors', 'Scaled', 'CrossFit Montreuil', 3),
    104 => spot_(104, 'Iron Lungs', 'RX', 'CrossFit Louvre', 7),
    105 => spot_(105, 'Chalk & Chill', undef, undef, 1),
    106 => spot_(106, 'Team "No Rep"', 'Masters', 'CrossFit Vincennes', 10),
    107 => spot_(107, 'Burpee Bandits', 'Scaled', 'CrossFit Boulogne', 4),
    108 => spot_(108, 'Thruster Twins', 'Masters', 'CrossFit Nanterre', 8),
    109 => spot_(109, 'Rope Climb Rebels', 'RX', 'CrossFit Saint-Denis', 2),
);
our @SPOT_ORDER = (105, 109, 103, 107, 104, 108, 106, 102, 101);   # bib (null last), id

our %ZONE = (
    21 => { id => '21', competition_id => '1', name => 'Main Floor', lane_count => 6 },
    22 => { id => '22', competition_id => '1', name => 'Annex', lane_count => 4 },
    23 => { id => '23', competition_id => '1', name => 'Outdoor Rig', lane_count => 8 },
);
our @ZONE_ORDER = (21, 22, 23);

sub heat_obj { my ($id, $zone, $wod, $number, $start, $status, $comp) = @_;
    return { id => "$id", competition_id => $comp // '1', zone_id => $zone, wod_id => $wod,
             number => $number, start_time => $start, status => $status } }
our %HEAT = (
    201 => heat_obj(201, '21', '11', 1, '2026-11-21T10:00:00Z', 'finished'),
    202 => heat_obj(202, '21', '13', 2, '2026-11-21T08:00:00Z', 'finished'),
    203 => heat_obj(203, '22', '13', 1, '2026-11-21T08:00:00Z', 'finished'),
    204 => heat_obj(204, '22', '11', 2, '2026-11-21T10:00:00Z', 'finished'),
    205 => heat_obj(205, '21', '12', 1, '2026-11-21T13:00:00Z', 'running'),
    206 => heat_obj(206, '21', '14', 1, undef, 'scheduled'),
    207 => heat_obj(207, undef, '11', 3, '2026-11-21T11:30:00Z', 'finished'),
);
# start_time (null last), number, id
our @HEAT_B_ORDER = (203, 202, 201, 204, 207, 205, 206);
our %HEAT_A_ORDER = (21 => [202, 201, 205, 206], 22 => [203, 204], 23 => []);

# lane_obj(ID, HEAT, NUMBER, SPOT_ID, SPOT_NAME, SCORE[, TIEBREAK[, SCORE_STATUS]]):
# the demo's competitions publish immediately and no score of them is validated, so a
# lane with a score is 'entered' unless told otherwise (API.md part 3)
sub lane_obj { my ($id, $heat, $number, $spot, $spot_name, $score, $tiebreak, $status) = @_;
    return { id => "$id", heat_id => "$heat", number => $number,
             spot_id => defined $spot ? "$spot" : undef, spot_name => $spot_name,
             score => $score, tiebreak => $tiebreak,
             score_status => @_ > 7 ? $status : defined $score ? 'entered' : undef } }
sub lane_ { my ($id, $heat, $number, $spot, $score) = @_;
    return lane_obj($id, $heat, $number, $spot, defined $spot ? $SPOT{$spot}{name} : undef, $score) }
our %LANE = (
    1001 => lane_(1001, 202, 3, 102, '185kg'),
    1002 => lane_(1002, 202, 1, 104, '192kg'),
    1003 => lane_(1003, 202, 2, 109, '171kg'),
    1004 => lane_(1004, 202, 5, 101, '168kg'),
    1005 => lane_(1005, 202, 4, undef, undef),
    1006 => lane_(1006, 202, 6, 105, '150kg'),
    1007 => lane_(1007, 203, 1, 103, '120kg'),
    1008 => lane_(1008, 203, 2, 107, '112kg'),
    1009 => lane_(1009, 203, 3, 106, '141kg'),
    1010 => lane_(1010, 203, 4, 108, '133kg'),
    1011 => lane_(1011, 201, 1, 102, '06:12'),
    1012 => lane_(1012, 201, 2, 104, '05:48'),
    1013 => lane_(1013, 201, 3, 109, '07:03'),
    1014 => lane_(1014, 201, 4, 101, 'CAP+12'),
    1015 => lane_(1015, 201, 6, 105, '07:45'),
    1016 => lane_(1016, 204, 2, 103, '07:31'),
    1017 => lane_(1017, 204, 1, 107, '07:59'),
    1018 => lane_(1018, 204, 3, 106, '06:55'),
    1019 => lane_(1019, 204, 4, undef, undef),
    1020 => lane_(1020, 207, 2, undef, undef),
    1021 => lane_(1021, 207, 1, 108, '07:20'),
    1022 => lane_(1022, 205, 1, 102, '212'),
    1023 => lane_(1023, 205, 2, 104, undef),
    1024 => lane_(1024, 205, 3, 109, '198'),
    1025 => lane_(1025, 205, 4, 101, undef),
    1026 => lane_(1026, 205, 5, 105, '187'),
    1027 => lane_(1027, 205, 6, undef, undef),
    1028 => lane_(1028, 206, 3, undef, undef),
    1029 => lane_(1029, 206, 1, undef, undef),
    1030 => lane_(1030, 206, 2, undef, undef),
);
# number, id
our %LANE_ORDER = (
    201 => [1011, 1012, 1013, 1014, 1015],
    202 => [1002, 1003, 1001, 1005, 1004, 1006],
    203 => [1007, 1008, 1009, 1010],
    204 => [1017, 1016, 1018, 1019],
    205 => [1022, 1023, 1024, 1025, 1026, 1027],
    206 => [1029, 1030, 1028],
    207 => [1021, 1020],
);

# ---- competition 1's leaderboards (policy places), by hand from sql/demo.sql ----
# WOD 13 (load): RX 104 192kg, 102 185kg, 109 171kg, 101 168kg; Masters 106 141kg,
# 108 133kg; Scaled 103 120kg, 107 112kg; no division 105 150kg.
# WOD 11 (time, cap 480 s): RX 104 05:48, 102 06:12, 109 07:03, 101 CAP+12 (after
# every finished time); Masters 106 06:55 (heat 204), 108 07:20 (heat 207, no zone);
# Scaled 103 07:31, 107 07:59; no division 105 07:45.
# WOD 12 (reps, heat 205 running): RX 102 212, 109 198, 104 and 101 no score yet (2
# placed + 1 = 3 points); Masters and Scaled: no lane at all (0 placed + 1 = 1 point);
# no division 105 187.
# WOD 14 (the final): no team in a lane yet, every spot 1 point, no rank.
# Overall: RX 104 = 1+1+3+1 = 6 and 102 = 2+2+1+1 = 6: countback, 104 has two 1st
# places and 102 one, so 104 is 1st; 109 = 9, 101 = 12.  Masters 106 = 4, 108 = 6;
# Scaled 103 = 4, 107 = 6; no division 105 = 4.
my @LB1_DIVS = ('Masters', 'RX', 'Scaled', undef);   # byte order, no division last
my %LB1_WOD = (   # wod => division => [rank, points, spot, score, heat, lane]
    13 => { Masters => [[1, 1, 106, '141kg', 203, 1009], [2, 2, 108, '133kg', 203, 1010]],
            RX => [[1, 1, 104, '192kg', 202, 1002], [2, 2, 102, '185kg', 202, 1001],
                   [3, 3, 109, '171kg', 202, 1003], [4, 4, 101, '168kg', 202, 1004]],
            Scaled => [[1, 1, 103, '120kg', 203, 1007], [2, 2, 107, '112kg', 203, 1008]],
            '' => [[1, 1, 105, '150kg', 202, 1006]] },
    11 => { Masters => [[1, 1, 106, '06:55', 204, 1018], [2, 2, 108, '07:20', 207, 1021]],
            RX => [[1, 1, 104, '05:48', 201, 1012], [2, 2, 102, '06:12', 201, 1011],
                   [3, 3, 109, '07:03', 201, 1013], [4, 4, 101, 'CAP+12', 201, 1014]],
            Scaled => [[1, 1, 103, '07:31', 204, 1016], [2, 2, 107, '07:59', 204, 1017]],
            '' => [[1, 1, 105, '07:45', 201, 1015]] },
    12 => { Masters => [[undef, 1, 108], [undef, 1, 106]],   # by bib: 8, then 10
            RX => [[1, 1, 102, '212', 205, 1022], [2, 2, 109, '198', 205, 1024],
                   [undef, 3, 104, undef, 205, 1023], [undef, 3, 101, undef, 205, 1025]],
            Scaled => [[undef, 1, 103], [undef, 1, 107]],
            '' => [[1, 1, 105, '187', 205, 1026]] },
    14 => { Masters => [[undef, 1, 108], [undef, 1, 106]],
            RX => [[undef, 1, 109], [undef, 1, 104], [undef, 1, 102], [undef, 1, 101]],
            Scaled => [[undef, 1, 103], [undef, 1, 107]],
            '' => [[undef, 1, 105]] },
);
my %LB1_WOD_SCORING = (11 => 'time', 12 => 'reps', 13 => 'load', 14 => 'time');
my %LB1_OVERALL = (   # division => [rank, total, spot]
    Masters => [[1, 4, 106], [2, 6, 108]],
    RX => [[1, 6, 104], [2, 6, 102], [3, 9, 109], [4, 12, 101]],
    Scaled => [[1, 4, 103], [2, 6, 107]],
    '' => [[1, 4, 105]],
);

sub lb1_entry {
    my ($rank, $points, $spot, $score, $heat, $lane) = @{ $_[0] };
    return { rank => $rank, points => $points, spot_id => "$spot", spot_name => $SPOT{$spot}{name},
             bib => $SPOT{$spot}{bib}, score => $score, tiebreak => undef,
             heat_id => defined $heat ? "$heat" : undef, lane_id => defined $lane ? "$lane" : undef };
}

# lb1_wod(WOD[, DIVISION]) -> the expected body of GET /competition/1/wod/WOD/leaderboard
# (with ?division=DIVISION: that division only)
sub lb1_wod {
    my ($w, $only) = @_;
    my @divs = grep { !defined $only || (defined $_ && $_ eq $only) } @LB1_DIVS;
    return { status => 'success', leaderboard => {
        competition_id => '1', wod_id => "$w", scoring => $LB1_WOD_SCORING{$w}, ranking => 'places',
        divisions => [map { my $d = $_;
            { division => $d, entries => [map { lb1_entry($_) } @{ $LB1_WOD{$w}{$d // ''} }] } } @divs] } };
}

# lb1_overall([DIVISION]) -> the expected body of GET /competition/1/leaderboard
sub lb1_overall {
    my ($only) = @_;
    my @divs = grep { !defined $only || (defined $_ && $_ eq $only) } @LB1_DIVS;
    my @wods = @WOD_ORDER;
    return { status => 'success', leaderboard => {
        competition_id => '1', ranking => 'places', wods => [map { "$_" } @wods],
        divisions => [map { my $d = $_;
            { division => $d, entries => [map {
                my ($rank, $total, $spot) = @$_;
                my @results = map {
                    my $w = $_;
                    my ($e) = grep { $_->[2] == $spot } @{ $LB1_WOD{$w}{$d // ''} };
                    { wod_id => "$w", rank => $e->[0], points => $e->[1], score => $e->[3] }
                } @wods;
                { rank => $rank, points => $total, spot_id => "$spot", spot_name => $SPOT{$spot}{name},
                  bib => $SPOT{$spot}{bib}, advancing => undef, results => \@results }
            } @{ $LB1_OVERALL{$d // ''} }] } } @divs] } };
}

# ---- competition 2 (write tests) ----
our %SPOT2 = (151 => 'Lille Lifting Club', 152 => "Les Ch'tis Costauds",
              153 => 'Double Under Dynamos', 154 => 'Snatch Squad', 155 => 'Box Jump Brigade',
              156 => 'Masters of Disaster', 157 => 'Grey Hair Gainz', 158 => 'Pull-Up Posse',
              159 => 'Row Row Row', 160 => 'Hang Clean Heroes');
# Heat 258 of competition 2 (zone 26, 6 lanes) has no WOD: any score of at most 64
# characters is legal there, typed scores are not checked (API.md, "Typed scores").
# Lane 2029 is empty (number 3): free-text writes go there and put it back.
our %FREE = (competition => 2, zone => 26, heat => 258, lane => 2029,
             voie => '/competition/2/zone/26/heat/258/voie/2029',
             line => '/competition/2/heat/258/line/2029');
# free_lanes() -> the lanes of heat 258 as in the demo data (number order)
sub free_lanes {
    my $l = sub { my ($id, $n, $spot, $score) = @_;
                  lane_obj($id, 258, $n, $spot, defined $spot ? $SPOT2{$spot} : undef, $score) };
    return ($l->(2027, 1, 151, 'warm-up done'), $l->(2028, 2, 155, undef), $l->(2029, 3),
            $l->(2030, 5, 159, "late \x{2014} judge \x{c9}mile"));
}

sub ok_list { my ($key, $list) = @_; return { status => 'success', $key => $list } }
sub ok_one  { my ($key, $obj) = @_;  return { status => 'success', $key => $obj } }

# read_routes() -> list of { path, variant (common|A|B), expected, list (1|0), key }
# for every read route of competition 1 (the details of competitions 2 to 5, and the
# empty lists of competition 3),
# relative to a mount, without trailing slash on details and with one on lists
# (as the seed writes them).
sub read_routes {
    my @r;
    my $add = sub { my ($path, $variant, $key, $exp, $list) = @_;
        push @r, { path => $path, variant => $variant, key => $key,
                   expected => $list ? ok_list($key, $exp) : ok_one($key, $exp), list => $list } };

    $add->('/competition/', 'common', 'competitions', [map { $COMP{$_} } @COMP_ORDER], 1);
    $add->("/competition/$_", 'common', 'competition', $COMP{$_}, 0) for 1 .. 5;
    $add->('/competition/1/wod/', 'common', 'wods', [map { $WOD{$_} } @WOD_ORDER], 1);
    $add->("/competition/1/wod/$_", 'common', 'wod', $WOD{$_}, 0) for @WOD_ORDER;
    $add->('/competition/1/spot/', 'common', 'spots', [map { $SPOT{$_} } @SPOT_ORDER], 1);
    $add->("/competition/1/spot/$_", 'common', 'spot', $SPOT{$_}, 0) for @SPOT_ORDER;
    $add->('/competition/3/wod/', 'common', 'wods', [], 1);
    $add->('/competition/3/spot/', 'common', 'spots', [], 1);

    # variant A
    $add->('/competition/1/zone/', 'A', 'zones', [map { $ZONE{$_} } @ZONE_ORDER], 1);
    $add->("/competition/1/zone/$_", 'A', 'zone', $ZONE{$_}, 0) for @ZONE_ORDER;
    $add->('/competition/3/zone/', 'A', 'zones', [], 1);
    for my $z (@ZONE_ORDER) {
        $add->("/competition/1/zone/$z/heat/", 'A', 'heats',
               [map { $HEAT{$_} } @{ $HEAT_A_ORDER{$z} }], 1);
        for my $h (@{ $HEAT_A_ORDER{$z} }) {
            my $base = "/competition/1/zone/$z/heat/$h";
            $add->($base, 'A', 'heat', $HEAT{$h}, 0);
            $add->("$base/voie/", 'A', 'voies', [map { $LANE{$_} } @{ $LANE_ORDER{$h} }], 1);
            $add->("$base/voie/$_", 'A', 'voie', $LANE{$_}, 0) for @{ $LANE_ORDER{$h} };
        }
    }

    # variant B
    $add->('/competition/1/heat/', 'B', 'heats', [map { $HEAT{$_} } @HEAT_B_ORDER], 1);
    $add->('/competition/3/heat/', 'B', 'heats', [], 1);
    for my $h (@HEAT_B_ORDER) {
        my $base = "/competition/1/heat/$h";
        $add->($base, 'B', 'heat', $HEAT{$h}, 0);
        $add->("$base/line/", 'B', 'lines', [map { $LANE{$_} } @{ $LANE_ORDER{$h} }], 1);
        $add->("$base/line/$_", 'B', 'line', $LANE{$_}, 0) for @{ $LANE_ORDER{$h} };
    }
    return @r;
}

# check_reads(TOKEN, VARIANT): every read route of VARIANT ('common', 'A' or 'B') on
# /api answers its exact expected body, and every element of a list equals the detail
# route of that element (as served, whatever the expectations say).
sub check_reads {
    my ($tok, $variant) = @_;
    my @routes = grep { $_->{variant} eq $variant } read_routes();
    for my $r (@routes) {
        check_json(req(GET => "/api$r->{path}", $tok), 200, $r->{expected}, "GET $r->{path}");
    }
    my %singular = (competitions => 'competition', wods => 'wod', spots => 'spot',
                    zones => 'zone', heats => 'heat', voies => 'voie', lines => 'line');
    for my $r (grep { $_->{list} } @routes) {
        my $list = decode(req(GET => "/api$r->{path}", $tok)) // {};
        for my $el (@{ $list->{$r->{key}} // [] }) {
            my $path = "/api$r->{path}" . ($el->{id} // 'undef');
            my $one = decode(req(GET => $path, $tok)) // {};
            is(json_cmp($one->{$singular{$r->{key}}}, $el), undef,
               "$path equals its element of $r->{path}");
        }
    }
}

# tests_declared_ok(FILE): one test, the "# tests: N" line of FILE matches the number
# of tests it has run, this one included.
sub tests_declared_ok {
    my ($file) = @_;
    open my $self, '<', $file or die "$file: $!";
    my ($declared) = map { /^# tests: (\d+)/ ? $1 : () } <$self>;
    close $self;
    my $n = Test::More->builder->current_test + 1;
    is($declared, $n, "the '# tests:' line of this file matches the tests it runs ($n)");
}


# run_parallel(SUB...): fork one process per SUB, start them together, return what
# each SUB returned (a Perl structure, through JSON)
sub run_parallel {
    my @subs = @_;
    pipe(my $gate_r, my $gate_w) or die "pipe: $!";
    my @kids;
    for my $sub (@subs) {
        my $tmp = File::Temp->new;
        my $pid = fork // die "fork: $!";
        if (!$pid) {
            close $gate_w;
            my $go = <$gate_r>;   # EOF when the parent closes the gate: all start at once
            local $RankingTest::UA = ua(keep_alive => 1);   # a connection of its own
            my $out = eval { $sub->() } // { died => "$@" };
            open my $fh, '>', $tmp->filename or POSIX::_exit(1);
            print {$fh} JSON::PP->new->encode($out);
            close $fh;
            POSIX::_exit(0);
        }
        push @kids, [$pid, $tmp];
    }
    close $gate_r;
    close $gate_w;
    my @res;
    for my $k (@kids) {
        waitpid($k->[0], 0);
        open my $fh, '<', $k->[1]->filename or die "$!";
        local $/;
        my $text = <$fh>;
        push @res, (length($text // '') ? JSON::PP->new->decode($text) : { died => "exit $?" });
    }
    return @res;
}


1;
