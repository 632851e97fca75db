#include "CacheKeys.h"

#include "ContentHash.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace graphsafe::lint {

std::string toolFingerprint() {
  KeyBuilder K;
  K.add(GRAPHSAFE_VERSION);
  struct stat St {};
  if (::stat("/proc/self/exe", &St) == 0)
    K.add(std::to_string(St.st_size))
        .add(std::to_string(St.st_mtim.tv_sec))
        .add(std::to_string(St.st_mtim.tv_nsec));
  return K.final();
}

std::string rulesFingerprint(const std::vector<std::string> &RuleDirs) {
  KeyBuilder K;
  for (const auto &Dir : RuleDirs) {
    std::vector<std::string> Files;
    std::error_code EC;
    for (auto It = fs::recursive_directory_iterator(Dir, EC); !EC && It != decltype(It)();
         It.increment(EC))
      if (It->is_regular_file(EC))
        Files.push_back(It->path().string());
    std::sort(Files.begin(), Files.end());
    K.add(Dir);
    for (const auto &F : Files)
      K.add(F).add(fileHash(F).value_or("unreadable"));
  }
  return K.final();
}

} // namespace graphsafe::lint
