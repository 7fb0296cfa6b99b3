# wucConfig.cmake — find_package(wuc) for an installed wuc.
#
#   find_package(wuc REQUIRED)
#   wuc_add_executable(app main.wc util.c)        # .wc sources compiled by wucc
#   wuc_add_library(jobs STATIC jobs.wc queue.c)  # or SHARED
#   target_link_libraries(app PRIVATE jobs)
#   target_link_libraries(other PRIVATE wuc::wuc) # plain C over libwuc
#
# Imported targets: wuc::wuc (libwuc.a, <wuc.h>, Threads: nothing with glibc 2.34+),
# wuc::wuc_shared (libwuc.so), wuc::wucc (the compiler driver).  All paths are
# computed from this file's location: the installed tree may be moved.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/wucTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/WucAddExecutable.cmake)

# WUC_WUCC: the installed wucc, for projects that run it themselves (the
# functions below find it, and its semantic pass, from their own file).
get_filename_component(WUC_WUCC "${CMAKE_CURRENT_LIST_DIR}/../../../bin/wucc" ABSOLUTE)

function(_wuc_installed_target target kind)
  get_filename_component(prefix "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../.." ABSOLUTE)
  _wuc_add_target(${target} ${kind} WUCC "${prefix}/bin/wucc" LIBRARY wuc::wuc
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
