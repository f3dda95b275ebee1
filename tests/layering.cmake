# The server's wings: includes point down only and no module reaches itself
# (tests/tools/layering.mjs; docs/server.md explains the wings). The second
# test runs the check on small trees with each kind of break.
find_program(SOKOD_NODE node REQUIRED)
add_test(NAME server_wings_include_downward_only
         COMMAND ${SOKOD_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/tools/layering.mjs --report
                 ${CMAKE_SOURCE_DIR}/server)
add_test(NAME layering_check_finds_breaks
         COMMAND ${SOKOD_NODE} --test ${CMAKE_CURRENT_SOURCE_DIR}/tools/layering.test.mjs)
set_tests_properties(server_wings_include_downward_only layering_check_finds_breaks
                     PROPERTIES LABELS unit TIMEOUT 60)
