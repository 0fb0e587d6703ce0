//===- ModelDumper.cpp - A readable dump of a target model
//-----------------===//
//
// Prints the validated model in a plain, stable text form: what the
// generator understood from a description. Used to debug descriptions and
// to compare the `.td` and `.yaml` forms of one target.
//
//===----------------------------------------------------------------------===//
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {
std::string constraintText(const ConstraintDef &C) {
  return formatv("{0} [{1}] \"{2}\"{3}", C.id(),
                 C.Parsed ? C.Decl.Expr : "C++ " + C.Decl.CppFunction,
                 C.Decl.Summary,
                 C.Decl.Hint.empty() ? "" : " hint \"" + C.Decl.Hint + "\"")
      .str();
}
} // namespace

void dumpModel(const TargetModel &M, raw_ostream &OS) {
  OS << formatv("target {0}: {1}\n", M.Name, M.Description);
  for (unsigned V = 0; V < M.Versions.size(); ++V)
    OS << formatv("version {0} {1}\n", V, M.versionLabel(V));
  OS << formatv("switch cycles {0}\n", M.SwitchCycles);
  for (const auto &Op : M.Ops)
    if (Op->isTargetOp())
      OS << formatv("target op {0} ({1}), {2} operands, {3} attributes\n",
                    Op->Decl.Key, Op->name(), Op->Decl.Operands.size(),
                    Op->Decl.Attrs.size());
  for (const OpLegality &L : M.Legality)
    for (unsigned V = 0; V < M.Versions.size(); ++V) {
      if (!L.PerVersion[V]) {
        OS << formatv("legal {0} @{1}: no\n", L.Op->name(), M.versionLabel(V));
        continue;
      }
      const LegalAt &At = *L.PerVersion[V];
      OS << formatv("legal {0} @{1}: types {2}; schemes {3}\n", L.Op->name(),
                    M.versionLabel(V), join(At.Types, ","),
                    join(At.WeightSchemes, ","));
      for (const ConstraintDef *C : At.Constraints)
        OS << "  " << constraintText(*C) << "\n";
    }
  for (const MappingDef &Map : M.Mappings) {
    OS << formatv("mapping {0} -> {1} from {2} benefit {3}\n", Map.From->name(),
                  Map.To->name(), M.versionLabel(Map.Since), Map.Benefit);
    for (const ConstraintDef *C : Map.Constraints)
      OS << "  " << constraintText(*C) << "\n";
    for (const auto &[N, V] : Map.SetAttrs)
      OS << formatv("  set {0}={1}\n", N, V);
  }
  for (const QuantRuleDef &Q : M.QuantRules) {
    OS << formatv("quant {0} {1} else {2} from {3}{4}", Q.Op->name(),
                  Q.Relation, Q.OnFail, M.versionLabel(Q.Since),
                  Q.Until ? " until " + M.versionLabel(*Q.Until) : "");
    if (Q.Relation == "fixed_output")
      OS << formatv(" scale {0} zero point {1}", Q.ScaleText, Q.ZeroPoint);
    OS << "\n";
    if (Q.Check)
      OS << "  " << constraintText(*Q.Check) << "\n";
  }
  for (const auto &Set : M.OpSets) {
    OS << formatv("opset {0} ({1}):", Set->name(), Set->Decl.Key);
    for (size_t I = 0; I < Set->Members.size(); ++I)
      OS << " " << Set->Members[I]->name()
         << (Set->Results.empty() ? "" : "->" + Set->Results[I]->name());
    OS << "\n";
  }
  for (const PatternDef &P : M.Patterns) {
    OS << formatv("pattern {0} from {1} benefit {2} -> {3}{4}(", P.Name,
                  M.versionLabel(P.Since), P.Benefit, P.resultName(),
                  P.Result ? "" : ":node" + std::to_string(P.ResultNode));
    for (int A : P.ResultArgs)
      OS << "$" << P.Values[A] << (A == P.ResultArgs.back() ? "" : ",");
    OS << ")\n";
    for (unsigned N = 0; N < P.Nodes.size(); ++N) {
      OS << formatv("  node {0} {1}:{2}", N, P.Nodes[N].name(),
                    P.Nodes[N].Capture);
      for (const PatternNodeDef::Arg &A : P.Nodes[N].Args)
        OS << (A.Node >= 0    ? formatv(" node{0}", A.Node).str()
               : A.Value >= 0 ? " $" + P.Values[A.Value]
                              : std::string(" _"));
      OS << "\n";
    }
    for (const ConstraintDef *C : P.Constraints)
      OS << "  " << constraintText(*C) << "\n";
  }
  for (const OpValues &C : M.Costs)
    for (const ValueStep &Step : C.Steps)
      OS << formatv("cost {0} from {1}: {2} ({3})\n", C.Op->name(),
                    M.versionLabel(Step.Since), Step.Text,
                    constraint::typeName(Step.Parsed->type()));
  for (const OpValues &S : M.Scratch)
    for (const ValueStep &Step : S.Steps)
      OS << formatv("scratch {0} from {1}: {2}\n", S.Op->name(),
                    M.versionLabel(Step.Since), Step.Text);
  OS << formatv("backend {0}\n", M.Backend.empty() ? "none" : M.Backend);
  OS << formatv("cpu fallback {0}\n",
                M.CpuFallback.empty() ? "none" : M.CpuFallback);
  OS << formatv("functional model {0}\n", M.FunctionalModel ? "yes" : "no");
  for (const LayoutDef &L : M.Layouts)
    OS << formatv("layout {0} ({1}): at most {2} channels, padded to {3} "
                  "elements and {4} bytes\n",
                  L.Key, L.Name, L.MaxChannels, L.ChannelPixels,
                  L.ChannelBytes);
  auto Names = [&](const std::vector<unsigned> &Layouts) {
    std::vector<std::string> Out;
    for (unsigned I : Layouts)
      Out.push_back(M.Layouts[I].Name);
    return join(Out, ",");
  };
  for (unsigned V = 0; V < M.Device.size(); ++V) {
    const DeviceAt &At = M.Device[V];
    OS << formatv("device @{0}: layouts {1}; keeps fused {2}\n",
                  M.versionLabel(V), Names(At.Layouts), At.KeepsFused);
    for (const DeviceAt::OpRule &R : At.Ops)
      OS << formatv("  {0}: layouts {1}; keeps fused {2}\n", R.Op->name(),
                    Names(R.Layouts), R.KeepsFused);
    for (const DeviceAt::Storage &S : At.Conversions)
      OS << formatv("  stores {0} {1} as {2}\n", S.Type, S.Scheme, S.StoredAs);
  }
}

} // namespace gen
} // namespace accelgen
