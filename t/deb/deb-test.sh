#!/usr/bin/env bash
# t/deb/deb-test.sh: the Debian package, end to end, in the SYSTEM Apache.
#
# Builds libapache2-mod-ranking with dpkg-buildpackage from a copy of the tree
# in a temporary directory (nothing is written into the repository or beside
# it), installs it with apt-get (so that its dependencies resolve), enables it
# with a2enmod (which must also enable dbd), serves a demo SQLite database
# through a site on 127.0.0.1:$RK_DEB_PORT (default 18080) of the system
# Apache, smoke-tests the API, ranking-admin and its man page, then stops
# Apache, purges the package and removes everything it added: the system's
# Apache configuration is left as it was found (checked at the end).
#
# Run as root, no terminal needed.  Installs the build dependencies it lacks
# (they stay installed, as do the package's run-time dependencies that apt
# brought in, e.g. libaprutil1-dbd-sqlite3).  If the system Apache was running
# before, it is reloaded (graceful) instead of started, and left running.
#
# Environment: RK_DEB_PORT (default 18080), RK_DEB_KEEP=1 keeps the temporary
# directory (build log, .deb files).
# Output: one "ok"/"not ok"/"skip" line per check, then "N passed, N failed"
# (", N skipped" when some check could not run); exit status 1 on any failure.
# shellcheck disable=SC2317  # functions that run through check() look unreachable
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
export LC_ALL=C.UTF-8

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PKG=libapache2-mod-ranking
PORT=${RK_DEB_PORT:-18080}
SITE=rk-deb-test
SITE_FILE=/etc/apache2/sites-available/$SITE.conf
DBDIR=/var/lib/mod_ranking
DB=$DBDIR/deb-test.db
# Written while the test has the system modified; a run killed before its
# clean-up leaves it, and the next run then knows that what it finds is its own.
STATE=/var/tmp/rk-deb-test.state
DEPS=(dpkg-dev debhelper fakeroot build-essential apache2 apache2-dev libjansson-dev
      check pkg-config autoconf automake libtool sqlite3 curl man-db)

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
    rm -f "/var/log/apache2/$SITE-error.log" "/var/log/apache2/$SITE-access.log"
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
if port_open "$PORT"; then
    not_ok "port $PORT is free (set RK_DEB_PORT)"
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
check "package holds the module, .load/.conf, ranking-admin, its man page, SQL, example, README, scoreboard page" \
    has_all /usr/lib/apache2/modules/mod_ranking.so /etc/apache2/mods-available/ranking.load \
        /etc/apache2/mods-available/ranking.conf /usr/sbin/ranking-admin \
        /usr/share/man/man8/ranking-admin.8.gz /usr/share/libapache2-mod-ranking/sql/schema.sql \
        /usr/share/libapache2-mod-ranking/sql/schema-pg.sql /usr/share/libapache2-mod-ranking/sql/demo.sql \
        /usr/share/doc/$PKG/examples/ranking-vhost.conf.example /usr/share/doc/$PKG/copyright \
        /usr/share/libapache2-mod-ranking/board/index.html /usr/share/libapache2-mod-ranking/board/js/app.js
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

check "a2enmod ranking" a2enmod ranking
check "ranking, dbd and socache_shmcb are enabled" \
    test -e /etc/apache2/mods-enabled/ranking.load -a -e /etc/apache2/mods-enabled/dbd.load \
         -a -e /etc/apache2/mods-enabled/socache_shmcb.load
require

# ---- database and site --------------------------------------------------------------
make_db() {
    [ -d "$DBDIR" ] || install -d -o www-data -g www-data -m 0750 "$DBDIR"
    sqlite3 "$DB" </usr/share/libapache2-mod-ranking/sql/schema.sql >/dev/null
    sqlite3 "$DB" </usr/share/libapache2-mod-ranking/sql/demo.sql
    chown www-data:www-data "$DB"*
}
check "SQLite database from the installed schema and demo data ($DB)" make_db

cat >"$SITE_FILE" <<EOF
# Added by mod_ranking's t/deb/deb-test.sh, removed when it ends.
Listen 127.0.0.1:$PORT
<VirtualHost 127.0.0.1:$PORT>
    ServerName $SITE.localhost
    ErrorLog \${APACHE_LOG_DIR}/$SITE-error.log
    CustomLog \${APACHE_LOG_DIR}/$SITE-access.log combined
    DBDriver sqlite3
    DBDParams "file:$DB?mode=rw"
    <Location /api>
        SetHandler ranking
        Require all granted
    </Location>
</VirtualHost>
EOF
check "a2ensite $SITE" a2ensite "$SITE"
check "apache2ctl configtest" apache2ctl configtest
require

if [ "$WAS_RUNNING" = 1 ]; then
    check "apache2ctl graceful (the system Apache was running)" apache2ctl graceful
else
    check "apache2ctl start" apache2ctl start
fi
check "the system Apache listens on 127.0.0.1:$PORT" wait_port "$PORT" open 15
if [ "$fail" -gt 0 ]; then
    tail -n 20 /var/log/apache2/error.log "/var/log/apache2/$SITE-error.log" 2>/dev/null | sed 's/^/    /'
fi
require

# ---- smoke tests -------------------------------------------------------------------
BASE=http://127.0.0.1:$PORT/api
connect=$(curl -sS -m 20 -w '\n%{http_code}' -H 'Content-Type: application/json' \
          -d '{"client_id":"demo","client_secret":"demo"}' "$BASE/connect" 2>&1) || true
code=${connect##*$'\n'}; body=${connect%$'\n'*}
TOKEN=$(sed -n 's/.*"access_token"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$body")
if [ "$code" = 200 ] && [ -n "$TOKEN" ]; then ok "POST /api/connect as demo/demo gives a token"
else not_ok "POST /api/connect as demo/demo gives a token (HTTP $code: $body)"; fi

list=$(curl -sS -m 20 -D "$WORK/headers" -w '\n%{http_code}' -H "Authorization: Bearer $TOKEN" \
       "$BASE/competition/" 2>&1) || true
code=${list##*$'\n'}; body=${list%$'\n'*}
if [ "$code" = 200 ] && grep -qi '^content-type: application/json' "$WORK/headers" &&
   grep -q '"competitions"' <<<"$body"; then
    ok "GET /api/competition/ with the token: 200 JSON with \"competitions\""
else
    not_ok "GET /api/competition/ with the token (HTTP $code: ${body:0:300})"
fi
code=$(curl -sS -m 20 -o /dev/null -w '%{http_code}' "$BASE/competition/" 2>&1) || true
if [ "$code" = 401 ]; then ok "GET /api/competition/ without a token: 401"
else not_ok "GET /api/competition/ without a token: 401 (got $code)"; fi

check "ranking-admin --help" ranking-admin --help
admin_list() {
    local out
    out=$(runuser -u www-data -- ranking-admin --params "$DB" list) || return 1
    printf '%s\n' "$out"
    grep -qw demo <<<"$out" && grep -qw judge <<<"$out"
}
check "ranking-admin --params $DB list shows the demo users" admin_list
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
a2dissite -q -p -f "$SITE" >/dev/null 2>&1 || true
rm -f "$SITE_FILE"
check "apt-get purge -y $PKG" apt-get purge -y -q "$PKG"
purged() {
    local f bad=0
    ! pkg_installed || { echo "$PKG still installed"; bad=1; }
    for f in /usr/lib/apache2/modules/mod_ranking.so /usr/sbin/ranking-admin \
             /etc/apache2/mods-available/ranking.load /etc/apache2/mods-available/ranking.conf \
             /etc/apache2/mods-enabled/ranking.load /etc/apache2/mods-enabled/ranking.conf; do
        if [ -e "$f" ] || [ -L "$f" ]; then echo "left: $f"; bad=1; fi
    done
    return "$bad"
}
check "purge removed the module, its configuration and ranking-admin" purged

finish
