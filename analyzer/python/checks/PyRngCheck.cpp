#include "PyCheck.h"

#include <fmt/format.h>

namespace graphsafe::lint::py {

namespace {

// A CUDA generator other than the default one, used by captured code without
// `g.register_generator_state(gen)`: replays reuse the offsets of capture.
class PyRngCheck : public PyCheck {
public:
  void run(PyFunctionContext &Ctx) override {
    const PySource &S = Ctx.S;
    std::set<std::string> Registered = registered(*Ctx.T.M.Src);
    walk(Ctx.body(), [&](TSNode N) {
      if (!is(N, "call") || !Ctx.inCapture(beginOf(N)))
        return true;
      TSNode Gen = argsOf(S, N).keyword("generator");
      if (ts_node_is_null(Gen))
        return true;
      Value V = Ctx.T.valueOf(Gen);
      if (V.K != VK::CudaGenerator || Registered.count(std::string(S.text(Gen))))
        return true;
      Ctx.reportCheck("unregistered-generator", N,
                      fmt::format("'{}' draws from CUDA generator '{}', which the graph does not "
                                  "know: every replay repeats the random numbers of capture",
                                  calleeText(S, N), S.text(Gen)));
      return true;
    });
  }

private:
  // Spellings handed to register_generator_state anywhere in the file.
  static std::set<std::string> registered(const PySource &S) {
    std::set<std::string> Out;
    std::vector<TSNode> Stack = {S.root()};
    while (!Stack.empty()) {
      TSNode N = Stack.back();
      Stack.pop_back();
      if (is(N, "call")) {
        TSNode Fn = field(N, "function");
        if (is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "register_generator_state") {
          CallArgs A = argsOf(S, N);
          if (!A.Positional.empty())
            Out.insert(std::string(S.text(A.Positional[0])));
        }
      }
      for (uint32_t I = 0; I < ts_node_named_child_count(N); ++I)
        Stack.push_back(ts_node_named_child(N, I));
    }
    return Out;
  }
};

} // namespace

std::unique_ptr<PyCheck> makePyRngCheck() { return std::make_unique<PyRngCheck>(); }

} // namespace graphsafe::lint::py
