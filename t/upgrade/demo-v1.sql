-- mod_ranking demo data.  Load into a database created with sql/schema.sql:
--
--     sqlite3 ranking.db < sql/schema.sql && sqlite3 ranking.db < sql/demo.sql
--
-- Demo logins (POST /connect with client_id / client_secret):
--
--     user      password   role     enabled
--     demo      demo       reader   yes
--     judge     judge      editor   yes
--     retired   retired    reader   no (disabled: /connect answers 401)
--
-- Passwords are bcrypt hashes made with `htpasswd -nbB -C 10 <user> <password>`.
--
-- Competitions:
--   1  Paris Throwdown 2026      reserved for READ tests: tests never write it, so
--                                exact response bodies can be compared;
--   2  Northern Throwdown 2026   WRITE tests (PUT / DELETE of lanes) operate here;
--   3  Lake Geneva Winter Games  upcoming: no wod, spot, zone or heat (empty lists).
--
-- Id ranges, distinct per table so that an id used in the wrong place is a 404:
--   competition 1..3
--   wod         11..14 (competition 1), 16..18 (competition 2)
--   zone        21..23 (competition 1), 26..27 (competition 2)
--   spot        101..109 (competition 1), 151..160 (competition 2)
--   heat        201..207 (competition 1), 251..257 (competition 2)
--   lane        1001..1030 (competition 1), 2001..2026 (competition 2)
--   account     1..3
--
-- Instants are UTC; both competitions take place in Europe/Paris (UTC+1 in
-- November), so a heat at 08:00Z starts at 09:00 local time.
--
-- Plain INSERTs with explicit ids, portable to PostgreSQL.

BEGIN;

-- Competitions.  List order is start_date, id: 2, 1, 3 (differs from id order).
INSERT INTO competition (id, name, location, start_date, end_date, timezone, status) VALUES
    (1, 'Paris Throwdown 2026', 'Halle Georges Carpentier, Paris', '2026-11-21', '2026-11-22', 'Europe/Paris', 'in_progress'),
    (2, 'Northern Throwdown 2026', 'Lille Grand Palais, Lille', '2026-11-20', '2026-11-22', 'Europe/Paris', 'in_progress'),
    (3, 'Lake Geneva Winter Games 2027', 'Centre sportif du Bout-du-Monde, Genève', '2027-02-06', '2027-02-07', 'Europe/Zurich', 'upcoming');

-- WODs.  Competition 1 list order is position, id: 13, 11, 12, 14.
-- Wod 13 has no time cap (NULL); wod 14 has an empty description.
INSERT INTO wod (id, competition_id, name, description, position, scoring, time_cap) VALUES
    (11, 1, 'Partner Fran', 'Teams of 2, one partner works at a time. 21-15-9 reps for time of: thrusters (43/30 kg), pull-ups. Partners alternate rounds.', 2, 'time', 480),
    (12, 1, 'Chipper AMRAP', 'AMRAP in 15 minutes, partners share the work as desired: 10 toes-to-bar, 15 wall-ball shots (9/6 kg), 20 double-unders, 5 power cleans (70/47 kg).', 3, 'reps', 900),
    (13, 1, 'Clean & Jerk Ladder', 'Each partner has three attempts to establish a 1-rep-max clean and jerk. Team score is the sum of both best lifts.', 1, 'load', NULL),
    (14, 1, 'Final', '', 4, 'time', 600),
    (16, 2, 'DT Relay', '5 rounds for time of: 12 deadlifts, 9 hang power cleans, 6 push jerks (70/47 kg). Partners alternate rounds.', 1, 'time', 720),
    (17, 2, 'Snatch Complex', 'In 10 minutes, each partner builds to a heavy complex of 1 power snatch + 1 overhead squat. Team score is the sum of both best complexes.', 2, 'load', 600),
    (18, 2, 'Synchro Cindy', 'AMRAP in 20 minutes, synchronised: 5 pull-ups, 10 push-ups, 15 air squats. Score is the total of synchronised reps.', 3, 'reps', 1200);

-- Spots (teams).  Competition 1 list order is bib, id with NULL last:
-- 105, 109, 103, 107, 104, 108, 106, 102, 101.
-- Spot 101 has no bib yet (NULL); spot 105 has no division and no affiliate (NULL).
-- Spot 101 has an apostrophe and a non-ASCII letter, spot 106 double quotes
-- (JSON escaping).
INSERT INTO spot (id, competition_id, name, division, affiliate, bib) VALUES
    (101, 1, 'Les Costauds d''Évry', 'RX', 'CrossFit Évry', NULL),
    (102, 1, 'Barbell Brothers', 'RX', 'CrossFit Bastille', 12),
    (103, 1, 'Wall Ball Warriors', 'Scaled', 'CrossFit Montreuil', 3),
    (104, 1, 'Iron Lungs', 'RX', 'CrossFit Louvre', 7),
    (105, 1, 'Chalk & Chill', NULL, NULL, 1),
    (106, 1, 'Team "No Rep"', 'Masters', 'CrossFit Vincennes', 10),
    (107, 1, 'Burpee Bandits', 'Scaled', 'CrossFit Boulogne', 4),
    (108, 1, 'Thruster Twins', 'Masters', 'CrossFit Nanterre', 8),
    (109, 1, 'Rope Climb Rebels', 'RX', 'CrossFit Saint-Denis', 2),
    (151, 2, 'Lille Lifting Club', 'RX', 'CrossFit Lille Centre', 21),
    (152, 2, 'Les Ch''tis Costauds', 'RX', 'CrossFit Roubaix', 22),
    (153, 2, 'Double Under Dynamos', 'RX', 'CrossFit Tourcoing', 23),
    (154, 2, 'Snatch Squad', 'Scaled', 'CrossFit Villeneuve-d''Ascq', 24),
    (155, 2, 'Box Jump Brigade', 'Scaled', 'CrossFit Arras', 25),
    (156, 2, 'Masters of Disaster', 'Masters', 'CrossFit Valenciennes', 26),
    (157, 2, 'Grey Hair Gainz', 'Masters', 'CrossFit Douai', 27),
    (158, 2, 'Pull-Up Posse', 'Scaled', 'CrossFit Dunkerque', 28),
    (159, 2, 'Row Row Row', 'RX', 'CrossFit Lens', 29),
    (160, 2, 'Hang Clean Heroes', 'Scaled', 'CrossFit Béthune', 30);

-- Zones (floors).  Zone 23 has no heat (empty heat list in variant A).
INSERT INTO zone (id, competition_id, name, lane_count) VALUES
    (21, 1, 'Main Floor', 6),
    (22, 1, 'Annex', 4),
    (23, 1, 'Outdoor Rig', 8),
    (26, 2, 'Floor A', 6),
    (27, 2, 'Floor B', 4);

-- Heats.  Numbered per wod.  Competition 1:
--   variant B list (start_time, number, id; NULL last): 203, 202, 201, 204, 207, 205, 206
--     (203 and 202 start together: number 1 before number 2, against id order);
--   zone 21 list: 202, 201, 205, 206;  zone 22 list: 203, 204;  zone 23: empty.
-- Heat 206 (the final) has no start time yet (NULL); heat 207 (a re-run) has no zone.
INSERT INTO heat (id, competition_id, zone_id, wod_id, number, start_time, status) VALUES
    (201, 1, 21, 11, 1, '2026-11-21T10:00:00Z', 'finished'),
    (202, 1, 21, 13, 2, '2026-11-21T08:00:00Z', 'finished'),
    (203, 1, 22, 13, 1, '2026-11-21T08:00:00Z', 'finished'),
    (204, 1, 22, 11, 2, '2026-11-21T10:00:00Z', 'finished'),
    (205, 1, 21, 12, 1, '2026-11-21T13:00:00Z', 'running'),
    (206, 1, 21, 14, 1, NULL, 'scheduled'),
    (207, 1, NULL, 11, 3, '2026-11-21T11:30:00Z', 'finished'),
    (251, 2, 26, 16, 1, '2026-11-20T13:00:00Z', 'finished'),
    (252, 2, 27, 16, 2, '2026-11-20T13:00:00Z', 'finished'),
    (253, 2, 26, 17, 1, '2026-11-21T09:00:00Z', 'running'),
    (254, 2, 27, 17, 2, '2026-11-21T09:00:00Z', 'running'),
    (255, 2, 26, 18, 1, '2026-11-21T14:00:00Z', 'scheduled'),
    (256, 2, NULL, 18, 3, '2026-11-21T15:00:00Z', 'scheduled'),
    (257, 2, 27, 18, 2, '2026-11-21T14:00:00Z', 'scheduled');

-- Lanes of competition 1 (read tests).  Heat 202 list order (number, id):
-- 1002, 1003, 1001, 1005, 1004, 1006.
INSERT INTO lane (id, heat_id, number, spot_id, score) VALUES
    -- heat 202: Clean & Jerk Ladder, Main Floor (6 lanes)
    (1001, 202, 3, 102, '185kg'),
    (1002, 202, 1, 104, '192kg'),
    (1003, 202, 2, 109, '171kg'),
    (1004, 202, 5, 101, '168kg'),
    (1005, 202, 4, NULL, NULL),
    (1006, 202, 6, 105, '150kg'),
    -- heat 203: Clean & Jerk Ladder, Annex (4 lanes)
    (1007, 203, 1, 103, '120kg'),
    (1008, 203, 2, 107, '112kg'),
    (1009, 203, 3, 106, '141kg'),
    (1010, 203, 4, 108, '133kg'),
    -- heat 201: Partner Fran, Main Floor (lane 5 unused)
    (1011, 201, 1, 102, '06:12'),
    (1012, 201, 2, 104, '05:48'),
    (1013, 201, 3, 109, '07:03'),
    (1014, 201, 4, 101, 'CAP+12'),
    (1015, 201, 6, 105, '07:45'),
    -- heat 204: Partner Fran, Annex
    (1016, 204, 2, 103, '07:31'),
    (1017, 204, 1, 107, '07:59'),
    (1018, 204, 3, 106, '06:55'),
    (1019, 204, 4, NULL, NULL),
    -- heat 207: Partner Fran re-run, no zone
    (1020, 207, 2, NULL, NULL),
    (1021, 207, 1, 108, '07:20'),
    -- heat 205: Chipper AMRAP, Main Floor, running (some scores not entered yet)
    (1022, 205, 1, 102, '212'),
    (1023, 205, 2, 104, NULL),
    (1024, 205, 3, 109, '198'),
    (1025, 205, 4, 101, NULL),
    (1026, 205, 5, 105, '187'),
    (1027, 205, 6, NULL, NULL),
    -- heat 206: Final, lanes not assigned yet
    (1028, 206, 3, NULL, NULL),
    (1029, 206, 1, NULL, NULL),
    (1030, 206, 2, NULL, NULL);

-- Lanes of competition 2 (write tests).  Free lane numbers and free spots per heat:
--   heat 253 (zone 26, 6 lanes): empty lane 2013; free numbers 5, 6; free spots 154..160
--   heat 254 (zone 27, 4 lanes): free numbers 3, 4; free spots 151..155, 158..160
--   heat 255 (zone 26, 6 lanes): empty lane 2018; free numbers 3, 5; free spots 151..153, 156, 157, 159, 160
--   heat 256 (no zone, numbers up to 999): empty lane 2023; free numbers 4..999
--   heat 257 (zone 27, 4 lanes): empty lane 2026; free number 4
INSERT INTO lane (id, heat_id, number, spot_id, score) VALUES
    -- heat 251: DT Relay, Floor A, finished
    (2001, 251, 1, 151, '09:12'),
    (2002, 251, 2, 152, '10:05'),
    (2003, 251, 3, 153, '08:47'),
    (2004, 251, 4, 154, 'CAP+7'),
    (2005, 251, 5, 155, '11:30'),
    (2006, 251, 6, NULL, NULL),
    -- heat 252: DT Relay, Floor B, finished
    (2007, 252, 1, 156, '10:41'),
    (2008, 252, 2, 157, '09:58'),
    (2009, 252, 3, 158, '11:02'),
    (2010, 252, 4, 159, 'CAP+3'),
    -- heat 253: Snatch Complex, Floor A, running
    (2011, 253, 1, 151, '95kg'),
    (2012, 253, 2, 152, NULL),
    (2013, 253, 3, NULL, NULL),
    (2014, 253, 4, 153, '102kg'),
    -- heat 254: Snatch Complex, Floor B, running
    (2015, 254, 2, 156, '88kg'),
    (2016, 254, 1, 157, NULL),
    -- heat 255: Synchro Cindy, Floor A, scheduled
    (2017, 255, 1, 154, NULL),
    (2018, 255, 2, NULL, NULL),
    (2019, 255, 4, 155, NULL),
    (2020, 255, 6, 158, NULL),
    -- heat 256: Synchro Cindy, no zone, scheduled
    (2021, 256, 1, 159, NULL),
    (2022, 256, 2, 160, NULL),
    (2023, 256, 3, NULL, NULL),
    -- heat 257: Synchro Cindy, Floor B, scheduled
    (2024, 257, 1, 156, NULL),
    (2025, 257, 2, 157, NULL),
    (2026, 257, 3, NULL, NULL);

-- API users (see the logins at the top of this file).
INSERT INTO account (name, password_hash, role, enabled, created_at) VALUES
    ('demo', '$2y$10$a4Ji3TM91F2OCdM/I5NRVeFwrRr0eMzuhewzoBCJcwd2CsWuQDBJO', 'reader', 1, 1793491200),
    ('judge', '$2y$10$5BSxcb6cQgLwdQGeM7lSCeUDC7vuqmbZyH64ELnAdIyKZRgQHCigG', 'editor', 1, 1793491200),
    ('retired', '$2y$10$WuRpYcOjJS6.8xgq7vT1XOaEfjaVlsrhB7L.bH0TviqEqFmfh1xfm', 'reader', 0, 1793491200);

COMMIT;
