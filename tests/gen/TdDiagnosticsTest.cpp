//===- TdDiagnosticsTest.cpp - Every mistake in a .td target description --===//
//
// One test per diagnostic accelgen-tblgen reports about a `.td` target
// description (the record front end and the model's validation): each writes
// a tiny description as t.td in a fresh folder, runs
// `accelgen-tblgen -dump-model t.td` and checks the exit code and the exact
// `file:line:col: error: message` text. Also: the demo target is accepted, and
// TableGen's own errors come out the same way.
//
// Most descriptions start with Head (lines 1-4); the test's own text then
// starts at line 5. Rules are reported at their `def` (column 1); constraint
// expressions at the offending column of the expression, when it is written
// verbatim on one line.
//
// Diagnostics a `.td` cannot trigger, because TableGen rejects the input
// first or its types rule the mistake out:
// - "duplicate operator 'X'": operators are keyed by record name, and
//   TableGen rejects a second `def X`.
// - "duplicate pattern 'X'": the same for pattern names; unnamed patterns are
//   rejected by the front end ("a pattern must be named") first.
// - "unknown operator 'X'" from a Legal, Removed, Mapping, QuantRule, Kernel
//   or Cost: their operator fields have type `Op`. Only a pattern's result
//   operator can be another record (tested below); a cost naming an unknown
//   operator is tested in the YAML form (YamlFrontendTest).
// - "op set 'X': the name is already taken by an operator" (or another op
//   set), "op set 'X': 'Y' is not an operator" and "op set 'X': result 'Y'
//   is not an operator": sets and operators are records with unique names,
//   and `Members` and `Results` have type `list<Op>` (TableGen's own error is
//   tested below); the YAML form tests them (YamlFrontendTest).
// - A constraint error without a column: the constraint language reports
//   every error as a ParseError with one.
// - "unknown layout 'X'", "unknown residency 'X'", an unknown data type or
//   quantization scheme in a DeviceStorage: their fields are typed records
//   (tested in the YAML form, YamlFrontendTest).
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <string>

using namespace accelgen;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACCELGEN_TEST_ASAN 1
#endif
#endif

namespace {

/// The start most descriptions share: a target with two versions.
const std::string Head = R"td(include "kernels.td"
def V1 : Version<"1.0">;
def V2 : Version<"2.0">;
def T : Target<"t", [V1, V2]>;
)td";

/// Head with target T's body set to \p Body ("let Backend = ...; ...").
std::string headWith(const std::string &Body) {
  std::string Text = Head;
  const std::string Plain = "def T : Target<\"t\", [V1, V2]>;";
  Text.replace(Text.find(Plain), Plain.size(),
               "def T : Target<\"t\", [V1, V2]> { " + Body + " }");
  return Text;
}

/// A description written as t.td in a fresh folder.
class Td {
public:
  explicit Td(llvm::StringRef Text) : Path(Dir.file("t.td")) {
    test::writeFileBytes(Path, llvm::arrayRefFromStringRef(Text));
  }

  const std::string &path() const { return Path; }

  /// "<path>:Line:Col: error: ", how a diagnostic at Line:Col starts.
  std::string at(unsigned Line, unsigned Col) const {
    return Path + ":" + std::to_string(Line) + ":" + std::to_string(Col) +
           ": error: ";
  }

  /// Runs `accelgen-tblgen -dump-model` on the description.
  test::RunResult run() const {
    return test::runProgram(ACCELGEN_TBLGEN, {"-dump-model", Path});
  }

  /// Checks that the description is rejected with exactly \p Expected on
  /// stderr and nothing on stdout.
  void rejects(const std::string &Expected) const {
    test::RunResult R = run();
    INFO(R.ErrorMessage);
    CHECK(R.ExitCode == 1);
    CHECK(R.Stderr == Expected);
    CHECK(R.Stdout == "");
  }

private:
  test::TempDir Dir;
  std::string Path;
};

} // namespace

TEST_CASE("the demo target's model dumps without a diagnostic") {
  std::string Demo = ACCELGEN_SOURCE_DIR "/targets/demo/demo.td";
  test::RunResult R = test::runProgram(ACCELGEN_TBLGEN, {"-dump-model", Demo});
  INFO(R.ErrorMessage);
  CHECK(R.ExitCode == 0);
  CHECK(R.Stderr == "");
  CHECK(R.Stdout != "");
}

//===----------------------------------------------------------------------===//
// TableGen's own errors
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: an unknown option is one line") {
  test::RunResult R =
      test::runProgram(ACCELGEN_TBLGEN, {"-frobnicate", "x.td"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: Unknown command line argument '-frobnicate' (see "
                    "'accelgen-tblgen --help')\n");
  R = test::runProgram(ACCELGEN_TBLGEN, {"x.td", "-o"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: for the -o option: requires a value! (see "
                    "'accelgen-tblgen --help')\n");
}

TEST_CASE("an output named .yaml is written, not read") {
  test::TempDir Dir;
  std::string Out = Dir.file("out.yaml");
  std::string Dep = Dir.file("deps.yaml");
  test::RunResult R = test::runProgram(
      ACCELGEN_TBLGEN,
      {"-gen-supported-ops", ACCELGEN_SOURCE_DIR "/targets/demo/demo.td", "-o",
       Out, "-d", Dep});
  INFO(R.ErrorMessage);
  CHECK(R.ExitCode == 0);
  CHECK(R.Stderr == "");
  CHECK(llvm::sys::fs::exists(Out));
  CHECK(llvm::sys::fs::exists(Dep));
}

TEST_CASE("a full disk: one error line naming the files, nothing left "
          "behind") {
  // /dev/full fails every write with ENOSPC, as a full disk does. TableGen's
  // driver ended with "LLVM ERROR: IO failure on output stream" and a stack
  // dump (exit 134).
  if (!llvm::sys::fs::exists("/dev/full")) {
    MESSAGE("skipped: this system has no /dev/full");
    return;
  }
  const std::string Demo = ACCELGEN_SOURCE_DIR "/targets/demo/demo.td";
  test::RunResult R = test::runProgram(
      ACCELGEN_TBLGEN, {"-gen-supported-ops", Demo, "-o", "/dev/full"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: /dev/full: cannot write: No space left on device\n");
  // The dependency file is written first; the output is not left behind.
  test::TempDir Dir;
  const std::string Out = Dir.file("ops.md");
  R = test::runProgram(ACCELGEN_TBLGEN, {"-gen-supported-ops", Demo, "-o",
                                         Out, "-d", "/dev/full"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: " + Out +
                        " or /dev/full: cannot write: No space left on "
                        "device\n");
  CHECK_FALSE(llvm::sys::fs::exists(Out));
  // A YAML description (read through a stand-in): the same; the device
  // stays a device.
  R = test::runProgram(ACCELGEN_TBLGEN,
                       {"-gen-supported-ops",
                        ACCELGEN_SOURCE_DIR "/targets/demo/demo.yaml", "-o",
                        "/dev/full"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: /dev/full: cannot write: No space left on device\n");
  llvm::sys::fs::file_status St;
  REQUIRE_FALSE(llvm::sys::fs::status("/dev/full", St));
  CHECK(St.type() == llvm::sys::fs::file_type::character_file);
}

TEST_CASE("diagnostic: an input larger than the limit") {
  // A device reads without end: at most the limit and one byte are read.
  test::RunResult R =
      test::runProgram(ACCELGEN_TBLGEN, {"-dump-model", "/dev/zero"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr ==
        "error: /dev/zero: the file is larger than the limit of 16 MiB\n");
  Td Big(std::string((16 << 20) + 1, ' '));
  R = Big.run();
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: " + Big.path() +
                        ": the file is larger than the limit of 16 MiB\n");
}

TEST_CASE("diagnostic: an included file TableGen would read without end") {
  // TableGen reads an include to its end; /dev/zero has none.
  Td Device(Head + "/* include \"ignored\" */\n  include \"/dev/zero\"\n");
  Device.rejects(Device.at(6, 3) +
                 "included file '/dev/zero' is not a regular file\n");
  // An included description past the limit, named where it is included.
  test::TempDir Dir;
  std::string Big = Dir.file("big.td");
  test::writeFileBytes(
      Big, llvm::arrayRefFromStringRef(std::string((16 << 20) + 1, ' ')));
  Td Includer("include \"" + Big + "\"\n");
  Includer.rejects(Includer.at(1, 1) + "included file '" + Big +
                   "': the file is larger than the limit of 16 MiB\n");
}

TEST_CASE("diagnostic: TableGen syntax error") {
  // The ';' ending line 2 is missing; TableGen notices at line 3.
  Td D(R"td(include "ops.td"
def V1 : Version<"1.0">
def T : Target<"t", [V1]>;
)td");
  D.rejects(D.at(3, 1) +
            "Expected '{' to start body or ';' for declaration only\n"
            "def T : Target<\"t\", [V1]>;\n"
            "^\n");
}

TEST_CASE("diagnostic: a required field left unset") {
  Td D(Head + "def L : Legal<Relu, T, ?, [i8]>;\n");
  D.rejects(D.at(5, 1) +
            "Record `L', field `Since' does not have a def initializer!\n"
            "def L : Legal<Relu, T, ?, [i8]>;\n"
            "^\n");
}

//===----------------------------------------------------------------------===//
// The target and its versions
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: no target") {
  Td D("include \"ops.td\"\ndef V1 : Version<\"1.0\">;\n");
  D.rejects(D.at(1, 1) + "the description defines no Target\n");
}

TEST_CASE("diagnostic: a second target") {
  Td D(Head + "def U : Target<\"u\", [V1]>;\n");
  D.rejects(D.at(5, 1) +
            "a description defines one target; 'u' is the second\n");
}

TEST_CASE("diagnostic: target without a name") {
  Td D(R"td(include "ops.td"
def V1 : Version<"1.0">;
def T : Target<"", [V1]>;
)td");
  D.rejects(D.at(3, 1) + "target has no name\n");
}

TEST_CASE("diagnostic: target without versions") {
  Td D("include \"ops.td\"\ndef T : Target<\"t\", []>;\n");
  D.rejects(D.at(2, 1) + "target 't' lists no versions\n");
}

TEST_CASE("diagnostic: version that is not a dotted number") {
  // Reported at the Version record that names it.
  Td D(R"td(include "ops.td"
def V1 : Version<"1.0">;
def V2 : Version<"2.x">;
def V3 : Version<"3.">;
def T : Target<"t", [V1, V2, V3]>;
)td");
  D.rejects(D.at(3, 1) +
            "version '2.x' is not a dotted number such as '2.0'\n" +
            D.at(4, 1) + "version '3.' is not a dotted number such as '2.0'\n");
}

TEST_CASE("diagnostic: versions out of order") {
  // Reported at the target, whose list is in the wrong order.
  Td Reversed(R"td(include "ops.td"
def V1 : Version<"1.0">;
def V2 : Version<"2.0">;
def T : Target<"t", [V2, V1]>;
)td");
  Reversed.rejects(Reversed.at(4, 1) +
                   "version '1.0' is out of order: versions must be listed "
                   "oldest first, and '1.0' is not newer than '2.0'\n");
  Td Twice(R"td(include "ops.td"
def V1 : Version<"1.0">;
def T : Target<"t", [V1, V1]>;
)td");
  Twice.rejects(Twice.at(3, 1) +
                "version '1.0' is out of order: versions must be listed "
                "oldest first, and '1.0' is not newer than '1.0'\n");
}

TEST_CASE("diagnostic: unknown version") {
  Td D(Head + R"td(def V3 : Version<"3.0">;
def : Legal<Relu, T, V3, [i8]>;
def : QuantRule<Relu, T, SameScale> { let Until = V3; }
)td");
  D.rejects(D.at(6, 1) +
            "unknown version '3.0' of target 't' (versions: 1.0, 2.0)\n" +
            D.at(7, 1) +
            "unknown version '3.0' of target 't' (versions: 1.0, 2.0)\n");
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: duplicate operator name") {
  Td D(Head + "def MyRelu : TargetOp<T, \"RELU\", [Input]>;\n");
  D.rejects(D.at(5, 1) + "duplicate operator name 'RELU'\n");
}

TEST_CASE("diagnostic: attribute of unknown kind") {
  Td D(Head + R"td(def ComplexAttr : AttrKind<"complex">;
def MyOp : TargetOp<T, "MY_OP", [Input], [Attr<"z", ComplexAttr>]>;
)td");
  D.rejects(D.at(6, 1) + "attribute 'z' of 'MyOp' has unknown kind 'complex' "
                         "(kinds: int, float, bool, string, ints)\n");
}

TEST_CASE("diagnostic: unknown operator") {
  Td D(Head + "def P : Pattern<T, (Relu $x), (V1 $x)>;\n");
  D.rejects(D.at(5, 1) + "unknown operator 'V1'\n");
}

TEST_CASE("diagnostic: unknown data type") {
  // Reported once: not also as a Legal without types.
  Td D(Head + R"td(def bf16 : DType<"bf16">;
def : Legal<Relu, T, V1, [i8, bf16]>;
)td");
  D.rejects(D.at(6, 1) + "unknown data type 'bf16'\n");
}

//===----------------------------------------------------------------------===//
// Constraints
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: constraint with an empty id") {
  // Inline constraints are reported at the rule that lists them.
  Td D(Head + "def : Legal<Relu, T, V1, [i8], "
              "[Constraint<\"\", \"input(0).rank == 4\", \"s\">]>;\n");
  D.rejects(D.at(5, 1) + "constraint has an empty id\n");
}

TEST_CASE("diagnostic: constraint without a summary") {
  // Named constraints are reported at their own record.
  Td D(Head + R"td(def Rank4 : Constraint<"rank_4", "input(0).rank == 4", "">;
def : Legal<Relu, T, V1, [i8], [Rank4]>;
)td");
  D.rejects(D.at(5, 1) + "constraint 'rank_4' has no summary\n");
}

TEST_CASE("diagnostic: duplicate constraint id with a different definition") {
  Td D(Head + R"td(def Rank4 : Constraint<"rank", "input(0).rank == 4", "4-D">;
def Rank3 : Constraint<"rank", "input(0).rank == 3", "3-D">;
def : Legal<Relu, T, V1, [i8], [Rank4]>;
def : Legal<Add, T, V1, [i8], [Rank3]>;
)td");
  D.rejects(D.at(6, 1) +
            "duplicate constraint id 'rank' with a different definition "
            "(first declared at " +
            D.path() + ":5:1)\n");
}

TEST_CASE("diagnostic: constraint ids that become the same C++ name") {
  Td D(Head + R"td(def : Legal<Relu, T, V1, [i8], [
  Constraint<"conv channels", "input(0).rank == 4", "s">,
  Constraint<"conv_channels", "input(0).rank >= 1", "s">]>;
)td");
  D.rejects(D.at(5, 1) +
            "constraint ids 'conv_channels' and 'conv channels' "
            "(declared at " +
            D.path() +
            ":5:1) both become the C++ name 'check_conv_channels'\n");
}

TEST_CASE("diagnostic: a constraint nested too deeply") {
  // Parentheses, then `!`: each stops at the 101st level; the expression
  // starts in column 23.
  std::string Parens = std::string(3000, '(') + "true" + std::string(3000, ')');
  std::string Nots(3000, '!');
  Nots += "true";
  Td D(Head +
       "def : Legal<Relu, T, V1, [i8], [\n"
       "  Constraint<\"deep\", \"" +
       Parens + "\", \"s\">]>;\n" +
       "def : Legal<Add, T, V1, [i8], [\n"
       "  Constraint<\"nots\", \"" +
       Nots + "\", \"s\">]>;\n");
  D.rejects(D.at(6, 123) +
            "constraint 'deep': expression nested more than 100 levels deep "
            "(column 101 of \"" +
            Parens + "\")\n" + D.at(8, 123) +
            "constraint 'nots': expression nested more than 100 levels deep "
            "(column 101 of \"" +
            Nots + "\")\n");
}

TEST_CASE("a constraint of 20,000 '&&' terms generates its check") {
  std::string Expr = "input(0).rank >= 1";
  for (int I = 0; I < 20000; ++I)
    Expr += I % 2 ? " && input(0).rank >= 1" : " && input(0).rank <= 6";
  Td D(Head +
       "def : Legal<Relu, T, V1, [i8], [\n"
       "  Constraint<\"long\", \"" +
       Expr + "\", \"s\">]>;\n");
  for (const char *Action : {"-gen-legality", "-gen-supported-ops",
                             "-gen-constraint-tests", "-gen-op-setups"}) {
    test::RunResult R = test::runProgram(ACCELGEN_TBLGEN, {Action, D.path()});
    INFO(Action << ": " << R.ErrorMessage << R.Stderr.substr(0, 400));
    CHECK(R.ExitCode == 0);
    CHECK(R.Stderr == "");
  }
}

TEST_CASE("diagnostic: constraint with neither an expression nor a C++ "
          "function") {
  Td D(Head + "def : Legal<Relu, T, V1, [i8], [Constraint<\"c\", \"\", "
              "\"s\">]>;\n");
  D.rejects(D.at(5, 1) +
            "constraint 'c' has neither an expression nor a C++ function\n");
}

TEST_CASE("diagnostic: C++ constraint that is not a function name") {
  Td D(Head + "def : Legal<Relu, T, V1, [i8], "
              "[CppConstraint<\"c\", \"is-square()\", \"s\">]>;\n");
  D.rejects(D.at(5, 1) +
            "constraint 'c': 'is-square()' is not a C++ function name\n");
}

TEST_CASE("diagnostic: unknown attribute in a constraint") {
  // Line 6: the expression starts in column 30.
  // Line 8: it starts in column 6; `colour` is its column 23.
  // Line 10: a [{...}] string; the expression starts in column 59.
  Td D(Head + R"td(def : Legal<Relu, T, V1, [i8], [
  Constraint<"relu_colour", "colour == 1", "s">]>;
def Colour : Constraint<"add_colour",
    "input(0).rank == 4 && colour == 1", "s">;
def : Legal<Add, T, V1, [i8], [Colour]>;
def : Legal<Sub, T, V1, [i8], [Constraint<"sub_colour", [{colour == 1}], "s">]>;
)td");
  D.rejects(D.at(6, 30) +
            "constraint 'relu_colour': unknown attribute 'colour' (column 1 "
            "of \"colour == 1\")\n" +
            D.at(8, 28) +
            "constraint 'add_colour': unknown attribute 'colour' (column 23 "
            "of \"input(0).rank == 4 && colour == 1\")\n" +
            D.at(10, 59) +
            "constraint 'sub_colour': unknown attribute 'colour' (column 1 "
            "of \"colour == 1\")\n");
}

TEST_CASE("diagnostic: type error in a constraint") {
  // Line 6: the expression starts in column 27; `==` is its column 9.
  // Line 8: a quantization check; the expression starts in column 41, `&&`
  // is its column 10.
  Td D(Head + R"td(def : Legal<Conv2D, T, V1, [i8], [
  Constraint<"conv_pad", "padding == 1", "s">]>;
def : QuantRule<Conv2D, T, QuantCheck> {
  let Check = Constraint<"conv_check", "stride_h && true", "s">;
}
)td");
  D.rejects(D.at(6, 35) +
            "constraint 'conv_pad': type mismatch in comparison ('string' vs "
            "'int') (column 9 of \"padding == 1\")\n" +
            D.at(8, 50) +
            "constraint 'conv_check': operator '&&' needs bool operands, found "
            "'int' (column 10 of \"stride_h && true\")\n");
}

TEST_CASE("diagnostic: syntax error in a constraint") {
  // Line 6: the expression starts in column 28; `=` is its column 15.
  // Line 8 has escapes, so columns of the text and of the expression differ:
  // reported at the rule (line 7), the message giving the column.
  Td D(Head + R"td(def : Legal<Relu, T, V1, [i8], [
  Constraint<"relu_rank", "input(0).rank = 4", "s">]>;
def : Legal<Conv2D, T, V1, [i8], [
  Constraint<"conv_pad", "padding == \"SAME\" && stride_h = 1", "s">]>;
)td");
  D.rejects(D.at(6, 42) +
            "constraint 'relu_rank': unknown operator '=' (did you mean "
            "'=='?) (column 15 of \"input(0).rank = 4\")\n" +
            D.at(7, 1) +
            "constraint 'conv_pad': unknown operator '=' (did you mean "
            "'=='?) (column 31 of \"padding == \"SAME\" && stride_h = 1\")\n");
}

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: two rules for one operator and version") {
  Td D(Head + R"td(def : Legal<Relu, T, V1, [i8]>;
def : Legal<Relu, T, V1, [u8]>;
def : Legal<Add, T, V2, [i8]>;
def : Removed<Add, T, V2>;
)td");
  D.rejects(D.at(6, 1) +
            "operator 'Relu' already has a rule for version 1.0 "
            "(at " +
            D.path() + ":5:1)\n" + D.at(8, 1) +
            "operator 'Add' already has a rule for version 2.0 (at " +
            D.path() + ":7:1)\n");
}

TEST_CASE("diagnostic: removed operator that was never legal") {
  Td D(Head + R"td(def : Removed<Relu, T, V1>;
def : Legal<Relu, T, V2, [i8]>;
)td");
  D.rejects(D.at(5, 1) + "operator 'Relu' is removed at version 1.0 but was "
                         "never legal before\n");
}

TEST_CASE("diagnostic: legal with no data type") {
  Td D(Head + "def : Legal<Relu, T, V1, []>;\n");
  D.rejects(D.at(5, 1) + "operator 'Relu' is legal with no data type: list at "
                         "least one\n");
}

TEST_CASE("diagnostic: a declaration no kernel runs, on a target that "
          "compiles") {
  // RELU runs on int16, TRANSPOSE_CONV's types are its output shape's, and
  // T_SW_TCONV runs on the kernels of the TRANSPOSE_CONV it is created from.
  // No kernel computes DIV or HARD_SWISH on int16, CONCATENATION on f16,
  // POW or T_OWN at all.
  const std::string Decls = R"td(def : Legal<Relu, T, V1, [i8, i16]>;
def : Legal<Div, T, V1, [i8, i16]>;
def : Legal<HardSwish, T, V2, [i16, f32]>;
def : Legal<TransposeConv, T, V1, [i32]>;
def : Legal<Pow, T, V1, [i8, f32]>;
def : Legal<Concatenation, T, V1, [f16, i8]>;
def Sw : TargetOp<T, "T_SW_TCONV",
                  [Operand<"output_shape">, Filter, Input, OptionalBias]>;
def : Mapping<TransposeConv, Sw, T>;
def : Legal<Sw, T, V1, [i32]>;
def Own : TargetOp<T, "T_OWN", [Input]>;
def : Legal<Own, T, V1, [i8]>;
)td";
  Td D(headWith("let Backend = FunctionalModelPrograms;") + Decls);
  auto Types = [](const char *Op, const char *Type, const char *Version) {
    return llvm::formatv("{0} is declared legal for {1} (from version {2}), "
                         "but no kernel computes {0} on {1} "
                         "(defs/kernels.td or the target's own families), so "
                         "no layer placed by it could run; declare the types "
                         "a kernel computes\n",
                         Op, Type, Version)
        .str();
  };
  auto None = [](const char *Op) {
    return llvm::formatv("{0} is declared legal (from version 1.0), but no "
                         "kernel runs {0} (defs/kernels.td or the target's "
                         "own families), so no layer placed by it could "
                         "run; declare only operators a kernel runs\n",
                         Op)
        .str();
  };
  D.rejects(D.at(6, 1) + Types("DIV", "i16", "1.0") + D.at(7, 1) +
            Types("HARD_SWISH", "i16", "2.0") + D.at(9, 1) + None("POW") +
            D.at(10, 1) + Types("CONCATENATION", "f16", "1.0") +
            D.at(16, 1) + None("T_OWN"));

  // A target without a backend only explains: the same declarations build.
  Td Explains(Head + Decls);
  CHECK(Explains.run().ExitCode == 0);
}

TEST_CASE("diagnostic: control flow or a variable declared by a target with "
          "a CPU fallback") {
  // The generated code runs them on the host CPU: a target that hands
  // operators to a CPU fallback hands these too; one that runs everything
  // itself (CpuFallback = "") declares them, without types when they have
  // no operands.
  const std::string Decls = R"td(def : Legal<If, T, V1, [bool]>;
def : Legal<CallOnce, T, V1, []>;
)td";
  auto Target = [](const char *Fallback) {
    return headWith(llvm::formatv("let Backend = RefKernels; let CpuFallback "
                                  "= \"{0}\";",
                                  Fallback)
                        .str());
  };
  Td D(Target("cpu") + Decls);
  auto Message = [](const char *Op) {
    return llvm::formatv("{0} is declared legal (from version 1.0), but the "
                         "generated code runs {0} itself on the host CPU; "
                         "only a target that runs every operator there "
                         "(CpuFallback = \"\") declares it, and its CPU "
                         "fallback ('cpu') takes it from this one\n",
                         Op)
        .str();
  };
  D.rejects(D.at(5, 1) + Message("IF") + D.at(6, 1) + Message("CALL_ONCE"));
  Td Own(Target("") + Decls);
  CHECK(Own.run().ExitCode == 0);
}

TEST_CASE("diagnostic: an operator whose kernel the functional model cannot "
          "call, declared by a target whose programs run there") {
  // TFLite_Detection_PostProcess's call writes four results in working
  // memory of its own; a program operator has one result and none.
  const std::string Decls =
      "def : Legal<DetectionPostProcess, T, V1, [f32]>;\n";
  Td D(headWith("let Backend = FunctionalModelPrograms;") + Decls);
  D.rejects(D.at(5, 1) +
            "TFLite_Detection_PostProcess is declared legal (from version "
            "1.0), but its kernel writes several results or needs working "
            "memory, which the functional model's programs do not give a "
            "kernel, so no layer placed by it could run; leave it to the CPU "
            "fallback\n");
  // A target compiling to C calls it as the CPU path does.
  Td Own(headWith("let Backend = RefKernels; let CpuFallback = \"\";") +
         Decls);
  CHECK(Own.run().ExitCode == 0);
}

TEST_CASE("diagnostic: a target's own kernel family") {
  // A family a target declares is registered when accelgen loads the
  // target: named after it, its files beside the description, for
  // operators no other family computes. Each mistake is refused at the
  // family.
  auto Family = [](const std::string &Lets, const std::string &Op) {
    return "def MyFamily : KernelFamily<\"my_op\", \"my_op\", \"myOp\"> {\n" +
           Lets +
           "  let Fields = [KernelField<\"unused\", \"int32_t\">];\n"
           "  let Args = [ParamsArg, CountArg, InputArg, OutputArg];\n"
           "  let Instances = [KernelInstance<" +
           Op + ", \"my_op\", i8>];\n}\n";
  };
  const std::string RefBackend =
      headWith("let Backend = RefKernels; let CpuFallback = \"\";");
  Td Ref(RefBackend + Family("  let Rendered = 0;\n", "Floor"));
  Ref.rejects(Ref.at(5, 1) +
              "kernel family 'MyFamily' is target t's own, so its library "
              "must be the target's name, 't' (it is 'ref'): its struct, "
              "functions and files are then t_..., never the reference "
              "kernels'\n");
  const std::string Own = "  let Library = \"t\";\n  let Rendered = 0;\n";
  Td Taken(RefBackend + Family(Own, "Floor"));
  Taken.rejects(Taken.at(5, 1) +
                "kernel family 'MyFamily' computes FLOOR, which kernel "
                "family 'UnaryMathKernels' computes already; a target's own "
                "family computes operators no other family does\n");
  // An operator of the target's own, declared legal: it runs on a target
  // whose backend runs on the host CPU, and on the functional model's
  // programs (the emitted functional model includes the family's rows).
  const std::string Op = "def MyOp : TargetOp<T, \"T_MY_OP\", [Input]>;\n";
  const std::string Legal = "def : Legal<MyOp, T, V1, [i8]>;\n";
  Td Runs(RefBackend + Op + Family(Own, "MyOp") + Legal);
  CHECK(Runs.run().ExitCode == 0);
  Td Programs(headWith("let Backend = FunctionalModelPrograms;") + Op +
              Family(Own, "MyOp") + Legal);
  CHECK(Programs.run().ExitCode == 0);
  // A target without families of its own has no files to give.
  Td None(RefBackend);
  test::RunResult NoParams = test::runProgram(
      ACCELGEN_TBLGEN, {"-gen-own-kernel-files", None.path()});
  CHECK(NoParams.ExitCode == 1);
  CHECK(NoParams.Stderr ==
        None.path() + ": target t declares no kernel families of its own\n");
  // The registration embeds the family's files, found beside the
  // description; a missing one is an error at the family.
  test::RunResult R = test::runProgram(
      ACCELGEN_TBLGEN, {"-gen-kernel-registration", Runs.path()});
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith(
      Runs.at(6, 1) + "kernel family 'MyFamily': " +
      llvm::sys::path::parent_path(Runs.path()).str() + "/t_my_op.h: "));
}

TEST_CASE("a target's own kernel templates are rendered by the generator") {
  Td D(headWith("let Backend = RefKernels; let CpuFallback = \"\";") +
       "def MyOp : TargetOp<T, \"T_MY_OP\", [Input]>;\n"
       "def MyFamily : KernelFamily<\"my_op\", \"my_op\", \"myOp\"> {\n"
       "  let Library = \"t\";\n"
       "  let Fields = [KernelField<\"unused\", \"int32_t\">];\n"
       "  let Args = [ParamsArg, CountArg, InputArg, OutputArg];\n"
       "  let Instances = [KernelInstance<MyOp, \"my_op\", i8>,\n"
       "                   KernelInstance<MyOp, \"my_op\", i16>];\n}\n"
       "def : Legal<MyOp, T, V1, [i8]>;\n");
  const std::string Dir = llvm::sys::path::parent_path(D.path()).str();
  auto Write = [&](const std::string &Name, llvm::StringRef Text) {
    test::writeFileBytes(Dir + "/" + Name, llvm::arrayRefFromStringRef(Text));
  };
  Write("t_my_op.h.in", "#include \"t_params.h\"\n"
                        "$for K in KERNELS:\n"
                        "void ${K.FUNCTION}(const t_my_op_params *p, "
                        "int32_t n, const ${DT[K.DTYPE].ctype} *in, "
                        "${DT[K.DTYPE].ctype} *out);\n"
                        "$endfor\n");
  Write("t_my_op.c.in", "#include \"t_my_op.h\"\n"
                        "$for K in KERNELS:\n"
                        "/* ${K.FUNCTION}: ${K.OP} on ${K.DTYPE} */\n"
                        "$endfor\n");
  auto Files = [&](std::vector<std::string> Extra) {
    std::vector<std::string> Args = {"-gen-own-kernel-files", D.path(), "-o",
                                     Dir + "/t_params.h"};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    return test::runProgram(ACCELGEN_TBLGEN, Args);
  };
  // Each template once, for the functions of every family naming it, into
  // the folder given; the parameter structs to the output.
  test::RunResult R = Files({"--own-kernels-dir", Dir});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(llvm::StringRef(test::readFileText(Dir + "/t_params.h"))
            .contains("typedef struct t_my_op_params {"));
  CHECK(test::readFileText(Dir + "/t_my_op.c") ==
        "/* Generated by accelgen from template t_my_op.c.in. Do not edit. "
        "*/\n#include \"t_my_op.h\"\n/* t_my_op_i8: my_op on i8 */\n"
        "/* t_my_op_i16: my_op on i16 */\n");
  CHECK(llvm::StringRef(test::readFileText(Dir + "/t_my_op.h"))
            .contains("void t_my_op_i16(const t_my_op_params *p, int32_t n, "
                      "const int16_t *in, int16_t *out);"));
  // The registration embeds the rendered text.
  test::RunResult Reg =
      test::runProgram(ACCELGEN_TBLGEN, {"-gen-kernel-registration", D.path()});
  CHECK(Reg.ExitCode == 0);
  CHECK(llvm::StringRef(Reg.Stdout)
            .contains("\"/* t_my_op_i16: my_op on i16 */\\n\""));
  // Rendered sources need a folder to go to.
  test::RunResult NoDir = Files({});
  CHECK(NoDir.ExitCode == 1);
  CHECK(NoDir.Stderr == D.path() +
                            ": target t renders kernel templates, and "
                            "-gen-own-kernel-files needs --own-kernels-dir "
                            "for their sources\n");
  // A template's mistake is located in the template, naming the family.
  Write("t_my_op.c.in", "$for K in KERNELS:\n"
                        "$assert K.DTYPE == \"i8\", \"int8 only\"\n"
                        "$endfor\n");
  test::RunResult Bad = Files({"--own-kernels-dir", Dir});
  CHECK(Bad.ExitCode == 1);
  INFO(Bad.Stderr);
  CHECK(llvm::StringRef(Bad.Stderr)
            .startswith(Dir + "/t_my_op.c.in:2:1: error: assertion failed: "
                              "K.DTYPE == \"i8\" (with K = {\"DTYPE\": "
                              "\"i16\""));
  CHECK(llvm::StringRef(Bad.Stderr)
            .endswith("): int8 only (kernel family 'MyFamily')\n"));
  // A missing template, at the family.
  llvm::sys::fs::remove(Dir + "/t_my_op.c.in");
  test::RunResult Missing = Files({"--own-kernels-dir", Dir});
  CHECK(Missing.ExitCode == 1);
  CHECK(llvm::StringRef(Missing.Stderr)
            .startswith(D.at(6, 1) + "kernel family 'MyFamily': " + Dir +
                        "/t_my_op.c.in: "));
}

TEST_CASE("diagnostic: unknown quantization scheme") {
  Td D(Head + R"td(def Blockwise : QuantScheme<"blockwise", 1, 0>;
def : Legal<Conv2D, T, V1, [i8]> { let WeightSchemes = [Blockwise]; }
)td");
  D.rejects(D.at(6, 1) + "unknown quantization scheme 'blockwise' (schemes: "
                         "asymmetric_per_tensor, symmetric_per_tensor, "
                         "symmetric_per_channel, asymmetric_per_channel)\n");
}

TEST_CASE("diagnostic: drop of an unknown constraint") {
  Td D(Head + R"td(def : Legal<Relu, T, V1, [i8], [
  Constraint<"rank_4", "input(0).rank == 4", "s">]>;
def : Legal<Relu, T, V2, []> { let Drops = ["rank4"]; }
)td");
  D.rejects(D.at(7, 1) + "cannot drop constraint 'rank4': operator 'Relu' has "
                         "no such constraint before version 2.0\n");
}

TEST_CASE("diagnostic: constraint listed twice") {
  // Reported at the rule that lists it, not at the constraint.
  Td D(Head + R"td(def Rank4 : Constraint<"rank_4", "input(0).rank == 4", "s">;
def : Legal<Relu, T, V1, [i8], [Rank4, Rank4]>;
)td");
  D.rejects(D.at(6, 1) +
            "constraint 'rank_4' is listed twice for operator 'Relu'\n");
}

//===----------------------------------------------------------------------===//
// Mappings
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: attribute setting not of the form name=value") {
  Td D(Head + R"td(def : Mapping<Conv2D, DepthwiseConv2D, T> {
  let SetAttrs = ["depth_multiplier", "=1"];
}
)td");
  D.rejects(D.at(5, 1) +
            "attribute setting 'depth_multiplier' is not of the "
            "form name=value\n" +
            D.at(5, 1) +
            "attribute setting '=1' is not of the form name=value\n");
}

TEST_CASE("diagnostic: attribute setting for an attribute the operator does "
          "not have") {
  Td D(Head + R"td(def : Mapping<Conv2D, DepthwiseConv2D, T> {
  let SetAttrs = ["colour=red"];
}
)td");
  D.rejects(D.at(5, 1) +
            "operator 'DepthwiseConv2D' has no attribute 'colour'\n");
}

//===----------------------------------------------------------------------===//
// Quantization rules
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: quantization rule ending before it starts") {
  Td D(Head + R"td(def : QuantRule<Relu, T, SameScale> {
  let Since = V2;
  let Until = V1;
}
)td");
  D.rejects(D.at(5, 1) + "quantization rule ends at version 1.0, before it "
                         "starts at 2.0\n");
}

TEST_CASE("diagnostic: unknown quantization relation") {
  Td D(Head + R"td(def Odd : QuantRelation<"odd">;
def : QuantRule<Relu, T, Odd>;
)td");
  D.rejects(D.at(6, 1) + "unknown quantization relation 'odd' (relations: "
                         "same_scale, forward_output_to_inputs, "
                         "bias_scale_product, fixed_output, check)\n");
}

TEST_CASE("diagnostic: unknown quantization action") {
  Td D(Head + R"td(def Ignore : QuantAction<"ignore">;
def : QuantRule<Relu, T, SameScale, Ignore>;
)td");
  D.rejects(D.at(6, 1) +
            "unknown action 'ignore' (actions: reject, "
            "insert_requantize_before, insert_requantize_after)\n");
}

TEST_CASE("diagnostic: condition on a quantization rule other than 'check'") {
  Td D(Head + R"td(def : QuantRule<Relu, T, SameScale> {
  let Check = Constraint<"c", "input(0).rank == 4", "s">;
}
)td");
  D.rejects(D.at(5, 1) +
            "only a 'check' quantization rule takes a condition\n");
}

TEST_CASE("diagnostic: 'check' quantization rule without a condition") {
  Td D(Head + "def : QuantRule<Relu, T, QuantCheck>;\n");
  D.rejects(D.at(5, 1) + "a 'check' quantization rule needs a condition\n");
}

TEST_CASE("diagnostic: fixed output scale that is not a positive number") {
  Td D(Head +
       R"td(def : QuantRule<Softmax, T, FixedOutput> { let Scale = "1/256"; }
def : QuantRule<Logistic, T, FixedOutput> { let Scale = "-0.5"; }
def : QuantRule<Tanh, T, FixedOutput>;
)td");
  D.rejects(D.at(5, 1) +
            "fixed output scale '1/256' is not a finite positive number\n" +
            D.at(6, 1) +
            "fixed output scale '-0.5' is not a finite positive number\n" +
            D.at(7, 1) +
            "fixed output scale '' is not a finite positive number\n");
}

TEST_CASE("diagnostic: fixed output scale that is not finite") {
  Td D(Head +
       R"td(def : QuantRule<Softmax, T, FixedOutput> { let Scale = "nan"; }
def : QuantRule<Logistic, T, FixedOutput> { let Scale = "1e999"; }
def : QuantRule<Tanh, T, FixedOutput> { let Scale = "inf"; }
)td");
  D.rejects(D.at(5, 1) +
            "fixed output scale 'nan' is not a finite positive number\n" +
            D.at(6, 1) +
            "fixed output scale '1e999' is not a finite positive number\n" +
            D.at(7, 1) +
            "fixed output scale 'inf' is not a finite positive number\n");
}

TEST_CASE("diagnostic: fixed output zero point out of range") {
  Td D(Head + R"td(def : QuantRule<Softmax, T, FixedOutput> {
  let Scale = "0.00390625";
  let ZeroPoint = 4294967296;
}
)td");
  D.rejects(D.at(5, 1) + "fixed output zero point 4294967296 is out of range "
                         "(a 32-bit integer)\n");
}

//===----------------------------------------------------------------------===//
// Fusion patterns
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: unnamed pattern") {
  Td D(Head + "def : Pattern<T, (Relu $x), (Relu $x)>;\n");
  D.rejects(D.at(5, 1) + "a pattern must be named (def NAME : Pattern<...>)\n");
}

TEST_CASE("diagnostic: pattern source node that is not an operator") {
  Td D(Head + "def P : Pattern<T, (Relu (V1 $x)), (Relu $x)>;\n");
  D.rejects(D.at(5, 1) + "pattern 'P': 'V1' is not an operator or an op set\n");
}

TEST_CASE("diagnostic: pattern source operand neither an operator nor a "
          "$name") {
  Td D(Head + "def P : Pattern<T, (Add $x, 3), (Relu $x)>;\n");
  D.rejects(D.at(5, 1) + "pattern 'P': operand 1 of 'Add' must be a nested "
                         "operator or a $name\n");
}

TEST_CASE("diagnostic: captured pattern result") {
  Td D(Head + "def P : Pattern<T, (Relu $x), (Relu:$r $x)>;\n");
  D.rejects(D.at(5, 1) +
            "pattern 'P': the result operator cannot be captured\n");
}

//===----------------------------------------------------------------------===//
// Operator sets
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: op set with no members") {
  Td D(Head + "def S : OpSet<\"S\", []>;\n");
  D.rejects(D.at(5, 1) + "op set 'S' has no members\n");
}

TEST_CASE("diagnostic: op set member that is not an operator") {
  // TableGen's types rule it out, at the offending argument.
  Td D(Head + "def S : OpSet<\"S\", [Relu, V1]>;\n");
  test::RunResult R = D.run();
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith(D.at(5, 30) +
                                             "Element type mismatch for list"));
}

TEST_CASE("diagnostic: op set listing an operator twice") {
  Td D(Head + "def S : OpSet<\"S\", [Relu, Tanh, Relu]>;\n");
  D.rejects(D.at(5, 1) + "op set 'S' lists 'Relu' twice\n");
}

TEST_CASE("diagnostic: op set members with different operands") {
  Td D(Head + "def S : OpSet<\"S\", [Conv2D, TransposeConv]>;\n");
  D.rejects(D.at(5, 1) +
            "op set 'S': the members must declare the same operands, but "
            "'Conv2D' takes (input, filter, bias?) and 'TransposeConv' takes "
            "(output_shape, filter, input, bias?)\n");
}

TEST_CASE("diagnostic: op set with results for only some members") {
  Td D(Head + "def S : OpSet<\"S\", [Relu, Tanh], [Relu]>;\n");
  D.rejects(D.at(5, 1) + "op set 'S' names a result for 1 of its 2 members: "
                         "give one per member, or none\n");
}

TEST_CASE("diagnostic: op set named like an operator") {
  Td D(Head + "def S : OpSet<\"TANH\", [Relu]>;\n");
  D.rejects(D.at(5, 1) + "op set 'S': the name 'TANH' is already taken\n");
}

TEST_CASE("diagnostic: pattern result naming an op set without results") {
  Td D(Head + R"td(def S : OpSet<"S", [Relu, Tanh]>;
def P : Pattern<T, (S:$a $x), (S:$a $x)>;
)td");
  D.rejects(D.at(6, 1) + "pattern 'P': the result names op set 'S', which "
                         "lists no results\n");
}

TEST_CASE("diagnostic: pattern result naming an op set without a capture") {
  Td D(Head + R"td(def S : OpSet<"S", [Relu, Tanh], [Tanh, Relu]>;
def P : Pattern<T, (S:$a $x), (S $x)>;
)td");
  D.rejects(D.at(6, 1) + "pattern 'P': the result names op set 'S' without "
                         "a capture: write (S:$name ...) with the source "
                         "node whose member picks the result\n");
}

TEST_CASE("diagnostic: pattern result capturing no source operator") {
  Td D(Head + R"td(def S : OpSet<"S", [Relu, Tanh], [Tanh, Relu]>;
def P : Pattern<T, (S:$a $x), (S:$b $x)>;
)td");
  D.rejects(D.at(6, 1) + "pattern 'P': the result's capture '$b' names no "
                         "operator of the source\n");
}

TEST_CASE("diagnostic: pattern result set missing what the capture matches") {
  Td D(Head + R"td(def S : OpSet<"S", [Relu, Tanh], [Tanh, Relu]>;
def S2 : OpSet<"S2", [Relu, Logistic]>;
def P : Pattern<T, (S2:$a $x), (S:$a $x)>;
)td");
  D.rejects(D.at(7, 1) + "pattern 'P': '$a' may match 'Logistic', which op "
                         "set 'S' does not list, so the result is unknown\n");
}

TEST_CASE("diagnostic: pattern result operand that is not a $name") {
  Td D(Head + R"td(def P : Pattern<T, (Add $x, $y), (Add $x, (Relu $y))>;
def Q : Pattern<T, (Add $x, $y), (Add ?, $y)>;
)td");
  D.rejects(
      D.at(5, 1) + "pattern 'P': operand 1 of the result must be a $name\n" +
      D.at(6, 1) + "pattern 'Q': operand 0 of the result must be a $name\n");
}

TEST_CASE("diagnostic: pattern capture bound twice") {
  Td D(Head + "def P : Pattern<T, (Relu:$a (Relu:$a $x)), (Relu $x)>;\n");
  D.rejects(D.at(5, 1) + "pattern 'P': capture 'a' is bound twice\n");
}

TEST_CASE("diagnostic: pattern value bound twice") {
  // Also when the name already names a matched operator.
  Td D(Head + R"td(def P : Pattern<T, (Add $x, $x), (Relu $x)>;
def Q : Pattern<T, (Relu:$x $x), (Relu $x)>;
)td");
  D.rejects(D.at(5, 1) + "pattern 'P': value '$x' is bound twice\n" +
            D.at(6, 1) + "pattern 'Q': value '$x' is bound twice\n");
}

TEST_CASE("diagnostic: pattern operator given too many operands") {
  Td D(Head + "def P : Pattern<T, (Relu $x, $y), (Add $x, $y)>;\n");
  D.rejects(D.at(5, 1) +
            "pattern 'P': 'Relu' takes 1 operands, the pattern gives 2\n");
}

TEST_CASE("diagnostic: pattern result capture not bound in the source") {
  Td D(Head + "def P : Pattern<T, (Relu $x), (Add $x, $y)>;\n");
  D.rejects(D.at(5, 1) + "pattern 'P': capture '$y' is used in the result but "
                         "not bound in the source\n");
}

//===----------------------------------------------------------------------===//
// Kernel families (accelgen-tblgen -gen-kernel-*)
//===----------------------------------------------------------------------===//

/// A kernel library description: ops.td, then a family F on lines 2 on
/// whose body is \p Body, and \p After.
std::string family(llvm::StringRef Body, llvm::StringRef After = "") {
  return (R"td(include "ops.td"
def F : KernelFamily<"fam", "fam", "famOp"> {
)td" + Body +
          "}\n" + After)
      .str();
}

const char *const GoodFields =
    "  let Fields = [KernelField<\"a\", \"int32_t\">];\n";
const char *const GoodArgs =
    "  let Args = [KernelArg<\"params\", \"params\">, "
    "KernelArg<\"output\", \"output\", -1, \"out\">];\n";
const char *const GoodInstances =
    "  let Instances = [KernelInstance<Relu, \"fam\", i8>];\n";

/// Runs -gen-kernel-params on \p D (templates looked for in \p TemplateDir)
/// and checks it is rejected with exactly \p Expected.
void rejectsLibrary(const Td &D, const std::string &Expected,
                    const std::string &TemplateDir = "") {
  std::vector<std::string> Args = {"-gen-kernel-params", D.path()};
  if (!TemplateDir.empty()) {
    Args.push_back("--template-dir");
    Args.push_back(TemplateDir);
  }
  test::RunResult R = test::runProgram(ACCELGEN_TBLGEN, Args);
  INFO(R.ErrorMessage);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == Expected);
  CHECK(R.Stdout == "");
}

TEST_CASE("a kernel library in .yaml generates what the same .td does") {
  // twin.td and twin.yaml declare the same two families, using every part
  // of a family declaration; each kernel library action must give the same
  // bytes from either.
  const std::string Stem = ACCELGEN_SOURCE_DIR "/tests/gen/kernels/twin";
  for (const char *Action : {"params", "table", "instances"}) {
    test::RunResult Td = test::runProgram(
        ACCELGEN_TBLGEN, {std::string("-gen-kernel-") + Action, Stem + ".td"});
    test::RunResult Yaml =
        test::runProgram(ACCELGEN_TBLGEN, {std::string("-gen-kernel-") + Action,
                                           Stem + ".yaml"});
    INFO(Action << ": " << Td.Stderr << Yaml.Stderr);
    REQUIRE(Td.ExitCode == 0);
    REQUIRE(Yaml.ExitCode == 0);
    CHECK(Yaml.Stdout == Td.Stdout);
    // Both families, with the function the wide instance names.
    // Both families (the instances list the rendered one only), with the
    // function the wide instance names.
    CHECK(llvm::StringRef(Td.Stdout).contains("twin_window"));
    if (llvm::StringRef(Action) != "instances")
      CHECK(llvm::StringRef(Td.Stdout).contains("twin_move"));
    if (llvm::StringRef(Action) != "params")
      CHECK(llvm::StringRef(Td.Stdout).contains("twin_window_i16_i16_wide"));
  }
}

/// \p Text written as \p Name in \p Dir; its path.
std::string writeIn(const test::TempDir &Dir, const std::string &Name,
                    llvm::StringRef Text) {
  const std::string Path = Dir.file(Name);
  test::writeFileBytes(Path, llvm::arrayRefFromStringRef(Text));
  return Path;
}

TEST_CASE("diagnostic: a kernel family declared by a YAML target") {
  // As in TableGen: the same checks, at the family's key.
  test::TempDir Dir;
  const std::string Path = writeIn(Dir, "t.yaml", R"(target:
  name: t
  versions: ["1.0"]
  backend: ref-kernels
  cpu_fallback: ""
kernel_families:
  MyFloor:
    library: t
    name: my_floor
    template: my_floor
    builder: myFloorOp
    fields: [{name: unused, ctype: int32_t}]
    args: [{kind: params, name: params}, {kind: count, name: count},
           {kind: data, name: input, operand: 0, elem: in},
           {kind: output, name: output, elem: out}]
    instances: [{op: Floor, stem: floor, type: i8}]
legal:
  - {op: Floor, since: "1.0", types: [i8]}
)");
  test::RunResult R = test::runProgram(ACCELGEN_TBLGEN, {"-dump-model", Path});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr ==
        Path + ":7:3: error: kernel family 'MyFloor' computes FLOOR, which "
               "kernel family 'UnaryMathKernels' computes already; a target's "
               "own family computes operators no other family does\n");
}

TEST_CASE("diagnostic: mistakes in a YAML kernel library") {
  // The checks TableGen's types make for a .td (an operator record, a DType
  // record, an int) are made here, each at its place.
  test::TempDir Dir;
  auto Rejects = [&](llvm::StringRef Body, const std::string &Expected) {
    const std::string Path = writeIn(Dir, "k.yaml",
                                     (R"(kernel_families:
  F:
    name: fam
    template: fam
    builder: famOp
    fields: [{name: a, ctype: int32_t}]
    args: [{kind: params, name: params}, {kind: output, name: output, elem: out}]
)" + Body)
                                         .str());
    test::RunResult R =
        test::runProgram(ACCELGEN_TBLGEN, {"-gen-kernel-params", Path});
    CHECK(R.ExitCode == 1);
    CHECK(R.Stdout == "");
    CHECK(R.Stderr == Path + Expected);
  };
  Rejects("    instances: [{op: Flor, stem: fam, type: i8}]\n",
          ":2:3: error: kernel family 'F': instance 'fam' computes an unknown "
          "operator 'Flor'\n");
  Rejects("    instances: [{op: Floor, stem: fam, type: i9}]\n",
          ":2:3: error: kernel family 'F': instance 'fam' has type 'i9' "
          "(expected one of: i8, u8, i16, i32, i64, f16, f32, bool, u32)\n");
  Rejects("    instances: [{op: Floor, stem: fam, typ: i8}]\n",
          ":8:40: error: unknown key 'typ' in kernel family 'F': an "
          "instance; did you mean 'type'?\n");
  Rejects("    instances: [{op: Floor, stem: fam}]\n"
          "    doc: [not, text]\n",
          ":9:10: error: 'doc' must be a string\n");
  Rejects("    instances: [{op: Floor, stem: fam, type: i8}]\n"
          "    library: t\n    rendered: maybe\n",
          ":10:15: error: 'rendered' must be true or false\n");
  Rejects("    instances: [{op: Floor, stem: fam, type: i8}]\n"
          "    args: []\n",
          ":9:5: error: duplicate key 'args' in kernel family 'F'\n");
  // An operand index that is not an int, or far out of range.
  for (const auto &Case :
       {std::pair<std::string, std::string>{
            "one", ":8:43: error: 'operand' must be an integer, not 'one'\n"},
        {"99999999999",
         ":2:3: error: kernel family 'F': argument 'x' has operand index "
         "99999999999 (expected 0 to 1024, or none)\n"}}) {
    const std::string Path = writeIn(Dir, "operand.yaml", R"(kernel_families:
  F:
    name: fam
    template: fam
    builder: famOp
    fields: [{name: a, ctype: int32_t}]
    args: [{kind: params, name: params}, {kind: output, name: output, elem: out},
           {kind: data, name: x, operand: )" + Case.first + R"(, elem: in}]
    instances: [{op: Floor, stem: fam, type: i8}]
)");
    test::RunResult R =
        test::runProgram(ACCELGEN_TBLGEN, {"-gen-kernel-params", Path});
    CHECK(R.ExitCode == 1);
    CHECK(R.Stderr == Path + Case.second);
  }
  // A library is families only; a target's keys are not one.
  const std::string Mixed = writeIn(Dir, "mixed.yaml", "target: {name: t}\n");
  test::RunResult R =
      test::runProgram(ACCELGEN_TBLGEN, {"-gen-kernel-params", Mixed});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == Mixed +
                        ":1:1: error: unknown key 'target' in the kernel "
                        "library (keys: kernel_families)\n" +
                        Mixed +
                        ":1:1: error: missing key 'kernel_families' in "
                        "the kernel library\n");
}

TEST_CASE("a well-formed kernel family generates its struct") {
  Td D(family(std::string(GoodFields) + GoodArgs + GoodInstances));
  test::RunResult R =
      test::runProgram(ACCELGEN_TBLGEN, {"-gen-kernel-params", D.path()});
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(llvm::StringRef(R.Stdout).contains(
      "typedef struct ref_fam_params {\n  int32_t a;\n} ref_fam_params;\n"));
}

TEST_CASE("diagnostic: kernel field of an unknown C type") {
  Td D(family(std::string("  let Fields = [KernelField<\"a\", \"long\">];\n") +
              GoodArgs + GoodInstances));
  rejectsLibrary(D, D.at(2, 1) + "kernel family 'F': field 'a' has C type "
                                 "'long' (expected one of: int8_t, int16_t, "
                                 "int32_t, int64_t, uint8_t, uint16_t, "
                                 "uint32_t, uint64_t, size_t, float, "
                                 "double)\n");
}

TEST_CASE("diagnostic: kernel field declared twice") {
  Td D(family(std::string("  let Fields = [KernelField<\"a\", \"int32_t\">, "
                          "KernelField<\"a\", \"float\">];\n") +
              GoodArgs + GoodInstances));
  rejectsLibrary(D, D.at(2, 1) +
                        "kernel family 'F': field 'a' is declared twice\n");
}

TEST_CASE("diagnostic: kernel argument of an unknown kind") {
  Td D(family(std::string(GoodFields) +
              "  let Args = [KernelArg<\"params\", \"params\">, "
              "KernelArg<\"output\", \"output\", -1, \"out\">, "
              "KernelArg<\"stride\", \"s\">];\n" +
              GoodInstances));
  rejectsLibrary(D, D.at(2, 1) + "kernel family 'F': argument 's' has unknown "
                                 "kind 'stride' (expected one of: params, "
                                 "fields, shape, data, output_shape, output, "
                                 "count, element_size, input_shapes, "
                                 "inputs, state, result, scratch)\n");
}

TEST_CASE("diagnostic: kernel data argument without an element type") {
  Td D(family(std::string(GoodFields) +
              "  let Args = [KernelArg<\"params\", \"params\">, "
              "KernelArg<\"data\", \"input\", 0>, "
              "KernelArg<\"output\", \"output\", -1, \"out\">];\n" +
              GoodInstances));
  rejectsLibrary(D, D.at(2, 1) + "kernel family 'F': argument 'input' needs "
                                 "an element type (in, out, weights, acc, wide or "
                                 "any), not "
                                 "''\n");
}

TEST_CASE("diagnostic: kernel family without an output argument") {
  Td D(family(std::string(GoodFields) +
              "  let Args = [KernelArg<\"params\", \"params\">];\n" +
              GoodInstances));
  rejectsLibrary(D, D.at(2, 1) + "kernel family 'F': needs exactly one "
                                 "argument of kind output\n");
}

TEST_CASE("diagnostic: kernel function declared by two families") {
  Td D(family(
      std::string(GoodFields) + GoodArgs + GoodInstances,
      std::string("def G : KernelFamily<\"gam\", \"gam\", \"gamOp\"> {\n") +
          GoodFields + GoodArgs + GoodInstances + "}\n"));
  rejectsLibrary(D, D.at(7, 1) + "kernel family 'G': another family already "
                                 "declares ref_fam_i8\n");
}

TEST_CASE("diagnostic: kernel field both a pointer and a fixed array") {
  Td D(std::string(R"td(include "ops.td"
def A : PointerField<"a", "int32_t"> { let Length = "4"; }
def F : KernelFamily<"fam", "fam", "famOp"> {
  let Fields = [A];
)td") + GoodArgs +
       GoodInstances + "}\n");
  rejectsLibrary(D, D.at(3, 1) + "kernel family 'F': field 'a' is both a "
                                 "pointer and a fixed array\n");
}

TEST_CASE("diagnostic: kernel shape argument without an operand") {
  Td D(family(std::string(GoodFields) +
              "  let Args = [KernelArg<\"params\", \"params\">, "
              "KernelArg<\"shape\", \"s\">, "
              "KernelArg<\"output\", \"output\", -1, \"out\">];\n" +
              GoodInstances));
  rejectsLibrary(D, D.at(2, 1) + "kernel family 'F': argument 's' needs an "
                                 "operand index\n");
}

TEST_CASE("diagnostic: optional kernel argument that is not data") {
  Td D(std::string(R"td(include "ops.td"
def N : KernelArg<"count", "n"> { let Optional = 1; }
def F : KernelFamily<"fam", "fam", "famOp"> {
)td") + GoodFields +
       "  let Args = [KernelArg<\"params\", \"params\">, N, "
       "KernelArg<\"output\", \"output\", -1, \"out\">];\n" +
       GoodInstances + "}\n");
  rejectsLibrary(D, D.at(3, 1) + "kernel family 'F': argument 'n' of kind "
                                 "count cannot be optional\n");
}

TEST_CASE("diagnostic: kernel results without their index, written twice or "
          "with a gap, and scratch memory taken twice") {
  // A call writing every result names each past the output once, from 1 up
  // (TFLite_Detection_PostProcess's four); its working memory is one
  // argument.
  auto Family = [](const std::string &Extra) {
    return std::string(R"td(include "ops.td"
def F : KernelFamily<"fam", "fam", "famOp"> {
)td") + GoodFields +
           "  let Args = [KernelArg<\"params\", \"params\">, "
           "KernelArg<\"output\", \"output\", -1, \"out\">" +
           Extra + "];\n" + GoodInstances + "}\n";
  };
  Td NoIndex(Family(", KernelArg<\"result\", \"r\", -1, \"out\">"));
  rejectsLibrary(NoIndex,
                 NoIndex.at(2, 1) +
                     "kernel family 'F': argument 'r' needs the index of the "
                     "result it writes, 1 or more (result 0 is the output)\n");
  // A data argument without its operand, likewise reported, not a crash.
  Td NoOperand(Family(", KernelArg<\"data\", \"d\", -1, \"in\">"));
  rejectsLibrary(NoOperand, NoOperand.at(2, 1) +
                                "kernel family 'F': argument 'd' needs an "
                                "operand index\n");
  Td Twice(Family(", KernelArg<\"result\", \"a\", 1, \"out\">, "
                  "KernelArg<\"result\", \"b\", 1, \"out\">"));
  rejectsLibrary(Twice, Twice.at(2, 1) + "kernel family 'F': argument 'b' "
                                         "writes result 1 again\n");
  Td Gap(Family(", KernelArg<\"result\", \"a\", 2, \"out\">"));
  rejectsLibrary(Gap, Gap.at(2, 1) + "kernel family 'F': writes results up "
                                     "to 2 but not result 1\n");
  Td Scratch(Family(", KernelArg<\"scratch\", \"s\">, "
                    "KernelArg<\"scratch\", \"t\">"));
  rejectsLibrary(Scratch, Scratch.at(2, 1) + "kernel family 'F': takes "
                                             "scratch memory twice\n");
  Td Good(Family(", KernelArg<\"scratch\", \"s\">, "
                 "KernelArg<\"result\", \"a\", 1, \"out\">"));
  test::RunResult R =
      test::runProgram(ACCELGEN_TBLGEN, {"-gen-kernel-table", Good.path()});
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(llvm::StringRef(R.Stdout).contains(
      "REF_KERNEL_CALL(ref_fam_i8, fam, ref_fam_params, "
      "REF_KERNEL_ARG_PARAMS(fam), REF_KERNEL_ARG_OUTPUT(I8), "
      "REF_KERNEL_ARG_SCRATCH, REF_KERNEL_ARG_RESULT(1, I8))"));
}

TEST_CASE("diagnostic: kernel instance with an output type but no input "
          "type") {
  Td D(family(std::string(GoodFields) + GoodArgs +
              "  let Instances = [KernelInstance<Relu, \"fam\", AnyElement, "
              "i8>];\n"));
  rejectsLibrary(D, D.at(2, 1) + "kernel family 'F': instance 'fam' names an "
                                 "output type without an input type\n");
}

TEST_CASE("diagnostic: kernel family without functions") {
  Td D(family(std::string(GoodFields) + GoodArgs));
  rejectsLibrary(D, D.at(2, 1) + "kernel family 'F': declares no function\n");
}

TEST_CASE("diagnostic: kernel family whose template does not exist") {
  test::TempDir Templates;
  Td D(family(std::string(GoodFields) + GoodArgs + GoodInstances));
  const std::string Missing = Templates.path() + "/ref/fam.h.in";
  rejectsLibrary(D,
                 D.at(2, 1) + "kernel family 'F': '" + Missing +
                     "' does not exist\n" + D.at(2, 1) +
                     "kernel family 'F': '" + Templates.path() +
                     "/ref/fam.c.in' does not exist\n",
                 Templates.path());
}

//===----------------------------------------------------------------------===//
// Cost estimates
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: negative switch cycles") {
  Td D(R"td(include "ops.td"
def V1 : Version<"1.0">;
def T : Target<"t", [V1]> { let SwitchCycles = -5; }
)td");
  D.rejects(D.at(3, 1) +
            "target 't': switch cycles must not be negative, found -5\n");
}

TEST_CASE("diagnostic: cost at an unknown version") {
  Td D(Head + R"td(def V3 : Version<"3.0">;
def : Cost<Relu, T, V3, "1">;
)td");
  D.rejects(D.at(6, 1) +
            "unknown version '3.0' of target 't' (versions: 1.0, 2.0)\n");
}

TEST_CASE("diagnostic: two costs for one operator and version") {
  Td D(Head + R"td(def : Cost<Relu, T, V1, "1">;
def : Cost<Relu, T, V2, "2">;
def : Cost<Relu, T, V1, "3">;
)td");
  D.rejects(D.at(7, 1) +
            "operator 'Relu' already has a cost for version 1.0 (at " +
            D.path() + ":5:1)\n");
}

TEST_CASE("diagnostic: a target operator's cost or scratch reads macs") {
  // `macs` counts by the framework operator's type, which a target operator
  // does not have: it would read 0, and the choice between candidates would
  // take the operator whose cost reads it.
  Td D(Head + R"td(def MyConv : TargetOp<T, "T_CONV", [Input, Filter]>;
def : Cost<MyConv, T, V1, "macs / 4">;
def : Scratch<MyConv, T, V1, "macs">;
)td");
  D.rejects(D.at(6, 28) +
            "the cost of target operator 'MyConv' reads 'macs', which counts "
            "a framework operator's; spell the product out from its "
            "operands\n" +
            D.at(7, 31) +
            "the scratch size of target operator 'MyConv' reads 'macs', "
            "which counts a framework operator's; spell the product out "
            "from its operands\n");
}

TEST_CASE("diagnostic: cost expression that is not a number") {
  // Located at the expression's first column, within the string.
  Td D(Head + R"td(def : Cost<Relu, T, V1, "input(0).rank == 4">;
)td");
  D.rejects(D.at(5, 26) +
            "cost of 'Relu' from version 1.0: expression must be numeric "
            "(int or float), found bool (column 1 of "
            "\"input(0).rank == 4\")\n");
}

TEST_CASE("diagnostic: type error in a cost expression") {
  Td D(Head + R"td(def : Cost<Conv2D, T, V1, "max(macs, padding)">;
def : Cost<Add, T, V2,
           "align(input(0).channels, 16) / ceil(stride_h)">;
)td");
  D.rejects(D.at(5, 38) +
            "cost of 'Conv2D' from version 1.0: function 'max' needs numeric "
            "arguments, found 'string' (column 11 of "
            "\"max(macs, padding)\")\n" +
            D.at(7, 49) +
            "cost of 'Add' from version 2.0: unknown attribute 'stride_h' "
            "(column 37 of \"align(input(0).channels, 16) / "
            "ceil(stride_h)\")\n");
}

//===----------------------------------------------------------------------===//
// Scratch sizes
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: two scratch sizes for one operator and version") {
  Td D(Head + R"td(def : Scratch<Conv2D, T, V1, "1">;
def : Scratch<Conv2D, T, V1, "2">;
)td");
  D.rejects(D.at(6, 1) +
            "operator 'Conv2D' already has a scratch size for version 1.0 "
            "(at " +
            D.path() + ":5:1)\n");
}

TEST_CASE("diagnostic: scratch size that is not an int") {
  // Located at the expression's first column, within the string.
  Td D(Head + R"td(def : Scratch<Conv2D, T, V1, "input(0).channels * 1.5">;
def : Scratch<Add, T, V2, "input(0).rank == 4">;
)td");
  D.rejects(D.at(5, 31) +
            "scratch size of 'Conv2D' from version 1.0: expression must be an "
            "int, found float (column 1 of \"input(0).channels * 1.5\")\n" +
            D.at(6, 28) +
            "scratch size of 'Add' from version 2.0: expression must be an "
            "int, found bool (column 1 of \"input(0).rank == 4\")\n");
}

TEST_CASE("diagnostic: unknown attribute in a scratch size") {
  Td D(Head + R"td(def : Scratch<Add, T, V1, "stride_w * 4">;
)td");
  D.rejects(D.at(5, 28) + "scratch size of 'Add' from version 1.0: unknown "
                          "attribute 'stride_w' (column 1 of "
                          "\"stride_w * 4\")\n");
}

//===----------------------------------------------------------------------===//
// Device semantics
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: a layout programs do not record") {
  Td D(Head + "def L : Layout<\"32C\">;\n");
  D.rejects(D.at(5, 1) + "layout 'L' is named '32C'; accelerator programs "
                         "record the layouts NHWC, 4C, 16C\n");
}

TEST_CASE("diagnostic: a layout with negative padding") {
  Td D(Head + "def L : Layout<\"16C\"> { let ChannelBytes = -16; }\n");
  D.rejects(D.at(5, 1) +
            "layout 'L': the channel limit and paddings must not be "
            "negative\n");
}

TEST_CASE("diagnostic: two layouts of one name") {
  Td D(Head + "def L : Layout<\"16C\">;\ndef M : Layout<\"16C\">;\n");
  D.rejects(D.at(6, 1) + "layout 'M' has the name '16C' of layout 'L' (at " +
            D.path() + ":5:1)\n");
}

TEST_CASE("diagnostic: a device layout rule without a layout") {
  Td D(Head + "def : Legal<Relu, T, V1, [i8]>;\n"
              "def : DeviceLayout<T, V1, [], []>;\n");
  D.rejects(D.at(6, 1) + "a device layout rule lists no layout\n");
}

TEST_CASE("diagnostic: a layout listed twice in one rule") {
  Td D(Head + "def L : Layout<\"16C\">;\n"
              "def : DeviceLayout<T, V1, [], [L, L]>;\n");
  D.rejects(D.at(6, 1) +
            "layout 'L' is listed twice in a device layout rule\n");
}

TEST_CASE("diagnostic: two device layout rules for one operator and version") {
  Td D(Head + "def L : Layout<\"16C\">;\n"
              "def : Legal<Relu, T, V1, [i8]>;\n"
              "def : DeviceLayout<T, V2, [Relu], [L]>;\n"
              "def : DeviceLayout<T, V2, [Relu], [L]>;\n");
  D.rejects(D.at(8, 1) +
            "operator 'Relu' already has a device layout rule "
            "for version 2.0 (at " +
            D.path() + ":7:1)\n");
}

TEST_CASE("diagnostic: a device rule for an operator the target never runs") {
  Td D(Head + "def L : Layout<\"16C\">;\n"
              "def : DeviceLayout<T, V1, [Relu], [L]>;\n"
              "def : DeviceResidency<T, V1, [Relu], FusedIntermediates>;\n");
  D.rejects(D.at(6, 1) +
            "operator 'Relu' has a device layout rule but is "
            "legal at no version of target 't'\n" +
            D.at(7, 1) +
            "operator 'Relu' has a device residency rule but "
            "is legal at no version of target 't'\n");
}

TEST_CASE("diagnostic: a storage conversion programs do not make") {
  Td D(Head + "def : DeviceStorage<T, V1, i8, AsymmetricPerTensor, i16>;\n");
  D.rejects(D.at(5, 1) + "activations of type 'i8' cannot be stored as "
                         "'i16': the one conversion accelerator programs "
                         "make is i8 stored as u8 (q + 128, zero point + "
                         "128)\n");
}

TEST_CASE("diagnostic: two storage rules for one type, scheme and version") {
  Td D(Head + "def : DeviceStorage<T, V1, i8, AsymmetricPerTensor, u8>;\n"
              "def : DeviceStorage<T, V1, i8, AsymmetricPerTensor, i8>;\n");
  D.rejects(D.at(6, 1) +
            "activations of type 'i8' quantized "
            "asymmetric_per_tensor already have a storage rule "
            "for version 1.0 (at " +
            D.path() + ":5:1)\n");
}

TEST_CASE("diagnostic: two residency rules for every operator at a version") {
  Td D(Head + "def : DeviceResidency<T, V1, [], FusedIntermediates>;\n"
              "def : DeviceResidency<T, V1, [], NoIntermediates>;\n");
  D.rejects(D.at(6, 1) +
            "every operator already has a device residency "
            "rule for version 1.0 (at " +
            D.path() + ":5:1)\n");
}

TEST_CASE("diagnostic: a shared constraint reads an attribute its operator "
          "lacks") {
  // Reported at each rule applying it to an operator without the attribute,
  // whether that use comes first (Softmax) or after one that has it
  // (Conv2D): Legal, Mapping (its from-operator), QuantRule check, and a
  // pattern, whose capture resolves to the captured operator.
  Td D(
      Head +
      R"td(def NoAct : Constraint<"no_act", "fused_activation == \"NONE\"", "s">;
def : Legal<Softmax, T, V1, [i8], [NoAct]>;
def : Legal<Conv2D, T, V1, [i8], [NoAct]>;
def : Mapping<Relu, Softmax, T, [NoAct]>;
def : QuantRule<Relu, T, QuantCheck> { let Check = NoAct; }
def ActNone : Constraint<"act_none", "act.fused_activation == \"NONE\"", "s">;
def P : Pattern<T, (Relu:$act (Conv2D $x, $w, $b)), (Conv2D $x, $w, $b),
                [ActNone]>;
)td");
  D.rejects(D.at(6, 1) +
            "constraint 'no_act' reads attribute 'fused_activation', which "
            "operator 'Softmax' does not have\n" +
            D.at(8, 1) +
            "constraint 'no_act' reads attribute 'fused_activation', which "
            "operator 'Relu' does not have\n" +
            D.at(9, 1) +
            "constraint 'no_act' reads attribute 'fused_activation', which "
            "operator 'Relu' does not have\n" +
            D.at(11, 1) +
            "constraint 'act_none' reads attribute 'act.fused_activation', "
            "which operator 'Relu' does not have\n");
}

TEST_CASE("diagnostic: a shared constraint that does not fit another "
          "operator") {
  Td D(Head +
       R"td(def BiasI32 : Constraint<"bias_i32", "input(2).dtype == i32", "s">;
def : Legal<Conv2D, T, V1, [i8], [BiasI32]>;
def : Legal<Relu, T, V1, [i8], [BiasI32]>;
)td");
  D.rejects(D.at(7, 1) +
            "constraint 'bias_i32' does not fit operator 'Relu': operand "
            "index 2 out of range (operator has 1 input) (column 7 of "
            "\"input(2).dtype == i32\")\n");
}

TEST_CASE("diagnostic: a shared constraint that does not fit a pattern") {
  // A pattern names what it reads through captures (`conv.stride_h`).
  Td D(Head + R"td(def Stride1 : Constraint<"stride_1", "stride_h == 1", "s">;
def : Legal<Conv2D, T, V1, [i8], [Stride1]>;
def P : Pattern<T, (Relu (Conv2D:$conv $x, $w, $b)), (Conv2D $x, $w, $b),
                [Stride1]>;
)td");
  D.rejects(D.at(7, 1) +
            "constraint 'stride_1' does not fit pattern 'P': unknown "
            "attribute 'stride_h' (column 1 of \"stride_h == 1\")\n");
}

//===----------------------------------------------------------------------===//
// Backends
//===----------------------------------------------------------------------===//

TEST_CASE("diagnostic: a target that is its own CPU fallback") {
  Td D(R"td(include "kernels.td"
def V1 : Version<"1.0">;
def T : Target<"t", [V1]> {
  let Backend = RefKernels;
  let CpuFallback = "t";
}
)td");
  D.rejects(D.at(3, 1) + "target 't' cannot be its own CPU fallback; a "
                         "target running every operator on the host CPU "
                         "leaves CpuFallback empty\n");
}

TEST_CASE("a YAML description is read as YAML by any of its extensions and "
          "line ends") {
  // demo.yaml as .yml and .YAML, and with CR alone ending each line: the
  // same model as demo.yaml's.
  const std::string Yaml = ACCELGEN_SOURCE_DIR "/targets/demo/demo.yaml";
  test::RunResult Want = test::runProgram(ACCELGEN_TBLGEN, {"-dump-model", Yaml});
  REQUIRE(Want.ExitCode == 0);
  const std::string Text = test::readFileText(Yaml);
  std::string CrOnly = Text;
  std::replace(CrOnly.begin(), CrOnly.end(), '\n', '\r');
  test::TempDir Dir;
  for (const auto &[Name, Content] :
       {std::pair<std::string, std::string>{"demo.yml", Text},
        {"demo.YAML", Text},
        {"demo-cr.yaml", CrOnly}}) {
    const std::string Path = Dir.file(Name);
    test::writeFileBytes(Path, llvm::arrayRefFromStringRef(Content));
    test::RunResult R = test::runProgram(ACCELGEN_TBLGEN, {"-dump-model", Path});
    const std::string &NameRef = Name;
    INFO(NameRef << ": " << R.Stderr);
    CHECK(R.ExitCode == 0);
    CHECK(R.Stdout == Want.Stdout);
  }
}

TEST_CASE("descriptions TableGen would never finish reading") {
  // Each overflowed the stack or took the machine's memory; now one located
  // error line, before or while TableGen reads.
  SUBCASE("include cycles") {
    test::TempDir Dir;
    const std::string Self = Dir.file("self.td"), A = Dir.file("a.td"),
                      B = Dir.file("b.td");
    test::writeFileBytes(Self,
                         llvm::arrayRefFromStringRef("include \"self.td\"\n"));
    test::writeFileBytes(A, llvm::arrayRefFromStringRef("include \"b.td\"\n"));
    test::writeFileBytes(B, llvm::arrayRefFromStringRef(
                                "// b\n  include \"a.td\"\n"));
    test::RunResult R = test::runProgram(
        ACCELGEN_TBLGEN, {"-dump-model", "-I", Dir.path(), Self});
    CHECK(R.ExitCode == 1);
    CHECK(R.Stderr == Self + ":1:1: error: included file 'self.td' includes "
                             "itself (an include cycle)\n");
    R = test::runProgram(ACCELGEN_TBLGEN,
                         {"-dump-model", "-I", Dir.path(), A});
    CHECK(R.ExitCode == 1);
    CHECK(R.Stderr == Dir.path() + "/b.td:2:3: error: included file 'a.td' "
                                   "includes itself through 'b.td' (an "
                                   "include cycle)\n");
  }
  SUBCASE("5,000 nested !if") {
    std::string Deep = "include \"accelgen.td\"\ndef X { int v = ";
    for (int I = 0; I < 5000; ++I)
      Deep += "!if(1, ";
    Deep += "0";
    for (int I = 0; I < 5000; ++I)
      Deep += ", 0)";
    Deep += "; }\n";
    Td D(Deep);
    // The 257th bracket: "def X { int v = " is 16 columns, each "!if(" 7
    // with its bracket the 4th.
    D.rejects(D.at(2, 16 + 256 * 7 + 4) +
              "brackets nested deeper than 256 levels\n");
  }
  SUBCASE("a chain of 10,000 classes") {
    std::string Chain = "class C0 { int v = 0; }\n";
    for (int I = 1; I <= 10000; ++I)
      Chain += "class C" + std::to_string(I) + " : C" + std::to_string(I - 1) +
               ";\n";
    Td D(Chain);
    // Class C1000 is on line 1,001 and inherits through 1,001 classes.
    D.rejects(D.at(1001, 1) +
              "the class inherits through more than 1000 classes\n");
  }
  SUBCASE("a string doubled 40 times") {
#if defined(__SANITIZE_ADDRESS__) || defined(ACCELGEN_TEST_ASAN)
    // Under AddressSanitizer the tool leaves its memory unbounded (the
    // sanitizer reserves far more address space than it uses).
    MESSAGE("skipped: built with AddressSanitizer");
    return;
#endif
    std::string Doubling = "defvar s0 = \"0123456789abcdef\";\n";
    for (int I = 1; I <= 40; ++I)
      Doubling += "defvar s" + std::to_string(I) + " = !strconcat(s" +
                  std::to_string(I - 1) + ", s" + std::to_string(I - 1) +
                  ");\n";
    Doubling += "def Y { string v = s40; }\n";
    Td D(Doubling);
    test::RunResult R = D.run();
    CHECK(R.ExitCode == 1);
    CHECK(R.Stderr == "error: " + D.path() +
                          ": evaluating the description takes more than 4 GiB "
                          "of memory (a string or list doubled many times?)\n");
  }
}
