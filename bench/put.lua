-- bench/put.lua: wrk script, lane PUTs on the benchmark's large competition.
-- Each request writes a new score (typed as the lane's WOD wants: bench/lanes.lua)
-- on a random lane of the 24,000 (see bench/large.sql), through the variant A route;
-- run wrk with the mount's URL (…/api), the token in -H "Authorization: Bearer …",
-- and BENCH_WODS in the environment (bench.pl sets it).
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local lanes = dofile(dir .. "lanes.lua")
local counter = 0
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"

request = function()
   counter = counter + 1
   return lanes.put(counter, nil)
end
