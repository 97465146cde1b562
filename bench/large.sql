-- bench/large.sql: the benchmark's large competition, loaded after sql/schema.sql and
-- sql/demo.sql by ./scripts/bench (SQLite).
--
--   competition 100      'Bench Open 2026'
--   wod         100001 .. 100006      6 WODs
--   spot        200001 .. 202000      2,000 teams, bibs 1 .. 2000
--   zone        300001 .. 300008      8 zones of 10 lanes
--   heat        400001 .. 400400      400 heats, heat k in zone 300001 + (k mod 8)
--   lane        500001 .. 504000      10 lanes per heat; lane 10 of every 4th heat empty
--
-- Lane 500001 + 10k + (n - 1) is lane n of heat 400001 + k, in zone 300001 + (k mod 8).
BEGIN;

INSERT INTO competition (id, name, location, start_date, end_date, timezone, status) VALUES
    (100, 'Bench Open 2026', 'Parc des Expositions, Lyon', '2026-12-05', '2026-12-07',
     'Europe/Paris', 'upcoming');

WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 5)
INSERT INTO wod (id, competition_id, name, description, position, scoring, time_cap)
SELECT 100001 + i, 100, 'Event ' || (i + 1),
       'Teams of 2. ' || (i + 1) || ' rounds for time of: 20 wall-ball shots, 15 burpees '
       || 'over the bar, 10 power snatches (50/35 kg). Partners alternate each round.',
       i + 1, CASE i % 3 WHEN 0 THEN 'time' WHEN 1 THEN 'reps' ELSE 'load' END,
       CASE i % 3 WHEN 2 THEN NULL ELSE 600 + 60 * i END
FROM n;

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

WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 399)
INSERT INTO heat (id, competition_id, zone_id, wod_id, number, start_time, status)
SELECT 400001 + i, 100, 300001 + i % 8, 100001 + (i / 8) % 6, i / 8 + 1,
       strftime('%Y-%m-%dT%H:%M:%SZ', '2026-12-05 08:00:00', '+' || (15 * (i / 8)) || ' minutes'),
       CASE WHEN i < 40 THEN 'finished' WHEN i < 48 THEN 'running' ELSE 'scheduled' END
FROM n;

WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 3999)
INSERT INTO lane (id, heat_id, number, spot_id, score)
SELECT 500001 + i, 400001 + i / 10, i % 10 + 1,
       CASE WHEN i % 10 = 9 AND (i / 10) % 4 = 0 THEN NULL ELSE 200001 + i % 2000 END,
       CASE WHEN i / 10 < 40 THEN printf('%02d:%02d', 8 + i % 9, (i * 7) % 60) END
FROM n;

COMMIT;
