# Registers a GoogleTest program's tests with CTest one suite at a time
# (cmake/build_speed.cmake, toolguard_gtest_suites): a CTest test per suite,
# running `PROGRAM --gtest_filter=SUITE.*`, named PREFIX.SUITE.
#
# One process per suite instead of one per test: a sanitized test program
# takes half a second to start (ASan registers every global and LeakSanitizer
# scans memory at exit), and the sanitizer tree starts its unit tests 845
# times otherwise. A failing suite's output names the failing tests.
#
# Run after the program is built (POST_BUILD), with
#   -DPROGRAM=... -DOUTPUT=... -DPREFIX=... -DLABELS=a;b -DWORKING_DIRECTORY=...
#   [-DENVIRONMENT=A=1;B=2]
# It writes OUTPUT, which the directory's TEST_INCLUDE_FILES reads.

execute_process(COMMAND "${PROGRAM}" --gtest_list_tests
  WORKING_DIRECTORY "${WORKING_DIRECTORY}"
  OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --gtest_list_tests failed (${status}):\n${listing}\n${errors}")
endif()

# A suite that hangs fails after this long instead of holding the run until
# CI's own limit; no suite comes near it, even under ASan.
set(SUITE_TIMEOUT 1200)

set(suites "")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  # A suite is a line without leading spaces, ending in '.' (and maybe a
  # comment: "Suite.  # TypeParam = int"); its tests follow, indented.
  if(line MATCHES "^([^ #][^ ]*)\\.( |$)")
    list(APPEND suites "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(suites STREQUAL "")
  message(FATAL_ERROR "${PROGRAM} lists no test suites:\n${listing}")
endif()

set(script "# Written by cmake/gtest_suites.cmake from ${PROGRAM} --gtest_list_tests.\n")
foreach(suite IN LISTS suites)
  set(name "${PREFIX}.${suite}")
  string(APPEND script
    "add_test([==[${name}]==] [==[${PROGRAM}]==] [==[--gtest_filter=${suite}.*]==])\n"
    "set_tests_properties([==[${name}]==] PROPERTIES LABELS [==[${LABELS}]==]"
    " WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==] TIMEOUT ${SUITE_TIMEOUT}")
  if(ENVIRONMENT)
    string(APPEND script " ENVIRONMENT [==[${ENVIRONMENT}]==]")
  endif()
  string(APPEND script ")\n")
endforeach()
file(WRITE "${OUTPUT}.new" "${script}")
file(RENAME "${OUTPUT}.new" "${OUTPUT}")
