# JavaScript tests (label js): each tests/js/*.test.mjs runs on node's own test
# runner against the page's modules in static/js, with the built core.wasm
# where a module plays games; js_lint runs ESLint on static/ and tests/.
find_program(SOKOD_NODE node REQUIRED)
file(GLOB SOKOD_JS_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/js/*.test.mjs)
foreach(test_file ${SOKOD_JS_TESTS})
  get_filename_component(name ${test_file} NAME_WE)
  add_test(NAME js_${name}
           COMMAND ${SOKOD_NODE} --test --test-reporter=spec ${test_file}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/js)
  set_tests_properties(js_${name} PROPERTIES
    LABELS js
    TIMEOUT 120
    ENVIRONMENT "SOKOD_WASM=${CMAKE_BINARY_DIR}/core.wasm;SOKOD_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endforeach()

# ESLint on every JavaScript file of static/ and tests/.
add_test(NAME js_lint COMMAND ${SOKOD_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/js/lint.mjs)
set_tests_properties(js_lint PROPERTIES LABELS js TIMEOUT 300)
