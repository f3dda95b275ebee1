#!/usr/bin/env bash
# `sokod optimise`: --help prints the text kept in HELP_DIR/optimise.txt; a
# solution padded with walks to and fro comes back shorter in both metrics,
# and what it prints replays to solved; a solution that does not solve its
# level fails the command.
# Usage: optimise.sh SOKOD HELP_DIR
set -u
sokod=$1
help=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() {
  passed=$((passed + 1))
  echo "ok   $1"
}

fail() {
  failed=$((failed + 1))
  printf 'FAIL %s\n' "$1"
  [ -f "$tmp/out" ] && head -20 "$tmp/out" | sed 's/^/    /'
}

board='#######
#     #
# $$  #
#  #. #
# @  .#
#######'

"$sokod" optimise --help >"$tmp/out" 2>&1
if [ $? -eq 0 ] && cmp -s "$tmp/out" "$help/optimise.txt"; then
  ok "sokod optimise --help"
else
  fail "sokod optimise --help differs from $help/optimise.txt"
fi

printf '%s\n\nSolution\nududuluurDRurDllDldRRR\n' "$board" >"$tmp/padded.sok"
for metric in moves pushes; do
  "$sokod" optimise --metric "$metric" --time-limit 5 "$tmp/padded.sok" >"$tmp/out" 2>&1
  rc=$?
  summary=$(tail -n 1 "$tmp/out")
  if [ $rc -ne 0 ] || [[ "$summary" != "levels: 1, shorter: 1, moves saved: "* ]]; then
    fail "sokod optimise --metric $metric (exit $rc): $summary"
    continue
  fi
  ok "sokod optimise --metric $metric: $summary"
  # The solution printed under the level, replayed.
  solution=$(sed -n '/ -> /{n;s/^ *//;p;}' "$tmp/out")
  printf '%s\n\nSolution\n%s\n' "$board" "$solution" >"$tmp/shorter.sok"
  replay=$("$sokod" replay "$tmp/shorter.sok" 2>&1 | tail -n 1)
  if [ "$replay" = "solutions: 1, solved: 1, failed: 0" ]; then
    ok "its solution replays: $solution"
  else
    fail "its solution $solution does not replay: $replay"
  fi
done

printf '%s\n\nSolution\nuluurDR\n' "$board" >"$tmp/unsolved.sok"
"$sokod" optimise "$tmp/unsolved.sok" >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "not optimised: no solution solves the level" "$tmp/out"; then
  ok "a solution that does not solve its level fails the command"
else
  fail "a solution that does not solve its level: exit $rc"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
