-- wrk script for the nginx runs of bench/bench_server.sh: plain GETs of a
-- tiny static file, with done() printing the same "RESULT ..." line as
-- bench_server.lua (without the game counts), and the same pause.
local pause_ms = tonumber(os.getenv("BENCH_SERVER_PAUSE_MS") or "0")
if pause_ms > 0 then
   function delay()
      return pause_ms
   end
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d seconds=%.3f p50_us=%d p99_us=%d max_us=%d " ..
      "connect=%d read=%d write=%d timeout=%d status=%d\n",
      summary.requests, summary.duration / 1e6,
      latency:percentile(50), latency:percentile(99), latency.max,
      e.connect, e.read, e.write, e.timeout, e.status))
end
