//===- Expr.h - Expressions of the template language ------------*- C++ -*-===//
//
// The expressions inside `${...}` and after `$for`, `$if`, `$elif`, `$assert`
// and `$set`: their syntax tree, a parser that reads one from a position in a
// template line (directives read their own keywords through the same token
// stream), and an evaluator over the names in scope.
//
// Both sides are defensive: parsing limits how deeply expressions nest, and
// evaluation checks types, integer overflow, division by zero, indices, and
// a budget of steps and string bytes, so that no input can crash or hang the
// engine. This header is internal to the engine; users include Template.h.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TEMPLATE_EXPR_H
#define ACCELGEN_TEMPLATE_EXPR_H

#include "template/Value.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace tmpl {

/// How deeply expressions may nest (parentheses, operators, lists, calls).
constexpr unsigned MaxExprDepth = 200;
/// How deeply values made by a template may nest (lists in lists).
constexpr unsigned MaxValueDepth = 100;

/// The built-in functions.
enum class Builtin { Len, Range, Upper, Lower, Str, Join, Min, Max };

/// An operator of an Arith or Compare node.
enum class Op { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge };

/// One node of an expression tree.
struct Expr {
  enum Kind {
    Literal, ///< Lit
    List,    ///< [Operands...]
    Name,    ///< Text
    Index,   ///< Operands[0][Operands[1]]
    Member,  ///< Operands[0].Text
    Call,    ///< Fn(Operands...)
    Neg,     ///< -Operands[0]
    Not,     ///< not Operands[0]
    Arith,   ///< Operands[0] Operator Operands[1]
    Compare, ///< Operands[0] Operator Operands[1]
    And,     ///< Operands[0] and Operands[1]
    Or,      ///< Operands[0] or Operands[1]
    In,      ///< Operands[0] in Operands[1]
    NotIn,   ///< Operands[0] not in Operands[1]
    Cond     ///< Operands[0] if Operands[1] else Operands[2]
  };

  Kind K;
  /// Where the node is reported: its operator, or its first token.
  unsigned Line = 0;
  unsigned Column = 0;
  /// The height of the tree below and including this node.
  unsigned Depth = 1;
  Op Operator = Op::Add;
  Builtin Fn = Builtin::Len;
  Value Lit;
  std::string Text;
  std::vector<std::unique_ptr<Expr>> Operands;
};
using ExprPtr = std::unique_ptr<Expr>;

/// The spelling of a built-in function ("len").
llvm::StringRef builtinName(Builtin F);
/// The spelling of an operator ("+", "==").
llvm::StringRef opSpelling(Op O);

/// Reads expressions and directive keywords from one line of a template.
class ExprParser {
public:
  /// Reads \p LineText (line \p Line of template \p TemplateName, without its
  /// newline) from byte offset \p Pos.
  ExprParser(llvm::StringRef TemplateName, unsigned Line,
             llvm::StringRef LineText, size_t Pos);
  ~ExprParser();

  /// Parses one expression; stops before the first token that cannot
  /// continue it.
  llvm::Expected<ExprPtr> parseExpr();

  /// Reads a name that is not a keyword into \p Name; \p What says what it
  /// names in the error ("loop variable").
  llvm::Error expectName(std::string &Name, llvm::StringRef What);
  /// Reads the keyword or punctuation \p Spelling ("in", ":", "=", "}", ",").
  llvm::Error expect(llvm::StringRef Spelling, llvm::StringRef Context);
  /// Whether the next token is the punctuation or keyword \p Spelling; if so
  /// it is consumed.
  bool accept(llvm::StringRef Spelling);
  /// Fails unless only blanks remain on the line.
  llvm::Error expectEnd(llvm::StringRef Context);
  /// Whether only blanks remain on the line.
  bool atEnd() const;
  /// The byte offset where the next token starts.
  size_t position() const;
  /// The byte offset just past the last token read.
  size_t lastEnd() const;

private:
  class Impl;
  std::unique_ptr<Impl> P;
};

/// The names visible while a template renders: loop variables (innermost
/// last), then names made by `$set`, then the caller's bindings.
struct Environment {
  const Bindings *Caller = nullptr;
  llvm::StringMap<Value> Globals;
  std::vector<std::pair<std::string, Value>> Locals;

  /// The value of \p Name, or null.
  const Value *lookup(llvm::StringRef Name) const;
};

/// What one rendering may still spend.
struct Budget {
  /// Evaluation steps and loop iterations left.
  uint64_t Steps = 0;
  /// The longest string a template may make.
  size_t MaxStringBytes = 0;
};

/// Evaluates \p E in \p Env, charging \p B; errors are TemplateErrors of
/// template \p TemplateName at the node responsible.
llvm::Expected<Value> evaluate(const Expr &E, const Environment &Env,
                               Budget &B, llvm::StringRef TemplateName);

/// Evaluates \p E, which must give a bool; \p Context names the place
/// ("'$if' condition").
llvm::Expected<bool> evaluateCondition(const Expr &E, const Environment &Env,
                                       Budget &B, llvm::StringRef TemplateName,
                                       llvm::StringRef Context);

/// The error "exceeds the step limit" at \p Line:\p Column.
llvm::Error budgetExhausted(llvm::StringRef TemplateName, unsigned Line,
                            unsigned Column);

/// Appends \p V as text to \p Out: an int in decimal, a bool as "true" or
/// "false", a string as itself. Lists and maps have no text: returns false.
bool appendText(const Value &V, std::string &Out);

/// "an int", "a list": the kind with its article, for messages.
std::string withArticle(Value::Kind K);

/// Appends the values of the names \p E reads, as " (with A = 1, B = "x")",
/// to \p Out; nothing if it reads no bound names.
void describeNames(const Expr &E, const Environment &Env, std::string &Out);

} // namespace tmpl
} // namespace accelgen

#endif // ACCELGEN_TEMPLATE_EXPR_H
