#!/usr/bin/env bash
# The progress line of the long commands: on a terminal (script(1) gives
# the command one), sokod solve and sokod generate --count draw "done/total
# unit (P%), rate, time left" on standard error and take it off before
# they end; sokod backup draws "done/total MiB" while it copies; with --json, or when standard error is not a terminal, they
# write nothing more than before (standard error stays empty).
# Usage: progress.sh SOKOD LEVELS_DIR
set -u
sokod=$1
levels=$2
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
  [ -n "${2:-}" ] && cat -v "$2" | head -8 | sed 's/^/    /'
}
# on_terminal FILE ARGS...: sokod ARGS on a pseudo-terminal, all it wrote in FILE.
on_terminal() {
  local file=$1
  shift
  local cmd
  printf -v cmd '%q ' "$sokod" "$@"
  timeout 120 script -qefc "$cmd" /dev/null </dev/null >"$file" 2>&1
}
file=$levels/tutorial.sok
n=$("$sokod" check "$file" | sed -n 's/^levels: \([0-9]*\),.*/\1/p')
if [ -z "$n" ] || [ "$n" -lt 2 ]; then
  echo "FAIL sokod check $file found no levels to solve"
  exit 1
fi

on_terminal "$tmp/solve" solve --time-limit 10 "$file"
if grep -aq "solve: 1/$n levels ([0-9]*%), [0-9.]*/s, [0-9:]* left" "$tmp/solve"; then
  ok "solve on a terminal: a line like 'solve: 1/$n levels (P%), R/s, M:SS left'"
else
  fail "sokod solve on a terminal drew no 'solve: 1/$n levels (...), .../s, ... left'" "$tmp/solve"
fi
# Each line drawn is taken off (\r, then erase to the end of the line)
# before the level's report, and the summary ends the output alone.
drawn=$(grep -ao 'solve: [0-9]*/' "$tmp/solve" | wc -l)
erased=$(grep -ao $'\033\[K\r\033\[K' "$tmp/solve" | wc -l)
if [ "$drawn" -eq "$n" ] && [ "$erased" -eq "$n" ]; then
  ok "solve: $n lines drawn, each taken off before the level's report"
else
  fail "sokod solve on a terminal: $drawn lines drawn and $erased taken off, expected $n of each" "$tmp/solve"
fi
if [ "$(tail -n 1 "$tmp/solve")" = "levels: $n, solved: $n"$'\r' ]; then
  ok "solve: the summary is the last line, clean"
else
  fail "sokod solve on a terminal: the last line is not 'levels: $n, solved: $n'" "$tmp/solve"
fi
on_terminal "$tmp/solve-json" solve --json --time-limit 10 "$file"
if grep -aq 'solve:' "$tmp/solve-json"; then
  fail "sokod solve --json on a terminal drew a progress line" "$tmp/solve-json"
else
  ok "solve --json on a terminal: no progress line"
fi
"$sokod" solve --time-limit 10 "$file" >"$tmp/out" 2>"$tmp/err"
if [ ! -s "$tmp/err" ] && ! grep -q $'\r' "$tmp/out"; then
  ok "solve with standard error not a terminal: nothing on it"
else
  fail "sokod solve 2>file wrote on standard error or a carriage return" "$tmp/err"
fi

on_terminal "$tmp/generate" generate --count 3 --width 8 --height 8 --boxes 2
if grep -aq 'generate: [1-3]/3 levels ([0-9]*%), [0-9.]*/s' "$tmp/generate"; then
  ok "generate --count 3 on a terminal: a line like 'generate: K/3 levels (P%), R/s'"
else
  fail "sokod generate --count 3 on a terminal drew no 'generate: K/3 levels'" "$tmp/generate"
fi
"$sokod" generate --count 3 --width 8 --height 8 --boxes 2 >"$tmp/out" 2>"$tmp/err"
if [ ! -s "$tmp/err" ]; then
  ok "generate with standard error not a terminal: nothing on it"
else
  fail "sokod generate 2>file wrote on standard error" "$tmp/err"
fi
on_terminal "$tmp/generate-json" generate --json --count 3 --width 8 --height 8 --boxes 2
if grep -aq 'generate:' "$tmp/generate-json"; then
  fail "sokod generate --json on a terminal drew a progress line" "$tmp/generate-json"
else
  ok "generate --json on a terminal: no progress line"
fi
# A database of about 100 MiB, copied long enough for a line or more.
sqlite3 "$tmp/big.db" "PRAGMA journal_mode=WAL; CREATE TABLE t(x);
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 1600)
  INSERT INTO t SELECT randomblob(65536) FROM n;" >/dev/null
total=$(( $(stat -c %s "$tmp/big.db") / 1048576 + 1 ))
on_terminal "$tmp/backup" backup "$tmp/copy.db" --db "$tmp/big.db"
if grep -aq "backup: [0-9]*/$total MiB ([0-9]*%), [0-9.]*/s" "$tmp/backup"; then
  ok "backup on a terminal: a line like 'backup: K/$total MiB (P%), R/s'"
else
  fail "sokod backup on a terminal drew no 'backup: K/$total MiB (P%), R/s'" "$tmp/backup"
fi
if tail -n 1 "$tmp/backup" | grep -aq $'\r\033\[Ksokod backup: [^\r]* copied to [^\r]* and checked\r$'; then
  ok "backup: the line is taken off before the last line"
else
  fail "sokod backup on a terminal: the last line is not the backup's own, alone" "$tmp/backup"
fi
rm -f "$tmp/copy.db"
"$sokod" backup "$tmp/copy.db" --db "$tmp/big.db" >"$tmp/out" 2>"$tmp/err"
if [ ! -s "$tmp/err" ] && [ -s "$tmp/copy.db" ]; then
  ok "backup with standard error not a terminal: nothing on it"
else
  fail "sokod backup 2>file wrote on standard error, or made no copy" "$tmp/err"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
