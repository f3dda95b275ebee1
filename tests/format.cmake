# The C sources are formatted with the repository's .clang-format: the test
# fails naming each file that clang-format would change.
find_program(SOKOD_CLANG_FORMAT clang-format)
if(SOKOD_CLANG_FORMAT)
  file(GLOB_RECURSE SOKOD_FORMATTED CONFIGURE_DEPENDS
       ${CMAKE_SOURCE_DIR}/core/*.[ch] ${CMAKE_SOURCE_DIR}/server/*.[ch]
       ${CMAKE_SOURCE_DIR}/solver/*.[ch] ${CMAKE_SOURCE_DIR}/tests/*.[ch]
       ${CMAKE_SOURCE_DIR}/bench/*.[ch])
  list(FILTER SOKOD_FORMATTED EXCLUDE REGEX "/node_modules/")
  add_test(NAME c_sources_are_formatted
           COMMAND ${SOKOD_CLANG_FORMAT} --dry-run -Werror ${SOKOD_FORMATTED}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(c_sources_are_formatted PROPERTIES LABELS unit)
else()
  message(FATAL_ERROR "clang-format is needed by the tests (scripts/deps installs it)")
endif()
