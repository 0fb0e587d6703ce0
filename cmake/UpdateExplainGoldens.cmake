# Writes tests/golden/<target>/explain/<model>.<version>.json: `accelgen
# explain --json` of every shared model at every version of a target. Run by
# the update-goldens build target:
#   cmake -DACCELGEN=... -DSHARED_DIR=... -DTARGET=mdla -DVERSIONS=1.5,2.0,3.0
#         -DOUT_DIR=... -P UpdateExplainGoldens.cmake
cmake_minimum_required(VERSION 3.20)
string(REPLACE "," ";" VERSIONS "${VERSIONS}")
file(GLOB models "${SHARED_DIR}/models/*.tflite")
if(NOT models)
  message(FATAL_ERROR "no models in ${SHARED_DIR}/models: the shared conformance "
                      "folder is missing (set ACCELGEN_SHARED_DIR)")
endif()
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
foreach(model IN LISTS models)
  get_filename_component(stem "${model}" NAME_WE)
  foreach(version IN LISTS VERSIONS)
    execute_process(COMMAND "${ACCELGEN}" explain "${model}" --target
                            "${TARGET}${version}" --json
                    OUTPUT_FILE "${OUT_DIR}/${stem}.${version}.json"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "accelgen explain ${model} --target ${TARGET}${version} "
                          "failed: ${err}")
    endif()
  endforeach()
endforeach()
