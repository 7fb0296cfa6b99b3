# wuc_add_executable(<target> <source>...) and
# wuc_add_library(<target> STATIC|SHARED <source>...): targets whose .wc
# sources are compiled by this build's wucc through the target's own compile
# rule (so with CMAKE_BUILD_TYPE's flags, the target's include directories,
# definitions and options, and a depfile), linked with libwuc.  In-tree
# counterparts of the installed package's functions (wucConfig.cmake); both
# share _wuc_add_target() from WucAddExecutable.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/WucAddExecutable.cmake)

# Extra flags for the .wc sources only (none by default: the build type's and
# the directory's flags apply, -Wall -Wextra and WUC_WERROR's -Werror
# included; the sanitizer's come with libwuc, WucSanitize.cmake).
set(WUC_WC_FLAGS)

# wucc and its semantic pass: the .wc objects are rebuilt when either changes.
set(WUC_IN_TREE_COMPILER ${CMAKE_BINARY_DIR}/bin/wucc ${CMAKE_BINARY_DIR}/lib/wuc/wucc-sema.so)

function(wuc_add_executable target)
  _wuc_add_target(${target} EXECUTABLE WUCC ${CMAKE_BINARY_DIR}/bin/wucc LIBRARY wuc
                  OBJECT_DEPENDS ${WUC_IN_TREE_COMPILER} SOURCES ${ARGN})
  add_dependencies(${target} wucc wuc_sema_module)
endfunction()

function(wuc_add_library target kind)
  _wuc_add_target(${target} ${kind} WUCC ${CMAKE_BINARY_DIR}/bin/wucc LIBRARY wuc
                  OBJECT_DEPENDS ${WUC_IN_TREE_COMPILER} SOURCES ${ARGN})
  add_dependencies(${target} wucc wuc_sema_module)
endfunction()
