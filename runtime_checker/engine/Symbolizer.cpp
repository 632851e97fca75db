#include "Symbolizer.h"

#include "graphsafe/Subprocess.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

namespace graphsafe::rt {

namespace {

constexpr const char *Prefix = "native:";

struct Frame {
  std::string Module, Offset, Symbol;
};

bool parse(const std::string &Text, Frame &F) {
  if (Text.rfind(Prefix, 0) != 0)
    return false;
  size_t Plus = Text.rfind("+0x", Text.find(' '));
  if (Plus == std::string::npos)
    return false;
  size_t Space = Text.find(' ', Plus);
  F.Module = Text.substr(7, Plus - 7);
  F.Offset =
      Text.substr(Plus + 1, Space == std::string::npos ? std::string::npos : Space - Plus - 1);
  F.Symbol = Space == std::string::npos ? "?" : Text.substr(Space + 1);
  return true;
}

// An offset as the injection writes it; anything else in a trace is not one.
bool isHexOffset(const std::string &S) {
  return S.size() > 2 && S.size() <= 18 && S.rfind("0x", 0) == 0 &&
         S.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
}

// addr2line -a -f -i prints, per address, the address, then a function and
// file:line pair for each frame inlined there, innermost first: a tensor
// freed by an inlined destructor is named at the caller's line, not only in
// the library header it was inlined from.
std::map<std::string, std::vector<std::string>>
resolveModule(const std::string &Module, const std::vector<std::string> &Offsets) {
  std::map<std::string, std::vector<std::string>> Out;
  std::error_code EC;
  if (!std::filesystem::exists(Module, EC))
    return Out;
  std::vector<std::string> Valid;
  for (const auto &O : Offsets)
    if (isHexOffset(O))
      Valid.push_back(O);
  std::vector<std::string> Argv = {"addr2line", "-C", "-a", "-f", "-i", "-e", Module};
  Argv.insert(Argv.end(), Valid.begin(), Valid.end());
  std::string Text;
  if (Valid.empty() || runProgram(Argv, &Text) != 0)
    return Out;
  std::vector<std::string> Lines;
  std::istringstream Stream(Text);
  for (std::string L; std::getline(Stream, L);) {
    if (!L.empty() && L.back() == '\r')
      L.pop_back();
    Lines.push_back(L);
  }
  size_t Group = 0;
  for (size_t I = 0; I < Lines.size() && Group <= Valid.size();) {
    if (Lines[I].rfind("0x", 0) == 0) { // The next address's group.
      ++Group;
      ++I;
      continue;
    }
    if (Group == 0 || I + 1 >= Lines.size())
      break;
    std::string Function = Lines[I], Loc = Lines[I + 1];
    I += 2;
    if (size_t D = Loc.find(" (discriminator"); D != std::string::npos)
      Loc.erase(D);
    if (Loc.rfind("??", 0) == 0 || Loc.size() < 3 || Loc.substr(Loc.size() - 2) == ":0" ||
        Loc.back() == '?')
      continue;
    Out[Valid[Group - 1]].push_back(Loc + " " + Function);
  }
  return Out;
}

} // namespace

void symbolizeNativeFrames(std::vector<Event> &Events) {
  std::map<std::string, std::vector<std::string>> Wanted; // module -> offsets
  for (const Event &E : Events)
    for (const auto &S : E.Stack)
      if (Frame F; parse(S, F))
        Wanted[F.Module].push_back(F.Offset);
  if (Wanted.empty())
    return;
  std::map<std::string, std::map<std::string, std::vector<std::string>>> Resolved;
  for (auto &[Module, Offsets] : Wanted)
    Resolved[Module] = resolveModule(Module, Offsets);
  for (Event &E : Events) {
    std::vector<std::string> Out;
    for (auto &S : E.Stack) {
      Frame F;
      if (!parse(S, F)) {
        Out.push_back(S);
        continue;
      }
      auto It = Resolved[F.Module].find(F.Offset);
      if (It != Resolved[F.Module].end())
        Out.insert(Out.end(), It->second.begin(), It->second.end());
      else if (F.Symbol != "?") // A frame with neither line nor name says nothing.
        Out.push_back(std::filesystem::path(F.Module).filename().string() + "+" + F.Offset + " " +
                      F.Symbol);
    }
    E.Stack = std::move(Out);
  }
}

} // namespace graphsafe::rt
