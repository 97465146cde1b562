#!/usr/bin/env bash
# t/run-apache-test.sh BUILD_DIR [--asan] [--mpm event|prefork|worker] [--db sqlite3|pgsql]
#                      [-- TEST.t...]
#
# Runs the Apache::Test suite (t/api/*.t) against BUILD_DIR/mod_ranking/.libs/mod_ranking.so
# (BUILD_DIR absolute, or relative to the current directory or to the repository root).
# As root, without a terminal:
#   1. copies the module to t/modules/mod_ranking.so (loaded by t/conf/extra.conf.in);
#   2. creates a fresh t/db/ranking.db from sql/schema.sql + sql/demo.sql, owned by the
#      user the server's children run as (Apache::Test as root: nobody:nogroup); with
#      --db pgsql, a throwaway PostgreSQL server instead (t/pg/pg-server.sh, on a free
#      loopback port, stopped at the end) with sql/schema-pg.sql + sql/demo.sql;
#      t/conf/db.conf gets the matching DBDriver and DBDParams;
#   3. writes t/conf/mpm.conf (the MPM) and runs t/TEST.PL, verbose, with -apxs, -httpd
#      (with --asan a wrapper that preloads the ASan runtime), -httpd_conf
#      t/conf/modules.conf, -httpd_conf_extra t/conf/mpm.conf and -port select;
#   4. fails when a test fails, when a test or a file is skipped (or TODO), when fewer
#      test files or tests ran than expected, and with --asan when an ASan/UBSan report
#      appears.  The summary goes to t/logs/summary.txt; the full output to
#      t/logs/apache-test.out.
# The .t files get RANKING_ADMIN (the admin command of BUILD_DIR), RANKING_DBD_DRIVER and
# RANKING_DB (the test database: a file, or a PostgreSQL conninfo), RANKING_SRC (the repository), RANKING_HTTPD_USER (the children's user).
# After "--", only the given test files run (paths relative to t/ or to the repository,
# e.g. api/22_delete.t); the checks then apply to those files.
set -euo pipefail

# Lowest number of tests a complete run produces (the "Tests=" of the summary): a run
# with fewer fails (Apache::Test can exit 0 having run nothing).  Besides, each .t file
# declares in a "# tests: N" line how many tests it runs at least, and a file that
# runs fewer fails the run: a file that stops early does not go unnoticed.  The
# minimum is the larger of MIN_TESTS and the sum of the declarations.
MIN_TESTS=${MIN_TESTS:-2000}

usage() { echo "usage: $0 BUILD_DIR [--asan] [--mpm event|prefork|worker] [--db sqlite3|pgsql] [-- TEST.t...]" >&2; exit 2; }
log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'run-apache-test: error: %s\n' "$*" >&2; exit 1; }

T=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$T")

[ $# -ge 1 ] || usage
BUILD_ARG=$1; shift
ASAN=0
MPM=event
DBKIND=sqlite3
ONLY=()
while [ $# -gt 0 ]; do
    case $1 in
        --) shift; ONLY=("$@"); break ;;
        --asan) ASAN=1 ;;
        --mpm) [ $# -ge 2 ] || usage; MPM=$2; shift ;;
        --mpm=*) MPM=${1#--mpm=} ;;
        --db) [ $# -ge 2 ] || usage; DBKIND=$2; shift ;;
        --db=*) DBKIND=${1#--db=} ;;
        *) usage ;;
    esac
    shift
done
case $MPM in event|prefork|worker) ;; *) die "unknown MPM '$MPM' (event, prefork or worker)" ;; esac
case $DBKIND in sqlite3|pgsql) ;; *) die "unknown database '$DBKIND' (sqlite3 or pgsql)" ;; esac

if [ -d "$BUILD_ARG" ]; then
    BUILD=$(cd "$BUILD_ARG" && pwd)
elif [ -d "$ROOT/$BUILD_ARG" ]; then
    BUILD=$(cd "$ROOT/$BUILD_ARG" && pwd)
else
    die "build directory '$BUILD_ARG' not found"
fi
SO=$BUILD/mod_ranking/.libs/mod_ranking.so
ADMIN=$BUILD/tools/ranking-admin
[ -f "$SO" ] || die "$SO not found: build first (make -C $BUILD_ARG)"
# grep reads all of nm's output (no -q): under pipefail, nm killed by SIGPIPE after an
# early match would fail the pipeline
if command -v nm >/dev/null && ! nm -D --defined-only "$SO" 2>/dev/null | grep ' ranking_module$' >/dev/null; then
    die "$SO does not define ranking_module: not a mod_ranking build (rebuild it)"
fi
[ "$(id -u)" -eq 0 ] || die "run as root (the server's children then run as nobody)"

APXS=$(command -v apxs || true)
[ -n "$APXS" ] || die "apxs not found (apt-get install apache2-dev)"
HTTPD=$("$APXS" -q SBINDIR)/$("$APXS" -q TARGET)
[ -x "$HTTPD" ] || die "$HTTPD not found"
MODDIR=$("$APXS" -q LIBEXECDIR)
if [ ${#ONLY[@]} -gt 0 ]; then
    FILES=()
    for m in "${ONLY[@]}"; do
        m=${m#t/}
        [ -f "$T/$m" ] || die "no test file t/$m"
        FILES+=("$T/$m")
    done
    MIN_TESTS=0
else
    FILES=("$T"/api/*.t)
fi
for m in "${FILES[@]}"; do [ -f "$m" ] || die "no test file in t/api"; done
EXPECTED_FILES=${#FILES[@]}
DECLARED=$(cat "${FILES[@]}" | sed -nE 's/^# tests: ([0-9]+).*/\1/p' | awk '{s += $1} END {print s + 0}')
[ "$DECLARED" -le "$MIN_TESTS" ] || MIN_TESTS=$DECLARED

# Same user and group as Apache::TestConfig chooses for the children.
USERGROUP=$(perl -MApache::TestConfig -e \
    'print Apache::TestConfig::default_user(), ":", Apache::TestConfig::default_group()')
HTTPD_USER=${USERGROUP%%:*}

cd "$T"

# One run at a time: runs share t/conf, t/logs, t/db and t/modules.  A second run
# waits for the first (up to 30 minutes).
exec 9>"$T/.run-apache-test.lock"
if ! flock -n 9; then
    log "another run of t/run-apache-test.sh is in progress: waiting for it"
    flock -w 1800 9 || die "still locked after 30 minutes ($T/.run-apache-test.lock)"
fi

# ---- clean what a previous run left (its generated configuration and logs) ----
# -clean may stop a leftover server: it needs the same httpd as the run (wrapper)
ASAN_DIR=$T/asan
HTTPD_CMD=$HTTPD
if [ "$ASAN" -eq 1 ]; then
    LIBASAN=$(readlink -f "$(gcc -print-file-name=libasan.so)")
    [ -f "$LIBASAN" ] || die "libasan.so not found (gcc -print-file-name=libasan.so)"
    mkdir -p "$ASAN_DIR"
    rm -f "$ASAN_DIR"/report.* "$ASAN_DIR"/ubsan.*
    chmod 1777 "$ASAN_DIR"
    HTTPD_CMD=$ASAN_DIR/httpd
    cat >"$HTTPD_CMD" <<EOF
#!/bin/sh
# written by t/run-apache-test.sh --asan: httpd with the ASan runtime preloaded
LD_PRELOAD=$LIBASAN
ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:log_path=$ASAN_DIR/report
UBSAN_OPTIONS=print_stacktrace=1:log_path=$ASAN_DIR/ubsan
export LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS
exec $HTTPD "\$@"
EOF
    chmod 0755 "$HTTPD_CMD"
    # the admin command of an ASan build reports into the same directory
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:log_path=$ASAN_DIR/report"
    export UBSAN_OPTIONS="print_stacktrace=1:log_path=$ASAN_DIR/ubsan"
fi

TEST_ARGS=(-apxs "$APXS" -httpd "$HTTPD_CMD" -httpd_conf "$T/conf/modules.conf"
           -httpd_conf_extra "$T/conf/mpm.conf" -port select -maxclients 20)

cat >"$T/conf/mpm.conf" <<EOF
# written by t/run-apache-test.sh --mpm $MPM
LoadModule mpm_${MPM}_module $MODDIR/mod_mpm_${MPM}.so
EOF

if [ -f "$T/conf/apache_test_config.pm" ]; then
    perl TEST.PL "${TEST_ARGS[@]}" -clean >/dev/null 2>&1 || true
fi
rm -rf "$T/logs" "$T/db" "$T/modules"
mkdir -p "$T/logs" "$T/db" "$T/modules"

# ---- the module and the database ----
install -m 0755 "$SO" "$T/modules/mod_ranking.so"
PGDIR=$T/db/pg
if [ "$DBKIND" = pgsql ]; then
    PGPORT=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1", LocalPort => 0)->sockport')
    trap '"$ROOT/t/pg/pg-server.sh" stop "$PGDIR" "$PGPORT"' EXIT
    chmod 0755 "$T/db"
    DB=$("$ROOT/t/pg/pg-server.sh" start "$PGDIR" "$PGPORT") || die "cannot start PostgreSQL"
    printf 'DBDriver pgsql\nDBDParams "%s"\n' "$DB" >"$T/conf/db.conf"
else
    DB=$T/db/ranking.db
    sqlite3 "$DB" <"$ROOT/sql/schema.sql" >/dev/null
    sqlite3 "$DB" <"$ROOT/sql/demo.sql"
    [ "$(sqlite3 "$DB" 'PRAGMA journal_mode;')" = wal ] || die "$DB is not in WAL mode"
    # SQLite's WAL mode writes ranking.db-wal and ranking.db-shm beside the file
    chown -R "$USERGROUP" "$T/db"
    chmod 0750 "$T/db"
    chmod 0640 "$DB"
    printf 'DBDriver sqlite3\nDBDParams "file:%s?mode=rw"\n' "$DB" >"$T/conf/db.conf"
fi

export RANKING_ADMIN=$ADMIN RANKING_DBD_DRIVER=$DBKIND RANKING_DB=$DB RANKING_SRC=$ROOT RANKING_HTTPD_USER=$HTTPD_USER
export APACHE_TEST_NO_COLOR=1

# ---- run ----
OUT=$T/logs/apache-test.out
log "Apache::Test: $(basename "$SO") from $BUILD, MPM $MPM, $DBKIND$( [ "$ASAN" -eq 1 ] && echo ', ASan+UBSan')"
set +e
perl TEST.PL "${TEST_ARGS[@]}" -verbose "${ONLY[@]/#t\//}" >"$OUT" 2>&1 </dev/null
RC=$?
set -e

# ---- judge ----
FAIL=()
[ "$RC" -eq 0 ] || FAIL+=("t/TEST.PL exited with status $RC")
SUMMARY_LINE=$(grep -E '^Files=[0-9]+, Tests=[0-9]+' "$OUT" | tail -1 || true)
RESULT_LINE=$(grep -E '^Result: ' "$OUT" | tail -1 || true)
if [ -z "$SUMMARY_LINE" ]; then
    FAIL+=("no 'Files=N, Tests=M' summary: the tests did not run")
    NFILES=0 NTESTS=0
else
    NFILES=$(sed -E 's/^Files=([0-9]+).*/\1/' <<<"$SUMMARY_LINE")
    NTESTS=$(sed -E 's/^Files=[0-9]+, Tests=([0-9]+).*/\1/' <<<"$SUMMARY_LINE")
    [ "$NFILES" -eq "$EXPECTED_FILES" ] \
        || FAIL+=("$NFILES test files ran, expected $EXPECTED_FILES")
    [ "$NTESTS" -ge "$MIN_TESTS" ] || FAIL+=("$NTESTS tests ran, expected at least $MIN_TESTS")
fi
[ "$RESULT_LINE" = "Result: PASS" ] || FAIL+=("Test::Harness result: ${RESULT_LINE:-none}")
# skipped or TODO tests, skipped files
SKIPS=$(grep -iE '^\s*(not )?ok [0-9]+[^#]*#\s*(skip|todo)|^1\.\.0|skipped:' "$OUT" || true)
[ -z "$SKIPS" ] || FAIL+=("skipped or TODO tests: $(head -5 <<<"$SKIPS" | tr '\n' ' ')")
# per file: tests run and failed (the output is verbose TAP), against its declaration
PER_FILE=()
while read -r file n f; do
    declared=$(sed -nE 's/^# tests: ([0-9]+).*/\1/p' "$T/${file#t/}" 2>/dev/null | head -1)
    PER_FILE+=("$(printf '  %-28s %4d tests, %d failed%s' "$file" "$n" "$f" \
                  "${declared:+ (declared $declared)}")")
    if [ -n "$declared" ] && [ "$n" -lt "$declared" ]; then
        FAIL+=("$file ran $n tests, it declares $declared")
    fi
done < <(awk '/^(t\/)?api\/[^ ]+\.t \.+/ { if (!($1 in n)) { order[++k] = $1; n[$1] = 0; f[$1] = 0 } cur = $1 }
              /^(not )?ok [0-9]+/ && cur != "" { n[cur]++; if ($1 == "not") f[cur]++ }
              END { for (i = 1; i <= k; i++) print order[i], n[order[i]], f[order[i]] }' "$OUT")
FAILED_TESTS=$(grep -E '^\s*not ok [0-9]+' "$OUT" || true)
[ -z "$FAILED_TESTS" ] || FAIL+=("$(wc -l <<<"$FAILED_TESTS") failed test(s)")
if [ "$ASAN" -eq 1 ]; then
    REPORTS=$(grep -lE 'ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|SUMMARY: (Address|UndefinedBehavior)Sanitizer' \
              "$ASAN_DIR"/* "$T"/logs/error_log "$OUT" 2>/dev/null | grep -v "$ASAN_DIR/httpd" || true)
    [ -z "$REPORTS" ] || FAIL+=("sanitizer reports in: $(tr '\n' ' ' <<<"$REPORTS")")
fi
# a server left running would hold the port and the database
if [ -f "$T/logs/httpd.pid" ] && kill -0 "$(cat "$T/logs/httpd.pid")" 2>/dev/null; then
    FAIL+=("the test server is still running (pid $(cat "$T/logs/httpd.pid"))")
fi

{
    echo "MPM $MPM, $DBKIND$( [ "$ASAN" -eq 1 ] && echo ', ASan+UBSan'): ${SUMMARY_LINE:-no summary}"
} >"$T/logs/summary.txt"

echo "---- Apache::Test (MPM $MPM, $DBKIND$( [ "$ASAN" -eq 1 ] && echo ', ASan+UBSan')) ----"
printf '%s\n' "${PER_FILE[@]}"
grep -E '^(All tests successful|Files=|Result:|Failed|Wstat|Parse errors|No subtests run)' "$OUT" || true
[ -n "$SUMMARY_LINE" ] && echo "files: $NFILES (expected $EXPECTED_FILES), tests: $NTESTS (expected at least $MIN_TESTS)"

if [ ${#FAIL[@]} -gt 0 ]; then
    echo
    echo "---- FAILED ----"
    printf '  %s\n' "${FAIL[@]}"
    if [ -n "$FAILED_TESTS" ]; then
        echo "---- failed tests (with diagnostics; full output in $OUT) ----"
        grep -E -A12 '^\s*not ok [0-9]+' "$OUT" | head -200
    fi
    if [ -z "$SUMMARY_LINE" ]; then
        echo "---- end of $OUT ----"
        tail -40 "$OUT"
    fi
    if [ "$ASAN" -eq 1 ] && [ -n "${REPORTS:-}" ]; then
        echo "---- sanitizer reports ----"
        for f in $REPORTS; do echo "== $f"; head -60 "$f"; done
    fi
    echo "---- tail of t/logs/error_log ----"
    tail -40 "$T/logs/error_log" 2>/dev/null || echo "(no error_log)"
    exit 1
fi
echo "Apache::Test suite passed"
