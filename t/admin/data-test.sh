#!/usr/bin/env bash
# t/admin/data-test.sh PATH-TO-RANKING-ADMIN [--no-pg]
#
# End-to-end test of ranking-admin's competitions in and out: export, import (a
# whole document, from a file and from stdin, --replace, every kind of refusal, a
# broken or half-written document: nothing changes, exit 1), import-spots (CSV with
# BOM, CRLF, quoting; errors with line numbers) and export-results, on SQLite
# databases made from sql/schema.sql and sql/demo.sql, then on PostgreSQL
# (t/pg/pg-server.sh; needs root and the server): SQLite -> PostgreSQL -> export gives
# the same bytes.  Prints TAP, then a last line "N passed, M failed".
set -euo pipefail

ADMIN=${1:?usage: $0 PATH-TO-RANKING-ADMIN [--no-pg]}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PG=yes
[ "${2:-}" = --no-pg ] && PG=no
ADMIN=$(cd "$(dirname "$ADMIN")" && pwd)/$(basename "$ADMIN")
for tool in sqlite3 python3; do
    command -v "$tool" >/dev/null || { echo "Bail out! $tool not found"; exit 1; }
done

T=$(mktemp -d "${TMPDIR:-/tmp}/data-test.XXXXXX")
chmod 0755 "$T"     # the PostgreSQL server (user postgres) lives below
PGDIR=$T/pg PGPORT=
cleanup() {
    if [ -n "$PGPORT" ]; then "$ROOT/t/pg/pg-server.sh" stop "$PGDIR" "$PGPORT" || true; fi
    rm -rf "$T"
}
trap cleanup EXIT
unset RANKING_DBD_DRIVER RANKING_DBD_PARAMS

n=0 passed=0 failed=0
pass() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/#   /' <<<"$*"; }
ok() { local d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
is() { if [ "$1" == "$2" ]; then pass "$3"; else fail "$3"; diag "got:      '$1'"; diag "expected: '$2'"; fi; }
like() { if grep -Fq -- "$2" "$1"; then pass "$3"; else fail "$3"; diag "no '$2' in:"; diag "$(cat "$1")"; fi; }

# run DRIVER PARAMS ARGS... (stdin from $T/in when it exists): RC, $T/out, $T/err
run() {
    local driver=$1 params=$2; shift 2
    set +e
    if [ -f "$T/in" ]; then
        "$ADMIN" --driver "$driver" --params "$params" "$@" <"$T/in" >"$T/out" 2>"$T/err"
    else
        "$ADMIN" --driver "$driver" --params "$params" "$@" </dev/null >"$T/out" 2>"$T/err"
    fi
    RC=$?
    set -e
    rm -f "$T/in"
}
expect() {
    if [ "$RC" -eq "$1" ]; then pass "$2 (exit $1)"; else
        fail "$2 (exit $1)"; diag "exit $RC"; diag "stdout: $(head -c 2000 "$T/out")"; diag "stderr: $(cat "$T/err")"
    fi
}
# edit IN OUT PYTHON: OUT is the document IN changed by PYTHON (on d)
edit() {
    python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
$3
json.dump(d, open(sys.argv[2], 'w'), indent=1)" "$1" "$2"
}

newdb() { rm -f "$1"; sqlite3 "$1" <"$ROOT/sql/schema.sql" >/dev/null; }
DEMO=$T/demo.db
newdb "$DEMO"
sqlite3 "$DEMO" <"$ROOT/sql/demo.sql"
S() { run sqlite3 "$@"; }
state() { sqlite3 "$1" .dump | grep -v '^INSERT INTO revision' | md5sum; }
rev() { sqlite3 "$1" "SELECT data FROM revision"; }

# ------------------------------------------------------------------ export
S "$DEMO" export 1
expect 0 "export 1"
cp "$T/out" "$T/e1.json"
ok "... one JSON document" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/e1.json"
is "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(list(d), len(d['wods']), len(d['lanes']), d['heats'][0]['id'], type(d['spots'][1]['bib']).__name__, d['spots'][0]['bib'])" "$T/e1.json")" \
   "['version', 'competition', 'wods', 'spots', 'zones', 'heats', 'lanes'] 4 30 201 int None" \
   "... every part, ids as strings, bibs as numbers"
is "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); l=[x for x in d['lanes'] if x['score']=='CAP+12'][0]; print(sorted(l))" "$T/e1.json")" \
   "['heat_id', 'id', 'number', 'score', 'spot_id', 'tiebreak']" "... lanes with score and tiebreak"
S "$DEMO" export 999
expect 2 "export of a competition that does not exist"
like "$T/err" "no competition 999" "... says so"
S "$DEMO" export 01x
expect 1 "export of a bad id"

# ------------------------------------------------------------------ import into an empty database
EMPTY=$T/empty.db
newdb "$EMPTY"
r0=$(rev "$EMPTY")
S "$EMPTY" import "$T/e1.json"
expect 0 "import into an empty database"
like "$T/out" "imported competition 1: 4 wods, 9 spots, 3 zones, 7 heats, 30 lanes" "... says what"
ok "... the data revision moved" test "$(rev "$EMPTY")" -gt "$r0"
S "$EMPTY" export 1
ok "export, import, export: the same bytes" cmp -s "$T/out" "$T/e1.json"
before=$(state "$EMPTY")
S "$EMPTY" import "$T/e1.json"
expect 0 "the same document again"
is "$(state "$EMPTY")" "$before" "... changes no row"
cp "$T/e1.json" "$T/in"
S "$EMPTY" import -
expect 0 "import from standard input"

# ------------------------------------------------------------------ refusals: nothing changes, exit 1
before=$(state "$EMPTY")
refuse() {   # refuse DESC FILE MESSAGE [--replace]
    S "$EMPTY" import "$2" ${4:-}
    expect 1 "$1"
    like "$T/err" "$3" "... $3"
    like "$T/err" "nothing was changed" "... and nothing was changed"
    is "$(state "$EMPTY")" "$before" "... indeed"
}
head -c 3000 "$T/e1.json" >"$T/half.json"
refuse "a half-written document" "$T/half.json" "line "
printf '{"version":1,' >"$T/broken.json"
refuse "broken JSON" "$T/broken.json" "document refused"
printf '{"version":1,"version":1}' >"$T/dup.json"
refuse "a duplicate key" "$T/dup.json" "duplicate"
edit "$T/e1.json" "$T/bad.json" "d['heats'][3]['zone_id'] = '7'"
refuse "a heat in a zone of no competition" "$T/bad.json" "heats[3].zone_id: zone 7 is not in competition 1"
edit "$T/e1.json" "$T/bad.json" "d['lanes'][0]['score'] = 'fast'; d['wods'][0]['scoring'] = 'fast'"
refuse "several errors" "$T/bad.json" "wods[0].scoring: must be one of time, reps, load, points"
edit "$T/e1.json" "$T/bad.json" "[l for l in d['lanes'] if l['score'] == 'CAP+12'][0]['score'] = '212kg'"
refuse "a score that does not fit its WOD" "$T/bad.json" "score must be a time like 7:45 (within the time cap), CAP+N or WD (wod 11)"
edit "$T/e1.json" "$T/bad.json" "d['lanes'][1]['number'] = d['lanes'][0]['number']; d['lanes'][1]['heat_id'] = d['lanes'][0]['heat_id']"
refuse "two lanes with one number in a heat" "$T/bad.json" "lanes[1].number: lane number"
edit "$T/e1.json" "$T/bad.json" "d['spots'][2]['bib'] = d['spots'][1]['bib']"
refuse "two spots with one bib" "$T/bad.json" "spots[2].bib: bib"
edit "$T/e1.json" "$T/bad.json" "d['lanes'][2]['spot_id'] = '424242'"
refuse "a lane with a spot of no competition" "$T/bad.json" "lanes[2].spot_id: spot 424242 is not in competition 1"
edit "$T/e1.json" "$T/bad.json" "d['zones'][0]['lane_count'] = '8'"
refuse "a wrong type" "$T/bad.json" "zones[0].lane_count: must be an integer, not a string"
edit "$T/e1.json" "$T/bad.json" "d['competition']['id'] = '2'; [x.__setitem__('competition_id', '2') for k in ('wods','spots','zones','heats') for x in d[k]]"
refuse "ids of another competition" "$T/bad.json" "wods[0].id: wod 11 is in competition 1"
edit "$T/e1.json" "$T/bad.json" "d['lanes'][-1]['tiebreak'] = 'CAP+1'; d['lanes'].append(dict(d['lanes'][0]))"
refuse "errors found late in the document" "$T/bad.json" "is also lanes[0]"
S "$EMPTY" import "$T/none.json"
expect 1 "a file that does not exist"

# ------------------------------------------------------------------ merge and --replace
edit "$T/e1.json" "$T/less.json" "d['lanes'] = d['lanes'][1:]; d['competition']['name'] = 'Renamed'"
S "$EMPTY" import "$T/less.json"
expect 0 "a document without one lane"
is "$(sqlite3 "$EMPTY" "SELECT COUNT(*) FROM lane")" 30 "... the lane stays"
is "$(sqlite3 "$EMPTY" "SELECT name FROM competition WHERE id = 1")" "Renamed" "... the competition is updated"
S "$EMPTY" import "$T/less.json" --replace
expect 0 "the same with --replace"
like "$T/out" "removed 1 other row" "... says what it removed"
is "$(sqlite3 "$EMPTY" "SELECT COUNT(*) FROM lane")" 29 "... the lane is gone"
edit "$T/e1.json" "$T/swap.json" "l=[x for x in d['lanes'] if x['heat_id']==d['lanes'][0]['heat_id']]; l[0]['number'], l[1]['number'] = l[1]['number'], l[0]['number']; d['spots'][1]['bib'], d['spots'][2]['bib'] = d['spots'][2]['bib'], d['spots'][1]['bib']"
S "$EMPTY" import "$T/swap.json"
expect 0 "two lanes swap numbers, two spots swap bibs"
S "$EMPTY" export 1
ok "... exported as imported" cmp -s "$T/out" <(python3 -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1])), indent=2, ensure_ascii=False))" "$T/swap.json")
S "$EMPTY" export 1 --replace
expect 1 "--replace with another command"

# ------------------------------------------------------------------ import-spots
CSV=$T/teams.csv
printf '\xEF\xBB\xBFName,Division,Affiliate,Bib\r\n"Team ""Quote"", Inc",RX,CrossFit Nord,101\r\nÉquipe Sud,Scaled,,102\r\n,,,\r\n"Two\r\nLines",RX,,\r\n' >"$CSV"
S "$DEMO" import-spots 1 "$CSV"
expect 0 "import-spots"
like "$T/out" "competition 1: 3 spots added, 0 updated" "... says what"
is "$(sqlite3 "$DEMO" "SELECT name || '|' || division || '|' || COALESCE(affiliate, '-') FROM spot WHERE competition_id = 1 AND bib = 101")" \
   'Team "Quote", Inc|RX|CrossFit Nord' "... quoted name, division, affiliate"
is "$(sqlite3 "$DEMO" "SELECT COUNT(*) FROM spot WHERE name = 'Two' || char(13, 10) || 'Lines' AND bib IS NULL")" 1 \
   "... a line break inside a quoted field, no bib"
printf 'name,bib\nÉquipe Sud Renamed,102\n' >"$CSV"
S "$DEMO" import-spots 1 "$CSV"
expect 0 "import-spots again, by bib"
like "$T/out" "0 spots added, 1 updated" "... updates"
is "$(sqlite3 "$DEMO" "SELECT name FROM spot WHERE competition_id = 1 AND bib = 102")" "Équipe Sud Renamed" "... the team is renamed"
before=$(state "$DEMO")
printf 'name,bib\nA,201\nB,x\n"C,202\n' >"$CSV"
S "$DEMO" import-spots 1 "$CSV"
expect 1 "a broken CSV"
like "$T/err" "line 4: a quoted field is never closed" "... with its line number"
printf 'name,bib\nA,201\nB,x\nC,201\n' >"$CSV"
S "$DEMO" import-spots 1 "$CSV"
expect 1 "bad rows"
like "$T/err" "line 3: bib 'x' is not a whole number" "... line 3"
like "$T/err" "line 4: bib 201 is used twice" "... line 4"
is "$(state "$DEMO")" "$before" "... nothing changed"
printf 'name\nX\n' >"$T/in"
S "$DEMO" import-spots 999 -
expect 2 "import-spots into a competition that does not exist"

# ------------------------------------------------------------------ export-results
LB=$T/lb.db
newdb "$LB"
sqlite3 "$LB" <"$ROOT/sql/demo.sql"
S "$LB" export-results 1
expect 0 "export-results"
is "$(head -1 "$T/out")" $'division,rank,points,bib,team,Clean & Jerk Ladder,Partner Fran,Chipper AMRAP,Final\r' "... header: one column per WOD"
like "$T/out" $'Masters,1,4,10,"Team ""No Rep""",1,1,1,1\r' "... a division's first, quoted"
like "$T/out" $'RX,4,12,,Les Costauds d\'Évry,4,4,3,1\r' "... no bib: an empty field"
is "$(grep -c . "$T/out")" 10 "... every spot, once"
sqlite3 "$LB" "UPDATE lane SET score = '08:59' WHERE score = '07:03'"
S "$LB" export-results 1
ok "... follows a changed score" test "$(md5sum <"$T/out")" != "$(sqlite3 "$DEMO" .dump >/dev/null; "$ADMIN" --params "$T/demo.db" export-results 1 | md5sum)"
S "$LB" export-results 42
expect 2 "export-results of a competition that does not exist"

# ------------------------------------------------------------------ an old schema, a missing database
V1=$T/v1.db
sqlite3 "$V1" <"$ROOT/t/upgrade/schema-v1.sql" >/dev/null
S "$V1" import "$T/e1.json"
expect 3 "import into a version 1 database"
like "$T/err" "too old for 'import'" "... says why"
S "$T/missing.db" export 1
expect 3 "a database that does not exist"

# ------------------------------------------------------------------ messages an organizer can act on (issue 27)
MSG=$T/msg.db
newdb "$MSG"
sqlite3 "$MSG" <"$ROOT/sql/demo.sql"
printf '\xEF\xBB\xBFName;Division;Bib\r\n"Nord; Sud";RX;501\r\nÉquipe, Lyon;Scaled;\r\n' >"$CSV"
S "$MSG" import-spots 3 "$CSV"
expect 0 "import-spots of a CSV with ';' (a European spreadsheet)"
like "$T/out" "competition 3: 2 spots added, 0 updated (read with ';' as separator)" "... read, and says how"
is "$(sqlite3 "$MSG" "SELECT name || '|' || division || '|' || COALESCE(bib, '-') FROM spot WHERE competition_id = 3 ORDER BY id")" \
   "$(printf 'Nord; Sud|RX|501\nÉquipe, Lyon|Scaled|-')" "... every cell in its column"
printf 'name,bib\nA,1\n' >"$CSV"
printf '\xff\xfe' >"$T/latin.csv"; printf 'name\n\xc9quipe\n' >>"$T/latin.csv"
S "$MSG" import-spots 3 "$T/latin.csv"
expect 1 "a CSV that is not UTF-8"
like "$T/err" "not UTF-8 text (save the file as CSV in UTF-8)" "... says how to save it"
edit "$T/e1.json" "$T/cap.json" "d['wods'][1]['time_cap'] = '12:00'; d['heats'][0]['start_time'] = '2026-11-21 09:30'"
S "$MSG" import "$T/cap.json"
expect 1 "a time cap as a time, a start time without its zone"
like "$T/err" "wods[1].time_cap: must be an integer of seconds (e.g. 720 for a cap of 12:00) or null, not a string" "... time_cap is seconds, with an example"
like "$T/err" "heats[0].start_time: must be a time in UTC, YYYY-MM-DDTHH:MM:SSZ (e.g. 2026-11-21T08:30:00Z" "... start_time is UTC, with an example"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['competition']; c.update(id='42', name='Spring Open'); print(json.dumps({'version': 1, 'competition': c}))" "$T/e1.json" >"$T/bare.json"
S "$MSG" import "$T/bare.json"
expect 0 "a document without its empty lists"
like "$T/out" "imported competition 42: 0 wods, 0 spots, 0 zones, 0 heats, 0 lanes" "... imported"
is "$(sqlite3 "$MSG" "SELECT name FROM competition WHERE id = 42")" "Spring Open" "... the competition is there"
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null; then
    mkdir "$T/nobody"
    cp "$MSG" "$T/nobody/n.db"
    chown -R nobody "$T/nobody"
    cp "$T/e1.json" "$T/private.json"
    chmod 0600 "$T/private.json"
    set +e
    runuser -u nobody -- "$ADMIN" --params "$T/nobody/n.db" import "$T/private.json" >"$T/out" 2>"$T/err"
    RC=$?
    set -e
    expect 1 "a file the command's user cannot read"
    like "$T/err" "give the file on standard input instead: '-' as the file, and '< $T/private.json'" "... says to use '-' and standard input"
    set +e
    runuser -u nobody -- "$ADMIN" --params "$T/nobody/n.db" import - <"$T/private.json" >"$T/out" 2>"$T/err"
    RC=$?
    set -e
    expect 0 "... which works"
else
    echo "# not run: a file the command's user cannot read (needs root to be another user)"
fi

# ------------------------------------------------------------------ PostgreSQL
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ "$PG" = yes ] && [ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] && [ "$(id -u)" = 0 ]; then
    PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$ROOT/t/pg/pg-server.sh" start "$PGDIR" "$PGPORT" >"$T/pg.conninfo"
    export PGPASSWORD=ranking
    runuser -u postgres -- psql -X -q -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres \
        -c "CREATE DATABASE empty OWNER ranking" >/dev/null
    pq() { psql -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PGPORT" -U ranking -d "$@"; }
    pq empty -f "$ROOT/sql/schema-pg.sql" >/dev/null
    PGE="host=127.0.0.1 port=$PGPORT dbname=empty user=ranking password=ranking"
    PGD="host=127.0.0.1 port=$PGPORT dbname=ranking user=ranking password=ranking"
    P() { run pgsql "$@"; }
    pgstate() { pq "$1" -c "SELECT (SELECT string_agg(t::text, ',' ORDER BY id) FROM competition t), (SELECT string_agg(t::text, ',' ORDER BY id) FROM spot t), (SELECT string_agg(t::text, ',' ORDER BY id) FROM lane t), (SELECT string_agg(t::text, ',' ORDER BY id) FROM heat t)" | md5sum; }

    P "$PGD" export 1
    expect 0 "PostgreSQL: export of the demo competition"
    ok "... the same bytes as from SQLite's demo" cmp -s "$T/out" "$T/e1.json"
    r0=$(pq empty -c "SELECT data FROM revision")
    P "$PGE" import "$T/e1.json"
    expect 0 "PostgreSQL: import of SQLite's export into an empty database"
    ok "... the data revision moved" test "$(pq empty -c "SELECT data FROM revision")" -gt "$r0"
    P "$PGE" export 1
    ok "SQLite -> PostgreSQL -> export: the same bytes" cmp -s "$T/out" "$T/e1.json"
    P "$PGE" import "$T/swap.json"
    expect 0 "PostgreSQL: lanes swap numbers, spots swap bibs"
    before=$(pgstate empty)
    P "$PGE" import "$T/half.json"
    expect 1 "PostgreSQL: a half-written document"
    is "$(pgstate empty)" "$before" "... nothing changed"
    edit "$T/e1.json" "$T/bad.json" "d['heats'][3]['zone_id'] = '7'"
    P "$PGE" import "$T/bad.json"
    expect 1 "PostgreSQL: a bad reference"
    like "$T/err" "heats[3].zone_id: zone 7 is not in competition 1" "... named"
    is "$(pgstate empty)" "$before" "... nothing changed"
    P "$PGE" import "$T/less.json" --replace
    expect 0 "PostgreSQL: --replace"
    is "$(pq empty -c "SELECT COUNT(*) FROM lane")" 29 "... the lane is gone"
    printf 'name,division,bib\n"Nord, Team",RX,301\nSud,,\n' >"$CSV"
    P "$PGE" import-spots 1 "$CSV"
    expect 0 "PostgreSQL: import-spots"
    is "$(pq empty -c "SELECT COUNT(*) FROM spot WHERE competition_id = 1")" 11 "... two more spots"
    P "$PGD" export-results 1
    expect 0 "PostgreSQL: export-results"
    "$ADMIN" --params "$T/lb.db" export-results 1 >/dev/null
    sqlite3 "$LB" "UPDATE lane SET score = '07:03' WHERE score = '08:59'"
    "$ADMIN" --params "$LB" export-results 1 >"$T/lb.csv"
    ok "... the same as SQLite's" cmp -s "$T/out" "$T/lb.csv"

    # ---- PostgreSQL: the organizer role and grants (issues 27 and 34)
    pauth() { pq empty -c "SELECT auth FROM revision"; }
    printf 'Pg-Org-Pw\n' >"$T/in"
    P "$PGE" --cost 4 add porg --role organizer
    expect 0 "PostgreSQL: add --role organizer"
    is "$(pq empty -c "SELECT role FROM account WHERE name = 'porg'")" organizer "... stored"
    a0=$(pauth)
    P "$PGE" grant porg editor --competition 1
    expect 0 "PostgreSQL: grant"
    ok "... revision.auth moved (insert)" test "$(pauth)" -gt "$a0"
    a0=$(pauth)
    P "$PGE" grant porg organizer --competition 1
    expect 0 "PostgreSQL: a second grant replaces the first"
    is "$(pq empty -c "SELECT COUNT(*) || ' ' || MAX(role) FROM account_grant")" "1 organizer" "... one grant"
    ok "... revision.auth moved (update)" test "$(pauth)" -gt "$a0"
    P "$PGE" list
    like "$T/out" "1:organizer" "PostgreSQL: list shows the grant"
    a0=$(pauth)
    P "$PGE" revoke-grant porg --competition 1
    expect 0 "PostgreSQL: revoke-grant"
    ok "... revision.auth moved (delete)" test "$(pauth)" -gt "$a0"
    P "$PGE" revoke-grant porg --competition 1
    expect 2 "PostgreSQL: revoke-grant when there is none"
    P "$PGE" grant porg editor --competition 42
    expect 2 "PostgreSQL: a grant on a competition that does not exist"
else
    echo "# PostgreSQL part not run (needs root, the server and no --no-pg)"
    [ "$PG" = no ] || { echo "Bail out! PostgreSQL server not available"; exit 1; }
fi

echo "1..$n"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
