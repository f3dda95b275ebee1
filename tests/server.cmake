# Server integration tests: each tests/server/*.test.mjs is a node script
# (node:test) that starts a real sokod on a free loopback port with a fresh
# database. They get the sokod binary, the shared folder and the source
# folder from the environment.
find_program(SOKOD_NODE NAMES node nodejs)
if(NOT SOKOD_NODE)
  message(WARNING "node not found: the server integration tests are not registered")
  return()
endif()
# A client that stops reading its event stream, for the slow-stream test.
add_executable(slow_reader ${CMAKE_CURRENT_SOURCE_DIR}/tools/slow_reader.c)
target_compile_options(slow_reader PRIVATE ${SOKOD_WARNINGS})

file(GLOB SOKOD_SERVER_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/server/*.test.mjs)
foreach(script ${SOKOD_SERVER_TESTS})
  get_filename_component(file ${script} NAME)
  string(REPLACE ".test.mjs" "" name ${file})
  add_test(NAME server_${name} COMMAND ${SOKOD_NODE} --test-reporter=spec --test ${script})
  set_tests_properties(server_${name} PROPERTIES
    LABELS server
    TIMEOUT 600
    ENVIRONMENT "SOKOD_BIN=$<TARGET_FILE:sokod>;SOKOD_SHARED_DIR=${SOKOD_SHARED_DIR};SOKOD_SOURCE_DIR=${CMAKE_SOURCE_DIR};SOKOD_SLOW_READER=$<TARGET_FILE:slow_reader>;NO_COLOR=1")
endforeach()
# Live events across nodes need PostgreSQL: the test above skips on SQLite
# and runs again here on the test cluster.
if(NOT TEST server_live_nodes_postgresql)
  add_test(NAME server_live_nodes_postgresql COMMAND ${SOKOD_NODE} --test-reporter=spec --test
           ${CMAKE_CURRENT_SOURCE_DIR}/server/live_nodes.test.mjs)
  set_tests_properties(server_live_nodes_postgresql PROPERTIES
    LABELS server
    TIMEOUT 600
    ENVIRONMENT "SOKOD_BIN=$<TARGET_FILE:sokod>;SOKOD_SHARED_DIR=${SOKOD_SHARED_DIR};SOKOD_SOURCE_DIR=${CMAKE_SOURCE_DIR};SOKOD_SLOW_READER=$<TARGET_FILE:slow_reader>;NO_COLOR=1;SOKOD_TEST_BACKEND=postgresql")
  sokod_needs_postgresql(server_live_nodes_postgresql)
endif()
