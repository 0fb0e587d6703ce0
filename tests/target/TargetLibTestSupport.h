//===- TargetLibTestSupport.h - Graphs and converters for target tests ----===//
//
// What the target library tests share besides ir::GraphBuilder: a check
// that a graph is still well formed, a field-by-field graph comparison, and
// a configurable OpSetup written the way accelgen-tblgen writes one
// (legality check, retyping conversion, quantization rules applied in order
// through applyQuantRule).
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_UNIT_TARGETLIBTESTSUPPORT_H
#define ACCELGEN_TESTS_UNIT_TARGETLIBTESTSUPPORT_H

#include "TestSupport.h"

#include "ir/GraphBuilder.h"
#include "ir/Verifier.h"
#include "target/OpSetup.h"
#include "target/QuantRules.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace test {

using ir::GraphBuilder;
using ir::perChannel;
using ir::perTensor;

/// Checks that \p G passes the verifier, printing the problems if not.
inline void checkValid(const ir::Graph &G) {
  std::vector<std::string> Problems = ir::verifyGraph(G);
  std::string All;
  for (const std::string &P : Problems)
    All += P + "\n";
  INFO(All);
  CHECK(Problems.empty());
}

/// Checks, field by field, that \p Actual equals \p Expected.
inline void checkSameGraph(const ir::Graph &Expected, const ir::Graph &Actual) {
  ir::Model E, A;
  E.Graphs.push_back(Expected);
  A.Graphs.push_back(Actual);
  checkSameModel(E, A);
}

/// The operator types of \p G in order.
inline std::vector<std::string> opTypes(const ir::Graph &G) {
  std::vector<std::string> Types;
  for (const ir::Operator &Op : G.Operators)
    Types.push_back(Op.Type);
  return Types;
}

/// One quantization rule of a FakeSetup.
struct FakeRule {
  target::QuantRelation Relation;
  target::QuantAction Action;
  target::QuantRuleParams Params;
};

/// A converter shaped like a generated one: IsSupported requires input 0 to
/// be i8 and stride_h (when present) to be at most 4, reporting both;
/// its one candidate operation is the operator retyped to the target
/// operator; SetupQuantParam applies
/// its rules in order.
class FakeSetup final : public target::OpSetup {
public:
  FakeSetup(std::string Op, std::string TargetOp,
            std::vector<FakeRule> Rules = {})
      : Op(std::move(Op)), TargetOp(std::move(TargetOp)),
        Rules(std::move(Rules)) {}

  llvm::StringRef opName() const override { return Op; }

  bool IsSupported(const ir::Graph &G, const ir::Operator &O, unsigned,
                   std::vector<target::Rejection> &Why) const override {
    size_t Before = Why.size();
    int32_t In = O.input(0);
    if (G.isValidTensor(In) && G.tensor(In).Type != ir::DType::I8)
      Why.push_back(
          {"dtype",
           "input(0).dtype = " + std::string(ir::dtypeName(G.tensor(In).Type)) +
               ", must be one of {i8}",
           ""});
    int64_t Stride = O.getInt("stride_h", 1);
    if (Stride > 4)
      Why.push_back(
          {"stride_at_most_4",
           "stride_h = " + std::to_string(Stride) + ", must be in [1, 4]",
           "legal from fake2.0"});
    return Why.size() == Before;
  }

  std::vector<ir::Operator> CandidateOperations(const ir::Graph &,
                                                const ir::Operator &O,
                                                unsigned) const override {
    ir::Operator Out = O;
    Out.Type = TargetOp;
    return {Out};
  }

  target::QuantOutcome
  SetupQuantParam(ir::Graph &G, size_t OpIndex, unsigned,
                  std::vector<target::Rejection> &Why) const override {
    target::QuantOutcome Result = target::QuantOutcome::Unchanged;
    for (const FakeRule &R : Rules)
      Result = target::combine(Result,
                               target::applyQuantRule(G, OpIndex, R.Relation,
                                                      R.Action, R.Params, Why));
    return Result;
  }

private:
  std::string Op;
  std::string TargetOp;
  std::vector<FakeRule> Rules;
};

} // namespace test
} // namespace accelgen

#endif // ACCELGEN_TESTS_UNIT_TARGETLIBTESTSUPPORT_H
