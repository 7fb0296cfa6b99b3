// The per-worker pool of channel segments (runtime/segment_pool.h): reuse on
// the allocating worker, remote frees taken back, the bounds, the sizes, and
// plain malloc outside the workers.  The checks are C (segment_pool_probe.c).
#include <gtest/gtest.h>

#include "sanitizer.h"

extern "C" {
int segment_pool_reuses_on_the_same_worker(void);
int segment_pool_takes_back_what_another_thread_freed(void);
int segment_pool_keeps_a_bounded_number(void);
int segment_pool_keeps_four_sizes(void);
int segment_pool_is_malloc_outside_the_workers(void);
}

#if defined(WUC_ASAN) || defined(WUC_TSAN)
#define POOL_TEST(name) TEST(SegmentPool, DISABLED_##name) // off under sanitizers
#else
#define POOL_TEST(name) TEST(SegmentPool, name)
#endif

// A failed check returns its line in segment_pool_probe.c.
POOL_TEST(ReusesOnTheSameWorker) { EXPECT_EQ(segment_pool_reuses_on_the_same_worker(), 0); }
POOL_TEST(TakesBackWhatAnotherThreadFreed) {
  EXPECT_EQ(segment_pool_takes_back_what_another_thread_freed(), 0);
}
POOL_TEST(KeepsABoundedNumber) { EXPECT_EQ(segment_pool_keeps_a_bounded_number(), 0); }
POOL_TEST(KeepsFourSizes) { EXPECT_EQ(segment_pool_keeps_four_sizes(), 0); }
POOL_TEST(IsMallocOutsideTheWorkers) { EXPECT_EQ(segment_pool_is_malloc_outside_the_workers(), 0); }
