-- bench/put-demo.lua: wrk script, lane PUTs on the demo data (sql/demo.sql), for the
-- PostgreSQL run of bench.pl: each request sets the score "WD" (withdrawn, valid
-- whatever the WOD's scoring, API.md Part 2) of a random lane of BENCH_LANES (lane
-- paths under the mount, variant A, separated by spaces; bench.pl sets it).  Every
-- PUT is a committed write (the revision moves even when the score is the same).
local paths = {}
for p in string.gmatch(os.getenv("BENCH_LANES") or "", "%S+") do
   paths[#paths + 1] = p
end
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"

request = function()
   local p = paths[math.random(1, #paths)]
   return wrk.format("PUT", wrk.path .. p, nil, '{"score":"WD"}')
end
