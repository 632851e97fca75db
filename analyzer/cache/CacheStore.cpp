#include "CacheStore.h"

#include "ReadFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <vector>

namespace fs = std::filesystem;

namespace graphsafe::lint {

namespace {

constexpr const char *TempMarker = ".tmp-";

bool isTemporary(const fs::path &P) {
  return P.filename().string().find(TempMarker) != std::string::npos;
}

} // namespace

CacheStore::CacheStore(const std::string &Root, uint64_t MaxBytes)
    : Root(Root.empty() ? "" : fs::absolute(Root).lexically_normal().string()), MaxBytes(MaxBytes) {
}

std::string CacheStore::pathOf(llvm::StringRef Kind, llvm::StringRef Key,
                               llvm::StringRef Ext) const {
  return (fs::path(Root) / Kind.str() / Key.substr(0, 2).str() / (Key.str() + Ext.str())).string();
}

std::string CacheStore::temporaryFor(const std::string &Path) const {
  static std::atomic<unsigned> Counter{0};
  return Path + TempMarker + std::to_string(::getpid()) + "-" + std::to_string(Counter++);
}

std::optional<std::string> CacheStore::read(const std::string &Path) const {
  if (!enabled())
    return std::nullopt;
  std::optional<std::string> Bytes = readFileBytes(Path);
  if (Bytes)
    touch(Path);
  return Bytes;
}

void CacheStore::touch(const std::string &Path) const {
  ::utimensat(AT_FDCWD, Path.c_str(), nullptr, 0); // Best effort: only eviction order.
}

bool CacheStore::write(const std::string &Path, llvm::StringRef Bytes, bool Sync) const {
  if (!enabled())
    return false;
  std::error_code EC;
  fs::create_directories(fs::path(Path).parent_path(), EC);
  std::string Tmp = temporaryFor(Path);
  int Fd = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return false;
  bool Ok = true;
  for (size_t Done = 0; Ok && Done < Bytes.size();) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    Ok = N > 0;
    Done += Ok ? N : 0;
  }
  // Durable before it becomes visible: a rename of unwritten data would be
  // the one way to read back a corrupt entry.
  Ok = Ok && (!Sync || ::fsync(Fd) == 0);
  Ok = ::close(Fd) == 0 && Ok;
  if (Ok)
    return commit(Tmp, Path);
  ::unlink(Tmp.c_str());
  return false;
}

bool CacheStore::commit(const std::string &Temporary, const std::string &Path) const {
  std::error_code EC;
  fs::create_directories(fs::path(Path).parent_path(), EC);
  if (::rename(Temporary.c_str(), Path.c_str()) == 0)
    return true;
  ::unlink(Temporary.c_str());
  return false;
}

void CacheStore::trim() const {
  if (!enabled())
    return;
  struct Entry {
    fs::path Path;
    fs::file_time_type Used;
    uint64_t Size;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  const auto Now = fs::file_time_type::clock::now();
  for (auto It = fs::recursive_directory_iterator(Root, EC); !EC && It != decltype(It)();
       It.increment(EC)) {
    if (!It->is_regular_file(EC))
      continue;
    auto Used = It->last_write_time(EC);
    if (EC)
      continue;
    // A temporary an hour old belongs to a process that died mid-write.
    if (isTemporary(It->path())) {
      if (Now - Used > std::chrono::hours(1))
        fs::remove(It->path(), EC);
      continue;
    }
    uint64_t Size = It->file_size(EC);
    Entries.push_back({It->path(), Used, EC ? 0 : Size});
    Total += Entries.back().Size;
  }
  if (Total <= MaxBytes)
    return;
  std::sort(Entries.begin(), Entries.end(),
            [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  // Down to 90% of the bound, so the next run does not trim again at once.
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes / 10 * 9)
      break;
    if (fs::remove(E.Path, EC))
      Total -= E.Size;
  }
}

} // namespace graphsafe::lint
