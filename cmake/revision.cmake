# Writes OUT, a header defining SOKOD_REVISION: `git describe` of SOURCE_DIR
# when it is the top of a git checkout ("c2f0bc9", "c2f0bc9-dirty"), else
# "". Run at every build (`cmake -DSOURCE_DIR=... -DOUT=... -P`); OUT is
# rewritten only when its text changes, so that only main.c recompiles, and
# only then.
set(revision "")
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE status)
  if(status EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(status EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} describe --always --dirty --tags
                    OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                    RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      set(revision "")
    endif()
  endif()
endif()
set(text "/* Written by cmake/revision.cmake at build time. */\n#define SOKOD_REVISION \"${revision}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
