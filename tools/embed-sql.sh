#!/bin/sh
# tools/embed-sql.sh FILE... > upgrade_sql.c
#
# Writes the C source that embeds the schema upgrade steps, and the schemas that
# "ranking-admin init" applies, into ranking-admin, so that the installed command
# needs no file of the source tree.  Each FILE is sql/upgrade/<backend>/<NNN>.sql:
# <backend> is "sqlite" or "pgsql", <NNN> the schema version the script brings the
# database to, from the one before (002: 1 -> 2); or sql/schema.sql (SQLite) and
# sql/schema-pg.sql (PostgreSQL), which are cut into statements by the same rules
# (both are needed).
#
# Each script is cut into its statements, one C string each, run one by one by
# ranking-admin (apr_dbd runs one statement per call on SQLite).  The rules, which
# sql/README.md gives to whoever writes a script:
#   - a statement ends with a ';' that ends its line (spaces after it allowed);
#   - inside $$ ... $$ (PostgreSQL function bodies) and inside an SQLite
#     CREATE TRIGGER ... END; a ';' ends nothing;
#   - lines holding only a comment (--) or nothing are left out; no statement
#     may have a string literal spanning lines;
#   - no BEGIN / COMMIT: ranking-admin wraps every step it applies in one
#     transaction.
# It fails (no output, exit 1) on an unterminated statement, a file named
# otherwise, steps that are not 2, 3, ... N for each back end, or back ends that
# do not end at the same N.  The generated file checks at compile time that N is
# RK_SCHEMA_VERSION (lib/rk_sql.h).
set -eu
LC_ALL=C
export LC_ALL

[ $# -gt 0 ] || { echo "usage: $0 sql/upgrade/<backend>/<NNN>.sql..." >&2; exit 2; }

for f in "$@"; do
    case "$(basename "$f")" in
    schema.sql)    printf 'schema sqlite %s\n' "$f"; continue ;;
    schema-pg.sql) printf 'schema pgsql %s\n' "$f"; continue ;;
    esac
    b=$(basename "$(dirname "$f")")
    n=$(basename "$f" .sql)
    case "$b" in sqlite|pgsql) ;; *) echo "$0: $f: back end '$b' is not sqlite or pgsql" >&2; exit 1 ;; esac
    case "$n" in [0-9][0-9][0-9]) ;; *) echo "$0: $f: not named NNN.sql" >&2; exit 1 ;; esac
    [ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 1; }
    printf '%s %s %s\n' "$b" "$n" "$f"
done | sort | awk '
function fail(msg) { print "embed-sql.sh: " msg > "/dev/stderr"; failed = 1; exit 1 }
# a C string literal holding S (no trigraph, no escape left to the compiler)
# (char by char: the backslashes of sub/gsub replacements differ between awks)
function cstr(s,    out, i, c) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "\\" || c == "\"" || c == "?") out = out "\\" c
        else if (c == "\n") out = out "\\n"
        else if (c == "\t") out = out "\\t"
        else out = out c
    }
    return "\"" out "\""
}
function upper(s) { return toupper(s) }
# The statements of FILE (SHOWN in messages) of BACKEND, as C initialisers, one a
# line; their number in nstmt.
function statements(file, shown, backend,    body, stmt, dollar, trigger, r, line, rest, i, last, piece) {
    body = ""; nstmt = 0; stmt = ""; dollar = 0; trigger = 0
    while ((r = (getline line < file)) > 0) {
        sub(/\r$/, "", line)
        if (!dollar && stmt == "" && line ~ /^[ \t]*(--.*)?$/) continue
        if (!dollar && line ~ /^[ \t]*--/) continue
        if (stmt == "" && backend == "sqlite" && upper(line) ~ /^[ \t]*CREATE[ \t]+(TEMP[ \t]+|TEMPORARY[ \t]+)?TRIGGER/)
            trigger = 1
        rest = line
        while ((i = index(rest, "$$")) > 0) { dollar = !dollar; rest = substr(rest, i + 2) }
        last = !dollar && line ~ /;[ \t]*$/ \
            && !(trigger && upper(line) !~ /(^|[^A-Z0-9_])END[ \t]*;[ \t]*$/)
        # nothing after the last ";": apr_dbd_query would run the rest as another
        # statement (an empty one is an error on SQLite)
        if (last) sub(/[ \t]+$/, "", line)
        piece = cstr(last ? line : line "\n")
        stmt = (stmt == "" ? piece : stmt "\n        " piece)
        if (!last) continue
        body = body "    " stmt ",\n"
        nstmt++; stmt = ""; trigger = 0
    }
    if (r < 0) fail(shown ": cannot be read")
    close(file)
    if (stmt != "") fail(shown ": the last statement has no semicolon ending a line")
    if (nstmt == 0) fail(shown ": no statement")
    return body
}
$1 == "schema" {
    shown = ($2 == "sqlite" ? "sql/schema.sql" : "sql/schema-pg.sql")
    body = statements($3, shown, $2)
    schemas = schemas "/* " shown ", for ranking-admin init */\nconst char *const schema_" $2 "[] = {\n" body "    NULL\n};\n\n"
    nschemas++
    next
}
{
    backend = $1; version = $2 + 0; file = $3; shown = "sql/upgrade/" backend "/" $2 ".sql"
    if (backend != last_backend) {
        if (last_backend != "") ends[last_backend] = last_version
        last_backend = backend; last_version = 1
    }
    if (version != last_version + 1)
        fail(shown ": step " version " follows step " last_version " (steps are 2, 3, ... with no gap)")
    last_version = version
    name = backend "_" $2
    body = statements(file, shown, backend)
    arrays = arrays "/* " shown " */\nstatic const char *const " name "[] = {\n" body "    NULL\n};\n\n"
    table = table "    { \"" (backend == "sqlite" ? "sqlite3" : "pgsql") "\", " version ", \"" shown "\", " nstmt ", " name " },\n"
    count++
}
END {
    if (failed) exit 1
    if (last_backend != "") ends[last_backend] = last_version
    if (!("sqlite" in ends) || !("pgsql" in ends)) fail("steps are needed for both sqlite and pgsql")
    if (nschemas != 2) fail("sql/schema.sql and sql/schema-pg.sql are both needed")
    if (ends["sqlite"] != ends["pgsql"])
        fail("sqlite steps end at " ends["sqlite"] ", pgsql steps at " ends["pgsql"])
    print "/* upgrade_sql.c: GENERATED by tools/embed-sql.sh from sql/upgrade/ and the schemas at build time;"
    print " * do not edit (edit the scripts).  See upgrade_sql.h. */"
    print "#include <stddef.h>"
    print "#include \"rk_sql.h\""
    print "#include \"upgrade_sql.h\""
    print ""
    print "/* the last step brings a database to the version the code needs */"
    print "typedef char upgrade_steps_end_at_RK_SCHEMA_VERSION[" ends["sqlite"] " == RK_SCHEMA_VERSION ? 1 : -1];"
    print ""
    printf "%s", schemas
    printf "%s", arrays
    print "const upgrade_step upgrade_steps[] = {"
    printf "%s", table
    print "};"
    print "const int upgrade_step_count = " count ";"
    print "const int upgrade_latest = " ends["sqlite"] ";"
}'
