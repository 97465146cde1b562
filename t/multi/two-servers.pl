#!/usr/bin/perl
# t/multi/two-servers.pl BUILD_DIR
#
# Two httpd servers (different ports, event MPM) sharing one PostgreSQL database:
#  - a token issued by one is accepted by the other;
#  - a lane PUT through one is read back through the other at once;
#  - revoking a user (ranking-admin) locks them out of both at once;
#  - concurrent lane writers spread over both servers lose no update.
# Starts a throwaway PostgreSQL (t/pg/pg-server.sh) and both servers, stops them all.
# Prints "N passed, M failed" and exits non-zero on any failure.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use JSON::PP;
use LWP::UserAgent;
use HTTP::Request;
use POSIX qw(_exit);

my $build = abs_path(shift // 'build') or die "usage: $0 BUILD_DIR\n";
my $root  = abs_path(dirname(__FILE__) . '/../..');
my $so    = "$build/mod_ranking/.libs/mod_ranking.so";
my $admin = "$build/tools/ranking-admin";
-f $so    or die "no module at $so\n";
-x $admin or die "no ranking-admin at $admin\n";

my $tmp     = tempdir('rk-two-servers-XXXXXX', TMPDIR => 1, CLEANUP => 0);
chmod 0755, $tmp;   # the postgres and www-data users work inside
my $pgdir   = "$tmp/pg";
my $pgport  = free_port();
my @ports   = (free_port(), free_port());
my ($pass, $fail) = (0, 0);
my $json    = JSON::PP->new->canonical;

sub free_port {
    require IO::Socket::INET;
    my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => '127.0.0.1', LocalPort => 0,
                                  Proto => 'tcp') or die "no free port: $!";
    my $p = $s->sockport;
    close $s;
    return $p;
}

sub ok {
    my ($cond, $name) = @_;
    if ($cond) { $pass++; print "ok - $name\n"; }
    else       { $fail++; print "not ok - $name\n"; }
    return $cond;
}

my $conninfo;
my @started;
my $cleaned = 0;
sub cleanup {
    return if $cleaned++;
    for my $dir (@started) {
        system('apache2', '-f', "$dir/httpd.conf", '-k', 'stop') if -f "$dir/httpd.pid";
    }
    sleep 1 if @started;
    system("$root/t/pg/pg-server.sh", 'stop', $pgdir, $pgport) if $conninfo;
    remove_tree($tmp);
}
$SIG{INT} = $SIG{TERM} = sub { cleanup(); exit 1 };
my $parent = $$;
END { cleanup() if $$ == $parent; }

# ---- set-up -------------------------------------------------------------------
$conninfo = `"$root/t/pg/pg-server.sh" start "$pgdir" $pgport`;
$? == 0 or die "cannot start PostgreSQL\n";
chomp $conninfo;

my $moddir = `apxs -q LIBEXECDIR`;
chomp $moddir;
for my $i (0, 1) {
    my $dir = "$tmp/httpd$i";
    make_path("$dir/logs");
    system('chown', '-R', 'www-data:', $dir) == 0 or die "chown $dir\n";
    open my $fh, '>', "$dir/httpd.conf" or die $!;
    print $fh <<"CONF";
ServerRoot "$dir"
ServerName 127.0.0.1
Listen 127.0.0.1:$ports[$i]
PidFile "$dir/httpd.pid"
Mutex file:$dir
ErrorLog "$dir/logs/error_log"
LogLevel warn ranking:info
User www-data
Group www-data
LoadModule mpm_event_module $moddir/mod_mpm_event.so
LoadModule authz_core_module $moddir/mod_authz_core.so
LoadModule dbd_module $moddir/mod_dbd.so
LoadModule socache_shmcb_module $moddir/mod_socache_shmcb.so
LoadModule ranking_module $so
DocumentRoot "$dir"
DBDriver pgsql
DBDParams "$conninfo"
DBDPersist On
DBDMax 25
<Location /api>
    SetHandler ranking
    Require all granted
</Location>
CONF
    close $fh;
    system('apache2', '-f', "$dir/httpd.conf", '-k', 'start') == 0 or die "cannot start httpd $i\n";
    push @started, $dir;
}

my $ua = LWP::UserAgent->new(keep_alive => 4, timeout => 30);
sub call {
    my ($i, $method, $path, $token, $body) = @_;
    my $req = HTTP::Request->new($method => "http://127.0.0.1:$ports[$i]/api$path");
    $req->header(Authorization => "Bearer $token") if defined $token;
    if (defined $body) {
        $req->header('Content-Type' => 'application/json');
        $req->content(ref $body ? $json->encode($body) : $body);
    }
    my $res = $ua->request($req);
    my $data = eval { decode_json($res->decoded_content) };
    return ($res->code, $data);
}

# wait for both servers
for my $i (0, 1) {
    for (1 .. 50) {
        my ($code) = call($i, 'OPTIONS', '/competition/');
        last if $code == 204;
        select undef, undef, undef, 0.1;
    }
}

sub login {
    my ($i, $user, $password) = @_;
    my ($code, $data) = call($i, 'POST', '/connect', undef,
                             { client_id => $user, client_secret => $password });
    return $code == 200 ? $data->{access_token} : undef;
}

# ---- a token from one server works on the other -------------------------------
my $demo = login(0, 'demo', 'demo');
ok(defined $demo, 'demo logs in on server A');
my ($code, $data) = call(1, 'GET', '/competition/', $demo);
ok($code == 200 && @{ $data->{competitions} } == 3, 'server B accepts the token of server A');
my $judge = login(1, 'judge', 'judge');
ok(defined $judge, 'judge logs in on server B');
($code) = call(0, 'GET', '/competition/1', $judge);
ok($code == 200, 'server A accepts the token of server B');

# ---- a write through one is read through the other at once ---------------------
my $lane = '/competition/2/zone/26/heat/255/voie/2017';
($code, $data) = call(0, 'PUT', $lane, $judge, { score => 'two-servers-1' });
ok($code == 200 && $data->{voie}{score} eq 'two-servers-1', 'PUT through server A');
($code, $data) = call(1, 'GET', '/competition/2/heat/255/line/2017', $judge);
ok($code == 200 && $data->{line}{score} eq 'two-servers-1',
   'server B reads the new score at once (variant B)');
($code, $data) = call(1, 'GET', $lane, $demo);
ok($code == 200 && $data->{voie}{score} eq 'two-servers-1',
   'server B reads the new score at once (variant A)');

# ---- revoking a user locks them out of both --------------------------------------
{
    local $ENV{RANKING_DBD_DRIVER} = 'pgsql';
    local $ENV{RANKING_DBD_PARAMS} = $conninfo;
    my $out = `"$admin" --driver pgsql --params "$conninfo" revoke demo 2>&1`;
    ok($? == 0, 'ranking-admin revokes demo\'s tokens on PostgreSQL') or print "# $out";
}
($code) = call(0, 'GET', '/competition/', $demo);
ok($code == 401, 'revoked token refused by server A');
($code) = call(1, 'GET', '/competition/', $demo);
ok($code == 401, 'revoked token refused by server B');
my $again = login(1, 'demo', 'demo');
ok(defined $again && (call(0, 'GET', '/competition/', $again))[0] == 200,
   'a new login works again on both');

# ---- concurrent writers over both servers ---------------------------------------
# each writer owns one lane of heat 253 (zone 26) and sets its score N times,
# alternating between the two servers; every answer must be 200 and the final
# score of each lane that writer's last value.
my @lanes = (2011, 2012, 2013, 2014);
my $rounds = 25;
my @pids;
for my $w (0 .. $#lanes) {
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        my $wua = LWP::UserAgent->new(keep_alive => 2, timeout => 60);
        $ua = $wua;
        my $bad = 0;
        for my $n (1 .. $rounds) {
            my ($c) = call($n % 2, 'PUT', "/competition/2/zone/26/heat/253/voie/$lanes[$w]",
                           $judge, { score => "w$w-$n" });
            $bad++ if $c != 200;
        }
        _exit($bad ? 1 : 0);
    }
    push @pids, $pid;
}
my $writers_ok = 1;
for my $pid (@pids) {
    waitpid($pid, 0);
    $writers_ok = 0 if $? != 0;
}
ok($writers_ok, scalar(@lanes) . " writers x $rounds PUTs over both servers: all 200");
($code, $data) = call(1, 'GET', '/competition/2/zone/26/heat/253/voie/', $judge);
my %score = map { $_->{id} => $_->{score} } @{ $data->{voies} || [] };
ok(!grep({ ($score{$lanes[$_]} // '') ne "w$_-$rounds" } 0 .. $#lanes),
   'final state: each writer\'s last value on its lane');

for my $i (0, 1) {
    my $log = do { local (@ARGV, $/) = ("$tmp/httpd$i/logs/error_log"); <> } // '';
    my @bad = grep { /ranking:error|database is locked/ } split /\n/, $log;
    ok(!@bad, "server $i logged no database error");
    print "# $_\n" for @bad;
}

cleanup();
print "$pass passed, $fail failed\n";
exit($fail ? 1 : 0);
