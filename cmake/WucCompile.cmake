# wuc_add_executable(<target> <source>...): an executable whose .wc sources
# are compiled by wucc (the other sources as usual), linked with libwuc.
# In-tree counterpart of the installed package's function (issue 6).
set(WUC_WC_FLAGS -g -O2 -Wall -Wextra)
if(WUC_WERROR)
  list(APPEND WUC_WC_FLAGS -Werror)
endif()
file(GLOB WUC_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/stdlib/*.h ${PROJECT_SOURCE_DIR}/stdlib/wuc/*.h)

function(wuc_add_executable target)
  set(objects)
  set(others)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs ${src} ABSOLUTE)
    if(src MATCHES "\\.wc$")
      get_filename_component(name ${src} NAME_WE)
      set(obj ${CMAKE_CURRENT_BINARY_DIR}/${target}.wc/${name}.o)
      add_custom_command(OUTPUT ${obj}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${target}.wc
        COMMAND wucc ${WUC_WC_FLAGS} -c ${abs} -o ${obj}
        DEPENDS ${abs} wucc ${WUC_PUBLIC_HEADERS}
        COMMENT "wucc ${src}"
        VERBATIM)
      list(APPEND objects ${obj})
    else()
      list(APPEND others ${src})
    endif()
  endforeach()
  add_executable(${target} ${others} ${objects})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C
                                             ENABLE_EXPORTS ON) # names in deadlock reports
  target_link_libraries(${target} PRIVATE wuc)
endfunction()
