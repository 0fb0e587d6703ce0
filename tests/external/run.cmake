# Builds the vendor project in this folder and the template project
# examples/vendor-target against an installed accelgen, uses their plugins
# with the installed CLI, and checks incremental generation. Run by CTest as
#   cmake -DACCELGEN_BUILD_DIR=... -DWORK_DIR=... -DSHARED_DIR=...
#         -DCXX_FLAGS=... [-DCXX=... -DCC=...] -P run.cmake
# (CXX and CC: the compilers of the accelgen build, which a sanitized
# build's libraries need their own runtime from).
#
#  1. `cmake --install` the accelgen build into WORK_DIR/prefix;
#  2. copy this project to WORK_DIR/src, configure it with find_package
#     (accelgen) from that prefix, build it, run acme-legalize and compare
#     its output with expected.txt, run its tests (acme's generated
#     constraint cases) and acme-partition on a shared model;
#  3. the installed accelgen loads accelgen-acme.so and accelgen-lite.so by
#     path (--load) and through ACCELGEN_PLUGIN_PATH; `targets` lists them
#     with their paths; on two shared models `explain`, `compile` and `run`
#     work for acme1, and run's outputs are the reference's, byte for byte;
#  3b. the vend plugin brings a kernel family of its own: vend-model writes a
#     model using vend's operator (a CUSTOM one) and its expected output,
#     computed there; `accelgen run --target vend1` (the operator on vend's
#     functional model, which the project includes the family's rows in)
#     and `--target ref` (on the CPU) give that output byte for byte, and
#     report.json names vend's kernel;
#  4. the template project builds its plugin and explains the example model;
#  5. a second build must run nothing (`ninja -n` says "no work to do");
#  6. after touching acme.td the build runs accelgen-tblgen once for each of
#     acme's artifacts (ACCELGEN_ARTIFACTS of the installed
#     AccelgenTarget.cmake) and nothing for lite; since the generated files do not
#     change, nothing is recompiled; then again nothing is left to do;
#  7. a mistake in vend's kernel template stops the build at its line.
cmake_minimum_required(VERSION 3.20)

set(compilers "")
if(CXX)
  list(APPEND compilers "-DCMAKE_CXX_COMPILER=${CXX}")
endif()
if(CC)
  list(APPEND compilers "-DCMAKE_C_COMPILER=${CC}")
endif()
foreach(var ACCELGEN_BUILD_DIR WORK_DIR SHARED_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()
if(NOT EXISTS ${SHARED_DIR}/models)
  message(FATAL_ERROR "the shared conformance folder is missing: "
                      "${SHARED_DIR}/models (set ACCELGEN_SHARED_DIR)")
endif()
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
    "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}" ${compilers})
run(${CMAKE_COMMAND} --build ${build})

run(${build}/acme-legalize)
file(READ ${src}/expected.txt expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "acme-legalize printed\n${out}\ninstead of\n${expected}")
endif()

run(ctest --test-dir ${build} --output-on-failure)
if(NOT out MATCHES "100% tests passed")
  message(FATAL_ERROR "the vendor project's tests:\n${out}")
endif()

set(accelgen ${prefix}/bin/accelgen)
set(acme_plugin ${build}/acme/accelgen-acme.so)
set(lite_plugin ${build}/lite/accelgen-lite.so)
set(models mlperf_tiny_ic_resnet8_int8 mlperf_tiny_kws_dscnn_int8)
list(GET models 0 first_model)
run(${build}/acme-partition ${SHARED_DIR}/models/${first_model}.tflite)
if(NOT out MATCHES "operators on acme1\n$")
  message(FATAL_ERROR "acme-partition printed: ${out}")
endif()

# 3. The plugins in the installed CLI.
run(${accelgen} targets --load ${acme_plugin} --load ${lite_plugin})
foreach(row "acme +1 2 +[0-9]+ +${acme_plugin} +explain, compile, run"
            "lite +1.0 +[0-9]+ +${lite_plugin} +explain only")
  if(NOT out MATCHES "${row}")
    message(FATAL_ERROR "accelgen targets does not list '${row}':\n${out}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -E env
    ACCELGEN_PLUGIN_PATH=${build}/acme:${build}/lite
    ${accelgen} targets --json)
if(NOT out MATCHES "\"plugin\": \"${acme_plugin}\"" OR
   NOT out MATCHES "\"plugin\": \"${lite_plugin}\"")
  message(FATAL_ERROR "ACCELGEN_PLUGIN_PATH did not load both:\n${out}")
endif()
foreach(model IN LISTS models)
  set(tflite ${SHARED_DIR}/models/${model}.tflite)
  set(vectors ${SHARED_DIR}/vectors/${model}/seed1)
  run(${CMAKE_COMMAND} -E env ACCELGEN_PLUGIN_PATH=${build}/acme
      ${accelgen} explain ${tflite} --target acme2)
  if(NOT out MATCHES "on acme2: [1-9][0-9]* of [0-9]+ operators on the accelerator")
    message(FATAL_ERROR "explain ${model} on acme2:\n${out}")
  endif()
  run(${accelgen} compile ${tflite} --load ${acme_plugin} --target acme1
      -o ${WORK_DIR}/compiled/${model})
  run(${accelgen} run ${tflite} --load ${acme_plugin} --target acme1
      --inputs ${vectors} --outputs ${WORK_DIR}/outputs/${model})
  file(SHA256 ${WORK_DIR}/outputs/${model}/output_0.bin got)
  file(SHA256 ${vectors}/expected_0.bin want)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${model} on acme1 differs from ${vectors}/expected_0.bin")
  endif()
endforeach()

# 3b. A kernel of the vendor's own, for an operator accelgen does not have.
set(vend_plugin ${build}/vend/accelgen-vend.so)
set(vend_dir ${WORK_DIR}/vend)
file(MAKE_DIRECTORY ${vend_dir})
run(${build}/vend-model ${vend_dir})
run(${accelgen} explain ${vend_dir}/vend.tflite --load ${vend_plugin}
    --target vend1)
if(NOT out MATCHES "on vend1: 1 of 1 operators on the accelerator")
  message(FATAL_ERROR "explain on vend1:\n${out}")
endif()
run(${accelgen} compile ${vend_dir}/vend.tflite --load ${vend_plugin}
    --target vend1 -o ${vend_dir}/compiled)
file(READ ${vend_dir}/compiled/report.json report)
if(NOT report MATCHES "\"kernel\": \"vend_clamp_offset_i8\"")
  message(FATAL_ERROR "report.json does not name vend's kernel:\n${report}")
endif()
file(READ ${vend_dir}/compiled/accel_target_kernels.inc rows)
if(NOT rows MATCHES "REF_KERNEL_CALL\\(vend_clamp_offset_i8,")
  message(FATAL_ERROR "the functional model lacks vend's rows:\n${rows}")
endif()
file(READ ${vend_dir}/compiled/vend_clamp_offset.c kernel)
if(NOT kernel MATCHES "vend_clamp_offset\\.c\\.in" OR
   NOT kernel MATCHES "void vend_clamp_offset_i16\\(")
  message(FATAL_ERROR "vend_clamp_offset.c is not rendered from its "
                      "template:\n${kernel}")
endif()
foreach(target vend1 ref)
  run(${accelgen} run ${vend_dir}/vend.tflite --load ${vend_plugin}
      --target ${target} --inputs ${vend_dir}/input
      --outputs ${vend_dir}/outputs-${target})
  file(SHA256 ${vend_dir}/outputs-${target}/output_0.bin got)
  file(SHA256 ${vend_dir}/expected_0.bin want)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "VEND_CLAMP_OFFSET on ${target} differs from "
                        "${vend_dir}/expected_0.bin")
  endif()
endforeach()

# 4. The template project a vendor copies.
set(template_src ${WORK_DIR}/template-src)
set(template_build ${WORK_DIR}/template-build)
file(COPY ${CMAKE_CURRENT_LIST_DIR}/../../examples/vendor-target/
     DESTINATION ${template_src})
run(${CMAKE_COMMAND} -S ${template_src} -B ${template_build} -G Ninja
    -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}" ${compilers})
run(${CMAKE_COMMAND} --build ${template_build})
run(ctest --test-dir ${template_build} --output-on-failure)
run(${accelgen} explain ${ACCELGEN_BUILD_DIR}/examples/tiny_convnet_int8.tflite
    --load ${template_build}/accelgen-mynpu.so --target mynpu1)
if(NOT out MATCHES "on mynpu1: [1-9][0-9]* of [0-9]+ operators on the accelerator")
  message(FATAL_ERROR "the template's target explains the example as:\n${out}")
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

# 7. A mistake in a target's own kernel template stops the target's build:
# C that does not compile at the rendered file's line, a template error at
# the template's.
file(READ ${src}/vend/vend_clamp_offset.c.in kernel)
foreach(mistake "int broken(void) { return x; }\n"
                "$assert K.DTYPE == \"f32\"\n")
  file(WRITE ${src}/vend/vend_clamp_offset.c.in "${kernel}${mistake}")
  execute_process(COMMAND ninja -C ${build} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT out MATCHES "vend_clamp_offset\\.c(\\.in)?:[0-9]+:[0-9]+: error")
    message(FATAL_ERROR "a broken vend_clamp_offset.c.in built (${rc}):\n${out}")
  endif()
endforeach()
file(WRITE ${src}/vend/vend_clamp_offset.c.in "${kernel}")
run(ninja -C ${build})
message(STATUS "external project: built, ran, no-op and incremental rebuilds as expected")
