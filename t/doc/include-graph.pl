#!/usr/bin/env perl
# t/doc/include-graph.pl: the diagram of the code's structure in doc/design.md,
# generated from the #include lines of lib/, mod_ranking/ and tools/.
#
#   perl t/doc/include-graph.pl            print the diagram
#   perl t/doc/include-graph.pl --write    put it into doc/design.md, between the
#                                          lines <!-- include-graph:begin --> and
#                                          <!-- include-graph:end -->
#   perl t/doc/include-graph.pl --check    exit 1 (and show a diff) when
#                                          doc/design.md holds another diagram
#
# One node per unit: a .c file and the .h of the same name are one unit (a header
# alone is a unit too).  An arrow A --> B: a file of unit A includes a header of
# unit B with #include "..." (resolved by file name among the three folders, as
# the build's -I options do; headers found elsewhere, httpd's, APR's, the
# generated config.h, are not drawn).  Each folder lists its units from the ones
# that include the most layers below them down to those that include none of
# the project's headers; within a layer by name; units that include each other
# (a cycle, directly or not) share a layer and are named on a line of their own.  The files are the ones git
# tracks (the files on disk outside a git checkout).
use strict;
use warnings;
use File::Basename qw(dirname basename);
use Cwd qw(abs_path);

my $ROOT = abs_path(dirname(__FILE__) . '/../..');
my @DIRS = (
    [ 'lib',         'the pure library, librk (no httpd header)' ],
    [ 'mod_ranking', 'the httpd glue (the module)' ],
    [ 'tools',       'ranking-admin, the administration command' ],
);
my $DOC   = "$ROOT/doc/design.md";
my $BEGIN = '<!-- include-graph:begin -->';
my $END   = '<!-- include-graph:end -->';
my $WIDTH = 88;

sub source_files {
    my @files;
    my @git = -e "$ROOT/.git"
        ? `git -C '$ROOT' ls-files -- lib mod_ranking tools 2>/dev/null` : ();
    if (@git) {
        chomp @git;
        @files = grep { m{\.[ch]$} && -f "$ROOT/$_" } @git;
    } else {
        for my $d (map { $_->[0] } @DIRS) {
            push @files, map { s{^\Q$ROOT\E/}{}r } glob("$ROOT/$d/*.c $ROOT/$d/*.h");
        }
    }
    return grep { m{^(?:lib|mod_ranking|tools)/[^/]+$} } @files;
}

sub unit_of { my $f = basename($_[0]); $f =~ s/\.[ch]$//; return $f }

sub graph {
    my @files = source_files();
    my (%folder, %header_unit, %deps);
    for my $f (@files) {
        my ($d) = $f =~ m{^([^/]+)/};
        my $u = unit_of($f);
        $folder{$u} = $d;
        $header_unit{ basename($f) } = $u if $f =~ /\.h$/;
        $deps{$u} //= {};
    }
    for my $f (@files) {
        my $u = unit_of($f);
        open my $fh, '<', "$ROOT/$f" or die "$f: $!\n";
        while (my $line = <$fh>) {
            next unless $line =~ /^\s*#\s*include\s*"([^"]+)"/;
            my $to = $header_unit{ basename($1) };
            $deps{$u}{$to} = 1 if defined $to && $to ne $u;
        }
        close $fh;
    }
    return (\%folder, \%deps);
}

# Strongly connected components (Tarjan), visited in name order: units that include
# each other, directly or not, are one component.  Returns the component of each unit.
sub components {
    my ($deps) = @_;
    my ($index, %idx, %low, %on, @stack, %comp) = (0);
    my $visit;
    $visit = sub {
        my ($u) = @_;
        $idx{$u} = $low{$u} = $index++;
        push @stack, $u; $on{$u} = 1;
        for my $v (sort keys %{ $deps->{$u} }) {
            if (!defined $idx{$v}) { $visit->($v); $low{$u} = $low{$v} if $low{$v} < $low{$u} }
            elsif ($on{$v}) { $low{$u} = $idx{$v} if $idx{$v} < $low{$u} }
        }
        if ($low{$u} == $idx{$u}) {
            my @c;
            while (1) { my $w = pop @stack; $on{$w} = 0; push @c, $w; last if $w eq $u }
            my $c = [ sort @c ];
            $comp{$_} = $c for @c;
        }
    };
    for my $u (sort keys %$deps) { $visit->($u) unless defined $idx{$u} }
    return \%comp;
}

# the number of layers below a unit (0: it includes none of the project's headers);
# the units of one cycle share their layer
sub depth {
    my ($u, $deps, $comp, $memo) = @_;
    my $key = join ' ', @{ $comp->{$u} };
    return $memo->{$key} if defined $memo->{$key};
    my %in = map { $_ => 1 } @{ $comp->{$u} };
    my $d = 0;
    for my $m (@{ $comp->{$u} }) {
        for my $v (keys %{ $deps->{$m} }) {
            next if $in{$v};
            my $dv = depth($v, $deps, $comp, $memo) + 1;
            $d = $dv if $dv > $d;
        }
    }
    return $memo->{$key} = $d;
}

sub wrap_list {
    my ($head, $items, $indent) = @_;
    my @lines = ($head);
    for my $i (0 .. $#$items) {
        my $word = $items->[$i] . ($i < $#$items ? ',' : '');
        if (length($lines[-1]) + 1 + length($word) > $WIDTH && $lines[-1] ne $head) {
            push @lines, (' ' x $indent) . $word;
        } else {
            $lines[-1] .= ' ' . $word;
        }
    }
    return @lines;
}

sub diagram {
    my ($folder, $deps) = graph();
    my $comp = components($deps);
    my %memo;
    my @out = ('```text',
               '# generated by t/doc/include-graph.pl from the #include lines: do not edit',
               '# A --> B, C: a file of A (A.c, A.h) includes the header of B and of C');
    my $namew = 0;
    for my $u (keys %$folder) { $namew = length($u) if length($u) > $namew }
    for my $dd (@DIRS) {
        my ($d, $what) = @$dd;
        my @units = grep { $folder->{$_} eq $d } keys %$folder;
        next unless @units;
        push @out, '', "$d/: $what";
        my @sorted = sort {
            depth($b, $deps, $comp, \%memo) <=> depth($a, $deps, $comp, \%memo) or $a cmp $b
        } @units;
        for my $u (@sorted) {
            my @to = sort {
                # the folder's own units first, then lib/, then the others
                (($folder->{$a} eq $d) ? 0 : ($folder->{$a} eq 'lib') ? 1 : 2)
                    <=> (($folder->{$b} eq $d) ? 0 : ($folder->{$b} eq 'lib') ? 1 : 2)
                    or $a cmp $b
            } keys %{ $deps->{$u} };
            my $head = sprintf('  %-*s', $namew, $u);
            if (@to) {
                push @out, wrap_list("$head -->", \@to, $namew + 7);
            } else {
                push @out, "$head     (includes none of the project's headers)";
            }
        }
        my %seen;
        for my $u (@sorted) {
            my $c = $comp->{$u};
            next if @$c < 2 || $seen{"@$c"}++;
            push @out, wrap_list('  cycle: these include each other, directly or not:',
                                 $c, 4);
        }
    }
    push @out, '```';
    return join("\n", @out) . "\n";
}

sub doc_parts {
    open my $fh, '<', $DOC or die "$DOC: $!\n";
    my $text = do { local $/; <$fh> };
    close $fh;
    $text =~ /\A(.*?^\Q$BEGIN\E\n)(.*?)(^\Q$END\E\n.*)\z/ms
        or die "$DOC: no lines $BEGIN ... $END\n";
    return ($1, $2, $3);
}

my $mode = shift(@ARGV) // '';
my $want = diagram();
if ($mode eq '') {
    print $want;
} elsif ($mode eq '--write') {
    my ($pre, $old, $post) = doc_parts();
    if ($old eq $want) { print "doc/design.md: the diagram is up to date\n"; exit 0 }
    open my $fh, '>', $DOC or die "$DOC: $!\n";
    print $fh $pre, $want, $post;
    close $fh or die "$DOC: $!\n";
    print "doc/design.md: the diagram was rewritten\n";
} elsif ($mode eq '--check') {
    my (undef, $old) = doc_parts();
    exit 0 if $old eq $want;
    my $tmp = "/tmp/include-graph.$$";
    open my $a, '>', "$tmp.doc" or die; print $a $old; close $a;
    open my $b, '>', "$tmp.gen" or die; print $b $want; close $b;
    system('diff', '-u', '--label', 'doc/design.md', '--label', 'generated', "$tmp.doc", "$tmp.gen");
    unlink "$tmp.doc", "$tmp.gen";
    print "doc/design.md's diagram differs from the code: run perl t/doc/include-graph.pl --write\n";
    exit 1;
} else {
    die "usage: $0 [--write|--check]\n";
}
