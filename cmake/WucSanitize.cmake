# WUC_SANITIZE: build the runtime and everything linked with it — unit,
# stress and example programs, and (through WUC_SANITIZE_FLAGS handed to
# wucc) the lit suite's programs — under a sanitizer (docs/testing.md):
#   address  AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer
#   thread   ThreadSanitizer
# The compiler itself (frontend, sema, lowering, wucc) is built as usual:
# its own ASan+UBSan check is the fuzz target (test/fuzz).
set(WUC_SANITIZE "" CACHE STRING "Sanitizer for the runtime and its users: empty, address (ASan+UBSan) or thread (TSan)")
set_property(CACHE WUC_SANITIZE PROPERTY STRINGS "" address thread)

include(CheckCCompilerFlag)
# WUC_SANITIZE_FLAGS work with gcc and clang, for compiling and linking (the
# lit suite hands them to wucc with either back end); WUC_SANITIZE_WARNING_FLAGS
# are for this build's compiler only.
set(WUC_SANITIZE_FLAGS)
set(WUC_SANITIZE_WARNING_FLAGS)
if(WUC_SANITIZE STREQUAL "")
elseif(WUC_SANITIZE STREQUAL "address")
  # A UBSan finding stops the program, so the test fails.
  set(WUC_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                         -fno-omit-frame-pointer)
  # gcc 12's flow analysis sees through the instrumentation badly: false
  # "may be used uninitialized" in libstdc++'s <regex> and <functional>.
  check_c_compiler_flag(-Wmaybe-uninitialized WUC_HAVE_WMAYBE_UNINITIALIZED)
  if(WUC_HAVE_WMAYBE_UNINITIALIZED)
    list(APPEND WUC_SANITIZE_WARNING_FLAGS -Wno-maybe-uninitialized)
  endif()
elseif(WUC_SANITIZE STREQUAL "thread")
  set(WUC_SANITIZE_FLAGS -fsanitize=thread)
  # gcc warns that TSan does not model atomic_thread_fence; the runtime's
  # fences order only atomic accesses, which TSan never reports.
  check_c_compiler_flag(-Wtsan WUC_HAVE_WTSAN)
  if(WUC_HAVE_WTSAN)
    list(APPEND WUC_SANITIZE_WARNING_FLAGS -Wno-tsan)
  endif()
else()
  message(FATAL_ERROR "WUC_SANITIZE=${WUC_SANITIZE}: expected address, thread or nothing")
endif()

# Linked by the runtime's targets, so every user of libwuc in the build tree
# compiles and links with the same flags (a sanitized runtime needs the
# sanitizer's run-time library in the program).
add_library(wuc_sanitize INTERFACE)
target_compile_options(wuc_sanitize INTERFACE ${WUC_SANITIZE_FLAGS} ${WUC_SANITIZE_WARNING_FLAGS})
target_link_options(wuc_sanitize INTERFACE ${WUC_SANITIZE_FLAGS})
if(WUC_SANITIZE)
  message(STATUS "wuc: runtime, tests and examples built with ${WUC_SANITIZE_FLAGS}")
endif()
