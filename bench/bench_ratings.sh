#!/usr/bin/env bash
# Ratings at scale: a library of BENCH_LEVELS levels (10,000) in one
# collection, BENCH_PLAYERS players (1,000) with BENCH_SOLVED solved games
# each (5) and as many given up (ten entries, last changed eight days
# ago), all written straight into the database. Then sokod starts, and
# the figures are:
#   - the rating pass: the time until every level has its prior, and until
#     every attempt is rated; the write time per attempt (from /metrics,
#     sokod_rating_write_seconds_total over sokod_rated_attempts_total);
#   - the library's listing (GET /api/v1/levels), for every filter and
#     sort, as a player with a game on every tenth level and a solution
#     of every twentieth: the median of BENCH_RUNS (11) requests' time with
#     curl, a page of 50 across every collection.
#
# Usage: bench/bench_ratings.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build-bench}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/support/bench.sh"
bench_begin
bench_install_missing curl sqlite3

levels=${BENCH_LEVELS:-10000}
players=${BENCH_PLAYERS:-1000}
solved=${BENCH_SOLVED:-5}
runs=${BENCH_RUNS:-11}
db=$tmp/db.sqlite
mkdir -p "$tmp/nolevels"
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# The schema, and the player whose listing is timed.
bench_serve --port 0 --db "$db" --levels "$tmp/nolevels" --solver-seconds 0 --rating-interval 3600
jar=$tmp/cookies
curl -s -c "$jar" -b "$jar" -H 'Content-Type: application/json' \
  -d '{"username":"lister","password":"benchmark password"}' "$url/api/v1/account/signup" >/dev/null
kill "$pid" && wait "$pid" || true
pid=

t0=$(now)
start=$(( $(date +%s) - 8 * 86400 ))
sqlite3 "$db" <<SQL
PRAGMA foreign_keys = ON;
BEGIN;
INSERT INTO collections (name, source, created_at) VALUES ('bench', 'bench.sok', $start);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $levels)
INSERT INTO levels (collection_id, position, title, board, width, height, boxes, canonical_hash,
                    created_at, comment)
SELECT c.id, i, 'Level ' || i, '#####|#@\$.#|#####', 5 + i % 40, 3 + i % 30, 1 + i % 12,
       printf('%016x', i), $start,
       CASE WHEN i % 2 = 0 THEN 'difficulty score ' || (i % 300) || '.' ELSE '' END
FROM n, collections c WHERE c.name = 'bench';
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $players)
INSERT INTO users (username, password_hash, guest, created_at)
SELECT 'player' || i, 'none', 0, $start FROM n;
-- Each player: games on 2 * solved levels, the first half solved.
WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 2 * $solved - 1)
INSERT INTO games (user_id, level_id, seq, created_at, updated_at)
SELECT u.id, (SELECT min(id) FROM levels) + (u.id * 7919 + k.j * 104729) % $levels, 10, $start, $start
FROM users u, k WHERE u.username LIKE 'player%';
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 10)
INSERT INTO game_log (game_id, seq, kind, steps, created_at)
SELECT g.id, s.i, 'steps', 'r', $start + 20 * s.i FROM games g, s;
INSERT INTO solutions (user_id, level_id, game_id, moves, pushes, lurd, solved_at)
SELECT g.user_id, g.level_id, g.id, 10, 3, 'x' || g.id, $start + 200
FROM games g WHERE g.id % 2 = 0;
-- The listing's player: a game on every tenth level, a solution of every twentieth.
INSERT INTO games (user_id, level_id, seq, created_at, updated_at)
SELECT u.id, l.id, 1, $start, $start FROM users u, levels l
WHERE u.username = 'lister' AND l.position % 10 = 0;
INSERT INTO solutions (user_id, level_id, moves, pushes, lurd, solved_at)
SELECT u.id, l.id, 10, 3, 'l' || l.id, $start FROM users u, levels l
WHERE u.username = 'lister' AND l.position % 20 = 0;
-- The games were written in the past of the pass that made the schema.
UPDATE rating_cursor SET idle_at = 0, idle_game = 0;
COMMIT;
SQL
t1=$(now)
attempts=$(sqlite3 "$db" "SELECT count(*) FROM games g JOIN users u ON u.id = g.user_id WHERE u.username LIKE 'player%'")
echo "seeded: $(sqlite3 "$db" "SELECT count(*) FROM levels") levels, $attempts attempts to rate" \
  "($(sqlite3 "$db" "SELECT count(*) FROM solutions WHERE lurd LIKE 'x%'") solved), in $(seconds "$t0" "$t1") s"

# The rating pass: the first runs as sokod starts.
t0=$(now)
bench_serve --port 0 --db "$db" --levels "$tmp/nolevels" --solver-seconds 0 --rating-interval 1 \
  --rating-given-up-after 86400
[ -n "$url" ] || { cat "$tmp/serve.err"; exit 1; }
until [ "$(sqlite3 "$db" "SELECT count(*) FROM level_ratings")" -ge "$levels" ]; do sleep 0.05; done
t1=$(now)
until [ "$(sqlite3 "$db" "SELECT count(*) FROM rated_games")" -ge "$attempts" ]; do sleep 0.1; done
t2=$(now)
metrics=$(curl -s "$url/metrics")
rated=$(awk '$1 == "sokod_rated_attempts_total" { print $2 }' <<<"$metrics")
write=$(awk '$1 == "sokod_rating_write_seconds_total" { print $2 }' <<<"$metrics")
echo "rating pass: priors of $levels levels within $(seconds "$t0" "$t1") s of the start;" \
  "$rated attempts rated within $(seconds "$t0" "$t2") s"
awk -v w="$write" -v n="$rated" 'BEGIN { printf "rating update: %.1f us of write transaction per attempt (%.3f s for %d)\n", 1e6 * w / n, w, n }'

# The listing, as the player with games and solutions.
median() { sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", 1000 * a[int((NR + 1) / 2)] }'; }
printf '%-10s %-11s %9s %7s\n' filter sort "ms" total
for filter in all unsolved started solved; do
  for sort in order difficulty size boxes solves; do
    q="filter=$filter&sort=$sort&limit=50"
    total=$(curl -s -b "$jar" "$url/api/v1/levels?$q" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')
    ms=$(for _ in $(seq "$runs"); do
      curl -s -o /dev/null -w '%{time_total}\n' -b "$jar" "$url/api/v1/levels?$q"
    done | median)
    printf '%-10s %-11s %9s %7s\n' "$filter" "$sort" "$ms" "$total"
  done
done
q="filter=unsolved&sort=difficulty&order=desc&offset=5000&limit=200"
ms=$(for _ in $(seq "$runs"); do curl -s -o /dev/null -w '%{time_total}\n' -b "$jar" "$url/api/v1/levels?$q"; done | median)
echo "a far page of 200 ($q): $ms ms"
ms=$(for _ in $(seq "$runs"); do curl -s -o /dev/null -w '%{time_total}\n' -b "$jar" "$url/api/v1/levels/next"; done | median)
echo "the next level (GET /api/v1/levels/next): $ms ms"
