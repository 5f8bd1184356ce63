-- wrk's script for npm run bench (scripts/bench/wrk.ts): the requests of a file, in order.
--   wrk -s scripts/bench/wrk-requests.lua <origin> -- <file> cycle|once
-- The file's first line holds the fields every request carries, then one request per line:
-- method, path, body and fields, tab-separated, each field "name: value". `cycle` starts the
-- file again at its end; `once` repeats the last request, which the server refuses as a replay,
-- so a run that needs more requests than were drawn shows errors. `done` prints one line of
-- JSON: the run's count, duration and failures, and its latency at every tenth of a percentile.
local function fields(line)
  local out = {}
  for field in (line .. "\t"):gmatch("([^\t]*)\t") do out[#out + 1] = field end
  return out
end

local function header(target, field)
  local name, value = field:match("^([^:]+): (.*)$")
  if name then target[name] = value end
end

local formatted, cycle, next_line = {}, false, 0

-- Each request is formatted here, once, rather than on every call: the measured servers share
-- the machine's cores with wrk, and formatting each request took about half of the CPU wrk
-- spent outside the kernel.
function init(args)
  local common, first = {}, true
  for line in io.lines(args[1]) do
    if first then
      for _, field in ipairs(fields(line)) do header(common, field) end
      first = false
    else
      local parts = fields(line)
      local headers = {}
      for name, value in pairs(common) do headers[name] = value end
      for i = 4, #parts do header(headers, parts[i]) end
      formatted[#formatted + 1] = wrk.format(parts[1], parts[2], headers, parts[3] ~= "" and parts[3] or nil)
    end
  end
  cycle = args[2] == "cycle"
end

function request()
  next_line = next_line + 1
  if next_line > #formatted then next_line = cycle and 1 or #formatted end
  return formatted[next_line]
end

function done(summary, latency, requests)
  local errors = summary.errors
  local quantiles = {}
  for i = 1, 1000 do quantiles[i] = string.format("%d", latency:percentile(i / 10)) end
  io.write(string.format('{"requests":%d,"microseconds":%d,"failed":%d,"latencyQuantilesUs":[%s]}\n', summary.requests, summary.duration,
    errors.connect + errors.read + errors.write + errors.status + errors.timeout, table.concat(quantiles, ",")))
end
