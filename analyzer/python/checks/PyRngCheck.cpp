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
    const std::set<std::string> &Registered = Ctx.T.M.RegisteredGenerators;
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
};

} // namespace

std::unique_ptr<PyCheck> makePyRngCheck() { return std::make_unique<PyRngCheck>(); }

} // namespace graphsafe::lint::py
