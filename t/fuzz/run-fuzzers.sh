#!/usr/bin/env bash
# t/fuzz/run-fuzzers.sh [SECONDS_PER_TARGET] [OUTDIR]
#
# Build the libFuzzer targets of t/fuzz/ (clang, ASan + UBSan) against the pure library
# sources of mod_ranking/ and run each for SECONDS_PER_TARGET seconds (default 20),
# starting from a scratch copy of t/fuzz/corpus/<target>/.  Nothing is written into
# the repository: binaries, corpora, logs and crash artifacts go to OUTDIR (default: a
# new directory under ${TMPDIR:-/tmp}, kept and printed at the end).
#
# Prints one line per target and a total, e.g.
#   fuzz: router 123456 runs in 20 s, 0 findings
#   fuzz: total 456789 runs, 0 findings
# and exits non-zero when a target crashes, trips an invariant, leaks, times out or
# runs out of memory (the input is left in OUTDIR/artifacts/<target>/), or when a
# target cannot be built.  Installs nothing: when clang or libFuzzer's runtime is
# missing, it names the Debian packages to install and fails.
#
# Environment: FUZZ_TARGETS="router bearer" runs a subset; FUZZ_JOBS=N runs N
# libFuzzer workers per target (-fork=N) instead of one process.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
ROOT=$(cd "$HERE/../.." && pwd -P)
SRC=$ROOT/lib

SECONDS_PER_TARGET=${1:-20}
OUTDIR=${2:-}
read -r -a TARGETS <<<"${FUZZ_TARGETS:-router bearer connect lane score csv headers resource seed json}"
JOBS=${FUZZ_JOBS:-0}

die() { printf 'run-fuzzers: error: %s\n' "$*" >&2; exit 2; }
log() { printf 'run-fuzzers: %s\n' "$*" >&2; }

[[ $SECONDS_PER_TARGET =~ ^[1-9][0-9]*$ ]] || die "SECONDS_PER_TARGET must be a positive integer"
[[ $JOBS =~ ^[0-9]+$ ]] || die "FUZZ_JOBS must be a number"

# Library sources each target links (header dependencies only: no httpd).
sources_for() {
    case $1 in
        # rk_router.c names the resources of rk_json.c; rk_body.c reads tiebreaks
        # with rk_score.c
        router)  echo "$SRC/rk_router.c $SRC/rk_json.c" ;;
        bearer)  echo "$SRC/rk_token.c" ;;
        connect|lane) echo "$SRC/rk_body.c $SRC/rk_router.c $SRC/rk_json.c $SRC/rk_score.c" ;;
        score)   echo "$SRC/rk_score.c" ;;
        # the CSV reader and the team lists (rk_spots_csv.c counts characters with
        # rk_body.c, whose tiebreaks need rk_score.c, rk_router.c and rk_json.c)
        csv)     echo "$SRC/rk_csv.c $SRC/rk_spots_csv.c $SRC/rk_body.c $SRC/rk_score.c $SRC/rk_router.c $SRC/rk_json.c" ;;
        # the parsers of headers and query strings (rk_cond.c hashes with rk_token.c,
        # rk_gzip.c needs zlib: -lz below)
        headers) echo "$SRC/rk_query.c $SRC/rk_gzip.c $SRC/rk_cond.c $SRC/rk_token.c $SRC/rk_sse.c $SRC/rk_cors.c $SRC/rk_router.c $SRC/rk_json.c" ;;
        # part 3's bodies (rk_resource.c reads them with rk_body.c's rules) and the
        # Idempotency-Key helpers (rk_idem.c hashes with rk_token.c)
        resource) echo "$SRC/rk_resource.c $SRC/rk_idem.c $SRC/rk_body.c $SRC/rk_router.c $SRC/rk_json.c $SRC/rk_score.c $SRC/rk_token.c" ;;
        # the generate-heats body and planner (rk_seed_body.c, rk_seed.c;
        # rk_seed_json.c writes with rk_json.c; ids checked with rk_router.c)
        seed)    echo "$SRC/rk_body.c $SRC/rk_score.c $SRC/rk_seed.c $SRC/rk_seed_body.c $SRC/rk_seed_json.c $SRC/rk_json.c $SRC/rk_router.c" ;;
        # the JSON writer of every answer (rk_jw_str, rk_jw_text), against jansson
        json)    echo "$SRC/rk_json.c" ;;
        *) die "unknown target $1" ;;
    esac
}

# ---- toolchain -------------------------------------------------------------------
CC=${CC:-clang}
# Debian package names for this machine's clang, from apt-cache when possible.
suggest_packages() {
    local ver="" pkgs="clang"
    if command -v "$CC" >/dev/null 2>&1; then
        ver=$("$CC" --version 2>/dev/null | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -1)
    fi
    if [ -z "$ver" ] && command -v apt-cache >/dev/null 2>&1; then
        # the version the "clang" package depends on (clang-14 on Debian 12)
        ver=$(apt-cache depends clang 2>/dev/null | sed -nE 's/.*Depends: clang-([0-9]+).*/\1/p' | head -1)
    fi
    if [ -n "$ver" ]; then
        local policy=""
        if command -v apt-cache >/dev/null 2>&1; then
            policy=$(apt-cache policy "libclang-rt-$ver-dev" 2>/dev/null || true)
        fi
        if grep -q 'Candidate: [0-9]' <<<"$policy"; then
            pkgs="$pkgs libclang-rt-$ver-dev"
        else
            pkgs="$pkgs libclang-rt-$ver-dev (or libclang-common-$ver-dev on older releases)"
        fi
    else
        pkgs="$pkgs libclang-rt-<version>-dev (check with: apt-cache policy clang 'libclang-rt-*-dev')"
    fi
    echo "$pkgs"
}

if ! command -v "$CC" >/dev/null 2>&1; then
    die "$CC not found; install the Debian packages: $(suggest_packages)"
fi
for tool in apr-1-config apu-1-config pkg-config; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found (Debian: libapr1-dev libaprutil1-dev pkg-config)"
done
pkg-config --exists jansson || die "jansson not found by pkg-config (Debian: libjansson-dev)"

if [ -z "$OUTDIR" ]; then
    OUTDIR=$(mktemp -d "${TMPDIR:-/tmp}/rk-fuzz.XXXXXX")
fi
OUTDIR=$(realpath -m -- "$OUTDIR")
case "$OUTDIR/" in
    "$ROOT/build"*/) ;;   # build*/ is git-ignored: allowed
    "$ROOT"/*) die "OUTDIR $OUTDIR is inside the repository (use a path outside it, or $ROOT/build-fuzz)" ;;
esac
mkdir -p "$OUTDIR"

# libFuzzer's runtime: try a trivial target.
mkdir -p "$OUTDIR/bin"
printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$OUTDIR/bin/probe.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined -o "$OUTDIR/bin/probe" "$OUTDIR/bin/probe.c" \
        >"$OUTDIR/bin/probe.log" 2>&1; then
    cat "$OUTDIR/bin/probe.log" >&2
    die "$CC cannot link a libFuzzer target (runtime missing); install the Debian packages: $(suggest_packages)"
fi

# shellcheck disable=SC2207,SC2054
CFLAGS=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
        -fno-omit-frame-pointer -Wall -Wextra -Wno-unused-parameter
        $(apr-1-config --cflags --cppflags --includes) $(apu-1-config --includes)
        $(pkg-config --cflags jansson) -I"$SRC" -I"$ROOT/tools")
# shellcheck disable=SC2207
LIBS=($(apu-1-config --link-ld --libs) $(apr-1-config --link-ld --libs) $(pkg-config --libs jansson) -lz)

for t in "${TARGETS[@]}"; do
    log "building fuzz_$t"
    # shellcheck disable=SC2046
    "$CC" "${CFLAGS[@]}" -o "$OUTDIR/bin/fuzz_$t" "$HERE/fuzz_$t.c" $(sources_for "$t") "${LIBS[@]}" \
        || die "cannot build fuzz_$t"
done

# ---- run -------------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

total_runs=0
total_findings=0
summary=()
for t in "${TARGETS[@]}"; do
    corpus=$OUTDIR/corpus/$t
    artifacts=$OUTDIR/artifacts/$t
    logf=$OUTDIR/fuzz_$t.log
    rm -rf "$corpus" "$artifacts"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "$HERE/corpus/$t" ]; then
        cp -R "$HERE/corpus/$t/." "$corpus/"
    fi
    # Replay first: every kept input of t/fuzz/corpus/<target>/ (the seeds and the
    # corpora of the long campaigns) runs once, without mutation, so that an input
    # that found nothing then but trips a changed function now fails here.
    replay=0
    kept=$(find "$corpus" -type f | wc -l)
    if [ "$kept" -gt 0 ]; then
        rlog=$OUTDIR/replay_$t.log
        (cd "$OUTDIR" && "$OUTDIR/bin/fuzz_$t" -runs=0 -timeout=5 -rss_limit_mb=2048 \
            -artifact_prefix="$artifacts/" "$corpus") >"$rlog" 2>&1 || replay=$?
        rruns=$(sed -nE 's/^Done ([0-9]+) runs.*/\1/p' "$rlog" | tail -1)
        if [ "$replay" -ne 0 ] || [ -z "$rruns" ]; then
            echo "fuzz: $t failed replaying its $kept kept inputs (exit $replay); log $rlog:" >&2
            grep -E 'ERROR|SUMMARY|invariant failed|runtime error|Test unit written' "$rlog" | head -20 >&2 || true
            total_findings=$((total_findings + 1))
            summary+=("$t replay failed")
            continue
        fi
        echo "fuzz: $t replayed $kept kept inputs ($rruns runs), 0 findings"
    fi
    args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=2048
          -artifact_prefix="$artifacts/" -print_final_stats=1)
    [ -f "$HERE/$t.dict" ] && args+=(-dict="$HERE/$t.dict")
    [ "$JOBS" -gt 0 ] && args+=(-fork="$JOBS" -ignore_crashes=0)
    log "running fuzz_$t for ${SECONDS_PER_TARGET} s (log: $logf)"
    rc=0
    (cd "$OUTDIR" && "$OUTDIR/bin/fuzz_$t" "${args[@]}" "$corpus") >"$logf" 2>&1 || rc=$?

    # The executions: libFuzzer's final "Done N runs in S second(s)" line; when it
    # is missing (a crash, or -fork where the parent prints no such line), the final
    # stats, else the last "#N" status line.
    runs=$(sed -nE 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\1/p' "$logf" | tail -1)
    secs=$(sed -nE 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\2/p' "$logf" | tail -1)
    if [ -z "$runs" ]; then
        runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$logf" | tail -1)
    fi
    if [ -z "$runs" ]; then
        runs=$(sed -nE 's/^#([0-9]+):?[[:space:]].*/\1/p' "$logf" | tail -1)
    fi
    if [ -z "$secs" ]; then
        secs=$(sed -nE 's/^INFO: exiting: [0-9]+ time: ([0-9]+)s.*/\1/p' "$logf" | tail -1)
    fi
    runs=${runs:-0}
    secs=${secs:-?}
    # A finding is a crash, leak, time-out or out-of-memory input.  libFuzzer also
    # writes "slow-unit-*" (an input that took longer than -report_slow_units, 10 s):
    # on a loaded machine that is the scheduler, not the target; it is named, and
    # replayed at once to show its own time, but not counted.
    findings=0
    for f in "$artifacts"/*; do
        [ -e "$f" ] || continue
        case ${f##*/} in
            slow-unit-*) log "$t: slow input $f (replayed: $("$OUTDIR/bin/fuzz_$t" "$f" 2>&1 | sed -nE 's/^Executed .* in ([0-9]+ ms).*/\1/p'))" ;;
            *) findings=$((findings + 1)) ;;
        esac
    done
    if { [ "$rc" -ne 0 ] || [ "$runs" -eq 0 ]; } && [ "$findings" -eq 0 ]; then
        findings=1   # a failure that left no artifact (a crash in initialisation, no run)
    fi
    total_runs=$((total_runs + runs))
    total_findings=$((total_findings + findings))
    line="$t $runs runs$([ "$secs" = "?" ] || echo " in $secs s"), $findings finding$([ "$findings" -eq 1 ] || echo s)"
    summary+=("$line")
    echo "fuzz: $line"
    if [ "$findings" -gt 0 ]; then
        echo "fuzz: $t failed (exit $rc); log $logf; tail:" >&2
        grep -E 'ERROR|SUMMARY|invariant failed|runtime error|Test unit written|artifact_prefix' "$logf" | head -20 >&2 || true
        for f in "$artifacts"/*; do
            [ -e "$f" ] || continue
            case ${f##*/} in slow-unit-*) continue ;; esac
            echo "fuzz:   input $f ($(wc -c <"$f") bytes): reproduce with $OUTDIR/bin/fuzz_$t $f" >&2
        done
    fi
done

echo "fuzz: total $total_runs runs, $total_findings finding$([ "$total_findings" -eq 1 ] || echo s) (${#TARGETS[@]} target$([ ${#TARGETS[@]} -eq 1 ] || echo s) x ${SECONDS_PER_TARGET} s; output in $OUTDIR)"
[ "$total_findings" -eq 0 ]
