//===- CascadeEmitter.cpp - Cascades as stripe loops in model.c -----------===//
//
// Every step entry is six int16_t: the output rows [e[0], e[1]) the operator
// writes, the first row e[2] its window holds, the rows [e[3], e[4]) of input
// 0 it reads and the padding e[5] above them. A tensor held as a window has a
// local lo<T>, the row its buffer starts with.
//
// A tiled cascade's entries have sixteen: those six (e[2] = e[0]: a window
// holds the step's region from its first byte), the output columns
// [e[6], e[7]), the input columns [e[8], e[9]) and the padding e[10] left of
// them, the rows [e[11], e[12]) and columns [e[13], e[14]) of the output the
// step traces, and e[15] = 1 when the step ends a band of rows.
//
//===----------------------------------------------------------------------===//
#include "emit/CascadeEmitter.h"

#include "analysis/ModelStats.h"
#include "emit/CLiteral.h"

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

std::string StripeNames::cols(int32_t T) const {
  return readsWindowRows(T) ? "e[9] - e[8]" : "e[7] - e[6]";
}

std::string StripeNames::data(int32_t T) {
  if (C.tiled()) {
    // A window holds the step's region from its first byte; the first
    // operator reads its input's region copied to the patch, the last writes
    // its tile.
    if (C.windowOf(T) >= 0)
      return "t" + std::to_string(T);
    return formatv("(({0} *){1})", cType(G.tensor(T).Type),
                   T == G.Operators[C.LastOp].output(0) ? "tile" : "patch")
        .str();
  }
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
  const ir::Tensor &T = G.tensor(Out);
  if (C.tiled())
    return formatv("(e[1] - e[0]) * (e[7] - e[6]) * {0}",
                   elementsPerRow(T) / T.Shape[2])
        .str();
  return formatv("(e[1] - e[0]) * {0}", elementsPerRow(T)).str();
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
  // A tile's columns of padding left of its first input column.
  if (C.tiled())
    ParamsLines += "        pv.pad_left = e[10];\n";
  return Error::success();
}

std::string StripeNames::prologue() const {
  std::string Out;
  for (int32_t T : Shapes)
    Out += formatv("        ref_shape s{0} = t{0}_shape;\n", T).str();
  Out += ParamsLines;
  for (int32_t T : Shapes) {
    Out += formatv("        s{0}.dims[1] = {1};\n", T, rows(T)).str();
    if (C.tiled())
      Out += formatv("        s{0}.dims[2] = {1};\n", T, cols(T)).str();
  }
  return Out;
}

namespace {

/// Member \p M's call in the loop's step: printed for two spaces of
/// indentation plus two, four more.
std::string stepCall(const CascadeMember &M) {
  std::string Out;
  SmallVector<StringRef, 8> Lines;
  StringRef(M.Call).split(Lines, '\n');
  for (StringRef Line : Lines)
    Out += "    " + Line.str() + "\n";
  return Out;
}

/// The loop of tiled cascade \p C (cascadeLoop).
std::string tiledLoop(const ir::Graph &G, const plan::Cascade &C,
                      const std::vector<CascadeMember> &Members,
                      const std::string &Name) {
  const int32_t In = G.Operators[C.FirstOp].input(0);
  const int32_t Out = G.Operators[C.LastOp].output(0);
  const ir::Tensor &InT = G.tensor(In), &OutT = G.tensor(Out);
  // Bytes of one element with its channels.
  auto Pixel = [&](const ir::Tensor &T) {
    return T.byteSize() / (int64_t(T.Shape[1]) * T.Shape[2]);
  };
  // At the arena's alignment, which the window's offset has.
  const int64_t A = plan::PlanOptions().Alignment;
  std::string S = "  {\n";
  S += formatv("    /* Staging, after window {0}: the region of tensor {1} "
               "operator {2} reads,\n     * operator {3}'s tile, a band of "
               "rows of tensor {4}. */\n"
               "    uint8_t *const patch = (uint8_t *)t{0} + {5};\n"
               "    uint8_t *const tile = (uint8_t *)t{0} + {6};\n"
               "    uint8_t *const band = (uint8_t *)t{0} + {7};\n",
               C.Windowed[0], In, C.FirstOp, C.LastOp, Out,
               C.stagingOffset(0, A), C.stagingOffset(1, A),
               C.stagingOffset(2, A))
           .str();
  S += "    int s;\n";
  S += formatv("    for (s = 0; s < {0}; ++s) {{\n", C.Steps.size()).str();
  S += "      const int16_t *e;\n      int32_t r;\n";
  S += formatv("      /* The rows and columns of tensor {0} operator {1} "
               "reads. */\n      e = {2}_steps[s][0];\n"
               "      for (r = e[3]; r < e[4]; ++r)\n"
               "        memcpy(patch + (size_t)(r - e[3]) * (e[9] - e[8]) * "
               "{3},\n               (const uint8_t *)t{0} + ((size_t)r * {4} "
               "+ e[8]) * {3},\n               (size_t)(e[9] - e[8]) * {3});\n",
               In, C.FirstOp, Name, Pixel(InT), InT.Shape[2])
           .str();
  for (size_t K = 0; K < Members.size(); ++K) {
    const CascadeMember &M = Members[K];
    const ir::Operator &Op = G.Operators[M.Op];
    const int32_t T = Op.output(0);
    S += formatv("      /* {0}: {1} */\n      e = {2}_steps[s][{3}];\n"
                 "      {{\n",
                 M.Op, Op.Type, Name, K)
             .str();
    S += M.Prologue;
    S += stepCall(M);
    if (M.Op < C.LastOp) {
      // Its part of the tensor, row by row, at its place.
      const ir::Tensor &Ten = G.tensor(T);
      const int64_t P = Pixel(Ten);
      S += formatv("        for (r = e[11]; r < e[12]; ++r)\n"
                   "          TRACE_AT({0}, {1}, ((size_t)r * {2} + e[13]) * "
                   "{3},\n                   (const uint8_t *)t{1} + "
                   "((size_t)(r - e[0]) * (e[7] - e[6]) + (e[13] - e[6])) * "
                   "{3},\n                   (size_t)(e[14] - e[13]) * {3});\n",
                   M.Op, T, Ten.Shape[2], P)
               .str();
    }
    S += "      }\n";
  }
  const int64_t P = Pixel(OutT);
  S += formatv(
           "      /* The tile into the band, the band into tensor {0} "
           "after its last tile. */\n"
           "      for (r = e[0]; r < e[1]; ++r)\n"
           "        memcpy(band + ((size_t)(r - e[0]) * {1} + e[6]) * {2},\n"
           "               tile + (size_t)(r - e[0]) * (e[7] - e[6]) * {2},\n"
           "               (size_t)(e[7] - e[6]) * {2});\n"
           "      if (e[15]) {{\n"
           "        memcpy((uint8_t *)t{0} + (size_t)e[0] * {3}, band,\n"
           "               (size_t)(e[1] - e[0]) * {3});\n"
           "        TRACE({4}, {0}, t{0} + (size_t)e[0] * {5},\n"
           "              (size_t)(e[1] - e[0]) * {3});\n"
           "      }\n",
           Out, OutT.Shape[2], P, OutT.byteSize() / OutT.Shape[1], C.LastOp,
           elementsPerRow(OutT))
           .str();
  S += "    }\n  }";
  return S;
}

} // namespace

std::string cascadeTable(const plan::Cascade &C, const std::string &Name) {
  const bool Tiled = C.tiled();
  std::string Out =
      Tiled ? std::string("/* Per tile and operator: output rows [e0, e1), "
                          "window start e2, input rows\n * [e3, e4), padding "
                          "e5, output columns [e6, e7), input columns [e8, "
                          "e9),\n * padding e10, traced rows [e11, e12) and "
                          "columns [e13, e14), band end e15. */\n")
            : std::string("/* Per step and operator: output rows [e0, e1), "
                          "window start e2,\n * input rows [e3, e4), padding "
                          "e5. */\n");
  Out += formatv("static const int16_t {0}_steps[{1}][{2}][{3}] = {{\n", Name,
                 C.Steps.size(), C.numOps(), Tiled ? 16 : 6)
             .str();
  for (size_t S = 0; S < C.Steps.size(); ++S) {
    Out += "    {";
    for (size_t K = 0; K < C.Steps[S].size(); ++K) {
      const plan::StripeStep &St = C.Steps[S][K];
      std::vector<int32_t> E = {St.Out.Begin, St.Out.End, St.WindowBegin,
                                St.In.Begin,  St.In.End,  St.PadTop};
      if (Tiled)
        E.insert(E.end(),
                 {St.OutCols.Begin, St.OutCols.End, St.InCols.Begin,
                  St.InCols.End, St.PadLeft, St.OwnRows.Begin, St.OwnRows.End,
                  St.OwnCols.Begin, St.OwnCols.End,
                  K + 1 == C.Steps[S].size() && C.endsBand(S) ? 1 : 0});
      // Three entries a line, a tile's one.
      if (K)
        Out += (Tiled || K % 3 == 0) ? ",\n     " : ", ";
      Out += "{" +
             join(map_range(E, [](int32_t V) { return std::to_string(V); }),
                  ", ") +
             "}";
    }
    Out += S + 1 < C.Steps.size() ? "},\n" : "}\n";
  }
  Out += "};";
  return Out;
}

std::string cascadeLoop(const ir::Graph &G, const plan::Cascade &C,
                        const std::vector<CascadeMember> &Members,
                        const std::string &Name) {
  if (C.tiled())
    return tiledLoop(G, C, Members, Name);
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
    Out += stepCall(M);
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
  if (C.tiled())
    return formatv("{0} tiles of {1} x {2} output rows and columns",
                   C.Steps.size(), C.StripeRows, C.TileCols)
        .str();
  const bool Sums =
      ir::rowMap(G.Operators[C.LastOp].code()).Kind == ir::RowKind::Accumulate;
  return Sums ? formatv("{0} steps of {1} rows summed by operator {2}",
                        C.Steps.size(), C.StripeRows, C.LastOp)
                    .str()
              : formatv("{0} steps of {1} output rows", C.Steps.size(),
                        C.StripeRows)
                    .str();
}

std::string cascadeStepShape(const plan::Cascade &C) {
  return C.tiled() ? formatv("{0} x {1} tiles", C.StripeRows, C.TileCols).str()
                   : formatv("{0} rows a stripe", C.StripeRows).str();
}

json::Object cascadingReport(const ir::Graph &G, const plan::CascadePlan &P) {
  json::Array Cascades, Before, After;
  int64_t Extra = 0, Moved = 0;
  double Switch = 0;
  for (const plan::Cascade &C : P.Cascades) {
    json::Array Windows;
    for (size_t I = 0; I < C.Windowed.size(); ++I)
      Windows.push_back(
          json::Object{{"tensor", C.Windowed[I]},
                       {"rows", C.WindowRows[I]},
                       {"of_rows", G.tensor(C.Windowed[I]).Shape[1]},
                       {"bytes", int64_t(C.WindowRows[I]) * C.RowBytes[I]}});
    const int64_t CExtra = plan::extraMacs(G, C);
    Extra += CExtra;
    Moved += C.MovedBytes;
    Switch += C.SwitchCycles;
    Cascades.push_back(
        json::Object{{"first_op", C.FirstOp},
                     {"last_op", C.LastOp},
                     {"stripe_rows", C.StripeRows},
                     {"tile_columns", C.TileCols},
                     {"steps", static_cast<int64_t>(C.Steps.size())},
                     {"windows", std::move(Windows)},
                     {"moved_bytes", C.MovedBytes},
                     {"extra_macs", CExtra},
                     {"switch_cycles", C.SwitchCycles},
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
                      {"switch_cycles", Switch},
                      {"cascades", std::move(Cascades)},
                      {"live_bytes_layer", std::move(Before)},
                      {"live_bytes_cascaded", std::move(After)}};
}

} // namespace emit
} // namespace accelgen
