//===- CascadeEmitter.h - Cascades as stripe loops in model.c ---*- C++ -*-===//
//
// The C of a cascade (plan/Cascade.h): a table of what every operator does in
// every step (the rows it writes, where its window starts, the rows of input
// 0 it reads and the padding above them), and one loop over the steps that
// slides each window (memmove of the rows kept) and calls each operator's
// kernel on the stripe: the same kernel as layer at a time, given shapes with
// the stripe's row count, data pointers at the stripe's first row, and for a
// window a copy of its parameters with the stripe's top padding.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_CASCADEEMITTER_H
#define ACCELGEN_EMIT_CASCADEEMITTER_H

#include "ir/Graph.h"
#include "kernels/KernelParams.h"
#include "plan/Cascade.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace accelgen {
namespace emit {

/// One operator of a cascade as printed: its file-scope declarations, its
/// kernel call on the stripe, and the declarations the call needs in the
/// step (stripe shapes, parameters).
struct CascadeMember {
  int32_t Op = -1;
  std::string Decls, Prologue, Call;
  /// The call traces the stripe's rows itself (an accelerator's operator).
  bool TracesItself = false;
  /// The call sums over input rows in steps that write no output row (an
  /// accumulating last operator, ir::RowKind::Accumulate).
  bool Accumulates = false;
};

/// The C names of one cascade operator's stripe: the model emitter prints the
/// operator's call with these in place of whole tensors.
class StripeNames {
public:
  StripeNames(const ir::Graph &G, const plan::Cascade &C, int32_t Op)
      : G(G), C(C), Op(Op) {}

  /// The data pointer of computed tensor \p T at the stripe's first row.
  std::string data(int32_t T);
  /// A pointer to \p T's shape with the stripe's row count.
  std::string shape(int32_t T);
  /// The element count of output \p Out's stripe.
  std::string count(int32_t Out);
  /// The first row of input 0 its stripe reads (where data() of input 0
  /// points), and the output rows [begin, end) it writes.
  static std::string inputRow() { return "e[3]"; }
  static std::string outputBegin() { return "e[0]"; }
  static std::string outputEnd() { return "e[1]"; }
  /// For a window or PAD: replaces the parameters argument \p Argument in
  /// \p Args by a copy with the stripe's top padding; fails for parameters
  /// passed by value.
  llvm::Error params(const kernels::AnyParams &Params,
                     const std::string &Argument,
                     std::vector<std::string> &Args);
  /// The declarations the call needs, indented for the step.
  std::string prologue() const;
  const plan::Cascade &cascade() const { return C; }

private:
  bool readsWindowRows(int32_t T) const;
  std::string rows(int32_t T) const;
  /// A tiled cascade's columns of \p T the call sees.
  std::string cols(int32_t T) const;

  const ir::Graph &G;
  const plan::Cascade &C;
  int32_t Op;
  std::vector<int32_t> Shapes;
  std::string ParamsLines;
};

/// \p O as the C this emitter writes runs it without an accelerator: with
/// tiled cascades (the reference kernels take any rectangle of an image).
inline plan::CascadeOptions hostCascading(plan::CascadeOptions O) {
  O.Tiles = true;
  return O;
}

/// The file-scope step table of cascade \p C, named \p Name.
std::string cascadeTable(const plan::Cascade &C, const std::string &Name);

/// The statements that run cascade \p C inside invoke(), indented by two
/// spaces.
std::string cascadeLoop(const ir::Graph &G, const plan::Cascade &C,
                        const std::vector<CascadeMember> &Members,
                        const std::string &Name);

/// "N steps of R output rows", or for a cascade whose last operator sums
/// over its input's rows "N steps of R rows summed by operator K", or for a
/// tiled one "N tiles of R x C output rows and columns".
std::string cascadeStepsText(const ir::Graph &G, const plan::Cascade &C);

/// "R rows a stripe", or for a tiled cascade "R x C tiles".
std::string cascadeStepShape(const plan::Cascade &C);

/// What report.json and `explain --memory --json` say about \p P: arenas
/// before and after, the bytes live at every operator before and after, each
/// cascade's operators, stripe height, steps, windows, bytes moved and extra
/// MACs.
llvm::json::Object cascadingReport(const ir::Graph &G,
                                   const plan::CascadePlan &P);

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_CASCADEEMITTER_H
