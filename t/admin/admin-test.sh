#!/usr/bin/env bash
# t/admin/admin-test.sh PATH-TO-RANKING-ADMIN
#
# End-to-end test of the administration command on throwaway SQLite databases made
# from sql/schema.sql: every command, every exit status (0, 1, 2, 3), the database
# state after each command (read back with sqlite3), the pruning of the lanes' change
# log (and its refusal on a version 1 database), the stored bcrypt hashes
# (checked with htpasswd -v), password input (stdin, and a terminal driven by python3),
# and that no password or hash ever reaches stdout or stderr.  Every tool it needs
# (sqlite3, htpasswd, python3) must be there: a missing one fails the suite (Bail out!),
# no check is skipped.
# Prints TAP, then a last line "N passed, M failed"; exits non-zero on any failure.
set -euo pipefail

ADMIN=${1:?usage: $0 PATH-TO-RANKING-ADMIN}
HERE=$(cd "$(dirname "$0")" && pwd)
SCHEMA=$HERE/../../sql/schema.sql
SCHEMA_V1=$HERE/../upgrade/schema-v1.sql     # the first release's, no lane_history

[ -x "$ADMIN" ] || { echo "Bail out! $ADMIN is not an executable"; exit 1; }
[ -f "$SCHEMA" ] || { echo "Bail out! no $SCHEMA"; exit 1; }
[ -f "$SCHEMA_V1" ] || { echo "Bail out! no $SCHEMA_V1"; exit 1; }
for tool in sqlite3 htpasswd python3; do
    command -v "$tool" >/dev/null || { echo "Bail out! $tool not found"; exit 1; }
done
ADMIN=$(cd "$(dirname "$ADMIN")" && pwd)/$(basename "$ADMIN")

T=$(mktemp -d "${TMPDIR:-/tmp}/admin-test.XXXXXX")
LOCKER_PID=
cleanup() {
    if [ -n "$LOCKER_PID" ]; then kill "$LOCKER_PID" 2>/dev/null || true; fi
    rm -rf "$T"
}
trap cleanup EXIT
unset RANKING_DBD_DRIVER RANKING_DBD_PARAMS

DB=$T/ranking.db
sqlite3 "$DB" <"$SCHEMA" >/dev/null

# ------------------------------------------------------------------ TAP helpers
n=0 passed=0 failed=0
pass() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/#   /' <<<"$*"; }

# ok DESC COMMAND...: passes when COMMAND succeeds
ok() {
    local desc=$1; shift
    if "$@"; then pass "$desc"; else fail "$desc"; fi
}
# is GOT WANT DESC
is() {
    if [ "$1" == "$2" ]; then pass "$3"; else
        fail "$3"; diag "got:      '$1'"; diag "expected: '$2'"
    fi
}
# like FILE REGEX DESC (grep -E)
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

# Every password the test uses, checked against all output at the end.
PASSWORDS=()
pw() { PASSWORDS+=("$1"); }

# admin STDIN ARGS...: run the command on $DB (cost 4) with STDIN as its standard
# input; sets RC, output in $T/out and $T/err, both appended to $T/all.
admin_db() {
    local db=$1 input=$2; shift 2
    printf '%s' "$input" >"$T/in"
    set +e
    "$ADMIN" --params "$db" --cost 4 "$@" <"$T/in" >"$T/out" 2>"$T/err"
    RC=$?
    set -e
    cat "$T/out" "$T/err" >>"$T/all"
}
admin() { admin_db "$DB" "$@"; }
# raw ARGS...: the command with exactly ARGS, stdin empty
raw() {
    set +e
    "$ADMIN" "$@" </dev/null >"$T/out" 2>"$T/err"
    RC=$?
    set -e
    cat "$T/out" "$T/err" >>"$T/all"
}
# expect RC DESC: the last command's exit status (stderr shown when it differs)
expect() {
    if [ "$RC" -eq "$1" ]; then pass "$2 (exit $1)"; else
        fail "$2 (exit $1)"; diag "exit $RC; stdout:"; diag "$(cat "$T/out")"
        diag "stderr:"; diag "$(cat "$T/err")"
    fi
}

sql() { sqlite3 "$DB" "$1"; }
q() { printf "'%s'" "${1//\'/\'\'}"; }    # SQL string literal
hash_of() { sql "SELECT password_hash FROM account WHERE name = $(q "$1")"; }
field() { sql "SELECT $2 FROM account WHERE name = $(q "$1")"; }
users() { sql "SELECT COUNT(*) FROM account"; }
tokens() { sql "SELECT COUNT(*) FROM token t JOIN account a ON a.id = t.account_id WHERE a.name = $(q "$1")"; }
# add_token HASH USER EXPIRES_AT: a token row, as the module would write it
add_token() {
    sql "INSERT INTO token (hash, account_id, created_at, expires_at)
         SELECT $(q "$1"), id, strftime('%s','now'), $3 FROM account WHERE name = $(q "$2")"
}
now() { date +%s; }
# verifies USER PASSWORD: htpasswd accepts the stored hash of USER for PASSWORD
verifies() {
    printf '%s:%s\n' "$1" "$(hash_of "$1")" >"$T/htpasswd"
    htpasswd -vb "$T/htpasswd" "$1" "$2" >/dev/null 2>&1
}
refuses() { ! verifies "$@"; }
# list_line USER: the user's line of `list`, blanks squeezed
list_line() {
    admin '' list
    awk -v u="$1" '$1 == u { print $1, $2, $3, $4, $5 }' "$T/out"
}

# ------------------------------------------------------------------ help, version, usage
raw --help
expect 0 "--help"
for c in init add passwd role disable enable delete list revoke purge upgrade history prune \
    --before --competition --driver --params --cost; do
    like "$T/out" "(^| |\\[)$c( |$)" "--help mentions $c"
done
raw -h
expect 0 "-h"
raw --version
expect 0 "--version"
like "$T/out" '^ranking-admin \(mod_ranking\) [0-9]+\.[0-9]+' "--version prints the version"

raw --params "$DB"
expect 1 "no command"
like "$T/err" 'no command' "... says so"
raw --params "$DB" frobnicate
expect 1 "unknown command"
raw --params "$DB" --frob list
expect 1 "unknown option"
raw list
expect 1 "no --params and no RANKING_DBD_PARAMS"
like "$T/err" 'RANKING_DBD_PARAMS' "... names the variable"
raw --driver mysql --params "$DB" list
expect 1 "unsupported driver"
for c in 3 18 32 abc ''; do
    raw --params "$DB" --cost "$c" list
    expect 1 "--cost '$c' refused"
done
RANKING_PASSWORD_COST=18 raw --params "$DB" list
expect 1 "RANKING_PASSWORD_COST=18 refused"
like "$T/err" 'RANKING_PASSWORD_COST must be a number from 4 to 17' "... names the variable and the range"
raw --params "$DB" list extra
expect 1 "list takes no argument"
raw --params "$DB" add
expect 1 "add without a user"
raw --params "$DB" role
expect 1 "role without a user"
raw --params "$DB" --role editor list
expect 1 "--role with another command than add"
is "$(users)" 0 "no usage error touched the database"

# ------------------------------------------------------------------ database errors (3)
raw --params "$T/missing.db" list
expect 3 "missing database file"
like "$T/err" 'cannot open' "... says it cannot open it"
ok "... and does not create it" test ! -e "$T/missing.db"
raw --params "file:$T/missing.db?mode=rw" list
expect 3 "missing database file (URI, mode=rw)"

: >"$T/empty.db"
raw --params "$T/empty.db" list
expect 3 "empty database"
like "$T/err" "database '.*empty.db' has no mod_ranking schema \(apply sql/schema.sql\)" \
    "... says it has no mod_ranking schema"
echo 'PRAGMA foreign_keys = ON; CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT);' \
    | sqlite3 "$T/half.db"
pw 'half-Pw-91x'
admin_db "$T/half.db" $'half-Pw-91x\n' add someone
expect 3 "database with a partial schema (no token table)"
like "$T/err" 'has no mod_ranking schema' "... says it has no mod_ranking schema"
is "$(sqlite3 "$T/half.db" 'SELECT COUNT(*) FROM account')" 0 "... and adds nobody"
echo 'not a database at all, just text, long enough to fill a header.............' >"$T/text.db"
raw --params "$T/text.db" list
expect 3 "a file that is not a database"
mkdir "$T/dir.db"
raw --params "$T/dir.db" list
expect 3 "a directory"

# the defaults from the environment, and other ways to give the parameters
set +e
RANKING_DBD_PARAMS=$DB "$ADMIN" list >"$T/out" 2>"$T/err"; RC=$?
set -e
expect 0 "RANKING_DBD_PARAMS as the default --params"
set +e
RANKING_DBD_DRIVER=sqlite3 RANKING_DBD_PARAMS=$T/missing.db "$ADMIN" --params "$DB" list \
    >"$T/out" 2>"$T/err"; RC=$?
set -e
expect 0 "--params wins over RANKING_DBD_PARAMS"
raw --driver=sqlite3 --params="$DB" list
expect 0 "--driver=NAME --params=VALUE"
raw --params "file:$DB?mode=rw" list
expect 0 "an SQLite URI with mode=rw, as in DBDParams"

# ------------------------------------------------------------------ add
pw 'Alice-Pw-3k9!'
admin $'Alice-Pw-3k9!\n' add alice
expect 0 "add alice"
like "$T/out" '^added user alice \(reader\)$' "... says so"
is "$(users)" 1 "... one account"
is "$(field alice role)" reader "... role reader by default"
is "$(field alice enabled)" 1 "... enabled"
like <(hash_of alice) '^\$2y\$04\$.{53}$' "... hash is bcrypt \$2y\$ at the given cost"
ok "... htpasswd -v accepts the password" verifies alice 'Alice-Pw-3k9!'
ok "... htpasswd -v refuses another password" refuses alice 'Alice-Pw-3k9'
created=$(field alice created_at)
ok "... created_at is now" test $((created - $(now))) -le 5 -a $((created - $(now))) -ge -60
unlike "$T/all" 'Alice-Pw-3k9' "... the password is not printed"

pw 'Bob-Pw-77'
admin $'Bob-Pw-77\n' add bob --role editor
expect 0 "add bob --role editor"
is "$(field bob role)" editor "... role editor"
ok "... password verifies" verifies bob 'Bob-Pw-77'
pw 'Carol-Pw-1'
admin $'Carol-Pw-1\n' --role=reader add carol
expect 0 "add with --role=reader before the command"
is "$(field carol role)" reader "... role reader"

pw 'Dflt-Cost-Pw'
printf 'Dflt-Cost-Pw\n' >"$T/in"
set +e
"$ADMIN" --params "$DB" add dave <"$T/in" >"$T/out" 2>"$T/err"; RC=$?
set -e
cat "$T/out" "$T/err" >>"$T/all"
expect 0 "add without --cost"
like <(hash_of dave) '^\$2y\$10\$' "... bcrypt cost 10 by default"
ok "... password verifies" verifies dave 'Dflt-Cost-Pw'

# the cost from the environment (the server's RankingPasswordCost); --cost wins
pw 'Env-Cost-Pw'
printf 'Env-Cost-Pw\n' >"$T/in"
set +e
RANKING_PASSWORD_COST=5 "$ADMIN" --params "$DB" add erin <"$T/in" >"$T/out" 2>"$T/err"; RC=$?
set -e
cat "$T/out" "$T/err" >>"$T/all"
expect 0 "add with RANKING_PASSWORD_COST=5"
like <(hash_of erin) '^\$2y\$05\$' "... bcrypt cost 5"
ok "... password verifies" verifies erin 'Env-Cost-Pw'
printf 'Env-Cost-Pw\n' >"$T/in"
set +e
RANKING_PASSWORD_COST=5 "$ADMIN" --params "$DB" --cost 4 passwd erin <"$T/in" >"$T/out" 2>"$T/err"; RC=$?
set -e
cat "$T/out" "$T/err" >>"$T/all"
expect 0 "passwd with RANKING_PASSWORD_COST=5 and --cost 4"
like <(hash_of erin) '^\$2y\$04\$' "... --cost wins: cost 4"

before=$(hash_of alice)
pw 'Other-Pw-5'
admin $'Other-Pw-5\n' add alice
expect 2 "add an existing user"
like "$T/err" "user 'alice' already exists" "... says it exists"
is "$(hash_of alice)" "$before" "... the password is unchanged"
is "$(users)" 5 "... no account added"

# password input from a pipe
pw 'Crlf-Pw'
admin $'Crlf-Pw\r\n' add crlf
expect 0 "add with a CRLF line"
ok "... the CR is not part of the password" verifies crlf 'Crlf-Pw'
pw 'First-Line'; pw 'Second-Line'
admin $'First-Line\nSecond-Line\n' add twolines
expect 0 "add with two lines on stdin"
ok "... only the first line is the password" verifies twolines 'First-Line'
pw 'No-Newline-Pw'
admin 'No-Newline-Pw' add nonl
expect 0 "add with no final newline"
ok "... the whole line is the password" verifies nonl 'No-Newline-Pw'
pw 'with inner spaces and : colon'
admin $'with inner spaces and : colon\n' add spaces
expect 0 "a password with spaces and a colon"
ok "... verifies" verifies spaces 'with inner spaces and : colon'
p72=$(printf 'P%.0s' $(seq 72))
pw "$p72"
admin "$p72"$'\n' add long72
expect 0 "a 72-byte password"
ok "... verifies" verifies long72 "$p72"
admin "${p72}X"$'\n' add long73
expect 1 "a 73-byte password refused (bcrypt would cut it)"
is "$(field long73 name)" "" "... no account"

count=$(users)
admin '' add empty1
expect 1 "empty stdin: empty password refused"
like "$T/err" 'empty password' "... says so"
admin $'\n' add empty2
expect 1 "an empty line: empty password refused"
is "$(users)" "$count" "... no account added"

# never from the command line
pw 'Argv-Secret-42'
admin $'x\n' add eve 'Argv-Secret-42'
expect 1 "add USER PASSWORD refused"
like "$T/err" 'standard input' "... says passwords come from standard input"
admin $'x\n' add eve --password 'Argv-Secret-42'
expect 1 "add --password refused"
admin $'x\n' add eve --password='Argv-Secret-42'
expect 1 "add --password=... refused"
admin $'x\n' add eve -p 'Argv-Secret-42'
expect 1 "add -p refused"
is "$(field eve name)" "" "... eve was never created"
before=$(hash_of alice)
admin $'x\n' passwd alice 'Argv-Secret-42'
expect 1 "passwd USER PASSWORD refused"
is "$(hash_of alice)" "$before" "... alice's password is unchanged"

# user names
n64=$(printf 'u%.0s' $(seq 64))
pw 'Name64-Pw'
admin $'Name64-Pw\n' add "$n64"
expect 0 "a 64-byte user name"
pw 'Punct-Pw'
admin $'Punct-Pw\n' add 'a.b-c_d@e!~'
expect 0 "a user name with punctuation"
count=$(users)
for bad in "" "a b" "a:b" "${n64}u" $'tab\there' "caf$(printf '\xc3\xa9')" $'new\nline' $'del\x7f'; do
    admin $'Bad-Name-Pw\n' add "$bad"
    expect 1 "bad user name $(printf '%q' "$bad") refused"
done
pw 'Bad-Name-Pw'
is "$(users)" "$count" "... none was added"
admin '' passwd 'a:b'
expect 1 "a bad user name is refused by passwd too"

# roles
admin '' add frank --role admin
expect 1 "add --role admin refused"
is "$(field frank name)" "" "... frank was not created"

# ------------------------------------------------------------------ role
admin '' role bob reader
expect 0 "role bob reader"
like "$T/out" '^bob is now reader$' "... says so"
is "$(field bob role)" reader "... role changed"
admin '' role bob editor
expect 0 "role bob editor"
is "$(field bob role)" editor "... role changed back"
admin '' role bob admin
expect 1 "role bob admin refused"
is "$(field bob role)" editor "... role unchanged"
admin '' role bob Editor
expect 1 "roles are case-sensitive"
admin '' role ghost editor
expect 2 "role of an unknown user"
like "$T/err" "no user 'ghost'" "... says so"

# ------------------------------------------------------------------ unknown users (2)
for c in passwd disable enable delete revoke; do
    admin $'Ghost-Pw-1\n' "$c" ghost
    expect 2 "$c of an unknown user"
done
pw 'Ghost-Pw-1'
is "$(field ghost name)" "" "... no ghost was created"

# ------------------------------------------------------------------ list, tokens
T0=$(now)
add_token alice-live-1 alice $((T0 + 3600))
add_token alice-live-2 alice $((T0 + 60))
add_token alice-old-1 alice $((T0 - 10))
add_token bob-live-1 bob $((T0 + 3600))
add_token carol-old-1 carol $((T0 - 3600))
is "$(tokens alice)" 3 "three token rows for alice, inserted by hand"

admin '' list
expect 0 "list"
is "$(list_line alice)" "alice reader enabled 2 4" "list: alice, reader, enabled, 2 live tokens, cost 4"
is "$(list_line bob)" "bob editor enabled 1 4" "list: bob, editor, enabled, 1 live token, cost 4"
is "$(list_line carol)" "carol reader enabled 0 4" "list: an expired token is not counted"
is "$(list_line dave)" "dave reader enabled 0 10*" "list: a hash of another cost than --cost's is marked"
like "$T/err" "^1 user \\(\\*\\) has a password hash of another bcrypt cost than 4 .*next login" \
    "... and explained on stderr"
like "$T/out" '^NAME +ROLE +STATUS +TOKENS +COST$' "list has a header"
is "$(($(wc -l <"$T/out") - 1))" "$(users)" "list: one line per user"
unlike "$T/out" '\$2[aby]\$' "list never shows a hash"
raw --params "$DB" --cost 10 list
expect 0 "list with --cost 10"
is "$(awk '$1 == "dave" { print $5 } $1 == "alice" { print $5 }' "$T/out" | tr '\n' ' ')" \
   "4* 10 " "... then the cost-4 hashes are the marked ones"
like "$T/err" "^[0-9]+ users \\(\\*\\) have a password hash of another bcrypt cost than 10 " \
    "... counted on stderr"
sql "UPDATE account SET password_hash = 'x' WHERE name = 'carol'"
admin '' list
is "$(list_line carol)" "carol reader enabled 0 none*" "list: a hash that is not bcrypt: cost none*"

is "$(awk 'NR > 1 { print $1 }' "$T/out" | LC_ALL=C sort -c 2>&1 && echo sorted)" sorted \
    "list is sorted by name"

# ------------------------------------------------------------------ revoke
admin '' revoke alice
expect 0 "revoke alice"
like "$T/out" '^revoked 3 tokens of alice$' "... prints how many (expired ones too)"
is "$(tokens alice)" 0 "... alice has no token left"
is "$(tokens bob)" 1 "... bob's token is untouched"
is "$(field alice enabled)" 1 "... alice stays enabled"
admin '' revoke alice
expect 0 "revoke with nothing to revoke"
like "$T/out" '^revoked 0 tokens of alice$' "... prints 0"

# ------------------------------------------------------------------ purge
T0=$(now)
add_token alice-old-2 alice $((T0 - 1))
add_token alice-old-3 alice "$T0"
add_token alice-live-3 alice $((T0 + 3600))
add_token bob-old-1 bob $((T0 - 100000))
admin '' purge
expect 0 "purge"
like "$T/out" '^purged 4 expired tokens$' "... prints how many (expires_at <= now)"
is "$(sql 'SELECT hash FROM token ORDER BY hash' | tr '\n' ' ')" "alice-live-3 bob-live-1 " \
    "... only the live tokens remain"
admin '' purge
like "$T/out" '^purged 0 expired tokens$' "purge again: nothing left to purge"

# ------------------------------------------------------------------ passwd
add_token alice-live-4 alice $(($(now) + 3600))
is "$(tokens alice)" 2 "alice has two tokens before passwd"
pw 'Alice-New-Pw-8'
admin $'Alice-New-Pw-8\n' passwd alice
expect 0 "passwd alice"
like "$T/out" '^changed the password of alice; revoked 2 tokens$' "... says so"
ok "... the new password verifies" verifies alice 'Alice-New-Pw-8'
ok "... the old one does not" refuses alice 'Alice-Pw-3k9!'
is "$(tokens alice)" 0 "... alice's tokens are revoked"
is "$(tokens bob)" 1 "... bob's token is untouched"
is "$(field alice role)/$(field alice enabled)" reader/1 "... role and status unchanged"
add_token alice-live-5 alice $(($(now) + 3600))
before=$(hash_of alice)
admin '' passwd alice
expect 1 "passwd with an empty password"
is "$(hash_of alice)" "$before" "... the password is unchanged"
is "$(tokens alice)" 1 "... the tokens are kept"

# ------------------------------------------------------------------ disable / enable
add_token alice-live-6 alice $(($(now) + 3600))
admin '' disable alice
expect 0 "disable alice"
like "$T/out" '^disabled alice; revoked 2 tokens$' "... says so"
is "$(field alice enabled)" 0 "... enabled = 0"
is "$(tokens alice)" 0 "... her tokens are revoked"
is "$(tokens bob)" 1 "... bob's token is untouched"
is "$(list_line alice)" "alice reader disabled 0 4" "list shows alice disabled"
admin '' disable alice
expect 0 "disable a disabled user"
is "$(field alice enabled)" 0 "... still disabled"
admin '' enable alice
expect 0 "enable alice"
like "$T/out" '^enabled alice$' "... says so"
is "$(field alice enabled)" 1 "... enabled = 1"
ok "... her password still verifies" verifies alice 'Alice-New-Pw-8'
is "$(list_line alice)" "alice reader enabled 0 4" "list shows alice enabled"

# ------------------------------------------------------------------ delete
add_token bob-live-2 bob $(($(now) + 3600))
add_token bob-old-2 bob $(($(now) - 3600))
bob_id=$(field bob id)
admin '' delete bob
expect 0 "delete bob"
like "$T/out" '^deleted user bob; revoked 3 tokens$' "... says so"
is "$(field bob name)" "" "... the account is gone"
is "$(sql "SELECT COUNT(*) FROM token WHERE account_id = $bob_id")" 0 "... and its tokens"
admin '' list
unlike "$T/out" '^bob ' "list no longer shows bob"
admin '' delete bob
expect 2 "delete bob again"

# delete without ON DELETE CASCADE: tokens must be deleted explicitly
sed 's/REFERENCES account (id) ON DELETE CASCADE/REFERENCES account (id)/' "$SCHEMA" \
    | sqlite3 "$T/nocascade.db" >/dev/null
grep -q 'ON DELETE CASCADE' <(sqlite3 "$T/nocascade.db" .schema | grep -A3 'TABLE token') \
    && fail "the no-cascade schema still cascades" || pass "a schema whose token rows do not cascade"
pw 'Nc-Pw-1'
admin_db "$T/nocascade.db" $'Nc-Pw-1\n' add nc
expect 0 "add on the no-cascade database"
sqlite3 "$T/nocascade.db" "INSERT INTO token SELECT 'nc-1', id, 0, $(($(now) + 60)) FROM account"
admin_db "$T/nocascade.db" '' delete nc
expect 0 "delete with foreign keys on and no cascade"
is "$(sqlite3 "$T/nocascade.db" 'SELECT COUNT(*) FROM account')/$(sqlite3 "$T/nocascade.db" \
    'SELECT COUNT(*) FROM token')" 0/0 "... account and token gone"

# foreign keys are on: a token row of an unknown account is a database error... for
# the module; the command never writes one.  PRAGMA busy_timeout: a write waits for
# a lock another process holds for 2.5 s (the driver's own retries last 1.6 s).
rm -f "$T/locked"
{ printf 'BEGIN IMMEDIATE;\nUPDATE account SET created_at = created_at;\n'
  printf '.shell touch %s\n.shell sleep 2.5\nCOMMIT;\n' "$T/locked"; } \
    | sqlite3 "$DB" >/dev/null 2>&1 &
LOCKER_PID=$!
for _ in $(seq 100); do [ -e "$T/locked" ] && break; sleep 0.05; done
start=$(date +%s%N)
admin '' role carol editor
waited=$((($(date +%s%N) - start) / 1000000))
wait "$LOCKER_PID" || true
LOCKER_PID=
expect 0 "a write while another process holds the lock for 2.5 s waits"
ok "... it waited (${waited} ms)" test "$waited" -ge 1500
is "$(field carol role)" editor "... and then wrote"

# ------------------------------------------------------------------ history prune
# The lanes' change log on a database of its own; the tag (user_name) names each
# record.  A record stays when changed_at is at or after the bound.
HDB=$T/history.db
sqlite3 "$HDB" <"$SCHEMA" >/dev/null
hsql() { sqlite3 "$HDB" "$1"; }
# hist COMPETITION CHANGED_AT TAG: a record, as the module would write it
hist() {
    hsql "INSERT INTO lane_history (competition_id, zone_id, heat_id, lane_id, changed_at,
          user_name, action, lane_before, lane_after)
          VALUES ($1, 21, 201, 1001, $(q "$2"), $(q "$3"), 'update',
                  '{\"id\":\"1001\",\"score\":null}', '{\"id\":\"1001\",\"score\":\"7:45\"}')"
}
records() { hsql "SELECT group_concat(user_name, ' ') FROM (SELECT user_name FROM lane_history ORDER BY id)"; }
# every column of the records still there, to show that pruning changes no other row
dump_records() { hsql "SELECT * FROM lane_history ORDER BY id"; }
revision() { hsql "SELECT data FROM revision"; }
prune() { admin_db "$HDB" '' history prune "$@"; }

hist 1 2026-10-01T08:00:00Z a
hist 1 2026-10-31T23:59:59Z b
hist 1 2026-11-01T00:00:00Z c
hist 1 2026-11-01T09:30:00Z d
hist 2 2026-09-15T10:00:00Z e
hist 2 2026-10-20T12:00:00Z f
hist 2 2026-11-02T07:00:00Z g
hist 7 2025-06-01T00:00:00Z h
hist 1 2026-12-01T00:00:00Z i
is "$(records)" "a b c d e f g h i" "nine change records, inserted by hand"
rev0=$(revision)

# usage errors (1): nothing is removed
for bad in 2026-02-30 2026-13-01 20261101 '' 2025-02-29 1900-02-29 2026-04-31 2026-00-10 \
    2026-11-00 0000-01-01 2026-11-1 ' 2026-11-01' '2026-11-01 ' 2026-11-01T00:00:00 \
    2026-11-01T00:00Z 2026-11-01T24:00:00Z 2026-11-01T23:60:00Z 2026-11-01T23:59:60Z \
    2026-11-01t00:00:00z '2026-11-01 00:00:00Z' 2026-11-01T00:00:00+00:00 +2026-11-01 \
    2026-11-01Z yesterday; do
    prune --before "$bad"
    expect 1 "history prune --before $(printf '%q' "$bad") refused"
done
prune --before 2026-02-30
like "$T/err" "invalid --before '2026-02-30': February 2026 has 28 days" "... 2026-02-30: says February 2026 has 28 days"
prune --before 2026-13-01
like "$T/err" "invalid --before '2026-13-01': there is no month 13" "... 2026-13-01: says there is no month 13"
prune --before 20261101
like "$T/err" "invalid --before '20261101': the form is YYYY-MM-DD \(midnight UTC\) or YYYY-MM-DDTHH:MM:SSZ" \
    "... 20261101: gives the two forms"
prune --before ''
like "$T/err" "invalid --before ''" "... an empty date: says it is invalid"
prune --before=
expect 1 "history prune --before= (empty) refused"
prune
expect 1 "history prune without --before"
like "$T/err" 'missing --before DATE; usage: history prune --before DATE \[--competition ID\]' "... says --before is missing"
prune --competition 1
expect 1 "history prune --competition without --before"
prune 2026-11-01
expect 1 "history prune DATE (not an option)"
prune --before
expect 1 "--before without a value"
like "$T/err" "option '--before' needs a value" "... says so"
admin_db "$HDB" '' history
expect 1 "history without prune"
like "$T/err" "'history' needs a subcommand; usage: history prune" "... says a subcommand is needed"
admin_db "$HDB" '' history show --before 2026-11-01
expect 1 "history show (unknown)"
like "$T/err" "unknown command 'history show'" "... says it is unknown"
admin_db "$HDB" '' prune --before 2026-11-01
expect 1 "prune alone is no command"
for c in list purge upgrade; do
    admin_db "$HDB" '' "$c" --before 2026-11-01
    expect 1 "--before with $c refused"
done
admin_db "$HDB" '' --competition 1 purge
expect 1 "--competition with purge refused"
like "$T/err" "--competition goes with 'history prune'" "... says where it goes"
for bad in 0 -1 +1 1.0 abc '' ' 1' 0x10 9223372036854775808 99999999999999999999; do
    prune --before 2026-11-01 --competition "$bad"
    expect 1 "--competition $(printf '%q' "$bad") refused"
done
is "$(records)" "a b c d e f g h i" "... no usage error removed a record"

# valid dates with nothing older
prune --before 2025-01-01
expect 0 "nothing to prune"
like "$T/out" '^removed 0 change records older than 2025-01-01T00:00:00Z$' "... prints 0 and the bound"
prune --before 2024-02-29
expect 0 "a leap day (2024-02-29) is a date"
prune --before 2000-02-29T12:00:00Z
expect 0 "a leap day of a year divisible by 400 (2000-02-29)"
is "$(records)" "a b c d e f g h i" "... nothing removed"
is "$(revision)" "$rev0" "... the data revision did not move"

# one competition
before_dump=$(dump_records | grep -Ev '\|(e|f)\|')
prune --before 2026-11-01 --competition 2
expect 0 "prune competition 2 before 2026-11-01"
like "$T/out" '^removed 2 change records of competition 2 older than 2026-11-01T00:00:00Z$' \
    "... prints the count, the competition and the bound"
is "$(records)" "a b c d g h i" "... only competition 2's older records are gone (g is later)"
is "$(dump_records)" "$before_dump" "... the other records are unchanged, every column"
is "$(revision)" "$((rev0 + 1))" "... the data revision moved on (cached answers change)"
prune --before 2026-11-01 --competition 2
like "$T/out" '^removed 0 change records of competition 2 older' "... again: nothing left to prune"
is "$(revision)" "$((rev0 + 1))" "... and the revision stays"
prune --competition 0007 --before 2026-01-01
expect 0 "a competition that no longer exists (7, written 0007)"
like "$T/out" '^removed 1 change record of competition 7 older than 2026-01-01T00:00:00Z$' \
    "... its records are pruned too (singular: 1 change record)"
is "$(records)" "a b c d g i" "... h is gone"

# by date: midnight UTC, the bound itself kept
prune --before 2026-11-01
expect 0 "prune before 2026-11-01"
like "$T/out" '^removed 2 change records older than 2026-11-01T00:00:00Z$' "... prints the count"
is "$(records)" "c d g i" "... a and b (23:59:59) gone; c (at midnight) and later kept"
is "$(hsql "SELECT COUNT(*) FROM lane_history WHERE changed_at < '2026-11-01T00:00:00Z'")" 0 \
    "... nothing older is left"

# by date and time
prune --before=2026-11-02T07:00:00Z
expect 0 "prune before 2026-11-02T07:00:00Z (--before=VALUE)"
like "$T/out" '^removed 2 change records older than 2026-11-02T07:00:00Z$' "... prints the count"
is "$(records)" "g i" "... c and d gone; g (at the bound) kept"
prune --before 2026-11-02T07:00:01Z
like "$T/out" '^removed 1 change record older than 2026-11-02T07:00:01Z$' "one second later: g goes"
is "$(records)" "i" "... only the December record is left"
is "$(hsql 'SELECT COUNT(*) FROM competition') $(hsql 'SELECT COUNT(*) FROM lane')" "0 0" \
    "... no other table was touched"

# options before the command, and from the environment
hist 3 2026-01-01T00:00:00Z j
set +e
RANKING_DBD_PARAMS=$HDB "$ADMIN" --before 2026-06-01 history --competition 3 prune \
    >"$T/out" 2>"$T/err"; RC=$?
set -e
expect 0 "options anywhere around 'history prune'"
like "$T/out" '^removed 1 change record of competition 3 older than 2026-06-01T00:00:00Z$' "... prunes"
is "$(records)" "i" "... j is gone"

# a version 1 database has no change log: too old (3); the other commands work there
V1DB=$T/v1.db
sqlite3 "$V1DB" <"$SCHEMA_V1" >/dev/null
admin_db "$V1DB" '' history prune --before 2026-11-01
expect 3 "history prune on a version 1 database"
like "$T/err" "database '.*v1.db' is at schema version 1, too old for 'history prune'" \
    "... says the schema is too old"
like "$T/err" "run 'ranking-admin upgrade'" "... and to run ranking-admin upgrade"
unlike "$T/err" '^ranking-admin: note:' "... without the schema note the other commands print"
is "$(cat "$T/out")" "" "... prints nothing on stdout"
admin_db "$V1DB" '' history prune --before 2026-02-30
expect 1 "... a bad date is still a usage error there"
admin_db "$V1DB" '' list
expect 0 "list on a version 1 database (the probe needs no lane_history)"
like "$T/err" 'note: .*schema version 1' "... with the note"
pw 'V1-User-Pw'
admin_db "$V1DB" $'V1-User-Pw\n' add v1user
expect 0 "add on a version 1 database"
admin_db "$V1DB" '' purge
expect 0 "purge on a version 1 database"
# a database that says version 2 but lacks the table (a broken schema): 3
cp "$HDB" "$T/nolog.db"
sqlite3 "$T/nolog.db" 'DROP TABLE lane_history'
admin_db "$T/nolog.db" '' history prune --before 2026-11-01
expect 3 "history prune on a version 2 database without lane_history"
like "$T/err" 'lacks the change log \(table lane_history\)' "... says what is missing"
admin_db "$T/nolog.db" '' list
expect 0 "... list still works there"

# ------------------------------------------------------------------ the organizer role (issue 27)
GDB=$T/grants.db
sqlite3 "$GDB" <"$SCHEMA" >/dev/null
sqlite3 "$GDB" "INSERT INTO competition (id, name) VALUES (4, 'Lyon'), (7, 'Nantes')"
gsql() { sqlite3 "$GDB" "$1"; }
auth() { gsql "SELECT auth FROM revision"; }
pw 'Org-Pw-1'
admin_db "$GDB" $'Org-Pw-1\n' add olga --role organizer
expect 0 "add --role organizer"
like "$T/out" '^added user olga \(organizer\)$' "... says so"
is "$(gsql "SELECT role FROM account WHERE name = 'olga'")" organizer "... stored"
pw 'Org-Pw-2'
admin_db "$GDB" $'Org-Pw-2\n' add gus
admin_db "$GDB" '' role gus organizer
expect 0 "role USER organizer"
like "$T/out" '^gus is now organizer$' "... says so"
is "$(gsql "SELECT role FROM account WHERE name = 'gus'")" organizer "... stored"
admin_db "$GDB" '' role gus boss
expect 1 "an unknown role"
like "$T/err" "the role must be 'reader', 'editor' or 'organizer'" "... names the three roles"
admin_db "$GDB" '' list
like "$T/out" '^olga +organizer +enabled +0 +4$' "list shows the organizer role"
like "$T/out" '^NAME +ROLE +STATUS +TOKENS +COST$' "... no column GRANTS while no user has a grant"
# a version 2 database: its CHECK knows no organizer; say to upgrade
V2DB=$T/v2.db
sqlite3 "$V2DB" <"$HERE/../upgrade/schema-v2.sql" >/dev/null
admin_db "$V2DB" '' role gus organizer
expect 3 "role organizer on a version 2 database"
like "$T/err" "schema version 2, too old for 'role USER organizer'.*run 'ranking-admin upgrade'" "... says to upgrade"
pw 'Org-Pw-3'
admin_db "$V2DB" $'Org-Pw-3\n' add v2org --role organizer
expect 3 "add --role organizer on a version 2 database"
is "$(sqlite3 "$V2DB" "SELECT COUNT(*) FROM account")" 0 "... adds nobody"

# ------------------------------------------------------------------ grants per competition (issue 34)
a0=$(auth)
admin_db "$GDB" '' grant gus editor --competition 4
expect 0 "grant USER editor --competition 4"
like "$T/out" '^gus is now editor on competition 4$' "... says so"
is "$(gsql "SELECT g.role FROM account_grant g JOIN account a ON a.id = g.account_id WHERE a.name = 'gus' AND g.competition_id = 4")" editor "... stored"
a1=$(auth)
ok "... revision.auth moved" test "$a1" -gt "$a0"
admin_db "$GDB" '' grant gus organizer --competition=4
expect 0 "a second grant on the same competition"
like "$T/out" '^gus is now organizer on competition 4 \(was editor\)$' "... replaces the first"
is "$(gsql "SELECT COUNT(*) || ' ' || MAX(role) FROM account_grant")" "1 organizer" "... one grant, the new role"
a2=$(auth)
ok "... revision.auth moved" test "$a2" -gt "$a1"
admin_db "$GDB" '' grant gus organizer --competition 4
expect 0 "the same grant again"
like "$T/out" '^gus is already organizer on competition 4$' "... says so"
is "$(auth)" "$a2" "... and changes nothing"
admin_db "$GDB" '' grant olga editor --competition 7
admin_db "$GDB" '' grant olga editor --competition 4
admin_db "$GDB" '' list
expect 0 "list with grants"
like "$T/out" '^NAME +ROLE +STATUS +TOKENS +COST +GRANTS$' "... a column GRANTS"
like "$T/out" '^olga +organizer +enabled +0 +4 +4:editor,7:editor$' "... every grant of a user, by competition"
like "$T/out" '^gus +organizer +enabled +0 +4 +4:organizer$' "... one grant"
is "$(awk '$1 == "olga" { print $1, $2, $3, $4, $5 }' "$T/out")" "olga organizer enabled 0 4" "... the five columns before it are unchanged"
admin_db "$GDB" '' grant gus reader --competition 4
expect 1 "a grant of the role reader"
like "$T/err" "a grant's role must be 'editor' or 'organizer'" "... says which roles"
admin_db "$GDB" '' grant gus editor --competition 99
expect 2 "a grant on a competition that does not exist"
like "$T/err" 'no competition 99' "... says so"
admin_db "$GDB" '' grant nobody editor --competition 4
expect 2 "a grant to a user that does not exist"
admin_db "$GDB" '' grant gus editor
expect 1 "grant without --competition"
like "$T/err" 'missing --competition ID' "... says so"
admin_db "$GDB" '' grant gus editor --competition 0x
expect 1 "grant with a bad competition id"
admin_db "$GDB" '' role gus editor --competition 4
expect 1 "--competition with role"
a3=$(auth)
admin_db "$GDB" '' revoke-grant gus --competition 4
expect 0 "revoke-grant"
like "$T/out" '^gus is no longer organizer on competition 4$' "... says so"
is "$(gsql "SELECT COUNT(*) FROM account_grant g JOIN account a ON a.id = g.account_id WHERE a.name = 'gus'")" 0 "... the grant is gone"
ok "... revision.auth moved" test "$(auth)" -gt "$a3"
a4=$(auth)
admin_db "$GDB" '' revoke-grant gus --competition 4
expect 2 "revoke-grant when there is none"
like "$T/err" 'gus has no grant on competition 4' "... says so"
is "$(auth)" "$a4" "... changes nothing"
admin_db "$GDB" '' revoke-grant gus --competition 99
expect 2 "revoke-grant on a competition that does not exist"
gsql "PRAGMA foreign_keys = ON; DELETE FROM competition WHERE id = 7"
is "$(gsql "SELECT COUNT(*) FROM account_grant")" 1 "a grant goes with its competition"
admin_db "$GDB" '' delete olga
expect 0 "delete a user with a grant"
is "$(gsql "SELECT COUNT(*) FROM account_grant")" 0 "... the grant goes with it"
admin_db "$V2DB" '' grant gus editor --competition 4
expect 3 "grant on a version 2 database"
like "$T/err" "too old for 'grant'.*account_grant.*run 'ranking-admin upgrade'" "... says to upgrade"
admin_db "$V2DB" '' list
expect 0 "list on a version 2 database (no grant)"

# ------------------------------------------------------------------ a terminal
# drive_terminal.py ARGS...: run ranking-admin on a pseudo-terminal; each time a prompt
# appears, type the next line of $TTY_INPUT; print the whole terminal output.
cat >"$T/drive_terminal.py" <<'EOF'
import os, pty, select, sys
lines = os.environ["TTY_INPUT"].split("\n")
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
prompts = 0
while True:
    r, _, _ = select.select([fd], [], [], 10)
    if not r:
        break
    try:
        d = os.read(fd, 1024)
    except OSError:
        break
    if not d:
        break
    out += d
    while out.count(b"password") > prompts and lines:
        prompts += 1
        try:
            os.write(fd, lines.pop(0).encode() + b"\n")
        except OSError:
            pass
_, st = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(st))
EOF
tty_admin() {
    local input=$1; shift
    set +e
    TTY_INPUT=$input python3 "$T/drive_terminal.py" "$ADMIN" --params "$DB" --cost 4 "$@" \
        >"$T/out" 2>"$T/err"
    RC=$?
    set -e
    cat "$T/out" "$T/err" >>"$T/all"
}
pw 'Tty-Pw-Same'
tty_admin $'Tty-Pw-Same\nTty-Pw-Same' add ttyuser
expect 0 "terminal: add with the password typed twice"
like "$T/out" 'New password for ttyuser: ' "... prompts for it"
like "$T/out" 'Retype the new password: ' "... and again"
unlike "$T/out" 'Tty-Pw-Same' "... without echo"
ok "... the password verifies" verifies ttyuser 'Tty-Pw-Same'
pw 'Tty-Pw-One'; pw 'Tty-Pw-Two'
tty_admin $'Tty-Pw-One\nTty-Pw-Two' add ttyuser2
expect 1 "terminal: two different passwords refused"
like "$T/out" 'differ' "... says they differ"
is "$(field ttyuser2 name)" "" "... no account"
tty_admin $'\n' add ttyuser3
expect 1 "terminal: empty password refused"
pw 'Tty-Pw-New'
add_token tty-live-1 ttyuser $(($(now) + 3600))
tty_admin $'Tty-Pw-New\nTty-Pw-New' passwd ttyuser
expect 0 "terminal: passwd"
ok "... the new password verifies" verifies ttyuser 'Tty-Pw-New'
is "$(tokens ttyuser)" 0 "... tokens revoked"
unlike "$T/out" 'Tty-Pw-New' "... without echo"

# ------------------------------------------------------------------ no secret in the output
leaked=0
for p in "${PASSWORDS[@]}"; do
    if grep -qF -- "$p" "$T/all"; then
        leaked=1; diag "password '$p' appears in the output"
    fi
done
is "$leaked" 0 "no password in any stdout or stderr (${#PASSWORDS[@]} passwords)"
unlike "$T/all" '\$2[aby]\$[0-9]' "no bcrypt hash in any stdout or stderr"
ok "the output was checked at all" test -s "$T/all"

echo "1..$n"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
