//===- ParamFieldsGen.cpp - X-macro rows of the kernels' params structs ---===//
//
// A build-time tool: reads the reference kernels' C headers and writes one
// X-macro row per field of every `typedef struct ref_*_params { ... }`, so
// that the C emitter prints every field of every parameter struct without a
// hand-kept list that could fall behind the headers:
//
//   REF_PARAMS_BEGIN(ref_pad_params)
//   REF_PARAMS_ARRAY(ref_pad_params, before, REF_MAX_RANK)
//   REF_PARAMS_FIELD(ref_pad_params, pad_value)
//   REF_PARAMS_END(ref_pad_params)
//
// The headers are plain C; the parser accepts the declarations they use
// (qualifiers, a type name, declarators with `*` or one `[N]`) and reports
// anything else at its file and line rather than guessing.
//
// Usage: accelgen-param-fields OUTPUT.inc HEADER...
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Token {
  std::string Text;
  unsigned Line;
};

/// Splits C text into identifiers, numbers and one-character punctuation,
/// dropping comments and preprocessor lines.
std::vector<Token> tokenize(const std::string &S) {
  std::vector<Token> Tokens;
  unsigned Line = 1;
  bool LineStart = true;
  for (size_t I = 0; I < S.size();) {
    char C = S[I];
    if (C == '\n') {
      ++Line;
      LineStart = true;
      ++I;
    } else if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
    } else if (C == '#' && LineStart) {
      // A preprocessor line, with its continuations.
      while (I < S.size() && S[I] != '\n') {
        if (S[I] == '\\' && I + 1 < S.size() && S[I + 1] == '\n') {
          ++Line;
          ++I;
        }
        ++I;
      }
    } else if (S.compare(I, 2, "/*") == 0) {
      size_t End = S.find("*/", I + 2);
      End = End == std::string::npos ? S.size() : End + 2;
      for (size_t J = I; J < End; ++J)
        Line += S[J] == '\n';
      I = End;
    } else if (S.compare(I, 2, "//") == 0) {
      while (I < S.size() && S[I] != '\n')
        ++I;
    } else if (std::isalnum(static_cast<unsigned char>(C)) || C == '_') {
      size_t J = I;
      while (J < S.size() &&
             (std::isalnum(static_cast<unsigned char>(S[J])) || S[J] == '_'))
        ++J;
      Tokens.push_back({S.substr(I, J - I), Line});
      LineStart = false;
      I = J;
    } else {
      Tokens.push_back({std::string(1, C), Line});
      LineStart = false;
      ++I;
    }
  }
  return Tokens;
}

bool isIdentifier(const std::string &S) {
  return !S.empty() &&
         (std::isalpha(static_cast<unsigned char>(S[0])) || S[0] == '_');
}

bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

/// Parses the `*_params` structs of one header into rows on \p OS; returns
/// false after printing an error.
bool parseHeader(const std::string &Path, std::ostream &OS) {
  std::ifstream In(Path);
  if (!In) {
    std::cerr << "error: cannot read " << Path << "\n";
    return false;
  }
  std::stringstream Buf;
  Buf << In.rdbuf();
  std::vector<Token> T = tokenize(Buf.str());
  auto Fail = [&](unsigned Line, const std::string &Msg) {
    std::cerr << Path << ":" << Line << ": error: " << Msg << "\n";
    return false;
  };

  for (size_t I = 0; I + 3 < T.size(); ++I) {
    if (T[I].Text != "typedef" || T[I + 1].Text != "struct" ||
        !endsWith(T[I + 2].Text, "_params") || T[I + 3].Text != "{")
      continue;
    const std::string Struct = T[I + 2].Text;
    OS << "REF_PARAMS_BEGIN(" << Struct << ")\n";
    size_t P = I + 4;
    while (P < T.size() && T[P].Text != "}") {
      // The type (qualifiers and a type name) ends where the first
      // declarator starts: its name is the token before the first ',', ';'
      // or '[', preceded by any '*' and 'const'.
      size_t End = P;
      while (End < T.size() && T[End].Text != "," && T[End].Text != ";" &&
             T[End].Text != "[" && T[End].Text != "}")
        ++End;
      if (End >= T.size() || T[End].Text == "}" || End < P + 2)
        return Fail(T[P].Line, "expected a field declaration in " + Struct);
      size_t Declarator = End - 1;
      while (Declarator > P + 1 && (T[Declarator - 1].Text == "*" ||
                                    (T[Declarator - 1].Text == "const" &&
                                     T[Declarator - 2].Text == "*")))
        --Declarator;
      P = Declarator;
      for (;;) {
        if (P >= T.size())
          return Fail(T.back().Line, "unterminated struct " + Struct);
        while (T[P].Text == "*" || T[P].Text == "const")
          ++P;
        if (!isIdentifier(T[P].Text))
          return Fail(T[P].Line, "expected a field name in " + Struct +
                                     ", found '" + T[P].Text + "'");
        std::string Field = T[P++].Text;
        if (T[P].Text == "[") {
          if (P + 2 >= T.size() || T[P + 2].Text != "]")
            return Fail(T[P].Line, "only one-token array sizes are supported "
                                   "(field " +
                                       Field + ")");
          OS << "REF_PARAMS_ARRAY(" << Struct << ", " << Field << ", "
             << T[P + 1].Text << ")\n";
          P += 3;
        } else {
          OS << "REF_PARAMS_FIELD(" << Struct << ", " << Field << ")\n";
        }
        if (T[P].Text == ",") {
          ++P;
          continue;
        }
        if (T[P].Text == ";") {
          ++P;
          break;
        }
        return Fail(T[P].Line, "unexpected '" + T[P].Text + "' after field " +
                                   Field + " of " + Struct);
      }
    }
    if (P + 2 >= T.size() || T[P + 1].Text != Struct || T[P + 2].Text != ";")
      return Fail(T[std::min(P, T.size() - 1)].Line,
                  "expected '} " + Struct + ";' closing the typedef");
    OS << "REF_PARAMS_END(" << Struct << ")\n";
    I = P + 2;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: accelgen-param-fields OUTPUT.inc HEADER...\n";
    return 1;
  }
  std::ostringstream OS;
  OS << "// Generated by accelgen-param-fields from the reference kernels' "
        "headers. Do not edit.\n"
     << "// X-macro rows: REF_PARAMS_BEGIN(Struct), "
        "REF_PARAMS_FIELD(Struct, Field),\n"
     << "// REF_PARAMS_ARRAY(Struct, Field, Length), REF_PARAMS_END(Struct).\n"
     << "#ifndef REF_PARAMS_BEGIN\n#define REF_PARAMS_BEGIN(Struct)\n#endif\n"
     << "#ifndef REF_PARAMS_FIELD\n#define REF_PARAMS_FIELD(Struct, Field)\n"
        "#endif\n"
     << "#ifndef REF_PARAMS_ARRAY\n"
        "#define REF_PARAMS_ARRAY(Struct, Field, Length)\n#endif\n"
     << "#ifndef REF_PARAMS_END\n#define REF_PARAMS_END(Struct)\n#endif\n\n";
  std::vector<std::string> Headers(argv + 2, argv + argc);
  std::sort(Headers.begin(), Headers.end());
  for (const std::string &H : Headers)
    if (!parseHeader(H, OS))
      return 1;
  OS << "\n#undef REF_PARAMS_BEGIN\n#undef REF_PARAMS_FIELD\n"
        "#undef REF_PARAMS_ARRAY\n#undef REF_PARAMS_END\n";

  // Rewrite the output only when it changes.
  std::string Text = OS.str();
  {
    std::ifstream Old(argv[1]);
    std::stringstream OldBuf;
    OldBuf << Old.rdbuf();
    if (Old && OldBuf.str() == Text)
      return 0;
  }
  std::ofstream Out(argv[1]);
  Out << Text;
  if (!Out) {
    std::cerr << "error: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
