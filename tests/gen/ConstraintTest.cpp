//===- ConstraintTest.cpp - The constraint language, parse to emitted text -===//
//
// Every diagnostic of the constraint language with its exact message and
// column; the canonical and word renderings; the boundary cases derived from
// integer terms; the exact C++ emitted for a few checks; and the runtime the
// emitted checks call, on absent operands and odd values. Checks compiled
// from emitted code and run on graphs are in ConstraintCheckTest.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "constraint/Constraint.h"
#include "target/ConstraintRuntime.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
#include <optional>
#include <random>

using namespace accelgen;
using namespace accelgen::gen::constraint;

namespace {

/// A CONV_2D-like operator: three operands, one result.
Scope convScope() {
  Scope S;
  S.Attrs = {{"stride_h", AttrInfo::Int},     {"stride_w", AttrInfo::Int},
             {"filter_h", AttrInfo::Int},     {"filter_w", AttrInfo::Int},
             {"depth_multiplier", AttrInfo::Int},
             {"padding", AttrInfo::String},   {"beta", AttrInfo::Float},
             {"flag", AttrInfo::Bool},        {"dilations", AttrInfo::Ints}};
  S.NumOperands = 3;
  S.NumResults = 1;
  return S;
}

/// A two-operator fusion pattern: `act` reading `conv`.
Scope patternScope() {
  Scope S;
  S.Captures["conv"] = convScope();
  S.Captures["act"] = convScope();
  S.Captures["act"].NumOperands = 1;
  return S;
}

struct Failure {
  unsigned Column = 0;
  std::string Message;
};

/// The error \p Text gives in \p S, or nullopt when it parses.
std::optional<Failure> failure(llvm::StringRef Text,
                               const Scope &S = convScope()) {
  auto E = parse(Text, S);
  if (E)
    return std::nullopt;
  Failure F;
  llvm::handleAllErrors(E.takeError(), [&](const ParseError &PE) {
    F.Column = PE.column();
    F.Message = PE.message();
  });
  return F;
}

std::unique_ptr<Expr> parsed(llvm::StringRef Text,
                             const Scope &S = convScope()) {
  auto E = parse(Text, S);
  if (!E) {
    FAIL_CHECK("does not parse: " << Text.str() << ": "
                                  << llvm::toString(E.takeError()));
    return nullptr;
  }
  return std::move(*E);
}

struct ErrorCase {
  const char *Text;
  unsigned Column;
  const char *Message;
};

void checkErrors(llvm::ArrayRef<ErrorCase> Cases,
                 const Scope &S = convScope()) {
  for (const ErrorCase &C : Cases) {
    std::string Text = C.Text;
    CAPTURE(Text);
    std::optional<Failure> F = failure(C.Text, S);
    REQUIRE(F);
    CHECK(F->Message == C.Message);
    CHECK(F->Column == C.Column);
  }
}

std::string describeText(llvm::StringRef Text, const Scope &S = convScope()) {
  auto E = parsed(Text, S);
  return E ? describe(*E) : "";
}

std::string printText(llvm::StringRef Text, const Scope &S = convScope()) {
  auto E = parsed(Text, S);
  return E ? print(*E) : "";
}

/// Boundary cases as "ref=value:accept|reject" strings.
std::vector<std::string> boundaries(llvm::StringRef Text,
                                    const Scope &S = convScope()) {
  std::vector<std::string> Out;
  auto E = parsed(Text, S);
  if (!E)
    return Out;
  for (const BoundaryCase &C : boundaryCases(*E))
    Out.push_back(C.Ref + "=" + std::to_string(C.Value) + ":" +
                  (C.Accept ? "accept" : "reject"));
  return Out;
}

/// Probe cases as "label: accept", "label: reject" or "label: not
/// constructible: why"; or "not probed: why".
std::vector<std::string> probes(llvm::StringRef Text,
                                const Scope &S = convScope()) {
  auto E = parsed(Text, S);
  if (!E)
    return {};
  ProbeSet P = probeCases(*E);
  if (!P.NotProbed.empty())
    return {"not probed: " + P.NotProbed};
  std::vector<std::string> Out;
  for (const ProbeCase &C : P.Cases)
    Out.push_back(C.Label + ": " +
                  (!C.NotConstructible.empty()
                       ? "not constructible: " + C.NotConstructible
                       : C.Accept ? "accept"
                                  : "reject"));
  return Out;
}

std::string emitted(llvm::StringRef Text, llvm::StringRef Summary,
                    CheckKind Kind = CheckKind::Operator,
                    const Scope &S = convScope()) {
  auto E = parsed(Text, S);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (E)
    emitCheck(OS, *E, "the_id", Summary, Kind);
  return OS.str();
}

/// Random well-typed expressions over a, f (float), t (bool) and a shape
/// property, mixing every operator, for round-trip tests.
class ExprGenerator {
public:
  std::string boolean(int Depth) {
    switch (Depth <= 0 ? pick(2) : pick(8)) {
    case 0:
      return pick(2) ? "t" : "input(0).is_constant";
    case 1:
      return pick(2) ? "true" : "!t";
    case 2:
      return number(Depth - 1) + (pick(2) ? " < " : " == ") +
             number(Depth - 1);
    case 3:
      return boolean(Depth - 1) + " && " + boolean(Depth - 1);
    case 4:
      return boolean(Depth - 1) + " || " + boolean(Depth - 1);
    case 5:
      return "!(" + boolean(Depth - 1) + ")";
    case 6:
      return number(Depth - 1) + " in [" + number(Depth - 1) + ", " +
             number(Depth - 1) + "]";
    default:
      return "(" + boolean(Depth - 1) + ") == (" + boolean(Depth - 1) + ")";
    }
  }

private:
  std::mt19937 Random{20261121};
  unsigned pick(unsigned N) { return Random() % N; }

  std::string number(int Depth) {
    switch (Depth <= 0 ? pick(4) : pick(14)) {
    case 0:
      return "a";
    case 1:
      return std::to_string(static_cast<int>(pick(7)) - 3);
    case 2:
      return "f";
    case 3:
      return "input(1).dim(-1)";
    case 4:
      return number(Depth - 1) + " - " + number(Depth - 1);
    case 5:
      return number(Depth - 1) + " * (" + number(Depth - 1) + ")";
    case 6:
      return "-" + number(Depth - 1);
    case 7:
      return "(" + number(Depth - 1) + " + " + number(Depth - 1) + ") / " +
             number(Depth - 1);
    case 8:
      return "-(" + number(Depth - 1) + ")";
    case 9:
      return (pick(2) ? "min(" : "max(") + number(Depth - 1) + ", " +
             number(Depth - 1) + ")";
    case 10:
      return (pick(2) ? "ceil(" : "floor(") + number(Depth - 1) + ")";
    case 11:
      return "align(ceil(" + number(Depth - 1) + "), a)";
    case 12:
      return "select(" + boolean(Depth - 1) + ", " + number(Depth - 1) + ", " +
             number(Depth - 1) + ")";
    default:
      return "macs - 1";
    }
  }
};

} // namespace

TEST_CASE("print output parses back to the same expression") {
  Scope S;
  S.Attrs = {{"a", AttrInfo::Int}, {"f", AttrInfo::Float},
             {"t", AttrInfo::Bool}};
  S.NumOperands = 2;
  ExprGenerator Gen;
  unsigned Checked = 0;
  for (int I = 0; I < 2000; ++I) {
    std::string Text = Gen.boolean(4);
    auto E = parse(Text, S);
    if (!E) { // a constant zero divisor
      llvm::consumeError(E.takeError());
      continue;
    }
    std::string Printed = print(**E);
    CAPTURE(Text);
    CAPTURE(Printed);
    auto Again = parse(Printed, S);
    REQUIRE(Again);
    CHECK(print(**Again) == Printed);
    // The emitted C++ shows the tree's structure (int arithmetic as calls).
    std::string First, Second;
    llvm::raw_string_ostream OS1(First), OS2(Second);
    emitCheck(OS1, **E, "x", "y");
    emitCheck(OS2, **Again, "x", "y");
    CHECK(OS1.str() == OS2.str());
    ++Checked;
  }
  CHECK(Checked > 1900);
}

TEST_CASE("the documented examples parse and type-check") {
  for (const char *Text :
       {"stride_h in [1, 4] && stride_w in [1, 4]", "input(1).is_constant",
        "input(1).dim(3) == input(0).channels * depth_multiplier",
        "padding == \"VALID\" || filter_h <= 15",
        "input(0).scale * input(1).scale < output(0).scale",
        "input(0).dtype in {i8, u8} && !input(1).per_channel",
        "input(0).dim(-1) % 4 == 0 && input(0).num_elements <= 1000000",
        "num_inputs == 3 && num_outputs == 1 && flag == false",
        "beta >= 0.5 && beta / 2 < 1 && -stride_h < 0",
        "input(0).zero_point in [-128, 127] && output(0).rank in {3, 4}"}) {
    std::string Source = Text;
    CAPTURE(Source);
    CHECK(parsed(Text));
  }
  CHECK(parsed("conv.stride_h <= 2 && "
               "act.input(0).zero_point == conv.output(0).zero_point",
               patternScope()));
}

TEST_CASE("a pattern names every operand through a capture") {
  // Unqualified, num_inputs and its kind would be no operator's: a pattern's
  // check has captured operators only (the emitter stops on such a name).
  for (const char *Name : {"num_inputs", "num_outputs", "macs", "op",
                           "input(0).rank", "output(0).rank"}) {
    const std::string Text = std::string(Name) + " == 1";
    CAPTURE(Text);
    std::optional<Failure> F = failure(Text, patternScope());
    REQUIRE(F);
    CHECK(F->Column == 1);
    const std::string Word = llvm::StringRef(Name).take_until(
        [](char C) { return C == '('; }).str();
    CHECK(F->Message == "'" + Word +
                            "' names no captured operator; in a pattern, "
                            "qualify it with a capture ('act." +
                            Word + "')");
  }
  CHECK(parsed("conv.num_inputs == 3 && act.macs > 0", patternScope()));
}

TEST_CASE("macs and the built-in functions parse and type-check") {
  struct Typed {
    const char *Text;
    Type T;
  };
  for (const Typed &C : std::initializer_list<Typed>{
           {"macs", Type::Int},
           {"min(stride_h, 2)", Type::Int},
           {"max(stride_h, beta)", Type::Float},
           {"min(0.5, beta)", Type::Float},
           {"ceil(beta * 2)", Type::Int},
           {"floor(stride_h)", Type::Int},
           {"align(input(0).channels, 16)", Type::Int},
           {"select(flag, 1, 2)", Type::Int},
           {"select(stride_h > 1 && flag, macs / 64, beta)", Type::Float},
           {"max(min(1, 2), ceil(floor(beta)))", Type::Int},
       }) {
    std::string Text = C.Text;
    CAPTURE(Text);
    auto E = parseValue(C.Text, convScope());
    REQUIRE(E);
    CHECK((*E)->type() == C.T);
  }
  auto Macs = parsed("conv.macs > act.macs", patternScope());
  REQUIRE(Macs);
  const auto &Cmp = llvm::cast<BinaryExpr>(*Macs);
  const auto &Ref = llvm::cast<RefExpr>(Cmp.lhs()).ref();
  CHECK(Ref.K == Reference::Kind::Macs);
  CHECK(Ref.spelling() == "conv.macs");
  CHECK_FALSE(Ref.isProbeable());
}

TEST_CASE("function errors") {
  checkErrors({
      {"foo(1) == 1", 1,
       "unknown function 'foo' (functions: min, max, ceil, floor, align, "
       "select)"},
      {"stride_h(1) == 1", 1,
       "unknown function 'stride_h' (functions: min, max, ceil, floor, "
       "align, select)"},
      {"min(1) == 1", 6, "function 'min' takes 2 arguments"},
      {"max() == 1", 5, "function 'max' takes 2 arguments"},
      {"ceil(beta, 2) == 1", 12, "function 'ceil' takes 1 argument"},
      {"select(flag, 1, 2, 3) == 1", 20, "function 'select' takes 3 arguments"},
      {"min(1 2) == 1", 7, "expected ',' or ')', found '2'"},
      {"min(1, 2", 9, "expected ',' or ')', found end of expression"},
      {"min(flag, 1) == 1", 5,
       "function 'min' needs numeric arguments, found 'bool'"},
      {"max(1, padding) == 1", 8,
       "function 'max' needs numeric arguments, found 'string'"},
      {"ceil(flag) == 1", 6,
       "function 'ceil' needs a numeric argument, found 'bool'"},
      {"floor(input(0).dtype) == 1", 7,
       "function 'floor' needs a numeric argument, found 'dtype'"},
      {"align(beta, 4) == 1", 7,
       "function 'align' needs int arguments, found 'float'"},
      {"align(4, (1.5)) == 4", 10,
       "function 'align' needs int arguments, found 'float'"},
      {"select(stride_h, 1, 2) == 1", 8,
       "function 'select' needs a bool condition, found 'int'"},
      {"select(flag, 1, \"a\") == 1", 17,
       "function 'select' needs numeric values, found 'string'"},
      {"select(flag, flag, flag)", 14,
       "function 'select' needs numeric values, found 'bool'"},
      // Errors come in source order: the first argument before the second.
      {"min(flag, 1 + \"a\") == 1", 5,
       "function 'min' needs numeric arguments, found 'bool'"},
      {"min(1, 1 + \"a\") == 1", 10,
       "operator '+' needs numeric operands, found 'string'"},
      {"min(1, 2)", 1, "constraint must be a boolean expression, found int"},
      {"ceil(beta) == padding", 12,
       "type mismatch in comparison ('int' vs 'string')"},
      {"macs(1) == 1", 1,
       "unknown function 'macs' (functions: min, max, ceil, floor, align, "
       "select)"},
      {"macs == flag", 6, "type mismatch in comparison ('int' vs 'bool')"},
  });
  checkErrors({{"min(conv.stride_h, cv.macs) > 1", 20, "unknown capture 'cv'"}},
              patternScope());
}

TEST_CASE("a value must be numeric") {
  for (const ErrorCase &C : std::initializer_list<ErrorCase>{
           {"flag", 1, "expression must be numeric (int or float), found bool"},
           {"  padding", 3,
            "expression must be numeric (int or float), found string"},
           {"stride_h > 1", 1,
            "expression must be numeric (int or float), found bool"},
           {"input(0).dtype", 1,
            "expression must be numeric (int or float), found dtype"},
           {"macs / ", 8, "unexpected end of expression"},
           {"", 1, "empty expression"},
       }) {
    std::string Text = C.Text;
    CAPTURE(Text);
    auto E = parseValue(C.Text, convScope());
    REQUIRE(!E);
    llvm::handleAllErrors(E.takeError(), [&](const ParseError &PE) {
      CHECK(PE.message() == C.Message);
      CHECK(PE.column() == C.Column);
    });
  }
}

TEST_CASE("lexical errors") {
  checkErrors({
      {"padding == \"VALID", 12, "unterminated string"},
      {"padding == \"a\\", 12, "unterminated string"},
      {"padding == \"a\\qb\"", 14, "unknown escape sequence '\\q' in string"},
      {"stride_h @ 1", 10, "invalid character '@'"},
      {"stride_h = 1", 10, "unknown operator '=' (did you mean '=='?)"},
      {"flag & flag", 6, "unknown operator '&' (did you mean '&&'?)"},
      {"flag | flag", 6, "unknown operator '|' (did you mean '||'?)"},
      {"stride_h == 12abc", 13, "invalid number '12abc'"},
      {"beta < 1e", 8, "invalid number '1e'"},
  });
}

TEST_CASE("syntax errors") {
  checkErrors({
      {"", 1, "empty expression"},
      {"   ", 1, "empty expression"},
      {"stride_h <= ", 13, "unexpected end of expression"},
      {"stride_h == 1 )", 15, "unexpected token ')'"},
      {"stride_h == 1 stride_w", 15, "unexpected token 'stride_w'"},
      {"in", 1, "unexpected token 'in'"},
      {"(stride_h == 1", 15, "expected ')', found end of expression"},
      {"stride_h < 1 < 2", 14, "comparisons cannot be chained; use '&&'"},
      {"stride_h == 1 == flag", 15, "comparisons cannot be chained; use '&&'"},
      {"stride_h in (1, 2)", 13, "expected '[' or '{' after 'in', found '('"},
      {"stride_h in [1 2]", 16, "expected ',', found '2'"},
      {"stride_h in [1, 2", 18, "expected ']', found end of expression"},
      {"stride_h in {1, 2", 18, "expected '}', found end of expression"},
      {"stride_h in {}", 14, "a set needs at least one member"},
      {"stride_h == 99999999999999999999", 13, "integer literal out of range"},
      {"beta < 1e999", 8, "float literal out of range"},
      {"input(x).rank == 4", 7, "expected an operand index, found 'x'"},
      {"output(-1).rank == 4", 8, "expected a result index, found '-'"},
      {"input(0) == 4", 10, "expected '.', found '=='"},
      {"input(0).3 == 4", 10,
       "expected a property name after '.', found '3'"},
      {"input(0).dim == 4", 14, "expected '(', found '=='"},
      {"input(0).dim(a) == 4", 14,
       "expected an axis (an integer literal), found 'a'"},
      {"input(0).dim(65) == 4", 14, "axis 65 out of range"},
  });
}

TEST_CASE("name errors") {
  checkErrors({
      {"foo == 1", 1, "unknown attribute 'foo'"},
      {"stride_h == 1 && bar", 18, "unknown attribute 'bar'"},
      {"input == 1", 1, "unknown attribute 'input'"},
      {"input(0).bogus", 10, "unknown property 'bogus'"},
      {"output(0).dim(0) == input(0).shape", 30, "unknown property 'shape'"},
      {"input(3).rank == 4", 7,
       "operand index 3 out of range (operator has 3 inputs)"},
      {"output(1).rank == 4", 8,
       "result index 1 out of range (operator has 1 output)"},
      {"dilations == 1", 1,
       "attribute 'dilations' is a list ('ints'), which constraints cannot "
       "use"},
      {"conv.stride_h == 1", 1, "unknown capture 'conv'"},
  });
  checkErrors(
      {
          {"cv.stride_h <= 2", 1, "unknown capture 'cv'"},
          {"conv.foo <= 2", 6, "unknown attribute 'foo'"},
          {"conv.", 6, "expected a name after '.', found end of expression"},
          {"act.input(1).scale > 0.0", 11,
           "operand index 1 out of range (operator has 1 input)"},
          {"stride_h <= 2", 1, "unknown attribute 'stride_h'"},
          {"conv.input(0).bogus", 15, "unknown property 'bogus'"},
      },
      patternScope());
}

TEST_CASE("type errors") {
  checkErrors({
      {"stride_h", 1, "constraint must be a boolean expression, found int"},
      {"  stride_h + 1", 3,
       "constraint must be a boolean expression, found int"},
      {"padding", 1, "constraint must be a boolean expression, found string"},
      {"input(0).dtype", 1,
       "constraint must be a boolean expression, found dtype"},
      {"beta * 2", 1, "constraint must be a boolean expression, found float"},
      {"stride_h == padding", 10, "type mismatch in comparison ('int' vs "
                                  "'string')"},
      {"input(0).dtype == \"i8\"", 16,
       "type mismatch in comparison ('dtype' vs 'string')"},
      {"flag != 1", 6, "type mismatch in comparison ('bool' vs 'int')"},
      {"stride_h && flag", 10, "operator '&&' needs bool operands, found 'int'"},
      {"flag || padding", 6,
       "operator '||' needs bool operands, found 'string'"},
      {"padding < \"a\"", 9, "operator '<' needs numeric operands, found "
                             "'string'"},
      {"input(0).dtype >= i8", 16,
       "operator '>=' needs numeric operands, found 'dtype'"},
      {"!stride_h", 1, "operator '!' needs a bool operand, found 'int'"},
      {"-flag", 1, "operator '-' needs a numeric operand, found 'bool'"},
      {"stride_h + flag > 1", 10,
       "operator '+' needs numeric operands, found 'bool'"},
      {"padding * 2 > 1", 9,
       "operator '*' needs numeric operands, found 'string'"},
      {"beta % 2 == 0", 6, "operator '%' needs int operands, found 'float'"},
      {"stride_h / 0 == 1", 10, "division by zero"},
      {"stride_h % (2 - 2) == 1", 10, "division by zero"},
      {"padding in [1, 4]", 9, "a range needs a numeric value, found 'string'"},
      {"stride_h in [1, \"4\"]", 17, "range bounds must be numeric, found "
                                     "'string'"},
      {"stride_h in [4, 1]", 10, "range [4, 1] is empty"},
      {"input(0).dtype in {i8, 3}", 24,
       "type mismatch in set ('dtype' vs 'int')"},
      {"(stride_h == 1) < 2", 17,
       "type mismatch in comparison ('bool' vs 'int')"},
  });
}

TEST_CASE("the first error in source order is reported") {
  std::optional<Failure> F = failure("foo == bar");
  REQUIRE(F);
  CHECK(F->Message == "unknown attribute 'foo'");
  F = failure("stride_h == \"a\" && bogus");
  REQUIRE(F);
  CHECK(F->Message == "type mismatch in comparison ('int' vs 'string')");
  CHECK(F->Column == 10);
}

TEST_CASE("the error text names the column") {
  auto E = parse("stride_h == padding", convScope());
  REQUIRE(!E);
  std::string Logged;
  llvm::raw_string_ostream OS(Logged);
  llvm::handleAllErrors(E.takeError(),
                        [&](const ParseError &PE) { PE.log(OS); });
  CHECK(OS.str() ==
        "column 10: type mismatch in comparison ('int' vs 'string')");
}

TEST_CASE("types of mixed arithmetic") {
  CHECK(failure("stride_h * beta")->Message ==
        "constraint must be a boolean expression, found float");
  auto Int = parse("stride_h * 2 + 1 == 3", convScope());
  REQUIRE(Int);
  const auto &Cmp = llvm::cast<BinaryExpr>(**Int);
  CHECK(Cmp.lhs().type() == Type::Int);
  auto Float = parse("stride_h * beta + 1 == 3", convScope());
  REQUIRE(Float);
  CHECK(llvm::cast<BinaryExpr>(**Float).lhs().type() == Type::Float);
}

TEST_CASE("print: canonical syntax, parentheses from precedence") {
  CHECK(printText("stride_h   in[1,4]&&stride_w in [ 1 , 4 ]") ==
        "stride_h in [1, 4] && stride_w in [1, 4]");
  CHECK(printText("((stride_h == 1))") == "stride_h == 1");
  CHECK(printText("(flag || flag) && stride_h < 2") ==
        "(flag || flag) && stride_h < 2");
  CHECK(printText("flag || flag && stride_h < 2") ==
        "flag || (flag && stride_h < 2)");
  CHECK(printText("stride_h - (stride_w - 1) == (stride_h - stride_w) - 1") ==
        "stride_h - (stride_w - 1) == stride_h - stride_w - 1");
  CHECK(printText("-(stride_h + 1) < - 2") == "-(stride_h + 1) < -2");
  CHECK(printText("!(flag && flag)") == "!(flag && flag)");
  CHECK(printText("(stride_h == 1) == flag") == "(stride_h == 1) == flag");
  CHECK(printText("beta == 1.0 && beta != 0.25") ==
        "beta == 1.0 && beta != 0.25");
  CHECK(printText("padding == \"a\\\"b\"") == "padding == \"a\\\"b\"");
  CHECK(printText("input(0).dim(-1) == input(1).dim(3)") ==
        "input(0).dim(-1) == input(1).dim(3)");
  CHECK(printText("conv.input(0).zero_point == act.num_inputs",
                  patternScope()) ==
        "conv.input(0).zero_point == act.num_inputs");
}

TEST_CASE("describe: the expression in words") {
  CHECK(describeText("stride_h in [1, 4] && stride_w in [1, 4]") ==
        "stride_h in [1, 4] and stride_w in [1, 4]");
  CHECK(describeText("padding == \"VALID\" || filter_h <= 15") ==
        "padding == \"VALID\" or filter_h <= 15");
  CHECK(describeText("input(0).dtype in {i8, u8} && !input(1).per_channel") ==
        "input(0).dtype in {i8, u8} and not input(1).per_channel");
  CHECK(describeText("!(stride_h == 1 || flag)") ==
        "not (stride_h == 1 or flag)");
  CHECK(describeText("(flag || flag) && flag") == "(flag or flag) and flag");
  CHECK(describeText("input(0).scale * input(1).scale < output(0).scale") ==
        "input(0).scale * input(1).scale < output(0).scale");
  CHECK(describeText("beta == 1") == "beta == 1");
  CHECK(describeText("beta == 2.50") == "beta == 2.5");
}

TEST_CASE("print and describe: calls") {
  CHECK(printText("max( macs/256 ,16 )>=1") == "max(macs / 256, 16) >= 1");
  CHECK(printText("-min(stride_h, 2) < ceil(beta) * floor(-beta)") ==
        "-min(stride_h, 2) < ceil(beta) * floor(-beta)");
  CHECK(printText("align(stride_h + 1, filter_h * 2) == select(flag, 1, "
                  "(2))") ==
        "align(stride_h + 1, filter_h * 2) == select(flag, 1, 2)");
  CHECK(describeText("max(macs / 256, 16) >= 1") ==
        "max(macs / 256, 16) >= 1");
  CHECK(describeText("align(stride_h, 16) <= 64") ==
        "(stride_h rounded up to a multiple of 16) <= 64");
  CHECK(describeText("align(stride_h + 1, filter_h * 2) == 4") ==
        "((stride_h + 1) rounded up to a multiple of (filter_h * 2)) == 4");
  CHECK(describeText("select(flag || stride_h > 1, 1, 2) == 1") ==
        "(1 if flag or stride_h > 1, otherwise 2) == 1");
  CHECK(describeText("select(flag, align(stride_h, 2), select(!flag, 3, "
                     "4)) > 0") ==
        "((stride_h rounded up to a multiple of 2) if flag, otherwise (3 if "
        "not flag, otherwise 4)) > 0");
  auto V = parseValue("align(macs, 16) / 256", convScope());
  REQUIRE(V);
  CHECK(describe(**V) == "(macs rounded up to a multiple of 16) / 256");
  V = parseValue("select(stride_h > 1, macs / 64, macs / 128)", convScope());
  REQUIRE(V);
  CHECK(describe(**V) == "macs / 64 if stride_h > 1, otherwise macs / 128");
  CHECK(print(**V) == "select(stride_h > 1, macs / 64, macs / 128)");
}

TEST_CASE("boundary cases of ranges and comparisons") {
  using V = std::vector<std::string>;
  CHECK(boundaries("stride_h in [1, 4] && stride_w in [1, 4]") ==
        V{"stride_h=0:reject", "stride_h=1:accept", "stride_h=4:accept",
          "stride_h=5:reject", "stride_w=0:reject", "stride_w=1:accept",
          "stride_w=4:accept", "stride_w=5:reject"});
  CHECK(boundaries("filter_h <= 15") ==
        V{"filter_h=15:accept", "filter_h=16:reject"});
  CHECK(boundaries("filter_h < 15") ==
        V{"filter_h=14:accept", "filter_h=15:reject"});
  CHECK(boundaries("filter_h > 1") ==
        V{"filter_h=1:reject", "filter_h=2:accept"});
  CHECK(boundaries("filter_h >= 1") ==
        V{"filter_h=0:reject", "filter_h=1:accept"});
  CHECK(boundaries("stride_h == 2") ==
        V{"stride_h=1:reject", "stride_h=2:accept", "stride_h=3:reject"});
  CHECK(boundaries("stride_h != 2") ==
        V{"stride_h=1:accept", "stride_h=2:reject", "stride_h=3:accept"});
  CHECK(boundaries("stride_h in {1, 2, 4}") ==
        V{"stride_h=0:reject", "stride_h=1:accept", "stride_h=2:accept",
          "stride_h=3:reject", "stride_h=4:accept", "stride_h=5:reject"});
  // A constant on the left, a constant expression, a negative bound.
  CHECK(boundaries("16 > filter_h") ==
        V{"filter_h=15:accept", "filter_h=16:reject"});
  CHECK(boundaries("filter_h <= 4 * 4") ==
        V{"filter_h=16:accept", "filter_h=17:reject"});
  CHECK(boundaries("stride_h >= -3") ==
        V{"stride_h=-4:reject", "stride_h=-3:accept"});
}

TEST_CASE("boundary cases combine every term on one reference") {
  using V = std::vector<std::string>;
  CHECK(boundaries("stride_h >= 1 && stride_w == 1 && stride_h <= 4") ==
        V{"stride_h=0:reject", "stride_h=1:accept", "stride_h=4:accept",
          "stride_h=5:reject", "stride_w=0:reject", "stride_w=1:accept",
          "stride_w=2:reject"});
  CHECK(boundaries("stride_h != 3 && stride_h in [1, 4]") ==
        V{"stride_h=0:reject", "stride_h=1:accept", "stride_h=2:accept",
          "stride_h=3:reject", "stride_h=4:accept", "stride_h=5:reject"});
}

TEST_CASE("boundary cases of shape properties") {
  using V = std::vector<std::string>;
  CHECK(boundaries("input(0).rank == 4 && input(1).dim(-1) in [1, 2048]") ==
        V{"input(0).rank=3:reject", "input(0).rank=4:accept",
          "input(0).rank=5:reject", "input(1).dim(-1)=0:reject",
          "input(1).dim(-1)=1:accept", "input(1).dim(-1)=2048:accept",
          "input(1).dim(-1)=2049:reject"});
  // Shapes are never negative: no case below 0.
  CHECK(boundaries("output(0).channels >= 0 && input(0).rank <= 0") ==
        V{"output(0).channels=0:accept", "input(0).rank=0:accept",
          "input(0).rank=1:reject"});
  auto E = parsed("input(1).channels <= 256");
  REQUIRE(E);
  std::vector<BoundaryCase> Cases = boundaryCases(*E);
  REQUIRE(Cases.size() == 2);
  CHECK(Cases[0].Subject.K == Reference::Kind::Input);
  CHECK(Cases[0].Subject.Index == 1);
  CHECK(Cases[0].Subject.P == Reference::Prop::Channels);
  CHECK(boundaries("conv.stride_h <= 2 && act.input(0).rank == 4",
                   patternScope()) ==
        V{"conv.stride_h=2:accept", "conv.stride_h=3:reject",
          "act.input(0).rank=3:reject", "act.input(0).rank=4:accept",
          "act.input(0).rank=5:reject"});
}

TEST_CASE("no boundary cases where one value does not decide") {
  using V = std::vector<std::string>;
  CHECK(boundaries("padding == \"VALID\" || filter_h <= 15").empty());
  CHECK(boundaries("!(filter_h <= 15)").empty());
  CHECK(boundaries("filter_h * filter_w <= 64").empty());
  CHECK(boundaries("input(1).dim(3) == input(0).channels * depth_multiplier")
            .empty());
  // Not ints: float attributes, zero points, dtypes, counts.
  CHECK(boundaries("beta <= 2 && input(0).zero_point == 0 && "
                   "num_inputs == 3 && input(0).num_elements < 9")
            .empty());
  CHECK(boundaries("stride_h <= 2.5").empty());
  // stride_h also appears in a term that is not a plain comparison.
  CHECK(boundaries("stride_h <= 4 && stride_w <= 4 && "
                   "stride_h * 2 <= 8") ==
        V{"stride_w=4:accept", "stride_w=5:reject"});
}

TEST_CASE("no boundary cases for terms with calls") {
  using V = std::vector<std::string>;
  CHECK(boundaries("min(stride_h, 4) <= 2").empty());
  CHECK(boundaries("filter_h <= max(2, 3)").empty());
  CHECK(boundaries("stride_h in [1, ceil(2.5)]").empty());
  CHECK(boundaries("macs <= 4").empty());
  // stride_h also appears in a call.
  CHECK(boundaries("stride_h <= 4 && align(stride_h, 2) <= 4").empty());
  // A call elsewhere leaves the plain terms probed.
  CHECK(boundaries("filter_h <= 4 && ceil(beta) <= 2 && "
                   "select(flag, stride_w, 1) == 1") ==
        V{"filter_h=4:accept", "filter_h=5:reject"});
}

TEST_CASE("emitted check: calls and macs") {
  CHECK(emitted("max(macs / 256, 16) <= stride_h && "
                "select(flag, beta, 1) > min(0.5, beta)",
                "x") == R"(  // the_id: max(macs / 256, 16) <= stride_h && select(flag, beta, 1) > min(0.5, beta)
  namespace rt = accelgen::target::rt;
  const int64_t macs = rt::macs(G, Op);
  const int64_t stride_h = rt::attrInt(Op, "stride_h");
  const bool flag = rt::attrBool(Op, "flag");
  const double beta = rt::attrFloat(Op, "beta");
  if (rt::max(rt::div(macs, 256), 16) <= stride_h && (flag ? beta : 1) > rt::fmin(0.5, beta))
    return true;
  Message = "macs = " + rt::format(macs);
  Message += ", stride_h = " + rt::format(stride_h);
  Message += ", flag = " + rt::format(flag);
  Message += ", beta = " + rt::format(beta);
  Message += ": x";
  return false;
)");
  std::string Out = emitted("ceil(beta) + ceil(stride_h) == floor(-beta) + "
                            "align(filter_h, 16) - min(1, 2)",
                            "x");
  CHECK(Out.find("if (rt::add(rt::ceil(beta), stride_h) == "
                 "rt::sub(rt::add(rt::floor(-beta), rt::align(filter_h, 16)), "
                 "rt::min(1, 2)))") != std::string::npos);
  CHECK(Out.find("(void)G;") != std::string::npos);
  CHECK(emitted("conv.macs <= act.macs", "x", CheckKind::Pattern,
                patternScope())
            .find("const int64_t conv_macs = rt::macs(G, conv);") !=
        std::string::npos);
}

TEST_CASE("emitted value") {
  auto Emit = [](llvm::StringRef Text) {
    auto E = parseValue(Text, convScope());
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    if (E)
      emitValue(OS, **E, "Conv2D from 1.0");
    else
      FAIL_CHECK(llvm::toString(E.takeError()));
    return OS.str();
  };
  CHECK(Emit("macs / 256") == R"(  // Conv2D from 1.0: macs / 256
  namespace rt = accelgen::target::rt;
  const int64_t macs = rt::macs(G, Op);
  return static_cast<double>(rt::div(macs, 256));
)");
  CHECK(Emit("select(stride_h > 1, beta, 2)") ==
        R"(  // Conv2D from 1.0: select(stride_h > 1, beta, 2)
  namespace rt = accelgen::target::rt;
  const int64_t stride_h = rt::attrInt(Op, "stride_h");
  const double beta = rt::attrFloat(Op, "beta");
  (void)G;
  return stride_h > 1 ? beta : 2;
)");
  CHECK(Emit("100") == R"(  // Conv2D from 1.0: 100
  namespace rt = accelgen::target::rt;
  (void)G;
  (void)Op;
  return static_cast<double>(100);
)");
}

TEST_CASE("emitted check: compound expression") {
  CHECK(emitted("stride_h in [1, 4] && stride_w in [1, 4]",
                "stride must be in [1, 4]") ==
        R"(  // the_id: stride_h in [1, 4] && stride_w in [1, 4]
  namespace rt = accelgen::target::rt;
  const int64_t stride_h = rt::attrInt(Op, "stride_h");
  const int64_t stride_w = rt::attrInt(Op, "stride_w");
  (void)G;
  if ((stride_h >= 1 && stride_h <= 4) && (stride_w >= 1 && stride_w <= 4))
    return true;
  Message = "stride_h = " + rt::format(stride_h);
  Message += ", stride_w = " + rt::format(stride_w);
  Message += ": stride must be in [1, 4]";
  return false;
)");
}

TEST_CASE("emitted check: one reference against constants") {
  CHECK(emitted("input(0).dim(-1) <= 256", "too many channels") ==
        R"(  // the_id: input(0).dim(-1) <= 256
  namespace rt = accelgen::target::rt;
  const int64_t input0_dim_m1 = rt::inputDim(G, Op, 0, -1);
  if (input0_dim_m1 <= 256)
    return true;
  Message = "input(0).dim(-1) = " + rt::format(input0_dim_m1) + ", must be at most 256";
  return false;
)");
}

TEST_CASE("emitted check: arithmetic, escapes and precedence") {
  std::string Out = emitted("(flag || padding == \"a\\\"b\") && "
                            "-(stride_h % 3) * 2 < beta / 2 - 1",
                            "say \"no\"\nplease");
  CHECK(Out.find("const std::string padding = rt::attrString(Op, "
                 "\"padding\");") != std::string::npos);
  CHECK(Out.find("if ((flag || padding == \"a\\\"b\") && "
                 "rt::mul(rt::neg(rt::rem(stride_h, 3)), 2) < beta / 2 - 1)") !=
        std::string::npos);
  CHECK(Out.find("Message += \": say \\\"no\\\"\\nplease\";") !=
        std::string::npos);
}

TEST_CASE("emitted check: fusion pattern") {
  CHECK(emitted("conv.stride_h <= 2 && "
                "act.input(0).zero_point == conv.output(0).zero_point",
                "same zero point", CheckKind::Pattern, patternScope()) ==
        R"(  // the_id: conv.stride_h <= 2 && act.input(0).zero_point == conv.output(0).zero_point
  namespace rt = accelgen::target::rt;
  const accelgen::ir::Operator &conv = C.op(G, "conv");
  const accelgen::ir::Operator &act = C.op(G, "act");
  const int64_t conv_stride_h = rt::attrInt(conv, "stride_h");
  const int64_t act_input0_zero_point = rt::inputZeroPoint(G, act, 0);
  const int64_t conv_output0_zero_point = rt::outputZeroPoint(G, conv, 0);
  if (conv_stride_h <= 2 && act_input0_zero_point == conv_output0_zero_point)
    return true;
  Message = "conv.stride_h = " + rt::format(conv_stride_h);
  Message += ", act.input(0).zero_point = " + rt::format(act_input0_zero_point);
  Message += ", conv.output(0).zero_point = " + rt::format(conv_output0_zero_point);
  Message += ": same zero point";
  return false;
)");
}

TEST_CASE("emitted check: local names avoid keywords and parameters") {
  Scope S;
  S.Attrs = {{"new", AttrInfo::Int},
             {"Message", AttrInfo::Int},
             {"input0_rank", AttrInfo::Int}};
  S.NumOperands = 1;
  std::string Out = emitted("new + Message == 1 && input(0).rank == "
                            "input0_rank",
                            "x", CheckKind::Operator, S);
  CHECK(Out.find("const int64_t new_2 = rt::attrInt(Op, \"new\");") !=
        std::string::npos);
  CHECK(Out.find("const int64_t Message_2 = rt::attrInt(Op, \"Message\");") !=
        std::string::npos);
  CHECK(Out.find("const int64_t input0_rank = rt::inputRank(G, Op, 0);") !=
        std::string::npos);
  CHECK(Out.find("const int64_t input0_rank_2 = rt::attrInt(Op, "
                 "\"input0_rank\");") != std::string::npos);
}

TEST_CASE("emitted check: constant expression and C++ function") {
  CHECK(emitted("true", "always") == R"(  // the_id: true
  namespace rt = accelgen::target::rt;
  (void)G;
  (void)Op;
  if (true)
    return true;
  Message = "always";
  return false;
)");
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  emitFunctionCheck(OS, "accelgen::demo::isSquareFilter", "dw_square",
                    "filter must be square");
  CHECK(OS.str() == R"(  // dw_square: decided by accelgen::demo::isSquareFilter()
  if (accelgen::demo::isSquareFilter(G, Op))
    return true;
  Message = "filter must be square";
  return false;
)");
}

TEST_CASE("emitted definition and signatures") {
  CHECK(checkFunctionName("conv.stride-1") == "check_conv_stride_1");
  CHECK(checkSignature("check_x", CheckKind::Operator) ==
        "bool check_x(const accelgen::ir::Graph &G, const accelgen::ir::Operator "
        "&Op, std::string &Message)");
  CHECK(checkSignature("check_x", CheckKind::Pattern) ==
        "bool check_x(const accelgen::ir::Graph &G, const "
        "accelgen::target::Captures &C, std::string &Message)");
  auto E = parsed("flag");
  REQUIRE(E);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  emitCheckDefinition(OS, *E, "flag.set", "flag must be set");
  CHECK(OS.str() == R"(// flag.set: flag must be set
bool check_flag_set(const accelgen::ir::Graph &G, const accelgen::ir::Operator &Op, std::string &Message) {
  // flag.set: flag
  namespace rt = accelgen::target::rt;
  const bool flag = rt::attrBool(Op, "flag");
  (void)G;
  if (flag)
    return true;
  Message = "flag = " + rt::format(flag);
  Message += ": flag must be set";
  return false;
}
)");
}

TEST_CASE("runtime: absent operands and missing attributes") {
  namespace rt = target::rt;
  ir::Graph G;
  ir::Tensor T;
  T.Shape = {1, 4, 4, 8};
  T.Type = ir::DType::U8;
  G.Tensors.push_back(T);
  ir::Operator Op;
  Op.Inputs = {0, -1, 7};
  Op.Outputs = {0};
  Op.Attrs["n"] = int64_t(3);
  Op.Attrs["s"] = std::string("SAME");
  CHECK(rt::inputDType(G, Op, 0) == rt::DType::U8);
  for (unsigned I : {1u, 2u, 3u}) {
    CAPTURE(I);
    CHECK(!rt::inputDType(G, Op, I));
    CHECK(rt::format(rt::inputDType(G, Op, I)) == "none");
    CHECK(rt::inputRank(G, Op, I) == 0);
    CHECK(rt::inputDim(G, Op, I, 0) == 0);
    CHECK(rt::inputChannels(G, Op, I) == 0);
    CHECK(rt::inputNumElements(G, Op, I) == 0);
    CHECK(!rt::inputIsConstant(G, Op, I));
    CHECK(rt::inputScale(G, Op, I) == 0.0);
    CHECK(rt::inputZeroPoint(G, Op, I) == 0);
    CHECK(!rt::inputPerChannel(G, Op, I));
  }
  CHECK(rt::outputRank(G, Op, 0) == 4);
  CHECK(rt::outputDim(G, Op, 0, -1) == 8);
  CHECK(rt::outputDim(G, Op, 0, -4) == 1);
  CHECK(rt::outputDim(G, Op, 0, -5) == 0);
  CHECK(rt::outputDim(G, Op, 0, 4) == 0);
  CHECK(rt::outputChannels(G, Op, 0) == 8);
  CHECK(rt::outputNumElements(G, Op, 0) == 128);
  CHECK(rt::outputRank(G, Op, 1) == 0);
  CHECK(rt::numInputs(Op) == 3);
  CHECK(rt::numOutputs(Op) == 1);
  CHECK(rt::attrInt(Op, "n") == 3);
  CHECK(rt::attrFloat(Op, "n") == 3.0);
  CHECK(rt::attrInt(Op, "missing") == 0);
  CHECK(rt::attrInt(Op, "s") == 0);
  CHECK(rt::attrString(Op, "s") == "SAME");
  CHECK(rt::attrString(Op, "n") == "");
  CHECK(!rt::attrBool(Op, "missing"));
}

TEST_CASE("runtime: quantization properties") {
  namespace rt = target::rt;
  ir::Graph G;
  ir::Tensor T;
  T.Shape = {2};
  T.Type = ir::DType::I8;
  T.Quant = ir::QuantParams{{0.5f, 0.25f}, {3, 4}, 0};
  T.IsConstant = true;
  G.Tensors.push_back(T);
  ir::Operator Op;
  Op.Inputs = {0};
  CHECK(rt::inputScale(G, Op, 0) == 0.5);
  CHECK(rt::inputZeroPoint(G, Op, 0) == 3);
  CHECK(rt::inputPerChannel(G, Op, 0));
  CHECK(rt::inputIsConstant(G, Op, 0));
}

TEST_CASE("runtime: integer arithmetic never traps") {
  namespace rt = target::rt;
  CHECK(rt::div(7, 2) == 3);
  CHECK(rt::div(-7, 2) == -3);
  CHECK(rt::div(7, 0) == 0);
  CHECK(rt::rem(-7, 2) == -1);
  CHECK(rt::rem(7, 0) == 0);
  CHECK(rt::div(INT64_MIN, -1) == INT64_MIN);
  CHECK(rt::rem(INT64_MIN, -1) == 0);
  CHECK(rt::add(INT64_MAX, 1) == INT64_MIN);
  CHECK(rt::sub(INT64_MIN, 1) == INT64_MAX);
  CHECK(rt::mul(INT64_MAX, 2) == -2);
  CHECK(rt::neg(INT64_MIN) == INT64_MIN);
}

TEST_CASE("runtime: built-in functions never trap") {
  namespace rt = target::rt;
  CHECK(rt::min(3, -4) == -4);
  CHECK(rt::max(3, -4) == 3);
  CHECK(rt::fmin(0.5, 0.25) == 0.25);
  CHECK(rt::fmax(0.5, 0.25) == 0.5);
  CHECK(rt::fmin(std::nan(""), 1.0) == 1.0);
  CHECK(rt::fmax(2.0, std::nan("")) == 2.0);
  CHECK(rt::ceil(1.25) == 2);
  CHECK(rt::ceil(-1.25) == -1);
  CHECK(rt::floor(1.75) == 1);
  CHECK(rt::floor(-1.25) == -2);
  CHECK(rt::ceil(1e300) == INT64_MAX);
  CHECK(rt::floor(-1e300) == INT64_MIN);
  CHECK(rt::ceil(9223372036854775808.0) == INT64_MAX);
  CHECK(rt::floor(-9223372036854775808.0) == INT64_MIN);
  CHECK(rt::ceil(std::numeric_limits<double>::infinity()) == INT64_MAX);
  CHECK(rt::floor(std::nan("")) == 0);
  CHECK(rt::ceil(std::nan("")) == 0);
  CHECK(rt::align(17, 16) == 32);
  CHECK(rt::align(32, 16) == 32);
  CHECK(rt::align(0, 16) == 0);
  CHECK(rt::align(-17, 16) == -16);
  CHECK(rt::align(-16, 16) == -16);
  CHECK(rt::align(5, 0) == 5);
  CHECK(rt::align(5, -3) == 5);
  CHECK(rt::align(INT64_MAX, 2) == INT64_MIN);
  CHECK(rt::align(INT64_MIN, 3) == INT64_MIN + 2);
  CHECK(rt::align(INT64_MIN, INT64_MAX) == -INT64_MAX);
}

TEST_CASE("runtime: macs") {
  namespace rt = target::rt;
  ir::Graph G;
  ir::Tensor In, W, Out;
  In.Shape = {1, 8, 8, 4};
  W.Shape = {16, 3, 3, 4};
  Out.Shape = {1, 8, 8, 16};
  G.Tensors = {In, W, Out};
  ir::Operator Op;
  Op.Type = "CONV_2D";
  Op.Inputs = {0, 1, -1};
  Op.Outputs = {2};
  CHECK(rt::macs(G, Op) == 1024 * 36);
  Op.Type = "DEMO_CONV_2D";
  CHECK(rt::macs(G, Op) == 0);
  Op.Type = "CONV_2D";
  Op.Inputs = {0, 7, -1};
  CHECK(rt::macs(G, Op) == 0);
  CHECK(rt::macs(G, ir::Operator()) == 0);
}

TEST_CASE("runtime: value formatting") {
  namespace rt = target::rt;
  CHECK(rt::format(int64_t(-5)) == "-5");
  CHECK(rt::format(true) == "true");
  CHECK(rt::format(std::string("a\"b\\")) == "\"a\\\"b\\\\\"");
  CHECK(rt::format(rt::MaybeDType(ir::DType::I16)) == "i16");
  CHECK(rt::formatFloat(1.0) == "1.0");
  CHECK(rt::formatFloat(-2.0) == "-2.0");
  CHECK(rt::formatFloat(0.5) == "0.5");
  CHECK(rt::formatFloat(0.1) == "0.1");
  CHECK(rt::formatFloat(static_cast<double>(0.1f)) == "0.1");
  CHECK(rt::formatFloat(static_cast<double>(0.0078125f)) == "0.0078125");
  CHECK(rt::formatFloat(1.0 / 3) == "0.3333333333333333");
  CHECK(rt::formatFloat(1e-5) == "1e-05");
  CHECK(rt::formatFloat(1e20) == "1e+20");
}

TEST_CASE("runtime: captures") {
  ir::Graph G;
  G.Operators.resize(2);
  G.Operators[0].Type = "CONV_2D";
  G.Operators[1].Type = "RELU";
  target::PatternNodeDesc Nodes[] = {{"RELU", nullptr, "act", 0, nullptr},
                                     {"CONV_2D", nullptr, "conv", 0, nullptr},
                                     {"ADD", nullptr, "", 0, nullptr}};
  target::PatternDesc P{};
  P.NumNodes = 3;
  P.Nodes = Nodes;
  target::PatternMatch M;
  M.Nodes = {1, 0, 5};
  target::Captures C(P, M);
  CHECK(C.index("act") == 1);
  CHECK(C.index("conv") == 0);
  CHECK(C.index("") == -1);
  CHECK(C.op(G, "conv").Type == "CONV_2D");
  CHECK(C.op(G, "act").Type == "RELU");
  CHECK(C.op(G, "nothing").Type.empty());
  C.bind("conv", 9);
  CHECK(C.op(G, "conv").Type.empty());
}

TEST_CASE("probe cases of dtypes, none, bools and floats") {
  using V = std::vector<std::string>;
  // Each member of a set, and the first dtype outside it.
  CHECK(probes("input(0).dtype in {i8, u8}") ==
        V{"base: accept", "input(0).dtype = u8: accept",
          "input(0).dtype = i16: reject"});
  // `none` is a member like any other (the operand is left out), tried
  // last.
  CHECK(probes("input(2).dtype in {i32, none}") ==
        V{"base: accept", "input(2).dtype = i8: reject",
          "input(2).dtype = none: accept"});
  CHECK(probes("!input(1).per_channel") ==
        V{"base: accept", "input(1).per_channel = true: reject"});
  // Float attributes: the neighbouring doubles of the constant.
  CHECK(probes("beta < 2.0") ==
        V{"base: accept", "beta = 2.0: reject",
          "beta = 2.0000000000000004: reject"});
  // Scales are float32: the constant's nearest float and its neighbours.
  CHECK(probes("input(0).scale >= 0.1") ==
        V{"base: accept", "input(0).scale = 0.099999994: reject",
          "input(0).scale = 0.10000001: accept"});
  // Both factors of a product reach the constant it is compared with.
  CHECK(probes("filter_h * filter_w <= 64") ==
        V{"base: accept", "filter_h = 2: accept", "filter_h = 63: accept",
          "filter_h = 64: accept", "filter_h = 65: reject",
          "filter_w = 2: accept", "filter_w = 63: accept",
          "filter_w = 64: accept", "filter_w = 65: reject"});
}

TEST_CASE("probe cases of counts") {
  using V = std::vector<std::string>;
  CHECK(probes("num_inputs == 3") ==
        V{"base: accept", "num_inputs = 2: reject", "num_inputs = 4: reject"});
  CHECK(probes("input(0).num_elements < 9") ==
        V{"base: accept", "input(0).num_elements = 9: reject",
          "input(0).num_elements = 10: reject"});
  // The lowest dim not set takes the count the others leave.
  CHECK(probes("input(0).dim(1) == 2 && input(0).num_elements == 4") ==
        V{"base: accept", "input(0).dim(1) = 1: reject",
          "input(0).dim(1) = 3: not constructible: input(0).num_elements = "
          "4: not a multiple of the 3 the dims set give",
          "input(0).num_elements = 3: not constructible: "
          "input(0).num_elements = 3: not a multiple of the 2 the dims set "
          "give",
          "input(0).num_elements = 5: not constructible: "
          "input(0).num_elements = 5: not a multiple of the 2 the dims set "
          "give"});
}

TEST_CASE("probe cases of || terms: each side alone, and none") {
  using V = std::vector<std::string>;
  CHECK(probes("padding == \"VALID\" || filter_h <= 15") ==
        V{"base: accept",
          "padding = \"\"; only `filter_h <= 15` of `padding == \"VALID\" || "
          "filter_h <= 15` holds: accept",
          "filter_h = 15: accept",
          "filter_h = 16; only `padding == \"VALID\"` of `padding == "
          "\"VALID\" || filter_h <= 15` holds: accept",
          "no side of `padding == \"VALID\" || filter_h <= 15` holds: "
          "reject"});
}

TEST_CASE("probe cases no operator can be built for") {
  using V = std::vector<std::string>;
  // dim(3) outside rank 2 reads 0; a dimension is never negative.
  CHECK(probes("input(0).rank == 2 && input(0).dim(3) == 0") ==
        V{"base: accept", "input(0).rank = 1: reject",
          "input(0).rank = 3: reject",
          "input(0).dim(3) = -1: not constructible: input(0).dim(3) = -1: "
          "dimensions are 0 to 2147483647",
          "input(0).dim(3) = 1: not constructible: input(0).dim(3) = 1: a "
          "rank-2 tensor has no such dimension, so it reads 0"});
  // An absent operand reads rank 0.
  CHECK(probes("input(2).dtype == none || input(2).rank == 4") ==
        V{"base; only `input(2).rank == 4` of `input(2).dtype == none || "
          "input(2).rank == 4` holds: accept",
          "input(2).dtype = none: not constructible: input(2) is absent "
          "(dtype none), so input(2).rank reads 0",
          "input(2).rank = 3; no side of `input(2).dtype == none || "
          "input(2).rank == 4` holds: reject",
          "input(2).rank = 5: reject", "input(2).rank = 0: reject",
          "only `input(2).dtype == none` of `input(2).dtype == none || "
          "input(2).rank == 4` holds: accept"});
}

TEST_CASE("constraints without probe cases") {
  using V = std::vector<std::string>;
  CHECK(probes("min(stride_h, 4) <= 2") ==
        V{"not probed: it calls a function"});
  CHECK(probes("macs <= 4") ==
        V{"not probed: it reads macs, which probes do not set"});
  CHECK(probes("stride_h < 1 && stride_h > 4") ==
        V{"not probed: no buildable combination of the candidate values "
          "satisfies it"});
  // input(2) is read, so the operator has at least 3 operand slots.
  CHECK(probes("num_inputs == 1 && input(2).rank == 4") ==
        V{"not probed: no buildable combination of the candidate values "
          "satisfies it"});
}

TEST_CASE("none: the dtype of an absent operand, typed as a dtype") {
  CHECK(printText("input(2).dtype == none") == "input(2).dtype == none");
  CHECK(describeText("input(2).dtype in {i32, none}") ==
        "input(2).dtype in {i32, none}");
  checkErrors({
      {"stride_h == none", 10, "type mismatch in comparison ('int' vs "
                               "'dtype')"},
      {"input(0).dtype in {i8, none, 1}", 30,
       "type mismatch in set ('dtype' vs 'int')"},
      {"none", 1, "constraint must be a boolean expression, found dtype"},
      {"none < i8", 6, "operator '<' needs numeric operands, found 'dtype'"},
  });
}
