// Callables kept in containers and called through the ways C++ reads them
// back: a range-for's element, a structured binding of a map's entry, an
// iterator's `->second`, a reference bound to an element. Each read runs what
// the program put into that container, and nothing put into another one.
#include <cuda_runtime.h>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

using Hook = std::function<void(cudaStream_t)>;

struct Hooks {
  std::vector<Hook> BeforeStep;
  std::vector<Hook> AfterStep; // filled, never called under capture
  std::map<std::string, Hook> Named;
  std::vector<std::pair<int, Hook>> Ranked;
  void addBefore(Hook H) { BeforeStep.push_back(std::move(H)); }
};

void install(Hooks &H) {
  H.addBefore([](cudaStream_t S) {
    cudaStreamSynchronize(S); // expected-error {{sync-device-synchronize}}
  });
  H.Named["flush"] = [](cudaStream_t S) {
    cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
  };
  H.Named.emplace("probe", [](cudaStream_t S) {
    cudaEventSynchronize(nullptr); // expected-error {{sync-event-query}}
  });
  H.Ranked.push_back({0, [](cudaStream_t S) {
                        cudaStreamQuery(S); // expected-error {{sync-event-query}}
                      }});
  // Called only after the capture ended.
  H.AfterStep.push_back([](cudaStream_t S) { cudaStreamSynchronize(S); });
}

void capturedStep(Hooks &H, cudaStream_t S) {
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  for (auto &Before : H.BeforeStep)
    Before(S);
  for (auto &[Name, Fn] : H.Named)
    Fn(S);
  for (const auto &Entry : H.Ranked)
    Entry.second(S);
  cudaStreamEndCapture(S, &G);
  for (auto &After : H.AfterStep)
    After(S);
}

void capturedLookups(Hooks &H, cudaStream_t S) {
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  if (auto It = H.Named.find("flush"); It != H.Named.end())
    It->second(S);
  Hook &First = H.BeforeStep[0];
  First(S);
  cudaStreamEndCapture(S, &G);
}

// A container of callables that only ever holds capture-safe work: iterating
// it under capture reaches nothing unsafe, however much the other containers
// hold.
struct SafeHooks {
  std::vector<Hook> Launches;
};

void installSafe(SafeHooks &H) {
  H.Launches.emplace_back([](cudaStream_t S) { cudaMemsetAsync(nullptr, 0, 0, S); });
}

void capturedSafe(SafeHooks &H, cudaStream_t S) {
  cudaGraph_t G;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal);
  for (auto &L : H.Launches)
    L(S);
  cudaStreamEndCapture(S, &G);
}

// Work handed through library code that builds the program's own classes in
// place: `std::make_unique<Node>(args...)`, a container's `emplace_back`, and
// a std::variant's in-place constructor forward the callable to the class's
// (template) constructor, which stores it.
#include <memory>
#include <variant>

struct Node {
  struct Capture {
    template <typename C> explicit Capture(C &&Work) : Work(std::forward<C>(Work)) {}
    Hook Work;
  };
  struct Empty {};
  template <typename... Args>
  explicit Node(int Level, Args &&...A) : Handle{std::forward<Args>(A)...}, Level(Level) {}
  std::variant<Empty, Capture> Handle;
  int Level;
};

struct TaskGraph {
  std::vector<std::unique_ptr<Node>> Nodes;
  std::vector<Node> Inline;
  template <typename C> Node *on(C &&Work) {
    Nodes.push_back(
        std::make_unique<Node>(0, std::in_place_type_t<Node::Capture>{}, std::forward<C>(Work)));
    return Nodes.back().get();
  }
  template <typename C> void onInline(C &&Work) {
    Inline.emplace_back(1, std::in_place_type_t<Node::Capture>{}, std::forward<C>(Work));
  }
};

void buildGraph(TaskGraph &G) {
  G.on([](cudaStream_t S) {
    cudaStreamSynchronize(S); // expected-error {{sync-device-synchronize}}
  });
  G.onInline([](cudaStream_t S) {
    cudaDeviceSynchronize(); // expected-error {{sync-device-synchronize}}
  });
}

void captureGraph(TaskGraph &G, cudaStream_t S) {
  cudaGraph_t Graph;
  cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal);
  for (auto &N : G.Nodes)
    std::get_if<Node::Capture>(&N->Handle)->Work(S);
  for (auto &N : G.Inline)
    std::get<Node::Capture>(N.Handle).Work(S);
  cudaStreamEndCapture(S, &Graph);
}
