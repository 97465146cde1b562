-- bench/connect.lua: wrk script, POST /connect as the demo editor; run wrk with the
-- mount's URL (…/api).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"client_id":"judge","client_secret":"judge"}'

request = function()
   return wrk.format("POST", wrk.path .. "/connect")
end
