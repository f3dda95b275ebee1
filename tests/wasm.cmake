# The native core and core.wasm play the same pseudo-random games and must
# print the same transcripts.
find_program(SOKOD_NODE node REQUIRED)
add_executable(agree_native ${CMAKE_CURRENT_SOURCE_DIR}/wasm/agree_native.c)
target_link_libraries(agree_native PRIVATE soko_core)
target_compile_options(agree_native PRIVATE ${SOKOD_WARNINGS})
add_test(NAME wasm_agrees_with_native
         COMMAND ${SOKOD_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/wasm/agree.mjs
                 $<TARGET_FILE:agree_native> ${CMAKE_BINARY_DIR}/core.wasm
                 ${SOKOD_SHARED_DIR}/levels/Microban_155.xsb
                 ${SOKOD_SHARED_DIR}/levels/XSokoban_90.xsb
                 ${SOKOD_SHARED_DIR}/levels/Sasquatch_50.xsb)
set_tests_properties(wasm_agrees_with_native PROPERTIES LABELS wasm TIMEOUT 600)
