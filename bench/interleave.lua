-- bench/interleave.lua: two URLs of one server in one wrk run, in alternate phases of
-- PHASE milliseconds on every connection (A, B, A, B, ...), so that whatever slows the
-- machine down for a moment (this machine's rate moves by 10-30% from one second to the
-- next) weighs on both alike.  bench.pl compares the module's answer with httpd's floor
-- this way (doc/performance.md, "The floor, interleaved").
--
--   wrk -t1 -c K -d S -s bench/interleave.lua URL -- PATH_A PATH_B PHASE [HEADER ...]
--
-- HEADER: "Name: value", sent with both.  At the end it prints one line that bench.pl
-- reads:
--
--   interleave A NA TA B NB TB ab XAB ba XBA
--
-- NA, NB: the requests sent in A's and B's phases; TA, TB: the milliseconds of each
-- (the time from one request sent to the next is its phase's); XAB, XBA: the phase
-- changes from A to B and from B to A.  Each change leaves the K requests in flight to
-- be answered in the other's phase; bench.pl corrects the rates for it.
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } rk_timespec;
int clock_gettime(int clock, rk_timespec *ts);
]]
local ts = ffi.new("rk_timespec")
local CLOCK_MONOTONIC = 1

local function now_ms()
   ffi.C.clock_gettime(CLOCK_MONOTONIC, ts)
   return tonumber(ts.tv_sec) * 1e3 + tonumber(ts.tv_nsec) / 1e6
end

local threads = {}
function setup(thread)
   threads[#threads + 1] = thread
end

-- each thread's own (read by done() through thread:get)
na, nb, ta, tb, xab, xba = 0, 0, 0, 0, 0, 0
local reqs, phase_ms, t0, last_t, last_phase

function init(args)
   assert(args[1] and args[2] and tonumber(args[3]), "usage: -- PATH_A PATH_B PHASE [HEADER ...]")
   phase_ms = tonumber(args[3])
   local headers = {}
   for i = 4, #args do
      local name, value = string.match(args[i], "^([^:]+):%s*(.*)$")
      assert(name, "not a header: " .. args[i])
      headers[name] = value
   end
   reqs = { wrk.format("GET", args[1], headers), wrk.format("GET", args[2], headers) }
end

function request()
   local t = now_ms()
   if not t0 then
      t0, last_t, last_phase = t, t, 0
   end
   local phase = math.floor((t - t0) / phase_ms) % 2
   if phase ~= last_phase then
      if phase == 1 then xab = xab + 1 else xba = xba + 1 end
      last_phase = phase
   end
   if phase == 0 then
      na, ta = na + 1, ta + (t - last_t)
   else
      nb, tb = nb + 1, tb + (t - last_t)
   end
   last_t = t
   return reqs[phase + 1]
end

function done(summary, latency, requests)
   local s = { na = 0, ta = 0, nb = 0, tb = 0, xab = 0, xba = 0 }
   for _, thread in ipairs(threads) do
      for k in pairs(s) do s[k] = s[k] + thread:get(k) end
   end
   io.write(string.format("interleave A %d %.3f B %d %.3f ab %d ba %d\n",
                          s.na, s.ta, s.nb, s.tb, s.xab, s.xba))
end
