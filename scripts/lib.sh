# scripts/lib.sh: shared by scripts/demo, scripts/test and scripts/bench.
# Source it; it sets ROOT (the repository) and defines the steps below.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive

# Debian packages the build, the demo and the tests need.
RK_PACKAGES=(apache2 apache2-dev apache2-utils libaprutil1-dbd-sqlite3 libjansson-dev zlib1g-dev
             check pkg-config autoconf automake libtool make gcc sqlite3 curl
             libapache2-mod-perl2 libwww-perl libjson-perl)

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Install what is missing (as root); a no-op when everything is there.
rk_deps() {
    local missing=() p
    for p in "${RK_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}): run as root or install them"
    log "installing ${missing[*]}"
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # the Debian package starts the system Apache on port 80: we run our own
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet apache2 2>/dev/null; then
        systemctl stop apache2 || true
    fi
}

# Build into $1 (relative to ROOT), passing the rest to configure.
rk_build() {
    local dir=$1; shift
    if [ ! -x "$ROOT/configure" ] || [ "$ROOT/configure.ac" -nt "$ROOT/configure" ] \
       || [ "$ROOT/Makefile.am" -nt "$ROOT/Makefile.in" ]; then
        log "autoreconf"
        (cd "$ROOT" && autoreconf -fi >/dev/null 2>&1) || (cd "$ROOT" && autoreconf -fi)
    fi
    mkdir -p "$ROOT/$dir"
    if [ ! -f "$ROOT/$dir/Makefile" ] || [ "$ROOT/configure" -nt "$ROOT/$dir/Makefile" ]; then
        log "configure $dir $*"
        (cd "$ROOT/$dir" && "$ROOT/configure" "$@" >configure.out 2>&1) \
            || { cat "$ROOT/$dir/configure.out"; die "configure failed"; }
    fi
    log "make ($dir)"
    make -C "$ROOT/$dir" -j"$(nproc)" >/dev/null || make -C "$ROOT/$dir"
}

# Create the SQLite database $1 from the schema and the demo data, unless it exists.
# Its directory and files belong to user $2, since SQLite's WAL mode writes beside it.
rk_make_db() {
    local db=$1 owner=$2
    mkdir -p "$(dirname "$db")"
    if [ -e "$db" ]; then
        log "keeping existing database $db"
    else
        log "creating $db (schema + demo data)"
        sqlite3 "$db" <"$ROOT/sql/schema.sql" >/dev/null
        sqlite3 "$db" <"$ROOT/sql/demo.sql"
    fi
    chown -R "$owner" "$(dirname "$db")"
}
