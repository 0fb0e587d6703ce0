//===- ExplainMemory.cpp - `explain --memory`: working memory per step ----===//
//
// Text and SVG views of a cascaded memory plan. The numbers are the plan's
// (plan::CascadePlan) and the report's (emit::cascadingReport), so the
// table, the JSON and report.json agree.
//
//===----------------------------------------------------------------------===//
#include "ExplainMemory.h"

#include "emit/CascadeEmitter.h"

#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace accelgen {
namespace cli {

void printMemoryText(raw_ostream &OS, StringRef Model, const ir::Graph &G,
                     const plan::CascadePlan &P) {
  int64_t Extra = 0, Moved = 0;
  for (const plan::Cascade &C : P.Cascades) {
    Extra += plan::extraMacs(G, C);
    Moved += C.MovedBytes;
  }
  OS << formatv("{0}: working memory {1} bytes layer at a time, {2} bytes "
                "cascaded ({3} cascade{4}, {5} extra MACs, {6} bytes moved "
                "by windows)\n",
                Model, P.LayerMemory.ArenaBytes, P.Memory.ArenaBytes,
                P.Cascades.size(), P.Cascades.size() == 1 ? "" : "s", Extra,
                Moved);
  size_t TypeWidth = 8;
  for (const ir::Operator &Op : G.Operators)
    TypeWidth = std::max(TypeWidth, Op.Type.size());
  OS << formatv("{0,4}  {1}  {2,10}  {3,10}  {4}\n", "#",
                fmt_align("operator", AlignStyle::Left, TypeWidth), "layer",
                "cascaded", "cascade");
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    std::string Where;
    if (const plan::Cascade *C = P.cascadeOf(static_cast<int32_t>(K)))
      Where = formatv("{0}-{1}, {2}", C->FirstOp, C->LastOp,
                      emit::cascadeStepShape(*C))
                  .str();
    OS << formatv("{0,4}  {1}  {2,10}  {3,10}  {4}\n", K,
                  fmt_align(G.Operators[K].Type, AlignStyle::Left, TypeWidth),
                  P.LiveBefore[K], P.LiveAfter[K], Where)
              .str();
  }
  for (const plan::Cascade &C : P.Cascades) {
    OS << formatv("cascade {0}-{1}: {2}, {3} bytes moved, {4} extra MACs; "
                  "windows:",
                  C.FirstOp, C.LastOp, emit::cascadeStepsText(G, C),
                  C.MovedBytes, plan::extraMacs(G, C));
    for (size_t I = 0; I < C.Windowed.size(); ++I) {
      const ir::Tensor &T = G.tensor(C.Windowed[I]);
      const int64_t Bytes = int64_t(C.WindowRows[I]) * C.RowBytes[I];
      if (C.tiled())
        OS << formatv(" tensor {0} {1} x {2} of {3} x {4} ({5} bytes){6}",
                      C.Windowed[I], C.WindowRows[I],
                      C.RowBytes[I] * T.Shape[2] * T.Shape[1] / T.byteSize(),
                      T.Shape[1], T.Shape[2], Bytes,
                      I + 1 < C.Windowed.size() ? "," : "");
      else
        OS << formatv(" tensor {0} {1}/{2} rows ({3} bytes){4}", C.Windowed[I],
                      C.WindowRows[I], T.Shape[1], Bytes,
                      I + 1 < C.Windowed.size() ? "," : "");
    }
    if (C.tiled())
      OS << formatv("; staging {0} bytes (input region, tile, band)",
                    C.PatchBytes + C.TileBytes + C.BandBytes);
    if (C.Overlaid >= 0)
      OS << formatv("; its output in place of tensor {0}", C.Overlaid);
    if (C.SwitchCycles > 0)
      OS << formatv("; device switches {0} cycles",
                    static_cast<int64_t>(std::llround(C.SwitchCycles)));
    if (const plan::Buffer *S = P.Memory.findScratch(C.FirstOp);
        S && S->FirstOp == C.FirstOp) {
      int64_t Bytes = 0;
      for (const plan::Buffer &B : P.Memory.Scratch)
        if (B.FirstOp == C.FirstOp)
          Bytes = std::max(Bytes, B.Size);
      OS << formatv("; scratch {0} bytes, shared by its calls", Bytes);
    }
    OS << "\n";
  }
  // Kernel scratch (target cmsis-nn): buffers of the plan, each live at its
  // operator or cascade.
  if (!P.Memory.Scratch.empty()) {
    const plan::Buffer *Most = &P.Memory.Scratch.front();
    for (const plan::Buffer &B : P.Memory.Scratch)
      if (B.Size > Most->Size)
        Most = &B;
    OS << formatv("kernel scratch: {0} operator{1}, up to {2} bytes "
                  "(operator {3}, {4}), each live at its operator or "
                  "cascade\n",
                  P.Memory.Scratch.size(),
                  P.Memory.Scratch.size() == 1 ? "" : "s", Most->Size, Most->Op,
                  G.Operators[Most->Op].Type);
  }
}

std::string memorySvg(StringRef Model, const ir::Graph &G,
                      const plan::CascadePlan &P, int64_t Budget) {
  const size_t N = std::max<size_t>(1, G.Operators.size());
  const double Width = 800, Height = 300, Left = 70, Top = 40, Bottom = 40;
  const double PlotW = Width - Left - 20, PlotH = Height - Top - Bottom;
  int64_t Max = std::max<int64_t>(1, Budget);
  for (size_t K = 0; K < G.Operators.size(); ++K)
    Max = std::max({Max, P.LiveBefore[K], P.LiveAfter[K]});
  const double Bar = PlotW / N;
  auto X = [&](size_t K) { return Left + Bar * K; };
  auto Y = [&](int64_t B) { return Top + PlotH * (1.0 - double(B) / Max); };

  std::string S;
  raw_string_ostream OS(S);
  OS << formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                "height=\"{1}\" font-family=\"sans-serif\" font-size=\"11\">\n",
                Width, Height);
  OS << formatv("<text x=\"{0}\" y=\"18\" font-size=\"13\">{1}: bytes live "
                "per operator, layer at a time {2} (grey), cascaded {3} "
                "(blue)</text>\n",
                Left, Model, P.LayerMemory.ArenaBytes, P.Memory.ArenaBytes);
  for (const plan::Cascade &C : P.Cascades)
    OS << formatv("<rect x=\"{0:F1}\" y=\"{1}\" width=\"{2:F1}\" "
                  "height=\"{3}\" fill=\"#fff3c4\"><title>cascade {4}-{5}, "
                  "{6}</title></rect>\n",
                  X(C.FirstOp), Top, Bar * C.numOps(), PlotH, C.FirstOp,
                  C.LastOp, emit::cascadeStepShape(C));
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    OS << formatv("<rect x=\"{0:F1}\" y=\"{1:F1}\" width=\"{2:F1}\" "
                  "height=\"{3:F1}\" fill=\"#bbbbbb\"><title>{4} {5}: {6} "
                  "bytes layer at a time</title></rect>\n",
                  X(K), Y(P.LiveBefore[K]), Bar,
                  Top + PlotH - Y(P.LiveBefore[K]), K, G.Operators[K].Type,
                  P.LiveBefore[K]);
    OS << formatv("<rect x=\"{0:F1}\" y=\"{1:F1}\" width=\"{2:F1}\" "
                  "height=\"{3:F1}\" fill=\"#3b6fd4\"><title>{4} {5}: {6} "
                  "bytes cascaded</title></rect>\n",
                  X(K) + Bar * 0.25, Y(P.LiveAfter[K]), Bar * 0.5,
                  Top + PlotH - Y(P.LiveAfter[K]), K, G.Operators[K].Type,
                  P.LiveAfter[K]);
  }
  if (Budget >= 0)
    OS << formatv("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:F1}\" y2=\"{2:F1}\" "
                  "stroke=\"#d43b3b\" stroke-dasharray=\"4 3\"/><text "
                  "x=\"{1}\" y=\"{3:F1}\" text-anchor=\"end\" "
                  "fill=\"#d43b3b\">budget {4}</text>\n",
                  Left, Left + PlotW, Y(Budget), Y(Budget) - 3, Budget);
  OS << formatv("<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" "
                "stroke=\"black\"/>\n<line x1=\"{0}\" x2=\"{3}\" y1=\"{2}\" "
                "y2=\"{2}\" stroke=\"black\"/>\n",
                Left, Top, Top + PlotH, Left + PlotW);
  OS << formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">{2}</text>\n"
                "<text x=\"{0}\" y=\"{3}\" text-anchor=\"end\">0</text>\n",
                Left - 4, Top + 4, Max, Top + PlotH);
  OS << formatv("<text x=\"{0}\" y=\"{1}\">operator 0 .. {2}</text>\n", Left,
                Height - 12, N - 1);
  OS << "</svg>\n";
  return OS.str();
}

} // namespace cli
} // namespace accelgen
