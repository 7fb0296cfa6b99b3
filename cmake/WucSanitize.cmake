# WUC_SANITIZE: build the runtime and everything linked with it — unit,
# stress and example programs, and (through WUC_SANITIZE_FLAGS handed to
# wucc) the lit suite's programs — under a sanitizer (docs/testing.md):
#   address  AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer
#   thread   ThreadSanitizer
# The compiler itself (frontend, sema, lowering, wucc) is built as usual:
# its own ASan+UBSan check is the fuzz target (test/fuzz).
#
# The sanitizer variants of libwuc that every build installs for users,
# libwuc-asan.a and libwuc-tsan.a (runtime/CMakeLists.txt; wucc
# -fsanitize=... links them: docs/driver.md, "Sanitizers"), are built with
# WUC_RUNTIME_VARIANT_FLAGS_<kind> below.
set(WUC_SANITIZE "" CACHE STRING "Sanitizer for the runtime and its users: empty, address (ASan+UBSan) or thread (TSan)")
set_property(CACHE WUC_SANITIZE PROPERTY STRINGS "" address thread)

include(CheckCCompilerFlag)
# WUC_SANITIZE_FLAGS_<kind> work with gcc and clang, for compiling and
# linking (the lit suite hands them to wucc with either back end);
# WUC_SANITIZE_WARNING_FLAGS_<kind> are for this build's compiler only.
# A UBSan finding stops the program, so the test fails.
set(WUC_SANITIZE_FLAGS_address -fsanitize=address,undefined -fno-sanitize-recover=undefined
                               -fno-omit-frame-pointer)
set(WUC_SANITIZE_WARNING_FLAGS_address)
# gcc 12's flow analysis sees through the instrumentation badly: false
# "may be used uninitialized" in libstdc++'s <regex> and <functional>.
check_c_compiler_flag(-Wmaybe-uninitialized WUC_HAVE_WMAYBE_UNINITIALIZED)
if(WUC_HAVE_WMAYBE_UNINITIALIZED)
  list(APPEND WUC_SANITIZE_WARNING_FLAGS_address -Wno-maybe-uninitialized)
endif()
set(WUC_SANITIZE_FLAGS_thread -fsanitize=thread)
set(WUC_SANITIZE_WARNING_FLAGS_thread)
# gcc warns that TSan does not model atomic_thread_fence; the runtime's
# fences order only atomic accesses, which TSan never reports.
check_c_compiler_flag(-Wtsan WUC_HAVE_WTSAN)
if(WUC_HAVE_WTSAN)
  list(APPEND WUC_SANITIZE_WARNING_FLAGS_thread -Wno-tsan)
endif()

set(WUC_SANITIZE_FLAGS)
set(WUC_SANITIZE_WARNING_FLAGS)
if(WUC_SANITIZE STREQUAL "address" OR WUC_SANITIZE STREQUAL "thread")
  set(WUC_SANITIZE_FLAGS ${WUC_SANITIZE_FLAGS_${WUC_SANITIZE}})
  set(WUC_SANITIZE_WARNING_FLAGS ${WUC_SANITIZE_WARNING_FLAGS_${WUC_SANITIZE}})
elseif(NOT WUC_SANITIZE STREQUAL "")
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

# The variants' flags.  ThreadSanitizer's as above.  AddressSanitizer's
# without UBSan: an instrumented runtime would need UBSan's run-time library
# in every -fsanitize=address link, and gcc adds it only for
# -fsanitize=undefined (its libasan has no UBSan handlers); the runtime's
# own undefined behaviour is the WUC_SANITIZE=address tree's to find.
set(WUC_RUNTIME_VARIANT_FLAGS_address -fsanitize=address -fno-omit-frame-pointer)
set(WUC_RUNTIME_VARIANT_FLAGS_thread ${WUC_SANITIZE_FLAGS_thread})

# WUC_SANITIZER_RUNTIMES: whether the build makes (and installs) the
# sanitizer variants of libwuc.  On by default; each variant is left out,
# with a message, when this compiler cannot link a program with its flags
# (no libtsan / libasan installed: scripts/setup.sh installs gcc's).
option(WUC_SANITIZER_RUNTIMES "Build and install libwuc-asan.a and libwuc-tsan.a for wucc -fsanitize=" ON)
include(CheckCSourceCompiles)
set(WUC_SANITIZER_VARIANTS)
if(WUC_SANITIZER_RUNTIMES)
  foreach(kind address thread)
    # Compiled and linked with the flags: the sanitizer's run-time library
    # must be there.
    string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${WUC_RUNTIME_VARIANT_FLAGS_${kind}}")
    check_c_source_compiles("int main(void) { return 0; }" WUC_CAN_SANITIZE_${kind})
    unset(CMAKE_REQUIRED_FLAGS)
    if(WUC_CAN_SANITIZE_${kind})
      list(APPEND WUC_SANITIZER_VARIANTS ${kind})
    else()
      message(STATUS "wuc: ${CMAKE_C_COMPILER} cannot link with ${WUC_RUNTIME_VARIANT_FLAGS_${kind}}: "
                     "no ${kind} sanitizer variant of libwuc")
    endif()
  endforeach()
endif()
