#!/usr/bin/env bash
# The alert rules of deploy/prometheus: `promtool check rules` finds them
# valid, and `promtool test rules` runs their unit tests (each alert fires
# on the series that should fire it, with its labels and words, and not on
# healthy ones). Exits 77 (skipped) when promtool, from Debian's prometheus
# package, is not installed. Usage: rules.sh DEPLOY_DIR
set -u
dir=$1/prometheus
if ! command -v promtool >/dev/null 2>&1; then
  echo "promtool not found (Debian's prometheus package): the alert rules are not checked"
  exit 77
fi
failed=0
for f in "$dir"/*.yml; do
  case $f in *.test.yml) continue ;; esac
  if out=$(promtool check rules "$f" 2>&1); then
    echo "ok   promtool check rules $(basename "$f"): $(printf '%s\n' "$out" | grep -o '[0-9]* rules found')"
  else
    failed=1
    printf 'FAIL promtool check rules %s\n%s\n' "$f" "$out"
  fi
done
for t in "$dir"/*.test.yml; do
  if out=$(cd "$dir" && promtool test rules "$(basename "$t")" 2>&1); then
    echo "ok   promtool test rules $(basename "$t")"
  else
    failed=1
    printf 'FAIL promtool test rules %s\n%s\n' "$t" "$out"
  fi
done
exit "$failed"
