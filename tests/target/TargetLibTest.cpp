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
