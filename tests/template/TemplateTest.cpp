//===- TemplateTest.cpp - The template engine
//------------------------------===//
//
// Every directive and expression form of the template language, each
// diagnostic with its exact "name:line:col: error: message" text, the limits
// that keep hostile templates from crashing or hanging the engine, and a
// kernel template rendered for int8, uint8 and float and compiled as C99.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "template/Template.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <random>

using namespace accelgen;
using namespace accelgen::tmpl;

namespace {

const char *const Name = "t.c.in";

/// The output of \p Text rendered with \p B; fails the test on an error.
std::string out(llvm::StringRef Text, const Bindings &B = {}) {
  llvm::Expected<Template> T = Template::parse(Text, Name);
  if (!T) {
    FAIL_CHECK(llvm::toString(T.takeError()));
    return "";
  }
  llvm::Expected<std::string> S = T->render(B);
  if (!S) {
    FAIL_CHECK(llvm::toString(S.takeError()));
    return "";
  }
  return *S;
}

/// The error \p Text gives when parsed, or when rendered with \p B and
/// \p L; fails the test if there is none.
std::string err(llvm::StringRef Text, const Bindings &B = {},
                const RenderLimits &L = {}) {
  llvm::Expected<Template> T = Template::parse(Text, Name);
  if (!T)
    return llvm::toString(T.takeError());
  llvm::Expected<std::string> S = T->render(B, L);
  if (!S)
    return llvm::toString(S.takeError());
  FAIL_CHECK("no error; output: " << *S);
  return "";
}

/// The error of an expression substituted on the first line of a template.
std::string exprErr(llvm::StringRef Expr, const Bindings &B = {}) {
  return err(("${" + Expr + "}").str(), B);
}

/// The value of \p Expr as substituted text.
std::string eval(llvm::StringRef Expr, const Bindings &B = {}) {
  return out(("${" + Expr + "}").str(), B);
}

Value list(std::initializer_list<Value> L) { return Value(Value::List(L)); }

std::string templateDir() { return ACCELGEN_TEMPLATE_TEST_DIR; }

} // namespace

//===----------------------------------------------------------------------===//
// Text and substitution
//===----------------------------------------------------------------------===//

TEST_CASE("text is copied unchanged, newline or not") {
  CHECK(out("") == "");
  CHECK(out("int x;\n") == "int x;\n");
  CHECK(out("a\n\nb") == "a\n\nb");
  CHECK(out("crlf\r\nline\r\n") == "crlf\r\nline\r\n");
  CHECK(out("  /* $ and {} and } */\n") == "  /* $ and {} and } */\n");
}

TEST_CASE("${...} substitutes ints, bools and strings") {
  Bindings B{{"N", 8}, {"T", "int8_t"}, {"F", true}, {"M", -3}};
  CHECK(out("${T} x[${N}];\n", B) == "int8_t x[8];\n");
  CHECK(out("${F} ${not F} ${M}", B) == "true false -3");
  CHECK(out("${N}${N}${ N * 2 }", B) == "8816");
  CHECK(out("  ${T} y;\n", B) == "  int8_t y;\n");
  CHECK(out("${\"}\"}", B) == "}");
}

TEST_CASE("$$ is a literal dollar; a lone $ is copied") {
  CHECK(out("$$\n") == "$\n");
  CHECK(out("  $$for is text\n") == "  $for is text\n");
  CHECK(out("a $$b $${X} c\n") == "a $b ${X} c\n");
  CHECK(out("cost: 5$ or $5 $\n") == "cost: 5$ or $5 $\n");
  CHECK(out("x$") == "x$");
}

TEST_CASE("directive lines and comments produce no output") {
  CHECK(out("a\n$# a comment ${not evaluated\nb\n") == "a\nb\n");
  CHECK(out("a\n  $set X = 1\n\t$# tab\nb${X}") == "a\nb1");
  CHECK(out("$set X = 1") == "");
}

//===----------------------------------------------------------------------===//
// Directives
//===----------------------------------------------------------------------===//

TEST_CASE("$for over lists, ranges and map keys") {
  CHECK(out("$for X in [\"a\", \"b\"]:\n${X};\n$endfor\n") == "a;\nb;\n");
  CHECK(out("$for I in range(3):\n${I}\n$endfor\n") == "0\n1\n2\n");
  CHECK(out("$for I in range(2, 5):\n${I},\n$endfor\n") == "2,\n3,\n4,\n");
  CHECK(out("$for I in range(10, 0, -4):\n${I} \n$endfor\n") ==
        "10 \n6 \n2 \n");
  CHECK(out("$for I in range(0):\nnever\n$endfor\n") == "");
  CHECK(out("$for I in range(5, 2):\nnever\n$endfor\n") == "");
  Bindings B;
  B["M"] = Value(Value::Map{{"b", 2}, {"a", 1}});
  CHECK(out("$for K in M:\n${K}=${M[K]}\n$endfor\n", B) == "a=1\nb=2\n");
}

TEST_CASE("$for nests, and its variable is local to the loop") {
  CHECK(out("$for I in range(2):\n"
            "  $for J in range(I, 2):\n"
            "(${I},${J})\n"
            "  $endfor\n"
            "$endfor\n") == "(0,0)\n(0,1)\n(1,1)\n");
  Bindings B{{"I", "outer"}};
  CHECK(out("$for I in [1]:\n$for I in [2]:\n${I}\n$endfor\n${I}\n$endfor\n"
            "${I}\n",
            B) == "2\n1\nouter\n");
}

TEST_CASE("$if, $elif and $else choose one branch") {
  const char *T = "$if N == 1:\none\n$elif N == 2:\ntwo\n$elif N < 0:\n"
                  "negative\n$else:\nmany\n$endif\nend\n";
  CHECK(out(T, {{"N", 1}}) == "one\nend\n");
  CHECK(out(T, {{"N", 2}}) == "two\nend\n");
  CHECK(out(T, {{"N", -5}}) == "negative\nend\n");
  CHECK(out(T, {{"N", 7}}) == "many\nend\n");
  CHECK(out("$if false:\nno\n$endif\n") == "");
  CHECK(out("$if true:\n$else:\nno\n$endif\n") == "");
}

TEST_CASE("untaken branches are not evaluated") {
  CHECK(out("$if false:\n${UNDEFINED}\n$assert 1 / 0 == 1\n$endif\nok") ==
        "ok");
  CHECK(out("$for X in []:\n${X + 1}\n$endfor\nok") == "ok");
}

TEST_CASE("$if and $for nest in each other") {
  CHECK(out("$for I in range(4):\n"
            "$if I % 2 == 0:\n"
            "  $for J in range(I):\n"
            "${J}\n"
            "  $endfor\n"
            "$else:\n"
            "odd ${I}\n"
            "$endif\n"
            "$endfor\n") == "odd 1\n0\n1\nodd 3\n");
}

TEST_CASE("$set binds names for the rest of the rendering") {
  CHECK(out("$set X = 2 * 3\n${X}") == "6");
  CHECK(out("$set S = 0\n$for I in range(5):\n$set S = S + I\n$endfor\n${S}") ==
        "10");
  CHECK(out("$if true:\n$set T = \"int8_t\"\n$else:\n$set T = \"float\"\n"
            "$endif\n${T}") == "int8_t");
  // A $set may rebind a caller's name; the caller's map is untouched.
  Bindings B{{"N", 1}};
  CHECK(out("$set N = N + 1\n${N}", B) == "2");
  CHECK(B["N"].getInt() == 1);
}

TEST_CASE("$assert passes silently") {
  CHECK(out("$assert 1 < 2\n$assert true, \"unused\"\nok") == "ok");
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

TEST_CASE("integer arithmetic follows C") {
  CHECK(eval("1 + 2 * 3") == "7");
  CHECK(eval("(1 + 2) * 3") == "9");
  CHECK(eval("10 - 2 - 3") == "5");
  CHECK(eval("7 / 2") == "3");
  CHECK(eval("-7 / 2") == "-3");
  CHECK(eval("7 % 3") == "1");
  CHECK(eval("-7 % 3") == "-1");
  CHECK(eval("7 % -3") == "1");
}

TEST_CASE("literals: strings with escapes, bools, lists") {
  CHECK(eval("'single' + \"double\"") == "singledouble");
  CHECK(eval("\"a\\tb\\n\\\\\\\"\\'\\x41\"") == "a\tb\n\\\"'A");
  CHECK(eval("true") == "true");
  CHECK(eval("len([1, [2, 3], \"x\",])") == "3");
  CHECK(eval("len([])") == "0");
  CHECK(eval("9223372036854775807") == "9223372036854775807");
  CHECK(eval("0") == "0");
}

TEST_CASE("string and list operators") {
  Bindings B{{"L", list({1, 2, 3})}, {"S", "hello"}};
  CHECK(eval("S + \", \" + \"world\"", B) == "hello, world");
  CHECK(eval("len(L + [4, 5])", B) == "5");
  CHECK(eval("L[0] + L[-1]", B) == "4");
  CHECK(eval("S[1] + S[-1]", B) == "eo");
  CHECK(eval("[[1, 2], [3, 4]][1][0]") == "3");
  CHECK(eval("join(L, \", \")", B) == "1, 2, 3");
  CHECK(eval("join([], \",\")") == "");
  CHECK(eval("join([\"a\", 1, true], \"-\")") == "a-1-true");
}

TEST_CASE("comparisons and logic") {
  CHECK(eval("1 < 2") == "true");
  CHECK(eval("2 <= 2 and 3 >= 4") == "false");
  CHECK(eval("1 > 2 or 2 != 3") == "true");
  CHECK(eval("\"abc\" < \"abd\"") == "true");
  CHECK(eval("[1, [2]] == [1, [2]]") == "true");
  CHECK(eval("not 1 == 2") == "true");
  CHECK(eval("not not true") == "true");
  CHECK(eval("true or false and false") == "true");
  // Short-circuit: the right side is not evaluated.
  CHECK(eval("false and UNDEFINED") == "false");
  CHECK(eval("true or 1 / 0 == 0") == "true");
}

TEST_CASE("in and not in") {
  Bindings B;
  B["M"] = Value(Value::Map{{"k", 1}});
  CHECK(eval("2 in [1, 2]") == "true");
  CHECK(eval("\"2\" in [1, 2]") == "false");
  CHECK(eval("3 not in [1, 2]") == "true");
  CHECK(eval("\"ell\" in \"hello\"") == "true");
  CHECK(eval("\"k\" in M", B) == "true");
  CHECK(eval("\"v\" not in M", B) == "true");
}

TEST_CASE("the conditional expression") {
  CHECK(eval("1 if true else 2") == "1");
  CHECK(eval("1 if false else 2 if false else 3") == "3");
  CHECK(eval("\"a\" if 1 < 2 else UNDEFINED") == "a");
  CHECK(eval("(1 if false else 2) + 10") == "12");
}

TEST_CASE("maps: a.b and a[\"b\"]") {
  Value::Map Inner{{"bits", 8}, {"ctype", "int8_t"}};
  Bindings B{{"DT", Value(Inner)}};
  B["ALL"] = Value(Value::Map{{"i8", Value(Inner)}});
  CHECK(eval("DT.ctype", B) == "int8_t");
  CHECK(eval("DT[\"bits\"] * 2", B) == "16");
  CHECK(eval("ALL.i8.bits", B) == "8");
  CHECK(eval("len(ALL)", B) == "1");
}

TEST_CASE("built-in functions") {
  CHECK(eval("len(\"abc\")") == "3");
  CHECK(eval("upper(\"int8_t x\")") == "INT8_T X");
  CHECK(eval("lower(\"Float\")") == "float");
  CHECK(eval("str(42) + str(true) + str(\"s\")") == "42trues");
  CHECK(eval("min(3, 1, 2)") == "1");
  CHECK(eval("max([3, 9, 2])") == "9");
  CHECK(eval("len(range(-3, 3))") == "6");
  CHECK(eval("join(range(0, 10, 3), \" \")") == "0 3 6 9");
  CHECK(eval("join(range(3, -3, -2), \" \")") == "3 1 -1");
  CHECK(eval("len(range(-9223372036854775807 - 1, "
             "-9223372036854775807 + 2))") == "3");
}

TEST_CASE("caller values of every integral type") {
  Bindings B{{"A", uint8_t(200)},
             {"B", int16_t(-2)},
             {"C", size_t(7)},
             {"D", 'x' == 'x'}};
  CHECK(eval("A + B + C", B) == "205");
  CHECK(eval("D", B) == "true");
}

//===----------------------------------------------------------------------===//
// Parse errors
//===----------------------------------------------------------------------===//

TEST_CASE("lexical errors") {
  CHECK(exprErr("a @ b") ==
        "t.c.in:1:5: error: expected '}' to close '${', got '@'");
  CHECK(exprErr("1 + #") ==
        "t.c.in:1:7: error: expected an expression, got '#'");
  CHECK(exprErr("a && b") ==
        "t.c.in:1:5: error: unexpected character '&'; use 'and'");
  CHECK(exprErr("a || b") ==
        "t.c.in:1:5: error: unexpected character '|'; use 'or'");
  CHECK(exprErr("!a") ==
        "t.c.in:1:3: error: unexpected character '!'; use 'not'");
  CHECK(exprErr("${a}") ==
        "t.c.in:1:3: error: unexpected '$' inside an expression");
  CHECK(exprErr("\"abc") == "t.c.in:1:3: error: unterminated string literal");
  CHECK(exprErr("\"a\\qb\"") ==
        "t.c.in:1:5: error: unknown escape '\\q' in string literal");
  CHECK(exprErr("\"\\x4\"") == "t.c.in:1:4: error: '\\x' needs two hex digits");
  CHECK(exprErr("007") ==
        "t.c.in:1:3: error: integer literal '007' has a leading zero");
  CHECK(exprErr("12ab") == "t.c.in:1:3: error: invalid integer literal '12ab'");
  CHECK(exprErr("9223372036854775808") ==
        "t.c.in:1:3: error: integer literal '9223372036854775808' does not "
        "fit in 64 bits");
  CHECK(err("\x01${\x02}") ==
        "t.c.in:1:4: error: expected an expression, got '\\x02'");
}

TEST_CASE("syntax errors in expressions") {
  CHECK(exprErr("") == "t.c.in:1:3: error: expected an expression, got '}'");
  CHECK(exprErr("1 +") == "t.c.in:1:6: error: expected an expression, got '}'");
  CHECK(exprErr("(1 + 2") ==
        "t.c.in:1:9: error: expected ')' to close the '(' at column 3, got "
        "'}'");
  CHECK(exprErr("[1 2]") ==
        "t.c.in:1:6: error: expected ',' or ']' in the list opened at "
        "column 3, got '2'");
  CHECK(exprErr("a[1") ==
        "t.c.in:1:6: error: expected ']' after the index, got '}'");
  CHECK(exprErr("a.1") ==
        "t.c.in:1:5: error: expected a name for the key after '.', got '1'");
  CHECK(exprErr("1 < 2 < 3") ==
        "t.c.in:1:9: error: comparisons do not chain; combine them with "
        "'and'");
  CHECK(exprErr("a not b") ==
        "t.c.in:1:9: error: expected 'in' after 'not', got 'b'");
  CHECK(exprErr("1 if true") ==
        "t.c.in:1:12: error: expected 'else' in 'X if C else Y', got '}'");
  CHECK(exprErr("in") == "t.c.in:1:3: error: expected an expression, got "
                         "'in'");
  CHECK(exprErr("foo(1)") == "t.c.in:1:3: error: unknown function 'foo'");
  CHECK(exprErr("len(1, 2)") ==
        "t.c.in:1:3: error: 'len' takes 1 argument, got 2");
  CHECK(exprErr("range()") ==
        "t.c.in:1:3: error: 'range' takes 1 to 3 arguments, got 0");
  CHECK(exprErr("join(1)") ==
        "t.c.in:1:3: error: 'join' takes 2 arguments, got 1");
  CHECK(exprErr("max()") ==
        "t.c.in:1:3: error: 'max' takes at least 1 argument, got 0");
  CHECK(exprErr("len(1 2)") ==
        "t.c.in:1:9: error: expected ',' or ')' in the arguments of 'len', "
        "got '2'");
  CHECK(exprErr("\"a very long string literal here\" x") ==
        "t.c.in:1:37: error: expected '}' to close '${', got 'x'");
  CHECK(err("int x = ${N;\n") ==
        "t.c.in:1:12: error: expected '}' to close '${', got ';'");
  CHECK(err("int x = ${N\n") == "t.c.in:1:9: error: '${' is not closed by '}'");
  CHECK(
      err("ok\n${1 2 3 4 5 6 7 8 9 10 11 12 13 \"abcdefghijklmnopqrstuvwxyz\"}")
          .find("t.c.in:2:5: error: expected '}' to close '${', got '2'") !=
      std::string::npos);
}

TEST_CASE("long tokens are shortened in messages") {
  CHECK(exprErr("1 \"abcdefghijklmnopqrstuvwxyz0123456789\"") ==
        "t.c.in:1:5: error: expected '}' to close '${', got "
        "'\"abcdefghijklmnopqrst...'");
}

TEST_CASE("directive syntax errors") {
  CHECK(err("$frob X") == "t.c.in:1:1: error: unknown directive '$frob'");
  CHECK(err("  $") == "t.c.in:1:3: error: expected a directive after '$' "
                      "(write '$$' for a literal '$')");
  CHECK(err("$ for X in Y:") ==
        "t.c.in:1:1: error: expected a directive after '$' (write '$$' for "
        "a literal '$')");
  CHECK(err("$for X in L\n$endfor") ==
        "t.c.in:1:12: error: expected ':' at the end of '$for', got end of "
        "line");
  CHECK(err("$for X L:\n$endfor") ==
        "t.c.in:1:8: error: expected 'in' after the loop variable, got 'L'");
  CHECK(err("$for in L:\n$endfor") ==
        "t.c.in:1:6: error: expected a name for the loop variable, got 'in'");
  CHECK(err("$for X in L: extra\n$endfor") ==
        "t.c.in:1:14: error: expected end of line after '$for ...:', got "
        "'extra'");
  CHECK(err("$if X\n$endif") ==
        "t.c.in:1:6: error: expected ':' at the end of '$if', got end of "
        "line");
  CHECK(err("$if X:\n$else\n$endif") ==
        "t.c.in:2:6: error: expected ':' at the end of '$else', got end of "
        "line");
  CHECK(err("$if X:\n$else: Y\n$endif") ==
        "t.c.in:2:8: error: expected end of line after '$else:', got 'Y'");
  CHECK(err("$if X:\n$endif X") ==
        "t.c.in:2:8: error: expected end of line after '$endif', got 'X'");
  CHECK(err("$set X 1") ==
        "t.c.in:1:8: error: expected '=' after the variable name, got '1'");
  CHECK(err("$set 1 = 1") ==
        "t.c.in:1:6: error: expected a name for the variable, got '1'");
  CHECK(err("$set X == 1") ==
        "t.c.in:1:8: error: expected '=' after the variable name, got '=='");
  CHECK(err("$assert X Y") ==
        "t.c.in:1:11: error: expected end of line after the '$assert' "
        "condition, got 'Y'");
  CHECK(err("$assert") ==
        "t.c.in:1:8: error: expected an expression, got end of line");
}

TEST_CASE("block structure errors") {
  CHECK(err("$endfor") ==
        "t.c.in:1:1: error: '$endfor' without an open '$for'");
  CHECK(err("\n  $endif") == "t.c.in:2:3: error: '$endif' without an open "
                             "'$if'");
  CHECK(err("$else:") == "t.c.in:1:1: error: '$else' without an open '$if'");
  CHECK(err("$elif X:") == "t.c.in:1:1: error: '$elif' without an open '$if'");
  CHECK(err("$for X in L:\n$endif") ==
        "t.c.in:2:1: error: expected '$endfor' to close the '$for' at line "
        "1, got '$endif'");
  CHECK(err("$if X:\n$for Y in L:\n$else:\n$endif") ==
        "t.c.in:3:1: error: expected '$endfor' to close the '$for' at line "
        "2, got '$else'");
  CHECK(err("$if A:\n$else:\n$elif B:\n$endif") ==
        "t.c.in:3:1: error: '$elif' follows the '$else' at line 2");
  CHECK(err("$if A:\n$else:\n$else:\n$endif") ==
        "t.c.in:3:1: error: '$else' follows the '$else' at line 2");
  CHECK(err("$for X in L:\ntext\n") ==
        "t.c.in:1:1: error: unterminated '$for'; expected '$endfor' before "
        "the end of the template");
  CHECK(err("$if A:\n  $if B:\n  $endif\n") ==
        "t.c.in:1:1: error: unterminated '$if'; expected '$endif' before the "
        "end of the template");
}

TEST_CASE("syntax errors are found in branches never taken") {
  CHECK(err("$if false:\n${1 +}\n$endif") ==
        "t.c.in:2:6: error: expected an expression, got '}'");
}

//===----------------------------------------------------------------------===//
// Evaluation errors
//===----------------------------------------------------------------------===//

TEST_CASE("unknown names") {
  CHECK(err("a\nb ${X}") == "t.c.in:2:5: error: unknown name 'X'");
  CHECK(err("$if FLAG:\n$endif") == "t.c.in:1:5: error: unknown name 'FLAG'");
  // A loop variable is gone after its loop.
  CHECK(err("$for I in [1]:\n$endfor\n${I}") ==
        "t.c.in:3:3: error: unknown name 'I'");
}

TEST_CASE("type errors") {
  CHECK(exprErr("1 + \"a\"") == "t.c.in:1:5: error: '+' needs two ints, two "
                                "strings or two lists, got int and string");
  CHECK(exprErr("\"a\" * 2") ==
        "t.c.in:1:7: error: '*' needs two ints, got string and int");
  CHECK(exprErr("-\"a\"") == "t.c.in:1:3: error: '-' needs an int, got a "
                             "string");
  CHECK(exprErr("1 < \"a\"") == "t.c.in:1:5: error: '<' needs two ints or "
                                "two strings, got int and string");
  CHECK(exprErr("[1] < [2]") == "t.c.in:1:7: error: '<' needs two ints or "
                                "two strings, got list and list");
  CHECK(exprErr("1 == \"1\"") ==
        "t.c.in:1:5: error: cannot compare an int with a string using '=='");
  CHECK(exprErr("not 1") == "t.c.in:1:7: error: the operand of 'not' must "
                            "be a bool, got an int");
  CHECK(exprErr("1 and true") == "t.c.in:1:3: error: the left operand of "
                                 "'and' must be a bool, got an int");
  CHECK(exprErr("false or \"x\"") == "t.c.in:1:12: error: the right operand "
                                     "of 'or' must be a bool, got a string");
  CHECK(exprErr("1 if 2 else 3") == "t.c.in:1:8: error: the condition of 'X "
                                    "if C else Y' must be a bool, got an int");
  CHECK(exprErr("1 in 2") == "t.c.in:1:5: error: 'in' needs a list, string "
                             "or map on the right, got an int");
  CHECK(exprErr("1 not in \"abc\"") ==
        "t.c.in:1:5: error: 'not in' a string needs a string on the left, "
        "got an int");
  CHECK(err("$if 1:\n$endif") ==
        "t.c.in:1:5: error: '$if' condition must be a bool, got an int");
  CHECK(err("$if false:\n$elif \"s\":\n$endif") ==
        "t.c.in:2:7: error: '$elif' condition must be a bool, got a string");
  CHECK(err("$assert [1]") ==
        "t.c.in:1:9: error: '$assert' condition must be a bool, got a list");
  CHECK(err("$for X in 5:\n$endfor") ==
        "t.c.in:1:11: error: '$for' needs a list or map to iterate, got an "
        "int");
  CHECK(err("${[1, 2]}") ==
        "t.c.in:1:3: error: cannot substitute a list; use join() or an index");
}

TEST_CASE("errors of built-in functions") {
  CHECK(exprErr("len(1)") ==
        "t.c.in:1:3: error: 'len' needs a string, list or map, got an int");
  CHECK(exprErr("upper(1)") ==
        "t.c.in:1:3: error: 'upper' needs a string, got an int");
  CHECK(exprErr("str([])") ==
        "t.c.in:1:3: error: 'str' needs an int, bool or string, got a list");
  CHECK(exprErr("join(\"ab\", \",\")") ==
        "t.c.in:1:3: error: 'join' needs a list as its first argument, got "
        "a string");
  CHECK(exprErr("join([], 1)") ==
        "t.c.in:1:3: error: 'join' needs a string separator, got an int");
  CHECK(exprErr("join([1, [2]], \",\")") ==
        "t.c.in:1:3: error: 'join' needs ints, bools or strings, but element "
        "1 is a list");
  CHECK(exprErr("range(\"3\")") ==
        "t.c.in:1:3: error: 'range' needs int arguments, got a string");
  CHECK(exprErr("range(0, 5, 0)") ==
        "t.c.in:1:3: error: 'range' step must not be zero");
  CHECK(exprErr("range(10000000)") ==
        "t.c.in:1:3: error: 'range' would make 10000000 elements; at most "
        "1000000 are allowed");
  CHECK(exprErr("range(-9223372036854775807 - 1, 9223372036854775807)") ==
        "t.c.in:1:3: error: 'range' would make 18446744073709551615 "
        "elements; at most 1000000 are allowed");
  CHECK(exprErr("min([])") == "t.c.in:1:3: error: 'min' of an empty list");
  CHECK(exprErr("min(1, \"2\")") ==
        "t.c.in:1:3: error: 'min' needs ints or one list of ints, got a "
        "string");
}

TEST_CASE("integer overflow and division by zero") {
  CHECK(exprErr("9223372036854775807 + 1") ==
        "t.c.in:1:23: error: integer overflow in '+'");
  CHECK(exprErr("-9223372036854775807 - 2") ==
        "t.c.in:1:24: error: integer overflow in '-'");
  CHECK(exprErr("4611686018427387904 * 2") ==
        "t.c.in:1:23: error: integer overflow in '*'");
  CHECK(exprErr("-(-9223372036854775807 - 1)") ==
        "t.c.in:1:3: error: integer overflow in '-'");
  CHECK(exprErr("(-9223372036854775807 - 1) / -1") ==
        "t.c.in:1:30: error: integer overflow in '/'");
  CHECK(exprErr("1 / 0") == "t.c.in:1:5: error: division by zero in '/'");
  CHECK(exprErr("1 % (2 - 2)") == "t.c.in:1:5: error: division by zero in "
                                  "'%'");
  CHECK(eval("(-9223372036854775807 - 1) % -1") == "0");
}

TEST_CASE("indices and keys") {
  Bindings B{{"L", list({1, 2})}};
  B["M"] = Value(Value::Map{{"a", 1}});
  CHECK(exprErr("L[2]", B) ==
        "t.c.in:1:4: error: index 2 out of range for a list of length 2");
  CHECK(exprErr("L[-3]", B) ==
        "t.c.in:1:4: error: index -3 out of range for a list of length 2");
  CHECK(exprErr("\"\"[0]") ==
        "t.c.in:1:5: error: index 0 out of range for a string of length 0");
  CHECK(exprErr("L[\"a\"]", B) ==
        "t.c.in:1:4: error: list index must be an int, got a string");
  CHECK(exprErr("M[1]", B) ==
        "t.c.in:1:4: error: map key must be a string, got an int");
  CHECK(exprErr("M.b", B) == "t.c.in:1:4: error: map has no key \"b\"");
  CHECK(exprErr("M[\"\\n\"]", B) ==
        "t.c.in:1:4: error: map has no key \"\\n\"");
  CHECK(exprErr("L.a", B) == "t.c.in:1:4: error: '.a' needs a map, got a "
                             "list");
  CHECK(exprErr("5[0]") == "t.c.in:1:4: error: cannot index an int");
}

TEST_CASE("$set cannot rebind a loop variable") {
  CHECK(err("$for I in range(2):\n  $set I = 5\n$endfor") ==
        "t.c.in:2:3: error: cannot '$set' the loop variable 'I'");
}

TEST_CASE("a failed $assert names its expression and values") {
  Bindings B{{"BATCH_TILE", 12}, {"DTYPE", "int4"}};
  CHECK(err("\n$assert BATCH_TILE % 8 == 0", B) ==
        "t.c.in:2:1: error: assertion failed: BATCH_TILE % 8 == 0 (with "
        "BATCH_TILE = 12)");
  CHECK(err("  $assert DTYPE in [\"int8\", \"uint8\"]  ", B) ==
        "t.c.in:1:3: error: assertion failed: DTYPE in [\"int8\", "
        "\"uint8\"] (with DTYPE = \"int4\")");
  CHECK(err("$assert BATCH_TILE < 8 and DTYPE != \"int4\", \"tile \" + "
            "str(BATCH_TILE) + \" too big\"",
            B) == "t.c.in:1:1: error: assertion failed: BATCH_TILE < 8 and "
                  "DTYPE != \"int4\" (with BATCH_TILE = 12, DTYPE = "
                  "\"int4\"): tile 12 too big");
  CHECK(err("$assert 1 > 2") == "t.c.in:1:1: error: assertion failed: 1 > 2");
  CHECK(err("$assert false, [1]") ==
        "t.c.in:1:1: error: assertion failed: false: [1]");
}

//===----------------------------------------------------------------------===//
// Limits and hostile input
//===----------------------------------------------------------------------===//

TEST_CASE("expressions nested too deeply") {
  std::string Parens = "${" + std::string(100000, '(') + "1}";
  CHECK(err(Parens) ==
        "t.c.in:1:203: error: expression nested more than 200 levels deep");
  std::string Chain = "${1";
  for (int I = 0; I < 100000; ++I)
    Chain += "+1";
  Chain += "}";
  CHECK(err(Chain) ==
        "t.c.in:1:402: error: expression nested more than 200 levels deep");
  std::string Negs = "${" + std::string(300, '-') + "1}";
  CHECK(err(Negs) ==
        "t.c.in:1:202: error: expression nested more than 200 levels deep");
  std::string Lists =
      "${" + std::string(250, '[') + std::string(250, ']') + "}";
  CHECK(err(Lists) ==
        "t.c.in:1:203: error: expression nested more than 200 levels deep");
  std::string Fine =
      "${" + std::string(150, '(') + "7" + std::string(150, ')') + "}";
  CHECK(out(Fine) == "7");
}

TEST_CASE("values nested too deeply") {
  CHECK(err("$set L = []\n$for I in range(200):\n$set L = [L]\n$endfor") ==
        "t.c.in:3:10: error: list nested more than 100 levels deep");
}

TEST_CASE("blocks nested too deeply") {
  std::string T;
  for (int I = 0; I < 65; ++I)
    T += "$if true:\n";
  CHECK(err(T) == "t.c.in:65:1: error: blocks nested more than 64 levels deep");
  std::string Fine;
  for (int I = 0; I < 64; ++I)
    Fine += "$for X" + std::to_string(I) + " in [" + std::to_string(I) + "]:\n";
  Fine += "${X0 + X63}\n";
  for (int I = 0; I < 64; ++I)
    Fine += "$endfor\n";
  CHECK(out(Fine) == "63\n");
}

TEST_CASE("deep equality counts against the step limit") {
  // L doubles 40 times while sharing its storage: comparing it element by
  // element would take 2^40 steps.
  std::string T;
  T += "$set L = [1]\n";
  for (int I = 0; I < 40; ++I)
    T += "$set L = [L, L]\n";
  CHECK(err(T + "${L == L}\n") ==
        "t.c.in:42:5: error: instantiation exceeds its step limit (an endless "
        "or too large loop?)");
  CHECK(err(T + "${L in [1, L]}\n") ==
        "t.c.in:42:5: error: instantiation exceeds its step limit (an endless "
        "or too large loop?)");
  // Small values still compare, by value.
  CHECK(out("$set A = [[1, 2], \"v\"]\n${A == [[1, 2], \"v\"]} ${[1, 2] in A} "
            "${A != [[1, 2], \"w\"]} ${[1] in A}\n") ==
        "true true true false\n");
}

TEST_CASE("the step limit stops runaway loops") {
  const char *Loops = "$for I in range(1000000):\n$for J in "
                      "range(1000000):\n$endfor\n$endfor\n";
  std::string E = err(Loops);
  CHECK(E.find("error: instantiation exceeds its step limit (an endless or "
               "too large loop?)") != std::string::npos);
  RenderLimits Small;
  Small.MaxSteps = 100;
  CHECK(err("$for I in range(1000):\nx\n$endfor", {}, Small) ==
        "t.c.in:1:11: error: instantiation exceeds its step limit (an endless "
        "or too large loop?)");
  CHECK(err("$for I in range(60):\nx\n$endfor", {}, Small) ==
        "t.c.in:2:1: error: instantiation exceeds its step limit (an endless "
        "or too large loop?)");
}

TEST_CASE("the output and string limits") {
  RenderLimits L;
  L.MaxOutputBytes = 100;
  CHECK(err("$for I in range(100):\n0123456789\n$endfor", {}, L) ==
        "t.c.in:2:1: error: output exceeds the limit of 100 bytes");
  L = RenderLimits();
  L.MaxStringBytes = 1000;
  CHECK(err("$set S = \"0123456789\"\n$for I in range(10):\n$set S = S + S\n"
            "$endfor",
            {}, L) == "t.c.in:3:12: error: string longer than 1000 bytes");
  CHECK(err("${join(range(1000), \",\")}", {}, L) ==
        "t.c.in:1:3: error: string longer than 1000 bytes");
  // Doubling a string is charged by its size, so it stops early.
  CHECK(err("$set S = \"x\"\n$for I in range(100):\n$set S = S + S\n$endfor")
            .find("error: ") != std::string::npos);
}

namespace {

/// Makes random templates: lines of directives and substitutions built from
/// fragments of the language, with some random bytes mixed in.
class RandomTemplates {
public:
  explicit RandomTemplates(unsigned Seed) : Rng(Seed) {}

  std::string next() {
    std::string T;
    unsigned Lines = pick(12);
    for (unsigned I = 0; I < Lines; ++I)
      T += line() + (pick(20) ? "\n" : "");
    return T;
  }

private:
  std::mt19937 Rng;

  unsigned pick(unsigned N) { return Rng() % N; }
  template <size_t N> const char *oneOf(const char *const (&A)[N]) {
    return A[pick(N)];
  }

  std::string expr() {
    static const char *const Tokens[] = {"I",
                                         "J",
                                         "L",
                                         "M",
                                         "S",
                                         "X",
                                         "0",
                                         "1",
                                         "2",
                                         "-1",
                                         "9223372036854775807",
                                         "\"s\"",
                                         "'q'",
                                         "\"\\n\"",
                                         "true",
                                         "false",
                                         "+",
                                         "-",
                                         "*",
                                         "/",
                                         "%",
                                         "==",
                                         "!=",
                                         "<",
                                         ">=",
                                         " and ",
                                         " or ",
                                         " not ",
                                         " in ",
                                         " if ",
                                         " else ",
                                         "(",
                                         ")",
                                         "[",
                                         "]",
                                         ",",
                                         ".",
                                         ".k",
                                         "len(",
                                         "range(",
                                         "join(",
                                         "upper(",
                                         "lower(",
                                         "str(",
                                         "min(",
                                         "max(",
                                         "[1, 2]",
                                         "range(3)",
                                         "L[0]",
                                         "M.k",
                                         "\"",
                                         "\\",
                                         "}",
                                         "$",
                                         "@",
                                         "#",
                                         ":"};
    std::string E;
    unsigned N = 1 + pick(8);
    for (unsigned I = 0; I < N; ++I)
      E += oneOf(Tokens);
    return E;
  }

  std::string line() {
    std::string Indent(pick(3), ' ');
    switch (pick(16)) {
    case 0:
      return Indent + "$for " + (pick(2) ? "I" : "J") + " in " + expr() + ":";
    case 1:
      return Indent + "$if " + expr() + ":";
    case 2:
      return Indent + "$elif " + expr() + ":";
    case 3:
      return Indent + "$else:";
    case 4:
      return Indent + "$endfor";
    case 5:
      return Indent + "$endif";
    case 6:
      return Indent + "$set " + (pick(2) ? "X" : "L") + " = " + expr();
    case 7:
      return Indent + "$assert " + expr() + (pick(3) ? "" : ", " + expr());
    case 8:
      return Indent + "$# " + expr();
    case 9: {
      std::string Bytes;
      for (unsigned I = pick(16); I > 0; --I)
        Bytes += static_cast<char>(pick(256));
      return Bytes;
    }
    case 10:
      return Indent + "$$ " + expr();
    default: {
      std::string Text = Indent + "x";
      for (unsigned I = pick(4); I > 0; --I)
        Text += std::string(pick(2) ? " $" : " ") + "{" + expr() +
                (pick(8) ? "}" : "") + " ;";
      return Text;
    }
    }
  }
};

} // namespace

TEST_CASE("random input never crashes the engine") {
  RandomTemplates Gen(12345);
  Bindings B{{"L", list({1, "a", list({2})})},
             {"M", Value(Value::Map{{"k", 1}})},
             {"I", 3},
             {"S", "str"}};
  RenderLimits Lim;
  Lim.MaxSteps = 100000;
  Lim.MaxOutputBytes = 1 << 16;
  Lim.MaxStringBytes = 1 << 14;
  const unsigned Cases = 20000;
  unsigned Parsed = 0, Rendered = 0;
  for (unsigned Case = 0; Case < Cases; ++Case) {
    std::string T = Gen.next();
    CAPTURE(T);
    llvm::Expected<Template> Tm = Template::parse(T, Name);
    if (!Tm) {
      REQUIRE(llvm::StringRef(llvm::toString(Tm.takeError()))
                  .startswith("t.c.in:"));
      continue;
    }
    ++Parsed;
    llvm::Expected<std::string> S = Tm->render(B, Lim);
    if (S)
      ++Rendered;
    else
      REQUIRE(
          llvm::StringRef(llvm::toString(S.takeError())).startswith("t.c.in:"));
  }
  MESSAGE(Parsed << " of " << Cases << " random templates parsed, " << Rendered
                 << " rendered");
  CHECK(Parsed > Cases / 20);
  CHECK(Rendered > Cases / 40);
}

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

TEST_CASE("a parsed template renders many times, deterministically") {
  llvm::Expected<Template> T =
      Template::parse("$for I in range(N):\n${P}${I}\n$endfor\n", "loop.in");
  REQUIRE(static_cast<bool>(T));
  CHECK(T->name() == "loop.in");
  Template Copy = *T;
  for (int N = 0; N < 4; ++N) {
    Bindings B{{"N", N}, {"P", "v"}};
    llvm::Expected<std::string> A = T->render(B);
    llvm::Expected<std::string> C = Copy.render(B);
    REQUIRE(static_cast<bool>(A));
    REQUIRE(static_cast<bool>(C));
    CHECK(*A == *C);
    std::string Want;
    for (int I = 0; I < N; ++I)
      Want += "v" + std::to_string(I) + "\n";
    CHECK(*A == Want);
  }
  // Errors name the template.
  llvm::Expected<std::string> E = T->render({});
  REQUIRE(!E);
  CHECK(llvm::toString(E.takeError()) ==
        "loop.in:1:17: error: unknown name 'N'");
}

TEST_CASE("TemplateError carries the location") {
  llvm::Expected<Template> T = Template::parse("\n\n   $bad", "x.in");
  REQUIRE(!T);
  bool Seen = false;
  llvm::handleAllErrors(T.takeError(), [&](const TemplateError &E) {
    Seen = true;
    CHECK(E.templateName() == "x.in");
    CHECK(E.line() == 3);
    CHECK(E.column() == 4);
    CHECK(E.text() == "unknown directive '$bad'");
  });
  CHECK(Seen);
}

TEST_CASE("banner names the template") {
  CHECK(banner("kernels/add.c.in") ==
        "// Generated by accelgen from template kernels/add.c.in. Do not "
        "edit.\n");
  CHECK(banner("model.c.in", "#") ==
        "# Generated by accelgen from template model.c.in. Do not edit.\n");
  CHECK(banner("model.c.in", "/*") ==
        "/* Generated by accelgen from template model.c.in. Do not edit. */\n");
}

TEST_CASE("renderFile reads, parses and renders") {
  test::TempDir Dir;
  std::string Path = Dir.file("x.c.in");
  std::string Text = "$assert N > 0\nint a[${N}];\n";
  test::writeFileBytes(
      Path, llvm::ArrayRef<uint8_t>(
                reinterpret_cast<const uint8_t *>(Text.data()), Text.size()));
  llvm::Expected<std::string> S = renderFile(Path, {{"N", 3}});
  REQUIRE(static_cast<bool>(S));
  CHECK(*S == "int a[3];\n");
  llvm::Expected<std::string> Bad = renderFile(Path, {{"N", 0}});
  REQUIRE(!Bad);
  CHECK(llvm::toString(Bad.takeError()) ==
        Path + ":1:1: error: assertion failed: N > 0 (with N = 0)");
  llvm::Expected<std::string> Missing = renderFile(Dir.file("none.in"), {});
  REQUIRE(!Missing);
  CHECK(
      llvm::StringRef(llvm::toString(Missing.takeError()))
          .startswith("cannot read template '" + Dir.file("none.in") + "': "));
}

//===----------------------------------------------------------------------===//
// A kernel template
//===----------------------------------------------------------------------===//

namespace {

Bindings kernelBindings(llvm::StringRef DType, int BatchTile) {
  return {{"TARGET", "Ref"}, {"DTYPE", DType}, {"BATCH_TILE", BatchTile}};
}

std::string kernelPath() { return templateDir() + "/elementwise_add.c.in"; }

} // namespace

TEST_CASE("an elementwise kernel for int8, uint8 and float compiles as C99") {
  llvm::ErrorOr<std::string> CC = llvm::sys::findProgramByName("cc");
  REQUIRE_MESSAGE(static_cast<bool>(CC), "no C compiler 'cc' on PATH");
  llvm::Expected<Template> T = Template::parseFile(kernelPath());
  REQUIRE_MESSAGE(static_cast<bool>(T), llvm::toString(T.takeError()));
  test::TempDir Dir;
  for (llvm::StringRef DType : {"int8", "uint8", "float"}) {
    CAPTURE(DType.str());
    llvm::Expected<std::string> S = T->render(kernelBindings(DType, 4));
    REQUIRE_MESSAGE(static_cast<bool>(S), llvm::toString(S.takeError()));
    std::string Kernel = "ref_add_" + DType.str() + "_x4";
    std::string CType = DType == "float" ? "float" : DType.str() + "_t";
    CHECK(S->find("void " + Kernel + "(size_t n, const " + CType + " *a") !=
          std::string::npos);
    CHECK(S->find("    out[i + 3] = " + Kernel +
                  "_one(a[i + 3], b[i + 3], "
                  "params);\n") != std::string::npos);
    CHECK(S->find("out[i + 4]") == std::string::npos);
    CHECK(S->find('$') == std::string::npos);
    if (DType == "int8")
      CHECK(S->find("  if (out < -128) {\n    out = -128;\n") !=
            std::string::npos);
    if (DType == "uint8")
      CHECK(S->find("  if (out > 255) {\n    out = 255;\n") !=
            std::string::npos);
    if (DType == "float")
      CHECK(S->find("int64_t") == std::string::npos);

    std::string File = Dir.file(Kernel + ".c");
    std::string Text = banner("elementwise_add.c.in") + *S;
    test::writeFileBytes(
        File, llvm::ArrayRef<uint8_t>(
                  reinterpret_cast<const uint8_t *>(Text.data()), Text.size()));
    test::RunResult R = test::runProgram(
        *CC, {"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c",
              File, "-o", Dir.file(Kernel + ".o")});
    CHECK_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
  }
}

TEST_CASE("the kernel template checks its parameters") {
  llvm::Expected<Template> T = Template::parseFile(kernelPath());
  REQUIRE(static_cast<bool>(T));
  std::string Where = kernelPath() + ":";
  llvm::Expected<std::string> S = T->render(kernelBindings("int16", 4));
  REQUIRE(!S);
  CHECK(llvm::toString(S.takeError()) ==
        Where + "5:1: error: assertion failed: DTYPE in [\"int8\", \"uint8\", "
                "\"float\"] (with DTYPE = \"int16\")");
  S = T->render(kernelBindings("int8", 32));
  REQUIRE(!S);
  CHECK(llvm::toString(S.takeError()) ==
        Where + "6:1: error: assertion failed: BATCH_TILE >= 1 and "
                "BATCH_TILE <= 16 (with BATCH_TILE = 32): BATCH_TILE must be "
                "in [1, 16]");
  S = T->render({{"DTYPE", "int8"}, {"BATCH_TILE", 1}});
  REQUIRE(!S);
  CHECK(llvm::toString(S.takeError()) ==
        Where + "4:9: error: unknown name 'TARGET'");
}
