-- Schema version 2 -> 3, PostgreSQL.  Run by `ranking-admin upgrade`, which wraps every
-- step it applies in one transaction (no BEGIN / COMMIT here); every row is kept.
--
--  * competition.publication ('immediate' for every existing competition: the
--    behaviour of version 2) and competition.advance (NULL: no cut line);
--  * lane.score_status, lane.published_score, lane.published_tiebreak: every
--    stored score is published as it is (published values = current values), and a
--    lane with a score is 'entered' (nobody validated it);
--  * account.role may be 'organizer' (its CHECK constraint replaced);
--  * lane_history becomes the competitions' change log: actions 'create' and
--    'validate', columns resource and resource_id, heat_id and lane_id may be NULL
--    (a change of another resource); its sequence goes on as it was;
--  * new tables account_grant (roles per competition) and idempotency_key;
--  * revision.data moves on: answers gain fields, so their ETags must change.
--
-- Each statement ends with ';' at the end of a line (the build splits the script
-- there; see sql/README.md).  The result equals sql/schema-pg.sql: new columns last.

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

ALTER TABLE account DROP CONSTRAINT account_role_check;
ALTER TABLE account ADD CONSTRAINT account_role_check
    CHECK (role IN ('reader', 'editor', 'organizer'));

CREATE TABLE account_grant (
    account_id     BIGINT  NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    competition_id BIGINT  NOT NULL REFERENCES competition (id) ON DELETE CASCADE,
    role           TEXT    NOT NULL CHECK (role IN ('editor', 'organizer')),
    PRIMARY KEY (account_id, competition_id)
);
CREATE INDEX account_grant_by_competition ON account_grant (competition_id);
CREATE TRIGGER account_grant_rev AFTER INSERT OR UPDATE OR DELETE ON account_grant FOR EACH ROW EXECUTE FUNCTION ranking_auth_changed();

CREATE TABLE idempotency_key (
    account_id  BIGINT  NOT NULL REFERENCES account (id) ON DELETE CASCADE,
    idem_key    TEXT    NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 255),
    method      TEXT    NOT NULL,
    path        TEXT    NOT NULL,
    body_hash   TEXT    NOT NULL,
    status      INTEGER NOT NULL CHECK (status BETWEEN 200 AND 499 AND status <> 429),
    location    TEXT,
    etag        TEXT,
    body        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX idempotency_key_by_created ON idempotency_key (created_at);

ALTER TABLE lane_history ALTER COLUMN heat_id DROP NOT NULL;
ALTER TABLE lane_history ALTER COLUMN lane_id DROP NOT NULL;
ALTER TABLE lane_history DROP CONSTRAINT lane_history_action_check;
ALTER TABLE lane_history ADD CONSTRAINT lane_history_action_check
    CHECK (action IN ('create', 'update', 'delete', 'validate'));
ALTER TABLE lane_history ADD COLUMN
    resource       TEXT    NOT NULL DEFAULT 'lane'
                   CHECK (resource IN ('competition', 'wod', 'spot', 'zone', 'heat', 'lane'));
ALTER TABLE lane_history ADD COLUMN
    resource_id    BIGINT;
ALTER TABLE lane_history ADD CONSTRAINT lane_history_subject CHECK (CASE WHEN resource = 'lane'
        THEN heat_id IS NOT NULL AND lane_id IS NOT NULL AND resource_id IS NULL
        ELSE resource_id IS NOT NULL AND lane_id IS NULL AND action <> 'validate' END);

UPDATE schema_version SET version = 3;

UPDATE revision SET data = data + 1 WHERE id = 1;
