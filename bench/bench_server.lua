-- wrk script for bench/bench_server.sh: every request is one step of a game,
-- sent with the sequence number that follows the game.
--
--   [BENCH_SERVER_PAUSE_MS=N] wrk ... -s bench_server.lua URL -- GAMES_FILE NGAMES NTHREADS
--
-- GAMES_FILE holds one "GAME_ID COOKIE" line per game, each game a guest of
-- its own on a one-row level where "r" then "l" walks back and forth. The
-- first NGAMES games are shared out among the threads (game i goes to
-- thread i mod NTHREADS). wrk's Lua cannot tell which connection a request
-- or an answer belongs to, so each thread keeps a queue of idle games:
-- request() takes the oldest one, response() reads the game's id and seq
-- from the answer and puts the game back. A game is therefore never in two
-- requests at once, and every step carries the right seq. With NGAMES a
-- little above the connection count, each connection has a game of its
-- own at any moment. With a pause, each connection waits that long after
-- an answer before its next step, as a player would: the load is then set
-- by the connections, not by how fast the server answers.
--
-- done() prints one line, "RESULT key=value ...", for the shell script.

local threads = {}
local next_id = 0

function setup(thread)
   thread:set("thread_index", next_id)
   next_id = next_id + 1
   table.insert(threads, thread)
end

local queue = {}      -- idle games: {id, cookie, seq}
local head, tail = 1, 0
local by_id = {}
local path_of = {}
answered, refused, duplicates, unreadable, starved = 0, 0, 0, 0, 0

function init(args)
   local file, ngames, nthreads = args[1], tonumber(args[2]), tonumber(args[3])
   local i = 0
   for line in io.lines(file) do
      if i >= ngames then break end
      if i % nthreads == thread_index then
         local id, cookie = line:match("^(%d+) (%S+)$")
         local g = {id = tonumber(id), cookie = cookie, seq = 0}
         by_id[g.id] = g
         path_of[g.id] = "/api/v1/games/" .. id .. "/log"
         tail = tail + 1
         queue[tail] = g
      end
      i = i + 1
   end
end

-- Defined only with a pause: wrk then waits before each request.
local pause_ms = tonumber(os.getenv("BENCH_SERVER_PAUSE_MS") or "0")
if pause_ms > 0 then
   function delay()
      return pause_ms
   end
end

function request()
   if head > tail then
      -- Never expected with spare games: a harmless read keeps wrk going.
      starved = starved + 1
      return wrk.format("GET", "/api/v1/collections")
   end
   local g = queue[head]
   queue[head] = nil
   head = head + 1
   local seq = g.seq + 1
   -- Entries 1, 3, 5 ... step right from the start, 2, 4 ... step back.
   local step = seq % 2 == 1 and "r" or "l"
   local headers = {
      ["Content-Type"] = "application/json",
      ["Cookie"] = g.cookie,
   }
   local body = '{"seq":' .. seq .. ',"steps":"' .. step .. '"}'
   return wrk.format("POST", path_of[g.id], headers, body)
end

function response(status, headers, body)
   -- The game object starts with its id; its seq comes later (its level,
   -- nested further on, has an id but no seq).
   local at, id = body:match('()"game":{"id":(%d+)')
   local seq = at and body:match('"seq":(%d+)', at)
   if status ~= 200 then
      refused = refused + 1
   elseif body:find('"duplicate":true', 1, true) then
      duplicates = duplicates + 1
   else
      answered = answered + 1
   end
   if id == nil or seq == nil then
      if status == 200 and body:find('"collections"', 1, true) then return end
      unreadable = unreadable + 1
      return
   end
   -- Refused or not, the answer holds the game as it stands: adopt it.
   local g = by_id[tonumber(id)]
   if g == nil then
      unreadable = unreadable + 1
      return
   end
   g.seq = tonumber(seq)
   tail = tail + 1
   queue[tail] = g
end

function done(summary, latency, requests)
   local sums = {answered = 0, refused = 0, duplicates = 0, unreadable = 0, starved = 0}
   for _, t in ipairs(threads) do
      for k in pairs(sums) do
         sums[k] = sums[k] + (t:get(k) or 0)
      end
   end
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d seconds=%.3f p50_us=%d p99_us=%d max_us=%d " ..
      "connect=%d read=%d write=%d timeout=%d status=%d " ..
      "accepted=%d refused=%d duplicates=%d unreadable=%d starved=%d\n",
      summary.requests, summary.duration / 1e6,
      latency:percentile(50), latency:percentile(99), latency.max,
      e.connect, e.read, e.write, e.timeout, e.status,
      sums.answered, sums.refused, sums.duplicates, sums.unreadable, sums.starved))
end
