# tally.sh, sourced by the CLI test scripts: a temporary folder $tmp that
# goes at exit, the counts of checks $passed and $failed, and tally_end, the
# script's last word, which prints the counts and fails when any check did.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

tally_end() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
