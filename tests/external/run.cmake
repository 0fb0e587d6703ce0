# Builds the vendor project in this folder against an installed accelgen and
# checks incremental generation. Run by CTest as
#   cmake -DACCELGEN_BUILD_DIR=... -DWORK_DIR=... -DCXX_FLAGS=... -P run.cmake
#
#  1. `cmake --install` the accelgen build into WORK_DIR/prefix;
#  2. copy this project to WORK_DIR/src, configure it with find_package
#     (accelgen) from that prefix, build it, run acme-legalize and compare
#     its output with expected.txt;
#  3. a second build must run nothing (`ninja -n` says "no work to do");
#  4. after touching acme.td the build runs accelgen-tblgen once for each of
#     acme's artifacts (ACCELGEN_ARTIFACTS of the installed
#     AccelgenTarget.cmake) and nothing for lite; since the generated files do not
#     change, nothing is recompiled; then again nothing is left to do.
cmake_minimum_required(VERSION 3.20)

foreach(var ACCELGEN_BUILD_DIR WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()
set(prefix ${WORK_DIR}/prefix)
set(src ${WORK_DIR}/src)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${ACCELGEN_BUILD_DIR} --prefix ${prefix})
file(COPY ${CMAKE_CURRENT_LIST_DIR}/ DESTINATION ${src}
     PATTERN run.cmake EXCLUDE)
run(${CMAKE_COMMAND} -S ${src} -B ${build} -G Ninja
    -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}")
run(${CMAKE_COMMAND} --build ${build})

run(${build}/acme-legalize)
file(READ ${src}/expected.txt expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "acme-legalize printed\n${out}\ninstead of\n${expected}")
endif()

function(expect_no_work when)
  run(ninja -C ${build} -n -d explain)
  if(NOT out MATCHES "no work to do")
    message(FATAL_ERROR "${when}, ninja still has work:\n${out}")
  endif()
endfunction()
expect_no_work("after a complete build")

# ninja compares modification times; make sure the touch is seen as newer.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(TOUCH ${src}/acme/acme.td)
run(ninja -C ${build} -v)
string(REGEX MATCHALL "accelgen-tblgen[^\n]*" generator_runs "${out}")
list(LENGTH generator_runs n)
foreach(line IN LISTS generator_runs)
  if(NOT line MATCHES "acme\\.td" OR line MATCHES "lite\\.yaml|/lite/")
    message(FATAL_ERROR "touching acme.td ran: ${line}")
  endif()
endforeach()
include(${prefix}/lib/cmake/accelgen/AccelgenTarget.cmake)
list(LENGTH ACCELGEN_ARTIFACTS artifacts)
if(NOT n EQUAL artifacts)
  message(FATAL_ERROR "touching acme.td ran accelgen-tblgen ${n} times, not ${artifacts}:\n${out}")
endif()
if(out MATCHES "-c [^\n]*\\.cpp")
  message(FATAL_ERROR "unchanged generated files caused a recompile:\n${out}")
endif()
expect_no_work("after regenerating acme")
message(STATUS "external project: built, ran, no-op and incremental rebuilds as expected")
