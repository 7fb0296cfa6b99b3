# _wuc_add_target(<target> <EXECUTABLE|STATIC|SHARED> WUCC <wucc>
#                 LIBRARY <libwuc target> [OBJECT_DEPENDS <file>...]
#                 SOURCES <source>...)
#
# The body shared by the in-tree wuc_add_executable() and wuc_add_library()
# (cmake/WucCompile.cmake) and the installed package's
# (lib/cmake/wuc/wucConfig.cmake).  The target is an ordinary CMake target
# whose compile rule runs wucc, docs/driver.md's drop-in cc:
#
# - the .wc sources are marked LANGUAGE C, so CMake compiles them with the
#   target's own rule: its flags (CMAKE_C_FLAGS, those of the build type, the
#   target's and its dependencies' include directories, definitions and
#   options, C_STANDARD, -fPIC for a shared library), a depfile (-MD -MT -MF,
#   read by Ninja and by the Makefile generators), and an object path made
#   of the source's own path (CMakeFiles/<target>.dir/<dir>/util.wc.o), so two
#   util.wc in different folders are two objects;
# - the target's C compiler launcher is cmake/wucc-launcher.sh, which turns
#   "<cc> <arguments>" into "wucc --cc=<cc> <arguments>": wucc lowers a
#   dialect file and hands everything else to the back end untouched (a user's
#   launcher such as ccache stays, behind wucc).  When the project's C compiler
#   is wucc itself (CC=wucc), no launcher is needed and none is set;
# - WUC_WC_FLAGS, if set, are added to the .wc sources only (a .wc source
#   added later, with target_sources(), needs LANGUAGE C set by hand);
# - an executable or a shared library links LIBRARY (libwuc.a, position
#   independent) privately, a static library publicly (its users link it);
#   nothing else: no -rdynamic (reports name functions from the symbol table,
#   docs/runtime.md 'Names in reports'), no -lpthread or -ldl;
# - the .wc objects also depend on OBJECT_DEPENDS (wucc and its semantic pass:
#   a new compiler recompiles them).
include_guard(GLOBAL)

function(_wuc_add_target target kind)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "WUCC;LIBRARY" "OBJECT_DEPENDS;SOURCES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "_wuc_add_target: unexpected arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(kind STREQUAL "EXECUTABLE")
    add_executable(${target} ${arg_SOURCES})
  elseif(kind STREQUAL "STATIC" OR kind STREQUAL "SHARED")
    add_library(${target} ${kind} ${arg_SOURCES})
  else()
    message(FATAL_ERROR "wuc_add_library(${target} ${kind}): expected STATIC or SHARED")
  endif()

  foreach(src IN LISTS arg_SOURCES)
    if(src MATCHES "\\.wc$")
      set_property(SOURCE ${src} PROPERTY LANGUAGE C)
      set_property(SOURCE ${src} APPEND PROPERTY OBJECT_DEPENDS ${arg_OBJECT_DEPENDS})
      if(WUC_WC_FLAGS)
        set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS ${WUC_WC_FLAGS})
      endif()
    endif()
  endforeach()

  get_filename_component(cc_name "${CMAKE_C_COMPILER}" NAME)
  if(NOT cc_name STREQUAL "wucc")
    find_program(WUC_SH sh REQUIRED)
    mark_as_advanced(WUC_SH)
    set(launcher ${WUC_SH} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/wucc-launcher.sh ${arg_WUCC})
    get_target_property(user_launcher ${target} C_COMPILER_LAUNCHER)
    if(user_launcher)
      list(APPEND launcher ${user_launcher})
    endif()
    list(APPEND launcher --)
    set_target_properties(${target} PROPERTIES C_COMPILER_LAUNCHER "${launcher}")
  endif()

  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  if(kind STREQUAL "STATIC")
    target_link_libraries(${target} PUBLIC ${arg_LIBRARY})
  else()
    target_link_libraries(${target} PRIVATE ${arg_LIBRARY})
  endif()
endfunction()
