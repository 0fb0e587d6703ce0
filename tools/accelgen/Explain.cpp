//===- Explain.cpp - `accelgen explain`: where each operator runs and why -===//
//
// Partitions a model for one target version (partition/Partitioner.h) with
// the target's CPU fallback as the CPU and prints, per operator of the partitioned graph: the
// input operators it stands for, the operator it became, the tensor it
// writes (its name in the model, so operators can be found by name), where it
// runs, its accelerator subgraph and estimated cycles, and every reason it is
// not on the accelerator. `--json` prints the same as JSON with stable keys;
// `--dot FILE` draws the graph (graph inputs and outputs, devices coloured,
// subgraphs boxed) and renders FILE.svg next to it with Graphviz's `dot`,
// warning when that program is not installed.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "driver/OutputFolder.h"
#include "CompileModel.h"
#include "ExplainMemory.h"
#include "Targets.h"

#include "emit/CascadeEmitter.h"
#include "ir/Calls.h"
#include "partition/Partitioner.h"
#include "support/TerminalText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace llvm;
using namespace accelgen;

namespace accelgen {
namespace cli {

cl::SubCommand ExplainCommand("explain",
                              "Show where each operator of a model runs on a "
                              "target, and why");

static cl::opt<std::string> ExplainModel(cl::Positional, cl::Required,
                                         cl::desc("<model.tflite|model.onnx>"),
                                         cl::sub(ExplainCommand),
                                         cl::cat(category()));
static cl::opt<std::string>
    ExplainTarget("target",
                  cl::desc("Target and version, e.g. mdla2.0 (required; see "
                           "'accelgen targets')"),
                  cl::sub(ExplainCommand), cl::cat(category()));
static cl::opt<bool> ExplainJSON("json", cl::desc("Print JSON"),
                                 cl::sub(ExplainCommand), cl::cat(category()));
static cl::opt<std::string> ExplainDot(
    "dot", cl::desc("Write the partitioned graph in Graphviz format"),
    cl::value_desc("file"), cl::sub(ExplainCommand), cl::cat(category()));
static cl::opt<bool>
    ExplainNoCost("no-cost-model",
                  cl::desc("Place every legal operator on the accelerator"),
                  cl::sub(ExplainCommand), cl::cat(category()));

static cl::opt<bool> ExplainMemory(
    "memory",
    cl::desc("Show the working memory of every operator, layer at a time and "
             "cascaded (docs/cascading.md), instead of placement"),
    cl::sub(ExplainCommand), cl::cat(category()));
static cl::opt<unsigned long long> ExplainBudget(
    "memory-budget",
    cl::desc("With --memory: cascade to fit BYTES, as compile does"),
    cl::value_desc("BYTES"), cl::sub(ExplainCommand), cl::cat(category()));
static cl::opt<bool> ExplainInPlace(
    "inputs-in-place",
    cl::desc("With --memory: the graph inputs stay in the caller's buffers"),
    cl::sub(ExplainCommand), cl::cat(category()));
static cl::opt<std::string> ExplainSvg(
    "svg", cl::desc("With --memory: write the memory profile as SVG"),
    cl::value_desc("file"), cl::sub(ExplainCommand), cl::cat(category()));

namespace {

std::string sourcesText(const partition::PlacedOp &P) {
  if (P.Sources.empty())
    return "inserted";
  std::string S;
  for (int64_t I : P.Sources)
    S += (S.empty() ? "#" : "+#") + std::to_string(I);
  return S;
}

const char *quantName(target::QuantOutcome Q) {
  switch (Q) {
  case target::QuantOutcome::Unchanged:
    return "unchanged";
  case target::QuantOutcome::UpdatedParams:
    return "updated";
  case target::QuantOutcome::InsertedRequantize:
    return "requantize inserted";
  case target::QuantOutcome::Rejected:
    return "rejected";
  }
  return "";
}

std::string tensorName(const ir::Graph &G, int32_t T) {
  return G.isValidTensor(T) ? G.tensor(T).Name : "?";
}

/// The names of the tensors operator \p I of the partitioned graph writes.
std::vector<std::string> outputNames(const partition::PartitionResult &R,
                                     size_t I) {
  std::vector<std::string> Names;
  if (I < R.Graph.Operators.size())
    for (int32_t T : R.Graph.Operators[I].Outputs)
      Names.push_back(tensorName(R.Graph, T));
  return Names;
}

/// Whether \p T runs every operator on the host CPU itself (ref, cpu): no
/// accelerator, no library, no CPU fallback.
bool runsOnHost(const target::TargetInfo &T) {
  return T.library().empty() && T.cpuFallback().empty() &&
         !T.backend().empty();
}

/// Where operator \p P runs on \p T: "accelerator" or "cpu"; for a
/// library-call target, whose operators all run on the CPU, the library's
/// name or that of its CPU fallback; for a target that runs everything on
/// the host, "cpu", or "refused" for an operator its rules refuse.
std::string deviceText(const partition::PlacedOp &P,
                       const target::TargetInfo &T) {
  const bool Accepted = P.Placement == partition::Device::Accelerator;
  if (runsOnHost(T))
    return Accepted ? partition::deviceName(partition::Device::Cpu)
                    : "refused";
  if (T.library().empty())
    return partition::deviceName(P.Placement);
  return Accepted ? T.library() : T.cpuFallback();
}

/// One row of the text table per operator; its reasons follow it, indented.
/// Column widths are those of the widest cell; the last column is not
/// padded. A library-call target (\p Library not empty) has no subgraphs or
/// cycles of a device: its operators are calls on the same CPU.
void printText(raw_ostream &OS, const partition::PartitionResult &R,
               const target::TargetInfo &T, const ir::Model &M) {
  const StringRef Library = T.library();
  // Targets whose operators are calls on the host CPU have no subgraphs or
  // device cycles.
  const bool IsLibrary = !Library.empty() || runsOnHost(T);
  if (runsOnHost(T)) {
    OS << formatv("{0} on {1}: {2} of {3} operators on the host CPU ({4} "
                  "backend)\n",
                  sys::path::filename(ExplainModel), R.Target,
                  R.numOnAccelerator(), R.Ops.size(), T.backend());
  } else if (!Library.empty()) {
    // Target operators named accelgen_* are kernels generated per layer
    // instead of a library call (targets/cmsis-nn/cmsis-nn.td).
    size_t Generated = 0;
    for (const partition::PlacedOp &P : R.Ops)
      Generated += P.Placement == partition::Device::Accelerator &&
                   StringRef(P.Type).startswith("accelgen_");
    const size_t Calls = R.numOnAccelerator() - Generated;
    OS << formatv("{0} on {1}: {2} of {3} operators as {4} calls{5}, the "
                  "rest as on {6}\n",
                  sys::path::filename(ExplainModel), R.Target, Calls,
                  R.Ops.size(), Library,
                  Generated
                      ? formatv(", {0} as {1} generated per layer", Generated,
                                Generated == 1 ? "a kernel" : "kernels")
                            .str()
                      : std::string(),
                  T.cpuFallback());
  } else {
    OS << formatv("{0} on {1}: {2} of {3} operators on the accelerator in "
                  "{4} subgraph{5}",
                  sys::path::filename(ExplainModel), R.Target,
                  R.numOnAccelerator(), R.Ops.size(), R.Subgraphs.size(),
                  R.Subgraphs.size() == 1 ? "" : "s");
    OS << formatv(", estimated {0:F0} accelerator cycles\n",
                  R.acceleratorCycles());
  }

  // The columns; numbers (Index, Cycles) are right-aligned.
  enum Column { Index, From, Operator, Device, Sub, Cycles, Quant, Output };
  const std::vector<std::string> Header = {
      "#",        "from",   "operator",     "device",
      "subgraph", "cycles", "quantization", "output"};
  std::vector<std::vector<std::string>> Rows = {Header};
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    const partition::PlacedOp &P = R.Ops[I];
    Rows.push_back(
        {std::to_string(I), sourcesText(P),
         P.SourceType == P.Type ? P.Type : P.SourceType + " -> " + P.Type,
         deviceText(P, T),
         P.Subgraph >= 0 ? std::to_string(P.Subgraph) : "-",
         P.Cycles ? formatv("{0:F0}", *P.Cycles).str() : "-",
         P.Quant == target::QuantOutcome::Unchanged ? "-" : quantName(P.Quant),
         support::terminalText(join(outputNames(R, I), ", "), false)});
  }
  if (IsLibrary)
    for (std::vector<std::string> &Row : Rows)
      Row.erase(Row.begin() + Sub, Row.begin() + Cycles + 1);
  std::vector<size_t> Width(Rows.front().size(), 0);
  for (const std::vector<std::string> &Row : Rows)
    for (size_t C = 0; C < Row.size(); ++C)
      Width[C] = std::max(Width[C], Row[C].size());
  // Reasons start under the "from" column.
  const size_t ReasonIndent = 2 + Width[Index] + 2;
  for (size_t RowIndex = 0; RowIndex < Rows.size(); ++RowIndex) {
    const std::vector<std::string> &Row = Rows[RowIndex];
    OS << "  ";
    for (size_t C = 0; C < Row.size(); ++C) {
      if (C)
        OS << "  ";
      if (C == Index || (!IsLibrary && C == Cycles))
        OS << right_justify(Row[C], Width[C]);
      else if (C + 1 == Row.size())
        OS << Row[C];
      else
        OS << left_justify(Row[C], Width[C]);
    }
    OS << "\n";
    if (RowIndex == 0)
      continue;
    for (const target::Rejection &W : R.Ops[RowIndex - 1].Why) {
      OS.indent(ReasonIndent) << W.ConstraintId << ": " << W.Message;
      if (!W.Hint.empty())
        OS << " (" << W.Hint << ")";
      OS << "\n";
    }
  }
  for (size_t S = 0; !IsLibrary && S < R.Subgraphs.size(); ++S) {
    const partition::Subgraph &Sub = R.Subgraphs[S];
    OS << formatv("subgraph {0}: operators {1}-{2}, {3} input(s), {4} "
                  "output(s), {5:F0} cycles + {6:F0} switch cycles\n",
                  S, Sub.Ops.front(), Sub.Ops.back(), Sub.Inputs.size(),
                  Sub.Outputs.size(), Sub.Cycles, Sub.SwitchCycles);
  }
  for (const auto &[Pattern, Why] : R.RejectedFusions)
    for (const std::string &W : Why)
      OS << "fusion " << Pattern << " not applied: " << W << "\n";
  // Called graphs run whole on the host CPU (docs/control-flow.md).
  for (size_t K : ir::reachableGraphs(M, M.main()))
    OS << formatv("graph {0} '{1}': called by IF, WHILE or CALL_ONCE; its "
                  "{2} operator(s) run on the host CPU with the reference "
                  "kernels\n",
                  K, support::terminalText(M.Graphs[K].Name, false),
                  M.Graphs[K].Operators.size());
}

json::Array indices(const std::vector<size_t> &V) {
  json::Array A;
  for (size_t I : V)
    A.push_back(static_cast<int64_t>(I));
  return A;
}

/// The JSON form; a library-call target (\p Library not empty) names the
/// library as the device of its operators and under "library".
json::Value toJSON(const partition::PartitionResult &R, const target::TargetInfo &T) {
  const StringRef Library = T.library();
  json::Array Ops;
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    const partition::PlacedOp &P = R.Ops[I];
    json::Array Reasons;
    for (const target::Rejection &W : P.Why)
      Reasons.push_back(json::Object{
          {"id", W.ConstraintId}, {"message", W.Message}, {"hint", W.Hint}});
    json::Object O{{"index", int64_t(I)},
                   {"sources", json::Array(P.Sources)},
                   {"source_type", P.SourceType},
                   {"type", P.Type},
                   {"outputs", json::Array(outputNames(R, I))},
                   {"device", deviceText(P, T)},
                   {"subgraph", P.Subgraph},
                   {"quantization", quantName(P.Quant)},
                   {"reasons", std::move(Reasons)}};
    O["cycles"] = P.Cycles ? json::Value(*P.Cycles) : json::Value(nullptr);
    Ops.push_back(std::move(O));
  }
  json::Array Subgraphs;
  for (const partition::Subgraph &S : R.Subgraphs) {
    json::Array In, Out;
    for (int32_t T : S.Inputs)
      In.push_back(tensorName(R.Graph, T));
    for (int32_t T : S.Outputs)
      Out.push_back(tensorName(R.Graph, T));
    Subgraphs.push_back(json::Object{{"operators", indices(S.Ops)},
                                     {"inputs", std::move(In)},
                                     {"outputs", std::move(Out)},
                                     {"cycles", S.Cycles},
                                     {"switch_cycles", S.SwitchCycles}});
  }
  json::Array Fusions;
  for (const auto &[Pattern, Why] : R.RejectedFusions)
    Fusions.push_back(
        json::Object{{"pattern", Pattern}, {"reasons", json::Array(Why)}});
  json::Object Out{{"model", sys::path::filename(ExplainModel).str()},
                   {"target", R.Target},
                   {"operators", std::move(Ops)},
                   {"subgraphs", std::move(Subgraphs)},
                   {"rejected_fusions", std::move(Fusions)},
                   {"on_accelerator", int64_t(R.numOnAccelerator())},
                   {"accelerator_cycles", R.acceleratorCycles()}};
  if (!Library.empty())
    Out["library"] = Library;
  return Out;
}

/// The most bytes of one name a Graphviz label shows; Graphviz cannot read
/// a file with a string of some ten thousand characters, and a label that
/// long is unreadable anyway.
constexpr size_t MaxDotText = 200;

/// \p S escaped for a quoted Graphviz string: quotes and backslashes
/// escaped, a newline as Graphviz's line break `\n`, other control
/// characters dropped; cut to MaxDotText bytes (at a character boundary)
/// with "..." when longer.
std::string dotEscape(StringRef S) {
  std::string Out;
  if (S.size() > MaxDotText) {
    size_t Cut = MaxDotText;
    // Not inside a UTF-8 sequence: back up over continuation bytes.
    while (Cut > 0 && (static_cast<unsigned char>(S[Cut]) & 0xC0) == 0x80)
      --Cut;
    return dotEscape(S.take_front(Cut)) + "...";
  }
  for (char C : S) {
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    if (static_cast<unsigned char>(C) < 0x20)
      continue;
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// \p S as a quoted Graphviz string.
std::string dotString(StringRef S) { return "\"" + dotEscape(S) + "\""; }

/// A quoted multi-line Graphviz label: each line escaped, joined by line
/// breaks.
std::string dotLabel(ArrayRef<std::string> Lines) {
  std::vector<std::string> Escaped;
  for (const std::string &L : Lines)
    Escaped.push_back(dotEscape(L));
  return "\"" + join(Escaped, "\\n") + "\"";
}

/// Graph inputs (`in<i>`) and outputs (`out<i>`) are ellipses, operators
/// (`op<i>`) boxes coloured by device, each accelerator subgraph a cluster
/// (none for a library-call target or one running on the host); edges run from
/// producer to consumer, labelled with the tensor's shape.
void printDot(raw_ostream &OS, const partition::PartitionResult &R,
              const target::TargetInfo &T) {
  // Calls on the host CPU (a library's, or a host target's) form no
  // accelerator subgraphs.
  const bool NoSubgraphs = !T.library().empty() || runsOnHost(T);
  const ir::Graph &G = R.Graph;
  OS << "digraph " << dotString(sys::path::filename(ExplainModel)) << " {\n"
     << "  rankdir=TB;\n  fontname=Helvetica;\n"
     << "  node [shape=box, style=filled, fontname=Helvetica];\n"
     << "  edge [fontname=Helvetica, fontsize=10];\n"
     << "  label=" << dotString(R.Target) << ";\n";
  auto Node = [&](size_t I) {
    const partition::PlacedOp &P = R.Ops[I];
    std::vector<std::string> Lines = {formatv("#{0} {1}", I, P.Type).str()};
    if (P.SourceType != P.Type)
      Lines.push_back("from " + P.SourceType);
    for (const std::string &Name : outputNames(R, I))
      Lines.push_back("-> " + Name);
    if (!P.Why.empty())
      Lines.push_back(P.Why.front().ConstraintId);
    return formatv("  op{0} [label={1}, fillcolor={2}];\n", I, dotLabel(Lines),
                   P.Placement == partition::Device::Accelerator
                       ? "\"#9ecae1\""
                       : "\"#fdd0a2\"")
        .str();
  };
  auto Terminal = [&](StringRef Id, StringRef Kind, size_t K, int32_t T) {
    std::vector<std::string> Lines = {formatv("{0} {1}", Kind, K).str(),
                                      tensorName(G, T)};
    if (G.isValidTensor(T))
      Lines.push_back(ir::formatShape(G.tensor(T).Shape));
    OS << formatv("  {0}{1} [label={2}, shape=ellipse, style=solid];\n", Id, K,
                  dotLabel(Lines));
  };
  for (size_t K = 0; K < G.Inputs.size(); ++K)
    Terminal("in", "input", K, G.Inputs[K]);
  for (size_t K = 0; K < G.Outputs.size(); ++K)
    Terminal("out", "output", K, G.Outputs[K]);
  // A library-call target's operators are separate calls on the CPU: no
  // subgraphs are drawn.
  for (size_t S = 0; !NoSubgraphs && S < R.Subgraphs.size(); ++S) {
    OS << formatv("  subgraph cluster_{0} {{\n    label=\"subgraph {0}\";\n"
                  "    style=rounded;\n",
                  S);
    for (size_t I : R.Subgraphs[S].Ops)
      OS << "  " << Node(I);
    OS << "  }\n";
  }
  for (size_t I = 0; I < R.Ops.size(); ++I)
    if (NoSubgraphs || R.Ops[I].Subgraph < 0)
      OS << Node(I);
  // Where each tensor comes from: an operator, or a graph input.
  std::map<int32_t, std::string> Producer;
  for (size_t K = 0; K < G.Inputs.size(); ++K)
    Producer[G.Inputs[K]] = "in" + std::to_string(K);
  for (size_t I = 0; I < G.Operators.size(); ++I)
    for (int32_t T : G.Operators[I].Outputs)
      Producer[T] = "op" + std::to_string(I);
  auto Edge = [&](int32_t T, StringRef To) {
    auto It = Producer.find(T);
    if (It == Producer.end())
      return;
    OS << formatv("  {0} -> {1} [label={2}];\n", It->second, To,
                  dotString(ir::formatShape(G.tensor(T).Shape)));
  };
  for (size_t I = 0; I < G.Operators.size(); ++I)
    for (int32_t T : G.Operators[I].Inputs)
      Edge(T, "op" + std::to_string(I));
  for (size_t K = 0; K < G.Outputs.size(); ++K)
    Edge(G.Outputs[K], "out" + std::to_string(K));
  OS << "}\n";
}

/// Renders \p DotFile as \p DotFile.svg with Graphviz's `dot`, or warns that
/// it cannot.
void renderSvg(StringRef DotFile) {
  // Written into a device or pipe (/dev/null): nothing to render beside it.
  if (!sys::fs::is_regular_file(DotFile))
    return;
  std::string Svg = (DotFile + ".svg").str();
  ErrorOr<std::string> Graphviz = sys::findProgramByName("dot");
  if (!Graphviz) {
    reportWarning(DotFile, "not rendering " + Svg +
                               ": Graphviz's `dot` program is not on PATH "
                               "(install Graphviz, e.g. `apt-get install "
                               "graphviz`)");
    return;
  }
  // Rendered to a temporary file, then written as any file the user names.
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createTemporaryFile("accelgen-explain",
                                                        "svg", Temp)) {
    reportWarning(DotFile, "not rendering " + Svg + ": " + EC.message());
    return;
  }
  auto Remove = make_scope_exit([&] { sys::fs::remove(Temp); });
  std::string Err;
  int RC = sys::ExecuteAndWait(
      *Graphviz, {*Graphviz, "-Tsvg", DotFile, "-o", Temp}, None, {}, 0, 0,
      &Err);
  if (RC != 0) {
    reportWarning(DotFile, "Graphviz could not render it: " +
                               (Err.empty() ? "`dot` failed" : Err));
    return;
  }
  if (Error E = driver::copyToUserFile(Temp, Svg))
    reportWarning(DotFile, "not rendering " + Svg + ": " +
                               toString(std::move(E)));
}

} // namespace

int runExplain() {
  if (ExplainTarget.empty())
    return reportError("",
                       "explain needs --target, e.g. --target ref (targets: " +
                           llvm::join(driver::targetLabels(), ", ") + ")");
  driver::Options O;
  O.Target = ExplainTarget;
  O.OnnxAsTFLite = onnxAsTFLite();
  O.LibraryCallsOnly = libraryCallsOnly();
  O.Cascading = cascadeOptions(true, ExplainBudget, ExplainInPlace);
  std::unique_ptr<driver::Compilation> C =
      compileModel(ExplainModel, O, /*ExplainOnly=*/true);
  if (!C)
    return 1;
  const target::TargetInfo &Target = *C->target().Info;
  if (ExplainMemory) {
    // The plan compile makes: an accelerator target's with its program.
    Expected<plan::CascadePlan> P = C->memoryPlan();
    if (!P)
      return reportError(ExplainModel, toString(P.takeError()));
    const ir::Graph &G = C->emittedGraph();
    StringRef Name = sys::path::filename(ExplainModel);
    if (!ExplainSvg.empty()) {
      // A bare file name is in the current folder.
      SmallString<256> Svg(ExplainSvg);
      sys::fs::make_absolute(Svg);
      if (Error E = driver::writeUserFile(
              Svg, memorySvg(Name, G, *P, O.Cascading.Budget)))
        return reportError(ExplainSvg, toString(std::move(E)));
    }
    if (ExplainJSON)
      outs() << formatv("{0:2}", json::Value(emit::cascadingReport(G, *P)))
             << "\n";
    else
      printSafely(
          [&](raw_ostream &OS) { printMemoryText(OS, Name, G, *P); });
    return 0;
  }
  partition::PartitionResult R = C->partition(!ExplainNoCost);
  if (!ExplainDot.empty()) {
    std::string Text;
    raw_string_ostream Dot(Text);
    printDot(Dot, R, Target);
    if (Error E = driver::writeUserFile(ExplainDot, Dot.str()))
      return reportError(ExplainDot, toString(std::move(E)));
    renderSvg(ExplainDot);
  }
  if (ExplainJSON)
    outs() << formatv("{0:2}", toJSON(R, Target)) << "\n";
  else
    printSafely(
        [&](raw_ostream &OS) { printText(OS, R, Target, C->model()); });
  return 0;
}

} // namespace cli
} // namespace accelgen
