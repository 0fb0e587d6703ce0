//===- CLiteral.cpp - Values as C99 source text ---------------------------===//
//
// Nine significant digits identify every float and seventeen every double,
// so `%.9g` / `%.17g` round-trip exactly through any correctly rounding C
// compiler. The text gets a `.0` when it would otherwise read as an integer.
//
//===----------------------------------------------------------------------===//
#include "emit/CLiteral.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace accelgen {
namespace emit {

namespace {

/// \p Digits significant digits of \p V, made to read as a floating value.
std::string decimal(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*g", Digits, V);
  std::string S(Buf);
  if (S.find_first_of(".eE") == std::string::npos)
    S += ".0";
  return S;
}

} // namespace

std::string floatLiteral(float V) {
  if (std::isnan(V))
    return "NAN";
  if (std::isinf(V))
    return V > 0 ? "HUGE_VALF" : "(-HUGE_VALF)";
  return decimal(V, 9) + "f";
}

std::string doubleLiteral(double V) {
  if (std::isnan(V))
    return "NAN";
  if (std::isinf(V))
    return V > 0 ? "HUGE_VAL" : "(-HUGE_VAL)";
  return decimal(V, 17);
}

std::string intLiteral(int64_t V) {
  if (V == std::numeric_limits<int64_t>::min())
    return "(-INT64_C(9223372036854775807) - 1)";
  if (V < std::numeric_limits<int32_t>::min() ||
      V > std::numeric_limits<int32_t>::max())
    return "INT64_C(" + std::to_string(V) + ")";
  if (V == std::numeric_limits<int32_t>::min())
    return "(-2147483647 - 1)";
  return std::to_string(V);
}

std::string unsignedLiteral(uint64_t V) {
  if (V > std::numeric_limits<uint32_t>::max())
    return "UINT64_C(" + std::to_string(V) + ")";
  return std::to_string(V) + "u";
}

llvm::StringRef cType(ir::DType T) {
  switch (T) {
  case ir::DType::I8:
    return "int8_t";
  case ir::DType::U8:
    return "uint8_t";
  case ir::DType::I16:
    return "int16_t";
  case ir::DType::I32:
    return "int32_t";
  case ir::DType::I64:
    return "int64_t";
  case ir::DType::F16:
    return "uint16_t"; // raw IEEE half bits
  case ir::DType::F32:
    return "float";
  case ir::DType::Bool:
    return "uint8_t";
  case ir::DType::U32:
    return "uint32_t";
  }
  return "uint8_t";
}

void writeInitializer(llvm::raw_ostream &OS, ir::DType T,
                      llvm::ArrayRef<uint8_t> Bytes, llvm::StringRef Indent) {
  using namespace llvm::support;
  const unsigned Size = ir::dtypeSize(T);
  const size_t Count = Size ? Bytes.size() / Size : 0;
  // Values per line: about 80 columns of the widest literals.
  const size_t PerLine = Size == 1 ? 16 : (T == ir::DType::F32 ? 5 : 8);
  for (size_t I = 0; I < Count; ++I) {
    if (I % PerLine == 0)
      OS << (I ? ",\n" : "") << Indent;
    else
      OS << ", ";
    const uint8_t *P = Bytes.data() + I * Size;
    switch (T) {
    case ir::DType::I8:
      OS << static_cast<int>(static_cast<int8_t>(*P));
      break;
    case ir::DType::U8:
    case ir::DType::Bool:
      OS << static_cast<unsigned>(*P);
      break;
    case ir::DType::I16:
      OS << endian::read<int16_t, little, unaligned>(P);
      break;
    case ir::DType::F16:
      OS << endian::read<uint16_t, little, unaligned>(P);
      break;
    case ir::DType::I32:
      OS << intLiteral(endian::read<int32_t, little, unaligned>(P));
      break;
    case ir::DType::I64:
      OS << intLiteral(endian::read<int64_t, little, unaligned>(P));
      break;
    case ir::DType::U32:
      OS << endian::read<uint32_t, little, unaligned>(P) << "u";
      break;
    case ir::DType::F32: {
      uint32_t Bits = endian::read<uint32_t, little, unaligned>(P);
      float F;
      std::memcpy(&F, &Bits, sizeof(F));
      OS << floatLiteral(F);
      break;
    }
    }
  }
  if (Count)
    OS << "\n";
}

std::string commentSafe(llvm::StringRef Text) {
  std::string S;
  S.reserve(Text.size());
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned char C = Text[I];
    if (C == '*' && I + 1 < Text.size() && Text[I + 1] == '/') {
      S += "* ";
      continue;
    }
    if (C == '/' && I + 1 < Text.size() && Text[I + 1] == '*') {
      S += "/ ";
      continue;
    }
    S += (C < 0x20 || C >= 0x7f) ? '?' : static_cast<char>(C);
  }
  return S;
}

bool isCIdentifier(llvm::StringRef Name) {
  if (Name.empty() || !(std::isalpha(static_cast<unsigned char>(Name[0]))))
    return false;
  for (char C : Name)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      return false;
  return true;
}

std::string modelNameProblem(llvm::StringRef Name) {
  if (!isCIdentifier(Name))
    return "'" + Name.str() +
           "' is not a C identifier (letters, digits and '_', starting with "
           "a letter)";
  static const struct {
    const char *Prefix, *Library;
  } Reserved[] = {{"accel", "the functional model's runtime"},
                  {"ref", "the reference kernels"},
                  {"cpu", "target cpu's kernels"},
                  {"arm", "CMSIS-NN"},
                  {"cnn", "the CMSIS-NN calls' constants"}};
  const std::string Lower = Name.lower();
  for (const auto &R : Reserved) {
    llvm::StringRef L(Lower);
    if (L == R.Prefix || L.startswith(std::string(R.Prefix) + "_"))
      return "'" + Name.str() + "' would collide with " + R.Library +
             ", whose symbols start with " + R.Prefix + "_";
  }
  return "";
}

} // namespace emit
} // namespace accelgen
