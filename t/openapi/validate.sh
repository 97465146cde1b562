#!/usr/bin/env bash
# t/openapi/validate.sh [--install] [FILE]
#
# Validates the OpenAPI document (default: openapi.yaml at the repository root) with
# two independent validators, then self-tests the checker of live answers
# (check-responses.mjs) on canned answers (selftest.json):
#   1. @seriousme/openapi-schema-validator: the document against the official JSON
#      Schema of OpenAPI 3.1 (structure, types, required fields, $ref targets);
#   2. @redocly/cli lint, rules of recommended-strict (redocly.yaml): semantics the
#      schema cannot see (path parameters declared, unique operationIds, security
#      schemes defined, examples valid against their schemas, ...);
#   3. check-responses.mjs compiles every schema of the document with Ajv (JSON
#      Schema 2020-12, strict mode) and must accept the good canned answers and
#      refuse each bad one.
# The validators are npm packages pinned in package.json / package-lock.json and
# installed under t/openapi/node_modules (npm ci) when missing or out of date; they
# run offline afterwards.  --install: install only.
# Prints one result line; exits 0 when valid, 1 when not, 2 when a tool is missing.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
INSTALL_ONLY=0
DOC=$ROOT/openapi.yaml
for a in "$@"; do
    case $a in
        --install) INSTALL_ONLY=1 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        -*) echo "usage: $0 [--install] [FILE]" >&2; exit 2 ;;
        *) DOC=$(cd "$(dirname "$a")" && pwd)/$(basename "$a") ;;
    esac
done

fail() { echo "openapi: FAIL: $*"; exit "${2:-1}"; }

command -v node >/dev/null 2>&1 || fail "node is not installed (apt-get install nodejs npm)" 2
command -v npm >/dev/null 2>&1 || fail "npm is not installed (apt-get install npm)" 2

# ---- install (npm ci) when node_modules is missing or older than the lock file ----
STAMP=$HERE/node_modules/.package-lock.json
if [ ! -f "$STAMP" ] || [ "$HERE/package-lock.json" -nt "$STAMP" ] \
   || [ ! -x "$HERE/node_modules/.bin/redocly" ]; then
    LOG=$(mktemp)
    if ! (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error) >"$LOG" 2>&1; then
        cat "$LOG" >&2
        rm -f "$LOG"
        fail "npm ci in t/openapi failed" 2
    fi
    rm -f "$LOG"
fi
[ "$INSTALL_ONLY" -eq 1 ] && { echo "openapi: validators installed in t/openapi/node_modules"; exit 0; }
[ -f "$DOC" ] || fail "$DOC not found"

version() { node -p "require('$HERE/node_modules/$1/package.json').version"; }
V_SCHEMA=$(version @seriousme/openapi-schema-validator)
V_REDOCLY=$(version @redocly/cli)
V_AJV=$(version ajv)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
PROBLEMS=()

# ---- 1. the official OpenAPI 3.1 schema ----
if ! node "$HERE/schema-check.mjs" "$DOC" >"$OUT/schema.out" 2>&1; then
    PROBLEMS+=("openapi-schema-validator: invalid")
    echo "---- @seriousme/openapi-schema-validator $V_SCHEMA ----" >&2
    cat "$OUT/schema.out" >&2
fi

# ---- 2. Redocly lint ----
if ! (cd "$HERE" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_COLOR=1 \
        node_modules/.bin/redocly lint --config redocly.yaml --format=stylish "$DOC") \
        >"$OUT/redocly.out" 2>&1; then
    PROBLEMS+=("redocly lint: $(grep -cE '^\s+[0-9]+:[0-9]+\s+(error|warning)' "$OUT/redocly.out") problem(s)")
    echo "---- @redocly/cli $V_REDOCLY lint ----" >&2
    grep -vE '║|╔|╚' "$OUT/redocly.out" >&2
fi

# ---- 3. the answer checker on canned answers ----
if ! node "$HERE/selftest.mjs" --doc "$DOC" >"$OUT/self.out" 2>&1; then
    PROBLEMS+=("check-responses self-test failed")
    echo "---- check-responses.mjs self-test (Ajv $V_AJV) ----" >&2
    cat "$OUT/self.out" >&2
fi

NPATHS=$(node -e "const Y=require('$HERE/node_modules/yaml');const d=Y.parse(require('fs').readFileSync(process.argv[1],'utf8'));const m=['get','head','put','post','delete','options','patch','trace'];let n=0;for(const p of Object.values(d.paths||{}))for(const k of m)if(p[k])n++;console.log(Object.keys(d.paths||{}).length+' paths, '+n+' operations')" "$DOC" 2>/dev/null || echo '? paths')
NAME=${DOC#"$ROOT"/}
if [ ${#PROBLEMS[@]} -gt 0 ]; then
    JOINED=$(printf '%s; ' "${PROBLEMS[@]}")
    fail "$NAME ($NPATHS): ${JOINED%; }"
fi
echo "openapi: OK $NAME ($NPATHS): openapi-schema-validator $V_SCHEMA valid, redocly lint $V_REDOCLY 0 problems, check-responses self-test (ajv $V_AJV) $(tail -1 "$OUT/self.out")"
