-- mod_ranking data model (SQLite dialect; sql/schema-pg.sql is the PostgreSQL twin).
--
-- Conventions:
--  * every id is a positive 64-bit integer; the API shows it as a decimal string;
--  * dates are TEXT 'YYYY-MM-DD', instants are TEXT ISO 8601 UTC 'YYYY-MM-DDTHH:MM:SSZ';
--  * nesting is enforced by composite foreign keys, so a heat can only point at a
--    zone and a wod of its own competition.
--
-- Schema version 3 (table schema_version).  A database made from an older schema.sql
-- is brought up to date, data kept, by `ranking-admin upgrade` (sql/upgrade/).
--
-- Apply once to an empty database:  sqlite3 ranking.db < sql/schema.sql

PRAGMA foreign_keys = ON;
PRAGMA journal_mode = WAL;

CREATE TABLE competition (
    id          INTEGER PRIMARY KEY CHECK (id > 0),
    name        TEXT    NOT NULL DEFAULT '',
    location    TEXT,
    start_date  TEXT    CHECK (start_date IS NULL OR start_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    end_date    TEXT    CHECK (end_date IS NULL OR end_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    timezone    TEXT,
    status      TEXT    NOT NULL DEFAULT 'upcoming'
                CHECK (status IN ('upcoming', 'in_progress', 'finished')),
    -- ranking policy (doc/api.md, "Ranking policy"); added by upgrade 002
    ranking     TEXT    NOT NULL DEFAULT 'places' CHECK (ranking IN ('places', 'chart100')),
    -- when a lane's score reaches the published view: 'immediate' (every accepted
    -- write publishes) or 'validated' (an organizer's validation publishes); and the
    -- cut line of the current stage, per division (NULL: none).  Added by upgrade 003
    publication TEXT    NOT NULL DEFAULT 'immediate'
                CHECK (publication IN ('immediate', 'validated')),
    advance     INTEGER CHECK (advance IS NULL OR advance > 0)
);
CREATE INDEX competition_order ON competition (start_date, id);

CREATE TABLE wod (
    id             INTEGER PRIMARY KEY CHECK (id > 0),
    competition_id INTEGER NOT NULL REFERENCES competition (id) ON DELETE CASCADE,
    name           TEXT    NOT NULL DEFAULT '',
    description    TEXT    NOT NULL DEFAULT '',
    position       INTEGER NOT NULL DEFAULT 1,
    scoring        TEXT    NOT NULL DEFAULT 'time'
                   CHECK (scoring IN ('time', 'reps', 'load', 'points')),
    time_cap       INTEGER CHECK (time_cap IS NULL OR time_cap > 0),
    UNIQUE (id, competition_id)
);
CREATE INDEX wod_by_competition ON wod (competition_id, position, id);

CREATE TABLE spot (
    id             INTEGER PRIMARY KEY CHECK (id > 0),
    competition_id INTEGER NOT NULL REFERENCES competition (id) ON DELETE CASCADE,
    name           TEXT    NOT NULL DEFAULT '',
    division       TEXT,
    affiliate      TEXT,
    bib            INTEGER CHECK (bib IS NULL OR bib > 0),
    UNIQUE (id, competition_id),
    UNIQUE (competition_id, bib)
);
CREATE INDEX spot_by_competition ON spot (competition_id, bib, id);

CREATE TABLE zone (
    id             INTEGER PRIMARY KEY CHECK (id > 0),
    competition_id INTEGER NOT NULL REFERENCES competition (id) ON DELETE CASCADE,
    name           TEXT    NOT NULL DEFAULT '',
    lane_count     INTEGER NOT NULL CHECK (lane_count BETWEEN 1 AND 999),
    UNIQUE (id, competition_id)
);
CREATE INDEX zone_by_competition ON zone (competition_id, id);

CREATE TABLE heat (
    id             INTEGER PRIMARY KEY CHECK (id > 0),
    competition_id INTEGER NOT NULL REFERENCES competition (id) ON DELETE CASCADE,
    zone_id        INTEGER,
    wod_id         INTEGER,
    number         INTEGER NOT NULL CHECK (number > 0),
    start_time     TEXT    CHECK (start_time IS NULL OR start_time GLOB
                   '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'),
    status         TEXT    NOT NULL DEFAULT 'scheduled'
                   CHECK (status IN ('scheduled', 'running', 'finished')),
    FOREIGN KEY (zone_id, competition_id) REFERENCES zone (id, competition_id),
    FOREIGN KEY (wod_id, competition_id) REFERENCES wod (id, competition_id)
);
CREATE INDEX heat_by_competition ON heat (competition_id, start_time, number, id);
CREATE INDEX heat_by_zone ON heat (zone_id, start_time, number, id);

CREATE TABLE lane (
    id        INTEGER PRIMARY KEY CHECK (id > 0),
    heat_id   INTEGER NOT NULL REFERENCES heat (id) ON DELETE CASCADE,
    number    INTEGER NOT NULL CHECK (number BETWEEN 1 AND 999),
    spot_id   INTEGER REFERENCES spot (id),
    score     TEXT,
    -- a time that breaks ties between equal scores; free text here, the API checks
    -- it; added by upgrade 002
    tiebreak  TEXT,
    -- added by upgrade 003: NULL (no score), 'entered' (written, not validated) or
    -- 'validated'; and the score and tiebreak the published view shows (the values
    -- the lane had when last validated; with publication 'immediate', every accepted
    -- write copies score and tiebreak here too)
    score_status       TEXT CHECK (score_status IN ('entered', 'validated')),
    published_score    TEXT,
    published_tiebreak TEXT,
    UNIQUE (heat_id, number),
    UNIQUE (heat_id, spot_id)
);
CREATE INDEX lane_by_spot ON lane (spot_id);

-- API users. password_hash is bcrypt in the format of `htpasswd -B` ($2y$...).
CREATE TABLE account (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
    password_hash TEXT    NOT NULL,
    role          TEXT    NOT NULL DEFAULT 'reader'
                  CHECK (role IN ('reader', 'editor', 'organizer')),
    enabled       INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_at    INTEGER NOT NULL DEFAULT 0
);

-- Bearer tokens. Only the SHA-256 (hex) of a token is stored.
CREATE TABLE token (
    hash       TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX token_by_account ON token (account_id);
CREATE INDEX token_by_expiry ON token (expires_at);

-- Roles granted on one competition (version 3): there, a user's role is the higher
-- of account.role and its grant; elsewhere account.role alone.  A grant goes with its
-- user and with its competition.  ('reader' is no grant: every user reads.)
CREATE TABLE account_grant (
    account_id     INTEGER NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    competition_id INTEGER NOT NULL REFERENCES competition (id) ON DELETE CASCADE,
    role           TEXT    NOT NULL CHECK (role IN ('editor', 'organizer')),
    PRIMARY KEY (account_id, competition_id)
);
CREATE INDEX account_grant_by_competition ON account_grant (competition_id);

-- Safe retries (version 3): the first final answer to a write that carried an
-- Idempotency-Key, per user and key, kept 24 hours (rows with created_at older are
-- expired: never replayed, deleted by the next writes).  body_hash is
-- rk_idem_fingerprint (lib/rk_idem.h): the SHA-256 of the method, the path and the
-- body's bytes; method and path are kept too, for the message of a reuse.  status:
-- every final status below 500 but 429; location and etag: the answer's headers of
-- those names, if it had them; body: the answer's body (JSON).
CREATE TABLE idempotency_key (
    account_id  INTEGER NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    idem_key    TEXT    NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 255),
    method      TEXT    NOT NULL,
    path        TEXT    NOT NULL,
    body_hash   TEXT    NOT NULL,
    status      INTEGER NOT NULL CHECK (status BETWEEN 200 AND 499 AND status <> 429),
    location    TEXT,
    etag        TEXT,
    body        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX idempotency_key_by_created ON idempotency_key (created_at);

-- Change counters, for conditional GET (ETag) and the module's caches: "data" moves on
-- every change of competition, wod, spot, zone, heat or lane; "auth" on every change
-- or removal of an account, every removal of tokens and every change of a grant.  "epoch" is random per
-- database, so that a recreated or restored database never repeats old ETags.
CREATE TABLE revision (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    epoch TEXT    NOT NULL,
    data  INTEGER NOT NULL DEFAULT 0,
    auth  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO revision (id, epoch) VALUES (1, lower(hex(randomblob(8))));
CREATE TRIGGER competition_insert_rev AFTER INSERT ON competition BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER competition_update_rev AFTER UPDATE ON competition BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER competition_delete_rev AFTER DELETE ON competition BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER wod_insert_rev AFTER INSERT ON wod BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER wod_update_rev AFTER UPDATE ON wod BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER wod_delete_rev AFTER DELETE ON wod BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER spot_insert_rev AFTER INSERT ON spot BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER spot_update_rev AFTER UPDATE ON spot BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER spot_delete_rev AFTER DELETE ON spot BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER zone_insert_rev AFTER INSERT ON zone BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER zone_update_rev AFTER UPDATE ON zone BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER zone_delete_rev AFTER DELETE ON zone BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER heat_insert_rev AFTER INSERT ON heat BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER heat_update_rev AFTER UPDATE ON heat BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER heat_delete_rev AFTER DELETE ON heat BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER lane_insert_rev AFTER INSERT ON lane BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER lane_update_rev AFTER UPDATE ON lane BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER lane_delete_rev AFTER DELETE ON lane BEGIN UPDATE revision SET data = data + 1; END;
CREATE TRIGGER account_update_rev AFTER UPDATE ON account BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER account_delete_rev AFTER DELETE ON account BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER token_delete_rev AFTER DELETE ON token BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER account_grant_insert_rev AFTER INSERT ON account_grant BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER account_grant_update_rev AFTER UPDATE ON account_grant BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER account_grant_delete_rev AFTER DELETE ON account_grant BEGIN UPDATE revision SET auth = auth + 1; END;

-- The competitions' change log: one row per accepted change, written in the same
-- transaction as the change, with the resource as the API showed it before and after
-- (JSON text in lane_before / lane_after, whatever the resource: the names are
-- version 2's; before is NULL for a create, after NULL for a delete).  The API never
-- changes or removes a row (retention: `ranking-admin history prune`).  No foreign
-- keys: it outlives what it tells about.  Its ids number the events of the live
-- stream (event: lane and event: change alike, one sequence): never reused.
--  * resource 'lane' (versions 2 and 3): the lane's history: heat_id and lane_id
--    say which lane (zone_id its heat's zone, if any), resource_id is NULL; action
--    'create' (POST), 'update' (PUT), 'delete' or 'validate';
--  * another resource (version 3): resource_id is its id, lane_id is NULL (zone_id
--    and heat_id may tell where a heat is); action 'create', 'update' or 'delete'.
CREATE TABLE lane_history (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    competition_id INTEGER NOT NULL,
    zone_id        INTEGER,
    heat_id        INTEGER,
    lane_id        INTEGER,
    changed_at     TEXT    NOT NULL,
    user_name      TEXT    NOT NULL,
    -- written with OR, not IN: SQLite evaluates an IN list of three constants or
    -- more through a temporary table made for every row inserted (two of them
    -- took a lane PUT from about 25,000 instructions for its record to 93,000)
    action         TEXT    NOT NULL CHECK (action = 'create' OR action = 'update'
                                           OR action = 'delete' OR action = 'validate'),
    lane_before    TEXT,
    lane_after     TEXT,
    resource       TEXT    NOT NULL DEFAULT 'lane'
                   CHECK (resource = 'competition' OR resource = 'wod' OR resource = 'spot'
                          OR resource = 'zone' OR resource = 'heat' OR resource = 'lane'),
    resource_id    INTEGER,
    CONSTRAINT lane_history_subject CHECK (CASE WHEN resource = 'lane'
        THEN heat_id IS NOT NULL AND lane_id IS NOT NULL AND resource_id IS NULL
        ELSE resource_id IS NOT NULL AND lane_id IS NULL AND action <> 'validate' END)
);
CREATE INDEX lane_history_by_lane ON lane_history (heat_id, lane_id, id);
CREATE INDEX lane_history_by_competition ON lane_history (competition_id, id);

-- The version of this schema: one row.  A database without this table is version 1
-- (the first release).  sql/upgrade/ holds one script per version step; only
-- `ranking-admin upgrade` changes the version.  The unique index on a constant lets
-- the table hold no second row.
CREATE TABLE schema_version (
    version INTEGER NOT NULL CHECK (version > 0)
);
CREATE UNIQUE INDEX schema_version_one_row ON schema_version ((0));
INSERT INTO schema_version (version) VALUES (3);
