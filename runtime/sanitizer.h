/* sanitizer.h — which sanitizer the including file is compiled under.
 *
 * WUC_ASAN is 1 under AddressSanitizer, WUC_TSAN under ThreadSanitizer, and
 * WUC_FIBER_ANNOTATIONS under either: the context switch then tells the
 * sanitizer about every stack switch (context.c).  Decided by the compiler's
 * own flags, not by a build option, so any sanitized build of these sources
 * gets the annotations and a plain build pays nothing.  gcc defines
 * __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang 14 answers only
 * __has_feature.  Preprocessor only: context_x86_64.S includes it too. */
#ifndef WUC_RUNTIME_SANITIZER_H
#define WUC_RUNTIME_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define WUC_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define WUC_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(WUC_ASAN)
#define WUC_ASAN 1
#endif
#if __has_feature(thread_sanitizer) && !defined(WUC_TSAN)
#define WUC_TSAN 1
#endif
#endif

#if defined(WUC_ASAN) || defined(WUC_TSAN)
#define WUC_FIBER_ANNOTATIONS 1
#endif

/* A function ThreadSanitizer does not instrument at all (not even its entry
 * and exit): for code that may run in a signal handler that interrupted
 * ThreadSanitizer itself (preempt.c). */
#if defined(__clang__)
#define WUC_NO_TSAN __attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
#else
#define WUC_NO_TSAN __attribute__((no_sanitize_thread))
#endif
/* A function AddressSanitizer does not check: one that reads a stack's
 * words whatever the frames there are (redzones included). */
#define WUC_NO_ASAN __attribute__((no_sanitize_address))

#endif
