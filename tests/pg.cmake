# One throwaway PostgreSQL cluster per test run (tests/support/pg_cluster.sh):
# the fixture `postgresql` starts it before the first test that needs it and
# stops it after the last. Such tests find it through SOKOD_TEST_PG_DIR (the
# folder of its socket) and create a database of their own in it.
string(MD5 SOKOD_PG_HASH "${CMAKE_BINARY_DIR}")
string(SUBSTRING "${SOKOD_PG_HASH}" 0 10 SOKOD_PG_HASH)
set(SOKOD_TEST_PG_DIR "/tmp/sokod-pg-${SOKOD_PG_HASH}")
set(SOKOD_PG_CLUSTER ${CMAKE_CURRENT_SOURCE_DIR}/support/pg_cluster.sh)
add_test(NAME postgresql_cluster_start COMMAND ${SOKOD_PG_CLUSTER} start ${SOKOD_TEST_PG_DIR})
add_test(NAME postgresql_cluster_stop COMMAND ${SOKOD_PG_CLUSTER} stop ${SOKOD_TEST_PG_DIR})
set_tests_properties(postgresql_cluster_start PROPERTIES FIXTURES_SETUP postgresql
                     LABELS "unit;server" TIMEOUT 120)
set_tests_properties(postgresql_cluster_stop PROPERTIES FIXTURES_CLEANUP postgresql
                     LABELS "unit;server" TIMEOUT 120)

# Marks tests as needing the cluster: sokod_needs_postgresql(test...).
function(sokod_needs_postgresql)
  foreach(t ${ARGN})
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED postgresql)
    set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "SOKOD_TEST_PG_DIR=${SOKOD_TEST_PG_DIR}")
  endforeach()
endfunction()
