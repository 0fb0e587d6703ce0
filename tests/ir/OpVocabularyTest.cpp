//===- OpVocabularyTest.cpp - The generated operator vocabulary -----------===//
//
// ir::OpCode, opName/opCodeOf, the importer's builtin-code table and the
// ir::attr constants, all generated from defs/ by -gen-op-vocabulary, checked
// against sources that do not go through the generator: the builtin names the
// importer knew before (TFLiteBuiltinNames.inc) and the records LLVM's own
// llvm-tblgen reads from defs/ops.td.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/BuiltinOps.h"
#include "ir/Graph.h"
#include "ir/OpCode.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

#include <iterator>
#include <set>
#include <string>

using namespace accelgen;

namespace {

/// The importer's names by code before the table was generated.
const char *const OldBuiltinNames[] = {
#include "TFLiteBuiltinNames.inc"
};

/// The code OldBuiltinNames gives \p Name, or -1.
int32_t oldCode(llvm::StringRef Name) {
  for (size_t I = 0; I < std::size(OldBuiltinNames); ++I)
    if (Name == OldBuiltinNames[I])
      return static_cast<int32_t>(I);
  return -1;
}

/// The records of defs/ops.td as LLVM's own llvm-tblgen dumps them (JSON).
class OpsTd {
public:
  OpsTd() {
    test::RunResult R = test::runProgram(
        ACCELGEN_LLVM_TBLGEN, {"--dump-json", "-I", ACCELGEN_SOURCE_DIR "/defs",
                               ACCELGEN_SOURCE_DIR "/defs/ops.td"});
    INFO(R.ErrorMessage << R.Stderr);
    REQUIRE(R.ExitCode == 0);
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Stdout);
    REQUIRE(static_cast<bool>(V));
    Json = std::move(*V);
  }

  /// The named records derived from \p Class.
  std::vector<const llvm::json::Object *> records(llvm::StringRef Class) const {
    std::vector<const llvm::json::Object *> Out;
    const llvm::json::Object *Root = Json.getAsObject();
    const llvm::json::Array *Names =
        Root->getObject("!instanceof")->getArray(Class);
    for (const llvm::json::Value &N : *Names)
      Out.push_back(Root->getObject(*N.getAsString()));
    return Out;
  }
  /// Canonical operators: Op records that are not target operators.
  std::vector<const llvm::json::Object *> ops() const {
    std::vector<const llvm::json::Object *> Out;
    for (const llvm::json::Object *R : records("Op")) {
      const llvm::json::Array *Supers = R->getArray("!superclasses");
      if (llvm::none_of(*Supers, [](const llvm::json::Value &S) {
            return S.getAsString() == llvm::StringRef("TargetOp");
          }))
        Out.push_back(R);
    }
    return Out;
  }

private:
  llvm::json::Value Json = nullptr;
};

/// A string field of a record.
std::string field(const llvm::json::Object &R, llvm::StringRef Name) {
  return R.getString(Name).getValueOr("").str();
}

/// Every enumerator of ir::OpCode but Unknown, by value.
std::vector<ir::OpCode> allOpCodes() {
  return {
#define ACCELGEN_OP(Enumerator, Name, BuiltinCode) ir::OpCode::Enumerator,
#include "ir/OpVocabulary.inc"
  };
}

} // namespace

TEST_CASE("every builtin code and name the importer knew round-trips") {
  REQUIRE(std::size(OldBuiltinNames) > 200);
  int Named = 0;
  for (size_t I = 0; I < std::size(OldBuiltinNames); ++I) {
    auto Code = static_cast<int32_t>(I);
    llvm::StringRef Name = OldBuiltinNames[I];
    INFO("code " << Code << " '" << Name.str() << "'");
    if (Name.empty()) {
      CHECK(tflite::builtinOperatorName(Code) ==
            "BUILTIN_" + std::to_string(I));
      continue;
    }
    ++Named;
    CHECK(tflite::builtinOperatorName(Code) == Name);
    CHECK(tflite::builtinOperatorCode(Name) == Code);
  }
  CHECK(Named == 207);
  // Beyond the table, and names that are no builtin.
  int32_t Past = static_cast<int32_t>(std::size(OldBuiltinNames));
  CHECK(tflite::builtinOperatorName(Past) == "BUILTIN_" + std::to_string(Past));
  CHECK(tflite::builtinOperatorName(-1) == "BUILTIN_-1");
  CHECK(tflite::builtinOperatorCode("") == -1);
  CHECK(tflite::builtinOperatorCode("REQUANTIZE") == -1);
  CHECK(tflite::builtinOperatorCode("MDLA_CONV_2D") == -1);
  // The enumeration of builtin codes agrees too.
  CHECK(static_cast<int32_t>(tflite::Builtin::CUSTOM) == oldCode("CUSTOM"));
  CHECK(static_cast<int32_t>(tflite::Builtin::CONV_2D) == oldCode("CONV_2D"));
  CHECK(static_cast<int32_t>(tflite::Builtin::STABLEHLO_CASE) ==
        oldCode("STABLEHLO_CASE"));
}

TEST_CASE("every Op of defs/ops.td has an enumerator, a name and its code") {
  OpsTd Td;
  std::vector<const llvm::json::Object *> Ops = Td.ops();
  REQUIRE(Ops.size() > 50);
  std::set<ir::OpCode> Seen;
  for (const llvm::json::Object *R : Ops) {
    std::string Name = field(*R, "Name");
    INFO(field(*R, "!name") << " '" << Name << "'");
    ir::OpCode Code = ir::opCodeOf(Name);
    CHECK(Code != ir::OpCode::Unknown);
    CHECK(ir::opName(Code) == Name);
    Seen.insert(Code);
    // Its builtin code is the one the importer knew for its name; REQUANTIZE
    // is accelgen's own.
    int32_t Expected =
        R->getInteger("IsBuiltin").getValueOr(0) == 1 ? oldCode(Name) : -1;
    CHECK(tflite::builtinCodeOf(Code) == Expected);
    if (Expected >= 0)
      CHECK(tflite::builtinOpCode(Expected) == Code);
  }
  // One enumerator per record: no more, and all distinct.
  CHECK(Seen.size() == Ops.size());
  CHECK(allOpCodes().size() == Ops.size());
  CHECK(tflite::builtinCodeOf(ir::OpCode::Requantize) == -1);
  CHECK(ir::opName(ir::OpCode::Requantize) == "REQUANTIZE");
}

TEST_CASE("the enumerators other code is written against") {
  CHECK(ir::opName(ir::OpCode::Conv2D) == "CONV_2D");
  CHECK(ir::opName(ir::OpCode::DepthwiseConv2D) == "DEPTHWISE_CONV_2D");
  CHECK(ir::opName(ir::OpCode::FullyConnected) == "FULLY_CONNECTED");
  CHECK(ir::opName(ir::OpCode::AveragePool2D) == "AVERAGE_POOL_2D");
  CHECK(static_cast<uint16_t>(ir::OpCode::Unknown) == 0);
  CHECK(ir::opName(ir::OpCode::Unknown) == "");
  CHECK(ir::opCodeOf("") == ir::OpCode::Unknown);
  CHECK(ir::opCodeOf("MDLA_CONV_2D") == ir::OpCode::Unknown);
  CHECK(ir::opCodeOf("conv_2d") == ir::OpCode::Unknown);
  // A builtin defs/ops.td has no operator for.
  CHECK(ir::opCodeOf("HASHTABLE_LOOKUP") == ir::OpCode::Unknown);
  CHECK(tflite::builtinOpCode(oldCode("HASHTABLE_LOOKUP")) ==
        ir::OpCode::Unknown);
}

TEST_CASE("Operator::code: canonical operators only") {
  ir::Operator Op;
  Op.Type = "CONV_2D";
  CHECK(Op.code() == ir::OpCode::Conv2D);
  Op.Opaque = true; // Imported without its options: not interpreted.
  CHECK(Op.code() == ir::OpCode::Unknown);
  ir::Operator Target;
  Target.Type = "MDLA_CONV_2D";
  CHECK(Target.code() == ir::OpCode::Unknown);
}

TEST_CASE("every attribute name of defs/ops.td has an ir::attr constant") {
  OpsTd Td;
  std::set<std::string> Constants = {
#define ACCELGEN_ATTR(Constant, Name) Name,
#include "ir/OpVocabulary.inc"
  };
  std::set<std::string> Names;
  for (const llvm::json::Object *R : Td.records("Attr"))
    Names.insert(field(*R, "Name"));
  CHECK(Constants == Names);
  CHECK(ir::attr::StrideH == "stride_h");
  CHECK(ir::attr::FusedActivation == "fused_activation");
}
