-- wrk script for bench/lib/wrk.mjs: GET requests with the given headers, each for a random
-- `span`-byte range of a `size`-byte file (span 0: the whole file, no Range header). Arguments
-- after `--`: size, span, then header name/value pairs. Prints one JSON line, prefixed WRK_JSON.
local size, span, headers = 0, 0, {}

function init(args)
  size = tonumber(args[1])
  span = tonumber(args[2])
  for i = 3, #args - 1, 2 do
    headers[args[i]] = args[i + 1]
  end
  -- Each thread its own sequence of ranges.
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

function request()
  if span > 0 then
    local start = math.random(0, size - span)
    headers["Range"] = "bytes=" .. start .. "-" .. (start + span - 1)
  end
  return wrk.format("GET", nil, headers)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"bytes":%d,"durationUs":%d,"badStatus":%d,"socketErrors":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.bytes, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
