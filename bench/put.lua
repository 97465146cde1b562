-- bench/put.lua: wrk script, lane PUTs on the benchmark's large competition.
-- Each request writes the score of a random lane of the 4,000 (see bench/large.sql),
-- through the variant A route; run wrk with the mount's URL (…/api) and the token
-- in -H "Authorization: Bearer …".
local counter = 0
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"

request = function()
   counter = counter + 1
   local k = math.random(0, 3999)
   local heat = math.floor(k / 10)
   local path = string.format("%s/competition/100/zone/%d/heat/%d/voie/%d",
                              wrk.path, 300001 + heat % 8, 400001 + heat, 500001 + k)
   local body = string.format('{"score":"%d reps"}', counter)
   return wrk.format("PUT", path, nil, body)
end
