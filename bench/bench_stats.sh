#!/usr/bin/env bash
# The statistics of a heavy player (GET /api/v1/account/stats) on the
# bundled library: a player who solved every level (one game on each,
# BENCH_ENTRIES log entries in all, spread over the last 100 days), among
# BENCH_PLAYERS others who each solved 500 levels (the boards the best
# known moves are read from). Rows are written straight into the database
# (the boards' triggers run for each). Then, over HTTP, the time of one
# request with curl, as that player and as a player of no history.
#
# Usage: bench/bench_stats.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build-bench}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
levels=$(cd "$here/../levels" && pwd)
. "$here/support/bench.sh"
bench_begin
bench_install_missing curl sqlite3

players=${BENCH_PLAYERS:-200}
entries=${BENCH_ENTRIES:-100000}
db=$tmp/db.sqlite
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

bench_serve --port 0 --db "$db" --levels "$levels" --solver-seconds 0
jar=$tmp/cookies
curl -s -c "$jar" -b "$jar" -H 'Content-Type: application/json' \
  -d '{"username":"heavy","password":"benchmark password"}' "$url/api/v1/account/signup" >/dev/null
cookie=$(awk '$6 == "sokod_session" { print $6 "=" $7 }' "$jar")
kill "$pid" && wait "$pid" || true
pid=

t0=$(now)
start=$(( $(date +%s) - 100 * 86400 ))
sqlite3 "$db" <<SQL
PRAGMA foreign_keys = ON;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $players)
INSERT INTO users (username, password_hash, guest, created_at)
SELECT 'other' || i, 'none', 0, $start FROM n;
INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at)
SELECT u.id, l.id, 10 + abs(random() % 300), 5 + abs(random() % 60), 'x' || u.id || '-' || l.id,
       $start + abs(random() % 8640000)
FROM users u JOIN levels l ON l.id % $players = u.id % $players OR l.id % 4 = 0
WHERE u.username LIKE 'other%';
INSERT INTO games (user_id, level_id, seq, created_at, updated_at)
SELECT u.id, l.id, 0, $start, $start FROM users u, levels l WHERE u.username = 'heavy';
INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at)
SELECT u.id, l.id, 10 + abs(random() % 300), 5 + abs(random() % 60), 'h' || l.id,
       $start + abs(random() % 8640000)
FROM users u, levels l WHERE u.username = 'heavy';
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $entries - 1),
games_n AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS c FROM games)
INSERT INTO game_log (game_id, seq, kind, steps, created_at)
SELECT g.id, 1 + n.i / g.c, 'steps', 'r', $start + n.i * (8640000 / $entries)
FROM n JOIN games_n g ON g.k = n.i % g.c;
COMMIT;
SQL
t1=$(now)
echo "seeded: $(sqlite3 "$db" "SELECT count(*) FROM levels") levels, $(sqlite3 "$db" "SELECT count(*) FROM solutions") solutions, $(sqlite3 "$db" "SELECT count(*) FROM board_entries") board entries, $(sqlite3 "$db" "SELECT count(*) FROM game_log") log entries in $(seconds "$t0" "$t1") s"

bench_serve --port 0 --db "$db" --levels "$levels" --solver-seconds 0
one() { # LABEL [COOKIE]
  local total=0 n=20 t
  for _ in $(seq $n); do
    t=$(curl -s -o /dev/null -w '%{time_total}' ${2:+-H "Cookie: $2"} "$url/api/v1/account/stats")
    total=$(awk -v a="$total" -v b="$t" 'BEGIN { print a + b }')
  done
  printf '%-52s %8.2f ms per request (curl, mean of %d)\n' "$1" \
    "$(awk -v t="$total" -v n=$n 'BEGIN { print t * 1000 / n }')" $n
}
size=$(curl -s -H "Cookie: $cookie" "$url/api/v1/account/stats" | wc -c)
echo "the heavy player's answer: $size bytes"
one "stats, no session" ""
one "stats, the heavy player" "$cookie"
