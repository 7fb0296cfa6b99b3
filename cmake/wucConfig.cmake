# wucConfig.cmake — find_package(wuc) for an installed wuc.
#
#   find_package(wuc REQUIRED)
#   wuc_add_executable(app main.wc util.c)   # .wc sources compiled by wucc
#   target_link_libraries(other PRIVATE wuc::wuc)   # plain C over libwuc
#
# Imported targets: wuc::wuc (libwuc.a, <wuc.h>, Threads: nothing with glibc 2.34+),
# wuc::wuc_shared (libwuc.so), wuc::wucc (the compiler driver).  All paths are
# computed from this file's location: the installed tree may be moved.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/wucTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/WucAddExecutable.cmake)

# wuc_add_executable(<target> <source>...): an executable whose .wc sources
# are compiled by the installed wucc (-c, with CMAKE_C_FLAGS and the flags of
# CMAKE_BUILD_TYPE, the target's include directories, compile definitions and
# compile options, and WUC_WC_FLAGS if set), the other sources by the C
# compiler; linked with wuc::wuc (no -rdynamic needed: reports name functions
# from the symbol table).
function(wuc_add_executable target)
  separate_arguments(flags UNIX_COMMAND "${CMAKE_C_FLAGS}")
  if(CMAKE_BUILD_TYPE)
    string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
    separate_arguments(config_flags UNIX_COMMAND "${CMAKE_C_FLAGS_${config}}")
    list(APPEND flags ${config_flags})
  endif()
  list(APPEND flags ${WUC_WC_FLAGS})
  get_filename_component(include_dir "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../../include" ABSOLUTE)
  file(GLOB headers ${include_dir}/*.h ${include_dir}/wuc/*.h)
  _wuc_add_executable(${target} WUCC "$<TARGET_FILE:wuc::wucc>" LIBRARY wuc::wuc TARGET_FLAGS
                      FLAGS ${flags}
                      DEPENDS "$<TARGET_FILE:wuc::wucc>" ${headers}
                      SOURCES ${ARGN})
endfunction()
