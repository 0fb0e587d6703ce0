//===- OpSetupsEmitter.cpp - OpSetups.inc
//----------------------------------===//
//
// Emits one OpSetup subclass per legal operator: IsSupported runs the
// operator's legality table, CandidateOperations lists the target operators
// of the mappings that hold, by benefit, SetupQuantParam applies its
// quantization rules. Then the cost model: a function per cost estimate and
// estimateCycles(), which picks the one in force for the operator's type and
// the version; likewise the scratch sizes and scratchBytes(). A registration
// function adds them all to the target's TargetInfo.
//
//===----------------------------------------------------------------------===//
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"
#include "model/Vocabulary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {


/// The C++ condition for versions [Since, Until]; "true" for all of them
/// (no `Version >= 0`, which compilers flag as always true).
std::string versionTest(unsigned Since, std::optional<unsigned> Until) {
  std::vector<std::string> Terms;
  if (Since > 0)
    Terms.push_back(formatv("Version >= {0}", Since).str());
  if (Until)
    Terms.push_back(formatv("Version <= {0}", *Until).str());
  return Terms.empty() ? "true" : join(Terms, " && ");
}

class OpSetupsEmitter {
public:
  explicit OpSetupsEmitter(const TargetModel &M) : M(M), Names(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-op-setups");
    std::string NS = targetNamespace(M);
    OS << formatv(R"(#ifdef GET_OPSETUP_DECL
#undef GET_OPSETUP_DECL
namespace {0} {{
/// Adds the OpSetup of every operator the target supports to \p T, and sets
/// its cost model and switch cycles.
void addOpSetups(accelgen::target::TargetInfo &T);
/// The target's TargetInfo: name, versions, every OpSetup, the cost model,
/// the fusion patterns and the device semantics (from Patterns.inc and
/// DeviceRules.inc, which must be included too).
std::unique_ptr<accelgen::target::TargetInfo> createTargetInfo();
/// The target's name and versions, oldest first.
extern const char TargetName[];
extern const char *const TargetVersions[];
extern const unsigned NumTargetVersions;
/// Estimated cycles of \p Op at version index \p Version: the description's
/// cost for the operator's type in force at that version, or std::nullopt.
std::optional<double> estimateCycles(const accelgen::ir::Graph &G,
                                     const accelgen::ir::Operator &Op,
                                     unsigned Version);
/// Scratch bytes the function running \p Op needs at version index
/// \p Version: the description's scratch size for the operator's type in
/// force at that version, or std::nullopt.
std::optional<int64_t> scratchBytes(const accelgen::ir::Graph &G,
                                    const accelgen::ir::Operator &Op,
                                    unsigned Version);
/// Estimated cycles of moving one tensor between the target and the CPU.
extern const int64_t TargetSwitchCycles;
} // namespace {0}
#endif // GET_OPSETUP_DECL

#ifdef GET_OPSETUP_IMPL
#undef GET_OPSETUP_IMPL
namespace {0} {{

const char TargetName[] = {1};
const char *const TargetVersions[] = {{{2}};
const unsigned NumTargetVersions = {3};
const int64_t TargetSwitchCycles = {4};

namespace {{

)",
                  NS, cppString(M.Name), versionList(), M.Versions.size(),
                  M.SwitchCycles);
    for (const OpLegality &L : M.Legality)
      emitClass(OS, L);
    for (const OpValues &C : M.Costs)
      for (size_t I = 0; I < C.Steps.size(); ++I)
        emitValueFunction(OS, Cost, C, I);
    for (const OpValues &S : M.Scratch)
      for (size_t I = 0; I < S.Steps.size(); ++I)
        emitValueFunction(OS, Scratch, S, I);
    OS << "} // namespace\n\n";
    emitDispatch(OS, Cost, M.Costs);
    emitDispatch(OS, Scratch, M.Scratch);
    OS << "void addOpSetups(accelgen::target::TargetInfo &T) {\n";
    for (const OpLegality &L : M.Legality)
      OS << formatv("  T.addOpSetup(std::make_unique<{0}Setup>());\n",
                    L.Op->Decl.Key);
    OS << "  T.setCostModel(estimateCycles);\n"
          "  T.setScratchModel(scratchBytes);\n"
          "  T.setSwitchCycles(TargetSwitchCycles);\n";
    if (!M.Library.empty())
      OS << formatv("  T.setLibrary({0});\n", cppString(M.Library));
    if (!M.Backend.empty())
      OS << formatv("  T.setBackend({0});\n", cppString(M.Backend));
    if (!M.CpuFallback.empty())
      OS << formatv("  T.setCpuFallback({0});\n", cppString(M.CpuFallback));
    OS << formatv(R"(}

// Defined in Patterns.inc and DeviceRules.inc.
extern const accelgen::target::PatternDesc *const Patterns;
extern const unsigned NumPatterns;
extern const accelgen::target::DeviceRulesDesc TargetDeviceRules;

std::unique_ptr<accelgen::target::TargetInfo> createTargetInfo() {{
  auto T = std::make_unique<accelgen::target::TargetInfo>(
      TargetName, std::vector<std::string>(TargetVersions,
                                           TargetVersions + NumTargetVersions));
  addOpSetups(*T);
  T->setPatterns(llvm::ArrayRef<accelgen::target::PatternDesc>(Patterns,
                                                               NumPatterns));
  T->setDeviceRules(&TargetDeviceRules);
  return T;
}

} // namespace {0}
#endif // GET_OPSETUP_IMPL
)",
                  NS);
  }

private:
  const TargetModel &M;
  CheckNames Names;

  /// What a family of value functions computes: costs or scratch sizes.
  struct ValueKind {
    const char *Prefix;   ///< Of each step's function: "cost_".
    const char *Type;     ///< Of each step's value: "double".
    const char *Dispatch; ///< The function choosing a step: "estimateCycles".
  };
  static constexpr ValueKind Cost = {"cost_", "double", "estimateCycles"};
  static constexpr ValueKind Scratch = {"scratch_", "int64_t", "scratchBytes"};

  /// The name of the function computing step \p Step of \p C.
  static std::string valueFunctionName(const ValueKind &K, const OpValues &C,
                                       size_t Step) {
    std::string Name = K.Prefix;
    for (char Ch : C.Op->Decl.Key)
      Name += isAlnum(Ch) ? Ch : '_';
    return Name + "_" + std::to_string(C.Steps[Step].Since);
  }

  void emitValueFunction(raw_ostream &OS, const ValueKind &K, const OpValues &C,
                         size_t Step) {
    const ValueStep &S = C.Steps[Step];
    std::string Label =
        formatv("{0} from {1}", C.Op->name(), M.versionLabel(S.Since));
    OS << formatv("{0} {1}(const accelgen::ir::Graph &G, "
                  "const accelgen::ir::Operator &Op) {{\n",
                  K.Type, valueFunctionName(K, C, Step));
    if (&K == &Scratch)
      constraint::emitIntValue(OS, *S.Parsed, Label);
    else
      constraint::emitValue(OS, *S.Parsed, Label);
    OS << "}\n\n";
  }

  /// The function choosing the step in force for the operator's type and
  /// the version.
  void emitDispatch(raw_ostream &OS, const ValueKind &K,
                    const std::vector<OpValues> &All) {
    std::string Head = formatv("std::optional<{0}> {1}(", K.Type, K.Dispatch);
    std::string Indent(Head.size(), ' ');
    OS << Head << "const accelgen::ir::Graph &G,\n"
       << Indent << "const accelgen::ir::Operator &Op,\n"
       << Indent << "unsigned Version) {\n";
    if (All.empty()) {
      OS << R"(  (void)G;
  (void)Op;
  (void)Version;
  return std::nullopt;
}

)";
      return;
    }
    OS << "  if (Version >= NumTargetVersions)\n    return std::nullopt;\n";
    for (const OpValues &C : All) {
      if (C.Steps.size() == 1 && C.Steps[0].Since == 0) {
        OS << formatv("  if (Op.Type == {0})\n    return {1}(G, Op);\n",
                      cppString(C.Op->name()), valueFunctionName(K, C, 0));
        continue;
      }
      OS << formatv("  if (Op.Type == {0}) {{\n", cppString(C.Op->name()));
      bool FromFirst = false;
      for (size_t I = C.Steps.size(); I-- > 0;) {
        if (C.Steps[I].Since == 0) {
          OS << formatv("    return {0}(G, Op);\n", valueFunctionName(K, C, I));
          FromFirst = true;
          break;
        }
        OS << formatv("    if (Version >= {0})\n      return {1}(G, Op);\n",
                      C.Steps[I].Since, valueFunctionName(K, C, I));
      }
      if (!FromFirst)
        OS << "    return std::nullopt;\n";
      OS << "  }\n";
    }
    OS << "  return std::nullopt;\n}\n\n";
  }

  std::string versionList() const {
    std::string S;
    for (const VersionDef &V : M.Versions)
      S += (S.empty() ? "" : ", ") + cppString(V.Name);
    return S;
  }

  void emitClass(raw_ostream &OS, const OpLegality &L) {
    const OpDef &Op = *L.Op;
    OS << formatv(R"(/// {1}: legality, mappings and quantization rules.
class {0}Setup final : public accelgen::target::OpSetup {{
public:
  llvm::StringRef opName() const override {{ return {2}; }

  bool IsSupported(const accelgen::ir::Graph &G,
                   const accelgen::ir::Operator &Op, unsigned Version,
                   std::vector<accelgen::target::Rejection> &Why) const override {{
    return accelgen::target::evaluateLegality(
        G, Op, {0}_legality, Version,
        TargetName + std::string(TargetVersions[Version]), Why);
  }

  std::vector<accelgen::ir::Operator>
  CandidateOperations(const accelgen::ir::Graph &G,
                      const accelgen::ir::Operator &Op,
                      unsigned Version) const override {{
    std::vector<accelgen::ir::Operator> Result;
)",
                  Op.Decl.Key, Op.name(), cppString(Op.name()));
    bool UsesG = false, UsesOp = false;
    for (const MappingDef &Map : M.Mappings) {
      if (Map.From != &Op)
        continue;
      UsesOp = true;
      std::vector<std::string> Terms;
      if (Map.Since > 0)
        Terms.push_back(versionTest(Map.Since, std::nullopt));
      for (const ConstraintDef *C : Map.Constraints) {
        Terms.push_back(formatv("{0}(G, Op, Ignored)", Names(*C)).str());
        UsesG = true;
      }
      std::string Cond = Terms.empty() ? "true" : join(Terms, " && ");
      std::string Set;
      for (const auto &[Name, Value] : Map.SetAttrs)
        Set += formatv("{{{0}, {1}}, ", cppString(Name), cppString(Value)).str();
      OS << formatv(R"(    {{
      std::string Ignored;
      if ({0})
        Result.push_back(accelgen::target::mapOperator(Op, {1}, {{{2}}));
    }
)",
                    Cond, cppString(Map.To->name()),
                    StringRef(Set).drop_back(Set.empty() ? 0 : 2));
    }
    if (!UsesG)
      OS << "    (void)G;\n";
    if (!UsesOp)
      OS << "    (void)Op;\n";
    OS << R"(    (void)Version;
    return Result;
  }

  accelgen::target::QuantOutcome
  SetupQuantParam(accelgen::ir::Graph &G, size_t OpIndex, unsigned Version,
                  std::vector<accelgen::target::Rejection> &Why) const override {
    accelgen::target::QuantOutcome Result =
        accelgen::target::QuantOutcome::Unchanged;
)";
    for (const QuantRuleDef &Q : M.QuantRules) {
      if (Q.Op != &Op)
        continue;
      OS << formatv(R"(    if ({0}) {{
      accelgen::target::QuantRuleParams P;
      P.Scale = {1};
      P.ZeroPoint = {2};
      P.Check = {3};
      P.CheckId = {4};
      Result = accelgen::target::combine(
          Result, accelgen::target::applyQuantRule(
                      G, OpIndex, accelgen::target::QuantRelation::{5},
                      accelgen::target::QuantAction::{6}, P, Why));
    }
)",
                    versionTest(Q.Since, Q.Until),
                    Q.ScaleText.empty() ? "0.0" : Q.ScaleText, Q.ZeroPoint,
                    Q.Check ? Names(*Q.Check) : "nullptr",
                    cppString(Q.Check ? Q.Check->id() : ""),
                    enumeratorName(Q.Relation), enumeratorName(Q.OnFail));
    }
    OS << R"(    (void)G;
    (void)OpIndex;
    (void)Version;
    (void)Why;
    return Result;
  }
};

)";
  }
};

} // namespace

void emitOpSetups(const TargetModel &M, raw_ostream &OS) {
  OpSetupsEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
