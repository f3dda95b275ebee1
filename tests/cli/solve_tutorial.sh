#!/usr/bin/env bash
# `sokod solve` is reachable from the command line and solves the bundled
# tutorial; each solution it prints must replay to solved on its level.
# Usage: solve_tutorial.sh SOKOD LEVELS_DIR
set -u
sokod=$1
file=$2/tutorial.sok
levels=$("$sokod" check "$file" | tail -n 1 | sed -n 's/^levels: \([0-9]*\),.*/\1/p')
out=$("$sokod" solve --time-limit 20 "$file" 2>&1)
rc=$?
summary=$(tail -n 1 <<<"$out")
failed=0
if [ $rc -ne 0 ] || [ -z "$levels" ] || [ "$summary" != "levels: $levels, solved: $levels" ]; then
  printf 'FAIL sokod solve %s (exit %d): expected "levels: %s, solved: %s"\n%s\n' \
    "$file" "$rc" "$levels" "$levels" "$out"
  failed=1
else
  echo "ok   sokod solve $file: $summary"
fi
# Put each printed solution under its level and replay the lot.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$sokod" solve --time-limit 20 --json "$file" >"$tmp/solve.json" 2>/dev/null
node -e '
  const fs = require("fs");
  const [json, src, out] = process.argv.slice(1);
  const result = JSON.parse(fs.readFileSync(json, "utf8"));
  const levels = result.files?.[0]?.levels ?? [];
  const boards = fs.readFileSync(src, "utf8").split(/\n\n+/).filter((b) => b.includes("#"))
    .map((b) => b.split("\n").filter((l) => /^[ #@+$*.]+$/.test(l) && l.includes("#")).join("\n"))
    .filter((b) => b.length > 0);
  const text = levels.map((l, i) => `${boards[i]}\n\nSolution\n${l.solution ?? l.lurd ?? ""}\n`).join("\n");
  fs.writeFileSync(out, text);
' "$tmp/solve.json" "$file" "$tmp/solved.sok"
replay=$("$sokod" replay "$tmp/solved.sok" 2>&1 | tail -n 1)
if [ "$replay" = "solutions: $levels, solved: $levels, failed: 0" ]; then
  echo "ok   the solver's solutions replay: $replay"
else
  printf 'FAIL the solver'"'"'s solutions do not all replay: %s\n' "$replay"
  "$sokod" replay "$tmp/solved.sok" | head -40
  failed=$((failed + 1))
fi
echo "$((2 - failed)) passed, $failed failed"
[ $failed -eq 0 ]
