//===- OpVocabularyDiagnosticsTest.cpp - Mistakes in the vocabulary -------===//
//
// One test per diagnostic of `accelgen-tblgen -gen-op-vocabulary`: each writes
// defs/ops.td's vocabulary plus one bad record as t.td in a fresh folder and
// checks the exit code and the exact `file:line:col: error: message` text.
// Line 1 includes ops.td; the bad record is on line 2, reported at its `def`.
// Also: defs/ops.td itself is accepted, and its output is deterministic.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/StringExtras.h"

#include <string>

using namespace accelgen;

namespace {

/// defs/ops.td and one more line, written as t.td in a fresh folder.
class Td {
public:
  explicit Td(llvm::StringRef Line) : Path(Dir.file("t.td")) {
    std::string Text = "include \"ops.td\"\n" + Line.str() + "\n";
    test::writeFileBytes(Path, llvm::arrayRefFromStringRef(Text));
  }

  /// Checks that -gen-op-vocabulary rejects the file with exactly
  /// "t.td:2:1: error: <Message>" and writes nothing.
  void rejects(const std::string &Message) const {
    test::RunResult R =
        test::runProgram(ACCELGEN_TBLGEN, {"-gen-op-vocabulary", Path, "-I",
                                           ACCELGEN_SOURCE_DIR "/defs"});
    INFO(R.ErrorMessage);
    CHECK(R.ExitCode == 1);
    CHECK(R.Stderr == Path + ":2:1: error: " + Message + "\n");
    CHECK(R.Stdout == "");
  }

private:
  test::TempDir Dir;
  std::string Path;
};

} // namespace

TEST_CASE("defs/ops.td gives the same vocabulary every time") {
  std::vector<std::string> Args = {"-gen-op-vocabulary",
                                   ACCELGEN_SOURCE_DIR "/defs/ops.td"};
  test::RunResult A = test::runProgram(ACCELGEN_TBLGEN, Args);
  test::RunResult B = test::runProgram(ACCELGEN_TBLGEN, Args);
  INFO(A.ErrorMessage << A.Stderr);
  CHECK(A.ExitCode == 0);
  CHECK(A.Stderr == "");
  CHECK(A.Stdout.find("ACCELGEN_OP(Conv2D, \"CONV_2D\", 3)\n") !=
        std::string::npos);
  CHECK(A.Stdout.find("ACCELGEN_OP(Requantize, \"REQUANTIZE\", -1)\n") !=
        std::string::npos);
  CHECK(A.Stdout.find("ACCELGEN_OP_ROWS(Conv2D, Window, \"stride_h\", "
                      "\"dilation_h\", \"\", 1)\n") != std::string::npos);
  CHECK(A.Stdout.find("ACCELGEN_OP_ROWS(MaxPool2D, Window, \"stride_h\", "
                      "\"\", \"filter_h\", -1)\n") != std::string::npos);
  CHECK(A.Stdout.find("ACCELGEN_OP_OVERLAYS(Add, 3u)\n") != std::string::npos);
  CHECK(A.Stdout.find("ACCELGEN_OP_OVERLAYS(Relu, 1u)\n") != std::string::npos);
  CHECK(A.Stdout.find("ACCELGEN_OP_OVERLAYS(Conv2D, 0u)\n") !=
        std::string::npos);
  CHECK(A.Stdout == B.Stdout);
}

TEST_CASE("diagnostic: a builtin code outside int32") {
  Td("def : TFLiteBuiltin<-3, \"NEGATIVE\">;")
      .rejects("builtin code -3 of 'NEGATIVE' is outside [0, 2^31)");
}

TEST_CASE("diagnostic: a builtin name that is no upper-case identifier") {
  Td("def : TFLiteBuiltin<1000, \"conv-2d\">;")
      .rejects("builtin name 'conv-2d' must be upper-case letters, digits and "
               "'_', starting with a letter");
}

TEST_CASE("diagnostic: a builtin code given twice") {
  Td("def : TFLiteBuiltin<3, \"CONV_TWO_D\">;")
      .rejects("builtin code 3 is already 'CONV_2D'");
}

TEST_CASE("diagnostic: a builtin name given twice") {
  Td("def : TFLiteBuiltin<1000, \"CONV_2D\">;")
      .rejects("builtin 'CONV_2D' already has code 3");
}

TEST_CASE("diagnostic: an operator record named Unknown") {
  Td("def Unknown : Op<\"NOT_KNOWN\", [Input]> { let IsBuiltin = 0; }")
      .rejects(
          "operator record 'Unknown' would clash with ir::OpCode::Unknown, "
          "the code of operators outside the vocabulary");
}

TEST_CASE("diagnostic: two operators of one name") {
  Td("def Conv2DAgain : Op<\"CONV_2D\", [Input]>;")
      .rejects("operator 'Conv2DAgain' is named 'CONV_2D', like 'Conv2D'");
}

TEST_CASE("diagnostic: an operator that is no builtin") {
  Td("def Fancy : Op<\"FANCY\", [Input]>;")
      .rejects("operator 'Fancy': 'FANCY' is not a TensorFlow Lite builtin "
               "(tflite.td); set IsBuiltin = 0 for an operator of accelgen's "
               "own");
}

TEST_CASE("diagnostic: a builtin operator disclaimed") {
  Td("def Range : Op<\"RANGE\", [Input]> { let IsBuiltin = 0; }")
      .rejects("operator 'Range' sets IsBuiltin = 0, but 'RANGE' is "
               "TensorFlow Lite builtin 96");
}

TEST_CASE("diagnostic: an attribute name that is not lower_snake_case") {
  Td("def BadAttr : Attr<\"Stride__H\", IntAttr>;")
      .rejects("attribute name 'Stride__H' must be lower_snake_case");
}

TEST_CASE("diagnostic: an attribute of two kinds") {
  Td("def StrideHFloat : Attr<\"stride_h\", FloatAttr>;")
      .rejects("attribute 'stride_h' is float here but int in its first "
               "definition");
}

TEST_CASE("diagnostic: attributes that make one constant") {
  Td("def PotScale : Attr<\"pot_scale_int_16\", BoolAttr>;")
      .rejects("attributes 'pot_scale_int16' and 'pot_scale_int_16' would "
               "both be ir::attr::PotScaleInt16");
}

TEST_CASE("diagnostic: a stripe window whose stride is no attribute of its") {
  Td("def Bad : Op<\"BAD\", [Input], [FilterHAttr]> { let IsBuiltin = 0; "
     "let Rows = RowsWindow<StrideHAttr, [], [FilterHAttr], []>; }")
      .rejects("operator 'Bad': stripe stride attribute 'stride_h' is not "
               "one of its attributes");
}

TEST_CASE("diagnostic: a stripe window attribute that is not an int") {
  Td("def Bad : Op<\"BAD\", [Input], [StrideHAttr, PaddingAttr]> { "
     "let IsBuiltin = 0; "
     "let Rows = RowsWindow<StrideHAttr, [], [PaddingAttr], []>; }")
      .rejects("operator 'Bad': stripe kernel attribute 'padding' is string, "
               "not int");
}

TEST_CASE("diagnostic: a stripe window with two kernel heights") {
  Td("def Bad : Op<\"BAD\", [Input, Filter], [StrideHAttr, FilterHAttr]> { "
     "let IsBuiltin = 0; "
     "let Rows = RowsWindow<StrideHAttr, [], [FilterHAttr], [Filter]>; }")
      .rejects("operator 'Bad': a stripe window takes at most one dilation "
               "attribute and exactly one kernel height, an attribute or an "
               "operand");
}

TEST_CASE("diagnostic: a stripe window's kernel operand that is not its own") {
  Td("def Bad : Op<\"BAD\", [Input], [StrideHAttr]> { let IsBuiltin = 0; "
     "let Rows = RowsWindow<StrideHAttr, [], [], [Filter]>; }")
      .rejects("operator 'Bad': stripe kernel operand 'filter' is not one of "
               "its operands");
}

TEST_CASE("diagnostic: a stripe columns kind tiles do not take") {
  Td("def Bad : Op<\"BAD\", [Input]> { let IsBuiltin = 0; "
     "let Cols = RowsIdentity; }")
      .rejects("operator 'Bad': stripe columns kind 'identity' is not one of "
               "whole, window");
}

TEST_CASE("diagnostic: a window over the columns but not the rows") {
  Td("def Bad : Op<\"BAD\", [Input], [StrideWAttr, FilterWAttr]> { "
     "let IsBuiltin = 0; "
     "let Cols = RowsWindow<StrideWAttr, [], [FilterWAttr], []>; }")
      .rejects("operator 'Bad': a window over the columns needs one over the "
               "rows");
}

TEST_CASE("diagnostic: a column window with no kernel width") {
  Td("def Bad : Op<\"BAD\", [Input], [StrideHAttr, StrideWAttr, FilterHAttr]> "
     "{ let IsBuiltin = 0; "
     "let Rows = RowsWindow<StrideHAttr, [], [FilterHAttr], []>; "
     "let Cols = RowsWindow<StrideWAttr, [], [], []>; }")
      .rejects("operator 'Bad': a stripe window takes at most one dilation "
               "attribute and exactly one kernel width, an attribute or an "
               "operand");
}

TEST_CASE("diagnostic: a stripe rows kind the planner does not know") {
  Td("def Bad : Op<\"BAD\", [Input]> { let IsBuiltin = 0; "
     "let Rows = StripeRows<\"diagonal\">; }")
      .rejects("operator 'Bad': stripe rows kind 'diagonal' is not one of "
               "whole, identity, shifted, window, accumulate");
}

TEST_CASE("diagnostic: an output overlay that is not one of its operands") {
  Td("def Bad : Op<\"BAD\", [Input]> { let IsBuiltin = 0; "
     "let OutputOverlays = [Input2]; }")
      .rejects("operator 'Bad': output overlay operand 'input2' is not one "
               "of its operands");
}

TEST_CASE("diagnostic: an output overlay of an operator with two results") {
  Td("def Bad : Op<\"BAD\", [Input], [], 2> { let IsBuiltin = 0; "
     "let OutputOverlays = [Input]; }")
      .rejects("operator 'Bad': only the one result of an operator may "
               "overlay one of its first 32 operands");
}
