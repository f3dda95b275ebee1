#!/usr/bin/env bash
# `sokod generate` prints levels that `sokod check` finds valid, whose
# reference solutions `sokod replay` plays to solved, that `sokod import`
# takes into a fresh database, and prints the same bytes when run again.
# Usage: generate_import.sh SOKOD MIGRATIONS_DIR
set -u
sokod=$1
migrations=$2
. "$(dirname "$0")/tally.sh"
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n%s\n' "$1" "$2"; }

args=(generate --seed 77 --count 6 --width 8-11 --height 8-10 --boxes 2-3 --candidates 2
      --title "CLI test" --collection "CLI test" --comment "Made by the CLI test." --sort)
"$sokod" "${args[@]}" >"$tmp/a.sok" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok "sokod ${args[*]}" || fail "sokod ${args[*]} exited $rc" "$(cat "$tmp/err")"

out=$("$sokod" check "$tmp/a.sok" 2>&1)
[ "$(tail -n 1 <<<"$out")" = "levels: 6, valid: 6, invalid: 0" ] && ok "check: 6 valid levels" ||
  fail "sokod check of the generated file: expected \"levels: 6, valid: 6, invalid: 0\"" "$out"

titles=$(grep -c '^Title: CLI test [1-6]$' "$tmp/a.sok")
authors=$(grep -c '^Author: sokod$' "$tmp/a.sok")
[ "$titles" = 6 ] && [ "$authors" = 7 ] && ok "titles and authors" ||
  fail "expected 6 titles and 7 'Author: sokod' lines (collection and levels), got $titles and $authors" \
    "$(cat "$tmp/a.sok")"

out=$("$sokod" replay "$tmp/a.sok" 2>&1)
[ "$(tail -n 1 <<<"$out")" = "solutions: 6, solved: 6, failed: 0" ] && ok "replay: 6 solved" ||
  fail "sokod replay of the generated file: expected \"solutions: 6, solved: 6, failed: 0\"" "$out"

# The scores printed in the comments go up, as --sort asks.
scores=$(sed -n 's/^Comment: Seed [0-9]*, [a-z]* shape, difficulty score \([0-9]*\)\.$/\1/p' "$tmp/a.sok")
if [ "$(wc -l <<<"$scores")" = 6 ] && [ "$scores" = "$(sort -n <<<"$scores")" ]; then
  ok "sorted by score: $(tr '\n' ' ' <<<"$scores")"
else
  fail "expected 6 scores in increasing order" "$scores"
fi

"$sokod" "${args[@]}" --jobs 3 >"$tmp/b.sok" 2>/dev/null
cmp -s "$tmp/a.sok" "$tmp/b.sok" && ok "same bytes again, on 3 threads" ||
  fail "a second run (--jobs 3) printed other levels" "$(diff "$tmp/a.sok" "$tmp/b.sok" | head -40)"

"$sokod" generate --seed 78 --count 1 --width 8 --height 8 --boxes 2 >"$tmp/c.sok" 2>/dev/null
cmp -s "$tmp/a.sok" "$tmp/c.sok" && fail "another seed printed the same file" "" ||
  ok "another seed prints another level"

out=$("$sokod" import --db "$tmp/db.sqlite" --migrations "$migrations" "$tmp/a.sok" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = "imported: 6, invalid: 0, duplicates: 0" ] &&
  ok "import: 6 levels" ||
  fail "sokod import (exit $rc): expected \"imported: 6, invalid: 0, duplicates: 0\"" "$out"

for bad in "--boxes 0" "--boxes 9" "--width 4" "--width 12-8" "--shape round" "--count 0"; do
  # shellcheck disable=SC2086
  "$sokod" generate $bad >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] && ok "generate $bad: usage error" ||
    fail "sokod generate $bad exited $rc, expected 2" "$(cat "$tmp/err")"
done
tally_end
