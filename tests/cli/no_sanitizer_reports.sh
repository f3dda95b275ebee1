#!/usr/bin/env bash
# Runs a test command with the sanitizer reports of every process it starts
# written to files (the log_path of ASan, LSan and UBSan) rather than to a
# stderr the test may swallow or expect to be non-empty, and fails when any
# was written, printing them. Usage: no_sanitizer_reports.sh COMMAND ARGS...
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ASAN_OPTIONS="log_path=$dir/report${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="log_path=$dir/report:print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
"$@"
status=$?
if compgen -G "$dir/report*" >/dev/null; then
  echo "FAIL: a process of '$*' printed a sanitizer report:"
  cat "$dir"/report*
  exit 1
fi
exit "$status"
