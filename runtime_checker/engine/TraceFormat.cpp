#include "Events.h"

#include "Hex.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include <map>

namespace graphsafe::rt {

namespace {

const std::map<std::string, Event::Kind> Kinds = {
    {"alloc", Event::Kind::Alloc},
    {"free", Event::Kind::Free},
    {"capture_begin", Event::Kind::CaptureBegin},
    {"capture_end", Event::Kind::CaptureEnd},
    {"graph_exec", Event::Kind::GraphExec},
    {"node_update", Event::Kind::NodeUpdate},
    {"exec_writes", Event::Kind::ExecWrites},
    {"launch", Event::Kind::Launch},
    {"eager_kernel", Event::Kind::EagerKernel},
    {"eager_unobserved", Event::Kind::EagerGap},
    {"eager_observed", Event::Kind::Meta},
    {"tensor_out", Event::Kind::TensorOut},
    {"tensor_dead", Event::Kind::TensorDead},
    {"grad_installed", Event::Kind::GradInstalled},
    {"grad_released", Event::Kind::GradReleased},
    {"block", Event::Kind::Block},
    {"block_free", Event::Kind::BlockFree},
    {"exec_destroy", Event::Kind::ExecDestroy},
    {"api_in_capture", Event::Kind::ApiInCapture},
    {"checker_start", Event::Kind::Meta},
    {"checker_error", Event::Kind::Meta},
    {"checker_warning", Event::Kind::Meta},
    {"checker_note", Event::Kind::Meta},
    {"checker_yield", Event::Kind::Meta},
    {"checker_stats", Event::Kind::Meta},
    {"capture_site", Event::Kind::Meta},
    {"test", Event::Kind::Meta},
    {"end", Event::Kind::Meta},
    {"event_record", Event::Kind::EventRecord},
    {"stream_wait", Event::Kind::StreamWait},
    {"host_sync", Event::Kind::HostSync},
};

// Addresses travel as hex strings ("0x7f...") or numbers.
uint64_t address(const nlohmann::json &J) {
  if (J.is_number_unsigned() || J.is_number_integer())
    return J.get<uint64_t>();
  return std::stoull(J.get<std::string>(), nullptr, 0);
}

// Sizes are whole, non-negative numbers; anything else (a float, a negative
// number) is a malformed event, not a value to convert.
uint64_t byteCount(const nlohmann::json &J) {
  if (!J.is_number_unsigned() && !(J.is_number_integer() && J.get<int64_t>() >= 0))
    throw std::invalid_argument("a size must be a non-negative integer, not " + J.dump());
  return J.get<uint64_t>();
}

nlohmann::json rangesJson(const std::vector<Range> &Rs) {
  nlohmann::json Out = nlohmann::json::array();
  for (const Range &R : Rs)
    Out.push_back({hexAddress(R.Begin), R.End - R.Begin});
  return Out;
}

std::vector<Range> ranges(const nlohmann::json &J) {
  std::vector<Range> Out;
  for (const auto &R : J)
    Out.push_back({address(R.at(0)), address(R.at(0)) + byteCount(R.at(1))});
  return Out;
}

} // namespace

std::vector<Event> readTrace(std::istream &In, std::vector<TraceError> &Errors) {
  std::vector<Event> Out;
  std::string Line;
  for (unsigned N = 1; std::getline(In, Line); ++N) {
    // A process that never closed its trace (a crash) leaves the part of the
    // file it never reached as zero bytes; no JSON line holds a raw one.
    if (size_t Unwritten = Line.find('\0'); Unwritten != std::string::npos)
      Line.erase(Unwritten);
    if (Line.find_first_not_of(" \t\r") == std::string::npos || Line[0] == '#')
      continue;
    try {
      auto J = nlohmann::json::parse(Line);
      auto KindIt = Kinds.find(J.at("ev").get<std::string>());
      if (KindIt == Kinds.end()) {
        Errors.push_back({N, "unknown event '" + J.at("ev").get<std::string>() + "'"});
        continue;
      }
      Event E;
      E.K = KindIt->second;
      E.Seq = Out.size();
      if (E.K == Event::Kind::Meta)
        E.Api = J.at("ev").get<std::string>();
      if (J.contains("message"))
        E.Name = J["message"].get<std::string>();
      auto str = [&](const char *Key, std::string &Into) {
        if (J.contains(Key))
          Into = J[Key].is_string() ? J[Key].get<std::string>() : J[Key].dump();
      };
      str("alloc", E.Alloc);
      str("graph", E.Graph);
      str("exec", E.Exec);
      str("stream", E.Stream);
      str("kernel", E.Kernel);
      str("tensor", E.Tensor);
      str("param", E.Param);
      str("api", E.Api);
      str("kind", E.ApiKind);
      str("name", E.Name);
      str("event", E.CudaEvent);
      if (J.contains("addr"))
        E.Addr = address(J["addr"]);
      if (J.contains("size"))
        E.Size = byteCount(J["size"]);
      if (J.contains("pool"))
        E.Pool = J["pool"].get<bool>();
      if (J.contains("ptrs"))
        for (const auto &P : J["ptrs"])
          E.Pointers.push_back(address(P));
      if (J.contains("writes"))
        E.Writes = ranges(J["writes"]);
      if (J.contains("stack"))
        E.Stack = J["stack"].get<std::vector<std::string>>();
      if (J.contains("site"))
        E.Site = J["site"].get<std::vector<std::string>>();
      if (J.contains("nodes"))
        for (const auto &JN : J["nodes"]) {
          Node Nd;
          Nd.Id = JN.value("id", std::to_string(E.Nodes.size()));
          Nd.Kernel = JN.value("kernel", "");
          for (const auto &P : JN.value("ptrs", nlohmann::json::array()))
            Nd.Pointers.push_back(address(P));
          if (JN.contains("writes"))
            Nd.Writes = ranges(JN["writes"]);
          E.Nodes.push_back(std::move(Nd));
        }
      Out.push_back(std::move(E));
    } catch (const std::exception &Ex) {
      Errors.push_back({N, std::string("malformed event: ") + Ex.what()});
    }
  }
  return Out;
}

void writeEvent(std::ostream &OS, const Event &E) {
  nlohmann::json J;
  for (const auto &[Name, K] : Kinds)
    if (K == E.K)
      J["ev"] = Name;
  if (E.K == Event::Kind::Meta)
    J["ev"] = E.Api;
  auto put = [&](const char *Key, const std::string &V) {
    if (!V.empty())
      J[Key] = V;
  };
  put("alloc", E.Alloc);
  put("graph", E.Graph);
  put("exec", E.Exec);
  put("stream", E.Stream);
  put("kernel", E.Kernel);
  put("tensor", E.Tensor);
  put("param", E.Param);
  put("api", E.Api);
  put("kind", E.ApiKind);
  put("name", E.Name);
  put("event", E.CudaEvent);
  if (E.Addr)
    J["addr"] = hexAddress(E.Addr);
  if (E.Size)
    J["size"] = E.Size;
  if (E.Pool)
    J["pool"] = true;
  if (!E.Pointers.empty()) {
    J["ptrs"] = nlohmann::json::array();
    for (auto P : E.Pointers)
      J["ptrs"].push_back(hexAddress(P));
  }
  if (!E.Writes.empty())
    J["writes"] = rangesJson(E.Writes);
  if (!E.Stack.empty())
    J["stack"] = E.Stack;
  if (!E.Site.empty())
    J["site"] = E.Site;
  if (!E.Nodes.empty()) {
    J["nodes"] = nlohmann::json::array();
    for (const auto &N : E.Nodes) {
      nlohmann::json JN = {{"id", N.Id}, {"kernel", N.Kernel}, {"ptrs", nlohmann::json::array()}};
      for (auto P : N.Pointers)
        JN["ptrs"].push_back(hexAddress(P));
      if (!N.Writes.empty())
        JN["writes"] = rangesJson(N.Writes);
      J["nodes"].push_back(JN);
    }
  }
  OS << J.dump() << "\n";
}

} // namespace graphsafe::rt
