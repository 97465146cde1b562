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
--                                every scoring (time with and without a cap, load,
--                                reps, points) and heat 258, a zoned heat WITHOUT
--                                WOD where any free-text score of at most 64
--                                characters is legal (typed scores do not apply);
--   3  Lake Geneva Winter Games  upcoming: no wod, spot, zone or heat (empty lists);
--   4  Lyon Winter Showdown 2026 rankings, policy 'places' (the default): every
--                                scoring, 3 divisions and spots without one, ties,
--                                tiebreaks, CAP+N, WD, kg and lb, missing results;
--                                READ tests only (leaderboards compared exactly);
--   5  Bordeaux Chart Challenge  rankings, policy 'chart100'; READ tests only.
--
-- Id ranges, distinct per table so that an id used in the wrong place is a 404:
--   competition 1..5
--   wod         11..14 (competition 1), 16..20 (competition 2), 31..35 (4), 36..38 (5)
--   zone        21..23 (competition 1), 26..27 (competition 2), 41..43 (4), 46..47 (5)
--   spot        101..109 (competition 1), 151..160 (competition 2), 301..327 (4),
--               351..364 (5)
--   heat        201..207 (competition 1), 251..260 (competition 2), 401..420 (4),
--               451..456 (5)
--   lane        1001..1030 (competition 1), 2001..2034 (competition 2),
--               3001..3140 (4), 3501..3541 (5)
--   account     1..3
--
-- Competition 2 (Lille, 2026-11-20/22, in progress, ranking 'places'; WRITE tests):
--   wods   16 DT Relay (time, cap 720 s), 17 Snatch Complex (load), 18 Synchro Cindy
--          (reps), 19 Skill Station (points), 20 Row 2K (time, no cap), positions 1..5;
--   heats  251, 252 (wod 16), 253, 254 (17), 255, 256, 257 (18), 259 (19), 260 (20),
--          and 258 (zone 26, Floor A): a heat WITHOUT wod, whose lanes take any
--          free-text score of at most 64 characters (notes, '', 'WD', '7:61'...);
--          every other heat checks scores against its wod's scoring.
--
-- Competition 4 (Lyon, 2026-11-14/15, finished, ranking 'places'):
--   wods   31 Sprint Chipper (time, cap 600 s), 32 Murph (time, no cap),
--          33 Burpee Ladder (reps), 34 1RM Snatch (load), 35 Gymnastics Skill Test
--          (points), positions 1..5;
--   spots  RX 301..310 (309 has no bib), Scaled 311..318, Masters 40+ 319..324,
--          no division 325..327; bibs 100 + (id - 300);
--   zones  41 Main Floor (10 lanes), 42 Annex (8), 43 Outdoor Rig (6);
--   heats  per wod: RX on 41, Scaled on 42, Masters 40+ and the spots without a
--          division on 43 or 42 (wod 34: Masters 40+ and no division together on
--          41); heat 420 (zone 42, first of the day) has no wod: free-text scores;
--   spot 305 has two lanes in wod 31 (CAP+5 in heat 401, 9:12.5 in the re-run heat
--   404: the best counts); no lane at all: 310 and 324 in wod 31, 327 in wod 32;
--   null scores: 318 (wod 31), 308 (32), 316 (32), 310 (33, 35), 315 (34), 321 (35).
--   No lb load can equal a kg load exactly (x lb = x * 0.45359237 kg has more than
--   2 decimals for every non-zero x up to 99999 with 2 decimals), so the lb loads
--   sit just above or below kg ones: 225 lb < 102.06 kg, 220.46 lb < 100 kg,
--   155 lb > 70 kg; equal loads are written differently instead (100 = 100 kg).
--
-- Expected WOD leaderboard, worked out by hand from API.md Part 2, competition 4,
-- wod 31 (Sprint Chipper, time, cap 10:00), division RX (GET
-- .../competition/4/wod/31/leaderboard?division=RX), entries in this order:
--   rank points spot bib  score   tiebreak heat lane
--   1    1      303  103  07:45   3:02     401  3009  7:45, the lowest tiebreak
--   2    2      301  101  7:45    3:10     401  3007  7:45 = 07:45, same tiebreak:
--   2    2      302  102  07:45   3:10     401  3008    a shared place, 3 skipped
--   4    4      305  105  9:12.5  null     404  3033  best of its two lanes (lane
--                                                      3011 in heat 401: CAP+5)
--   5    5      304  104  10:00   null     401  3010  equal to the cap: finished,
--                                                      ahead of every CAP+N
--   6    6      306  106  CAP+5   null     401  3012  equal CAP+5, no tiebreak:
--   6    6      307  107  CAP+5   null     401  3013    a shared place, 7 skipped
--   8    8      308  108  CAP+12  null     401  3014  12 reps left: after CAP+5
--   null 9      310  110  null    null     null null  no lane: 8 placed + 1
--   null 9      309  null WD      null     401  3015  withdrawn; no bib: last
--
-- Overall (competition 4): in Scaled, 312 and 311 both total 13 points; 312 is 1st
-- on countback (one 1st place each, then two 2nd places against one).  Without a
-- division, 325 and 326 total 7 with the same places (three 1st, two 2nd): both
-- are 1st, and 327 is 3rd.  Competition 5 (chart100): 356 and 351 (Men) both total
-- 280, 356 ahead of 351 on countback (two 1st places against one): 356 is 2nd and
-- 351 3rd, behind 353 (285 points).
--
-- Competition 5 (Bordeaux, 2026-11-07, finished, ranking 'chart100'):
--   wods 36 Fran (time, cap 420 s), 37 Clean Ladder (load), 38 AMRAP 12 (reps);
--   spots Men 351..358, Women 359..364 (bibs 201..214); zones 46 Hall A (8 lanes),
--   47 Hall B (6); heats 451..456 (per wod: Men on 46, Women on 47); 364 has no
--   lane in wod 36, 363 a null score there, 357 withdrew (WD) from wods 36 and 37.
--
-- Instants are UTC; competitions 1, 2, 4 and 5 take place in Europe/Paris (UTC+1 in
-- November), so a heat at 08:00Z starts at 09:00 local time.
--
-- Plain INSERTs with explicit ids, portable to PostgreSQL.

BEGIN;

-- Competitions.  List order is start_date, id: 5, 4, 2, 1, 3 (differs from id order).
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
    (18, 2, 'Synchro Cindy', 'AMRAP in 20 minutes, synchronised: 5 pull-ups, 10 push-ups, 15 air squats. Score is the total of synchronised reps.', 3, 'reps', 1200),
    (19, 2, 'Skill Station', 'Judged handstand and muscle-up stations: points per station, minus penalties.', 4, 'points', NULL),
    (20, 2, 'Row 2K', 'Partners share a 2000 m row, for time, no cap.', 5, 'time', NULL);

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
    (257, 2, 27, 18, 2, '2026-11-21T14:00:00Z', 'scheduled'),
    (258, 2, 26, NULL, 1, '2026-11-22T08:00:00Z', 'scheduled'),
    (259, 2, 27, 19, 1, '2026-11-22T09:00:00Z', 'scheduled'),
    (260, 2, 27, 20, 1, '2026-11-22T10:00:00Z', 'scheduled');

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
--   heat 258 (zone 26, 6 lanes, NO wod: free text): empty lane 2029; free numbers 4, 6;
--             free spots 152..154, 156..158, 160
--   heat 259 (zone 27, 4 lanes, wod 19, points): empty lane 2032; free numbers 3, 4
--   heat 260 (zone 27, 4 lanes, wod 20, time without cap): empty lane 2034; free numbers 3, 4
-- Variant B heat list of competition 2 (start_time, number, id): 251, 252, 253, 254,
-- 255, 257, 256, 258, 259, 260; zone 26: 251, 253, 255, 258; zone 27: 252, 254, 257,
-- 259, 260.
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
    (2026, 257, 3, NULL, NULL),
    -- heat 258: no WOD (free text), Floor A, scheduled
    (2027, 258, 1, 151, 'warm-up done'),
    (2028, 258, 2, 155, NULL),
    (2029, 258, 3, NULL, NULL),
    (2030, 258, 5, 159, 'late — judge Émile'),
    -- heat 259: Skill Station (points), Floor B, scheduled
    (2031, 259, 1, 153, '12.5'),
    (2032, 259, 2, NULL, NULL),
    -- heat 260: Row 2K (time, no cap), Floor B, scheduled
    (2033, 260, 1, 160, '7:31.2'),
    (2034, 260, 2, NULL, NULL);

-- ---------------------------------------------------------------- rankings
-- Competitions 4 and 5: data that shows both ranking policies (see the top of this
-- file).  Competition 4 keeps the default ranking, 'places'.  Heat list order of
-- competition 4 (start_time, number, id): 420, 401, 402, 403, 404, 405, 406, 407,
-- 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 419.
INSERT INTO competition (id, name, location, start_date, end_date, timezone, status) VALUES
    (4, 'Lyon Winter Showdown 2026', 'Halle Tony Garnier, Lyon', '2026-11-14', '2026-11-15', 'Europe/Paris', 'finished');
INSERT INTO competition (id, name, location, start_date, end_date, timezone, status, ranking) VALUES
    (5, 'Bordeaux Chart Challenge 2026', 'Hangar 14, Bordeaux', '2026-11-07', '2026-11-07', 'Europe/Paris', 'finished', 'chart100');

INSERT INTO wod (id, competition_id, name, description, position, scoring, time_cap) VALUES
    (31, 4, 'Sprint Chipper', 'For time, 10 min cap: 30 wall-ball shots (9/6 kg), 20 toes-to-bar, 10 power cleans (60/40 kg). CAP+N: N reps left at the cap.', 1, 'time', 600),
    (32, 4, 'Murph', 'For time, no cap: 1.6 km run, 100 pull-ups, 200 push-ups, 300 air squats, 1.6 km run. Partners share the reps.', 2, 'time', NULL),
    (33, 4, 'Burpee Ladder', '7 minutes: as many burpees over the bar as possible. Tiebreak: time of the last completed round.', 3, 'reps', NULL),
    (34, 4, '1RM Snatch', '12 minutes to find the heaviest snatch of the team. Loads in kg or lb, compared in kg.', 4, 'load', NULL),
    (35, 4, 'Gymnastics Skill Test', 'Judged skill test: points per station, minus penalties (a score may be negative).', 5, 'points', NULL),
    (36, 5, 'Fran', '21-15-9 thrusters (43/30 kg) and pull-ups, 7 min cap.', 1, 'time', 420),
    (37, 5, 'Clean Ladder', 'Heaviest clean in 10 minutes, kg or lb.', 2, 'load', NULL),
    (38, 5, 'AMRAP 12', '12 minutes: 5 pull-ups, 10 push-ups, 15 air squats; score is total reps.', 3, 'reps', NULL);

INSERT INTO spot (id, competition_id, name, division, affiliate, bib) VALUES
    (301, 4, 'Lyon Barbell Club', 'RX', 'CrossFit Lyon Centre', 101),
    (302, 4, 'Les Gones Costauds', 'RX', 'CrossFit Vieux Lyon', 102),
    (303, 4, 'Rhône Rowers', 'RX', 'CrossFit Rhône', 103),
    (304, 4, 'Fourvière Fighters', 'RX', 'CrossFit Fourvière', 104),
    (305, 4, 'Presqu''île Power', 'RX', 'CrossFit Bellecour', 105),
    (306, 4, 'Croix-Rousse Crushers', 'RX', 'CrossFit Croix-Rousse', 106),
    (307, 4, 'Confluence Crew', 'RX', 'CrossFit Confluence', 107),
    (308, 4, 'Part-Dieu Pullers', 'RX', 'CrossFit Part-Dieu', 108),
    (309, 4, 'Saône Squad', 'RX', 'CrossFit Saint-Paul', NULL),
    (310, 4, 'Traboule Thrusters', 'RX', 'CrossFit Terreaux', 110),
    (311, 4, 'Bellecour Burpees', 'Scaled', 'CrossFit Bellecour', 111),
    (312, 4, 'Gerland Grinders', 'Scaled', 'CrossFit Gerland', 112),
    (313, 4, 'Villeurbanne Vipers', 'Scaled', 'CrossFit Villeurbanne', 113),
    (314, 4, 'Tête d''Or Titans', 'Scaled', 'CrossFit Tête d''Or', 114),
    (315, 4, 'Jean Macé Movers', 'Scaled', 'CrossFit Jean Macé', 115),
    (316, 4, 'Vaise Velocity', 'Scaled', 'CrossFit Vaise', 116),
    (317, 4, 'Monplaisir Mob', 'Scaled', 'CrossFit Monplaisir', 117),
    (318, 4, 'Brotteaux Brigade', 'Scaled', 'CrossFit Brotteaux', 118),
    (319, 4, 'Silver Snatchers', 'Masters 40+', 'CrossFit Caluire', 119),
    (320, 4, 'Vintage Vikings', 'Masters 40+', 'CrossFit Bron', 120),
    (321, 4, 'Grey Matter', 'Masters 40+', 'CrossFit Oullins', 121),
    (322, 4, 'Old School Olympians', 'Masters 40+', 'CrossFit Écully', 122),
    (323, 4, 'Forty Forever', 'Masters 40+', 'CrossFit Vénissieux', 123),
    (324, 4, 'Wise Wallballers', 'Masters 40+', 'CrossFit Tassin', 124),
    (325, 4, 'Guest Team Geneva', NULL, 'CrossFit Genève', 125),
    (326, 4, 'Guest Team Turin', NULL, 'CrossFit Torino', 126),
    (327, 4, 'Staff Allstars', NULL, NULL, 127),
    (351, 5, 'Garonne Gorillas', 'Men', 'CrossFit Garonne', 201),
    (352, 5, 'Chartrons Chargers', 'Men', 'CrossFit Chartrons', 202),
    (353, 5, 'Bastide Bulls', 'Men', 'CrossFit Bastide', 203),
    (354, 5, 'Pessac Power', 'Men', 'CrossFit Pessac', 204),
    (355, 5, 'Mérignac Machines', 'Men', 'CrossFit Mérignac', 205),
    (356, 5, 'Talence Titans', 'Men', 'CrossFit Talence', 206),
    (357, 5, 'Bègles Beasts', 'Men', 'CrossFit Bègles', 207),
    (358, 5, 'Arcachon Anchors', 'Men', 'CrossFit Arcachon', 208),
    (359, 5, 'Garonne Gazelles', 'Women', 'CrossFit Garonne', 209),
    (360, 5, 'Chartrons Chicas', 'Women', 'CrossFit Chartrons', 210),
    (361, 5, 'Bastide Belles', 'Women', 'CrossFit Bastide', 211),
    (362, 5, 'Pessac Panthers', 'Women', 'CrossFit Pessac', 212),
    (363, 5, 'Mérignac Mavericks', 'Women', 'CrossFit Mérignac', 213),
    (364, 5, 'Talence Tigresses', 'Women', 'CrossFit Talence', 214);

INSERT INTO zone (id, competition_id, name, lane_count) VALUES
    (41, 4, 'Main Floor', 10),
    (42, 4, 'Annex', 8),
    (43, 4, 'Outdoor Rig', 6),
    (46, 5, 'Hall A', 8),
    (47, 5, 'Hall B', 6);

INSERT INTO heat (id, competition_id, zone_id, wod_id, number, start_time, status) VALUES
    (401, 4, 41, 31, 1, '2026-11-14T08:00:00Z', 'finished'),
    (402, 4, 42, 31, 2, '2026-11-14T08:00:00Z', 'finished'),
    (403, 4, 43, 31, 3, '2026-11-14T08:30:00Z', 'finished'),
    (404, 4, 43, 31, 4, '2026-11-14T09:00:00Z', 'finished'),
    (405, 4, 41, 32, 1, '2026-11-14T10:00:00Z', 'finished'),
    (406, 4, 42, 32, 2, '2026-11-14T10:00:00Z', 'finished'),
    (407, 4, 43, 32, 3, '2026-11-14T10:00:00Z', 'finished'),
    (408, 4, 43, 32, 4, '2026-11-14T11:30:00Z', 'finished'),
    (409, 4, 41, 33, 1, '2026-11-14T13:30:00Z', 'finished'),
    (410, 4, 42, 33, 2, '2026-11-14T13:30:00Z', 'finished'),
    (411, 4, 43, 33, 3, '2026-11-14T14:00:00Z', 'finished'),
    (412, 4, 42, 33, 4, '2026-11-14T14:30:00Z', 'finished'),
    (413, 4, 41, 34, 1, '2026-11-15T08:00:00Z', 'finished'),
    (414, 4, 42, 34, 2, '2026-11-15T08:00:00Z', 'finished'),
    (415, 4, 41, 34, 3, '2026-11-15T09:00:00Z', 'finished'),
    (416, 4, 41, 35, 1, '2026-11-15T11:00:00Z', 'finished'),
    (417, 4, 42, 35, 2, '2026-11-15T11:00:00Z', 'finished'),
    (418, 4, 43, 35, 3, '2026-11-15T11:00:00Z', 'finished'),
    (419, 4, 42, 35, 4, '2026-11-15T12:00:00Z', 'finished'),
    (420, 4, 42, NULL, 1, '2026-11-14T07:15:00Z', 'finished'),
    (451, 5, 46, 36, 1, '2026-11-07T08:00:00Z', 'finished'),
    (452, 5, 47, 36, 2, '2026-11-07T08:00:00Z', 'finished'),
    (453, 5, 46, 37, 1, '2026-11-07T10:00:00Z', 'finished'),
    (454, 5, 47, 37, 2, '2026-11-07T10:00:00Z', 'finished'),
    (455, 5, 46, 38, 1, '2026-11-07T13:00:00Z', 'finished'),
    (456, 5, 47, 38, 2, '2026-11-07T13:00:00Z', 'finished');

INSERT INTO lane (id, heat_id, number, spot_id, score, tiebreak) VALUES
    -- heat 420: no WOD (free text), Annex
    (3001, 420, 1, 301, 'ok', NULL),
    (3002, 420, 2, 311, 'ok', NULL),
    (3003, 420, 3, 319, 'rig 3 loose: fixed', NULL),
    (3004, 420, 4, NULL, 'spare lane — keep free', NULL),
    (3005, 420, 5, 325, 'late (5 min)', NULL),
    (3006, 420, 6, 326, 'WD', NULL),
    -- heat 401: Sprint Chipper, Main Floor
    (3007, 401, 1, 301, '7:45', '3:10'),
    (3008, 401, 2, 302, '07:45', '3:10'),
    (3009, 401, 3, 303, '07:45', '3:02'),
    (3010, 401, 4, 304, '10:00', NULL),
    (3011, 401, 5, 305, 'CAP+5', NULL),
    (3012, 401, 6, 306, 'CAP+5', NULL),
    (3013, 401, 7, 307, 'CAP+5', NULL),
    (3014, 401, 8, 308, 'CAP+12', NULL),
    (3015, 401, 9, 309, 'WD', NULL),
    (3016, 401, 10, NULL, NULL, NULL),
    -- heat 402: Sprint Chipper, Annex
    (3017, 402, 1, 311, '8:05', NULL),
    (3018, 402, 2, 312, '8:05', '4:00'),
    (3019, 402, 3, 313, '8:05', '4:00.5'),
    (3020, 402, 4, 314, 'CAP+20', NULL),
    (3021, 402, 5, 315, 'CAP+3', NULL),
    (3022, 402, 6, 316, '09:59.9', NULL),
    (3023, 402, 7, 317, '5:30', NULL),
    (3024, 402, 8, 318, NULL, NULL),
    -- heat 403: Sprint Chipper, Outdoor Rig
    (3025, 403, 1, 319, '6:58', NULL),
    (3026, 403, 2, 320, '06:58', NULL),
    (3027, 403, 3, 321, 'CAP+0', NULL),
    (3028, 403, 4, 322, '10:00', NULL),
    (3029, 403, 5, 323, 'WD', NULL),
    -- heat 404: Sprint Chipper, Outdoor Rig
    (3030, 404, 1, 325, '8:30', NULL),
    (3031, 404, 2, 326, '8:30.0', NULL),
    (3032, 404, 3, 327, 'CAP+7', NULL),
    (3033, 404, 4, 305, '9:12.5', NULL),
    -- heat 405: Murph, Main Floor
    (3034, 405, 1, 301, '38:12', '20:01'),
    (3035, 405, 2, 302, '41:05', NULL),
    (3036, 405, 3, 303, '38:12', NULL),
    (3037, 405, 4, 304, '1:02:03.5', NULL),
    (3038, 405, 5, 305, '01:02:03.5', NULL),
    (3039, 405, 6, 306, '45:00', NULL),
    (3040, 405, 7, 307, 'WD', NULL),
    (3041, 405, 8, 308, NULL, NULL),
    (3042, 405, 9, 309, '52:47', NULL),
    (3043, 405, 10, 310, '39:59.99', NULL),
    -- heat 406: Murph, Annex
    (3044, 406, 1, 311, '48:20', NULL),
    (3045, 406, 2, 312, '55:02', NULL),
    (3046, 406, 3, 313, '1:10:45', NULL),
    (3047, 406, 4, 314, '48:20', NULL),
    (3048, 406, 5, 315, '50:00', NULL),
    (3049, 406, 6, 316, NULL, NULL),
    (3050, 406, 7, 317, '59:59', NULL),
    (3051, 406, 8, 318, '1:00:00', NULL),
    -- heat 407: Murph, Outdoor Rig
    (3052, 407, 1, 319, '1:15:00', NULL),
    (3053, 407, 2, 320, '58:30', NULL),
    (3054, 407, 3, 321, '1:01:01', NULL),
    (3055, 407, 4, 322, 'WD', NULL),
    (3056, 407, 5, 323, '1:15:00', NULL),
    (3057, 407, 6, 324, '1:20:10', NULL),
    -- heat 408: Murph, Outdoor Rig
    (3058, 408, 1, 325, '44:44', NULL),
    (3059, 408, 2, 326, '47:12', NULL),
    -- heat 409: Burpee Ladder, Main Floor
    (3060, 409, 1, 301, '112', NULL),
    (3061, 409, 2, 302, '98', NULL),
    (3062, 409, 3, 303, '120', '6:40'),
    (3063, 409, 4, 304, '095', NULL),
    (3064, 409, 5, 305, '95', NULL),
    (3065, 409, 6, 306, '101', NULL),
    (3066, 409, 7, 307, '88', NULL),
    (3067, 409, 8, 308, '120', '6:52'),
    (3068, 409, 9, 309, '0', NULL),
    (3069, 409, 10, 310, NULL, NULL),
    -- heat 410: Burpee Ladder, Annex
    (3070, 410, 1, 311, '80', NULL),
    (3071, 410, 2, 312, '77', NULL),
    (3072, 410, 3, 313, '80', NULL),
    (3073, 410, 4, 314, '65', NULL),
    (3074, 410, 5, 315, '91', NULL),
    (3075, 410, 6, 316, '59', NULL),
    (3076, 410, 7, 317, '70', NULL),
    (3077, 410, 8, 318, 'WD', NULL),
    -- heat 411: Burpee Ladder, Outdoor Rig
    (3078, 411, 1, 319, '72', NULL),
    (3079, 411, 2, 320, '68', NULL),
    (3080, 411, 3, 321, '72', NULL),
    (3081, 411, 4, 322, '61', NULL),
    (3082, 411, 5, 323, '55', NULL),
    (3083, 411, 6, 324, '0', NULL),
    -- heat 412: Burpee Ladder, Annex
    (3084, 412, 1, 325, '85', NULL),
    (3085, 412, 2, 326, '85', NULL),
    (3086, 412, 3, 327, '90', NULL),
    -- heat 413: 1RM Snatch, Main Floor
    (3087, 413, 1, 301, '102.5', NULL),
    (3088, 413, 2, 302, '102.5kg', NULL),
    (3089, 413, 3, 303, '225 lb', NULL),
    (3090, 413, 4, 304, '102.06kg', NULL),
    (3091, 413, 5, 305, '100', NULL),
    (3092, 413, 6, 306, '100 kg', NULL),
    (3093, 413, 7, 307, '220.46lb', NULL),
    (3094, 413, 8, 308, '95.25 kg', NULL),
    (3095, 413, 9, 309, 'WD', NULL),
    (3096, 413, 10, 310, '110kg', NULL),
    -- heat 414: 1RM Snatch, Annex
    (3097, 414, 1, 311, '70kg', NULL),
    (3098, 414, 2, 312, '155 lb', NULL),
    (3099, 414, 3, 313, '70', NULL),
    (3100, 414, 4, 314, '65.5kg', NULL),
    (3101, 414, 5, 315, NULL, NULL),
    (3102, 414, 6, 316, '154.32 lb', NULL),
    (3103, 414, 7, 317, '60 kg', NULL),
    (3104, 414, 8, 318, '72.5kg', NULL),
    -- heat 415: 1RM Snatch, Main Floor
    (3105, 415, 1, 319, '85kg', NULL),
    (3106, 415, 2, 320, '187.5 lb', NULL),
    (3107, 415, 3, 321, '80kg', NULL),
    (3108, 415, 4, 322, '80', NULL),
    (3109, 415, 5, 323, 'WD', NULL),
    (3110, 415, 6, 324, '77.5kg', NULL),
    (3111, 415, 7, 325, '90kg', NULL),
    (3112, 415, 8, 326, '198.42lb', NULL),
    (3113, 415, 9, 327, '90 kg', NULL),
    -- heat 416: Gymnastics Skill Test, Main Floor
    (3114, 416, 1, 301, '87.5', NULL),
    (3115, 416, 2, 302, '92', NULL),
    (3116, 416, 3, 303, '87.500', NULL),
    (3117, 416, 4, 304, '-5', NULL),
    (3118, 416, 5, 305, '100.25', NULL),
    (3119, 416, 6, 306, '92.000', NULL),
    (3120, 416, 7, 307, '78.125', NULL),
    (3121, 416, 8, 308, '0', NULL),
    (3122, 416, 9, 309, 'WD', NULL),
    (3123, 416, 10, 310, NULL, NULL),
    -- heat 417: Gymnastics Skill Test, Annex
    (3124, 417, 1, 311, '55.5', NULL),
    (3125, 417, 2, 312, '61.200', NULL),
    (3126, 417, 3, 313, '55.50', NULL),
    (3127, 417, 4, 314, '48.75', NULL),
    (3128, 417, 5, 315, '61.2', NULL),
    (3129, 417, 6, 316, '0.5', NULL),
    (3130, 417, 7, 317, '-2.25', NULL),
    (3131, 417, 8, 318, '40', NULL),
    -- heat 418: Gymnastics Skill Test, Outdoor Rig
    (3132, 418, 1, 319, '70', NULL),
    (3133, 418, 2, 320, '72.5', NULL),
    (3134, 418, 3, 321, NULL, NULL),
    (3135, 418, 4, 322, '68.125', NULL),
    (3136, 418, 5, 323, '70.0', NULL),
    (3137, 418, 6, 324, '65', NULL),
    -- heat 419: Gymnastics Skill Test, Annex
    (3138, 419, 1, 325, '81.250', NULL),
    (3139, 419, 2, 326, '81.25', NULL),
    (3140, 419, 3, 327, '77', NULL);

INSERT INTO lane (id, heat_id, number, spot_id, score, tiebreak) VALUES
    -- heat 451: Fran, Hall A
    (3501, 451, 1, 351, '3:45', NULL),
    (3502, 451, 2, 352, '4:02', NULL),
    (3503, 451, 3, 353, '3:45', NULL),
    (3504, 451, 4, 354, 'CAP+10', NULL),
    (3505, 451, 5, 355, '6:59.9', NULL),
    (3506, 451, 6, 356, '7:00', NULL),
    (3507, 451, 7, 357, 'WD', NULL),
    (3508, 451, 8, 358, 'CAP+10', NULL),
    -- heat 452: Fran, Hall B
    (3509, 452, 1, 359, '4:30', '2:05'),
    (3510, 452, 2, 360, '5:10', NULL),
    (3511, 452, 3, 361, 'CAP+4', NULL),
    (3512, 452, 4, 362, '04:30', '2:00'),
    (3513, 452, 5, 363, NULL, NULL),
    -- heat 453: Clean Ladder, Hall A
    (3514, 453, 1, 351, '120kg', NULL),
    (3515, 453, 2, 352, '264.55 lb', NULL),
    (3516, 453, 3, 353, '125', NULL),
    (3517, 453, 4, 354, '120 kg', NULL),
    (3518, 453, 5, 355, '115kg', NULL),
    (3519, 453, 6, 356, '130kg', NULL),
    (3520, 453, 7, 357, 'WD', NULL),
    (3521, 453, 8, 358, '110kg', NULL),
    -- heat 454: Clean Ladder, Hall B
    (3522, 454, 1, 359, '80kg', NULL),
    (3523, 454, 2, 360, '176.37 lb', NULL),
    (3524, 454, 3, 361, '85kg', NULL),
    (3525, 454, 4, 362, '80', NULL),
    (3526, 454, 5, 363, '75kg', NULL),
    (3527, 454, 6, 364, '70kg', NULL),
    -- heat 455: AMRAP 12, Hall A
    (3528, 455, 1, 351, '250', NULL),
    (3529, 455, 2, 352, '261', NULL),
    (3530, 455, 3, 353, '250', NULL),
    (3531, 455, 4, 354, '238', NULL),
    (3532, 455, 5, 355, '0240', NULL),
    (3533, 455, 6, 356, '275', NULL),
    (3534, 455, 7, 357, NULL, NULL),
    (3535, 455, 8, 358, '201', NULL),
    -- heat 456: AMRAP 12, Hall B
    (3536, 456, 1, 359, '198', NULL),
    (3537, 456, 2, 360, '205', NULL),
    (3538, 456, 3, 361, '198', NULL),
    (3539, 456, 4, 362, '212', NULL),
    (3540, 456, 5, 363, '190', NULL),
    (3541, 456, 6, 364, '187', NULL);

-- API users (see the logins at the top of this file).
INSERT INTO account (name, password_hash, role, enabled, created_at) VALUES
    ('demo', '$2y$10$a4Ji3TM91F2OCdM/I5NRVeFwrRr0eMzuhewzoBCJcwd2CsWuQDBJO', 'reader', 1, 1793491200),
    ('judge', '$2y$10$5BSxcb6cQgLwdQGeM7lSCeUDC7vuqmbZyH64ELnAdIyKZRgQHCigG', 'editor', 1, 1793491200),
    ('retired', '$2y$10$WuRpYcOjJS6.8xgq7vT1XOaEfjaVlsrhB7L.bH0TviqEqFmfh1xfm', 'reader', 0, 1793491200);

COMMIT;
