# accelgen_add_target(<name> <description.td|description.yaml> [SOURCES src...]
#                     [PLUGIN] [GOLDEN_OF <other>])
#
# Generates a target's artifacts from its description with accelgen-tblgen
# and builds them into the static library `accelgen_target_<name>`, which
# defines accelgen::targets::<name>::createTargetInfo(). <name> is a C++
# identifier (it names the namespace).
#
# With PLUGIN it also builds the loadable module `accelgen-<name>.so`
# (CMake target `accelgen_plugin_<name>`, in the current binary folder),
# which the accelgen CLI loads with `--load` or from ACCELGEN_PLUGIN_PATH
# (target/Plugin.h): self-contained, exporting only its entry point. A
# plugin target is not built into accelgen itself. SOURCES are the
# target's hand-written C++ (the functions its description names), one of
# which includes target/GeneratedTarget.h; without SOURCES, a target with no
# C++ of its own, that source is generated too
# (<binary dir>/<name>/<name>Target.cpp), so the target's folder holds only
# its description and this call:
#
#   <binary dir>/<name>/OpSetups.inc        -gen-op-setups
#   <binary dir>/<name>/Legality.inc        -gen-legality
#   <binary dir>/<name>/Patterns.inc        -gen-patterns
#   <binary dir>/<name>/ConstraintTests.inc -gen-constraint-tests
#   <binary dir>/<name>/DeviceRules.inc     -gen-device-rules
#   <binary dir>/<name>/Kernels.inc         -gen-kernel-registration
#   <binary dir>/<name>/SupportedOps.md     -gen-supported-ops
#   <binary dir>/<name>/VersionDiff.md      -gen-version-diff
#
# A description may declare kernel families of its own (library <name>,
# plain C files <name>_<template>.h and .c beside the description, or
# templates <name>_<template>.h.in and .c.in, a C++ builder in SOURCES);
# Kernels.inc embeds those files (the templates rendered), and accelgen
# registers the families when it loads the target. The C sources are
# compiled when the target is built (CMake target accelgen_<name>_kernels,
# with <binary dir>/<name>/<name>_params.h and the rendered sources from
# -gen-own-kernel-files), so that a mistake in them stops the build. Each file is regenerated
# only when the description, a file it includes (depfile) or one of the
# <name>_*.{h,c}[.in] files beside it (found when CMake configures the
# project; re-run CMake after adding one) changes, and rewritten only when its content changes, so a no-op
# build runs no generator and code depending on an unchanged file is not
# rebuilt. Works in the accelgen tree and after find_package(accelgen).
#
# In the accelgen tree, a built-in target's artifacts are kept as goldens in
# tests/golden/<name>/. GOLDEN_OF <other> says that the target's rules are
# <other>'s (one shared .td, as cpu shares ref's defs/hostcpu.td): it has no
# golden folder, and GoldenTest requires its artifacts to be <other>'s goldens
# with <other>'s name and description replaced by its own.

set(ACCELGEN_ARTIFACTS
  "op-setups:OpSetups.inc"
  "legality:Legality.inc"
  "patterns:Patterns.inc"
  "constraint-tests:ConstraintTests.inc"
  "device-rules:DeviceRules.inc"
  "kernel-registration:Kernels.inc"
  "supported-ops:SupportedOps.md"
  "version-diff:VersionDiff.md")

function(accelgen_add_target name description)
  cmake_parse_arguments(ARG "PLUGIN" "GOLDEN_OF" "SOURCES" ${ARGN})
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "accelgen_add_target: target name '${name}' is not a "
                        "C++ identifier (it names the namespace "
                        "accelgen::targets::${name})")
  endif()
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
  # The target's own kernel files, which Kernels.inc embeds: those present
  # when the project is configured (a glob re-checked at every build would
  # leave a no-op build with work to do); re-run CMake after adding one.
  get_filename_component(srcdir "${src}" DIRECTORY)
  file(GLOB kernel_files "${srcdir}/${name}_*.h" "${srcdir}/${name}_*.c"
                         "${srcdir}/${name}_*.h.in" "${srcdir}/${name}_*.c.in")
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
      DEPENDS "${src}" ${tblgen_dep} ${kernel_files}
      DEPFILE "${out}.d"
      COMMENT "accelgen-tblgen -gen-${action} ${name}"
      VERBATIM)
    list(APPEND outputs "${out}")
  endforeach()
  add_custom_target(accelgen_${name}_generated DEPENDS ${outputs})
  set_target_properties(accelgen_${name}_generated PROPERTIES
                        ACCELGEN_OUTPUT_DIR "${outdir}"
                        ACCELGEN_DESCRIPTION "${src}"
                        ACCELGEN_GOLDEN_OF "${ARG_GOLDEN_OF}")
  # Built-in targets have goldens (update-goldens, GoldenTest); plugins
  # built in this tree are test fixtures.
  if(NOT ARG_PLUGIN)
    set_property(GLOBAL APPEND PROPERTY ACCELGEN_TARGETS ${name})
  endif()
  if(NOT ARG_SOURCES)
    # The one source a target without C++ of its own needs; rewritten only
    # when its content changes.
    set(generated_source "${outdir}/${name}Target.cpp")
    file(CONFIGURE OUTPUT "${generated_source}" CONTENT
"// Generated by accelgen_add_target (cmake/AccelgenTarget.cmake) for target
// ${name} from ${description}: everything accelgen-tblgen generated, in
// accelgen::targets::${name}. Do not edit.
#include \"target/GeneratedTarget.h\"
" @ONLY)
    set(ARG_SOURCES "${generated_source}")
  endif()
  # Every target has a library providing createTargetInfo(); in the accelgen
  # tree, accelgen_builtin_targets (targets/CMakeLists.txt) registers those
  # that are not plugins.
  if(NOT ARG_PLUGIN)
    set_property(GLOBAL APPEND PROPERTY ACCELGEN_TARGET_LIBRARIES ${name})
  endif()
  add_library(accelgen_target_${name} STATIC ${ARG_SOURCES} ${outputs})
  set_target_properties(accelgen_target_${name} PROPERTIES
                        POSITION_INDEPENDENT_CODE ON)
  add_dependencies(accelgen_target_${name} accelgen_${name}_generated)
  target_include_directories(accelgen_target_${name} PUBLIC "${outdir}")
  # device_limits: what the functional model cannot run, which the generated
  # device rules of a target whose backend is the functional model's point
  # at (nothing of it is linked into other targets' programs).
  if(TARGET accelgen_target)
    target_link_libraries(accelgen_target_${name} PUBLIC accelgen_target
                          accelgen_device_limits accelgen_kernels)
  else()
    target_link_libraries(accelgen_target_${name} PUBLIC accelgen::target
                          accelgen::device_limits accelgen::kernels)
  endif()
  # The own families' C sources (plain, and rendered from their templates
  # into the binary folder) are compiled with the target (C99, against
  # their generated parameter structs and the reference kernels' headers),
  # so that a mistake in them stops the target's build, not a project
  # accelgen later writes.
  set(kernel_sources ${kernel_files})
  list(FILTER kernel_sources INCLUDE REGEX "\\.c$")
  set(rendered)
  foreach(file IN LISTS kernel_files)
    if(file MATCHES "/([^/]+\\.[ch])\\.in$")
      list(APPEND rendered "${outdir}/${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(rendered_sources ${rendered})
  list(FILTER rendered_sources INCLUDE REGEX "\\.c$")
  list(APPEND kernel_sources ${rendered_sources})
  if(kernel_sources)
    set(params "${outdir}/${name}_params.h")
    add_custom_command(
      OUTPUT "${params}" ${rendered}
      COMMAND ${tblgen} -gen-own-kernel-files "${src}" -o "${params}"
              --own-kernels-dir "${outdir}"
              -d "${params}.d" --write-if-changed
      DEPENDS "${src}" ${tblgen_dep} ${kernel_files}
      DEPFILE "${params}.d"
      COMMENT "accelgen-tblgen -gen-own-kernel-files ${name}"
      VERBATIM)
    add_library(accelgen_${name}_kernels OBJECT ${kernel_sources} "${params}")
    set_target_properties(accelgen_${name}_kernels PROPERTIES
                          C_STANDARD 99 C_STANDARD_REQUIRED ON
                          C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
    if(TARGET accelgen_kernels)
      set(kernels_lib accelgen_kernels)
    else()
      set(kernels_lib accelgen::kernels)
    endif()
    target_include_directories(accelgen_${name}_kernels PRIVATE
      "${srcdir}" "${outdir}"
      $<TARGET_PROPERTY:${kernels_lib},INTERFACE_INCLUDE_DIRECTORIES>)
    if(TARGET accelgen_ref_kernels_files)
      add_dependencies(accelgen_${name}_kernels accelgen_ref_kernels_files)
    endif()
    add_dependencies(accelgen_target_${name} accelgen_${name}_kernels)
  endif()
  if(ARG_PLUGIN)
    _accelgen_add_plugin(${name} "${outdir}")
  endif()
endfunction()

# The module of plugin target <name>: one generated source defining its
# entry point, the target library linked in, nothing exported but the entry
# point (hidden visibility, the archives' symbols excluded), and every symbol
# resolved at link time, so that a module that loads also runs.
function(_accelgen_add_plugin name outdir)
  set(source "${outdir}/${name}Plugin.cpp")
  file(CONFIGURE OUTPUT "${source}" CONTENT
"// Generated by accelgen_add_target (cmake/AccelgenTarget.cmake): the entry
// point of the plugin module of target ${name}. Do not edit.
#include \"target/Plugin.h\"

ACCELGEN_DEFINE_TARGET_PLUGIN(${name})
" @ONLY)
  add_library(accelgen_plugin_${name} MODULE "${source}")
  set_target_properties(accelgen_plugin_${name} PROPERTIES
                        PREFIX "" OUTPUT_NAME "accelgen-${name}" SUFFIX ".so"
                        CXX_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(accelgen_plugin_${name} PRIVATE accelgen_target_${name})
  target_link_options(accelgen_plugin_${name} PRIVATE
                      "LINKER:--exclude-libs,ALL")
  # Sanitizer runtimes live in the executable, so a sanitized module has
  # undefined symbols by design.
  get_directory_property(options COMPILE_OPTIONS)
  if(NOT "${options} ${CMAKE_CXX_FLAGS} ${CMAKE_SHARED_LINKER_FLAGS}"
         MATCHES "-fsanitize")
    target_link_options(accelgen_plugin_${name} PRIVATE "LINKER:-z,defs")
  endif()
endfunction()

# accelgen_add_constraint_tests(<name>)
#
# A doctest program, `accelgen_<name>_constraint_tests`, running the
# boundary cases accelgen-tblgen generated for every constraint of target
# <name> (ConstraintTests.inc, one test case "<name>/<constraint id>" each)
# through target::runConstraintProbe, and a CTest test running it when
# testing is enabled. Needs doctest (Debian: doctest-dev). The program's one
# source is generated; it shows the include order a hand-written test of
# the generated tables needs: the check declarations of Legality.inc, the
# tables of ConstraintTests.inc, then <testing/ConstraintProbeTests.h> with
# ACCELGEN_PROBE_TARGET and ACCELGEN_PROBE_NAMESPACE defined.
function(accelgen_add_constraint_tests name)
  if(NOT TARGET accelgen_target_${name})
    message(FATAL_ERROR "accelgen_add_constraint_tests: no target '${name}' "
                        "(call accelgen_add_target(${name} ...) first)")
  endif()
  find_package(doctest REQUIRED)
  get_target_property(outdir accelgen_${name}_generated ACCELGEN_OUTPUT_DIR)
  set(source "${outdir}/${name}ConstraintTests.cpp")
  file(CONFIGURE OUTPUT "${source}" CONTENT
"// Generated by accelgen_add_constraint_tests (cmake/AccelgenTarget.cmake):
// every generated constraint probe of target ${name} as a doctest test case.
// Do not edit.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include \"target/ConstraintProbe.h\"
#include \"target/ConstraintRuntime.h\"
#include \"target/Legality.h\"

// 1. The declarations of the generated checks the tables point at.
#define GET_LEGALITY_DECL
#include \"Legality.inc\"

// 2. The probe tables.
#define GET_CONSTRAINT_TESTS_DECL
#define GET_CONSTRAINT_TESTS_IMPL
#include \"ConstraintTests.inc\"

// 3. One test case per constraint.
#define ACCELGEN_PROBE_TARGET ${name}
#define ACCELGEN_PROBE_NAMESPACE accelgen::targets::${name}
#include \"testing/ConstraintProbeTests.h\"
" @ONLY)
  add_executable(accelgen_${name}_constraint_tests "${source}")
  target_link_libraries(accelgen_${name}_constraint_tests PRIVATE
                        accelgen_target_${name} doctest::doctest)
  if(COMMAND add_test)
    add_test(NAME ${name}_constraint_tests
             COMMAND accelgen_${name}_constraint_tests)
  endif()
endfunction()
