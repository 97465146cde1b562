package RkServer;
# A throwaway httpd running mod_ranking, for the tests that need servers of their own
# (t/multi/, t/faults/): RkServer->new(%opts) writes a configuration in a scratch
# directory and starts it; ->call sends a request; ->stop stops it.
use strict;
use warnings;
use File::Path qw(make_path);
use HTTP::Request;
use IO::Socket::INET;
use JSON::PP;
use LWP::UserAgent;

my $JSON = JSON::PP->new->canonical;

sub free_port {
    my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => '127.0.0.1', LocalPort => 0,
                                  Proto => 'tcp') or die "no free port: $!";
    my $p = $s->sockport;
    close $s;
    return $p;
}

# %opts: dir (scratch directory), so (module path), driver, params (DBDParams),
# mpm (event|prefork|worker, default event), api (more lines inside the mount's
# <Location /api>: one section, as an admin writes it), extra (more configuration
# lines, after it), nofile
# (open files allowed to httpd), env (a hash of variables httpd runs with, e.g. a
# sanitizer runtime in LD_PRELOAD: only apache2 gets them, not this script's other
# commands).
sub new {
    my ($class, %o) = @_;
    my $self = bless { %o, port => free_port(), mpm => $o{mpm} // 'event' }, $class;
    my $dir = $self->{dir};
    my $moddir = `apxs -q LIBEXECDIR`;
    chomp $moddir;
    make_path("$dir/logs");
    system('chown', '-R', 'www-data:', $dir) == 0 or die "chown $dir\n";
    $self->{conf} = "$dir/httpd.conf";
    open my $fh, '>', $self->{conf} or die "$self->{conf}: $!";
    print $fh <<"CONF";
ServerRoot "$dir"
ServerName 127.0.0.1
Listen 127.0.0.1:$self->{port}
PidFile "$dir/httpd.pid"
Mutex file:$dir
ErrorLog "$dir/logs/error_log"
LogLevel warn ranking:info
User www-data
Group www-data
LoadModule mpm_$self->{mpm}_module $moddir/mod_mpm_$self->{mpm}.so
LoadModule authz_core_module $moddir/mod_authz_core.so
LoadModule dbd_module $moddir/mod_dbd.so
LoadModule socache_shmcb_module $moddir/mod_socache_shmcb.so
LoadModule ranking_module $self->{so}
DocumentRoot "$dir"
DBDriver $self->{driver}
DBDParams "$self->{params}"
DBDPersist On
<Location /api>
    SetHandler ranking
    Require all granted
@{[ $o{api} // '' ]}
</Location>
@{[ $o{extra} // '' ]}
CONF
    close $fh;
    $self->{ua} = LWP::UserAgent->new(keep_alive => 4, timeout => 60);
    $self->start;
    return $self;
}

# With nofile => N, httpd starts with that many open files allowed (or the hard limit,
# if lower): a server of thousands of event streams needs more than the usual 1,024.
sub httpd {
    my ($self, @args) = @_;
    local @ENV{ keys %{ $self->{env} // {} } } = values %{ $self->{env} // {} };
    if ($self->{nofile}) {
        return system('sh', '-c', 'n=$(ulimit -Hn); [ "$n" = unlimited ] || [ "$n" -gt "$0" ] && n=$0; '
                      . 'ulimit -n "$n" && exec apache2 "$@"', $self->{nofile},
                      '-f', $self->{conf}, @args) == 0;
    }
    return system('apache2', '-f', $self->{conf}, @args) == 0;
}

sub start {
    my $self = shift;
    $self->httpd('-k', 'start') or die "cannot start httpd ($self->{conf})\n";
    for (1 .. 100) {
        my ($code) = $self->call('OPTIONS', '/competition/');
        return 1 if $code == 204;
        select undef, undef, undef, 0.1;
    }
    die "httpd on port $self->{port} does not answer\n";
}

sub pid {
    my $self = shift;
    open my $fh, '<', "$self->{dir}/httpd.pid" or return;
    my $pid = <$fh>;
    chomp $pid if defined $pid;
    return $pid;
}

sub stop {
    my $self = shift;
    my $pid = $self->pid or return;
    $self->httpd('-k', 'stop');
    for (1 .. 100) {
        last unless kill 0, $pid;
        select undef, undef, undef, 0.1;
    }
    unlink "$self->{dir}/httpd.pid";
}

sub url { my ($self, $path) = @_; "http://127.0.0.1:$self->{port}/api$path" }

# ($code, $decoded_json_or_undef, $response)
sub call {
    my ($self, $method, $path, $token, $body, $ua) = @_;
    my $req = HTTP::Request->new($method => $self->url($path));
    $req->header(Authorization => "Bearer $token") if defined $token;
    if (defined $body) {
        $req->header('Content-Type' => 'application/json');
        $req->content(ref $body ? $JSON->encode($body) : $body);
    }
    my $res = ($ua // $self->{ua})->request($req);
    my $data = eval { JSON::PP::decode_json($res->decoded_content) };
    return ($res->code, $data, $res);
}

sub login {
    my ($self, $user, $password) = @_;
    my ($code, $data) = $self->call('POST', '/connect', undef,
                                    { client_id => $user, client_secret => $password });
    return $code == 200 ? $data->{access_token} : undef;
}

# Whether LINE of the error log LOG (a child's "exit signal Segmentation fault") is the
# known crash of mod_http2 under prefork (doc/operations.md, "HTTP/2 under prefork"): a
# child stopped while its HTTP/2 connection waits for a stream's worker, whose h2
# session is then cleaned up by the child's pool, after mod_http2's workers are gone
# (mod_http2 logs AH10020 for it at LogLevel http2:debug, just before the crash).
sub known_h2_prefork_crash {
    my ($log, $line) = @_;
    my ($pid) = $line =~ /AH0005[12]: child pid (\d+) exit signal Segmentation fault/ or return 0;
    return $log =~ /\[pid $pid:tid \d+\][^\n]*AH10020: h2_session\([^)]*\): session cleanup triggered by pool cleanup/
           ? 1 : 0;
}

sub error_log {
    my $self = shift;
    local (@ARGV, $/) = ("$self->{dir}/logs/error_log");
    return eval { <> } // '';
}

# A minimal test counter: ok(), like(), unlike(), then done() prints "N passed, M failed".
# ok takes exactly two arguments, the condition and the name: it has no prototype (the
# scripts alias it at run time), so ok($text =~ /re/, 'name') would evaluate the match
# in list context, where a failed match is an empty list, and the name would become
# the condition. Anything but two arguments dies; write like($text, qr/re/, 'name'),
# or force scalar context yourself.
my ($pass, $fail) = (0, 0);
sub ok {
    die 'RkServer::ok takes exactly (condition, name), got ' . scalar(@_) . " argument(s)"
        . (@_ ? ": (@{[ map { $_ // 'undef' } @_ ]})" : '') . "\n" unless @_ == 2;
    my ($cond, $name) = @_;
    if ($cond) { $pass++; print "ok - $name\n"; }
    else       { $fail++; print "not ok - $name\n"; }
    return $cond;
}
# like(TEXT, QR, NAME): TEXT matches QR (its first 20 lines shown when it does not)
sub like {
    die "RkServer::like takes exactly (text, qr//, name)\n" unless @_ == 3 && ref $_[1] eq 'Regexp';
    my ($text, $re, $name) = @_;
    $text //= '';
    my $ok = ok(scalar($text =~ $re), $name);
    unless ($ok) {
        print "#   no $re in:\n";
        print map { "#   $_\n" } grep { defined } (split /\n/, $text)[0 .. 19];
    }
    return $ok;
}
# unlike(TEXT, QR, NAME): TEXT does not match QR
sub unlike {
    die "RkServer::unlike takes exactly (text, qr//, name)\n" unless @_ == 3 && ref $_[1] eq 'Regexp';
    my ($text, $re, $name) = @_;
    my $ok = ok(scalar(($text // '') !~ $re), $name);
    print "#   $re found in: ", substr($text, 0, 2000), "\n" unless $ok;
    return $ok;
}
sub done { print "$pass passed, $fail failed\n"; return $fail ? 1 : 0; }

1;
