-- Schema version 1 -> 2, SQLite.  Run by `ranking-admin upgrade`, which wraps every
-- step it applies in one transaction (no BEGIN / COMMIT here); every row is kept.
--
--  * competition.ranking: the ranking policy ('places' for every existing
--    competition);
--  * lane.tiebreak: a time that breaks ties between equal scores (NULL: none);
--  * lane_history: the lanes' change log (lane history, live updates);
--  * schema_version: the version table (a database without it is version 1);
--  * revision.data moves on: answers gain fields, so their ETags must change.
--
-- Each statement ends with ';' at the end of a line (the build splits the script
-- there; see sql/README.md).  The result equals sql/schema.sql: new columns last.

ALTER TABLE competition ADD COLUMN
    ranking     TEXT    NOT NULL DEFAULT 'places' CHECK (ranking IN ('places', 'chart100'));

ALTER TABLE lane ADD COLUMN
    tiebreak  TEXT;

-- The lanes' change log: one row per accepted lane PUT or DELETE, written in the same
-- transaction as the change, with the lane as the API showed it before and after
-- (JSON text; after is NULL for a delete).  The API never changes or removes a row
-- (retention: `ranking-admin history prune`).  No foreign keys: it outlives the lanes
-- it tells about.  Its ids number the events of the live stream: never reused.
CREATE TABLE lane_history (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    competition_id INTEGER NOT NULL,
    zone_id        INTEGER,
    heat_id        INTEGER NOT NULL,
    lane_id        INTEGER NOT NULL,
    changed_at     TEXT    NOT NULL,
    user_name      TEXT    NOT NULL,
    action         TEXT    NOT NULL CHECK (action IN ('update', 'delete')),
    lane_before    TEXT,
    lane_after     TEXT
);
CREATE INDEX lane_history_by_lane ON lane_history (heat_id, lane_id, id);
CREATE INDEX lane_history_by_competition ON lane_history (competition_id, id);

CREATE TABLE schema_version (
    version INTEGER NOT NULL CHECK (version > 0)
);
CREATE UNIQUE INDEX schema_version_one_row ON schema_version ((0));
INSERT INTO schema_version (version) VALUES (2);

UPDATE revision SET data = data + 1 WHERE id = 1;
