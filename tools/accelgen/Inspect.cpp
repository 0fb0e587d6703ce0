//===- Inspect.cpp - `accelgen inspect`: describe a model
//------------------===//
//
// Prints what a model contains: operators with counts and versions, every
// tensor with shape, type, quantization and whether it is constant, the
// multiply-accumulates of each operator and in total, and the activation
// memory if every tensor had its own buffer. `--json` gives the same as JSON
// whose keys and order are stable.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "CompileModel.h"

#include "analysis/ModelStats.h"
#include "import/ModelFile.h"
#include "support/TerminalText.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>
#include <set>

using namespace llvm;
using namespace accelgen;

namespace accelgen {
namespace cli {

cl::SubCommand InspectCommand("inspect",
                              "Describe a TensorFlow Lite model: operators, "
                              "tensors, MACs and memory");

static cl::opt<std::string> InspectModel(cl::Positional, cl::Required,
                                         cl::desc("<model.tflite|model.onnx>"),
                                         cl::sub(InspectCommand),
                                         cl::cat(category()));
static cl::opt<bool> InspectJSON("json",
                                 cl::desc("Print machine-readable JSON"),
                                 cl::sub(InspectCommand), cl::cat(category()));

namespace {

/// Sums per-graph figures, which ModelStats saturates at INT64_MAX, without
/// overflowing when several graphs saturate.
int64_t addFigure(int64_t Sum, int64_t Figure) {
  int64_t R;
  return __builtin_add_overflow(Sum, Figure, &R) ? INT64_MAX : R;
}

/// Operator counts and the versions seen, by operator type, over all graphs.
struct OpCensus {
  std::map<std::string, int64_t> Counts;
  std::map<std::string, std::set<int32_t>> Versions;

  explicit OpCensus(const ir::Model &M) {
    for (const ir::Graph &G : M.Graphs)
      for (const ir::Operator &Op : G.Operators) {
        ++Counts[Op.Type];
        Versions[Op.Type].insert(Op.Version);
      }
  }
};

/// \p D as a JSON number, or null when it is infinite or NaN, which JSON
/// cannot write (the importer rejects such values; this keeps the output
/// valid JSON whatever the IR holds).
json::Value number(double D) {
  if (!std::isfinite(D))
    return nullptr;
  return D;
}

json::Value attrToJSON(const ir::AttrValue &V) {
  if (auto *I = std::get_if<int64_t>(&V))
    return *I;
  if (auto *D = std::get_if<double>(&V))
    return number(*D);
  if (auto *B = std::get_if<bool>(&V))
    return *B;
  if (auto *S = std::get_if<std::string>(&V))
    return *S;
  json::Array A;
  for (int64_t I : std::get<std::vector<int64_t>>(V))
    A.push_back(I);
  return A;
}

std::string quantToText(const ir::Tensor &T) {
  if (!T.Quant)
    return "-";
  const ir::QuantParams &Q = *T.Quant;
  if (Q.isPerChannel())
    return formatv("per-channel axis {0} ({1} scales)", Q.Axis, Q.Scales.size())
        .str();
  std::string Out;
  raw_string_ostream(Out) << format("scale %.9g zp %lld", Q.scale(),
                                    static_cast<long long>(Q.zeroPoint()));
  return Out;
}

void writeTensorJSON(json::OStream &J, const ir::Graph &G, int32_t Index) {
  const ir::Tensor &T = G.tensor(Index);
  J.object([&] {
    J.attribute("index", Index);
    J.attribute("name", T.Name);
    J.attribute("dtype", ir::dtypeName(T.Type));
    J.attributeArray("shape", [&] {
      for (int32_t D : T.Shape)
        J.value(D);
    });
    J.attribute("constant", T.IsConstant);
    J.attribute("variable", T.IsVariable);
    J.attribute("resource", T.IsResource);
    J.attribute("bytes", T.byteSize());
    if (!T.Quant) {
      J.attribute("quantization", nullptr);
      return;
    }
    J.attributeObject("quantization", [&] {
      J.attribute("per_channel", T.Quant->isPerChannel());
      J.attribute("axis", T.Quant->Axis);
      J.attributeArray("scale", [&] {
        for (float S : T.Quant->Scales)
          J.value(number(static_cast<double>(S)));
      });
      J.attributeArray("zero_point", [&] {
        for (int64_t Z : T.Quant->ZeroPoints)
          J.value(Z);
      });
    });
  });
}

void writeOperatorJSON(json::OStream &J, const ir::Graph &G, size_t Index) {
  const ir::Operator &Op = G.Operators[Index];
  J.object([&] {
    J.attribute("index", static_cast<int64_t>(Index));
    J.attribute("type", Op.Type);
    J.attribute("version", Op.Version);
    J.attribute("builtin_code", Op.BuiltinCode);
    J.attribute("opaque", Op.Opaque);
    if (!Op.CustomCode.empty())
      J.attribute("custom_code", Op.CustomCode);
    J.attributeArray("inputs", [&] {
      for (int32_t T : Op.Inputs)
        J.value(T);
    });
    J.attributeArray("outputs", [&] {
      for (int32_t T : Op.Outputs)
        J.value(T);
    });
    J.attributeObject("attributes", [&] {
      for (const auto &[Name, Value] : Op.Attrs)
        J.attribute(Name, attrToJSON(Value));
    });
    J.attribute("macs", analysis::operatorMacs(G, Op));
  });
}

void printJSON(raw_ostream &OS, const ImportResult &R) {
  const ir::Model &M = *R.Model;
  OpCensus Census(M);
  int64_t Macs = 0, Activations = 0, Constants = 0;
  for (const ir::Graph &G : M.Graphs) {
    Macs = addFigure(Macs, analysis::graphMacs(G));
    Activations = addFigure(Activations, analysis::activationBytes(G));
    Constants = addFigure(Constants, analysis::constantBytes(G));
  }
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("model", InspectModel.getValue());
    J.attribute("schema_version", static_cast<int64_t>(M.SchemaVersion));
    J.attribute("description", M.Description);
    J.attributeObject("operator_counts", [&] {
      for (const auto &[Type, N] : Census.Counts)
        J.attribute(Type, N);
    });
    J.attributeObject("operator_versions", [&] {
      // A named reference, not a structured binding: C++17 lambdas cannot
      // capture bindings (clang rejects it).
      for (const auto &Entry : Census.Versions) {
        const std::set<int32_t> &Vs = Entry.second;
        J.attributeArray(Entry.first, [&] {
          for (int32_t V : Vs)
            J.value(V);
        });
      }
    });
    J.attribute("macs", Macs);
    J.attribute("activation_bytes", Activations);
    J.attribute("constant_bytes", Constants);
    J.attributeArray("warnings", [&] {
      for (const std::string &W : R.Warnings)
        J.value(W);
    });
    J.attributeArray("subgraphs", [&] {
      for (size_t GI = 0; GI < M.Graphs.size(); ++GI) {
        const ir::Graph &G = M.Graphs[GI];
        J.object([&] {
          J.attribute("index", static_cast<int64_t>(GI));
          J.attribute("name", G.Name);
          J.attributeArray("inputs", [&] {
            for (int32_t T : G.Inputs)
              writeTensorJSON(J, G, T);
          });
          J.attributeArray("outputs", [&] {
            for (int32_t T : G.Outputs)
              writeTensorJSON(J, G, T);
          });
          J.attribute("macs", analysis::graphMacs(G));
          J.attribute("activation_bytes", analysis::activationBytes(G));
          J.attributeArray("operators", [&] {
            for (size_t I = 0; I < G.Operators.size(); ++I)
              writeOperatorJSON(J, G, I);
          });
          J.attributeArray("tensors", [&] {
            for (size_t I = 0; I < G.Tensors.size(); ++I)
              writeTensorJSON(J, G, static_cast<int32_t>(I));
          });
        });
      }
    });
  });
  OS << "\n";
}

void printTensorLine(raw_ostream &OS, const ir::Graph &G, int32_t Index) {
  const ir::Tensor &T = G.tensor(Index);
  OS << formatv("  {0,4}  {1,-4} {2,-14} {3,-6} {4}  {5}\n", Index,
                ir::dtypeName(T.Type), ir::formatShape(T.Shape),
                T.IsConstant   ? "const"
                : T.IsVariable ? "state"
                : T.IsResource ? "handle"
                               : "act",
                quantToText(T), support::terminalText(T.Name, false));
}

void printText(raw_ostream &OS, const ImportResult &R) {
  const ir::Model &M = *R.Model;
  OpCensus Census(M);
  OS << formatv("model: {0}\n", InspectModel.getValue());
  OS << formatv("schema version {0}, {1} graph(s), description \"{2}\"\n",
                M.SchemaVersion, M.Graphs.size(),
                support::terminalText(M.Description, false));

  OS << "\noperators:\n";
  for (const auto &[Type, N] : Census.Counts) {
    std::string Versions;
    for (int32_t V : Census.Versions[Type])
      Versions += (Versions.empty() ? "v" : ", v") + std::to_string(V);
    OS << formatv("  {0,-30} x{1,-4} {2}\n", Type, N, Versions);
  }

  int64_t TotalMacs = 0, TotalAct = 0;
  for (size_t GI = 0; GI < M.Graphs.size(); ++GI) {
    const ir::Graph &G = M.Graphs[GI];
    OS << formatv("\ngraph {0} '{1}': {2} operators, {3} tensors\n", GI,
                  support::terminalText(G.Name, false), G.Operators.size(),
                  G.Tensors.size());
    OS << "inputs:\n";
    for (int32_t T : G.Inputs)
      printTensorLine(OS, G, T);
    OS << "outputs:\n";
    for (int32_t T : G.Outputs)
      printTensorLine(OS, G, T);

    OS << "operator list (index, type, version, inputs -> outputs, MACs, "
          "attributes):\n";
    for (size_t I = 0; I < G.Operators.size(); ++I) {
      const ir::Operator &Op = G.Operators[I];
      std::string Ins, Outs, Attrs;
      for (int32_t T : Op.Inputs)
        Ins += (Ins.empty() ? "" : ",") + std::to_string(T);
      for (int32_t T : Op.Outputs)
        Outs += (Outs.empty() ? "" : ",") + std::to_string(T);
      for (const auto &[Name, Value] : Op.Attrs)
        Attrs += " " + Name + "=" + ir::formatAttr(Value);
      if (Op.Opaque)
        Attrs +=
            formatv(" (not interpreted: builtin code {0})", Op.BuiltinCode);
      OS << formatv("  {0,4}  {1,-24} v{2}  {3} -> {4}  MACs {5}{6}\n", I,
                    Op.Type, Op.Version, Ins, Outs,
                    analysis::operatorMacs(G, Op), Attrs);
    }

    OS << "tensors (index, dtype, shape, kind, quantization, name):\n";
    for (size_t I = 0; I < G.Tensors.size(); ++I)
      printTensorLine(OS, G, static_cast<int32_t>(I));
    TotalMacs = addFigure(TotalMacs, analysis::graphMacs(G));
    TotalAct = addFigure(TotalAct, analysis::activationBytes(G));
  }
  OS << formatv("\nMACs: {0}\n", TotalMacs);
  OS << formatv("activation memory, one buffer per tensor: {0} bytes\n",
                TotalAct);
}

} // namespace

int runInspect() {
  Expected<ImportResult> R = importAnyModelFile(InspectModel);
  if (!R)
    return reportError(InspectModel, toString(R.takeError()));
  for (const std::string &W : R->Warnings)
    reportWarning(InspectModel, W);
  if (InspectJSON)
    printJSON(outs(), *R);
  else
    printSafely([&](raw_ostream &OS) { printText(OS, *R); });
  return 0;
}

} // namespace cli
} // namespace accelgen
