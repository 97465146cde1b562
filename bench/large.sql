-- bench/large.sql: the benchmark's large competition, loaded after sql/schema.sql and
-- sql/demo.sql by ./scripts/bench (SQLite).  The competition of the issue "Rankings":
-- 2,000 spots, 12 WODs, every spot with one lane in every WOD.
--
--   competition 100      'Bench Open 2026', ranking 'places' (the default)
--   wod         100001 .. 100012     12 WODs, positions 1 .. 12 (scorings below)
--   spot        200001 .. 202000     2,000 teams, bibs 1 .. 2000, 4 divisions of 500
--   zone        300001 .. 300008     8 zones of 10 lanes
--   heat        400001 .. 402400     2,400 heats of 10 lanes, 200 per WOD: heat
--                                    400001 + k is in zone 300001 + (k mod 8), of WOD
--                                    100001 + k / 200, number k / 8 + 1
--   lane        500001 .. 524000     24,000 lanes, all with a spot
--
-- Lane 500001 + 10k + (n - 1) is lane n of heat 400001 + k, in zone 300001 + (k mod 8),
-- of WOD 100001 + k / 200 (bench/lanes.lua writes valid scores from this).  Lane i
-- (0-based) holds spot 200001 + (m * (20j + 1) + 97j) mod 2000, with j = i / 2000 its
-- WOD's index and m = i mod 2000: a different permutation of the 2,000 spots per WOD
-- (20j + 1 is prime to 2000), so each spot has exactly one lane in every WOD.
--
-- WODs (index j = position - 1):
--   j  scoring  cap       j  scoring  cap       j  scoring  cap
--   0  time     10:00     4  points   -         8  time     8:00
--   1  reps     12:00     5  time     15:00     9  points   -
--   2  load     -         6  reps     10:00    10  time     - (long, H:MM:SS)
--   3  time     -         7  load     -        11  reps     15:00
--
-- Scores, typed as each WOD's scoring wants (API.md Part 2), drawn from a fixed
-- pseudo-random number per lane so that the data is the same on every run:
--   - time: whole seconds, in M:SS, MM:SS, H:MM:SS or with tenths, so that equal
--     times are written differently; a capped WOD gives 1 lane in 6 (1 in 4 for
--     WOD 1) a CAP+N, and a few lanes exactly the cap; many ties;
--   - reps: 80 .. 249; load: 2.5 kg steps, 1 in 10 in lb, some with " kg"; points:
--     0 .. 99.5 in halves; many ties;
--   - about 1 lane in 3 of the time, reps and points WODs has a tiebreak (a time);
--     1 in 200 is WD, 1 in 100 has no score, and the last 92 heats (WOD 12, not yet
--     run) have none: realistic leaderboards with shared places, penalties and
--     countback;
--   - heats of WODs 1 .. 11 and the first 100 of WOD 12 are 'finished', 8 'running',
--     the rest 'scheduled'.
BEGIN;

INSERT INTO competition (id, name, location, start_date, end_date, timezone, status, ranking) VALUES
    (100, 'Bench Open 2026', 'Parc des Expositions, Lyon', '2026-12-05', '2026-12-07',
     'Europe/Paris', 'in_progress', 'places');

WITH w(j, name, scoring, cap, what) AS (VALUES
    (0,  'Sprint Chipper',     'time',   600,  'For time: 50 wall-ball shots, 40 burpees over the bar, 30 power snatches (50/35 kg), 20 bar muscle-ups. Time cap 10 minutes.'),
    (1,  'AMRAP 12',           'reps',   720,  'As many reps as possible in 12 minutes: 10 toes-to-bar, 15 box jumps, 20 double-unders.'),
    (2,  '1RM Clean & Jerk',   'load',   NULL, 'Each partner establishes a 1-rep-max clean and jerk; the score is the sum of both lifts.'),
    (3,  'Partner Murph',      'time',   NULL, 'For time: 1 mile run, 100 pull-ups, 200 push-ups, 300 air squats, 1 mile run; partners split the reps.'),
    (4,  'Gymnastics Skill',   'points', NULL, 'Judged skill test: handstand walk, rope climbs, muscle-ups; points as the standards say.'),
    (5,  'Row & Thrust',       'time',   900,  'For time: 2,000 m row, 50 thrusters (43/30 kg), 2,000 m row. Time cap 15 minutes.'),
    (6,  'Death by Burpees',   'reps',   600,  'Every minute on the minute, add one burpee; the score is the total reps before failing.'),
    (7,  'Snatch Ladder',      'load',   NULL, 'A new bar every 30 seconds, 2.5 kg heavier each time; the score is the heaviest snatch made.'),
    (8,  'Fran Relay',         'time',   480,  'For time, relay: 21-15-9 thrusters (43/30 kg) and pull-ups per partner. Time cap 8 minutes.'),
    (9,  'Strongman Medley',   'points', NULL, 'Yoke, sandbag over the bar and sled push; points by the judges'' standards.'),
    (10, 'Endurance Triathlon','time',   NULL, 'For time: 5 km run, 10 km bike erg, 3 km row, together.'),
    (11, 'Final AMRAP 15',     'reps',   900,  'As many reps as possible in 15 minutes: 5 strict handstand push-ups, 10 pistols, 15 kettlebell swings.')
)
INSERT INTO wod (id, competition_id, name, description, position, scoring, time_cap)
SELECT 100001 + j, 100, 'Event ' || (j + 1) || ': ' || name, what, j + 1, scoring, cap FROM w;

WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999)
INSERT INTO spot (id, competition_id, name, division, affiliate, bib)
SELECT 200001 + i, 100, 'Team ' || (i + 1) || ' "Iron & Chalk"',
       CASE i % 4 WHEN 0 THEN 'RX' WHEN 1 THEN 'Scaled' WHEN 2 THEN 'Masters 35+'
                  ELSE 'Teens' END,
       CASE WHEN i % 7 = 0 THEN NULL ELSE 'CrossFit Box ' || (i % 97 + 1) END,
       i + 1
FROM n;

WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 7)
INSERT INTO zone (id, competition_id, name, lane_count)
SELECT 300001 + i, 100, 'Floor ' || char(65 + i), 10 FROM n;

-- 4 WODs a day, 25 rounds of 8 heats each, a round every 6 minutes from 08:00
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2399)
INSERT INTO heat (id, competition_id, zone_id, wod_id, number, start_time, status)
SELECT 400001 + i, 100, 300001 + i % 8, 100001 + i / 200, i / 8 + 1,
       strftime('%Y-%m-%dT%H:%M:%SZ', '2026-12-05 08:00:00', '+' || (i / 800) || ' days',
                '+' || (6 * ((i / 8) % 100)) || ' minutes'),
       CASE WHEN i < 2300 THEN 'finished' WHEN i < 2308 THEN 'running' ELSE 'scheduled' END
FROM n;

-- x: a fixed pseudo-random number per lane; j: the WOD's index; t: a time in seconds
-- for the time WODs (capped: from half the cap to 1.1 times it; above it, CAP+N)
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 23999),
r AS (SELECT i, i / 2000 AS j, (i * 2654435761 + 12345) % 1000003 AS x FROM n),
s AS (SELECT r.*, w.scoring, w.time_cap AS cap,
             CASE WHEN w.time_cap IS NULL THEN 1500 + x % 2700
                  ELSE w.time_cap / 2 + x % (w.time_cap * 6 / 10 + 1) END AS t
      FROM r JOIN wod w ON w.id = 100001 + r.j)
INSERT INTO lane (id, heat_id, number, spot_id, score, tiebreak)
SELECT 500001 + i, 400001 + i / 10, i % 10 + 1,
       200001 + ((i % 2000) * (20 * j + 1) + 97 * j) % 2000,
       CASE
         WHEN i / 10 >= 2308 THEN NULL                    -- heat not run yet
         WHEN x % 100 = 42 THEN NULL                      -- result not entered
         WHEN x % 200 = 7 THEN 'WD'
         WHEN scoring = 'time' AND t > cap THEN 'CAP+' || ((t - cap) * 3)
         WHEN scoring = 'time' AND t >= 3600 THEN
              printf('%d:%02d:%02d', t / 3600, t / 60 % 60, t % 60)
         WHEN scoring = 'time' THEN
              CASE WHEN x % 5 = 0 THEN printf('%02d:%02d', t / 60, t % 60)
                   WHEN x % 5 = 1 AND t < coalesce(cap, 3600)
                        THEN printf('%d:%02d.%d', t / 60, t % 60, x / 7 % 10)
                   ELSE printf('%d:%02d', t / 60, t % 60) END
         WHEN scoring = 'reps' THEN CAST(80 + x % 170 AS TEXT)
         WHEN scoring = 'load' THEN
              CASE x % 10 WHEN 0 THEN printf('%d lb', 90 + x / 10 % 300)
                          WHEN 1 THEN printf('%.1f kg', 2.5 * (40 + x / 10 % 100))
                          ELSE printf('%.1f', 2.5 * (40 + x / 10 % 100)) END
         ELSE printf('%.1f', (x / 10 % 200) / 2.0)        -- points
       END,
       CASE WHEN x % 3 = 0 AND scoring <> 'load' AND i / 10 < 2308 AND x % 100 <> 42
                 AND x % 200 <> 7
            THEN printf('%d:%02d', 1 + x / 3 % 6, x / 11 % 60) END
FROM s;

COMMIT;
