#!/usr/bin/env bash
# t/board/board-test.sh BUILD_DIR [TEST.mjs ...]: the scoreboard page (board/) in
# Debian's headless Chromium, driven by puppeteer-core (t/board/package.json, locked),
# against an httpd of its own: the module from BUILD_DIR, a fresh copy of the demo
# data, the page at /board/ beside the API as ./scripts/demo serves it.  Runs
# board.test.mjs, then org.test.mjs (the organizer's views: setup, heat plan,
# validation), then day.test.mjs (the judge's outbox, the big screen's running
# heats and cut line, printing: needs pdftotext and pdfinfo, Debian's poppler-utils),
# on the same server, or only the files named.  Screenshots, PDFs and the server's
# logs go to BUILD_DIR/board/.  Last line: "N passed, M failed", the sum of the files'.
# The demo's data, plus competition 8001 (publication validated) for the phone of a
# spectator; keep-alives of the event streams every 4 s (RankingEventKeepAlive).
# Three more layouts on the same server:
#   /pkg/board/  the page as the Debian package installs it (with debian/board-config.json
#                as its config.json), the API at /pkg/api/v1 (the package's site: /board
#                and /api/v1);
#   /pub/board/  the same page, the API at /pub/api/v1 with RankingPublic On (spectators);
#   /lost/board/ the page without config.json and no API where it looks.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:?usage: board-test.sh BUILD_DIR}" && pwd)
HERE="$ROOT/t/board"
OUT="$BUILD/board"
SO="$BUILD/mod_ranking/.libs/mod_ranking.so"
[ -f "$SO" ] || { echo "no module at $SO" >&2; exit 1; }
command -v chromium >/dev/null || { echo "chromium is not installed" >&2; exit 1; }
command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null \
    || { echo "pdftotext/pdfinfo are not installed (poppler-utils)" >&2; exit 1; }
shift
TESTS=("$@")
[ ${#TESTS[@]} -gt 0 ] || TESTS=(board.test.mjs org.test.mjs day.test.mjs)

# puppeteer-core exactly as locked; it never downloads a browser
if [ ! -d "$HERE/node_modules/puppeteer-core" ] || [ "$HERE/package-lock.json" -nt "$HERE/node_modules/.package-lock.json" ]; then
    (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
fi

rm -rf "$OUT"
mkdir -p "$OUT/shots" "$OUT/srv/db" "$OUT/srv/logs"
# the packaged page: board/ plus the config.json that debian/rules installs beside it
cp -r "$ROOT/board" "$OUT/pkgboard"
install -m 0644 "$ROOT/debian/board-config.json" "$OUT/pkgboard/config.json"
DB="$OUT/srv/db/ranking.db"
sqlite3 "$DB" <"$ROOT/sql/schema.sql" >/dev/null
sqlite3 "$DB" <"$ROOT/sql/demo.sql"
# A competition that publishes validated scores only (API Part 3), for the spectator's
# phone: the demo's all publish immediately.  Ids far from the demo's; it starts after
# the demo's running competitions, so that the page still opens on competition 2.
# Lane 8303 (Wall Ballers, heat 8201) has no score yet: the test enters one, then
# validates it.
sqlite3 "$DB" <<'SQL'
INSERT INTO competition (id, name, location, start_date, end_date, timezone, status, publication) VALUES
    (8001, 'Validation Open 2026', 'Gymnase Jean Jaurès, Nantes', '2026-11-28', '2026-11-28', 'Europe/Paris',
     'in_progress', 'validated');
INSERT INTO wod (id, competition_id, name, description, position, scoring, time_cap) VALUES
    (8011, 8001, 'Row Ladder', 'Reps in 8 minutes.', 1, 'reps', NULL),
    (8012, 8001, 'Clean Ladder', 'Heaviest clean.', 2, 'load', NULL);
INSERT INTO spot (id, competition_id, name, division, affiliate, bib) VALUES
    (8101, 8001, 'Hammer Heads', 'RX', 'CrossFit Nantes', 1),
    (8102, 8001, 'Kettle Crew', 'RX', NULL, 2),
    (8103, 8001, 'Wall Ballers', 'RX', 'Box Erdre', 3);
INSERT INTO zone (id, competition_id, name, lane_count) VALUES (8021, 8001, 'Main floor', 6);
INSERT INTO heat (id, competition_id, zone_id, wod_id, number, start_time, status) VALUES
    (8201, 8001, 8021, 8011, 1, '2026-11-28T09:00:00Z', 'running'),
    (8202, 8001, 8021, 8012, 2, '2026-11-28T10:00:00Z', 'scheduled');
INSERT INTO lane (id, heat_id, number, spot_id, score, tiebreak, score_status, published_score, published_tiebreak) VALUES
    (8301, 8201, 1, 8101, '120', NULL, 'validated', '120', NULL),
    (8302, 8201, 2, 8102, '110', NULL, 'validated', '110', NULL),
    (8303, 8201, 3, 8103, NULL, NULL, NULL, NULL, NULL),
    (8304, 8202, 1, 8101, NULL, NULL, NULL, NULL, NULL),
    (8305, 8202, 2, 8102, NULL, NULL, NULL, NULL, NULL),
    (8306, 8202, 3, 8103, NULL, NULL, NULL, NULL, NULL);
SQL
chown -R www-data: "$OUT/srv"
PORT=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen=>1,LocalAddr=>"127.0.0.1",LocalPort=>0)->sockport')
MODDIR=$(apxs -q LIBEXECDIR)
CONF="$OUT/srv/httpd.conf"
cat >"$CONF" <<CONF
ServerRoot "$OUT/srv"
ServerName 127.0.0.1
Listen 127.0.0.1:$PORT
PidFile "$OUT/srv/httpd.pid"
Mutex file:$OUT/srv
ErrorLog "$OUT/srv/logs/error_log"
LogLevel warn ranking:info
LogFormat "%h %u %t \"%r\" %>s %b %D" ranking
CustomLog "$OUT/srv/logs/access_log" ranking
User www-data
Group www-data
LoadModule mpm_event_module $MODDIR/mod_mpm_event.so
LoadModule authz_core_module $MODDIR/mod_authz_core.so
LoadModule dbd_module $MODDIR/mod_dbd.so
LoadModule socache_shmcb_module $MODDIR/mod_socache_shmcb.so
LoadModule ranking_module $SO
LoadModule alias_module $MODDIR/mod_alias.so
LoadModule mime_module $MODDIR/mod_mime.so
LoadModule dir_module $MODDIR/mod_dir.so
TypesConfig /etc/mime.types
DocumentRoot "$OUT/srv"
AllowEncodedSlashes NoDecode
DBDriver sqlite3
DBDParams "file:$DB?mode=rw"
DBDPersist On
# short, so that the test of an idle phone (nothing but the stream's keep-alives) sees
# a few of them in 20 s
RankingEventKeepAlive 4
<Location />
    SetHandler ranking
    Require all granted
</Location>
Alias /board "$ROOT/board"
<Location /board>
    SetHandler none
</Location>
<Directory "$ROOT/board">
    Require all granted
    DirectoryIndex index.html
    Options None
    AllowOverride None
</Directory>
# the package's layout, under /pkg
<Location /pkg>
    SetHandler none
</Location>
<Location /pkg/api/v1>
    SetHandler ranking
    Require all granted
</Location>
Alias /pkg/board "$OUT/pkgboard"
# a public mount (spectators without a login), under /pub
<Location /pub>
    SetHandler none
</Location>
<Location /pub/api/v1>
    SetHandler ranking
    RankingPublic On
    Require all granted
</Location>
Alias /pub/board "$OUT/pkgboard"
<Directory "$OUT/pkgboard">
    Require all granted
    DirectoryIndex index.html
    Options None
    AllowOverride None
</Directory>
# no API where the page looks
<Location /lost>
    SetHandler none
</Location>
Alias /lost/board "$ROOT/board"
CONF
apache2 -f "$CONF" -k start
trap 'apache2 -f "$CONF" -k stop 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' -X OPTIONS "http://127.0.0.1:$PORT/competition/")" = 204 ] && break
    sleep 0.1
done

# each file's own summary becomes a comment; the last line adds them up
total_p=0 total_f=0 rc=0
for t in "${TESTS[@]}"; do
    t=$(basename "$t")
    set +e
    BASE="http://127.0.0.1:$PORT/" DB="$DB" CONF="$CONF" OUT="$OUT" CHROMIUM=$(command -v chromium) \
        node "$HERE/$t" | tee "$OUT/${t%.mjs}.out" \
        | sed -E "s/^([0-9]+ passed, [0-9]+ failed)\$/# $t: \1/"
    st=${PIPESTATUS[0]}
    set -e
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$OUT/${t%.mjs}.out" | tail -1 || true)
    if [ -z "$line" ]; then
        echo "not ok - $t ended without its summary (exit $st)"
        total_f=$((total_f + 1))
    else
        total_p=$((total_p + ${line%% *}))
        f=${line#*, }
        total_f=$((total_f + ${f%% *}))
    fi
    [ "$st" -eq 0 ] || rc=1
done
echo "$total_p passed, $total_f failed"
exit $rc
