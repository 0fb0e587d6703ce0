//===- Value.cpp - Values of the template language ------------------------===//
//
// Construction of list and map values (sharing their storage and recording
// how deeply they nest), deep equality, and the diagnostic rendering `repr`.
//
//===----------------------------------------------------------------------===//
#include "template/Value.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace accelgen {
namespace tmpl {

Value::Value(List L) {
  unsigned D = 0;
  for (const Value &E : L)
    D = std::max(D, E.depth());
  Depth = D + 1;
  V = std::make_shared<const List>(std::move(L));
}

Value::Value(Map M) {
  unsigned D = 0;
  for (const auto &KV : M)
    D = std::max(D, KV.second.depth());
  Depth = D + 1;
  V = std::make_shared<const Map>(std::move(M));
}

bool operator==(const Value &A, const Value &B) {
  if (A.kind() != B.kind())
    return false;
  switch (A.kind()) {
  case Value::Kind::Int:
    return A.getInt() == B.getInt();
  case Value::Kind::Bool:
    return A.getBool() == B.getBool();
  case Value::Kind::String:
    return A.getString() == B.getString();
  case Value::Kind::List:
    return A.getList() == B.getList();
  case Value::Kind::Map:
    return A.getMap() == B.getMap();
  }
  return false;
}

llvm::StringRef kindName(Value::Kind K) {
  switch (K) {
  case Value::Kind::Int:
    return "int";
  case Value::Kind::Bool:
    return "bool";
  case Value::Kind::String:
    return "string";
  case Value::Kind::List:
    return "list";
  case Value::Kind::Map:
    return "map";
  }
  return "value";
}

namespace {

/// Writes a string literal that reads back as \p S.
void writeQuoted(llvm::raw_ostream &OS, llvm::StringRef S) {
  OS << '"';
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      OS << "\\\"";
      break;
    case '\\':
      OS << "\\\\";
      break;
    case '\n':
      OS << "\\n";
      break;
    case '\t':
      OS << "\\t";
      break;
    case '\r':
      OS << "\\r";
      break;
    default:
      if (C < 0x20 || C >= 0x7f)
        OS << llvm::format("\\x%02x", C);
      else
        OS << C;
    }
  }
  OS << '"';
}

/// Writes \p V until \p Out holds more than \p Limit characters.
void writeRepr(llvm::raw_string_ostream &OS, const Value &V, size_t Limit) {
  if (OS.str().size() > Limit)
    return;
  switch (V.kind()) {
  case Value::Kind::Int:
    OS << V.getInt();
    return;
  case Value::Kind::Bool:
    OS << (V.getBool() ? "true" : "false");
    return;
  case Value::Kind::String:
    writeQuoted(OS, V.getString().substr(0, Limit + 1));
    return;
  case Value::Kind::List: {
    OS << '[';
    bool First = true;
    for (const Value &E : V.getList()) {
      if (OS.str().size() > Limit)
        return;
      OS << (First ? "" : ", ");
      First = false;
      writeRepr(OS, E, Limit);
    }
    OS << ']';
    return;
  }
  case Value::Kind::Map: {
    OS << '{';
    bool First = true;
    for (const auto &KV : V.getMap()) {
      if (OS.str().size() > Limit)
        return;
      OS << (First ? "" : ", ");
      First = false;
      writeQuoted(OS, llvm::StringRef(KV.first).take_front(Limit + 1));
      OS << ": ";
      writeRepr(OS, KV.second, Limit);
    }
    OS << '}';
    return;
  }
  }
}

} // namespace

std::string repr(const Value &V, size_t MaxChars) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeRepr(OS, V, MaxChars);
  OS.flush();
  if (S.size() > MaxChars) {
    S.resize(MaxChars > 3 ? MaxChars - 3 : 0);
    S += "...";
  }
  return S;
}

} // namespace tmpl
} // namespace accelgen
