# The sokod command-line tools, run as a user would on the real collections
# and on broken files the script writes into a temporary folder. Each runs
# under no_sanitizer_reports.sh: a sanitizer report from any sokod it starts
# fails it, whatever exit status the script expected.
set(SOKOD_CLI_GUARD bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/no_sanitizer_reports.sh)

# sokod_cli_test(NAME SCRIPT ARGS...): the test NAME runs cli/SCRIPT with
# ARGS under the guard, labelled cli.
function(sokod_cli_test name script)
  add_test(NAME ${name}
           COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/${script} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS cli TIMEOUT 300)
endfunction()

sokod_cli_test(cli_check_and_replay check_replay.sh $<TARGET_FILE:sokod> ${SOKOD_SHARED_DIR}/levels)

# The levels sokod ships: valid, and every reference solution solves.
sokod_cli_test(bundled_levels_are_valid_and_solved bundled_levels.sh $<TARGET_FILE:sokod>
               ${CMAKE_SOURCE_DIR}/levels)

# sokod solve: reachable, solves the tutorial, and its solutions replay.
sokod_cli_test(cli_solve_tutorial solve_tutorial.sh $<TARGET_FILE:sokod> ${CMAKE_SOURCE_DIR}/levels)

# sokod generate: valid levels whose solutions replay, that import, and the
# same bytes from the same options.
sokod_cli_test(cli_generate_import generate_import.sh $<TARGET_FILE:sokod> ${CMAKE_SOURCE_DIR}/migrations)

# Every command's flags: --help prints the text kept in tests/cli/help, and
# each malformed, missing or unknown flag its exact message and status.
sokod_cli_test(cli_options_help_and_errors options.sh $<TARGET_FILE:sokod>
               ${CMAKE_CURRENT_SOURCE_DIR}/cli/help)

# cmake --install: the installed sokod, run from another folder without
# flags, finds its migrations, levels, client and core.wasm.
sokod_cli_test(cli_installed_runs_without_flags installed.sh ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR})

# sokod optimise: its help, shorter solutions that replay, a wrong one refused.
sokod_cli_test(cli_optimise_shortens_and_replays optimise.sh $<TARGET_FILE:sokod>
               ${CMAKE_CURRENT_SOURCE_DIR}/cli/help)

# The manual page: every command's section lists every flag and variable
# its --help lists.
sokod_cli_test(cli_manpage_lists_every_flag manpage.sh $<TARGET_FILE:sokod>
               ${CMAKE_BINARY_DIR}/sokod.1)

# sokod --config FILE: good settings applied in order, wrong ones refused
# by file and line.
sokod_cli_test(cli_config_file config_file.sh $<TARGET_FILE:sokod>)

# The progress line of solve and generate: drawn on a terminal only, and
# never with --json.
sokod_cli_test(cli_progress_on_terminals_only progress.sh $<TARGET_FILE:sokod>
               ${CMAKE_SOURCE_DIR}/levels)
