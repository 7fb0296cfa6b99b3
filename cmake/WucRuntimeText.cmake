# Run as `cmake -DARCHIVE=... -DOBJCOPY=... -DOBJDUMP=... -P WucRuntimeText.cmake`
# after libwuc.a is archived: puts all of the runtime's code into one section,
# wuc_text, whose bounds the linker then marks (__start_wuc_text and
# __stop_wuc_text), so that the preemption handler can tell the runtime's
# code from the program's (runtime/preempt.h).  Fails if code is left in a
# section of another name.
set(renames)
foreach(section .text .text.unlikely .text.hot .text.startup .text.exit)
  list(APPEND renames --rename-section ${section}=wuc_text)
endforeach()
execute_process(COMMAND ${OBJCOPY} ${renames} ${ARCHIVE} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${OBJCOPY} could not rename the code sections of ${ARCHIVE}")
endif()
execute_process(COMMAND ${OBJDUMP} -h ${ARCHIVE} OUTPUT_VARIABLE headers RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${OBJDUMP} could not read ${ARCHIVE}")
endif()
# objdump -h prints each section's name on one line and its flags on the next.
string(REGEX MATCHALL "[^ \n]+ +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+ +[^\n]*\n[^\n]*CODE"
       code_sections "${headers}")
foreach(entry IN LISTS code_sections)
  string(REGEX MATCH "^[ 0-9]*([^ ]+)" _ "${entry}")
  if(NOT CMAKE_MATCH_1 STREQUAL "wuc_text")
    message(FATAL_ERROR "${ARCHIVE}: code left in section ${CMAKE_MATCH_1}; add it to "
                        "cmake/WucRuntimeText.cmake")
  endif()
endforeach()
