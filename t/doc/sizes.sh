#!/usr/bin/env bash
# t/doc/sizes.sh [DIR|FILE.c ...]
#
# The size limits of the C sources: no .c file over 500 lines, no function over 120
# lines (from the first line of its head to its closing brace).  Checks the .c files
# of the directories given (not their subdirectories), by default lib/, mod_ranking/
# and tools/ of the source tree.  Prints one line per file or function over its
# limit, then a last line "N passed, M failed" (one check per file and one per
# function); exits non-zero when any failed.
#
# A function is found as this tree writes one: its head starts at column 0 and its
# body opens with a '{' alone at column 0 (or at the end of the head's line) and
# ends with the next '}' at column 0.
set -euo pipefail

FILE_MAX=${FILE_MAX:-500}
FUNC_MAX=${FUNC_MAX:-120}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

if [ $# -eq 0 ]; then
    cd "$ROOT"
    set -- lib mod_ranking tools
fi

files=()
for a in "$@"; do
    if [ -d "$a" ]; then
        for f in "$a"/*.c; do
            [ -f "$f" ] && files+=("$f")
        done
    elif [ -f "$a" ]; then
        files+=("$a")
    else
        echo "Bail out! no such file or directory: $a" >&2
        exit 2
    fi
done
if [ ${#files[@]} -eq 0 ]; then
    echo "Bail out! no .c file in: $*" >&2
    exit 2
fi

awk -v file_max="$FILE_MAX" -v func_max="$FUNC_MAX" '
function report(ok, msg) {
    if (ok) { passed++ } else { failed++; print msg }
}
FNR == 1 {
    if (NR > 1) { report(lines <= file_max, prev ": " lines " lines (over " file_max ")") }
    prev = FILENAME; head = 0; start = 0; name = ""
}
{ lines = FNR }
# the head of a function: an identifier at column 0, not a preprocessor line,
# a label, a comment or a declaration ending with ";"
/^[A-Za-z_]/ && !/;[ \t]*$/ && !/^[A-Za-z_][A-Za-z0-9_]*:/ {
    if (index($0, "(")) {
        head = FNR
        s = substr($0, 1, index($0, "(") - 1)
        sub(/[ \t*]+$/, "", s)
        n = split(s, w, /[ \t*]+/)
        name = w[n]
    }
}
/^\{[ \t]*$/ && head { start = head }
# a body opened on the line of the head, or a whole function on one line
/^[A-Za-z_][^=]*\)[ \t]*\{/ && !/^(struct|union|enum|typedef)/ {
    if ($0 ~ /}[ \t]*$/) { report(1, ""); head = 0 } else { start = FNR }
}
/^}/ && start {
    report(FNR - start + 1 <= func_max,
           FILENAME ":" start ": " name "(): " FNR - start + 1 " lines (over " func_max ")")
    start = 0; head = 0
}
END {
    if (NR > 0) { report(lines <= file_max, prev ": " lines " lines (over " file_max ")") }
    printf "%d passed, %d failed\n", passed, failed
    exit failed > 0
}
' "${files[@]}"
