#!/usr/bin/env bash
# Runs `sokod check` and `sokod replay` and checks their exit codes and the
# lines they print. Usage: check_replay.sh SOKOD LEVELS_DIR
# On a failure it prints the command, what was expected and what came out.
set -u
sokod=$1
levels=$2
. "$(dirname "$0")/tally.sh"

# run NAME EXPECTED_EXIT ARGS...: runs sokod, keeps its output in $out.
run() {
  local name=$1 want=$2
  shift 2
  current=$name
  cmd="sokod $*"
  out=$("$sokod" "$@" 2>"$tmp/stderr")
  local code=$?
  err=$(cat "$tmp/stderr")
  if [ "$code" -ne "$want" ]; then
    fail "exit status $code, expected $want"
  fi
}

fail() {
  echo "FAIL $current: $1"
  echo "  ran: $cmd"
  echo "  output (first 20 lines):"
  printf '%s\n' "$out" | head -20 | sed 's/^/    /'
  [ -n "$err" ] && printf '%s\n' "$err" | head -5 | sed 's/^/    stderr: /'
  failed=$((failed + 1))
  current_failed=1
}

# has LINE: the last output holds this exact line.
has() {
  if ! printf '%s\n' "$out" | grep -qxF -- "$1"; then
    fail "no line: $1"
  fi
}

# has_re REGEX: the last output has a line matching the extended regex.
has_re() {
  if ! printf '%s\n' "$out" | grep -qE -- "$1"; then
    fail "no line matching: $1"
  fi
}

done_test() {
  if [ "${current_failed:-0}" -eq 0 ]; then
    echo "ok   $current"
    passed=$((passed + 1))
  fi
  current_failed=0
}

# --- help ---
run check_help 0 check --help
has_re '^usage: sokod check'
done_test
run replay_help 0 replay --help
has_re '^usage: sokod replay'
done_test
run check_without_files_is_a_usage_error 2 check
done_test
run check_unknown_option_is_a_usage_error 2 check --frobnicate "$levels/Microban_155.xsb"
done_test

# --- real collections ---
run check_microban 0 check "$levels/Microban_155.xsb"
has '  1 "1": ok 6x7, 2 boxes'
has 'levels: 155, valid: 155, invalid: 0'
done_test
run check_several_collections 0 check "$levels/XSokoban_90.xsb" "$levels/solutions/MicroCosmos.txt" \
  "$levels/boxoban-medium-000.txt"
has '  1 "screen.01": ok 19x11, 6 boxes'
has '  1 "MICROCOSMOS 01": ok 9x7, 4 boxes'
has 'levels: 1130, valid: 1130, invalid: 0'
done_test
run replay_microban_solutions 0 replay "$levels/solutions/Microban_155.with-solutions.sok"
has '  1.1 "Solution 33/8": solved in 33 moves, 8 pushes'
has 'solutions: 282, solved: 282, failed: 0'
done_test
run replay_festival_solutions 0 replay "$levels/solutions/MicroCosmos.sol"
has 'solutions: 40, solved: 40, failed: 0'
done_test
run check_json 0 check --json "$levels/Sasquatch_50.xsb"
has_re '^  "levels": 50,$'
has_re '^  "invalid": 0$'
has_re '"title": "1",'
done_test

# --- broken files ---
cat >"$tmp/bad.xsb" <<'LEVELS'
; good
#####
#@$.#
#####

; open
#####
#@$. 
#####

; counts
######
#@$$.#
######

; letters
#####
#@$x#
#####

Solution
R
LEVELS
run check_reports_each_error_with_its_place 1 check "$tmp/bad.xsb"
has '  1 "good": ok 5x3, 1 box'
has '  2 "open": invalid'
has "$tmp/bad.xsb:8:5: the board is not closed: the player can walk off it here"
has "$tmp/bad.xsb:12: 2 boxes but 1 goal: they must be as many"
has "$tmp/bad.xsb:18:4: 'x' is not a board character"
has 'levels: 4, valid: 1, invalid: 3'
done_test
run check_json_reports_error_codes 1 check --json "$tmp/bad.xsb"
has_re '"code": "open",'
has_re '"code": "box_goal_count",'
has_re '^  "invalid": 3$'
done_test
run check_unreadable_file_fails 1 check "$tmp/missing.xsb" "$levels/Microban_155.xsb"
has_re "^$tmp/missing.xsb: cannot read: "
has 'levels: 155, valid: 155, invalid: 0'
done_test
run check_json_names_an_unreadable_file 1 check --json "$tmp/missing.xsb"
has_re '"error": "No such file or directory"'
done_test
run replay_unreadable_file_fails 1 replay "$tmp/missing.xsb"
has_re "^$tmp/missing.xsb: cannot read: No such file or directory$"
done_test
run replay_json_names_an_unreadable_file 1 replay --json "$tmp/missing.xsb"
has_re '"error": "No such file or directory"'
done_test
printf 'no levels here\n' >"$tmp/empty.txt"
run check_file_without_levels_fails 1 check "$tmp/empty.txt"
has "$tmp/empty.txt: no level found"
done_test

cat >"$tmp/sols.sok" <<'LEVELS'
Title: one
######
#@ $.#
######

Solution 2/1
rR

Into the wall
lR

Not far enough
r

Unreadable
rR2
LEVELS
run replay_reports_each_outcome 1 replay "$tmp/sols.sok"
has '  1.1 "Solution 2/1": solved in 2 moves, 1 push'
has "  1.2 \"Into the wall\": fails at step 1 of 2 ('l'): the player walks into a wall"
has '  1.3 "Not far enough": ends unsolved after 1 move, 0 pushes (0 of 1 boxes on goals)'
has '  1.4 "Unreadable": cannot be read'
has "$tmp/sols.sok:16:3: the count at the end has nothing to repeat"
has 'solutions: 4, solved: 1, failed: 3'
done_test
run replay_json 1 replay --json "$tmp/sols.sok"
has_re '"result": "solved",'
has_re '"result": "failed",'
has_re '^  "solved": 1,$'
done_test

tally_end
