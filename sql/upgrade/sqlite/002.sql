-- Schema version 1 -> 2, SQLite.  Run by `ranking-admin upgrade`, which wraps every
-- step it applies in one transaction (no BEGIN / COMMIT here); every row is kept.
--
--  * competition.ranking: the ranking policy ('places' for every existing
--    competition);
--  * lane.tiebreak: a time that breaks ties between equal scores (NULL: none);
--  * schema_version: the version table (a database without it is version 1);
--  * revision.data moves on: answers gain fields, so their ETags must change.
--
-- Each statement ends with ';' at the end of a line (the build splits the script
-- there; see sql/README.md).  The result equals sql/schema.sql: new columns last.

ALTER TABLE competition ADD COLUMN
    ranking     TEXT    NOT NULL DEFAULT 'places' CHECK (ranking IN ('places', 'chart100'));

ALTER TABLE lane ADD COLUMN
    tiebreak  TEXT;

CREATE TABLE schema_version (
    version INTEGER NOT NULL CHECK (version > 0)
);
CREATE UNIQUE INDEX schema_version_one_row ON schema_version ((0));
INSERT INTO schema_version (version) VALUES (2);

UPDATE revision SET data = data + 1 WHERE id = 1;
