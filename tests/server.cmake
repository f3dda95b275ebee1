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

# Each runs on SQLite (server_NAME) and again on PostgreSQL
# (server_NAME_postgresql, on the cluster of tests/pg.cmake), but for those
# about what only SQLite has (its files, its VFS, its WAL), the tests that
# use both backends at once (the schema comparison, the copy, the backups of
# PostgreSQL), and memory and cpu, which measure the process under a flood
# (a minute each, the slowest of all) and run on PostgreSQL by hand
# (SOKOD_TEST_BACKEND=postgresql, SOKOD_TEST_PG_DIR=the socket folder of
# tests/support/pg_cluster.sh).
set(SOKOD_ONE_RUN_TESTS backup backup_postgresql copy durability faults schema_backends
    memory cpu)
file(GLOB SOKOD_SERVER_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/server/*.test.mjs)
set(SOKOD_SERVER_ENV "SOKOD_BIN=$<TARGET_FILE:sokod>;SOKOD_SHARED_DIR=${SOKOD_SHARED_DIR};SOKOD_SOURCE_DIR=${CMAKE_SOURCE_DIR};SOKOD_SLOW_READER=$<TARGET_FILE:slow_reader>;NO_COLOR=1")
# The route-cost test scales CPU and memory budgets for the sanitizers.
if(SOKOD_SANITIZE)
  string(APPEND SOKOD_SERVER_ENV ";SOKOD_SANITIZED=1")
endif()
# What the allocator keeps of freed memory is measured on the C library's
# own malloc, which AddressSanitizer replaces: the memory test runs that
# part on a sokod built without sanitizers, sokod_plain (SOKOD_PLAIN_BIN).
# It takes minutes (games filled to the history cap from 24 addresses at
# once), so it runs by hand: cmake -DSOKOD_SLOW_TESTS=ON, then ctest -R
# server_memory.
option(SOKOD_SLOW_TESTS "Build sokod_plain and run the memory test's allocator part" OFF)
if(SOKOD_SANITIZE AND SOKOD_SLOW_TESTS)
  add_library(soko_core_plain STATIC ${SOKO_CORE_SOURCES})
  target_include_directories(soko_core_plain PUBLIC ${CMAKE_SOURCE_DIR}/core)
  target_compile_options(soko_core_plain PRIVATE ${SOKOD_WARNINGS} -ffreestanding -fno-sanitize=all)
  add_library(soko_solver_plain STATIC ${SOKO_SOLVER_SOURCES})
  target_include_directories(soko_solver_plain PUBLIC ${CMAKE_SOURCE_DIR}/solver)
  target_link_libraries(soko_solver_plain PUBLIC soko_core_plain)
  target_compile_options(soko_solver_plain PRIVATE ${SOKOD_WARNINGS} -fno-sanitize=all)
  target_compile_definitions(soko_solver_plain PRIVATE _GNU_SOURCE)
  add_executable(sokod_plain ${SOKOD_SOURCES})
  get_target_property(plain_definitions sokod COMPILE_DEFINITIONS)
  target_compile_definitions(sokod_plain PRIVATE ${plain_definitions})
  target_include_directories(sokod_plain PRIVATE ${CMAKE_SOURCE_DIR}/server)
  target_compile_options(sokod_plain PRIVATE ${SOKOD_WARNINGS} -fno-sanitize=all)
  target_link_options(sokod_plain PRIVATE -fno-sanitize=all)
  target_link_libraries(sokod_plain PRIVATE soko_solver_plain soko_core_plain PkgConfig::MHD
                        PkgConfig::JANSSON PkgConfig::SQLITE PkgConfig::PQ PkgConfig::SODIUM
                        PkgConfig::LIBXML2 PkgConfig::ZLIB Threads::Threads m)
  set_target_properties(sokod_plain PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  string(APPEND SOKOD_SERVER_ENV ";SOKOD_PLAIN_BIN=$<TARGET_FILE:sokod_plain>")
endif()
foreach(script ${SOKOD_SERVER_TESTS})
  get_filename_component(file ${script} NAME)
  string(REPLACE ".test.mjs" "" name ${file})
  add_test(NAME server_${name} COMMAND ${SOKOD_NODE} --test-reporter=spec --test ${script})
  set_tests_properties(server_${name} PROPERTIES LABELS server TIMEOUT 600
                       ENVIRONMENT "${SOKOD_SERVER_ENV}")
  if(NOT name IN_LIST SOKOD_ONE_RUN_TESTS)
    add_test(NAME server_${name}_postgresql
             COMMAND ${SOKOD_NODE} --test-reporter=spec --test ${script})
    set_tests_properties(server_${name}_postgresql PROPERTIES LABELS "server;postgresql"
                         TIMEOUT 600
                         ENVIRONMENT "${SOKOD_SERVER_ENV};SOKOD_TEST_BACKEND=postgresql")
    sokod_needs_postgresql(server_${name}_postgresql)
  endif()
endforeach()
# Lost conflicts, by construction: with SOKOD_TEST_CONFLICTS=1 every other
# transaction that ends with storage_finish is undone as a serialization
# failure would undo it, so a request that does not run its transaction
# again answers 503 and these walks (every route of the security matrix,
# uploads from start to import, the library's management) fail.
set(SOKOD_CONFLICT_TESTS access admin_upload admin_manage)
foreach(name ${SOKOD_CONFLICT_TESTS})
  add_test(NAME server_${name}_conflicts_postgresql
           COMMAND ${SOKOD_NODE} --test-reporter=spec
                   --test ${CMAKE_CURRENT_SOURCE_DIR}/server/${name}.test.mjs)
  set_tests_properties(server_${name}_conflicts_postgresql PROPERTIES
                       LABELS "server;postgresql" TIMEOUT 600
                       ENVIRONMENT
                       "${SOKOD_SERVER_ENV};SOKOD_TEST_BACKEND=postgresql;SOKOD_TEST_CONFLICTS=1")
  sokod_needs_postgresql(server_${name}_conflicts_postgresql)
endforeach()
# The schema comparison applies the PostgreSQL migrations to the test cluster.
sokod_needs_postgresql(server_schema_backends server_copy server_backup_postgresql)
