-- bench/lanes.lua: the lanes of the benchmark's large competition (bench/large.sql),
-- shared by bench/put.lua and bench/mix.lua (loaded with dofile from their directory).
--
-- Lane k (0 .. 23,999) is lane id 500001 + k, in heat 400001 + floor(k / 10), in zone
-- 300001 + (heat mod 8), of the WOD of index floor(k / 2000).  Scores are typed by the
-- WOD's scoring (API.md Part 2): bench.pl passes the scorings in BENCH_WODS, in WOD
-- list order, as "scoring:cap" separated by spaces ("time:600 reps:720 load: ...").
local lanes = { count = 24000 }

local wods = {}
for scoring, cap in string.gmatch(os.getenv("BENCH_WODS") or "", "(%a+):(%d*)") do
   wods[#wods + 1] = { scoring = scoring, cap = tonumber(cap) }
end

-- the variant A path of lane K under PREFIX (wrk.path)
function lanes.path(prefix, k)
   local heat = math.floor(k / 10)
   return string.format("%s/competition/100/zone/%d/heat/%d/voie/%d",
                        prefix, 300001 + heat % 8, 400001 + heat, 500001 + k)
end

-- a score that fits lane K's WOD, made from the counter N (a different score for
-- each N within a WOD's range)
function lanes.score(k, n)
   local w = wods[math.floor(k / 2000) + 1]
   if w == nil then
      return "WD"   -- BENCH_WODS not given: fits every scoring
   elseif w.scoring == "time" then
      local t = n % (w.cap or 3600)
      return string.format("%d:%02d.%03d", math.floor(t / 60), t % 60, n % 1000)
   elseif w.scoring == "reps" then
      return string.format("%d", n % 1000000000)
   elseif w.scoring == "load" then
      return string.format("%d.%02d kg", n % 99999, n % 100)
   else
      return string.format("%d.%03d", n % 99999, n % 1000)
   end
end

-- a random lane's PUT request, the score made from N
function lanes.put(n, headers)
   local k = math.random(0, lanes.count - 1)
   return wrk.format("PUT", lanes.path(wrk.path, k), headers,
                     string.format('{"score":"%s"}', lanes.score(k, n)))
end

return lanes
