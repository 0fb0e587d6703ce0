//===- Escape.cpp - Text from descriptions, safe where it is written ------===//
//
// The escaping functions of Escape.h.
//
//===----------------------------------------------------------------------===//
#include "constraint/Escape.h"

#include <algorithm>
#include <cstdio>

namespace accelgen {
namespace gen {

namespace {

bool isControl(char C) {
  return static_cast<unsigned char>(C) < 0x20 || C == 0x7f;
}

/// \p S on one line: every control character a space.
std::string oneLine(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    Out += isControl(C) ? ' ' : C;
  return Out;
}

} // namespace

std::string cppStringLiteral(llvm::StringRef S) {
  std::string Out = "\"";
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    case '?':
      Out += I > 0 && S[I - 1] == '?' ? "\\?" : "?";
      break;
    default:
      if (isControl(C)) {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), "\\%03o",
                      static_cast<unsigned char>(C));
        Out += Buf;
      } else {
        Out += C;
      }
    }
  }
  return Out + "\"";
}

std::string commentText(llvm::StringRef S) {
  std::string Out;
  for (char C : oneLine(S)) {
    // "*/", "/*" and "??" are split by a space.
    if (!Out.empty() &&
        ((Out.back() == '*' && C == '/') || (Out.back() == '/' && C == '*') ||
         (Out.back() == '?' && C == '?')))
      Out += ' ';
    Out += C;
  }
  while (!Out.empty() && (Out.back() == ' ' || Out.back() == '\\'))
    Out.pop_back();
  return Out;
}

std::string markdownCell(llvm::StringRef S) {
  std::string Out;
  for (char C : oneLine(S)) {
    if (C == '|' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

std::string markdownCode(llvm::StringRef S) {
  std::string Text;
  size_t Run = 0, Longest = 0;
  for (char C : oneLine(S)) {
    Run = C == '`' ? Run + 1 : 0;
    Longest = std::max(Longest, Run);
    if (C == '|')
      Text += '\\';
    Text += C;
  }
  std::string Fence(Longest + 1, '`');
  // A space keeps a backtick at either end from joining the fence.
  bool Pad = !Text.empty() && (Text.front() == '`' || Text.back() == '`');
  return Fence + (Pad ? " " : "") + Text + (Pad ? " " : "") + Fence;
}

std::string markdownText(llvm::StringRef S) {
  std::string Out = oneLine(S);
  llvm::StringRef Trimmed = llvm::StringRef(Out).ltrim();
  if (!Trimmed.empty() && llvm::StringRef("#>-+*=|").contains(Trimmed.front()))
    Out.insert(Out.size() - Trimmed.size(), "\\");
  return Out;
}

} // namespace gen
} // namespace accelgen
