// The injection's view of the caching allocator's blocks, without libtorch or
// a GPU: which block frees reach the trace, once, and with which free site.
// The tracker library only forwards PyTorch's events to onBlockEvent, so this
// is the part that decides. Each test uses its own address range: the state
// lives for the whole process, as it does in a program.
#include "AllocatorBlocks.h"
#include "AllocatorSink.h"
#include "MemoryMap.h"
#include "TraceWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace graphsafe::inject;
using nlohmann::json;

namespace {

CUgraphExec exec(uintptr_t N) { return reinterpret_cast<CUgraphExec>(N); }

class AllocatorBlocksTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    unsetenv("RANK");
    Dir = fs::temp_directory_path() / ("graphsafe-blocks-" + std::to_string(::getpid()));
    fs::create_directories(Dir);
    ASSERT_TRUE(trace().open(Dir.string()));
  }
  static void TearDownTestSuite() {
    trace().close();
    fs::remove_all(Dir);
  }

  // The events written since the last call.
  std::vector<json> newEvents() {
    std::vector<json> All;
    for (const auto &Entry : fs::directory_iterator(Dir)) {
      std::ifstream In(Entry.path());
      for (std::string Line; std::getline(In, Line);)
        All.push_back(json::parse(Line));
    }
    std::vector<json> Out(All.begin() + std::min(Seen, All.size()), All.end());
    Seen = All.size();
    return Out;
  }

  void SetUp() override { newEvents(); }

  static inline fs::path Dir;
  size_t Seen = 0;
};

TEST_F(AllocatorBlocksTest, FreeOfABlockALiveGraphPointsIntoIsWrittenWithItsFreeSite) {
  onBlockEvent(GraphcheckBlockAlloc, 0x10000, 0x200);
  watchExecBlocks(exec(1), {0x10010});
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block");
  EXPECT_EQ(Events[0]["addr"], "0x10000");
  EXPECT_EQ(Events[0]["size"], 0x200);
  EXPECT_TRUE(inWatchedBlock(0x101ff));
  EXPECT_FALSE(inWatchedBlock(0x10200));

  setPythonFreeSite("train.py:12 step");
  onBlockEvent(GraphcheckBlockFree, 0x10000, 0x200);
  setPythonFreeSite(nullptr);
  Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block_free");
  EXPECT_EQ(Events[0]["addr"], "0x10000");
  EXPECT_EQ(Events[0]["stack"], json::array({"train.py:12 step"}));
  EXPECT_FALSE(inWatchedBlock(0x10010));
  unwatchExecBlocks(exec(1));
}

TEST_F(AllocatorBlocksTest, FreesNoLiveGraphPointsIntoWriteNothing) {
  onBlockEvent(GraphcheckBlockAlloc, 0x20000, 0x100);
  onBlockEvent(GraphcheckBlockFree, 0x20000, 0x100);
  // A graph destroyed before the free: the block was announced, its free no longer matters.
  onBlockEvent(GraphcheckBlockAlloc, 0x21000, 0x100);
  watchExecBlocks(exec(2), {0x21000});
  unwatchExecBlocks(exec(2));
  onBlockEvent(GraphcheckBlockFree, 0x21000, 0x100);
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block");
  // Nor does a free of a block the tracker never reported.
  onBlockEvent(GraphcheckBlockFree, 0x22000, 0x100);
  EXPECT_TRUE(newEvents().empty());
}

TEST_F(AllocatorBlocksTest, GraphOwnedMemoryIsNotWatched) {
  // A graph's private pool: its outputs dying is normal, not a finding.
  memory().add(0x30000, 0x1000, /*GraphOwned=*/true);
  onBlockEvent(GraphcheckBlockAlloc, 0x30000, 0x100);
  watchExecBlocks(exec(3), {0x30000});
  EXPECT_FALSE(inWatchedBlock(0x30000));
  onBlockEvent(GraphcheckBlockFree, 0x30000, 0x100);
  EXPECT_TRUE(newEvents().empty());
  unwatchExecBlocks(exec(3));
  memory().remove(0x30000);
}

TEST_F(AllocatorBlocksTest, ABlockIsAnnouncedOnceAndWatchedWhileAnyGraphPointsIntoIt) {
  onBlockEvent(GraphcheckBlockAlloc, 0x40000, 0x100);
  watchExecBlocks(exec(4), {0x40000});
  watchExecBlocks(exec(5), {0x40080});
  EXPECT_EQ(newEvents().size(), 1u);
  unwatchExecBlocks(exec(4));
  EXPECT_TRUE(inWatchedBlock(0x40000));
  onBlockEvent(GraphcheckBlockFree, 0x40000, 0x100);
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block_free");
  // No Python line and no site set: the native frames outside graphcheck,
  // of which this test binary (graphcheck's own code) has none.
  EXPECT_TRUE(Events[0]["stack"].is_array());
  unwatchExecBlocks(exec(5));
}

TEST_F(AllocatorBlocksTest, AnUpdatedExecWatchesOnlyWhatItPointsAtNow) {
  onBlockEvent(GraphcheckBlockAlloc, 0x50000, 0x100);
  onBlockEvent(GraphcheckBlockAlloc, 0x60000, 0x100);
  watchExecBlocks(exec(6), {0x50000});
  watchExecBlocks(exec(6), {0x60000}); // cudaGraphExecUpdate repointed it.
  EXPECT_EQ(newEvents().size(), 2u);
  onBlockEvent(GraphcheckBlockFree, 0x50000, 0x100);
  EXPECT_TRUE(newEvents().empty());
  onBlockEvent(GraphcheckBlockFree, 0x60000, 0x100);
  EXPECT_EQ(newEvents().size(), 1u);
  unwatchExecBlocks(exec(6));
}

TEST_F(AllocatorBlocksTest, EveryDeliveredEventIsCounted) {
  uint64_t Before = blockEventCount();
  onBlockEvent(GraphcheckBlockAlloc, 0x70000, 0x100);
  onBlockEvent(GraphcheckBlockFree, 0x70000, 0x100);
  onBlockEvent(GraphcheckBlockFree, 0x70000, 0x100); // Unknown by now: still delivered.
  EXPECT_EQ(blockEventCount() - Before, 3u);
}

} // namespace
