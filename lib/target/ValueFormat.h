//===- ValueFormat.h - Values as rejection messages and docs show them ----===//
//
// How a float or a string reads in a rejection message (the value a generated
// check observed) and in generated docs (a constraint's literal), so both
// agree. Header-only: accelgen-tblgen uses it without linking the target
// library, which depends on the operator vocabulary the tool generates.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_VALUEFORMAT_H
#define ACCELGEN_TARGET_VALUEFORMAT_H

#include "ir/DType.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace accelgen {
namespace target {
namespace rt {

/// The shortest decimal text that reads back as \p V ("0.5", "1.0",
/// "1e-05"); a value that is exactly a float is printed as that float
/// (0.1f prints "0.1").
inline std::string formatFloat(double V) {
  if (std::isnan(V))
    return "nan";
  if (std::isinf(V))
    return V < 0 ? "-inf" : "inf";
  // A value converted from a float (a tensor's scale) is printed as that
  // float, so 0.1f reads "0.1" rather than "0.10000000149011612".
  bool IsFloat = std::fabs(V) <= 3.4028234663852886e38 &&
                 static_cast<double>(static_cast<float>(V)) == V;
  char Buf[40];
  for (int Precision = 1; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof(Buf), "%.*g", Precision, V);
    double Back = std::strtod(Buf, nullptr);
    if (IsFloat ? static_cast<float>(Back) == static_cast<float>(V) : Back == V)
      break;
  }
  std::string S = Buf;
  if (S.find_first_of(".e") == std::string::npos)
    S += ".0";
  return S;
}

/// A string in double quotes, with quotes and backslashes escaped.
inline std::string format(const std::string &V) {
  std::string S = "\"";
  for (char C : V) {
    if (C == '"' || C == '\\')
      S += '\\';
    S += C;
  }
  return S + "\"";
}

/// The name of an element type ("i8"), or "none" for an absent operand.
inline llvm::StringRef dtypeName(const std::optional<ir::DType> &T) {
  return T ? ir::dtypeName(*T) : llvm::StringRef("none");
}

/// A + B, wrapping on overflow.
inline int64_t add(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) +
                              static_cast<uint64_t>(B));
}
/// A - B, wrapping on overflow.
inline int64_t sub(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) -
                              static_cast<uint64_t>(B));
}
/// A * B, wrapping on overflow.
inline int64_t mul(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) *
                              static_cast<uint64_t>(B));
}
/// -A, wrapping on overflow.
inline int64_t neg(int64_t A) { return sub(0, A); }
/// A / B truncated toward zero; 0 when B is 0, A when B is -1.
inline int64_t div(int64_t A, int64_t B) {
  if (B == 0)
    return 0;
  if (B == -1)
    return neg(A);
  return A / B;
}
/// The remainder of A / B (sign of A); 0 when B is 0 or -1.
inline int64_t rem(int64_t A, int64_t B) {
  if (B == 0 || B == -1)
    return 0;
  return A % B;
}

/// Observed values as rejection messages show them.
inline std::string format(int64_t V) { return std::to_string(V); }
inline std::string format(double V) { return formatFloat(V); }
inline std::string format(bool V) { return V ? "true" : "false"; }
inline std::string format(const std::optional<ir::DType> &V) {
  return dtypeName(V).str();
}
std::string format(const char *) = delete;

} // namespace rt
} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_VALUEFORMAT_H
