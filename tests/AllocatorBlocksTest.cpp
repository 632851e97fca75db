// The injection's view of the caching allocator's blocks, without libtorch or
// a GPU: which block frees reach the trace, once, and with which free site.
// The tracker library only forwards PyTorch's frees to onBlockEvent and its
// snapshot to the live-block source, so this is the part that decides. A fake
// allocator stands in for both. Each test uses its own address range: the
// state lives for the whole process, as it does in a program.
#include "AllocatorBlocks.h"
#include "AllocatorSink.h"
#include "MemoryMap.h"
#include "TraceWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace graphsafe::inject;
using nlohmann::json;

namespace {

CUgraphExec exec(uintptr_t N) { return reinterpret_cast<CUgraphExec>(N); }

// PyTorch's caching allocator as the tracker shows it: blocks handed out,
// read back by the snapshot, and frees sent to the sink.
std::map<uint64_t, uint64_t> Allocated;
std::set<uint64_t> InPool; // Blocks of a private pool.
int SnapshotsTaken = 0;
// PyTorch lists blocks segment by segment, in no promised address order.
bool ListBackwards = false;

int snapshot(GraphcheckBlockVisit Visit, void *Context, char *, size_t) {
  ++SnapshotsTaken;
  if (ListBackwards)
    for (auto It = Allocated.rbegin(); It != Allocated.rend(); ++It)
      Visit(Context, It->first, It->second, InPool.count(It->first));
  else
    for (auto [Addr, Size] : Allocated)
      Visit(Context, Addr, Size, InPool.count(Addr));
  return 0;
}

void alloc(uint64_t Addr, uint64_t Size) { Allocated[Addr] = Size; }

void release(uint64_t Addr) {
  uint64_t Size = Allocated.count(Addr) ? Allocated[Addr] : 0x100;
  Allocated.erase(Addr);
  onBlockEvent(GraphcheckBlockFree, Addr, Size);
}

class AllocatorBlocksTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    unsetenv("RANK");
    Dir = fs::temp_directory_path() / ("graphsafe-blocks-" + std::to_string(::getpid()));
    fs::create_directories(Dir);
    ASSERT_TRUE(trace().open(Dir.string()));
    setLiveBlockSource(snapshot);
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
      // Read while the writer has it: its unwritten rest is zero bytes.
      for (std::string Line; std::getline(In, Line);)
        if (Line.erase(std::min(Line.find('\0'), Line.size())); !Line.empty())
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
  alloc(0x10000, 0x200);
  watchExecBlocks(exec(1), {0x10010});
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block");
  EXPECT_EQ(Events[0]["addr"], "0x10000");
  EXPECT_EQ(Events[0]["size"], 0x200);
  EXPECT_TRUE(inWatchedBlock(0x101ff));
  EXPECT_FALSE(inWatchedBlock(0x10200));

  setPythonFreeSite("train.py:12 step");
  release(0x10000);
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
  alloc(0x20000, 0x100);
  release(0x20000);
  // A graph destroyed before the free: the block was announced, its free no longer matters.
  alloc(0x21000, 0x100);
  watchExecBlocks(exec(2), {0x21000});
  unwatchExecBlocks(exec(2));
  release(0x21000);
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block");
  // Nor does a free of a block the tracker never reported.
  release(0x22000);
  EXPECT_TRUE(newEvents().empty());
}

TEST_F(AllocatorBlocksTest, GraphOwnedMemoryOutsideAPoolBlockIsNotWatched) {
  memory().add(0x30000, 0x1000, /*GraphOwned=*/true);
  alloc(0x30000, 0x100);
  watchExecBlocks(exec(3), {0x30000});
  EXPECT_FALSE(inWatchedBlock(0x30000));
  release(0x30000);
  EXPECT_TRUE(newEvents().empty());
  unwatchExecBlocks(exec(3));
  memory().remove(0x30000);
}

TEST_F(AllocatorBlocksTest, ABlockIsAnnouncedOnceAndWatchedWhileAnyGraphPointsIntoIt) {
  alloc(0x40000, 0x100);
  watchExecBlocks(exec(4), {0x40000});
  watchExecBlocks(exec(5), {0x40080});
  EXPECT_EQ(newEvents().size(), 1u);
  unwatchExecBlocks(exec(4));
  EXPECT_TRUE(inWatchedBlock(0x40000));
  release(0x40000);
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block_free");
  // No Python line and no site set: the native frames outside graphcheck,
  // of which this test binary (graphcheck's own code) has none.
  EXPECT_TRUE(Events[0]["stack"].is_array());
  unwatchExecBlocks(exec(5));
}

TEST_F(AllocatorBlocksTest, AnUpdatedExecWatchesOnlyWhatItPointsAtNow) {
  alloc(0x50000, 0x100);
  alloc(0x60000, 0x100);
  watchExecBlocks(exec(6), {0x50000});
  watchExecBlocks(exec(6), {0x60000}); // cudaGraphExecUpdate repointed it.
  EXPECT_EQ(newEvents().size(), 2u);
  release(0x50000);
  EXPECT_TRUE(newEvents().empty());
  release(0x60000);
  EXPECT_EQ(newEvents().size(), 1u);
  unwatchExecBlocks(exec(6));
}

TEST_F(AllocatorBlocksTest, APoolBlockIsAnnouncedWithTheExecThatPointsIntoItAndItsFreeMarked) {
  // A graph's output in its pool, which a graph captured later may read: the
  // engine needs who made it and when it died.
  memory().add(0x80000, 0x1000, /*GraphOwned=*/true);
  alloc(0x80000, 0x100);
  InPool.insert(0x80000);
  alloc(0x81000, 0x100);
  watchExecBlocks(exec(8), {0x80010, 0x81000});
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 2u);
  EXPECT_EQ(Events[0]["addr"], "0x80000");
  EXPECT_EQ(Events[0]["pool"], true);
  EXPECT_EQ(Events[0]["exec"], "0x8");
  EXPECT_EQ(Events[1]["addr"], "0x81000");
  EXPECT_FALSE(Events[1].contains("pool"));
  EXPECT_FALSE(Events[1].contains("exec"));
  setPythonFreeSite("train.py:20 step");
  release(0x80000);
  setPythonFreeSite(nullptr);
  Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block_free");
  EXPECT_EQ(Events[0]["pool"], true);
  EXPECT_EQ(Events[0]["stack"], json::array({"train.py:20 step"}));
  InPool.erase(0x80000);
  unwatchExecBlocks(exec(8));
  memory().remove(0x80000);
  release(0x81000);
}

TEST_F(AllocatorBlocksTest,
       AnExecStillPointingAtABlockAfterAnUpdateKeepsItWatchedAndAnnouncedOnce) {
  alloc(0x90000, 0x100);
  watchExecBlocks(exec(10), {0x90000});
  watchExecBlocks(exec(10), {0x90040}); // Updated, same block.
  EXPECT_EQ(newEvents().size(), 1u);
  release(0x90000);
  EXPECT_EQ(newEvents().size(), 1u);
  unwatchExecBlocks(exec(10));
}

TEST_F(AllocatorBlocksTest, ANewBlockAtAFreedBlocksAddressIsNotUnwatchedByTheOldGraph) {
  alloc(0xa0000, 0x100);
  watchExecBlocks(exec(11), {0xa0000});
  release(0xa0000); // Reported: graph 11 points into it.
  alloc(0xa0000, 0x100);
  watchExecBlocks(exec(12), {0xa0000});
  EXPECT_EQ(newEvents().size(), 3u); // block, block_free, block (the new one).
  unwatchExecBlocks(exec(11));       // Its block is gone; graph 12's stays watched.
  EXPECT_TRUE(inWatchedBlock(0xa0000));
  release(0xa0000);
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0]["ev"], "block_free");
  unwatchExecBlocks(exec(12));
}

TEST_F(AllocatorBlocksTest, BlocksListedOutOfOrderAreFoundForEveryPointerIntoThem) {
  alloc(0xb0000, 0x100);
  alloc(0xb1000, 0x100);
  alloc(0xb2000, 0x100);
  alloc(0xb3000, 0x100); // Nothing points into this one.
  ListBackwards = true;
  // Unsorted, repeated, interior, one past a block's end, and one at a block's last byte.
  watchExecBlocks(exec(13), {0xb20ff, 0xb0000, 0xb1010, 0xb0000, 0xb0100, 0xb1080});
  ListBackwards = false;
  auto Events = newEvents();
  ASSERT_EQ(Events.size(), 3u);
  EXPECT_EQ(Events[0]["addr"], "0xb0000");
  EXPECT_EQ(Events[1]["addr"], "0xb1000");
  EXPECT_EQ(Events[2]["addr"], "0xb2000");
  EXPECT_FALSE(inWatchedBlock(0xb3000));
  release(0xb3000);
  EXPECT_TRUE(newEvents().empty());
  release(0xb1000);
  EXPECT_EQ(newEvents().size(), 1u);
  unwatchExecBlocks(exec(13));
  release(0xb0000);
  release(0xb2000);
  EXPECT_TRUE(newEvents().empty());
}

TEST_F(AllocatorBlocksTest, EveryDeliveredFreeIsCounted) {
  uint64_t Before = blockFreeCount();
  alloc(0x70000, 0x100);
  release(0x70000);
  release(0x70000); // Unknown by now: still delivered.
  EXPECT_EQ(blockFreeCount() - Before, 2u);
}

} // namespace
