#!/usr/bin/env bash
# A leaderboard of 100,000 players: one level whose board holds 120,000
# solutions of 100,000 accounts (a fifth with a second, a tenth hinted),
# written straight into the database (the triggers that keep the boards
# run for each). Then, over HTTP, the top 10 by moves and by pushes, as
# nobody and as a player ranked deep in the board (its own rank is a count
# over the board's index): the time of one request with curl, then
# requests per second with wrk.
#
# Usage: bench/bench_leaderboard.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build-bench}" && pwd)
sokod=$build/sokod
here=$(cd "$(dirname "$0")" && pwd)
. "$here/support/bench.sh"
bench_begin

# wrk, curl and the sqlite3 shell from Debian, for this benchmark only.
bench_install_missing wrk curl sqlite3

players=${BENCH_PLAYERS:-100000}
mkdir -p "$tmp/levels"
cat >"$tmp/levels/room.sok" <<'LEVELS'
#########
#       #
#@ $  . #
#       #
#########
Title: Open room
LEVELS

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

start() {
  bench_serve --port 0 --db "$tmp/db.sqlite" --levels "$tmp/levels" --solver-seconds 0
}
stop() {
  kill "$pid" && wait "$pid" || true
  pid=
}

start
stop
t0=$(now)
sqlite3 "$tmp/db.sqlite" <<SQL
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $players)
INSERT INTO users (username, password_hash, guest, created_at)
SELECT 'player' || i, 'none', 0, 1700000000 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $players + $players / 5)
INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at, hints)
SELECT 1 + (i - 1) % $players, 1, 4 + abs(random() % 400), 3 + abs(random() % 60), 'x' || i,
       1700000000 + i, CASE WHEN i % 10 = 0 THEN 1 ELSE 0 END FROM n;
COMMIT;
SQL
t1=$(now)
entries=$(sqlite3 "$tmp/db.sqlite" "SELECT count(*) FROM board_entries")
echo "seeded $players players, $((players + players / 5)) solutions ($entries board entries) in $(seconds "$t0" "$t1") s"

start
jar=$tmp/cookies
curl -s -c "$jar" -b "$jar" -H 'Content-Type: application/json' \
  -d '{"username":"latecomer","password":"benchmark password"}' "$url/api/v1/account/signup" >/dev/null
game=$(curl -s -c "$jar" -b "$jar" -H 'Content-Type: application/json' -d '{}' \
  "$url/api/v1/levels/1/game" | grep -o '"game":{"id":[0-9]*' | grep -o '[0-9]*$')
# A long line: up and down many times, then the box home, deep in the board.
line=$(printf 'ud%.0s' $(seq 150))rrrr
curl -s -c "$jar" -b "$jar" -H 'Content-Type: application/json' \
  -d "{\"seq\":1,\"steps\":\"$line\"}" "$url/api/v1/games/$game/log" >/dev/null
cookie=$(awk '$6 == "sokod_session" { print $6 "=" $7 }' "$jar")
rank=$(curl -s -b "$jar" "$url/api/v1/levels/1/leaderboard?by=moves" |
  grep -o '"you":{"rank":[0-9]*' | head -n 1 | grep -o '[0-9]*$')
echo "the signed-in player ranks $rank by moves"

one() { # LABEL PATH [COOKIE]
  local total=0 n=50 t
  for _ in $(seq $n); do
    t=$(curl -s -o /dev/null -w '%{time_total}' ${3:+-H "Cookie: $3"} "$url$2")
    total=$(awk -v a="$total" -v b="$t" 'BEGIN { print a + b }')
  done
  printf '%-44s %8.2f ms per request (curl, mean of %d)\n' "$1" \
    "$(awk -v t="$total" -v n=$n 'BEGIN { print t * 1000 / n }')" $n
}
one "top 10 by moves, nobody" "/api/v1/levels/1/leaderboard?by=moves"
one "top 10 by pushes, nobody" "/api/v1/levels/1/leaderboard?by=pushes"
one "top 10 by moves + own rank" "/api/v1/levels/1/leaderboard?by=moves" "$cookie"
one "top 100 by pushes + own rank" "/api/v1/levels/1/leaderboard?by=pushes&limit=100" "$cookie"
one "one solution" "/api/v1/solutions/12345"

for c in "" "$cookie"; do
  out=$(wrk -t2 -c16 -d5s ${c:+-H "Cookie: $c"} "$url/api/v1/levels/1/leaderboard?by=moves")
  printf 'wrk, 16 connections, %-22s %s requests/s, latency %s\n' \
    "$([ -n "$c" ] && echo "with own rank:" || echo "nobody:")" \
    "$(printf '%s' "$out" | awk '/Requests\/sec/ { print $2 }')" \
    "$(printf '%s' "$out" | awk '/Latency/ { print $2 " mean, " $4 " max" }')"
done
stop
