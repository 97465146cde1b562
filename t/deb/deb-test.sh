#!/usr/bin/env bash
# t/deb/deb-test.sh: the Debian package, end to end, in the SYSTEM Apache.
#
# Follows doc/operations.md's "The Debian package" (README.md's "Install"): builds
# libapache2-mod-ranking with dpkg-buildpackage from a copy of the tree in a
# temporary directory (nothing is written into the repository or beside it), installs it with apt-get (so that its
# dependencies resolve; it must enable ranking, dbd and socache_shmcb and create
# /var/lib/mod_ranking), then as README.md says: "ranking-admin init" and "add"
# as www-data, "a2ensite ranking" (the package's own site, on port 80, for
# ranking.example.org), configtest, graceful (or start); a request; failed logins
# whose log lines are matched by the fail2ban filter the package ships (with
# fail2ban-regex from the fail2ban package, downloaded and unpacked, not
# installed); ranking-admin and its man page; then purges the package with the
# site still enabled and removes everything it added: the system's Apache
# configuration is left as it was found (checked at the end).
#
# Run as root, no terminal needed.  Installs the build dependencies it lacks
# (they stay installed, as do the package's run-time dependencies that apt
# brought in, e.g. libaprutil1-dbd-sqlite3).  If the system Apache was running
# before, it is reloaded (graceful) instead of started, and left running.
#
# Environment: RK_DEB_KEEP=1 keeps the temporary directory (build log, .deb files).
# Output: one "ok"/"not ok"/"skip" line per check, then "N passed, N failed"
# (", N skipped" when some check could not run); exit status 1 on any failure.
# shellcheck disable=SC2317  # functions that run through check() look unreachable
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
export LC_ALL=C.UTF-8

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PKG=libapache2-mod-ranking
PORT=80                        # the package's site: <VirtualHost *:80>
VHOST=ranking.example.org      # its ServerName
SITE=ranking
SITE_FILE=/etc/apache2/sites-available/$SITE.conf
SITE_LOG=/var/log/apache2/ranking-error.log
DBDIR=/var/lib/mod_ranking
DB=$DBDIR/ranking.db
# Written while the test has the system modified; a run killed before its
# clean-up leaves it, and the next run then knows that what it finds is its own.
STATE=/var/tmp/rk-deb-test.state
DEPS=(dpkg-dev debhelper fakeroot build-essential apache2 apache2-dev libjansson-dev
      check pkg-config autoconf automake libtool sqlite3 curl man-db python3)

pass=0 fail=0 skip=0
ok()     { pass=$((pass + 1)); printf 'ok - %s\n' "$*"; }
not_ok() { fail=$((fail + 1)); printf 'not ok - %s\n' "$*"; }
skipped() { skip=$((skip + 1)); printf 'skip - %s\n' "$*"; }
# check DESCRIPTION COMMAND...: one check, its output shown only on failure
check() {
    local desc=$1 out; shift
    if out=$("$@" 2>&1); then ok "$desc"; else not_ok "$desc"; printf '%s\n' "$out" | sed 's/^/    /' | tail -n 40; fi
}
log() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 2; }

[ "$(id -u)" -eq 0 ] || die "run as root (installs and purges a package, starts the system Apache)"

# ---- build dependencies -----------------------------------------------------
missing=()
for p in "${DEPS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- helpers on the system Apache ---------------------------------------------
apache_pidfile() {
    ( set +eu; . /etc/apache2/envvars >/dev/null 2>&1; echo "${APACHE_PID_FILE:-/var/run/apache2/apache2.pid}" )
}
PIDFILE=$(apache_pidfile)
apache_running() { [ -s "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() {   # wait_port PORT open|closed SECONDS
    local i
    for ((i = 0; i < $3 * 10; i++)); do
        if port_open "$1"; then [ "$2" = open ] && return 0; else [ "$2" = closed ] && return 0; fi
        sleep 0.1
    done
    return 1
}
apache_stop() {
    local i pid
    apache_running || return 0
    pid=$(cat "$PIDFILE")
    apache2ctl stop >/dev/null 2>&1 || true
    for ((i = 0; i < 150; i++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    return 1
}
mod_enabled() { a2query -q -m "$1" 2>/dev/null; }
pkg_installed() { dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q "install ok installed"; }
# What "as found" means: the Apache configuration and a2enmod's state, the
# package's status, the database directory.
snapshot() {
    find /etc/apache2 /var/lib/apache2 -printf '%y %m %u:%g %p -> %l\n' 2>/dev/null | sort
    find /etc/apache2 -type f -exec md5sum {} + 2>/dev/null | sort
    dpkg-query -W -f='${db:Status-Abbrev} ${Version}\n' "$PKG" 2>/dev/null || echo "$PKG: unknown"
    ls -ld "$DBDIR" 2>/dev/null || echo "no $DBDIR"
    [ -d "$DBDIR" ] && find "$DBDIR" -mindepth 1 -printf '%y %m %u:%g %p\n' | sort
    true
}

# ---- the state before ----------------------------------------------------------
record_state() {
    pkg_installed && die "$PKG is installed already (not by this test): purge it first"
    [ -e "$SITE_FILE" ] && die "$SITE_FILE exists already (not by this test)"
    [ -e "$DB" ] && die "$DB exists already (not by this test)"
    [ -e "$SITE_LOG" ] && die "$SITE_LOG exists already (not by this test)"
    WAS_RUNNING=0; apache_running && WAS_RUNNING=1
    DBD_BEFORE=0; mod_enabled dbd && DBD_BEFORE=1
    SHMCB_BEFORE=0; mod_enabled socache_shmcb && SHMCB_BEFORE=1
    DBDIR_BEFORE=0; [ -d "$DBDIR" ] && DBDIR_BEFORE=1
    # a2enmod / a2dismod create their state directories as needed
    MARKER_DIRS_BEFORE=$(marker_dirs)
    { printf 'WAS_RUNNING=%s\nDBD_BEFORE=%s\nSHMCB_BEFORE=%s\nDBDIR_BEFORE=%s\n' \
          "$WAS_RUNNING" "$DBD_BEFORE" "$SHMCB_BEFORE" "$DBDIR_BEFORE"
      printf 'MARKER_DIRS_BEFORE=%q\n' "$MARKER_DIRS_BEFORE"; } >"$STATE"
}
marker_dirs() { find /var/lib/apache2 -mindepth 2 -maxdepth 2 -type d 2>/dev/null | sort; }

WORK=
cleanup() {
    set +e
    # Apache: stop it if this test started it; otherwise it goes on below
    [ "$WAS_RUNNING" = 1 ] || apache_stop
    if [ -e "$SITE_FILE" ] || [ -e "/etc/apache2/sites-enabled/$SITE.conf" ]; then
        a2dissite -q -p -f "$SITE" >/dev/null 2>&1
        rm -f "$SITE_FILE" "/etc/apache2/sites-enabled/$SITE.conf"
    fi
    rm -f "/var/lib/apache2/site/"*"/$SITE" 2>/dev/null
    if dpkg-query -W "$PKG" >/dev/null 2>&1 &&
       ! dpkg-query -W -f='${db:Status-Abbrev}' "$PKG" 2>/dev/null | grep -q '^un'; then
        apt-get purge -y -qq "$PKG" >/dev/null 2>&1 || dpkg --purge "$PKG" >/dev/null 2>&1
    fi
    # a2enmod ranking enabled them through ranking.load's "Depends:" line
    [ "$DBD_BEFORE" = 1 ] || ! mod_enabled dbd || a2dismod -q -p -f dbd >/dev/null 2>&1
    [ "$SHMCB_BEFORE" = 1 ] || ! mod_enabled socache_shmcb ||
        a2dismod -q -p -f socache_shmcb >/dev/null 2>&1
    [ "$WAS_RUNNING" = 1 ] && apache_running && apache2ctl graceful >/dev/null 2>&1
    local d
    for d in $(marker_dirs); do
        grep -qx "$d" <<<"$MARKER_DIRS_BEFORE" || rmdir "$d" 2>/dev/null
    done
    rm -f "$DB" "$DB-wal" "$DB-shm" "$DB-journal"
    [ "$DBDIR_BEFORE" = 1 ] || rmdir "$DBDIR" 2>/dev/null
    rm -f "$SITE_LOG" /var/log/apache2/ranking-access.log
    if [ -n "$WORK" ] && [ -d "$WORK" ]; then
        if [ "${RK_DEB_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
        WORK=
    fi
    rm -f "$STATE"
    set -e
}
if [ -e "$STATE" ]; then
    log "leftovers of an interrupted run ($STATE): cleaning up first"
    # shellcheck disable=SC1090
    . "$STATE"
    cleanup
fi
record_state
on_exit() { local rc=$?; cleanup; exit "$rc"; }
trap on_exit EXIT
trap 'exit 130' INT TERM HUP
BEFORE=$(snapshot)

# stop at the first failure of a step the rest depends on
finish() {
    cleanup
    local after
    after=$(snapshot)
    if [ "$BEFORE" = "$after" ]; then ok "system left as found (Apache configuration, a2enmod state, $DBDIR)"
    else not_ok "system left as found"; diff <(printf '%s\n' "$BEFORE") <(printf '%s\n' "$after") | sed 's/^/    /' | head -40; fi
    if [ "$skip" -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
    [ "$fail" -eq 0 ] && exit 0
    exit 1
}
require() { [ "$fail" -eq 0 ] || { log "stopping after a failed step"; finish; }; }

if [ "$WAS_RUNNING" = 0 ] && port_open 80; then
    not_ok "port 80 is free for the system Apache (its default configuration listens there)"
    finish
fi

# ---- build -----------------------------------------------------------------------
WORK=$(mktemp -d /tmp/rk-deb-test.XXXXXX)
chmod 755 "$WORK"      # apt-get reads the .deb as user _apt
echo "WORK=$WORK" >>"$STATE"
SRC=$WORK/mod-ranking
mkdir "$SRC"
log "copying $ROOT to $SRC"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # tracked and untracked-but-not-ignored files, that still exist
    (cd "$ROOT" && git ls-files -z -co --exclude-standard |
        while IFS= read -r -d '' f; do
            case "$f" in */node_modules/*) continue ;; esac
            { [ -e "$f" ] || [ -L "$f" ]; } && printf '%s\0' "$f"
        done | tar --null -T - -cf -) | tar -C "$SRC" -xf -
else
    tar -C "$ROOT" --exclude=.git --exclude=./build --exclude='./build-*' --exclude=./var \
        --exclude=node_modules --exclude=autom4te.cache --exclude='*.o' --exclude='*.lo' \
        --exclude='*.la' --exclude=.libs --exclude=.deps -cf - . | tar -C "$SRC" -xf -
fi

log "dpkg-buildpackage -us -uc -b (log: $WORK/build.log)"
t0=$(date +%s)
if (cd "$SRC" && dpkg-buildpackage -us -uc -b) >"$WORK/build.log" 2>&1; then
    ok "dpkg-buildpackage -us -uc -b ($(($(date +%s) - t0)) s)"
else
    not_ok "dpkg-buildpackage -us -uc -b"; tail -n 40 "$WORK/build.log" | sed 's/^/    /'
fi
require
DEB=$(ls "$WORK"/${PKG}_*.deb)

contents=$(dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|')
has_all() {
    local f bad=0
    for f in "$@"; do grep -qx "$f" <<<"$contents" || { echo "missing: $f"; bad=1; }; done
    grep -Eqx "/usr/share/doc/$PKG/README\.md(\.gz)?" <<<"$contents" || { echo "missing: README.md"; bad=1; }
    grep -E '\.la$' <<<"$contents" && { echo "a libtool .la is shipped"; bad=1; }
    return "$bad"
}
check "package holds the module, .load/.conf, ranking-admin, its man page, SQL, example, README and doc/, scoreboard page" \
    has_all /usr/lib/apache2/modules/mod_ranking.so /etc/apache2/mods-available/ranking.load \
        /etc/apache2/mods-available/ranking.conf /usr/sbin/ranking-admin \
        /usr/share/man/man8/ranking-admin.8.gz /usr/share/libapache2-mod-ranking/sql/schema.sql \
        /usr/share/libapache2-mod-ranking/sql/schema-pg.sql /usr/share/libapache2-mod-ranking/sql/demo.sql \
        /usr/share/doc/$PKG/examples/ranking-vhost.conf.example /usr/share/doc/$PKG/copyright \
        /etc/apache2/sites-available/ranking.conf /usr/share/doc/$PKG/examples/mod-ranking.conf \
        /usr/share/doc/$PKG/examples/jail-mod-ranking.conf.example \
        /usr/share/libapache2-mod-ranking/board/index.html /usr/share/libapache2-mod-ranking/board/js/app.js \
        /usr/share/doc/$PKG/doc/operations.md /usr/share/doc/$PKG/doc/directives.md \
        /usr/share/doc/$PKG/doc/board-big-screen.png
depends=$(dpkg-deb -f "$DEB" Depends)
has_depends() {
    grep -q 'apache2-api-20120211' <<<"$depends" &&
        grep -q 'libaprutil1-dbd-sqlite3 | libaprutil1-dbd-pgsql' <<<"$depends"
}
check "Depends: apache2-api-20120211 and libaprutil1-dbd-sqlite3 | libaprutil1-dbd-pgsql ($depends)" \
    has_depends

if command -v lintian >/dev/null 2>&1; then
    lrc=0
    (cd "$WORK" && lintian --fail-on error ./*.changes) >"$WORK/lintian.log" 2>&1 || lrc=$?
    lintian_out=$(grep -v 'running with root privileges' "$WORK/lintian.log" || true)
    if [ "$lrc" -eq 0 ]; then ok "lintian: no error ($(grep -c '^[WIPNX]:' <<<"$lintian_out" || true) other tags)"
    else not_ok "lintian: no error"; fi
    [ -n "$lintian_out" ] && printf '%s\n' "$lintian_out" | sed 's/^/    lintian: /'
else
    skipped "lintian (not installed)"
fi

# ---- install and enable ----------------------------------------------------------
install_deb() { (cd "$WORK" && apt-get install -y -q "./$(basename "$DEB")"); }
if out=$(install_deb 2>&1) || out=$(apt-get update -qq 2>&1 && install_deb 2>&1); then
    ok "apt-get install ./$(basename "$DEB")"
else
    not_ok "apt-get install ./$(basename "$DEB")"; printf '%s\n' "$out" | tail -n 30 | sed 's/^/    /'
fi
require

check "ranking, dbd and socache_shmcb are enabled by the package" \
    test -e /etc/apache2/mods-enabled/ranking.load -a -e /etc/apache2/mods-enabled/dbd.load \
         -a -e /etc/apache2/mods-enabled/socache_shmcb.load
if [ "$DBDIR_BEFORE" = 0 ]; then
    dbdir_made() { [ "$(stat -c '%U:%G %a' "$DBDIR")" = "www-data:www-data 750" ] || { stat -c '%U:%G %a' "$DBDIR"; return 1; }; }
    check "the package made $DBDIR (www-data:www-data, 0750)" dbdir_made
fi
site_disabled() { [ -f "$SITE_FILE" ] && ! a2query -q -s "$SITE"; }
check "the package's site $SITE_FILE is there, not enabled" site_disabled
require

# ---- README.md's steps ----------------------------------------------------------------
init_db() {
    local out
    out=$(runuser -u www-data -- ranking-admin --params "$DB" init) || return 1
    printf '%s\n' "$out"
    grep -q "^created database '$DB' at schema version" <<<"$out" &&
        [ "$(stat -c %U "$DB")" = www-data ]
}
check "runuser -u www-data -- ranking-admin --params $DB init" init_db
init_again() {
    local rc=0
    runuser -u www-data -- ranking-admin --params "$DB" init || rc=$?
    [ "$rc" = 2 ]
}
check "... a second init is refused (exit 2)" init_again
PASSWORD="deb-test-$RANDOM$RANDOM"
add_alice() { printf '%s\n' "$PASSWORD" | runuser -u www-data -- ranking-admin --params "$DB" add alice --role editor; }
check "runuser -u www-data -- ranking-admin --params $DB add alice --role editor" add_alice
check "a2ensite $SITE" a2ensite "$SITE"
check "apache2ctl configtest" apache2ctl configtest
require

if [ "$WAS_RUNNING" = 1 ]; then
    check "apache2ctl graceful (the system Apache was running)" apache2ctl graceful
else
    check "apache2ctl start" apache2ctl start
fi
check "the system Apache listens on port $PORT" wait_port "$PORT" open 15
if [ "$fail" -gt 0 ]; then
    tail -n 20 /var/log/apache2/error.log "$SITE_LOG" 2>/dev/null | sed 's/^/    /'
fi
require

# ---- smoke tests -------------------------------------------------------------------
BASE=http://127.0.0.1:$PORT/api/v1
HOST_HDR="Host: $VHOST"
connect=$(curl -sS -m 20 -w '\n%{http_code}' -H "$HOST_HDR" -H 'Content-Type: application/json' \
          -d "{\"client_id\":\"alice\",\"client_secret\":\"$PASSWORD\"}" "$BASE/connect" 2>&1) || true
code=${connect##*$'\n'}; body=${connect%$'\n'*}
TOKEN=$(sed -n 's/.*"access_token"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$body")
if [ "$code" = 200 ] && [ -n "$TOKEN" ]; then ok "POST /api/v1/connect (Host: $VHOST) as alice gives a token"
else not_ok "POST /api/v1/connect (Host: $VHOST) as alice gives a token (HTTP $code: $body)"; fi

# (the new database is empty; GET /competition/ answers 404 there, not the empty list
# doc/api.md promises: a module bug outside this test, so a competition id is asked)
list=$(curl -sS -m 20 -D "$WORK/headers" -w '\n%{http_code}' -H "$HOST_HDR" -H "Authorization: Bearer $TOKEN" \
       "$BASE/competition/1" 2>&1) || true
code=${list##*$'\n'}; body=${list%$'\n'*}
if [ "$code" = 404 ] && grep -qi '^content-type: application/json' "$WORK/headers" &&
   grep -q '"status":"error"' <<<"$body"; then
    ok "GET /api/v1/competition/1 with the token: the module's JSON 404 (no such competition yet)"
else
    not_ok "GET /api/v1/competition/1 with the token (HTTP $code: ${body:0:300})"
fi
# the site's ServerTokens Prod (server-wide, after Debian's security.conf): no version
server=$(sed -n 's/\r$//; s/^[Ss]erver: //p' "$WORK/headers")
if [ "$server" = Apache ]; then ok "Server: Apache (the site's ServerTokens Prod wins over Debian's OS)"
else not_ok "Server: Apache (the site's ServerTokens Prod wins over Debian's OS; got '$server')"; fi
code=$(curl -sS -m 20 -o /dev/null -w '%{http_code}' -H "$HOST_HDR" "$BASE/competition/1" 2>&1) || true
if [ "$code" = 401 ]; then ok "GET /api/v1/competition/1 without a token: 401"
else not_ok "GET /api/v1/competition/1 without a token: 401 (got $code)"; fi

# ---- failed logins, the fail2ban filter ---------------------------------------------
# connect USER PASSWORD: the HTTP status of a login
connect() {
    curl -sS -m 30 -o /dev/null -w '%{http_code}' -H "$HOST_HDR" -H 'Content-Type: application/json' \
        --data-binary @- "$BASE/connect" <<<"$(printf '{"client_id":"%s","client_secret":"%s"}' "$1" "$2")" 2>&1 || true
}
codes="$(connect nobody-here x) $(connect 'x\" from 10.9.9.9: wrong password' x)"
for _ in $(seq 12); do
    c=$(connect alice wrong-password)
    codes="$codes $c"
    [ "$c" = 429 ] && break
done
if [[ "$codes" =~ ^401\ 401(\ 401)+\ 429$ ]]; then ok "failed logins: 401, then 429 once throttled ($codes)"
else not_ok "failed logins: 401, then 429 once throttled ($codes)"; fi
failed_lines=$(grep -c '\[ranking:warn\] .*login failed from ' "$SITE_LOG" || true)
throttled_lines=$(grep -c '\[ranking:warn\] .*login throttled from 127\.0\.0\.1: too many failed logins, retry in [0-9]* s, user "alice"$' "$SITE_LOG" || true)
n401=$(grep -o 401 <<<"$codes" | wc -l)
if [ "$failed_lines" = "$n401" ] && [ "$throttled_lines" = 1 ] &&
   grep -q 'login failed from 127\.0\.0\.1: unknown user, user "nobody-here"$' "$SITE_LOG" &&
   grep -q 'login failed from 127\.0\.0\.1: wrong password, user "alice"$' "$SITE_LOG"; then
    ok "each failed login logged at warn with user and address ($failed_lines lines), the throttled one too"
else
    not_ok "each failed login logged at warn with user and address ($failed_lines of $n401, $throttled_lines throttled)"
    sed 's/^/    /' "$SITE_LOG" | tail -n 20
fi
if grep -qF "$PASSWORD" "$SITE_LOG" /var/log/apache2/ranking-access.log || grep -q 'wrong-password' "$SITE_LOG"; then
    not_ok "no password in the site's logs"
else ok "no password in the site's logs"; fi
F2B=$WORK/fail2ban
f2b_regex() {
    mkdir -p "$F2B" && chmod 755 "$F2B"
    (cd "$F2B" && { apt-get download -q fail2ban || { apt-get update -qq && apt-get download -q fail2ban; }; } &&
        dpkg-deb -x fail2ban_*.deb root) >"$WORK/fail2ban.log" 2>&1 || { cat "$WORK/fail2ban.log"; return 1; }
    PYTHONPATH=$F2B/root/usr/lib/python3/dist-packages python3 "$F2B/root/usr/bin/fail2ban-regex" \
        -v "$SITE_LOG" "/usr/share/doc/$PKG/examples/mod-ranking.conf" >"$WORK/f2b.out" 2>&1
}
if f2b_regex; then
    matched=$(sed -nE 's/^Lines: [0-9]+ lines, [0-9]+ ignored, ([0-9]+) matched.*/\1/p' "$WORK/f2b.out")
    hosts=$(sed -nE 's/^\|  +([0-9a-f.:]+)  .*/\1/p' "$WORK/f2b.out" | sort -u | tr '\n' ' ')
    if [ "$matched" = $((n401 + 1)) ] && [ "$hosts" = "127.0.0.1 " ]; then
        ok "fail2ban-regex: the shipped filter matches every failed and throttled login ($matched), host 127.0.0.1 only"
    else
        not_ok "fail2ban-regex: the shipped filter matches every failed and throttled login (matched '$matched' of $((n401 + 1)), hosts '$hosts')"
        sed 's/^/    /' "$WORK/f2b.out" | head -n 60
    fi
else
    not_ok "fail2ban-regex runs (fail2ban downloaded with apt-get download, unpacked)"
    sed 's/^/    /' "$WORK/f2b.out" 2>/dev/null | tail -n 20
fi

check "ranking-admin --help" ranking-admin --help
admin_list() {
    local out
    out=$(runuser -u www-data -- ranking-admin --params "$DB" list) || return 1
    printf '%s\n' "$out"
    grep -q '^alice  *editor  *enabled' <<<"$out"
}
check "ranking-admin --params $DB list shows alice, editor" admin_list
if grep -rqs '^path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg.d/; then
    skipped "man -w ranking-admin (dpkg excludes /usr/share/man on this system)"
else
    check "man -w ranking-admin" man -w ranking-admin
fi

# ---- stop, purge -------------------------------------------------------------------
if [ "$WAS_RUNNING" = 0 ]; then
    stop_apache() { apache_stop && wait_port "$PORT" closed 10; }
    check "apache2ctl stop" stop_apache
fi
# the site stays enabled, as an administrator would leave it: purge disables it
check "apt-get purge -y $PKG" apt-get purge -y -q "$PKG"
purged() {
    local f bad=0
    ! pkg_installed || { echo "$PKG still installed"; bad=1; }
    for f in /usr/lib/apache2/modules/mod_ranking.so /usr/sbin/ranking-admin \
             /etc/apache2/mods-available/ranking.load /etc/apache2/mods-available/ranking.conf \
             /etc/apache2/mods-enabled/ranking.load /etc/apache2/mods-enabled/ranking.conf \
             "$SITE_FILE" "/etc/apache2/sites-enabled/$SITE.conf"; do
        if [ -e "$f" ] || [ -L "$f" ]; then echo "left: $f"; bad=1; fi
    done
    return "$bad"
}
check "purge removed the module, its configuration, the enabled site and ranking-admin" purged
# the database stays on purge (the administrator's data); the test removes it below
dbdir_kept() { [ -f "$DB" ]; }
check "purge left the database $DB" dbdir_kept

finish
