//===- TargetModel.h - The typed, validated model of a target
//--------------===//
//
// What every emitter reads: a target with its ordered versions, the operators
// it refers to, and its rules with every name resolved, every constraint
// parsed and type-checked, and legality resolved per version (a later Legal
// overriding an earlier one by constraint id). buildTargetModel() is the one
// place that validates a description; emitters trust what they get.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_MODEL_TARGETMODEL_H
#define ACCELGEN_GEN_MODEL_TARGETMODEL_H

#include "model/Description.h"
#include "model/Diagnostics.h"

#include "constraint/Constraint.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace gen {

struct OpDef {
  OpDecl Decl;
  bool isTargetOp() const { return !Decl.Target.empty(); }
  const std::string &name() const { return Decl.Name; }
  /// The constraint-language scope of this operator's attributes/operands.
  constraint::Scope scope() const;
};

struct VersionDef {
  std::string Name;            ///< "2.0"
  std::vector<unsigned> Parts; ///< {2, 0}
};

/// A parsed constraint; shared by every rule that uses the same id.
struct ConstraintDef {
  ConstraintDecl Decl;
  /// The parsed expression; null for a C++-function constraint.
  std::shared_ptr<const constraint::Expr> Parsed;
  const std::string &id() const { return Decl.Id; }
  /// A C++ identifier derived from the id, unique within the target.
  std::string cppName() const;
};

/// Legality of one operator at one version.
struct LegalAt {
  std::vector<std::string> Types;
  std::vector<std::string> WeightSchemes;
  /// Constraints in the order they were first declared.
  std::vector<const ConstraintDef *> Constraints;
};

/// Legality of one operator across the target's versions.
struct OpLegality {
  const OpDef *Op = nullptr;
  /// One entry per version; nullopt where the operator is not legal.
  std::vector<std::optional<LegalAt>> PerVersion;
  /// The first version the operator is legal at.
  std::optional<unsigned> firstVersion() const;
};

struct MappingDef {
  const OpDef *From = nullptr;
  const OpDef *To = nullptr;
  unsigned Since = 0;
  std::vector<const ConstraintDef *> Constraints;
  int64_t Benefit = 1;
  std::vector<std::pair<std::string, std::string>> SetAttrs;
  Loc At;
};

struct QuantRuleDef {
  const OpDef *Op = nullptr;
  unsigned Since = 0;
  std::optional<unsigned> Until;
  std::string Relation;
  std::string OnFail;
  const ConstraintDef *Check = nullptr;
  double Scale = 0;
  std::string ScaleText;
  int64_t ZeroPoint = 0;
};

/// A named set of operators one pattern node can match. Its members declare
/// the same operands (count, names, optionality), so a pattern's operands
/// mean the same whichever member matches.
struct OpSetDef {
  OpSetDecl Decl;
  std::vector<const OpDef *> Members; ///< In declaration order.
  /// Per member, the operator it becomes in a result naming the set; empty
  /// when the set has no results.
  std::vector<const OpDef *> Results;
  const std::string &name() const { return Decl.Name; }
  /// The scope of a capture of the set: the members' common operands and
  /// results, and the attributes every member has with the same kind.
  constraint::Scope scope() const;
};

/// A source node: one operator, or any member of an operator set.
struct PatternNodeDef {
  const OpDef *Op = nullptr;     ///< Null when the node matches a set.
  const OpSetDef *Set = nullptr; ///< Null when the node matches one operator.
  /// The operator or set name ("CONV_2D", "ACT1").
  const std::string &name() const { return Set ? Set->name() : Op->name(); }
  std::string Capture;
  /// Operands: a node index, or a value-capture index (see PatternDef).
  struct Arg {
    int Node = -1;
    int Value = -1; ///< Index into PatternDef::Values; -1: anything.
  };
  std::vector<Arg> Args;
};

struct PatternDef {
  std::string Name;
  unsigned Since = 0;
  std::vector<PatternNodeDef> Nodes; ///< Nodes[0] is the root.
  std::vector<std::string> Values;   ///< Value capture names, first-use order.
  /// The result operator; null when the result names an operator set.
  const OpDef *Result = nullptr;
  /// A result naming a set: the set, and the node whose matched operator
  /// (always a member of the set) picks the set's result; -1 otherwise.
  const OpSetDef *ResultSet = nullptr;
  int ResultNode = -1;
  std::vector<int> ResultArgs; ///< Indices into Values.
  /// The result operator's name, or the set's ("CONV"), as written.
  const std::string &resultName() const {
    return Result ? Result->name() : ResultSet->name();
  }
  /// The result for docs: the operator's name, or "CONV of $conv".
  std::string resultLabel() const {
    return Result ? Result->name()
                  : ResultSet->name() + " of $" + Nodes[ResultNode].Capture;
  }
  std::vector<const ConstraintDef *> Constraints;
  int64_t Benefit = 1;
};

/// A value of an operator (its estimated cycles, its scratch bytes) from
/// version Since on, until the next step of the same operator.
struct ValueStep {
  const OpDef *Op = nullptr;
  unsigned Since = 0;
  /// The expression as written, and parsed (int or float for a cost, int for
  /// a scratch size).
  std::string Text;
  std::shared_ptr<const constraint::Expr> Parsed;
};

/// The costs (or scratch sizes) of one operator, by ascending version.
struct OpValues {
  const OpDef *Op = nullptr;
  std::vector<ValueStep> Steps;
  /// The step in force at version \p V, or null.
  const ValueStep *at(unsigned V) const;
  /// The last version \p Step is in force at, given \p NumVersions.
  unsigned until(size_t Step, unsigned NumVersions) const;
};

/// The names of the quantization schemes (defs/accelgen.td).
extern const char *const QuantSchemeNames[4];

/// A layout of 4-D activations in the device's memory.
struct LayoutDef {
  std::string Key;
  std::string Name; ///< "NHWC", "4C" or "16C".
  int64_t MaxChannels = 0;
  int64_t ChannelPixels = 0;
  int64_t ChannelBytes = 0;
};

/// What one version of the device computes and stores differently, every
/// rule resolved (DeviceModel.cpp).
struct DeviceAt {
  /// Layouts (indices into TargetModel::Layouts, ascending) of operators
  /// without a layout rule of their own; empty when none is declared.
  std::vector<unsigned> Layouts;
  /// Whether fused intermediates of such operators stay in the device.
  bool KeepsFused = false;
  /// An operator named by a rule, with what is in force for it.
  struct OpRule {
    const OpDef *Op = nullptr;
    std::vector<unsigned> Layouts;
    bool KeepsFused = false;
  };
  /// Sorted by operator name.
  std::vector<OpRule> Ops;
  /// A type stored as another; only actual conversions.
  struct Storage {
    std::string Type;
    std::string Scheme;
    std::string StoredAs;
  };
  /// Sorted by type, then scheme.
  std::vector<Storage> Conversions;
};

/// A validated target.
struct TargetModel {
  std::string Name;
  std::string Description;
  /// The library of a library-call target ("CMSIS-NN"); empty otherwise.
  std::string Library;
  std::vector<VersionDef> Versions;
  /// Every operator the description can refer to, by key, in a stable order.
  std::vector<std::unique_ptr<OpDef>> Ops;
  std::vector<std::unique_ptr<ConstraintDef>> Constraints;
  /// Operators with any Legal, in declaration order of their first Legal.
  std::vector<OpLegality> Legality;
  std::vector<MappingDef> Mappings;
  std::vector<QuantRuleDef> QuantRules;
  /// Operator sets, in declaration order.
  std::vector<std::unique_ptr<OpSetDef>> OpSets;
  std::vector<PatternDef> Patterns; ///< By descending benefit, then name.
  /// Operators with any cost, in declaration order of their first cost.
  std::vector<OpValues> Costs;
  /// Operators whose function needs scratch memory (library-call targets),
  /// in declaration order of their first size.
  std::vector<OpValues> Scratch;
  /// Cycles of moving one tensor between the accelerator and the CPU.
  int64_t SwitchCycles = 0;
  /// The backend that compiles the target's operators; empty for none.
  std::string Backend;
  /// Programs run on the functional model (the backend is its).
  bool FunctionalModel = false;
  /// The target taking the operators this one does not run; empty for a
  /// target running every operator on the host CPU itself.
  std::string CpuFallback;
  /// Layouts of activations in the device's memory, by preference.
  std::vector<LayoutDef> Layouts;
  /// The device semantics of each version.
  std::vector<DeviceAt> Device;

  const OpDef *findOp(const std::string &KeyOrName) const;
  const OpSetDef *findOpSet(const std::string &KeyOrName) const;
  /// "demo1.0": the target name followed by a version name.
  std::string versionLabel(unsigned V) const { return Name + Versions[V].Name; }
};

/// Validates the device semantics of \p D into \p M (Layouts, Device),
/// given the model's operators and versions; \p Version and \p Op resolve a
/// name or report it as the rest of the model does.
void buildDeviceModel(
    const TargetDecl &D, TargetModel &M, Diagnostics &Diags,
    const std::function<std::optional<unsigned>(const std::string &,
                                                const Loc &)> &Version,
    const std::function<const OpDef *(const std::string &, const Loc &)> &Op);

/// Validates \p D and builds its model; reports every problem through \p Diags
/// and returns nullptr if there was any.
std::unique_ptr<TargetModel> buildTargetModel(const TargetDecl &D,
                                              Diagnostics &Diags);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_MODEL_TARGETMODEL_H
