#!/usr/bin/env bash
# Hint latency through the HTTP API: the first hint of every tutorial level
# and of a sample of Microban levels (from their start), and the "lost"
# answer with its search back on a tutorial level, then hints on XSokoban
# levels from positions along a known solution (its start, halfway, and
# nine tenths in), where players need them most. Prints per position what
# the hint said, the solver's time in sokod (the answer's "ms") and the
# request's wall-clock time, and for XSokoban a tally per point of the
# solution. Microban and XSokoban are read from the shared collections
# into a temporary folder.
#
# Usage: bench/bench_hint.sh BUILD_DIR [XSOKOBAN_LEVELS]
# (XSOKOBAN_LEVELS: numbers separated by spaces; a sample of solved and
# unsolved ones by default.)
set -euo pipefail
build=$(cd "${1:-build-bench}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
shared=${SOKOD_SHARED_DIR:-$here/../../shared}
. "$here/support/bench.sh"
bench_begin

mkdir "$tmp/levels"
cp "$here/../levels/tutorial.sok" "$tmp/levels/"
cp "$shared/levels/Microban_155.xsb" "$tmp/levels/microban.xsb"
cp "$shared/levels/XSokoban_90.xsb" "$tmp/levels/xsokoban.xsb"
bench_serve --port 0 --db "$tmp/sokod.db" --levels "$tmp/levels" --solver-seconds 0
jar=$tmp/cookies
api() { # METHOD PATH [BODY]: prints the body, then the wall-clock seconds on a last line
  curl -s -b "$jar" -c "$jar" -H 'Content-Type: application/json' -X "$1" "$url$2" \
    ${3:+--data-binary "$3"} -w '\n%{time_total}\n'
}
body() { head -n -1; }

collection_levels() { # NAME: the ids of its levels, in order
  local id
  id=$(api GET /api/v1/collections | body | jq -r --arg n "$1" '.collections[] | select(.name | test($n; "i")) | .id')
  api GET "/api/v1/collections/$id" | body | jq -r '.levels[].id'
}

hint_line() { # LABEL GAME_ID: asks one hint from where the game stands
  local out kind ms wall
  out=$(api POST "/api/v1/games/$2/hint" '{}')
  wall=$(printf '%s\n' "$out" | tail -n 1)
  kind=$(printf '%s\n' "$out" | body | jq -r '(.hint.kind // ("error " + .error.code)) + (if .hint.undo then " (undo \(.hint.undo))" else "" end)')
  last_kind=$kind
  ms=$(printf '%s\n' "$out" | body | jq -r '.hint.ms')
  printf '%-28s %-18s %7s ms in the solver %9.1f ms per request\n' "$1" "$kind" "$ms" \
    "$(awk -v w="$wall" 'BEGIN { print w * 1000 }')"
}

open_game() { # LEVEL_ID: the game's id
  api POST "/api/v1/levels/$1/game" '{}' | body | jq -r '.game.id'
}

echo "build: $(grep -E '^CMAKE_BUILD_TYPE' "$build/CMakeCache.txt" 2>/dev/null | cut -d= -f2)," \
  "hint limit $("$build/sokod" serve --help | grep -o 'hint-seconds[^(]*(default [0-9.]*' | grep -o '[0-9.]*$') s"
mapfile -t tutorial < <(collection_levels 'First Steps')
n=1
for level in "${tutorial[@]}"; do
  hint_line "tutorial $n" "$(open_game "$level")"
  n=$((n + 1))
done
# "Corners are traps" lost after rlLrr: the search back takes three more searches.
game=$(open_game "${tutorial[3]}")
api POST "/api/v1/games/$game/log" '{"seq":1,"steps":"rlLrr"}' >/dev/null
hint_line "tutorial 4, lost after rlLrr" "$game"

mapfile -t microban < <(collection_levels 'icroban')
for n in 1 2 5 10 20 40 60 80 100 120 140 155; do
  hint_line "Microban $n" "$(open_game "${microban[$((n - 1))]}")"
done

# XSokoban: the first solution given for each level in the shared file of
# solutions, in level order.
solution_of() { # N: the LURD of level N's first solution
  awk -v want="$1" '/^screen\./ { level++; taken = 0 }
    /^Solution/ && level == want && !taken { getline; print; taken = 1 }' \
    "$shared/levels/solutions/XSokoban_90.with-solutions.sok"
}
mapfile -t xsokoban < <(collection_levels '^xsokoban')
echo
echo "XSokoban, hints from positions along a known solution:"
declare -A tally
for n in ${2:-1 2 3 6 9 10 17 21 27 38 43 54 60 70 78 86 89}; do
  lurd=$(solution_of "$n")
  if [ -z "$lurd" ]; then
    echo "XSokoban $n: no solution in the shared file, skipped"
    continue
  fi
  for tenth in 0 5 9; do
    game=$(open_game "${xsokoban[$((n - 1))]}")
    # Back to the level's start (an earlier point of this level was played).
    api POST "/api/v1/games/$game/log" "$(jq -nc --argjson s "$(api GET "/api/v1/games/$game" | body |
      jq '.game.seq')" '{seq: ($s + 1), restart: true}')" >/dev/null
    steps=$(( ${#lurd} * tenth / 10 ))
    if [ "$steps" -gt 0 ]; then
      seq=$(api GET "/api/v1/games/$game" | body | jq '.game.seq')
      played=$(api POST "/api/v1/games/$game/log" "$(jq -nc --arg s "${lurd:0:$steps}" --argjson q "$((seq + 1))" \
        '{seq: $q, steps: $s}')" | body | jq -r '.game.moves // ("refused: " + .error.code)')
      if [ "$played" != "$steps" ]; then
        echo "XSokoban $n: the solution's first $steps steps were not played ($played), skipped"
        continue
      fi
    fi
    hint_line "XSokoban $n at $tenth/10 ($steps)" "$game"
    key="$tenth ${last_kind%% *}"
    tally[$key]=$(( ${tally[$key]:-0} + 1 ))
  done
done
echo "tally (point of the solution, answer: positions):"
for key in "${!tally[@]}"; do echo "  $key: ${tally[$key]}"; done | sort
