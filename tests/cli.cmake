# The sokod command-line tools, run as a user would on the real collections
# and on broken files the script writes into a temporary folder. Each runs
# under no_sanitizer_reports.sh: a sanitizer report from any sokod it starts
# fails it, whatever exit status the script expected.
set(SOKOD_CLI_GUARD bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/no_sanitizer_reports.sh)
add_test(NAME cli_check_and_replay
         COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_replay.sh $<TARGET_FILE:sokod>
                 ${SOKOD_SHARED_DIR}/levels)
set_tests_properties(cli_check_and_replay PROPERTIES LABELS cli TIMEOUT 300)

# The levels sokod ships: valid, and every reference solution solves.
add_test(NAME bundled_levels_are_valid_and_solved
         COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/bundled_levels.sh $<TARGET_FILE:sokod>
                 ${CMAKE_SOURCE_DIR}/levels)
set_tests_properties(bundled_levels_are_valid_and_solved PROPERTIES LABELS cli TIMEOUT 300)

# sokod solve: reachable, solves the tutorial, and its solutions replay.
add_test(NAME cli_solve_tutorial
         COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/solve_tutorial.sh $<TARGET_FILE:sokod>
                 ${CMAKE_SOURCE_DIR}/levels)
set_tests_properties(cli_solve_tutorial PROPERTIES LABELS cli TIMEOUT 300)

# sokod generate: valid levels whose solutions replay, that import, and the
# same bytes from the same options.
add_test(NAME cli_generate_import
         COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/generate_import.sh $<TARGET_FILE:sokod>
                 ${CMAKE_SOURCE_DIR}/migrations)
set_tests_properties(cli_generate_import PROPERTIES LABELS cli TIMEOUT 300)

# cmake --install: the installed sokod, run from another folder without
# flags, finds its migrations, levels, client and core.wasm.
add_test(NAME cli_installed_runs_without_flags
         COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/installed.sh ${CMAKE_COMMAND}
                 ${CMAKE_BINARY_DIR})
set_tests_properties(cli_installed_runs_without_flags PROPERTIES LABELS cli TIMEOUT 300)
