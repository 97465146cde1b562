#!/usr/bin/env bash
# t/admin/admin-test.sh PATH-TO-RANKING-ADMIN
#
# End-to-end test of the administration command on throwaway SQLite databases made
# from sql/schema.sql: every command, every exit status (0, 1, 2, 3), the database
# state after each command (read back with sqlite3), the stored bcrypt hashes
# (checked with htpasswd -v), password input (stdin, and a terminal when python3 is
# there to drive one), and that no password or hash ever reaches stdout or stderr.
# Prints TAP, then a last line "N passed, M failed"; exits non-zero on any failure.
set -euo pipefail

ADMIN=${1:?usage: $0 PATH-TO-RANKING-ADMIN}
HERE=$(cd "$(dirname "$0")" && pwd)
SCHEMA=$HERE/../../sql/schema.sql

[ -x "$ADMIN" ] || { echo "Bail out! $ADMIN is not an executable"; exit 1; }
[ -f "$SCHEMA" ] || { echo "Bail out! no $SCHEMA"; exit 1; }
for tool in sqlite3 htpasswd; do
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
    awk -v u="$1" '$1 == u { print $1, $2, $3, $4 }' "$T/out"
}

# ------------------------------------------------------------------ help, version, usage
raw --help
expect 0 "--help"
for c in add passwd role disable enable delete list revoke purge --driver --params --cost; do
    like "$T/out" "(^| )$c( |$)" "--help mentions $c"
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
for c in 3 32 abc ''; do
    raw --params "$DB" --cost "$c" list
    expect 1 "--cost '$c' refused"
done
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

before=$(hash_of alice)
pw 'Other-Pw-5'
admin $'Other-Pw-5\n' add alice
expect 2 "add an existing user"
like "$T/err" "user 'alice' already exists" "... says it exists"
is "$(hash_of alice)" "$before" "... the password is unchanged"
is "$(users)" 4 "... no account added"

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
is "$(list_line alice)" "alice reader enabled 2" "list: alice, reader, enabled, 2 live tokens"
is "$(list_line bob)" "bob editor enabled 1" "list: bob, editor, enabled, 1 live token"
is "$(list_line carol)" "carol reader enabled 0" "list: an expired token is not counted"
like "$T/out" '^NAME +ROLE +STATUS +TOKENS$' "list has a header"
is "$(($(wc -l <"$T/out") - 1))" "$(users)" "list: one line per user"
unlike "$T/out" '\$2[aby]\$' "list never shows a hash"
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
is "$(list_line alice)" "alice reader disabled 0" "list shows alice disabled"
admin '' disable alice
expect 0 "disable a disabled user"
is "$(field alice enabled)" 0 "... still disabled"
admin '' enable alice
expect 0 "enable alice"
like "$T/out" '^enabled alice$' "... says so"
is "$(field alice enabled)" 1 "... enabled = 1"
ok "... her password still verifies" verifies alice 'Alice-New-Pw-8'
is "$(list_line alice)" "alice reader enabled 0" "list shows alice enabled"

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

# ------------------------------------------------------------------ a terminal
if command -v python3 >/dev/null; then
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
else
    for _ in $(seq 13); do n=$((n + 1)); passed=$((passed + 1)); echo "ok $n # skip no python3 to drive a terminal"; done
fi

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
