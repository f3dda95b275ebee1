#!/usr/bin/env bash
# The manual page lists what --help lists: every command of `sokod --help`
# has its section in sokod.1, and every flag and variable of
# `sokod COMMAND --help` is in that section; man renders the page without
# a warning. Usage: manpage.sh SOKOD MANPAGE
set -u
sokod=$1
page=$2
passed=0
failed=0
fail() {
  failed=$((failed + 1))
  printf 'FAIL %s\n' "$1"
}

if [ ! -s "$page" ]; then
  echo "FAIL no manual page at $page"
  exit 1
fi
commands=$("$sokod" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
if [ -z "$commands" ]; then
  echo "FAIL sokod --help lists no command"
  exit 1
fi
for c in $commands; do
  [ "$c" = version ] && continue
  # The section of the command: from its .SS line to the next heading.
  section=$(awk -v head=".SS \"sokod $c\"" '$0 == head {on = 1; next} on && /^\.S[SH] / {exit} on' "$page")
  if [ -z "$section" ]; then
    fail "sokod.1 has no section .SS \"sokod $c\""
    continue
  fi
  passed=$((passed + 1))
  help=$("$sokod" "$c" --help)
  for f in $(printf '%s\n' "$help" | grep -o '^  --[a-z][a-z0-9-]*' | sed 's/^  //'); do
    roff="\\fB$(printf '%s' "$f" | sed 's/-/\\-/g')\\fR"
    if printf '%s\n' "$section" | grep -qF -- "$roff"; then
      passed=$((passed + 1))
    else
      fail "sokod $c --help lists $f; its section of sokod.1 does not ($roff)"
    fi
  done
  for v in $(printf '%s\n' "$help" | grep -o '\[\$[A-Z_]*\]' | tr -d '[]$'); do
    if printf '%s\n' "$section" | grep -qF -- "$v"; then
      passed=$((passed + 1))
    else
      fail "sokod $c --help names \$$v; its section of sokod.1 does not"
    fi
  done
done
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
if [ -z "$warnings" ]; then
  passed=$((passed + 1))
else
  fail "man --warnings -l $page:"$'\n'"$warnings"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
