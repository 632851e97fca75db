// Which driver callbacks count as the runtime's own: a runtime call whose exit
// callback was dropped by a narrowing must not hide the thread's later driver
// calls.
#include "ReentryGuard.h"

#include <gtest/gtest.h>

#include <thread>

namespace graphsafe::inject {
namespace {

constexpr unsigned WatchedCall = 1, UnwatchedCall = 2;
bool watched(unsigned Cbid) { return Cbid == WatchedCall; }

// Each case on its own thread: the depth is per thread.
template <typename Fn> void onFreshThread(Fn F) { std::thread(F).join(); }

TEST(CallDepthTest, DriverCallsInsideARuntimeCallAreTheRuntimes) {
  onFreshThread([] {
    EXPECT_FALSE(CallDepth::inRuntimeCall(0, watched));
    CallDepth::runtimeEnter(UnwatchedCall, 0);
    EXPECT_TRUE(CallDepth::inRuntimeCall(0, watched));
    CallDepth::runtimeExit();
    EXPECT_FALSE(CallDepth::inRuntimeCall(0, watched));
  });
}

TEST(CallDepthTest, UnwatchedCallWhoseExitANarrowingDroppedEnds) {
  onFreshThread([] {
    CallDepth::runtimeEnter(UnwatchedCall, 3);
    // Narrowed (3 -> 4) while inside; the exit never arrives.
    EXPECT_FALSE(CallDepth::inRuntimeCall(4, watched));
    // And stays ended, through later calls that do arrive in full.
    CallDepth::runtimeEnter(WatchedCall, 4);
    EXPECT_TRUE(CallDepth::inRuntimeCall(4, watched));
    CallDepth::runtimeExit();
    EXPECT_FALSE(CallDepth::inRuntimeCall(4, watched));
  });
}

TEST(CallDepthTest, WatchedCallSurvivesANarrowingUntilItsExit) {
  onFreshThread([] {
    CallDepth::runtimeEnter(WatchedCall, 3);
    EXPECT_TRUE(CallDepth::inRuntimeCall(4, watched));
    CallDepth::runtimeExit();
    EXPECT_FALSE(CallDepth::inRuntimeCall(4, watched));
  });
}

TEST(CallDepthTest, ExitWithoutEnterAfterWideningDoesNotGoNegative) {
  onFreshThread([] {
    CallDepth::runtimeExit(); // Entered while narrow, exit seen once wide.
    CallDepth::runtimeEnter(UnwatchedCall, 5);
    EXPECT_TRUE(CallDepth::inRuntimeCall(5, watched));
    CallDepth::runtimeExit();
    EXPECT_FALSE(CallDepth::inRuntimeCall(5, watched));
  });
}

} // namespace
} // namespace graphsafe::inject
