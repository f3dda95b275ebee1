# The sokod command-line tools, run as a user would on the real collections
# and on broken files the script writes into a temporary folder. Each runs
# under no_sanitizer_reports.sh: a sanitizer report from any sokod it starts
# fails it, whatever exit status the script expected.
set(SOKOD_CLI_GUARD bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/no_sanitizer_reports.sh)

# sokod_cli_test(NAME SCRIPT ARG): the test NAME runs cli/SCRIPT with the
# sokod binary and ARG, under the guard, labelled cli.
function(sokod_cli_test name script arg)
  add_test(NAME ${name}
           COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/${script} $<TARGET_FILE:sokod> ${arg})
  set_tests_properties(${name} PROPERTIES LABELS cli TIMEOUT 300)
endfunction()

sokod_cli_test(cli_check_and_replay check_replay.sh ${SOKOD_SHARED_DIR}/levels)

# The levels sokod ships: valid, and every reference solution solves.
sokod_cli_test(bundled_levels_are_valid_and_solved bundled_levels.sh ${CMAKE_SOURCE_DIR}/levels)

# sokod solve: reachable, solves the tutorial, and its solutions replay.
sokod_cli_test(cli_solve_tutorial solve_tutorial.sh ${CMAKE_SOURCE_DIR}/levels)

# sokod generate: valid levels whose solutions replay, that import, and the
# same bytes from the same options.
sokod_cli_test(cli_generate_import generate_import.sh ${CMAKE_SOURCE_DIR}/migrations)
