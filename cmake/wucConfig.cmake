# wucConfig.cmake — find_package(wuc) for an installed wuc.
#
#   find_package(wuc REQUIRED)
#   wuc_add_executable(app main.wc util.c)        # .wc sources compiled by wucc
#   wuc_add_library(jobs STATIC jobs.wc queue.c)  # or SHARED
#   target_link_libraries(app PRIVATE jobs)
#   target_link_libraries(other PRIVATE wuc::wuc) # plain C over libwuc
#
# Imported targets: wuc::wuc (libwuc.a, <wuc.h>, Threads: nothing with glibc 2.34+),
# wuc::wuc_shared (libwuc.so), wuc::wucc (the compiler driver), and, where the
# build made them, wuc::wuc_tsan and wuc::wuc_asan (libwuc-tsan.a, libwuc-asan.a:
# the runtime for a program built with -fsanitize=thread or address; they add
# that flag to the link: docs/driver.md, "Sanitizers").  All paths are
# computed from this file's location: the installed tree may be moved.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/wucTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/WucAddExecutable.cmake)

# WUC_WUCC: the installed wucc, for projects that run it themselves (the
# functions below find it, and its semantic pass, from their own file).
get_filename_component(WUC_WUCC "${CMAKE_CURRENT_LIST_DIR}/../../../bin/wucc" ABSOLUTE)

# WUC_SANITIZER (thread, address or empty): which libwuc wuc_add_executable()
# and wuc_add_library() link, as wucc picks it for its own links
# (docs/driver.md, "Sanitizers").  Unset, it is read from CMAKE_C_FLAGS and
# those of the build type: -fsanitize=...thread... links wuc::wuc_tsan,
# -fsanitize=...address... wuc::wuc_asan, anything else wuc::wuc.
function(_wuc_runtime_library out)
  if(DEFINED WUC_SANITIZER)
    set(sanitizer "${WUC_SANITIZER}")
  else()
    string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
    set(flags " ${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${build_type}} ")
    set(sanitizer "")
    if(flags MATCHES " -fsanitize=([a-z,-]*,)?thread[ ,]")
      set(sanitizer thread)
    elseif(flags MATCHES " -fsanitize=([a-z,-]*,)?address[ ,]")
      set(sanitizer address)
    endif()
  endif()
  if(sanitizer STREQUAL "")
    set(${out} wuc::wuc PARENT_SCOPE)
    return()
  elseif(sanitizer STREQUAL "thread")
    set(library wuc::wuc_tsan)
  elseif(sanitizer STREQUAL "address")
    set(library wuc::wuc_asan)
  else()
    message(FATAL_ERROR "WUC_SANITIZER=${sanitizer}: expected thread, address or nothing")
  endif()
  if(NOT TARGET ${library})
    message(FATAL_ERROR "wuc: -fsanitize=${sanitizer} needs ${library}, which this wuc was "
                        "built without (docs/driver.md, 'Sanitizers')")
  endif()
  set(${out} ${library} PARENT_SCOPE)
endfunction()

function(_wuc_installed_target target kind)
  get_filename_component(prefix "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../.." ABSOLUTE)
  _wuc_runtime_library(library)
  _wuc_add_target(${target} ${kind} WUCC "${prefix}/bin/wucc" LIBRARY ${library}
                  OBJECT_DEPENDS "${prefix}/bin/wucc" "${prefix}/lib/wuc/wucc-sema.so"
                  SOURCES ${ARGN})
endfunction()

# wuc_add_executable(<target> <source>...): an executable whose .wc sources
# are compiled by the installed wucc through the target's own compile rule:
# with CMAKE_C_FLAGS and those of the build type, the target's include
# directories, compile definitions and compile options, and WUC_WC_FLAGS if
# set; CMake gets a depfile for each, and each object is named after its
# source's path.  The other sources are compiled as usual (through wucc too,
# which hands plain C to the C compiler untouched).  Linked with wuc::wuc
# (libwuc.a; no -rdynamic, -lpthread or -ldl needed).
function(wuc_add_executable target)
  _wuc_installed_target(${target} EXECUTABLE ${ARGN})
endfunction()

# wuc_add_library(<target> STATIC|SHARED <source>...): the same for a
# library.  A static one links wuc::wuc publicly (its users link libwuc.a);
# a shared one links libwuc.a (position independent) into itself.
function(wuc_add_library target kind)
  _wuc_installed_target(${target} ${kind} ${ARGN})
endfunction()
