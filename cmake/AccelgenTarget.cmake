# accelgen_add_target(<name> <description.td|description.yaml> [SOURCES src...])
#
# Generates a target's artifacts from its description with accelgen-tblgen
# and builds them, with the given hand-written sources, into the static
# library `accelgen_target_<name>`:
#
#   <binary dir>/<name>/OpSetups.inc        -gen-op-setups
#   <binary dir>/<name>/Legality.inc        -gen-legality
#   <binary dir>/<name>/Patterns.inc        -gen-patterns
#   <binary dir>/<name>/ConstraintTests.inc -gen-constraint-tests
#   <binary dir>/<name>/DeviceRules.inc     -gen-device-rules
#   <binary dir>/<name>/SupportedOps.md     -gen-supported-ops
#   <binary dir>/<name>/VersionDiff.md      -gen-version-diff
#
# Each file is regenerated only when the description or a file it includes
# changes (depfile), and rewritten only when its content changes, so a no-op
# build runs no generator and code depending on an unchanged file is not
# rebuilt. Works in the accelgen tree and after find_package(accelgen).

set(ACCELGEN_ARTIFACTS
  "op-setups:OpSetups.inc"
  "legality:Legality.inc"
  "patterns:Patterns.inc"
  "constraint-tests:ConstraintTests.inc"
  "device-rules:DeviceRules.inc"
  "supported-ops:SupportedOps.md"
  "version-diff:VersionDiff.md")

function(accelgen_add_target name description)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  if(TARGET accelgen-tblgen)
    set(tblgen $<TARGET_FILE:accelgen-tblgen>)
    set(tblgen_dep accelgen-tblgen)
  else()
    # Installed: depend on the executable file itself.
    set(tblgen $<TARGET_FILE:accelgen::accelgen-tblgen>)
    set(tblgen_dep $<TARGET_FILE:accelgen::accelgen-tblgen>)
  endif()
  get_filename_component(src "${description}" ABSOLUTE)
  set(outdir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  file(MAKE_DIRECTORY "${outdir}")
  set(outputs)
  foreach(artifact IN LISTS ACCELGEN_ARTIFACTS)
    string(REPLACE ":" ";" pair "${artifact}")
    list(GET pair 0 action)
    list(GET pair 1 file)
    set(out "${outdir}/${file}")
    add_custom_command(
      OUTPUT "${out}"
      COMMAND ${tblgen} -gen-${action} "${src}" -o "${out}"
              -d "${out}.d" --write-if-changed
      DEPENDS "${src}" ${tblgen_dep}
      DEPFILE "${out}.d"
      COMMENT "accelgen-tblgen -gen-${action} ${name}"
      VERBATIM)
    list(APPEND outputs "${out}")
  endforeach()
  add_custom_target(accelgen_${name}_generated DEPENDS ${outputs})
  set_target_properties(accelgen_${name}_generated PROPERTIES
                        ACCELGEN_OUTPUT_DIR "${outdir}"
                        ACCELGEN_DESCRIPTION "${src}")
  set_property(GLOBAL APPEND PROPERTY ACCELGEN_TARGETS ${name})
  if(ARG_SOURCES)
    # A target with a library provides createTargetInfo() and is registered
    # by accelgen_builtin_targets (targets/CMakeLists.txt).
    set_property(GLOBAL APPEND PROPERTY ACCELGEN_TARGET_LIBRARIES ${name})
    add_library(accelgen_target_${name} STATIC ${ARG_SOURCES} ${outputs})
    add_dependencies(accelgen_target_${name} accelgen_${name}_generated)
    target_include_directories(accelgen_target_${name} PUBLIC "${outdir}")
    if(TARGET accelgen_target)
      target_link_libraries(accelgen_target_${name} PUBLIC accelgen_target)
    else()
      target_link_libraries(accelgen_target_${name} PUBLIC accelgen::target)
    endif()
  endif()
endfunction()
