# wuc_add_executable(<target> <source>...): an executable whose .wc sources
# are compiled by wucc (the other sources as usual), linked with libwuc.
# In-tree counterpart of the installed package's function (issue 6); both
# share _wuc_add_executable() from WucAddExecutable.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/WucAddExecutable.cmake)

set(WUC_WC_FLAGS -g -O2 -Wall -Wextra)
if(WUC_WERROR)
  list(APPEND WUC_WC_FLAGS -Werror)
endif()
# Compile and link; wucc's back end is this build's cc (WucSanitize.cmake).
list(APPEND WUC_WC_FLAGS ${WUC_SANITIZE_FLAGS} ${WUC_SANITIZE_WARNING_FLAGS})
file(GLOB WUC_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/stdlib/*.h ${PROJECT_SOURCE_DIR}/stdlib/wuc/*.h)

function(wuc_add_executable target)
  _wuc_add_executable(${target} WUCC wucc LIBRARY wuc
                      FLAGS ${WUC_WC_FLAGS}
                      DEPENDS wucc ${WUC_PUBLIC_HEADERS}
                      SOURCES ${ARGN})
endfunction()
