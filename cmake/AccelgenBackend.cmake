# accelgen_add_backend(<name> FUNCTION <function> SOURCES <src...>
#                      [LINK <library...>])
#
# Builds a backend (lib/driver/Backend.h) into the static library
# accelgen_backend_<name> and records it: the generated
# driver::registerBuiltinBackends() (targets/CMakeLists.txt) calls
# accelgen::backends::<function>(), which registers it. A backend's sources
# live with what it compiles for (its target's folder, or the library it
# shares between targets); nothing else lists backends.
function(accelgen_add_backend name)
  cmake_parse_arguments(ARG "" "FUNCTION" "SOURCES;LINK" ${ARGN})
  if(NOT ARG_FUNCTION OR NOT ARG_SOURCES)
    message(FATAL_ERROR "accelgen_add_backend(${name}) needs FUNCTION and SOURCES")
  endif()
  add_library(accelgen_backend_${name} STATIC ${ARG_SOURCES})
  target_link_libraries(accelgen_backend_${name} PUBLIC accelgen_driver
                        ${ARG_LINK})
  set_property(GLOBAL APPEND PROPERTY ACCELGEN_BACKENDS "${name}:${ARG_FUNCTION}")
endfunction()
