# Short libFuzzer runs of each tests/fuzz/fuzz_*.c target (clang only). The
# targets compile the core into themselves so that libFuzzer sees its
# coverage (fuzz_slc also the server's SLC reader; fuzz_route and fuzz_api
# the whole server). New inputs go to build/fuzz/<target>; the real
# collections seed the reader, tests/fuzz/corpus/fuzz_api/ the API. Long
# runs of every target, with their figures: scripts/fuzz-long [MINUTES].
if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  file(GLOB SOKOD_FUZZERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c)
  foreach(src ${SOKOD_FUZZERS})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src} ${SOKO_CORE_SOURCES})
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/core)
    target_compile_options(${name} PRIVATE ${SOKOD_WARNINGS} -fsanitize=fuzzer,address,undefined
                                               -fno-sanitize-recover=all)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
    file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz/${name})
    set(seeds "")
    if(name STREQUAL "fuzz_reader")
      set(seeds ${SOKOD_SHARED_DIR}/levels ${SOKOD_SHARED_DIR}/levels/solutions)
    elseif(name STREQUAL "fuzz_slc")
      # The server's SLC reader and writer, on libxml2.
      target_sources(${name} PRIVATE ${CMAKE_SOURCE_DIR}/server/library/slc.c)
      target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/server)
      target_compile_definitions(${name} PRIVATE _GNU_SOURCE)
      target_link_libraries(${name} PRIVATE PkgConfig::LIBXML2 Threads::Threads)
      set(seeds ${SOKOD_SHARED_DIR}/levels/slc)
    elseif(name STREQUAL "fuzz_route" OR name STREQUAL "fuzz_api")
      # The router, and the whole server for the API, link the server but its main().
      set(server_sources ${SOKOD_SOURCES})
      list(FILTER server_sources EXCLUDE REGEX "/server/main\\.c$")
      target_sources(${name} PRIVATE ${server_sources})
      target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/server
                                                 ${CMAKE_SOURCE_DIR}/solver)
      target_compile_definitions(${name} PRIVATE _GNU_SOURCE SOKOD_VERSION="${PROJECT_VERSION}")
      target_link_libraries(${name} PRIVATE soko_solver PkgConfig::MHD PkgConfig::JANSSON
                            PkgConfig::SQLITE PkgConfig::SODIUM PkgConfig::LIBXML2 PkgConfig::ZLIB
                            Threads::Threads)
    endif()
    set(flags -timeout=10)
    if(name STREQUAL "fuzz_api")
      # The API: the seeds of tests/fuzz/corpus/fuzz_api/ are written into
      # the corpus at start-up; the server's access log stays out of the output.
      target_compile_definitions(${name} PRIVATE SOKOD_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
                                                 SOKOD_BINARY_DIR="${CMAKE_BINARY_DIR}")
      # A log-in hashes a password twice: slow under the sanitizers on a busy machine.
      set(flags -timeout=30 -close_fd_mask=2)
    endif()
    add_test(NAME ${name}
             COMMAND ${name} -max_total_time=${SOKOD_FUZZ_SECONDS} -max_len=65536
                     -rss_limit_mb=2048 -print_final_stats=1 ${flags}
                     ${CMAKE_BINARY_DIR}/fuzz/${name} ${seeds})
    set_tests_properties(${name} PROPERTIES LABELS fuzz TIMEOUT 900)
    if(name STREQUAL "fuzz_api")
      set_tests_properties(${name} PROPERTIES
        ENVIRONMENT "SOKOD_FUZZ_API_SEEDS_OUT=${CMAKE_BINARY_DIR}/fuzz/${name}")
    endif()
  endforeach()
endif()
