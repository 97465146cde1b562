# The authorization matrix (issue 34): every route of lib/rk_router.c's table (read
# from the table itself, so that a new row adds its cases) x every method (GET, HEAD,
# POST, PUT, PATCH, DELETE, OPTIONS) x {no token, bad token, reader demo, editor judge,
# organizer, an organizer of another competition only (demo with an organizer grant on
# competition 1), an editor granted on this competition only (demo with an editor grant
# on competition 2)}, on the /api mount (both variants), in competition 2:
#   no or bad token: 401 with WWW-Authenticate (except OPTIONS: 204 with the route's
#   Allow, for everyone; and POST /connect);
#   a method the route does not allow: 405 with the route's Allow;
#   a role below the route's (read_role for GET/HEAD, write_role otherwise): 403;
#   otherwise neither 401, 403 nor 405.
# Also: a path that is no route (a route's path plus one segment): 404 for a reader;
# a 403 says the same for an existing and a missing competition.
# Changes no data: no write sends a body, and a write (or an event stream) a role may
# do goes to an id that does not exist (999999), so it stops at 404/415/400; the
# resources of competition 2 and the change log are compared before and after.
# Leaves no grant behind.
# tests: 1282 (t/run-apache-test.sh fails when fewer run)
use strict;
use warnings;
use utf8;
use FindBin;
use lib "$FindBin::Bin/../lib";
use Test::More;
use RankingTest;

# ---- the route table, from lib/rk_router.c ----
my $src = ($ENV{RANKING_SRC} // "$FindBin::Bin/../..") . '/lib/rk_router.c';
my $hdr = ($ENV{RANKING_SRC} // "$FindBin::Bin/../..") . '/lib/rk_router.h';
sub slurp { my $f = shift; open my $fh, '<', $f or die "$f: $!\n"; local $/; return <$fh> }
my ($c, $h) = (slurp($src), slurp($hdr));
my (%obj, %fun);   # the macros of rk_router.c: NAME -> body; NAME -> [arg, body]
for my $m ($c =~ /^#define[ \t]+(.*)$/mg) {
    if ($m =~ /^(\w+)\((\w+)\)\s+(.*)$/) { $fun{$1} = [$2, $3] }
    elsif ($m =~ /^(\w+)\s+(.*)$/) { $obj{$1} = $2 }
}
my %bit = map { /^(RK_M_\w+)\s+(0x[0-9a-f]+)u?/i ? ($1 => hex $2) : () }
          $h =~ /^#define[ \t]+(RK_M_\w+\s+\S+)/mg;
my %role = map { /^(RK_ROLE_\w+)\s+(\d+)/ ? ($1 => $2) : () }
           $h =~ /^#define[ \t]+(RK_ROLE_\w+\s+\d+)/mg;
$role{0} = 0;
my ($table) = $c =~ /rk_route_def routes\[\] = \{(.*?)\n\};/s or die "no route table in $src\n";
$table =~ s{/\*.*?\*/}{}gs;
for (1 .. 5) {   # expand the macros (they may use each other)
    $table =~ s/\b(\w+)\(([^()]*)\)/call_macro($1, $2)/ge;
    $table =~ s/\b(\w+)\b/exists $obj{$1} ? $obj{$1} : $1/ge;
}
sub call_macro {
    my ($name, $arg) = @_;
    return "$name($arg)" unless exists $fun{$name};
    my ($param, $body) = @{$fun{$name}};
    $body =~ s/\b\Q$param\E\b/$arg/g;
    return $body;
}
my @routes;
while ($table =~ /\{\s*(RK_ROUTE_\w+)\s*,\s*([^,]+),\s*"(\w+)"\s*,\s*\{([^}]*)\}\s*,(.*?)\}\s*,?\s*(?=\{\s*RK_ROUTE_|\z)/sg) {
    my ($id, $name, $segs, $rest) = ($1, $3, $4, $5);
    my @seg = $segs =~ /"([^"]*)"/g;
    # methods, "Allow", is_list, read_role, answer, query, resource, write_role, write, kind
    my @f = map { s/^\s+|\s+$//gr } ($rest =~ /\s*("[^"]*"|[^,]+)/g);
    die "route $name: " . scalar(@f) . " fields\n" unless @f == 10;
    my $methods = 0;
    for my $b (split /\s*\|\s*/, $f[0] =~ s{[()]}{}gr) { die "route $name: method $b?\n" unless exists $bit{$b}; $methods |= $bit{$b} }
    for my $r (@f[3, 7]) { die "route $name: role $r?\n" unless exists $role{$r} }
    push @routes, { name => $name, seg => \@seg, methods => $methods, allow => $f[1] =~ s/"//gr,
                    read_role => $role{$f[3]} || $role{RK_ROLE_READER},
                    write_role => $role{$f[7]}, events => $f[4] eq 'RK_ANSWER_EVENTS' };
}
my ($enum) = $h =~ /RK_ROUTE_NONE = 0,(.*?)RK_ROUTE_COUNT/s;
my $n_enum = () = $enum =~ /\bRK_ROUTE_\w+/g;
is(scalar @routes, $n_enum, "every route of the table is read ($n_enum, as in rk_route_id)")
    or die "the route table was not parsed\n";

# ---- who ----
my %ID = (competition => 2, wod => 16, spot => 151, zone => 26, heat => 258, voie => 2029,
          line => 2029);
my $reader = login('demo', 'demo');
my $editor = login('judge', 'judge');
my $organizer = login('organizer', 'organizer');
ok(defined $reader && defined $editor && defined $organizer, 'demo, judge and organizer log in')
    or die "cannot log in\n";
my @grants;
END { admin('revoke-grant', 'demo', '--competition', $_) for @grants }

# the data the matrix must leave as it is (read by the organizer)
my @WATCH = map { "/api/competition/2$_" }
    ('', '/wod', '/spot', '/zone', '/zone/26/heat', '/zone/26/heat/258/voie', '/changes');
sub snapshot { return join "\n", map { my $r = req(GET => $_, $organizer); $r->code . ' ' . $r->content } '/api/competition', @WATCH }
my $before = snapshot();

my @METHODS = qw(GET HEAD POST PUT PATCH DELETE OPTIONS);
my %MBIT = (GET => 'RK_M_GET', HEAD => 'RK_M_HEAD', POST => 'RK_M_POST', PUT => 'RK_M_PUT',
            PATCH => 'RK_M_PATCH', DELETE => 'RK_M_DELETE', OPTIONS => 'RK_M_OPTIONS');

# path(ROUTE, MISSING): its path in competition 2; MISSING: the last id is 999999
sub path {
    my ($r, $missing) = @_;
    my @s = @{$r->{seg}};
    my $last = (grep { $s[$_] eq '#' } 0 .. $#s)[-1];
    my @p = map { $s[$_] eq '#' ? ($missing && $_ == $last ? 999999 : $ID{$s[$_ - 1]}) : $s[$_] } 0 .. $#s;
    return '/api/' . join '/', @p;
}

# check(WHO, TOKEN, ROLE (its role in competition 2; undef: no valid token), BAD)
sub matrix {
    my ($who, $tok, $role, $bad_token) = @_;
    my $n_bad = 0;
    for my $r (@routes) {
        my $public = $r->{name} eq 'CONNECT';
        for my $m (@METHODS) {
            my $allowed = $bit{$MBIT{$m}} & $r->{methods};
            my $need = $m eq 'GET' || $m eq 'HEAD' ? $r->{read_role} : $r->{write_role};
            my $may = $m eq 'OPTIONS' || !$public && defined $role && $role >= $need;
            my $write = !($m eq 'GET' || $m eq 'HEAD' || $m eq 'OPTIONS');
            my $p = path($r, $allowed && $may && ($write || $r->{events}));
            my $res = req($m => $p, $tok);
            my $code = $res->code;
            my $name = "$who: $m $r->{name} ($p)";
            my ($ok, $want);
            if ($m eq 'OPTIONS') {
                ($ok, $want) = ($code == 204 && ($res->header('Allow') // '') eq $r->{allow},
                                "204, Allow: $r->{allow}");
            }
            elsif (!$public && !defined $role) {
                ($ok, $want) = ($code == 401 && ($res->header('WWW-Authenticate') // '') =~ /^Bearer\b/,
                                '401, WWW-Authenticate: Bearer');
            }
            elsif (!$allowed) {
                ($ok, $want) = ($code == 405 && ($res->header('Allow') // '') eq $r->{allow},
                                "405, Allow: $r->{allow}");
            }
            elsif (!$public && $role < $need) {
                ($ok, $want) = ($code == 403, 403);
            }
            else {
                ($ok, $want) = ($code != 401 && $code != 403 && $code != 405 && $code < 500,
                                'not 401/403/405/5xx');
            }
            ok($ok, "$name: $want") or diag("got $code: " . substr($res->content, 0, 200));
        }
    }
}

matrix('no token', undef, undef);
matrix('bad token', 'not-a-token', undef);
matrix('reader', $reader, $role{RK_ROLE_READER});
matrix('editor', $editor, $role{RK_ROLE_EDITOR});
matrix('organizer', $organizer, $role{RK_ROLE_ORGANIZER});

# an organizer of another competition only: a reader here
push @grants, 1;
admin_ok('grant demo organizer on competition 1', 'grant', 'demo', 'organizer',
         '--competition', '1');
matrix('organizer of competition 1', $reader, $role{RK_ROLE_READER});
admin_ok('revoke-grant demo on competition 1', 'revoke-grant', 'demo', '--competition', '1');
@grants = ();

# an editor granted on this competition only: an editor in competition 2 but a reader
# on /competition (no competition in the path: the server-wide role)
push @grants, 2;
admin_ok('grant demo editor on competition 2', 'grant', 'demo', 'editor', '--competition', '2');
{
    my @saved = @routes;
    my @in = grep { grep { $_ eq '#' } @{$_->{seg}} } @routes;
    @routes = @in;
    matrix('editor of competition 2', $reader, $role{RK_ROLE_EDITOR});
    @routes = grep { !grep { $_ eq '#' } @{$_->{seg}} } @saved;
    matrix('editor of competition 2, no competition in the path', $reader, $role{RK_ROLE_READER});
    @routes = @saved;
}
admin_ok('revoke-grant demo on competition 2', 'revoke-grant', 'demo', '--competition', '2');
@grants = ();

# ---- a path that is no route: 404 ----
for my $r (@routes) {
    my $p = path($r) . '/x';
    my $res = req(GET => $p, $reader);
    is($res->code, 404, "reader: GET $p (no route): 404");
}

# ---- a 403 reveals nothing: the same answer for an existing and a missing competition
for my $r (grep { grep { $_ eq '#' } @{$_->{seg}} } @routes) {
    for my $m (grep { $_ ne 'OPTIONS' && $bit{$MBIT{$_}} & $r->{methods} } @METHODS) {
        my $need = $m eq 'GET' || $m eq 'HEAD' ? $r->{read_role} : $r->{write_role};
        next unless $need > $role{RK_ROLE_READER};
        my $p = path($r);
        (my $q = $p) =~ s{^/api/competition/2\b}{/api/competition/999998};
        (my $o = $p) =~ s{^/api/competition/2\b}{/api/competition/1};
        my ($a, $b, $d) = map { req($m => $_, $reader) } $p, $q, $o;
        ok($a->code == 403 && $b->code == 403 && $d->code == 403
           && $a->content eq $b->content && $a->content eq $d->content,
           "reader: $m $r->{name}: the same 403 in competitions 2, 1 and a missing one")
            or diag(join ' | ', map { $_->code . ' ' . $_->content } $a, $b, $d);
    }
}

# ---- nothing changed ----
my $after = snapshot();
is($after, $before, 'the competitions, competition 2\'s resources and its change log are unchanged');
is(req(GET => "/api/competition/2/changes", $organizer)->code, 200, '... and were read');

done_testing();
