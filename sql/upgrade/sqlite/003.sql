-- Schema version 2 -> 3, SQLite.  Run by `ranking-admin upgrade`, which wraps every
-- step it applies in one transaction (no BEGIN / COMMIT here); every row is kept.
--
--  * competition.publication ('immediate' for every existing competition: the
--    behaviour of version 2) and competition.advance (NULL: no cut line);
--  * lane.score_status, lane.published_score, lane.published_tiebreak: every
--    stored score is published as it is (published values = current values), and a
--    lane with a score is 'entered' (nobody validated it);
--  * account.role may be 'organizer': SQLite cannot change a CHECK constraint, so
--    the table is made again (and token, which refers to it: its rows are kept
--    aside, since dropping account would otherwise take them along);
--  * lane_history becomes the competitions' change log: actions 'create' and
--    'validate', columns resource and resource_id, heat_id and lane_id may be NULL
--    (a change of another resource); made again as well, with its AUTOINCREMENT
--    counter carried over, so that no event id is ever given twice;
--  * new tables account_grant (roles per competition) and idempotency_key;
--  * revision.data moves on: answers gain fields, so their ETags must change.
--
-- Each statement ends with ';' at the end of a line (the build splits the script
-- there; see sql/README.md).  The result equals sql/schema.sql: new columns last.

ALTER TABLE competition ADD COLUMN
    publication TEXT    NOT NULL DEFAULT 'immediate'
                CHECK (publication IN ('immediate', 'validated'));
ALTER TABLE competition ADD COLUMN
    advance     INTEGER CHECK (advance IS NULL OR advance > 0);

ALTER TABLE lane ADD COLUMN
    score_status       TEXT CHECK (score_status IN ('entered', 'validated'));
ALTER TABLE lane ADD COLUMN
    published_score    TEXT;
ALTER TABLE lane ADD COLUMN
    published_tiebreak TEXT;
UPDATE lane SET published_score = score, published_tiebreak = tiebreak,
    score_status = CASE WHEN score IS NULL THEN NULL ELSE 'entered' END;

-- account, with the new role
CREATE TABLE account_new (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
    password_hash TEXT    NOT NULL,
    role          TEXT    NOT NULL DEFAULT 'reader'
                  CHECK (role IN ('reader', 'editor', 'organizer')),
    enabled       INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_at    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO account_new (id, name, password_hash, role, enabled, created_at)
    SELECT id, name, password_hash, role, enabled, created_at FROM account;
CREATE TABLE token_kept AS SELECT hash, account_id, created_at, expires_at FROM token;
DROP TABLE token;
DROP TABLE account;
ALTER TABLE account_new RENAME TO account;
CREATE TABLE token (
    hash       TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
INSERT INTO token (hash, account_id, created_at, expires_at)
    SELECT hash, account_id, created_at, expires_at FROM token_kept;
DROP TABLE token_kept;
CREATE INDEX token_by_account ON token (account_id);
CREATE INDEX token_by_expiry ON token (expires_at);
CREATE TRIGGER account_update_rev AFTER UPDATE ON account BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER account_delete_rev AFTER DELETE ON account BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER token_delete_rev AFTER DELETE ON token BEGIN UPDATE revision SET auth = auth + 1; END;

CREATE TABLE account_grant (
    account_id     INTEGER NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    competition_id INTEGER NOT NULL REFERENCES competition (id) ON DELETE CASCADE,
    role           TEXT    NOT NULL CHECK (role IN ('editor', 'organizer')),
    PRIMARY KEY (account_id, competition_id)
);
CREATE INDEX account_grant_by_competition ON account_grant (competition_id);
CREATE TRIGGER account_grant_insert_rev AFTER INSERT ON account_grant BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER account_grant_update_rev AFTER UPDATE ON account_grant BEGIN UPDATE revision SET auth = auth + 1; END;
CREATE TRIGGER account_grant_delete_rev AFTER DELETE ON account_grant BEGIN UPDATE revision SET auth = auth + 1; END;

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

-- lane_history, the change log of every resource
CREATE TABLE lane_history_new (
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
INSERT INTO lane_history_new (id, competition_id, zone_id, heat_id, lane_id, changed_at,
        user_name, action, lane_before, lane_after)
    SELECT id, competition_id, zone_id, heat_id, lane_id, changed_at, user_name, action,
        lane_before, lane_after FROM lane_history;
-- the counter of ids given so far (pruned rows included), so that none comes again
DELETE FROM sqlite_sequence WHERE name = 'lane_history_new';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'lane_history_new', seq FROM sqlite_sequence WHERE name = 'lane_history';
DROP TABLE lane_history;
ALTER TABLE lane_history_new RENAME TO lane_history;
CREATE INDEX lane_history_by_lane ON lane_history (heat_id, lane_id, id);
CREATE INDEX lane_history_by_competition ON lane_history (competition_id, id);

UPDATE schema_version SET version = 3;

UPDATE revision SET data = data + 1 WHERE id = 1;
