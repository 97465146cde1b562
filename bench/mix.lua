-- bench/mix.lua: wrk script for the memory run, a mix of the read routes (the
-- leaderboards among them) with one lane PUT in 500 requests (each PUT changes the
-- data revision, so the answer caches are refilled and the leaderboards rebuilt all
-- along).  Paths come from the environment (BENCH_PATHS, separated by spaces,
-- relative to the mount's URL given to wrk); the PUT's score is typed as the lane's
-- WOD wants (bench/lanes.lua, BENCH_WODS).
local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local lanes = dofile(dir .. "lanes.lua")
local paths = {}
for p in string.gmatch(os.getenv("BENCH_PATHS") or "/competition/", "%S+") do
   paths[#paths + 1] = p
end
if #paths == 0 then paths[1] = "/competition/" end
local i = 0
math.randomseed(os.time() + math.floor(os.clock() * 1000000))

request = function()
   i = i + 1
   if i % 500 == 0 then
      local headers = {}
      for h, v in pairs(wrk.headers) do headers[h] = v end
      headers["Content-Type"] = "application/json"
      return lanes.put(i, headers)
   end
   return wrk.format("GET", wrk.path .. paths[i % #paths + 1], nil, nil)
end

-- the first answers other than 200 or 304 are shown (on standard error)
local odd = 0
function response(status, headers, body)
   if status ~= 200 and status ~= 304 then
      odd = odd + 1
      if odd <= 5 then io.stderr:write("status " .. status .. ": " .. body .. "\n") end
   end
end
