#!/usr/bin/env bash
# t/upgrade/upgrade-test.sh PATH-TO-RANKING-ADMIN [--no-pg]
#
# End-to-end test of `ranking-admin upgrade` (schema versions 1 -> 2 -> 3,
# sql/upgrade/).  A version 1 (2) database is an older release's schema and demo
# data, kept here as exact copies: schema-v1.sql, schema-v1-pg.sql, demo-v1.sql
# (schema-v2.sql, schema-v2-pg.sql, demo-v2.sql).  Checks, on SQLite and
# (unless --no-pg) on a throwaway PostgreSQL server (t/pg/pg-server.sh; without its
# tools, or not as root, the suite fails: only an explicit --no-pg skips that part,
# and its checks are then shown and counted as skipped, never as passed):
#   - the upgrade from version 1 reaches version 3 and says so; every row of every
#     table keeps the values of its old columns (revision.data moves on, on purpose);
#   - the new columns hold their defaults; the upgraded schema is the one
#     sql/schema.sql (schema-pg.sql) creates: same columns, indexes, triggers;
#     its constraints work and the triggers still move the revision counters;
#   - a second upgrade changes nothing; a failing step (a database whose lane
#     table already has the new column), a read-only database and a database
#     newer than the command knows change nothing (exit 3);
#   - two upgrades at once: one upgrades, the other finds it done;
#   - the other commands work on version 1 and 3 databases (with a note on v1);
#   - from version 2 (step 003): every row kept (tokens, and the change log with its
#     counter of ids: no event id given twice), published values = stored scores,
#     the new roles, grants, idempotency keys and change-log rows and their
#     constraints; a step 003 failing half-way changes nothing;
#   - the steps are compiled into the command (no file of the source tree read);
#   - `ranking-admin init`: a new database with exactly the schema of sql/schema.sql
#     (schema-pg.sql), no user, no data; an existing one refused (exit 2) and left
#     as it was; as root, the SQLite file given to its directory's owner.
# Prints TAP, then a last line "N passed, M failed" (", K skipped" after it with
# --no-pg); exits non-zero on any failure.
set -euo pipefail

ADMIN=${1:?usage: $0 PATH-TO-RANKING-ADMIN [--no-pg]}
PG=yes
[ "${2:-}" = --no-pg ] && PG=no
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
V1=$HERE/schema-v1.sql V1PG=$HERE/schema-v1-pg.sql DEMO1=$HERE/demo-v1.sql
CUR=$ROOT/sql/schema.sql
V2=$HERE/schema-v2.sql V2PG=$HERE/schema-v2-pg.sql DEMO2=$HERE/demo-v2.sql

[ -x "$ADMIN" ] || { echo "Bail out! $ADMIN is not an executable"; exit 1; }
for f in "$V1" "$V1PG" "$DEMO1" "$CUR" "$V2" "$V2PG" "$DEMO2"; do [ -f "$f" ] || { echo "Bail out! no $f"; exit 1; }; done
command -v sqlite3 >/dev/null || { echo "Bail out! sqlite3 not found"; exit 1; }
ADMIN=$(cd "$(dirname "$ADMIN")" && pwd)/$(basename "$ADMIN")

T=$(mktemp -d "${TMPDIR:-/tmp}/upgrade-test.XXXXXX")
chmod 0755 "$T"     # the PostgreSQL server (user postgres) lives below
PGDIR=$T/pg PGPORT=
LOCKER_PID=
cleanup() {
    if [ -n "$LOCKER_PID" ]; then kill "$LOCKER_PID" 2>/dev/null || true; fi
    if [ -n "$PGPORT" ]; then "$ROOT/t/pg/pg-server.sh" stop "$PGDIR" "$PGPORT" || true; fi
    rm -rf "$T"
}
trap cleanup EXIT
unset RANKING_DBD_DRIVER RANKING_DBD_PARAMS

# ------------------------------------------------------------------ TAP helpers
n=0 passed=0 failed=0 skipped=0
pass() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n # skip $1"; }
diag() { sed 's/^/#   /' <<<"$*"; }
ok() {
    local desc=$1; shift
    if "$@"; then pass "$desc"; else fail "$desc"; fi
}
is() {
    if [ "$1" == "$2" ]; then pass "$3"; else
        fail "$3"; diag "got:      '$1'"; diag "expected: '$2'"
    fi
}
like() {
    if grep -Eq -- "$2" "$1"; then pass "$3"; else
        fail "$3"; diag "no /$2/ in:"; diag "$(cat "$1")"
    fi
}
unlike() {
    if ! grep -Eq -- "$2" "$1"; then pass "$3"; else
        fail "$3"; diag "/$2/ found in:"; diag "$(cat "$1")"
    fi
}
# same FILE1 FILE2 DESC: identical files (a diff shown when not)
same() {
    if cmp -s "$1" "$2"; then pass "$3"; else
        fail "$3"; diag "$(diff "$1" "$2" | head -20)"
    fi
}
# admin ARGS...: run the command (stdin empty, cwd $T/elsewhere); sets RC, $T/out, $T/err
admin() {
    set +e
    (cd "$T/elsewhere" && "$ADMIN" "$@" </dev/null >"$T/out" 2>"$T/err")
    RC=$?
    set -e
}
# admin_pw PASSWORD ARGS...: the same with a password on stdin
admin_pw() {
    local pw=$1; shift
    set +e
    (cd "$T/elsewhere" && printf '%s\n' "$pw" | "$ADMIN" --cost 4 "$@" >"$T/out" 2>"$T/err")
    RC=$?
    set -e
}
expect() {
    if [ "$RC" -eq "$1" ]; then pass "$2 (exit $1)"; else
        fail "$2 (exit $1)"; diag "exit $RC; stdout:"; diag "$(cat "$T/out")"
        diag "stderr:"; diag "$(cat "$T/err")"
    fi
}
mkdir "$T/elsewhere"    # the command runs where no sql/ directory is

# ================================================================== SQLite
lite() { sqlite3 -batch "$@"; }
# v1db FILE: a version 1 database with the previous release's demo data, plus a
# token (the demo has none) so that every table has rows
v1db() {
    lite "$1" <"$V1" >/dev/null
    lite "$1" <"$DEMO1"
    lite "$1" "INSERT INTO token (hash, account_id, created_at, expires_at)
               SELECT 'tok-' || name, id, 1793491200, 4102444800 FROM account"
}
tables() { lite "$1" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"; }
# rows DB TABLE COLUMNS: every row of TABLE, those columns, values quoted (NULL and
# '' differ), in primary key order
rows() { lite -cmd '.mode quote' "$1" "SELECT $3 FROM $2 ORDER BY $3"; }
columns() { lite "$1" "SELECT group_concat(name, ', ') FROM pragma_table_info('$2')"; }
# snapshot DB DIR: every table's rows, by the columns version 1 has
snapshot() {
    local db=$1 dir=$2 t cols
    mkdir -p "$dir"
    for t in $(tables "$V1DB_REF"); do
        cols=$(columns "$V1DB_REF" "$t")
        [ "$t" = revision ] && cols="id, epoch, auth"
        rows "$db" "$t" "$cols" >"$dir/$t"
    done
}
# shape DB: the schema as SQLite sees it: columns (name, type, not null, default,
# key), indexes and their columns, foreign keys, triggers
shape() {
    local db=$1 t i
    for t in $(tables "$db"); do
        echo "table $t"; lite "$db" "SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('$t')"
        lite "$db" "SELECT * FROM pragma_foreign_key_list('$t')"
        for i in $(lite "$db" "SELECT name FROM pragma_index_list('$t') ORDER BY name"); do
            echo "index $i"; lite "$db" "SELECT * FROM pragma_index_list('$t') WHERE name = '$i'"
            lite "$db" "SELECT * FROM pragma_index_xinfo('$i')"
        done
    done
    lite "$db" "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
}
data_rev() { lite "$1" "SELECT data FROM revision"; }
auth_rev() { lite "$1" "SELECT auth FROM revision"; }
dump() { lite "$1" .dump; }

V1DB_REF=$T/ref-v1.db
lite "$V1DB_REF" <"$V1" >/dev/null
FRESH=$T/fresh-v3.db
lite "$FRESH" <"$CUR" >/dev/null

# ------------------------------------------------------------------ the v1 database as it was
DB=$T/ranking.db
v1db "$DB"
is "$(lite "$DB" "SELECT COUNT(*) FROM sqlite_master WHERE name = 'schema_version'")" 0 \
    "sqlite: a version 1 database has no schema_version table"
is "$(lite "$DB" "SELECT (SELECT COUNT(*) FROM lane) || '/' || (SELECT COUNT(*) FROM token)")" 56/3 \
    "sqlite: it holds the previous demo (56 lanes) and 3 tokens"
snapshot "$DB" "$T/before"
rev0=$(data_rev "$DB")

# the other commands on a version 1 database: they work, with a note
admin --params "$DB" list
expect 0 "sqlite v1: list works"
like "$T/out" '^judge +editor +enabled +1 +10$' "sqlite v1: ... and lists the users"
like "$T/err" "note: database '.*ranking.db' is at schema version 1; mod_ranking needs version 3: run 'ranking-admin upgrade'" \
    "sqlite v1: ... with a note saying to upgrade"

# ------------------------------------------------------------------ the upgrade
admin --params "$DB" upgrade
expect 0 "sqlite: upgrade"
like "$T/out" "^upgraded database '.*ranking.db' from schema version 1 to 3$" "sqlite: ... says what it did"
is "$(cat "$T/err")" "" "sqlite: ... and nothing on stderr"
is "$(lite "$DB" 'SELECT COUNT(*) || ":" || MAX(version) FROM schema_version')" "1:3" \
    "sqlite: schema_version holds one row, version 3"
snapshot "$DB" "$T/after"
for t in $(tables "$V1DB_REF"); do
    same "$T/before/$t" "$T/after/$t" "sqlite: every row of $t kept, same values ($(wc -l <"$T/before/$t") rows)"
done
ok "sqlite: revision.data moved on (answers change, so do ETags)" test "$(data_rev "$DB")" -gt "$rev0"
is "$(lite "$DB" "SELECT COUNT(*) || '/' || SUM(ranking = 'places') FROM competition")" 3/3 \
    "sqlite: every competition ranks by 'places'"
is "$(lite "$DB" "SELECT COUNT(*) || '/' || SUM(tiebreak IS NULL) FROM lane")" 56/56 \
    "sqlite: every lane has a null tiebreak"
shape "$DB" >"$T/shape-upgraded"
shape "$FRESH" >"$T/shape-fresh"
same "$T/shape-upgraded" "$T/shape-fresh" \
    "sqlite: the upgraded schema is sql/schema.sql's (columns, keys, indexes, triggers)"
is "$(lite "$DB" 'PRAGMA foreign_key_check' | wc -l)" 0 "sqlite: foreign keys hold"
is "$(lite "$DB" 'PRAGMA integrity_check')" ok "sqlite: integrity check"

# constraints and triggers of the upgraded database
set +e
lite "$DB" "INSERT INTO competition (id, name, ranking) VALUES (90, 'x', 'bogus')" 2>/dev/null
r1=$?
lite "$DB" "INSERT INTO competition (id, name, ranking) VALUES (91, 'x', NULL)" 2>/dev/null
r2=$?
lite "$DB" "INSERT INTO schema_version (version) VALUES (3)" 2>/dev/null
r3=$?
set -e
ok "sqlite: ranking 'bogus' refused" test "$r1" -ne 0
ok "sqlite: ranking NULL refused" test "$r2" -ne 0
ok "sqlite: a second schema_version row refused" test "$r3" -ne 0
r=$(data_rev "$DB")
lite "$DB" "INSERT INTO competition (id, name) VALUES (92, 'New')"
is "$(lite "$DB" 'SELECT ranking FROM competition WHERE id = 92')" places "sqlite: a new competition ranks by 'places'"
is "$(data_rev "$DB")" $((r + 1)) "sqlite: insert into competition moves revision.data"
lite "$DB" "UPDATE competition SET ranking = 'chart100' WHERE id = 92"
is "$(data_rev "$DB")" $((r + 2)) "sqlite: ranking = 'chart100' accepted, moves revision.data"
lite "$DB" "UPDATE lane SET tiebreak = '4:59' WHERE id = 1001"
is "$(data_rev "$DB")" $((r + 3)) "sqlite: a lane's tiebreak written, moves revision.data"
lite "$DB" "PRAGMA foreign_keys = ON; DELETE FROM competition WHERE id = 92"
is "$(data_rev "$DB")" $((r + 4)) "sqlite: delete moves revision.data"
a=$(auth_rev "$DB")
lite "$DB" "UPDATE account SET enabled = 1 WHERE name = 'demo'; DELETE FROM token WHERE hash = 'tok-demo'"
is "$(auth_rev "$DB")" $((a + 2)) "sqlite: account update and token delete move revision.auth"
lite "$DB" "UPDATE lane SET tiebreak = NULL WHERE id = 1001"

# ------------------------------------------------------------------ again: nothing to do
dump "$DB" >"$T/dump1"
admin --params "$DB" upgrade
expect 0 "sqlite: a second upgrade"
like "$T/out" "^database '.*ranking.db' is already at schema version 3$" "sqlite: ... says it is already at version 3"
dump "$DB" >"$T/dump2"
same "$T/dump1" "$T/dump2" "sqlite: ... and changes nothing"

# the other commands on the upgraded database
admin_pw 'New-User-Pw' --params "$DB" add newuser --role editor
expect 0 "sqlite v3: add works"
is "$(cat "$T/err")" "" "sqlite v3: ... with no note"
admin --params "$DB" list
expect 0 "sqlite v3: list works"
like "$T/out" '^newuser +editor +enabled +0 +[0-9]+\*?$' "sqlite v3: ... shows the new user"
admin --params "$DB" purge
expect 0 "sqlite v3: purge works"
v1db "$T/other-v1.db"
admin_pw 'V1-User-Pw' --params "$T/other-v1.db" add v1user
expect 0 "sqlite v1: add works (users are the same in both versions)"
admin --params "$T/other-v1.db" upgrade
expect 0 "sqlite: ... and the user added on v1 survives the upgrade"
is "$(lite "$T/other-v1.db" "SELECT role FROM account WHERE name = 'v1user'")" reader "sqlite: ... with its role"

# a fresh database from sql/schema.sql is already current
cp "$FRESH" "$T/fresh-copy.db"
admin --params "$T/fresh-copy.db" upgrade
expect 0 "sqlite: upgrade of a database made by sql/schema.sql"
like "$T/out" 'already at schema version 3$' "sqlite: ... already at version 3"

# ------------------------------------------------------------------ failures change nothing
# a step that fails half-way: lane.tiebreak exists already (added by hand), so the
# second statement of 002.sql fails after the first one added competition.ranking
BROKEN=$T/broken.db
v1db "$BROKEN"
lite "$BROKEN" "ALTER TABLE lane ADD COLUMN tiebreak TEXT"
dump "$BROKEN" >"$T/broken-before"
admin --params "$BROKEN" upgrade
expect 3 "sqlite: a step failing half-way"
like "$T/err" "upgrade to schema version 2: statement 2 of sql/upgrade/sqlite/002.sql failed: duplicate column name: tiebreak" \
    "sqlite: ... names the script, the statement and the error"
like "$T/err" "upgrade rolled back, nothing was changed \(still schema version 1\)" "sqlite: ... says nothing changed"
is "$(cat "$T/out")" "" "sqlite: ... and prints no success"
dump "$BROKEN" >"$T/broken-after"
same "$T/broken-before" "$T/broken-after" "sqlite: ... and nothing changed (competition.ranking rolled back too)"

# a read-only database
RO=$T/readonly.db
v1db "$RO"
dump "$RO" >"$T/ro-before"
admin --params "file:$RO?mode=ro" upgrade
expect 3 "sqlite: a read-only database"
like "$T/err" 'readonly|read-only' "sqlite: ... says it is read-only"
dump "$RO" >"$T/ro-after"
same "$T/ro-before" "$T/ro-after" "sqlite: ... nothing changed"

# a database newer than the command knows
NEWER=$T/newer.db
cp "$FRESH" "$NEWER"
lite "$NEWER" "UPDATE schema_version SET version = 4"
dump "$NEWER" >"$T/newer-before"
admin --params "$NEWER" upgrade
expect 3 "sqlite: a database at version 4"
like "$T/err" "database '.*newer.db' is at schema version 4, newer than this ranking-admin knows \(3\)" \
    "sqlite: ... refused with a clear message"
dump "$NEWER" >"$T/newer-after"
same "$T/newer-before" "$T/newer-after" "sqlite: ... nothing changed"
admin --params "$NEWER" list
expect 0 "sqlite: list on a version 4 database still works"
like "$T/err" 'note: .* is at schema version 4, newer than this ranking-admin knows \(3\)' "sqlite: ... with a note"

# a schema_version table that is not one row
lite "$NEWER" "DELETE FROM schema_version"
admin --params "$NEWER" upgrade
expect 3 "sqlite: an empty schema_version table"
like "$T/err" 'schema_version must hold one positive version, not 0 rows' "sqlite: ... says so"

# a database with no mod_ranking schema
: >"$T/empty.db"
admin --params "$T/empty.db" upgrade
expect 3 "sqlite: upgrade of an empty database"
like "$T/err" 'has no mod_ranking schema' "sqlite: ... says it has no schema"

# ------------------------------------------------------------------ concurrency
# a write lock held by another process for 2 s: the upgrade waits, then runs
LOCKED=$T/locked.db
v1db "$LOCKED"
rm -f "$T/locked"
{ printf 'BEGIN IMMEDIATE;\nUPDATE account SET created_at = created_at;\n'
  printf '.shell touch %s\n.shell sleep 2\nCOMMIT;\n' "$T/locked"; } \
    | lite "$LOCKED" >/dev/null 2>&1 &
LOCKER_PID=$!
for _ in $(seq 100); do [ -e "$T/locked" ] && break; sleep 0.05; done
admin --params "$LOCKED" upgrade
wait "$LOCKER_PID" || true
LOCKER_PID=
expect 0 "sqlite: an upgrade while another process holds the write lock for 2 s waits, then runs"
is "$(lite "$LOCKED" 'SELECT version FROM schema_version')" 3 "sqlite: ... version 3"

# two upgrades at once: one does it, the other finds it done
TWO=$T/two.db
v1db "$TWO"
(cd "$T/elsewhere" && "$ADMIN" --params "$TWO" upgrade >"$T/two1.out" 2>&1; echo $? >"$T/two1.rc") &
p1=$!
(cd "$T/elsewhere" && "$ADMIN" --params "$TWO" upgrade >"$T/two2.out" 2>&1; echo $? >"$T/two2.rc") &
p2=$!
wait $p1 $p2 || true
is "$(cat "$T/two1.rc") $(cat "$T/two2.rc")" "0 0" "sqlite: two upgrades at once both succeed"
is "$(cat "$T/two1.out" "$T/two2.out" | sed -E 's/.*(upgraded|already).*/\1/' | sort | tr '\n' ' ')" \
    "already upgraded " "sqlite: ... one upgraded, the other found it done"
is "$(lite "$TWO" 'SELECT COUNT(*) FROM pragma_table_info('"'lane'"') WHERE name = '"'tiebreak'"'')" 1 \
    "sqlite: ... the column added once"

# ------------------------------------------------------------------ the steps are compiled in
for f in "$ROOT"/sql/upgrade/*/*.sql; do
    rel=${f#"$ROOT"/}
    ok "$rel is embedded in the command" grep -qF "$rel" "$ADMIN"
done
cp "$ADMIN" "$T/elsewhere/copied-admin"
cp "$V1DB_REF" "$T/elsewhere/v1.db"
lite "$T/elsewhere/v1.db" <"$DEMO1"
set +e
(cd / && env -i PATH=/usr/bin:/bin "$T/elsewhere/copied-admin" --params "$T/elsewhere/v1.db" upgrade \
    >"$T/out" 2>"$T/err")
RC=$?
set -e
expect 0 "a copy of the command, run from /, with an empty environment, upgrades"

# ================================================================== from version 2 (SQLite)
# v2db FILE: a version 2 database with the demo of that release, a token per user and
# a change log of three lane records, the last one pruned (the log's id counter is 3,
# its largest id 2)
v2db() {
    lite "$1" <"$V2" >/dev/null
    lite "$1" <"$DEMO2"
    lite "$1" "INSERT INTO token (hash, account_id, created_at, expires_at)
               SELECT 'tok-' || name, id, 1793491200, 4102444800 FROM account;
               INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at,
                   user_name, action, lane_before, lane_after) VALUES
                 (2, 26, 251, 2001, '2026-11-21T09:31:02Z', 'judge', 'update', '{\"id\":\"2001\"}', '{\"id\":\"2001\",\"score\":\"7:45\"}'),
                 (2, 26, 251, 2002, '2026-11-21T09:32:02Z', 'judge', 'delete', '{\"id\":\"2002\"}', NULL),
                 (2, 26, 251, 2003, '2026-11-21T09:33:02Z', 'judge', 'update', NULL, NULL);
               DELETE FROM lane_history WHERE id = 3"
}
V2DB_REF=$T/ref-v2.db
lite "$V2DB_REF" <"$V2" >/dev/null
# snapshot2 DB DIR: every table's rows, by the columns version 2 has
snapshot2() {
    local db=$1 dir=$2 t cols
    mkdir -p "$dir"
    for t in $(tables "$V2DB_REF"); do
        cols=$(columns "$V2DB_REF" "$t")
        [ "$t" = revision ] && cols="id, epoch, auth"
        case $t in sqlite_sequence|schema_version) continue ;; esac
        rows "$db" "$t" "$cols" >"$dir/$t"
    done
}
DB3=$T/ranking-v2.db
v2db "$DB3"
is "$(lite "$DB3" 'SELECT version FROM schema_version')" 2 "sqlite v2: a version 2 database"
is "$(lite "$DB3" "SELECT (SELECT COUNT(*) FROM lane) || '/' || (SELECT COUNT(*) FROM lane WHERE score IS NOT NULL) || '/' || (SELECT COUNT(*) FROM lane WHERE tiebreak IS NOT NULL) || '/' || (SELECT COUNT(*) FROM token) || '/' || (SELECT COUNT(*) FROM lane_history)")" \
    "$(lite "$DB3" "SELECT COUNT(*) FROM lane")/$(lite "$DB3" "SELECT COUNT(*) FROM lane WHERE score IS NOT NULL")/$(lite "$DB3" "SELECT COUNT(*) FROM lane WHERE tiebreak IS NOT NULL")/3/2" \
    "sqlite v2: it holds the demo, 3 tokens and 2 change records"
ok "sqlite v2: ... lanes with and without a score, with a tiebreak" \
    test "$(lite "$DB3" "SELECT COUNT(DISTINCT score IS NULL) || COUNT(DISTINCT tiebreak IS NULL) FROM lane")" = 22
snapshot2 "$DB3" "$T/before2"
rev2=$(data_rev "$DB3")
admin --params "$DB3" list
expect 0 "sqlite v2: list works"
like "$T/err" "note: database '.*ranking-v2.db' is at schema version 2; mod_ranking needs version 3: run 'ranking-admin upgrade'" \
    "sqlite v2: ... with a note saying to upgrade"

admin --params "$DB3" upgrade
expect 0 "sqlite: upgrade from version 2"
like "$T/out" "^upgraded database '.*ranking-v2.db' from schema version 2 to 3$" "sqlite: ... says what it did"
is "$(cat "$T/err")" "" "sqlite: ... and nothing on stderr"
is "$(lite "$DB3" 'SELECT COUNT(*) || ":" || MAX(version) FROM schema_version')" "1:3" \
    "sqlite: schema_version holds one row, version 3"
snapshot2 "$DB3" "$T/after2"
for t in $(tables "$V2DB_REF"); do
    case $t in sqlite_sequence|schema_version) continue ;; esac
    same "$T/before2/$t" "$T/after2/$t" "sqlite v2->3: every row of $t kept, same values ($(wc -l <"$T/before2/$t") rows)"
done
ok "sqlite v2->3: revision.data moved on" test "$(data_rev "$DB3")" -gt "$rev2"
is "$(lite "$DB3" "SELECT COUNT(*) || '/' || SUM(publication = 'immediate') || '/' || SUM(advance IS NULL) FROM competition")" 5/5/5 \
    "sqlite v2->3: every competition publishes immediately, no cut line"
is "$(lite "$DB3" "SELECT COUNT(*) FROM lane WHERE published_score IS NOT score OR published_tiebreak IS NOT tiebreak")" 0 \
    "sqlite v2->3: every stored score and tiebreak is published as it is"
is "$(lite "$DB3" "SELECT COUNT(*) FROM lane WHERE score_status IS NOT (CASE WHEN score IS NULL THEN NULL ELSE 'entered' END)")" 0 \
    "sqlite v2->3: a lane with a score is 'entered', one without has no status"
is "$(lite "$DB3" "SELECT group_concat(id || ':' || resource || ':' || ifnull(resource_id, '-'), ' ') FROM lane_history")" "1:lane:- 2:lane:-" \
    "sqlite v2->3: the change records are lane records"
is "$(lite "$DB3" "SELECT seq FROM sqlite_sequence WHERE name = 'lane_history'")" 3 \
    "sqlite v2->3: the change log's id counter is kept (3, above the largest id left, 2)"
shape "$DB3" >"$T/shape-upgraded2"
same "$T/shape-upgraded2" "$T/shape-fresh" \
    "sqlite v2->3: the upgraded schema is sql/schema.sql's (columns, keys, indexes, triggers)"
is "$(lite "$DB3" 'PRAGMA foreign_key_check' | wc -l)" 0 "sqlite v2->3: foreign keys hold"
is "$(lite "$DB3" 'PRAGMA integrity_check')" ok "sqlite v2->3: integrity check"
is "$(lite "$DB3" "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('account_new', 'token_kept', 'lane_history_new')")" 0 \
    "sqlite v2->3: no table of the step left behind"

# constraints and triggers of version 3 (foreign keys on, as the module and the command have them)
l3() { lite "$DB3" "PRAGMA foreign_keys = ON; $1" 2>/dev/null; }
refused() { if l3 "$2"; then fail "sqlite v3: $1 refused"; else pass "sqlite v3: $1 refused"; fi; }
accepted() { if l3 "$2"; then pass "sqlite v3: $1 accepted"; else fail "sqlite v3: $1 accepted"; fi; }
a=$(auth_rev "$DB3")
accepted "role 'organizer'" "UPDATE account SET role = 'organizer' WHERE name = 'judge'"
refused "role 'boss'" "UPDATE account SET role = 'boss' WHERE name = 'judge'"
admin --params "$DB3" list
like "$T/out" '^judge +organizer +enabled +1 +' "sqlite v3: list shows the role organizer"
accepted "a grant" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 3, 'organizer' FROM account WHERE name = 'demo'"
accepted "a second grant of that user" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 2, 'editor' FROM account WHERE name = 'demo'"
refused "a second grant on the same competition" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 3, 'editor' FROM account WHERE name = 'demo'"
refused "a grant of 'reader'" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 1, 'reader' FROM account WHERE name = 'demo'"
refused "a grant on a competition that does not exist" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 99, 'editor' FROM account WHERE name = 'demo'"
is "$(auth_rev "$DB3")" $((a + 3)) "sqlite v3: a role change and grants move revision.auth"
accepted "an idempotency key" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, location, body, created_at) SELECT id, 'k-1', 'POST', '/competition/', 'h', 201, '/competition/6', '{}', 1793491200 FROM account WHERE name = 'demo'"
refused "the same key twice for one user" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, 'k-1', 'PUT', '/x', 'h', 200, '{}', 1 FROM account WHERE name = 'demo'"
accepted "the same key for another user" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, 'k-1', 'PUT', '/x', 'h', 200, '{}', 1 FROM account WHERE name = 'judge'"
refused "an answer of status 500" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, 'k-2', 'PUT', '/x', 'h', 500, '{}', 1 FROM account WHERE name = 'demo'"
refused "an answer of status 429" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, 'k-2', 'PUT', '/x', 'h', 429, '{}', 1 FROM account WHERE name = 'demo'"
refused "an empty key" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, '', 'PUT', '/x', 'h', 200, '{}', 1 FROM account WHERE name = 'demo'"
accepted "a lane record 'create'" "INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at, user_name, action, lane_after) VALUES (2, 26, 251, 2040, '2026-11-21T10:00:00Z', 'organizer', 'create', '{}')"
is "$(lite "$DB3" "SELECT MAX(id) FROM lane_history")" 4 "sqlite v3: ... numbered after the counter (4), not after the largest id left"
accepted "a lane record 'validate'" "INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at, user_name, action) VALUES (2, 26, 251, 2040, '2026-11-21T10:00:01Z', 'organizer', 'validate')"
accepted "a heat record" "INSERT INTO lane_history (competition_id, zone_id, heat_id, changed_at, user_name, action, lane_before, lane_after, resource, resource_id) VALUES (2, 26, 251, '2026-11-21T10:00:02Z', 'organizer', 'update', '{}', '{}', 'heat', 251)"
accepted "a competition record" "INSERT INTO lane_history (competition_id, changed_at, user_name, action, lane_after, resource, resource_id) VALUES (6, '2026-11-21T10:00:03Z', 'organizer', 'create', '{}', 'competition', 6)"
refused "a heat record without resource_id" "INSERT INTO lane_history (competition_id, heat_id, changed_at, user_name, action, resource) VALUES (2, 251, 'x', 'o', 'update', 'heat')"
refused "a heat record with a lane_id" "INSERT INTO lane_history (competition_id, heat_id, lane_id, changed_at, user_name, action, resource, resource_id) VALUES (2, 251, 2001, 'x', 'o', 'update', 'heat', 251)"
refused "a heat record 'validate'" "INSERT INTO lane_history (competition_id, changed_at, user_name, action, resource, resource_id) VALUES (2, 'x', 'o', 'validate', 'heat', 251)"
refused "a lane record without lane_id" "INSERT INTO lane_history (competition_id, heat_id, changed_at, user_name, action) VALUES (2, 251, 'x', 'o', 'update')"
refused "a record of resource 'account'" "INSERT INTO lane_history (competition_id, changed_at, user_name, action, resource, resource_id) VALUES (2, 'x', 'o', 'update', 'account', 1)"
refused "action 'rename'" "INSERT INTO lane_history (competition_id, heat_id, lane_id, changed_at, user_name, action) VALUES (2, 251, 2001, 'x', 'o', 'rename')"
refused "publication 'later'" "UPDATE competition SET publication = 'later' WHERE id = 3"
refused "advance 0" "UPDATE competition SET advance = 0 WHERE id = 3"
accepted "publication 'validated' and advance 8" "UPDATE competition SET publication = 'validated', advance = 8 WHERE id = 3"
refused "score_status 'final'" "UPDATE lane SET score_status = 'final' WHERE id = 2001"
accepted "score_status 'validated'" "UPDATE lane SET score_status = 'validated' WHERE id = 2001"
a=$(auth_rev "$DB3")
accepted "deleting a competition with a grant (and nothing else)" "DELETE FROM competition WHERE id = 3"
is "$(lite "$DB3" "SELECT COUNT(*) FROM account_grant WHERE competition_id = 3")" 0 "sqlite v3: ... its grants went with it"
is "$(auth_rev "$DB3")" $((a + 1)) "sqlite v3: ... which moved revision.auth"
accepted "deleting a user" "DELETE FROM account WHERE name = 'demo'"
is "$(lite "$DB3" "SELECT (SELECT COUNT(*) FROM account_grant) || '/' || (SELECT COUNT(*) FROM idempotency_key) || '/' || (SELECT COUNT(*) FROM token WHERE hash = 'tok-demo')")" 0/1/0 \
    "sqlite v3: ... its grants, keys and tokens went with it (the other user's key stays)"

# a step 003 failing half-way: a table idempotency_key made by hand
BROKEN3=$T/broken-v2.db
v2db "$BROKEN3"
lite "$BROKEN3" "CREATE TABLE idempotency_key (x INTEGER)"
dump "$BROKEN3" >"$T/broken3-before"
admin --params "$BROKEN3" upgrade
expect 3 "sqlite: a step 003 failing half-way (after the account table was made again)"
like "$T/err" "upgrade to schema version 3: statement [0-9]+ of sql/upgrade/sqlite/003.sql failed: table idempotency_key already exists" \
    "sqlite: ... names the script, the statement and the error"
like "$T/err" "nothing was changed \(still schema version 2\)" "sqlite: ... says nothing changed"
dump "$BROKEN3" >"$T/broken3-after"
same "$T/broken3-before" "$T/broken3-after" "sqlite: ... and nothing changed (accounts, tokens, change log)"

# ================================================================== init (SQLite)
mkdir "$T/init"
INIT=$T/init/ranking.db
umask 022
admin --params "$INIT" init
expect 0 "sqlite: init creates a new database"
like "$T/out" "^created database '.*/init/ranking.db' at schema version 3, with no user yet" \
    "sqlite init: ... and says so"
shape "$INIT" >"$T/shape-init"
same "$T/shape-init" "$T/shape-fresh" "sqlite init: its schema is sql/schema.sql's (columns, keys, indexes, triggers)"
is "$(lite "$INIT" 'SELECT version FROM schema_version')" 3 "sqlite init: schema version 3"
is "$(lite "$INIT" 'PRAGMA journal_mode')" wal "sqlite init: WAL mode"
is "$(lite "$INIT" 'SELECT (SELECT COUNT(*) FROM account) + (SELECT COUNT(*) FROM token) + (SELECT COUNT(*) FROM competition) + (SELECT COUNT(*) FROM lane)')" 0 \
    "sqlite init: no user and no data (the demo data is not loaded)"
is "$(lite "$INIT" 'SELECT COUNT(*) FROM revision')" 1 "sqlite init: the revision row is there"
is "$(stat -c %a "$INIT")" 640 "sqlite init: mode 0640"
is "$(ls "$T/init")" ranking.db "sqlite init: no -wal, -shm or -journal file left"
cp "$INIT" "$T/init-copy.db"
admin --params "$INIT" init
expect 2 "sqlite init: an existing database is refused"
like "$T/err" "database '.*/init/ranking.db' exists already: init creates a new one only" \
    "sqlite init: ... saying so"
ok "sqlite init: ... and left as it was" cmp -s "$INIT" "$T/init-copy.db"
: >"$T/init/empty.db"
admin --params "$T/init/empty.db" init
expect 2 "sqlite init: an existing empty file is refused too"
is "$(stat -c %s "$T/init/empty.db")" 0 "sqlite init: ... and left empty"
admin --params "file:$T/init/uri.db?mode=rw" init
expect 0 "sqlite init: a file: URI as DBDParams says it (its query left out)"
is "$(lite "$T/init/uri.db" 'SELECT version FROM schema_version')" 3 "sqlite init: ... gives the database"
admin --params "$T/init/no-such-dir/ranking.db" init
expect 3 "sqlite init: a missing directory is a database error"
ok "sqlite init: ... nothing created" test ! -e "$T/init/no-such-dir"
admin --params ":memory:" init
expect 1 "sqlite init: :memory: is a usage error"
admin --params "$INIT" init extra
expect 1 "sqlite init: takes no operand"
if [ "$(id -u)" = 0 ]; then
    install -d -o nobody -g nogroup -m 0750 "$T/init-www"
    admin --params "$T/init-www/ranking.db" init
    expect 0 "sqlite init as root in a directory of another user"
    is "$(stat -c %U:%G "$T/init-www/ranking.db")" nobody:nogroup \
        "sqlite init as root: the file goes to the directory's owner, who can write it"
    set +e
    runuser -u nobody -- "$ADMIN" --params "$T/init-www/ranking.db" list >"$T/out" 2>"$T/err"; RC=$?
    set -e
    expect 0 "sqlite init as root: ... the directory's owner can use it"
fi

# ================================================================== PostgreSQL
# The checks of this part: with --no-pg, that many are shown as skipped (and a run
# of the part checks that it still has that many).
PG_CHECKS=47
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ "$PG" = yes ]; then
    { [ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ]; } \
        || { echo "Bail out! no PostgreSQL server (initdb) installed (or run with --no-pg)"; exit 1; }
    [ "$(id -u)" = 0 ] || { echo "Bail out! the PostgreSQL part needs root (or run with --no-pg)"; exit 1; }
    for tool in psql pg_dump; do
        command -v "$tool" >/dev/null || { echo "Bail out! $tool not found (or run with --no-pg)"; exit 1; }
    done
    n_before_pg=$n
    PGPORT=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1", LocalPort => 0)->sockport')
    "$ROOT/t/pg/pg-server.sh" start "$PGDIR" "$PGPORT" >"$T/pg.conninfo" \
        || { echo "Bail out! cannot start PostgreSQL"; exit 1; }
    export PGPASSWORD=ranking
    conninfo() { echo "host=127.0.0.1 port=$PGPORT dbname=$1 user=ranking password=ranking"; }
    asadmin_psql() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PGPORT" -U postgres -d postgres "$@"; }
    pq() { local db=$1; shift; psql -X -q -A -t -v ON_ERROR_STOP=1 -P null='<NULL>' -h 127.0.0.1 -p "$PGPORT" -U ranking -d "$db" "$@"; }
    pgdump() { pg_dump -h 127.0.0.1 -p "$PGPORT" -U ranking --no-owner "$1" | grep -Ev '^(--|\\(un)?restrict |$)'; }
    # pgv1 NAME: a version 1 database with the previous demo and a token per user
    pgv1() {
        asadmin_psql -c "CREATE DATABASE $1 OWNER ranking"
        pq "$1" -f "$V1PG" -f "$DEMO1" >/dev/null
        pq "$1" -c "INSERT INTO token (hash, account_id, created_at, expires_at)
                    SELECT 'tok-' || name, id, 1793491200, 4102444800 FROM account"
    }
    pgtables() { pq "$1" -c "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"; }
    pgcolumns() {
        pq "$1" -c "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position)
                    FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '$2'"
    }
    pgsnapshot() {
        local db=$1 dir=$2 t cols
        mkdir -p "$dir"
        for t in $(pgtables ranking_ref); do
            cols=$(pgcolumns ranking_ref "$t")
            [ "$t" = revision ] && cols="id, epoch, auth"
            pq "$db" -c "SELECT $cols FROM $t ORDER BY $cols" >"$dir/$t"
        done
    }
    pgshape() {
        pq "$1" -c "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default
                    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2"
        pq "$1" -c "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2"
        # by table name (ordering by regclass would follow creation order)
        pq "$1" -c "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
                    WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2"
        pq "$1" -c "SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger
                    WHERE NOT tgisinternal ORDER BY 1, 2"
    }
    pgdata() { pq "$1" -c "SELECT data FROM revision"; }

    asadmin_psql -c "CREATE DATABASE ranking_ref OWNER ranking"
    pq ranking_ref -f "$V1PG" >/dev/null
    asadmin_psql -c "CREATE DATABASE ranking_fresh OWNER ranking"
    pq ranking_fresh -f "$ROOT/sql/schema-pg.sql" >/dev/null

    pgv1 ranking_v1
    is "$(pq ranking_v1 -c "SELECT to_regclass('schema_version') IS NULL")" t \
        "pgsql: a version 1 database has no schema_version table"
    pgsnapshot ranking_v1 "$T/pg-before"
    prev=$(pgdata ranking_v1)
    admin --driver pgsql --params "$(conninfo ranking_v1)" list
    expect 0 "pgsql v1: list works"
    like "$T/err" "note: database 'ranking_v1' is at schema version 1" "pgsql v1: ... with a note"

    admin --driver pgsql --params "$(conninfo ranking_v1)" upgrade
    expect 0 "pgsql: upgrade"
    like "$T/out" "^upgraded database 'ranking_v1' from schema version 1 to 3$" "pgsql: ... says what it did"
    is "$(pq ranking_v1 -c 'SELECT COUNT(*) || $$:$$ || MAX(version) FROM schema_version')" 1:3 \
        "pgsql: schema_version holds one row, version 3"
    pgsnapshot ranking_v1 "$T/pg-after"
    for t in $(pgtables ranking_ref); do
        same "$T/pg-before/$t" "$T/pg-after/$t" "pgsql: every row of $t kept, same values ($(wc -l <"$T/pg-before/$t") rows)"
    done
    ok "pgsql: revision.data moved on" test "$(pgdata ranking_v1)" -gt "$prev"
    is "$(pq ranking_v1 -c "SELECT COUNT(*) || '/' || COUNT(*) FILTER (WHERE ranking = 'places') FROM competition")" 3/3 \
        "pgsql: every competition ranks by 'places'"
    is "$(pq ranking_v1 -c "SELECT COUNT(*) || '/' || COUNT(*) FILTER (WHERE tiebreak IS NULL) FROM lane")" 56/56 \
        "pgsql: every lane has a null tiebreak"
    pgshape ranking_v1 >"$T/pg-shape-upgraded"
    pgshape ranking_fresh >"$T/pg-shape-fresh"
    same "$T/pg-shape-upgraded" "$T/pg-shape-fresh" \
        "pgsql: the upgraded schema is sql/schema-pg.sql's (columns, indexes, constraints, triggers)"
    set +e
    pq ranking_v1 -c "INSERT INTO competition (id, name, ranking) VALUES (90, 'x', 'bogus')" 2>/dev/null; r1=$?
    pq ranking_v1 -c "INSERT INTO schema_version (version) VALUES (3)" 2>/dev/null; r3=$?
    set -e
    ok "pgsql: ranking 'bogus' refused" test "$r1" -ne 0
    ok "pgsql: a second schema_version row refused" test "$r3" -ne 0
    r=$(pgdata ranking_v1)
    pq ranking_v1 -c "INSERT INTO competition (id, name) VALUES (92, 'New')"
    is "$(pq ranking_v1 -c 'SELECT ranking FROM competition WHERE id = 92')" places "pgsql: a new competition ranks by 'places'"
    pq ranking_v1 -c "UPDATE lane SET tiebreak = '4:59' WHERE id = 1001"
    pq ranking_v1 -c "DELETE FROM competition WHERE id = 92"
    is "$(pgdata ranking_v1)" $((r + 3)) "pgsql: the triggers still move revision.data (insert, lane tiebreak, delete)"
    pq ranking_v1 -c "UPDATE lane SET tiebreak = NULL WHERE id = 1001"

    pgdump ranking_v1 >"$T/pg-dump1"
    admin --driver pgsql --params "$(conninfo ranking_v1)" upgrade
    expect 0 "pgsql: a second upgrade"
    like "$T/out" "^database 'ranking_v1' is already at schema version 3$" "pgsql: ... already at version 3"
    pgdump ranking_v1 >"$T/pg-dump2"
    same "$T/pg-dump1" "$T/pg-dump2" "pgsql: ... and changes nothing (pg_dump)"
    admin_pw 'Pg-User-Pw' --driver pgsql --params "$(conninfo ranking_v1)" add pguser
    expect 0 "pgsql v3: add works"
    is "$(cat "$T/err")" "" "pgsql v3: ... with no note"

    # the demo database pg-server.sh made from sql/schema-pg.sql: current already
    admin --driver pgsql --params "$(conninfo ranking)" upgrade
    expect 0 "pgsql: upgrade of a database made by sql/schema-pg.sql"
    like "$T/out" 'already at schema version 3$' "pgsql: ... already at version 3"

    # a step failing half-way changes nothing
    pgv1 ranking_broken
    pq ranking_broken -c "ALTER TABLE lane ADD COLUMN tiebreak TEXT"
    pgdump ranking_broken >"$T/pg-broken-before"
    admin --driver pgsql --params "$(conninfo ranking_broken)" upgrade
    expect 3 "pgsql: a step failing half-way"
    like "$T/err" 'statement 2 of sql/upgrade/pgsql/002.sql failed: .*tiebreak.* already exists' \
        "pgsql: ... names the script, the statement and the error"
    like "$T/err" 'nothing was changed' "pgsql: ... says nothing changed"
    pgdump ranking_broken >"$T/pg-broken-after"
    same "$T/pg-broken-before" "$T/pg-broken-after" "pgsql: ... and nothing changed (pg_dump)"

    # newer than known
    pgv1 ranking_newer
    pq ranking_newer -c "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (4)"
    pgdump ranking_newer >"$T/pg-newer-before"
    admin --driver pgsql --params "$(conninfo ranking_newer)" upgrade
    expect 3 "pgsql: a database at version 4"
    like "$T/err" "database 'ranking_newer' is at schema version 4, newer than this ranking-admin knows \(3\)" \
        "pgsql: ... refused with a clear message"
    pgdump ranking_newer >"$T/pg-newer-after"
    same "$T/pg-newer-before" "$T/pg-newer-after" "pgsql: ... nothing changed"

    # two upgrades at once (the table lock makes the second wait, then see version 3)
    pgv1 ranking_two
    for i in 1 2; do
        (cd "$T/elsewhere" && "$ADMIN" --driver pgsql --params "$(conninfo ranking_two)" upgrade \
            >"$T/pgtwo$i.out" 2>&1; echo $? >"$T/pgtwo$i.rc") &
    done
    wait
    is "$(cat "$T/pgtwo1.rc") $(cat "$T/pgtwo2.rc")" "0 0" "pgsql: two upgrades at once both succeed"
    is "$(cat "$T/pgtwo1.out" "$T/pgtwo2.out" | sed -E 's/.*(upgraded|already).*/\1/' | sort | tr '\n' ' ')" \
        "already upgraded " "pgsql: ... one upgraded, the other found it done"

    # init: the schema into an empty database; refused where it is already
    asadmin_psql -c "CREATE DATABASE ranking_init OWNER ranking"
    admin --driver pgsql --params "$(conninfo ranking_init)" init
    expect 0 "pgsql: init creates the schema in an empty database"
    like "$T/out" "^created database 'ranking_init' at schema version 3, with no user yet" \
        "pgsql init: ... and says so"
    pgshape ranking_init >"$T/pg-shape-init"
    same "$T/pg-shape-init" "$T/pg-shape-fresh" \
        "pgsql init: its schema is sql/schema-pg.sql's (columns, indexes, constraints, triggers)"
    is "$(pq ranking_init -c 'SELECT (SELECT COUNT(*) FROM account) + (SELECT COUNT(*) FROM competition)')" 0 \
        "pgsql init: no user and no data"
    pgdump ranking_init >"$T/pg-init-before"
    admin --driver pgsql --params "$(conninfo ranking_init)" init
    expect 2 "pgsql init: a database with the schema is refused"
    like "$T/err" "database 'ranking_init' has a mod_ranking schema already" "pgsql init: ... saying so"
    pgdump ranking_init >"$T/pg-init-after"
    same "$T/pg-init-before" "$T/pg-init-after" "pgsql init: ... and nothing changed (pg_dump)"
    admin --driver pgsql --params "$(conninfo ranking_v1)" init
    expect 2 "pgsql init: a version 1 database is refused too"
    [ "$((n - n_before_pg))" -eq "$PG_CHECKS" ] || {
        echo "Bail out! the PostgreSQL part ran $((n - n_before_pg)) checks, PG_CHECKS says $PG_CHECKS: correct it"
        exit 1
    }
else
    for _ in $(seq "$PG_CHECKS"); do skip "PostgreSQL part not run (--no-pg)"; done
fi

# ================================================================== from version 2 (PostgreSQL)
# on the server started above, if it was
if [ -n "$PGPORT" ]; then
    asadmin_psql -c "CREATE DATABASE ranking_ref2 OWNER ranking"
    pq ranking_ref2 -f "$V2PG" >/dev/null
    asadmin_psql -c "CREATE DATABASE ranking_v2 OWNER ranking"
    pq ranking_v2 -f "$V2PG" -f "$DEMO2" >/dev/null
    pq ranking_v2 -c "INSERT INTO token (hash, account_id, created_at, expires_at)
                      SELECT 'tok-' || name, id, 1793491200, 4102444800 FROM account;
                      INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at,
                          user_name, action, lane_before, lane_after) VALUES
                        (2, 26, 251, 2001, '2026-11-21T09:31:02Z', 'judge', 'update', '{}', '{}'),
                        (2, 26, 251, 2002, '2026-11-21T09:32:02Z', 'judge', 'delete', '{}', NULL),
                        (2, 26, 251, 2003, '2026-11-21T09:33:02Z', 'judge', 'update', NULL, NULL);
                      DELETE FROM lane_history WHERE id = 3" >/dev/null
    pgsnapshot2() {
        local db=$1 dir=$2 t cols
        mkdir -p "$dir"
        for t in $(pgtables ranking_ref2); do
            [ "$t" = schema_version ] && continue
            cols=$(pgcolumns ranking_ref2 "$t")
            [ "$t" = revision ] && cols="id, epoch, auth"
            pq "$db" -c "SELECT $cols FROM $t ORDER BY $cols" >"$dir/$t"
        done
    }
    pgsnapshot2 ranking_v2 "$T/pg-before2"
    prev=$(pgdata ranking_v2)
    admin --driver pgsql --params "$(conninfo ranking_v2)" upgrade
    expect 0 "pgsql: upgrade from version 2"
    like "$T/out" "^upgraded database 'ranking_v2' from schema version 2 to 3$" "pgsql: ... says what it did"
    is "$(pq ranking_v2 -c 'SELECT COUNT(*) || $$:$$ || MAX(version) FROM schema_version')" 1:3 \
        "pgsql v2->3: schema_version holds one row, version 3"
    pgsnapshot2 ranking_v2 "$T/pg-after2"
    for t in $(pgtables ranking_ref2); do
        [ "$t" = schema_version ] && continue
        same "$T/pg-before2/$t" "$T/pg-after2/$t" "pgsql v2->3: every row of $t kept, same values ($(wc -l <"$T/pg-before2/$t") rows)"
    done
    ok "pgsql v2->3: revision.data moved on" test "$(pgdata ranking_v2)" -gt "$prev"
    is "$(pq ranking_v2 -c "SELECT COUNT(*) || '/' || COUNT(*) FILTER (WHERE publication = 'immediate' AND advance IS NULL) FROM competition")" 5/5 \
        "pgsql v2->3: every competition publishes immediately, no cut line"
    is "$(pq ranking_v2 -c "SELECT COUNT(*) FROM lane WHERE published_score IS DISTINCT FROM score OR published_tiebreak IS DISTINCT FROM tiebreak
                            OR score_status IS DISTINCT FROM (CASE WHEN score IS NULL THEN NULL ELSE 'entered' END)")" 0 \
        "pgsql v2->3: every stored score and tiebreak is published as it is, 'entered' where there is a score"
    ok "pgsql v2->3: ... the demo has lanes with and without score and tiebreak" \
        test "$(pq ranking_v2 -c "SELECT COUNT(DISTINCT score IS NULL) || '' || COUNT(DISTINCT tiebreak IS NULL) FROM lane")" = 22
    is "$(pq ranking_v2 -c "SELECT string_agg(id || ':' || resource || ':' || COALESCE(resource_id::text, '-'), ' ' ORDER BY id) FROM lane_history")" \
        "1:lane:- 2:lane:-" "pgsql v2->3: the change records are lane records"
    pgshape ranking_v2 >"$T/pg-shape-upgraded2"
    same "$T/pg-shape-upgraded2" "$T/pg-shape-fresh" \
        "pgsql v2->3: the upgraded schema is sql/schema-pg.sql's (columns, indexes, constraints, triggers)"
    p3() { pq ranking_v2 -c "$1" >/dev/null 2>&1; }
    pg_refused() { if p3 "$2"; then fail "pgsql v3: $1 refused"; else pass "pgsql v3: $1 refused"; fi; }
    pg_accepted() { if p3 "$2"; then pass "pgsql v3: $1 accepted"; else fail "pgsql v3: $1 accepted"; fi; }
    pg_accepted "role 'organizer'" "UPDATE account SET role = 'organizer' WHERE name = 'judge'"
    pg_refused "role 'boss'" "UPDATE account SET role = 'boss' WHERE name = 'judge'"
    a=$(pq ranking_v2 -c "SELECT auth FROM revision")
    pg_accepted "a grant" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 3, 'organizer' FROM account WHERE name = 'demo'"
    pg_refused "a second grant on the same competition" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 3, 'editor' FROM account WHERE name = 'demo'"
    pg_refused "a grant of 'reader'" "INSERT INTO account_grant (account_id, competition_id, role) SELECT id, 1, 'reader' FROM account WHERE name = 'demo'"
    is "$(pq ranking_v2 -c "SELECT auth FROM revision")" $((a + 1)) "pgsql v3: a grant moves revision.auth"
    pg_accepted "an idempotency key" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, 'k-1', 'POST', '/competition/', 'h', 201, '{}', 1793491200 FROM account WHERE name = 'demo'"
    pg_refused "the same key twice for one user" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, 'k-1', 'PUT', '/x', 'h', 200, '{}', 1 FROM account WHERE name = 'demo'"
    pg_refused "an answer of status 503" "INSERT INTO idempotency_key (account_id, idem_key, method, path, body_hash, status, body, created_at) SELECT id, 'k-2', 'PUT', '/x', 'h', 503, '{}', 1 FROM account WHERE name = 'demo'"
    pg_accepted "a lane record 'create'" "INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at, user_name, action, lane_after) VALUES (2, 26, 251, 2040, 'x', 'organizer', 'create', '{}')"
    is "$(pq ranking_v2 -c "SELECT MAX(id) FROM lane_history")" 4 "pgsql v3: ... numbered after the ids given before (4)"
    pg_accepted "a heat record" "INSERT INTO lane_history (competition_id, heat_id, changed_at, user_name, action, resource, resource_id) VALUES (2, 251, 'x', 'organizer', 'update', 'heat', 251)"
    pg_refused "a heat record 'validate'" "INSERT INTO lane_history (competition_id, changed_at, user_name, action, resource, resource_id) VALUES (2, 'x', 'o', 'validate', 'heat', 251)"
    pg_refused "a lane record without lane_id" "INSERT INTO lane_history (competition_id, heat_id, changed_at, user_name, action) VALUES (2, 251, 'x', 'o', 'update')"
    pg_accepted "deleting a competition with a grant (and nothing else)" "DELETE FROM competition WHERE id = 3"
    pg_accepted "deleting a user" "DELETE FROM account WHERE name = 'demo'"
    is "$(pq ranking_v2 -c "SELECT (SELECT COUNT(*) FROM account_grant) || '/' || (SELECT COUNT(*) FROM idempotency_key) || '/' || (SELECT COUNT(*) FROM token WHERE hash = 'tok-demo')")" 0/0/0 \
        "pgsql v3: ... grants, keys and tokens went with them"

    # a step 003 failing half-way changes nothing
    asadmin_psql -c "CREATE DATABASE ranking_broken2 OWNER ranking"
    pq ranking_broken2 -f "$V2PG" -f "$DEMO2" >/dev/null
    pq ranking_broken2 -c "CREATE TABLE idempotency_key (x INTEGER)"
    pgdump ranking_broken2 >"$T/pg-broken2-before"
    admin --driver pgsql --params "$(conninfo ranking_broken2)" upgrade
    expect 3 "pgsql: a step 003 failing half-way"
    like "$T/err" 'statement [0-9]+ of sql/upgrade/pgsql/003.sql failed: .*idempotency_key.* already exists' \
        "pgsql: ... names the script, the statement and the error"
    pgdump ranking_broken2 >"$T/pg-broken2-after"
    same "$T/pg-broken2-before" "$T/pg-broken2-after" "pgsql: ... and nothing changed (pg_dump)"
else
    for _ in $(seq 39); do skip "no PostgreSQL server to start (or --no-pg): step 003"; done
fi

echo "1..$n"
if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"
else echo "$passed passed, $failed failed"; fi
[ "$failed" -eq 0 ]
