//===- CascadeEmitter.cpp - Cascades as stripe loops in model.c -----------===//
//
// Every step entry is six int16_t: the output rows [e[0], e[1]) the operator
// writes, the first row e[2] its window holds, the rows [e[3], e[4]) of input
// 0 it reads and the padding e[5] above them. A tensor held as a window has a
// local lo<T>, the row its buffer starts with.
//
//===----------------------------------------------------------------------===//
#include "emit/CascadeEmitter.h"

#include "analysis/ModelStats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace emit {

namespace {

int64_t elementsPerRow(const ir::Tensor &T) {
  return T.numElements() / T.Shape[1];
}

} // namespace

bool StripeNames::readsWindowRows(int32_t T) const {
  const ir::Operator &O = G.Operators[Op];
  return ir::readsInputRows(O.code()) && T == O.input(0);
}

std::string StripeNames::rows(int32_t T) const {
  return readsWindowRows(T) ? "e[4] - e[3]" : "e[1] - e[0]";
}

std::string StripeNames::data(int32_t T) {
  const std::string Row = readsWindowRows(T) ? "e[3]" : "e[0]";
  const std::string Lo =
      C.windowOf(T) >= 0 ? formatv(" - lo{0}", T).str() : std::string();
  return formatv("(t{0} + (size_t)({1}{2}) * {3})", T, Row, Lo,
                 elementsPerRow(G.tensor(T)))
      .str();
}

std::string StripeNames::shape(int32_t T) {
  if (!is_contained(Shapes, T))
    Shapes.push_back(T);
  return "&s" + std::to_string(T);
}

std::string StripeNames::count(int32_t Out) {
  return formatv("(e[1] - e[0]) * {0}", elementsPerRow(G.tensor(Out))).str();
}

Error StripeNames::params(const kernels::AnyParams &Params,
                          const std::string &Argument,
                          std::vector<std::string> &Args) {
  const ir::RowKind Kind = ir::rowMap(G.Operators[Op].code()).Kind;
  if (Kind != ir::RowKind::Window && Kind != ir::RowKind::Shifted)
    return Error::success();
  const kernels::KernelFamilyInfo &F = kernels::familyOf(Params);
  StringRef Arg(Argument);
  if (F.ByValue || !Arg.consume_front("&"))
    return createStringError(inconvertibleErrorCode(),
                             "its kernel takes no parameters struct to give "
                             "a stripe's padding");
  for (std::string &A : Args)
    if (A == Argument)
      A = "&pv";
  // The rows of padding above the stripe's first input row: a window's
  // pad_top, PAD's padding before dimension 1.
  ParamsLines = formatv("        {0} pv = {1};\n        pv.{2} = e[5];\n",
                        F.Struct, Arg,
                        Kind == ir::RowKind::Window ? "pad_top" : "before[1]")
                    .str();
  return Error::success();
}

std::string StripeNames::prologue() const {
  std::string Out;
  for (int32_t T : Shapes)
    Out += formatv("        ref_shape s{0} = t{0}_shape;\n", T).str();
  Out += ParamsLines;
  for (int32_t T : Shapes)
    Out += formatv("        s{0}.dims[1] = {1};\n", T, rows(T)).str();
  return Out;
}

std::string cascadeTable(const plan::Cascade &C, const std::string &Name) {
  std::string Out = formatv("/* Per step and operator: output rows [e0, e1), "
                            "window start e2,\n * input rows [e3, e4), "
                            "padding e5. */\nstatic const int16_t "
                            "{0}_steps[{1}][{2}][6] = {{\n",
                            Name, C.Steps.size(), C.numOps())
                        .str();
  for (size_t S = 0; S < C.Steps.size(); ++S) {
    std::vector<std::string> Entries;
    for (const plan::StripeStep &St : C.Steps[S])
      Entries.push_back(formatv("{{{0}, {1}, {2}, {3}, {4}, {5}}", St.Out.Begin,
                                St.Out.End, St.WindowBegin, St.In.Begin,
                                St.In.End, St.PadTop)
                            .str());
    Out += "    {";
    for (size_t I = 0; I < Entries.size(); ++I) {
      if (I && I % 3 == 0)
        Out += ",\n     ";
      else if (I)
        Out += ", ";
      Out += Entries[I];
    }
    Out += S + 1 < C.Steps.size() ? "},\n" : "}\n";
  }
  Out += "};";
  return Out;
}

std::string cascadeLoop(const ir::Graph &G, const plan::Cascade &C,
                        const std::vector<CascadeMember> &Members,
                        const std::string &Name) {
  std::string Out = "  {\n";
  std::vector<std::string> Los;
  for (int32_t T : C.Windowed)
    Los.push_back(formatv("lo{0} = 0", T).str());
  Out += "    /* The first row each window holds. */\n";
  Out += "    int32_t " + join(Los, ", ") + ";\n";
  Out += "    int s;\n";
  Out += formatv("    for (s = 0; s < {0}; ++s) {{\n", C.Steps.size()).str();
  Out += "      const int16_t *e;\n";
  for (size_t K = 0; K < Members.size(); ++K) {
    const CascadeMember &M = Members[K];
    const ir::Operator &Op = G.Operators[M.Op];
    const int32_t T = Op.output(0);
    Out += formatv("      /* {0}: {1} */\n      e = {2}_steps[s][{3}];\n"
                   "      if ({4}) {{\n",
                   M.Op, Op.Type, Name, K,
                   M.Accumulates ? "e[0] < e[1] || e[3] < e[4]" : "e[0] < e[1]")
               .str();
    Out += M.Prologue;
    if (C.windowOf(T) >= 0) {
      const ir::Tensor &Ten = G.tensor(T);
      Out += formatv("        if (lo{0} != e[2]) {{\n"
                     "          memmove(t{0}, t{0} + (size_t)(e[2] - lo{0}) * "
                     "{1},\n                  (size_t)(e[0] - e[2]) * {2});\n"
                     "          lo{0} = e[2];\n        }\n",
                     T, elementsPerRow(Ten), Ten.byteSize() / Ten.Shape[1])
                 .str();
    }
    // The call was printed for two spaces of indentation plus two.
    SmallVector<StringRef, 8> Lines;
    StringRef(M.Call).split(Lines, '\n');
    for (StringRef Line : Lines)
      Out += "    " + Line.str() + "\n";
    // The stripe's rows, for a layer dump.
    const ir::Tensor &Ten = G.tensor(T);
    const std::string Lo =
        C.windowOf(T) >= 0 ? formatv(" - lo{0}", T).str() : std::string();
    if (!M.TracesItself) {
      // An accumulating operator's output is there after its last step.
      const std::string Indent = M.Accumulates ? "          " : "        ";
      const std::string Trace =
          formatv("{0}TRACE({1}, {2}, t{2} + (size_t)(e[0]{3}) * {4},\n{0}"
                  "      (size_t)(e[1] - e[0]) * {5});\n",
                  Indent, M.Op, T, Lo, elementsPerRow(Ten),
                  Ten.byteSize() / Ten.Shape[1])
              .str();
      Out += M.Accumulates
                 ? "        if (e[0] < e[1]) {\n" + Trace + "        }\n"
                 : Trace;
    }
    Out += "      }\n";
  }
  Out += "    }\n  }";
  return Out;
}

std::string cascadeStepsText(const ir::Graph &G, const plan::Cascade &C) {
  const bool Sums =
      ir::rowMap(G.Operators[C.LastOp].code()).Kind == ir::RowKind::Accumulate;
  return Sums ? formatv("{0} steps of {1} rows summed by operator {2}",
                        C.Steps.size(), C.StripeRows, C.LastOp)
                    .str()
              : formatv("{0} steps of {1} output rows", C.Steps.size(),
                        C.StripeRows)
                    .str();
}

int64_t cascadeExtraMacs(const ir::Graph &G, const plan::Cascade &C) {
  int64_t Extra = 0;
  for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
    const ir::Operator &Op = G.Operators[K];
    const int64_t Rows = G.tensor(Op.output(0)).Shape[1];
    int64_t Computed = 0;
    for (const std::vector<plan::StripeStep> &Step : C.Steps)
      Computed += Step[K - C.FirstOp].Out.size();
    Extra += analysis::operatorMacs(G, Op) * (Computed - Rows) / Rows;
  }
  return Extra;
}

json::Object cascadingReport(const ir::Graph &G, const plan::CascadePlan &P) {
  json::Array Cascades, Before, After;
  int64_t Extra = 0, Moved = 0;
  for (const plan::Cascade &C : P.Cascades) {
    json::Array Windows;
    for (size_t I = 0; I < C.Windowed.size(); ++I)
      Windows.push_back(
          json::Object{{"tensor", C.Windowed[I]},
                       {"rows", C.WindowRows[I]},
                       {"of_rows", G.tensor(C.Windowed[I]).Shape[1]},
                       {"bytes", int64_t(C.WindowRows[I]) * C.RowBytes[I]}});
    const int64_t CExtra = cascadeExtraMacs(G, C);
    Extra += CExtra;
    Moved += C.MovedBytes;
    Cascades.push_back(
        json::Object{{"first_op", C.FirstOp},
                     {"last_op", C.LastOp},
                     {"stripe_rows", C.StripeRows},
                     {"steps", static_cast<int64_t>(C.Steps.size())},
                     {"windows", std::move(Windows)},
                     {"moved_bytes", C.MovedBytes},
                     {"extra_macs", CExtra},
                     {"output_in_place_of", C.Overlaid}});
  }
  for (int64_t B : P.LiveBefore)
    Before.push_back(B);
  for (int64_t B : P.LiveAfter)
    After.push_back(B);
  return json::Object{{"layer_arena_bytes", P.LayerMemory.ArenaBytes},
                      {"arena_bytes", P.Memory.ArenaBytes},
                      {"macs", analysis::graphMacs(G)},
                      {"extra_macs", Extra},
                      {"moved_bytes", Moved},
                      {"cascades", std::move(Cascades)},
                      {"live_bytes_layer", std::move(Before)},
                      {"live_bytes_cascaded", std::move(After)}};
}

} // namespace emit
} // namespace accelgen
