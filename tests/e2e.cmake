# Browser tests: each tests/e2e/*.test.mjs starts a real sokod on a free
# loopback port with a fresh database and drives Debian's chromium through
# playwright-core (installed into tests/e2e/node_modules by scripts/deps).
# Screenshots land in build/screenshots/; e2e_visual compares its pictures
# with the references in tests/e2e/visual/ and writes the differing ones,
# with a diff image, to build/screenshots/visual/.
find_program(SOKOD_NODE node REQUIRED)
file(GLOB SOKOD_E2E_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/e2e/*.test.mjs)
foreach(test_file ${SOKOD_E2E_TESTS})
  get_filename_component(name ${test_file} NAME_WE)
  string(REPLACE ".test" "" name ${name})
  add_test(NAME e2e_${name}
           COMMAND ${SOKOD_NODE} --test --test-reporter=spec ${test_file}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/e2e)
  set_tests_properties(e2e_${name} PROPERTIES
    LABELS e2e
    TIMEOUT 300
    ENVIRONMENT "SOKOD_BIN=$<TARGET_FILE:sokod>;SOKOD_WASM=${CMAKE_BINARY_DIR}/core.wasm;SOKOD_SOURCE_DIR=${CMAKE_SOURCE_DIR};SOKOD_SHARED_DIR=${SOKOD_SHARED_DIR};SOKOD_SCREENSHOTS=${CMAKE_BINARY_DIR}/screenshots")
endforeach()
# The picture test takes 210 screenshots (every screen, theme and size):
# about 90 s on an idle machine, more beside the other tests of scripts/test.
set_tests_properties(e2e_visual PROPERTIES TIMEOUT 600)
