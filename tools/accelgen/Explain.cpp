//===- Explain.cpp - `accelgen explain`: where each operator runs and why -===//
//
// Partitions a model for one target version (partition/Partitioner.h) with
// ref as the CPU and prints, per operator of the partitioned graph: the
// input operators it stands for, the operator it became, where it runs, its
// accelerator subgraph and estimated cycles, and every reason it is not on
// the accelerator. `--json` prints the same as JSON with stable keys;
// `--dot FILE` draws the graph (devices coloured, subgraphs boxed) and, when
// Graphviz's `dot` is installed, renders FILE.svg next to it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "CompileModel.h"
#include "OutputFolder.h"
#include "Targets.h"

#include "import/TFLiteImporter.h"
#include "partition/Partitioner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace accelgen;

namespace accelgen {
namespace cli {

cl::SubCommand ExplainCommand("explain",
                              "Show where each operator of a model runs on a "
                              "target, and why");

static cl::opt<std::string> ExplainModel(cl::Positional, cl::Required,
                                         cl::desc("<model.tflite>"),
                                         cl::sub(ExplainCommand),
                                         cl::cat(category()));
static cl::opt<std::string>
    ExplainTarget("target",
                  cl::desc("Target and version, e.g. mdla2.0 (required)"),
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

void printText(raw_ostream &OS, const partition::PartitionResult &R) {
  OS << formatv("{0} on {1}: {2} of {3} operators on the accelerator in {4} "
                "subgraph{5}",
                sys::path::filename(ExplainModel), R.Target,
                R.numOnAccelerator(), R.Ops.size(), R.Subgraphs.size(),
                R.Subgraphs.size() == 1 ? "" : "s");
  OS << formatv(", estimated {0:F0} accelerator cycles\n",
                R.acceleratorCycles());
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    const partition::PlacedOp &P = R.Ops[I];
    std::string What =
        P.SourceType == P.Type ? P.Type : P.SourceType + " -> " + P.Type;
    OS << formatv("  {0,3}  {1,-12} {2,-40} {3,-11}", I, sourcesText(P), What,
                  partition::deviceName(P.Placement));
    if (P.Subgraph >= 0)
      OS << formatv(" subgraph {0}", P.Subgraph);
    if (P.Cycles)
      OS << formatv(", {0:F0} cycles", *P.Cycles);
    if (P.Quant != target::QuantOutcome::Unchanged)
      OS << ", quantization " << quantName(P.Quant);
    OS << "\n";
    for (const target::Rejection &W : P.Why) {
      OS << "         " << W.ConstraintId << ": " << W.Message;
      if (!W.Hint.empty())
        OS << " (" << W.Hint << ")";
      OS << "\n";
    }
  }
  for (size_t S = 0; S < R.Subgraphs.size(); ++S) {
    const partition::Subgraph &Sub = R.Subgraphs[S];
    OS << formatv("subgraph {0}: operators {1}-{2}, {3} input(s), {4} "
                  "output(s), {5:F0} cycles + {6:F0} switch cycles\n",
                  S, Sub.Ops.front(), Sub.Ops.back(), Sub.Inputs.size(),
                  Sub.Outputs.size(), Sub.Cycles, Sub.SwitchCycles);
  }
  for (const auto &[Pattern, Why] : R.RejectedFusions)
    for (const std::string &W : Why)
      OS << "fusion " << Pattern << " not applied: " << W << "\n";
}

json::Array indices(const std::vector<size_t> &V) {
  json::Array A;
  for (size_t I : V)
    A.push_back(static_cast<int64_t>(I));
  return A;
}

json::Value toJSON(const partition::PartitionResult &R) {
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
                   {"device", partition::deviceName(P.Placement)},
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
  return json::Object{{"model", sys::path::filename(ExplainModel).str()},
                      {"target", R.Target},
                      {"operators", std::move(Ops)},
                      {"subgraphs", std::move(Subgraphs)},
                      {"rejected_fusions", std::move(Fusions)},
                      {"on_accelerator", int64_t(R.numOnAccelerator())},
                      {"accelerator_cycles", R.acceleratorCycles()}};
}

/// \p S quoted for Graphviz.
std::string dotString(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

void printDot(raw_ostream &OS, const partition::PartitionResult &R) {
  const ir::Graph &G = R.Graph;
  OS << "digraph " << dotString(sys::path::filename(ExplainModel)) << " {\n"
     << "  rankdir=TB;\n  node [shape=box, style=filled, fontname=Helvetica];\n"
     << "  label=" << dotString(R.Target) << ";\n";
  auto Node = [&](size_t I) {
    const partition::PlacedOp &P = R.Ops[I];
    std::string Label = formatv("#{0} {1}", I, P.Type).str();
    if (P.SourceType != P.Type)
      Label += "\\n(" + P.SourceType + ")";
    if (!P.Why.empty())
      Label += "\\n" + P.Why.front().ConstraintId;
    return formatv("  op{0} [label={1}, fillcolor={2}];\n", I, dotString(Label),
                   P.Placement == partition::Device::Accelerator
                       ? "\"#9ecae1\""
                       : "\"#fdd0a2\"")
        .str();
  };
  for (size_t S = 0; S < R.Subgraphs.size(); ++S) {
    OS << formatv("  subgraph cluster_{0} {{\n    label=\"subgraph {0}\";\n"
                  "    style=rounded;\n",
                  S);
    for (size_t I : R.Subgraphs[S].Ops)
      OS << "  " << Node(I);
    OS << "  }\n";
  }
  for (size_t I = 0; I < R.Ops.size(); ++I)
    if (R.Ops[I].Subgraph < 0)
      OS << Node(I);
  // Edges: producer -> consumer, labelled with the tensor's shape.
  std::map<int32_t, size_t> Producer;
  for (size_t I = 0; I < G.Operators.size(); ++I)
    for (int32_t T : G.Operators[I].Outputs)
      Producer[T] = I;
  for (size_t I = 0; I < G.Operators.size(); ++I)
    for (int32_t T : G.Operators[I].Inputs) {
      auto It = Producer.find(T);
      if (It == Producer.end())
        continue;
      OS << formatv("  op{0} -> op{1} [label={2}];\n", It->second, I,
                    dotString(ir::formatShape(G.tensor(T).Shape)));
    }
  OS << "}\n";
}

} // namespace

int runExplain() {
  if (ExplainTarget.empty())
    return reportError("",
                       "explain needs --target, e.g. --target ref (targets: " +
                           llvm::join(knownTargetLabels(), ", ") + ")");
  auto Target = resolveTarget(ExplainTarget);
  if (!Target)
    return reportError("", toString(Target.takeError()));
  Expected<tflite::ImportResult> M = importModelFile(ExplainModel);
  if (!M)
    return reportError(ExplainModel, toString(M.takeError()));
  for (const std::string &W : M->Warnings)
    reportWarning(ExplainModel, W);
  auto Cpu = resolveTarget("ref");
  if (!Cpu)
    return reportError("", toString(Cpu.takeError()));
  partition::PartitionOptions Opts;
  Opts.Cpu = Cpu->first;
  Opts.UseCostModel = !ExplainNoCost;
  partition::PartitionResult R = partition::partition(
      M->Model->main(), *Target->first, Target->second, Opts);

  if (!ExplainDot.empty()) {
    std::string Text;
    raw_string_ostream Dot(Text);
    printDot(Dot, R);
    if (Error E = writeFileAtomically(ExplainDot, Dot.str()))
      return reportError(ExplainDot, toString(std::move(E)));
    if (ErrorOr<std::string> Graphviz = sys::findProgramByName("dot")) {
      std::string Svg = ExplainDot + ".svg";
      std::string Err;
      int RC = sys::ExecuteAndWait(*Graphviz,
                                   {*Graphviz, "-Tsvg", ExplainDot, "-o", Svg},
                                   None, {}, 0, 0, &Err);
      if (RC != 0)
        reportWarning(ExplainDot, "Graphviz could not render it: " + Err);
    }
  }
  if (ExplainJSON)
    outs() << formatv("{0:2}", toJSON(R)) << "\n";
  else
    printText(outs(), R);
  return 0;
}

} // namespace cli
} // namespace accelgen
