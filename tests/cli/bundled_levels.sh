#!/usr/bin/env bash
# Every collection sokod ships must be valid and every reference solution in
# it must solve its level: `sokod check` and `sokod replay` on levels/.
# Usage: bundled_levels.sh SOKOD LEVELS_DIR
set -u
sokod=$1
dir=$2
shopt -s nullglob
files=("$dir"/*.sok "$dir"/*.xsb)
passed=0
failed=0
if [ ${#files[@]} -eq 0 ]; then
  echo "FAIL no collection found in $dir"
  echo "0 passed, 1 failed"
  exit 1
fi
for f in "${files[@]}"; do
  if out=$("$sokod" check "$f" 2>&1); then
    passed=$((passed + 1))
    echo "ok   check $f: $(tail -n 1 <<<"$out")"
  else
    failed=$((failed + 1))
    printf 'FAIL sokod check %s\n%s\n' "$f" "$out"
  fi
  out=$("$sokod" replay "$f" 2>&1)
  rc=$?
  summary=$(tail -n 1 <<<"$out")
  levels=$("$sokod" check "$f" 2>/dev/null | tail -n 1 | sed -n 's/^levels: \([0-9]*\),.*/\1/p')
  # Each bundled level carries a reference solution, and every one solves.
  if [ $rc -eq 0 ] && [ "$summary" = "solutions: $levels, solved: $levels, failed: 0" ]; then
    passed=$((passed + 1))
    echo "ok   replay $f: $summary"
  else
    failed=$((failed + 1))
    printf 'FAIL sokod replay %s (exit %d): expected "solutions: %s, solved: %s, failed: 0"\n%s\n' \
      "$f" "$rc" "$levels" "$levels" "$out"
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
