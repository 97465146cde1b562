-- bench/mix.lua: wrk script for the memory run, a mix of the read routes with one
-- lane PUT in 500 requests (each PUT changes the data revision, so the answer caches
-- are refilled all along).  Paths come from the environment (BENCH_PATHS, separated
-- by spaces, relative to the mount's URL given to wrk).
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
      local k = math.random(0, 3999)
      local heat = math.floor(k / 10)
      local path = string.format("%s/competition/100/zone/%d/heat/%d/voie/%d",
                                 wrk.path, 300001 + heat % 8, 400001 + heat, 500001 + k)
      local headers = {}
      for h, v in pairs(wrk.headers) do headers[h] = v end
      headers["Content-Type"] = "application/json"
      return wrk.format("PUT", path, headers, string.format('{"score":"%d"}', i))
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
