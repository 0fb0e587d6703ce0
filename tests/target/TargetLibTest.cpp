//===- TargetLibTest.cpp - TargetInfo and the target registry -------------===//
//
// Two small targets are registered the way generated code registers them: one
// named "tlib" with versions 1.0 and 2.0, and one whose name extends it,
// "tlib-x", to show that resolving a label takes the longest registered name.
// The other tests of the target library live next to this file.
//
//===----------------------------------------------------------------------===//
#include "TargetLibTestSupport.h"

#include "target/TargetInfo.h"

using namespace accelgen;
using namespace accelgen::target;
using test::FakeSetup;

namespace {

std::unique_ptr<TargetInfo> makeTlib() {
  auto T = std::make_unique<TargetInfo>("tlib",
                                        std::vector<std::string>{"1.0", "2.0"});
  T->addOpSetup(std::make_unique<FakeSetup>("RELU", "TLIB_RELU"));
  T->addOpSetup(std::make_unique<FakeSetup>("CONV_2D", "TLIB_CONV_2D"));
  return T;
}

std::unique_ptr<TargetInfo> makeTlibX() {
  return std::make_unique<TargetInfo>("tlib-x",
                                      std::vector<std::string>{"1.0"});
}

const bool Registered = [] {
  TargetRegistry::add("tlib", makeTlib);
  TargetRegistry::add("tlib-x", makeTlibX);
  return true;
}();

} // namespace

TEST_CASE("TargetInfo finds versions by label or by version text") {
  TargetInfo T("demo", {"1.0", "2.0", "3.0"});
  CHECK(T.findVersion("demo2.0") == 1u);
  CHECK(T.findVersion("3.0") == 2u);
  CHECK(T.versionLabel(0) == "demo1.0");
  CHECK_FALSE(T.findVersion("demo2").has_value());
  CHECK_FALSE(T.findVersion("demo").has_value());
  CHECK_FALSE(T.findVersion("demo4.0").has_value());
  CHECK_FALSE(T.findVersion("").has_value());
}

TEST_CASE("TargetInfo keeps one converter per operator, names sorted") {
  std::unique_ptr<TargetInfo> T = makeTlib();
  REQUIRE(T->opSetup("RELU") != nullptr);
  CHECK(T->opSetup("RELU")->opName() == "RELU");
  CHECK(T->opSetup("SQRT") == nullptr);
  CHECK(T->opNames() == std::vector<std::string>{"CONV_2D", "RELU"});
  CHECK(T->patterns().empty());
}

TEST_CASE("registry resolves a target name followed by a version") {
  REQUIRE(Registered);
  auto R = TargetRegistry::resolve("tlib1.0");
  REQUIRE(R.has_value());
  CHECK(R->first->name() == "tlib");
  CHECK(R->second == 0u);

  R = TargetRegistry::resolve("tlib2.0");
  REQUIRE(R.has_value());
  CHECK(R->second == 1u);
}

TEST_CASE("registry resolves a bare name to the newest version") {
  auto R = TargetRegistry::resolve("tlib");
  REQUIRE(R.has_value());
  CHECK(R->first->name() == "tlib");
  CHECK(R->second == 1u);
}

TEST_CASE("registry prefers the longest matching target name") {
  auto R = TargetRegistry::resolve("tlib-x1.0");
  REQUIRE(R.has_value());
  CHECK(R->first->name() == "tlib-x");
  CHECK(R->second == 0u);
  R = TargetRegistry::resolve("tlib-x");
  REQUIRE(R.has_value());
  CHECK(R->first->name() == "tlib-x");
}

TEST_CASE("registry gives nothing for unknown names and versions") {
  CHECK_FALSE(TargetRegistry::resolve("nope").has_value());
  CHECK_FALSE(TargetRegistry::resolve("nope1.0").has_value());
  CHECK_FALSE(TargetRegistry::resolve("tlib3.0").has_value());
  CHECK_FALSE(TargetRegistry::resolve("tlib2").has_value());
  CHECK_FALSE(TargetRegistry::resolve("").has_value());
  CHECK(TargetRegistry::get("nope") == nullptr);
}

TEST_CASE("registry builds each target once and lists names and labels") {
  const TargetInfo *A = TargetRegistry::get("tlib");
  REQUIRE(A != nullptr);
  CHECK(A == TargetRegistry::get("tlib"));
  CHECK(A == TargetRegistry::resolve("tlib1.0")->first);
  CHECK(A->opSetup("CONV_2D") != nullptr);

  std::vector<std::string> Names = TargetRegistry::names();
  CHECK(std::is_sorted(Names.begin(), Names.end()));
  CHECK(llvm::is_contained(Names, "tlib"));
  CHECK(llvm::is_contained(Names, "tlib-x"));

  std::vector<std::string> Labels = TargetRegistry::labels();
  auto At = [&](llvm::StringRef L) {
    return llvm::find(Labels, L) - Labels.begin();
  };
  REQUIRE(llvm::is_contained(Labels, "tlib1.0"));
  REQUIRE(llvm::is_contained(Labels, "tlib2.0"));
  REQUIRE(llvm::is_contained(Labels, "tlib-x1.0"));
  CHECK(At("tlib1.0") + 1 == At("tlib2.0"));
}

TEST_CASE("combine keeps the strongest quantization outcome") {
  using Q = QuantOutcome;
  CHECK(combine(Q::Unchanged, Q::Unchanged) == Q::Unchanged);
  CHECK(combine(Q::Unchanged, Q::UpdatedParams) == Q::UpdatedParams);
  CHECK(combine(Q::InsertedRequantize, Q::UpdatedParams) ==
        Q::InsertedRequantize);
  CHECK(combine(Q::Rejected, Q::InsertedRequantize) == Q::Rejected);
  CHECK(combine(Q::InsertedRequantize, Q::Rejected) == Q::Rejected);
  CHECK(relationName(QuantRelation::BiasScaleProduct) == "bias_scale_product");
  CHECK(actionName(QuantAction::InsertRequantizeAfter) ==
        "insert_requantize_after");
}

//===----------------------------------------------------------------------===//
// The choice among the target operators a framework operator's mappings allow
//===----------------------------------------------------------------------===//

namespace {

/// A converter whose mappings all hold: one candidate per name, in order.
class CandidatesSetup final : public OpSetup {
public:
  explicit CandidatesSetup(std::vector<std::string> Types)
      : Types(std::move(Types)) {}
  llvm::StringRef opName() const override { return "CONV_2D"; }
  bool IsSupported(const ir::Graph &, const ir::Operator &, unsigned,
                   std::vector<Rejection> &) const override {
    return true;
  }
  std::vector<ir::Operator> CandidateOperations(const ir::Graph &,
                                                const ir::Operator &Op,
                                                unsigned) const override {
    std::vector<ir::Operator> Out;
    for (const std::string &T : Types) {
      Out.push_back(Op);
      Out.back().Type = T;
    }
    return Out;
  }
  QuantOutcome SetupQuantParam(ir::Graph &, size_t, unsigned,
                               std::vector<Rejection> &) const override {
    return QuantOutcome::Unchanged;
  }

private:
  std::vector<std::string> Types;
};

/// The estimates the cost model below gives, by target operator type; at
/// version 1 each costs 10 more.
std::map<std::string, double> StatedCycles;
std::optional<double> statedCycles(const ir::Graph &, const ir::Operator &Op,
                                   unsigned Version) {
  auto It = StatedCycles.find(Op.Type);
  if (It == StatedCycles.end())
    return std::nullopt;
  return It->second + 10.0 * Version;
}

/// Target "choice" whose CONV_2D may become A, B, C (or A again, from an
/// older mapping of lower benefit), costed by StatedCycles.
std::unique_ptr<TargetInfo> choiceTarget(std::vector<std::string> Types) {
  auto T = std::make_unique<TargetInfo>("choice",
                                        std::vector<std::string>{"1", "2"});
  T->addOpSetup(std::make_unique<CandidatesSetup>(std::move(Types)));
  T->setCostModel(statedCycles);
  return T;
}

} // namespace

TEST_CASE("chooseOperation takes the cheapest candidate when each is costed") {
  ir::Graph G;
  ir::Operator Conv;
  Conv.Type = "CONV_2D";
  Conv.Inputs = {0, 1};
  Conv.Outputs = {2};
  std::unique_ptr<TargetInfo> T = choiceTarget({"A", "B", "C", "A"});

  SUBCASE("the cheapest, whatever its benefit") {
    StatedCycles = {{"A", 300}, {"B", 100}, {"C", 200}};
    OperationChoice C = T->chooseOperation(G, Conv, 0);
    CHECK(C.ByCost);
    CHECK(C.Chosen.Type == "B");
    CHECK(C.Index == 1);
    CHECK(C.Chosen.Inputs == Conv.Inputs);
    CHECK(C.Chosen.Outputs == Conv.Outputs);
    // A's second mapping adds no candidate; each carries its estimate at
    // the version.
    REQUIRE(C.Candidates.size() == 3);
    CHECK(C.Candidates[0].Type == "A");
    CHECK(*C.Candidates[0].Cycles == 300);
    CHECK(C.Candidates[2].Type == "C");
    CHECK(*C.Candidates[2].Cycles == 200);
    CHECK(*T->chooseOperation(G, Conv, 1).Candidates[1].Cycles == 110);
    // CreateOperation still gives the mapping of highest benefit.
    CHECK(T->opSetup("CONV_2D")->CreateOperation(G, Conv, 0).Type == "A");
  }
  SUBCASE("of equal estimates, the mapping of higher benefit") {
    StatedCycles = {{"A", 200}, {"B", 100}, {"C", 100}};
    CHECK(T->chooseOperation(G, Conv, 0).Chosen.Type == "B");
    StatedCycles = {{"A", 100}, {"B", 100}, {"C", 100}};
    CHECK(T->chooseOperation(G, Conv, 0).Chosen.Type == "A");
  }
  SUBCASE("a candidate without a stated cost leaves the choice to benefit") {
    StatedCycles = {{"A", 300}, {"B", 100}};
    OperationChoice C = T->chooseOperation(G, Conv, 0);
    CHECK_FALSE(C.ByCost);
    CHECK(C.Chosen.Type == "A");
    REQUIRE(C.Candidates.size() == 3);
    CHECK_FALSE(C.Candidates[2].Cycles.has_value());
  }
  SUBCASE("one candidate is chosen without comparing") {
    StatedCycles = {{"C", 1}};
    std::unique_ptr<TargetInfo> One = choiceTarget({"C"});
    OperationChoice C = One->chooseOperation(G, Conv, 0);
    CHECK(C.Chosen.Type == "C");
    CHECK_FALSE(C.ByCost);
  }
  SUBCASE("no mapping, or no converter, keeps the operator") {
    std::unique_ptr<TargetInfo> None = choiceTarget({});
    OperationChoice C = None->chooseOperation(G, Conv, 0);
    CHECK(C.Chosen.Type == "CONV_2D");
    CHECK(C.Candidates.empty());
    ir::Operator Relu = Conv;
    Relu.Type = "RELU";
    CHECK(T->chooseOperation(G, Relu, 0).Chosen.Type == "RELU");
  }
}
