# _wuc_add_executable(<target> WUCC <command> LIBRARY <lib> [TARGET_FLAGS]
#                     [FLAGS <flag>...] [DEPENDS <file-or-target>...]
#                     SOURCES <source>...)
#
# The body shared by the in-tree wuc_add_executable() (cmake/WucCompile.cmake)
# and the installed package's (lib/cmake/wuc/wucConfig.cmake): each .wc
# source is compiled by wucc -c into an object of its own (a custom command
# depending on the source, wucc and DEPENDS), the other sources as usual; the
# executable links with LIBRARY and nothing else: no -rdynamic (reports name
# functions from the symbol table, docs/runtime.md 'Names in reports'), no
# -lpthread or -ldl.  TARGET_FLAGS also passes the target's include
# directories, compile definitions and compile options to wucc.
include_guard(GLOBAL)

function(_wuc_add_executable target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "TARGET_FLAGS" "WUCC;LIBRARY" "FLAGS;DEPENDS;SOURCES")
  set(target_flags)
  if(arg_TARGET_FLAGS)
    set(inc "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
    set(def "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
    set(opt "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>")
    set(target_flags "$<$<BOOL:${inc}>:-I$<JOIN:${inc},$<SEMICOLON>-I>>"
                     "$<$<BOOL:${def}>:-D$<JOIN:${def},$<SEMICOLON>-D>>"
                     "${opt}")
  endif()
  set(objects)
  set(others)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(abs ${src} ABSOLUTE)
    if(src MATCHES "\\.wc$")
      get_filename_component(name ${src} NAME_WE)
      set(obj ${CMAKE_CURRENT_BINARY_DIR}/${target}.wc/${name}.o)
      add_custom_command(OUTPUT ${obj}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${target}.wc
        COMMAND ${arg_WUCC} ${arg_FLAGS} ${target_flags} -c ${abs} -o ${obj}
        DEPENDS ${abs} ${arg_DEPENDS}
        COMMENT "wucc ${src}"
        COMMAND_EXPAND_LISTS
        VERBATIM)
      list(APPEND objects ${obj})
    else()
      list(APPEND others ${src})
    endif()
  endforeach()
  add_executable(${target} ${others} ${objects})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  target_link_libraries(${target} PRIVATE ${arg_LIBRARY})
endfunction()
