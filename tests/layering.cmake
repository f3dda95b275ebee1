# The server's layering rule (tests/tools/layering.mjs; docs/server.md
# explains the wings), tried on small trees with each kind of break.
find_program(SOKOD_NODE node REQUIRED)
add_test(NAME layering_check_finds_breaks
         COMMAND ${SOKOD_NODE} --test ${CMAKE_CURRENT_SOURCE_DIR}/tools/layering.test.mjs)
set_tests_properties(layering_check_finds_breaks PROPERTIES LABELS unit TIMEOUT 60)
