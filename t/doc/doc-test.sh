#!/usr/bin/env bash
# t/doc/doc-test.sh [RANKING_ADMIN]: the documentation matches the code and the tools.
#
#   - README.md is at most 300 lines and links every page of doc/, and the package
#     installs every file of doc/ (Makefile.am);
#   - every relative link of README.md and doc/*.md points at a file that exists,
#     and its #anchor at a heading of that file (GitHub's anchors);
#   - doc/directives.md has one entry ("## Name") per directive of the module (the
#     AP_INIT_* entries of every mod_ranking/*.c), and no other, each with its
#     Description, Syntax, Default and Context, the context the code gives it,
#     and no test cited;
#   - the diagram in doc/design.md is what t/doc/include-graph.pl generates from
#     the #include lines, and every file of the project named in doc/design.md
#     exists;
#   - the man page tools/ranking-admin.8 names every command that
#     RANKING_ADMIN --help lists (default build/tools/ranking-admin; skipped
#     when it is not built) in NAME, DESCRIPTION and COMMANDS, and its examples
#     run as the server's user;
#   - README.Debian lists every file of the scoreboard page (board/) and says how
#     data gets into a new database, as doc/operations.md does;
#   - the packaged site (conf/ranking-site.conf) sets ServerTokens Prod, as the
#     README's configuration does, outside <VirtualHost>.
# Output: one "ok"/"not ok"/"skip" line per check, then "N passed, M failed"
# (", K skipped" when some check could not run); exit status 1 on any failure.
set -uo pipefail
export LC_ALL=C.UTF-8

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ADMIN=${1:-$ROOT/build/tools/ranking-admin}
cd "$ROOT" || exit 2

# tracked PATH...: the files under PATH that git tracks (every file outside a checkout)
tracked() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git ls-files -- "$@"
    else find "$@" -type f | sort; fi
}

pass=0 fail=0 skip=0
ok()      { pass=$((pass + 1)); printf 'ok - %s\n' "$*"; }
not_ok()  { fail=$((fail + 1)); printf 'not ok - %s\n' "$*"; }
skipped() { skip=$((skip + 1)); printf 'skip - %s\n' "$*"; }
# check DESCRIPTION COMMAND...: one check, the command's output shown only on failure
check() {
    local desc=$1 out; shift
    if out=$("$@" 2>&1); then ok "$desc"
    else not_ok "$desc"; printf '%s\n' "$out" | sed 's/^/    /' | head -n 40; fi
}

# ---- README.md and the index of doc/ ----------------------------------------------
readme_lines=$(wc -l <README.md)
if [ "$readme_lines" -le 300 ]; then ok "README.md is at most 300 lines ($readme_lines)"
else not_ok "README.md is at most 300 lines ($readme_lines)"; fi

for page in doc/*.md; do
    if grep -qE "\]\(\.?/?$page(#[^)]*)?\)" README.md; then ok "README.md links $page"
    else not_ok "README.md links $page"; fi
done

# the package installs every file of doc/ beside README.md (Makefile.am), so that
# README.md's links resolve in /usr/share/doc too
pages_installed() {
    local f listed bad=0
    # the lines of the variable (continued by a backslash), one word a line
    # shellcheck disable=SC1003
    listed=$(sed -n '/^dist_pages_DATA *=/,/[^\\]$/p' Makefile.am | tr -s ' \t\\' '\n')
    while read -r f; do
        grep -qx "$f" <<<"$listed" || { echo "not in Makefile.am's dist_pages_DATA: $f"; bad=1; }
    done < <(tracked doc)
    while read -r f; do
        case $f in doc/*) [ -e "$f" ] || { echo "Makefile.am lists $f: no such file"; bad=1; } ;; esac
    done <<<"$listed"
    return "$bad"
}
check "Makefile.am installs every file of doc/ (dist_pages_DATA)" pages_installed

# make dist carries the page and its browser tests (the Debian package installs
# board/), file by file (t/board/node_modules is npm's; a build directory's board/ holds
# the browser tests' output)
board_in_dist() {
    local f listed bad=0
    # every EXTRA_DIST line and its continuations, one word a line
    # shellcheck disable=SC1003
    listed=$(sed -n '/^EXTRA_DIST *+\?=/,/[^\\]$/p' Makefile.am | tr -s ' \t\\' '\n')
    while read -r f; do
        grep -qx "$f" <<<"$listed" || { echo "not in Makefile.am's EXTRA_DIST: $f"; bad=1; }
    done < <(tracked board t/board | grep -v '/node_modules/')
    return "$bad"
}
check "Makefile.am's EXTRA_DIST carries every file of board/ and t/board/" board_in_dist

# ---- links ------------------------------------------------------------------------
# links FILE: every relative link (inline, image or reference style, outside code)
# that does not resolve, one per line; exit status 1 when there is one
links() {
    perl -CSD -e '
        use strict; use warnings;
        use File::Basename qw(dirname);
        my %anchors;
        sub anchors {
            my ($f) = @_;
            return $anchors{$f} if $anchors{$f};
            my %a; my %seen; my $fence = 0;
            open my $fh, "<:encoding(UTF-8)", $f or return $anchors{$f} = {};
            while (my $l = <$fh>) {
                if ($l =~ /^\s*(```|~~~)/) { $fence = !$fence; next }
                next if $fence;
                next unless $l =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
                my $s = lc $1;
                $s =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;      # a link in a heading: its text
                $s =~ s/[^\p{L}\p{N}\s_-]//g;            # GitHub drops punctuation
                $s =~ s/\s/-/g;
                my $n = $seen{$s}++;
                $a{$n ? "$s-$n" : $s} = 1;
            }
            close $fh;
            return $anchors{$f} = \%a;
        }
        my $file = shift;
        my $dir = dirname($file);
        open my $fh, "<:encoding(UTF-8)", $file or die "$file: $!\n";
        my ($fence, $n, $bad, $count) = (0, 0, 0, 0);
        while (my $l = <$fh>) {
            $n++;
            if ($l =~ /^\s*(```|~~~)/) { $fence = !$fence; next }
            next if $fence;
            $l =~ s/`[^`]*`//g;                           # inline code
            my @t = $l =~ /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
            push @t, $1 if $l =~ /^\s*\[[^\]]+\]:\s*(\S+)/;
            for my $t (@t) {
                next if $t =~ m{^[a-z][a-z0-9+.-]*:}i;    # http:, https:, mailto:
                $count++;
                my ($path, $frag) = $t =~ /^([^#]*)(?:#(.*))?$/;
                my $target = $path eq "" ? $file : "$dir/$path";
                if (!-e $target) { print "$file:$n: $t: no such file\n"; $bad++; next }
                next unless defined $frag && length $frag;
                if (-d $target || $target !~ /\.md$/) {
                    print "$file:$n: $t: an anchor in a file that is not a page\n"; $bad++; next;
                }
                unless (anchors($target)->{lc $frag}) {
                    print "$file:$n: $t: no heading #$frag in $target\n"; $bad++;
                }
            }
        }
        print "$count links\n";
        exit($bad ? 1 : 0);
    ' "$1"
}
for page in README.md doc/*.md; do
    if out=$(links "$page"); then ok "the relative links of $page resolve ($(tail -1 <<<"$out"))"
    else not_ok "the relative links of $page resolve"; sed '$d; s/^/    /' <<<"$out"; fi
done

# ---- doc/directives.md against the module's directive table -----------------------------
# NAME CONTEXT for every AP_INIT_* entry of the module (CONTEXT: the req_override)
code_directives() {
    perl -0777 -ne '
        while (/AP_INIT_[A-Z0-9]+\s*\(\s*"([^"]+)"\s*,[^,]*,[^,]*,\s*([A-Z_| ]+?)\s*,/g) {
            print "$1 $2\n";
        }' mod_ranking/*.c | sort -u
}
# NAME for every entry of the page
page_directives() { sed -nE 's/^## (Ranking[A-Za-z0-9]*)[[:space:]]*$/\1/p' doc/directives.md | sort; }
# entry NAME: the lines of its entry
entry() { awk -v h="## $1" '$0 == h {on = 1; next} on && /^## / {exit} on' doc/directives.md; }

code=$(code_directives)
page=$(page_directives)
if [ -z "$code" ]; then not_ok "the module's directive table is found (AP_INIT_* in mod_ranking/*.c)"; fi
dups=$(uniq -d <<<"$page")
if [ -z "$dups" ]; then ok "doc/directives.md has one entry per name"
else not_ok "doc/directives.md has one entry per name (twice: $(tr '\n' ' ' <<<"$dups"))"; fi
while read -r name ctx; do
    [ -n "$name" ] || continue
    if ! grep -qx "$name" <<<"$page"; then
        not_ok "directive $name has an entry in doc/directives.md"; continue
    fi
    body=$(entry "$name")
    missing=""
    for field in Description Syntax Default Context; do
        grep -qE "^\| $field \| .*[^[:space:]|].* \|$" <<<"$body" || missing="$missing $field"
    done
    case $ctx in
        ACCESS_CONF) want_ctx='directory' ;;
        RSRC_CONF)   want_ctx='server config' ;;
        *)           want_ctx="?$ctx" ;;
    esac
    got_ctx=$(sed -nE 's/^\| Context \| (.*) \|$/\1/p' <<<"$body")
    cited=$(grep -nE '(^|[^A-Za-z])t/[a-z]+/|\.t\b|t/faults|\btest [0-9]+[a-z]?\b|\b[0-9]+[a-c]\)' <<<"$body" | head -3)
    syntax_ok=1
    grep -qE "^\| Syntax \| \`$name( |\`)" <<<"$body" || syntax_ok=0
    if [ -z "$missing" ] && [ "${got_ctx%% (*}" = "$want_ctx" ] && [ -z "$cited" ] && [ "$syntax_ok" = 1 ]; then
        ok "directive $name: its entry has Description, Syntax, Default, Context ($want_ctx), no test cited"
    else
        not_ok "directive $name: its entry has Description, Syntax, Default, Context ($want_ctx), no test cited"
        [ -n "$missing" ] && echo "    missing:$missing"
        [ "${got_ctx%% (*}" = "$want_ctx" ] || echo "    Context: '$got_ctx', the code says $ctx ($want_ctx)"
        [ "$syntax_ok" = 1 ] || echo "    the Syntax does not start with $name"
        [ -n "$cited" ] && printf '    cites a test: %s\n' "$cited"
    fi
done <<<"$code"
code_names=$(cut -d' ' -f1 <<<"$code")
while read -r name; do
    [ -n "$name" ] || continue
    if grep -qx "$name" <<<"$code_names"; then ok "doc/directives.md entry $name is a directive of the module"
    else not_ok "doc/directives.md entry $name is a directive of the module (no AP_INIT_* names it)"; fi
done <<<"$page"

# ---- doc/design.md ------------------------------------------------------------------
check "doc/design.md's diagram is the one t/doc/include-graph.pl generates from the code" \
    perl t/doc/include-graph.pl --check
# the project's source files named in doc/design.md (rk_*, mod_ranking*, admin_*,
# ranking-admin*, check_*: a .c or .h, with or without a folder) exist
named_files_exist() {
    local f bad=0 n=0 names
    names=$(tracked lib mod_ranking tools t | sed 's|.*/||')
    while read -r f; do
        [ -n "$f" ] || continue
        n=$((n + 1))
        if [[ $f == */* ]]; then
            [ -e "$f" ] || { echo "doc/design.md names $f: no such file"; bad=1; }
        elif ! grep -qxF "$f" <<<"$names"; then
            echo "doc/design.md names $f: no such file in the tree"; bad=1
        fi
    done < <(grep -oE '([a-z0-9_/]+/)?(rk_|mod_ranking|admin_|ranking-admin|check_)[a-z0-9_-]*\.[ch]\b' doc/design.md | sort -u)
    echo "$n names"
    [ "$n" -gt 0 ] && [ "$bad" = 0 ]
}
check "every source file doc/design.md names exists" named_files_exist

# ---- the man page of ranking-admin ------------------------------------------------------
MAN=tools/ranking-admin.8
# section NAME: the man page's lines from .SH NAME up to the next .SH
man_section() { awk -v s=".SH $1" '$0 == s {on = 1; next} on && /^\.SH / {exit} on' "$MAN"; }
if [ -x "$ADMIN" ]; then
    # the commands of --help: the lines of its "Commands:" paragraph that start a command
    commands=$("$ADMIN" --help 2>&1 | awk '/^Commands:/ {on = 1; next} on && /^$/ {exit}
        on && /^  [a-z]/ {c = $1; if ($2 == "prune") c = c " prune"; print c}')
    if [ "$(wc -l <<<"$commands")" -ge 10 ]; then
        ok "ranking-admin --help lists its commands ($(wc -l <<<"$commands"))"
    else
        not_ok "ranking-admin --help lists its commands (found: $commands)"
    fi
    name_sec=$(man_section NAME | sed 's/\\-/-/g')
    desc_sec=$(man_section DESCRIPTION | sed 's/\\-/-/g')
    cmd_sec=$(man_section COMMANDS | sed 's/\\-/-/g')
    while read -r c; do
        [ -n "$c" ] || continue
        miss=""
        # a command as a word of its own (export is not export-results)
        re="(^|[^a-z-])${c}([^a-z-]|$)"
        grep -qE "$re" <<<"$name_sec" || miss="$miss NAME"
        grep -qE "$re" <<<"$desc_sec" || miss="$miss DESCRIPTION"
        grep -qE "^\.(B|BI|BR) \"?${c}\b" <<<"$cmd_sec" || miss="$miss COMMANDS"
        if [ -z "$miss" ]; then ok "man page: command '$c' is in NAME, DESCRIPTION and COMMANDS"
        else not_ok "man page: command '$c' is in NAME, DESCRIPTION and COMMANDS (missing from:$miss)"; fi
    done <<<"$commands"
else
    skipped "man page lists every command of ranking-admin --help ($ADMIN is not built)"
fi
# every command line of EXAMPLES that runs ranking-admin runs it as www-data
examples_as_www() {
    local bad ex
    ex=$(man_section EXAMPLES | sed 's/\\-/-/g')
    bad=$(grep -E '(^|[^-])ranking-admin' <<<"$ex" |
          grep -vE '^runuser -u www-data -- ranking-admin( |$)' || true)
    [ -z "$bad" ] || { printf 'not as the server'"'"'s user: %s\n' "$bad"; return 1; }
    grep -q '^runuser -u www-data -- ranking-admin' <<<"$ex"
}
check "man page: every example runs ranking-admin as the server's user (runuser -u www-data --)" examples_as_www

# ---- Debian -------------------------------------------------------------------------
RD=debian/libapache2-mod-ranking.README.Debian
board_listed() {
    local f bad=0 n=0
    while read -r f; do
        n=$((n + 1))
        grep -qF "${f#board/}" "$RD" || { echo "not listed: $f"; bad=1; }
    done < <(tracked board)
    [ "$n" -gt 0 ] && grep -qF /usr/share/libapache2-mod-ranking/board "$RD" && [ "$bad" = 0 ]
}
check "README.Debian lists every file of the scoreboard page (board/) and where it is" board_listed
# how data gets into a new database: init, users, import, import-spots
data_in() {
    local f w bad=0
    for f in "$RD" doc/operations.md; do
        for w in 'ranking-admin' ' init' ' add ' ' import ' ' import-spots '; do
            grep -qF -- "$w" "$f" || { echo "$f does not mention '$w'"; bad=1; }
        done
    done
    return "$bad"
}
check "README.Debian and doc/operations.md say how data gets in (init, add, import, import-spots)" data_in
server_tokens() {
    # outside <VirtualHost> (ServerTokens is server-wide), in both
    local f
    for f in conf/ranking-site.conf README.md; do
        awk '/^[[:space:]]*<VirtualHost/ {v = 1} /^[[:space:]]*<\/VirtualHost>/ {v = 0}
             /^[[:space:]]*ServerTokens[[:space:]]+Prod[[:space:]]*$/ && !v {found = 1}
             END {exit !found}' "$f" || { echo "$f: no ServerTokens Prod outside <VirtualHost>"; return 1; }
    done
}
check "the packaged site sets ServerTokens Prod (server-wide) as README.md's configuration does" server_tokens

# The code's shape (issue 26): no file over its size limits (t/doc/sizes.sh), no
# #include cycle between the project's files, and the revision and the change log
# read and written in one glue file only.
sizes() { local out; out=$("$ROOT/t/doc/sizes.sh" lib mod_ranking tools) && return 0; grep -v " passed, " <<<"$out"; return 1; }
check "no .c file of lib/, mod_ranking/, tools/ over 500 lines, no function over 120 (t/doc/sizes.sh)" sizes
include_cycles() {
    perl -e '
        use strict; my (%e, %state, @stack, $bad);
        for my $f (map { glob "$_/*.[ch]" } qw(lib mod_ranking tools)) {
            (my $b = $f) =~ s{.*/}{};
            open my $fh, "<", $f or die; local $/; my $t = <$fh>;
            $e{$b} = [ map { s{.*/}{}r } $t =~ /^\s*#\s*include\s+"([^"]+)"/mg ];
        }
        sub visit { my $n = shift; $state{$n} = 1; push @stack, $n;
            for my $m (grep { exists $e{$_} } @{ $e{$n} }) {
                if (($state{$m} // 0) == 1) { my @c = @stack; shift @c while $c[0] ne $m;
                    print "cycle: @c $m\n"; $bad = 1 }
                elsif (!$state{$m}) { visit($m) } }
            pop @stack; $state{$n} = 2 }
        visit($_) for grep { !$state{$_} } sort keys %e;
        exit($bad ? 1 : 0);'
}
check "no #include cycle between the files of lib/, mod_ranking/ and tools/" include_cycles
changes_owned() {
    # the statements of the revision and of the change log (lane_history) are run
    # only by mod_ranking_changes.c
    local q bad=0
    for q in $(grep -oE 'RK_Q_(REVISION|HISTORY)[A-Z_]*' lib/rk_sql.h | sort -u); do
        for f in mod_ranking/*.c; do
            [ "$(basename "$f")" = mod_ranking_changes.c ] && continue
            if grep -qw "$q" "$f"; then echo "$f uses $q"; bad=1; fi
        done
    done
    return "$bad"
}
check "the revision and the change log are read and written in mod_ranking_changes.c only" changes_owned

if [ "$skip" -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ "$fail" -eq 0 ]
