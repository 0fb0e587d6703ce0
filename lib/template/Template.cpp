//===- Template.cpp - Parsing and rendering templates ---------------------===//
//
// A template is read line by line. A line whose first non-blank character is
// `$`, followed by neither `{` nor `$`, is a directive; every other line is
// text, copied with its `${...}` substitutions evaluated and `$$` made `$`.
// Directives build a tree of blocks with an explicit stack (`$endfor` and
// `$endif` close them), so parsing never recurses on nesting; rendering
// walks the tree, whose depth is bounded by MaxBlockDepth.
//
//===----------------------------------------------------------------------===//
#include "template/Template.h"
#include "support/InputFile.h"
#include "template/Expr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <vector>

namespace accelgen {
namespace tmpl {

char TemplateError::ID = 0;

void TemplateError::log(llvm::raw_ostream &OS) const {
  OS << TemplateName << ':' << Line << ':' << Column << ": error: " << Message;
}

std::error_code TemplateError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error makeTemplateError(llvm::StringRef TemplateName, unsigned Line,
                              unsigned Column, const llvm::Twine &Message) {
  return llvm::make_error<TemplateError>(TemplateName, Line, Column,
                                         Message.str());
}

namespace {

/// How deeply `$for` and `$if` blocks may nest.
constexpr unsigned MaxBlockDepth = 64;

struct Branch;

/// A run of literal text, or one substitution.
struct Piece {
  std::string Literal;
  ExprPtr Subst;
};

/// One element of a template body.
struct Node {
  enum Kind { Text, For, If, Assert, Set } K;
  /// The line and column of the directive's `$`, or of the first text line.
  unsigned Line = 0;
  unsigned Column = 0;
  /// Text: literals and substitutions in order.
  std::vector<Piece> Pieces;
  /// For: the loop variable; Set: the name set.
  std::string Name;
  /// For: what is iterated; Set: the value; Assert: the condition.
  ExprPtr E;
  /// Assert: the optional message.
  ExprPtr Message;
  /// Assert: the condition as written.
  std::string Source;
  /// For: the loop body.
  std::vector<Node> Body;
  /// If: `$if` and each `$elif`, then `$else` (Cond null).
  std::vector<Branch> Branches;
};

struct Branch {
  ExprPtr Cond;
  std::vector<Node> Body;
  unsigned Line = 0;
};

bool isBlankChar(char C) { return C == ' ' || C == '\t'; }

} // namespace

struct Template::Body {
  std::string Name;
  std::vector<Node> Nodes;
};

namespace {

/// Builds a template's node tree from its text.
class Parser {
public:
  Parser(llvm::StringRef Text, llvm::StringRef Name) : Text(Text), Name(Name) {}

  llvm::Error run(std::vector<Node> &Root) {
    this->Root = &Root;
    unsigned LineNo = 0;
    size_t Pos = 0;
    while (Pos < Text.size()) {
      size_t NL = Text.find('\n', Pos);
      bool HasNewline = NL != llvm::StringRef::npos;
      size_t End = HasNewline ? NL : Text.size();
      llvm::StringRef Line = Text.slice(Pos, End);
      Pos = HasNewline ? End + 1 : End;
      ++LineNo;
      size_t First = 0;
      while (First < Line.size() && isBlankChar(Line[First]))
        ++First;
      bool Directive = First < Line.size() && Line[First] == '$' &&
                       (First + 1 == Line.size() ||
                        (Line[First + 1] != '{' && Line[First + 1] != '$'));
      llvm::Error Err = Directive ? directive(Line, LineNo, First)
                                  : text(Line, LineNo, HasNewline);
      if (Err)
        return Err;
    }
    if (!Stack.empty()) {
      const Open &O = Stack.back();
      return error(O.N->Line, O.N->Column,
                   "unterminated '" + O.Keyword + "'; expected '" + closer(O) +
                       "' before the end of the template");
    }
    return llvm::Error::success();
  }

private:
  /// A block not yet closed.
  struct Open {
    Node *N;
    llvm::StringRef Keyword; // "$for" or "$if"
    unsigned ElseLine = 0;   // the line of its `$else`, if seen
  };

  llvm::StringRef Text;
  llvm::StringRef Name;
  std::vector<Node> *Root = nullptr;
  std::vector<Open> Stack;

  llvm::Error error(unsigned Line, unsigned Column, const llvm::Twine &Msg) {
    return makeTemplateError(Name, Line, Column, Msg);
  }

  static llvm::StringRef closer(const Open &O) {
    return O.N->K == Node::For ? "$endfor" : "$endif";
  }

  /// Where new nodes go: the innermost open block's current body.
  std::vector<Node> &body() {
    if (Stack.empty())
      return *Root;
    Node &N = *Stack.back().N;
    return N.K == Node::For ? N.Body : N.Branches.back().Body;
  }

  llvm::Error text(llvm::StringRef Line, unsigned LineNo, bool HasNewline) {
    std::vector<Piece> Pieces;
    std::string Lit;
    size_t I = 0;
    while (I < Line.size()) {
      size_t J = Line.find('$', I);
      if (J == llvm::StringRef::npos) {
        Lit += Line.substr(I);
        break;
      }
      Lit += Line.slice(I, J);
      char Next = J + 1 < Line.size() ? Line[J + 1] : '\0';
      if (Next == '$') {
        Lit += '$';
        I = J + 2;
        continue;
      }
      if (Next != '{') {
        Lit += '$';
        I = J + 1;
        continue;
      }
      ExprParser P(Name, LineNo, Line, J + 2);
      llvm::Expected<ExprPtr> E = P.parseExpr();
      if (!E)
        return E.takeError();
      if (!P.accept("}")) {
        if (P.atEnd())
          return error(LineNo, J + 1, "'${' is not closed by '}'");
        if (llvm::Error Err = P.expect("}", "to close '${'"))
          return Err;
      }
      if (!Lit.empty())
        Pieces.push_back({std::move(Lit), nullptr});
      Lit.clear();
      Pieces.push_back({std::string(), std::move(*E)});
      I = P.lastEnd();
    }
    if (HasNewline)
      Lit += '\n';
    if (!Lit.empty())
      Pieces.push_back({std::move(Lit), nullptr});
    if (Pieces.empty())
      return llvm::Error::success();

    // Consecutive text lines make one node, literals merged.
    std::vector<Node> &B = body();
    if (B.empty() || B.back().K != Node::Text) {
      B.emplace_back();
      B.back().K = Node::Text;
      B.back().Line = LineNo;
      B.back().Column = 1;
    }
    std::vector<Piece> &Into = B.back().Pieces;
    for (Piece &P : Pieces) {
      if (!P.Subst && !Into.empty() && !Into.back().Subst)
        Into.back().Literal += P.Literal;
      else
        Into.push_back(std::move(P));
    }
    return llvm::Error::success();
  }

  llvm::Error directive(llvm::StringRef Line, unsigned LineNo, size_t Dollar) {
    unsigned Col = Dollar + 1;
    if (Dollar + 1 < Line.size() && Line[Dollar + 1] == '#')
      return llvm::Error::success();
    size_t KEnd = Dollar + 1;
    while (KEnd < Line.size() &&
           (llvm::isAlnum(Line[KEnd]) || Line[KEnd] == '_'))
      ++KEnd;
    llvm::StringRef Keyword = Line.slice(Dollar + 1, KEnd);
    if (Keyword.empty())
      return error(LineNo, Col,
                   "expected a directive after '$' (write '$$' for a "
                   "literal '$')");
    ExprParser P(Name, LineNo, Line, KEnd);

    if (Keyword == "for") {
      Node N = start(Node::For, LineNo, Col);
      if (llvm::Error Err = P.expectName(N.Name, "loop variable"))
        return Err;
      if (llvm::Error Err = P.expect("in", "after the loop variable"))
        return Err;
      if (llvm::Error Err = parseInto(P, N.E))
        return Err;
      if (llvm::Error Err = colonAndEnd(P, "$for"))
        return Err;
      return push(std::move(N), "$for");
    }
    if (Keyword == "if") {
      Node N = start(Node::If, LineNo, Col);
      N.Branches.emplace_back();
      N.Branches.back().Line = LineNo;
      if (llvm::Error Err = parseInto(P, N.Branches.back().Cond))
        return Err;
      if (llvm::Error Err = colonAndEnd(P, "$if"))
        return Err;
      return push(std::move(N), "$if");
    }
    if (Keyword == "elif" || Keyword == "else") {
      bool IsElse = Keyword == "else";
      std::string Spelled = ("$" + Keyword).str();
      if (llvm::Error Err = innermostIf(Spelled, LineNo, Col))
        return Err;
      Open &O = Stack.back();
      if (O.ElseLine)
        return error(LineNo, Col,
                     "'" + Spelled + "' follows the '$else' at line " +
                         llvm::Twine(O.ElseLine));
      Branch B;
      B.Line = LineNo;
      if (!IsElse)
        if (llvm::Error Err = parseInto(P, B.Cond))
          return Err;
      if (llvm::Error Err = colonAndEnd(P, Spelled))
        return Err;
      if (IsElse)
        O.ElseLine = LineNo;
      O.N->Branches.push_back(std::move(B));
      return llvm::Error::success();
    }
    if (Keyword == "endfor" || Keyword == "endif") {
      std::string Spelled = ("$" + Keyword).str();
      if (llvm::Error Err = P.expectEnd("after '" + Spelled + "'"))
        return Err;
      Node::Kind Want = Keyword == "endfor" ? Node::For : Node::If;
      if (Stack.empty())
        return error(LineNo, Col,
                     "'" + Spelled + "' without an open '" +
                         (Want == Node::For ? "$for" : "$if") + "'");
      const Open &O = Stack.back();
      if (O.N->K != Want)
        return mismatch(O, Spelled, LineNo, Col);
      Stack.pop_back();
      return llvm::Error::success();
    }
    if (Keyword == "assert") {
      Node N = start(Node::Assert, LineNo, Col);
      size_t From = P.position();
      if (llvm::Error Err = parseInto(P, N.E))
        return Err;
      N.Source = Line.slice(From, P.lastEnd()).trim().str();
      if (P.accept(","))
        if (llvm::Error Err = parseInto(P, N.Message))
          return Err;
      if (llvm::Error Err = P.expectEnd("after the '$assert' condition"))
        return Err;
      body().push_back(std::move(N));
      return llvm::Error::success();
    }
    if (Keyword == "set") {
      Node N = start(Node::Set, LineNo, Col);
      if (llvm::Error Err = P.expectName(N.Name, "variable"))
        return Err;
      if (llvm::Error Err = P.expect("=", "after the variable name"))
        return Err;
      if (llvm::Error Err = parseInto(P, N.E))
        return Err;
      if (llvm::Error Err = P.expectEnd("after the '$set' value"))
        return Err;
      body().push_back(std::move(N));
      return llvm::Error::success();
    }
    return error(LineNo, Col,
                 "unknown directive '$" + Keyword.take_front(32) + "'");
  }

  static Node start(Node::Kind K, unsigned Line, unsigned Col) {
    Node N;
    N.K = K;
    N.Line = Line;
    N.Column = Col;
    return N;
  }

  static llvm::Error parseInto(ExprParser &P, ExprPtr &Into) {
    llvm::Expected<ExprPtr> E = P.parseExpr();
    if (!E)
      return E.takeError();
    Into = std::move(*E);
    return llvm::Error::success();
  }

  static llvm::Error colonAndEnd(ExprParser &P, llvm::StringRef Spelled) {
    if (llvm::Error Err =
            P.expect(":", "at the end of '" + Spelled.str() + "'"))
      return Err;
    bool HasExpr = Spelled != "$else";
    return P.expectEnd("after '" + Spelled.str() + (HasExpr ? " ...:'" : ":'"));
  }

  llvm::Error push(Node N, llvm::StringRef Keyword) {
    if (Stack.size() >= MaxBlockDepth)
      return error(N.Line, N.Column,
                   "blocks nested more than " + llvm::Twine(MaxBlockDepth) +
                       " levels deep");
    std::vector<Node> &B = body();
    B.push_back(std::move(N));
    Stack.push_back({&B.back(), Keyword});
    return llvm::Error::success();
  }

  llvm::Error mismatch(const Open &O, llvm::StringRef Got, unsigned Line,
                       unsigned Col) {
    return error(Line, Col,
                 "expected '" + closer(O) + "' to close the '" + O.Keyword +
                     "' at line " + llvm::Twine(O.N->Line) + ", got '" + Got +
                     "'");
  }

  llvm::Error innermostIf(llvm::StringRef Spelled, unsigned Line,
                          unsigned Col) {
    if (Stack.empty())
      return error(Line, Col, "'" + Spelled + "' without an open '$if'");
    if (Stack.back().N->K != Node::If)
      return mismatch(Stack.back(), Spelled, Line, Col);
    return llvm::Error::success();
  }
};

/// Renders a parsed template once.
class Renderer {
public:
  Renderer(const Template::Body &T, const Bindings &Globals,
           const RenderLimits &L)
      : T(T), MaxOutput(L.MaxOutputBytes) {
    Env.Caller = &Globals;
    B.Steps = L.MaxSteps;
    B.MaxStringBytes = L.MaxStringBytes;
  }

  llvm::Expected<std::string> run() {
    if (llvm::Error Err = nodes(T.Nodes))
      return Err;
    return std::move(Out);
  }

private:
  const Template::Body &T;
  size_t MaxOutput;
  Environment Env;
  Budget B;
  std::string Out;

  llvm::Error error(unsigned Line, unsigned Column, const llvm::Twine &Msg) {
    return makeTemplateError(T.Name, Line, Column, Msg);
  }

  bool charge(uint64_t N) {
    if (B.Steps < N) {
      B.Steps = 0;
      return false;
    }
    B.Steps -= N;
    return true;
  }

  llvm::Error nodes(const std::vector<Node> &Nodes) {
    for (const Node &N : Nodes) {
      if (!charge(1))
        return budgetExhausted(T.Name, N.Line, N.Column);
      llvm::Error Err = llvm::Error::success();
      switch (N.K) {
      case Node::Text:
        Err = text(N);
        break;
      case Node::For:
        Err = loop(N);
        break;
      case Node::If:
        Err = branches(N);
        break;
      case Node::Assert:
        Err = check(N);
        break;
      case Node::Set:
        Err = set(N);
        break;
      }
      if (Err)
        return Err;
    }
    return llvm::Error::success();
  }

  llvm::Error text(const Node &N) {
    for (const Piece &P : N.Pieces) {
      if (!P.Subst) {
        Out += P.Literal;
        continue;
      }
      llvm::Expected<Value> V = evaluate(*P.Subst, Env, B, T.Name);
      if (!V)
        return V.takeError();
      if (!appendText(*V, Out))
        return error(P.Subst->Line, P.Subst->Column,
                     "cannot substitute " + withArticle(V->kind()) +
                         "; use join() or an index");
    }
    if (Out.size() > MaxOutput)
      return error(N.Line, N.Column,
                   "output exceeds the limit of " + llvm::Twine(MaxOutput) +
                       " bytes");
    return llvm::Error::success();
  }

  llvm::Error loop(const Node &N) {
    llvm::Expected<Value> Seq = evaluate(*N.E, Env, B, T.Name);
    if (!Seq)
      return Seq.takeError();
    auto Iteration = [&](Value V) -> llvm::Error {
      if (!charge(1))
        return budgetExhausted(T.Name, N.Line, N.Column);
      Env.Locals.back().second = std::move(V);
      return nodes(N.Body);
    };
    Env.Locals.emplace_back(N.Name, Value());
    if (Seq->isList()) {
      for (const Value &V : Seq->getList())
        if (llvm::Error Err = Iteration(V))
          return Err;
    } else if (Seq->isMap()) {
      for (const auto &KV : Seq->getMap())
        if (llvm::Error Err = Iteration(Value(KV.first)))
          return Err;
    } else {
      return error(N.E->Line, N.E->Column,
                   "'$for' needs a list or map to iterate, got " +
                       withArticle(Seq->kind()));
    }
    Env.Locals.pop_back();
    return llvm::Error::success();
  }

  llvm::Error branches(const Node &N) {
    for (const Branch &Br : N.Branches) {
      if (Br.Cond) {
        llvm::Expected<bool> C =
            evaluateCondition(*Br.Cond, Env, B, T.Name,
                              &Br == &N.Branches.front() ? "'$if' condition"
                                                         : "'$elif' condition");
        if (!C)
          return C.takeError();
        if (!*C)
          continue;
      }
      return nodes(Br.Body);
    }
    return llvm::Error::success();
  }

  llvm::Error check(const Node &N) {
    llvm::Expected<bool> C =
        evaluateCondition(*N.E, Env, B, T.Name, "'$assert' condition");
    if (!C)
      return C.takeError();
    if (*C)
      return llvm::Error::success();
    std::string Msg = "assertion failed: " + N.Source;
    describeNames(*N.E, Env, Msg);
    if (N.Message) {
      llvm::Expected<Value> M = evaluate(*N.Message, Env, B, T.Name);
      if (!M)
        return M.takeError();
      Msg += ": ";
      if (!appendText(*M, Msg))
        Msg += repr(*M);
    }
    return error(N.Line, N.Column, Msg);
  }

  llvm::Error set(const Node &N) {
    for (const auto &L : Env.Locals)
      if (L.first == N.Name)
        return error(N.Line, N.Column,
                     "cannot '$set' the loop variable '" + N.Name + "'");
    llvm::Expected<Value> V = evaluate(*N.E, Env, B, T.Name);
    if (!V)
      return V.takeError();
    Env.Globals[N.Name] = std::move(*V);
    return llvm::Error::success();
  }
};

} // namespace

llvm::Expected<Template> Template::parse(llvm::StringRef Text,
                                         llvm::StringRef Name) {
  auto B = std::make_shared<Body>();
  B->Name = Name.str();
  if (llvm::Error Err = Parser(Text, B->Name).run(B->Nodes))
    return Err;
  return Template(std::move(B));
}

llvm::Expected<Template> Template::parseFile(llvm::StringRef Path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      support::readInputFile(Path, support::MaxDescriptionBytes,
                             ("cannot read template '" + Path + "'").str());
  if (!Buf) {
    std::error_code EC = llvm::errorToErrorCode(Buf.takeError());
    if (EC == std::errc::file_too_large)
      return llvm::createStringError(
          EC, "template '%s': %s", Path.str().c_str(),
          support::tooLargeMessage(support::MaxDescriptionBytes).c_str());
    return llvm::createStringError(EC, "cannot read template '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return parse((*Buf)->getBuffer(), Path);
}

llvm::Expected<std::string> Template::render(const Bindings &Globals,
                                             const RenderLimits &Limits) const {
  return Renderer(*B, Globals, Limits).run();
}

llvm::StringRef Template::name() const { return B->Name; }

llvm::Expected<std::string> renderFile(llvm::StringRef Path,
                                       const Bindings &Globals) {
  llvm::Expected<Template> T = Template::parseFile(Path);
  if (!T)
    return T.takeError();
  return T->render(Globals);
}

std::string banner(llvm::StringRef TemplateName, llvm::StringRef Comment) {
  std::string S = (Comment + " Generated by accelgen from template " +
                   TemplateName + ". Do not edit.")
                      .str();
  if (Comment == "/*")
    S += " */";
  return S + "\n";
}

} // namespace tmpl
} // namespace accelgen
