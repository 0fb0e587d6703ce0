//===- Diagnostics.h - Errors in target descriptions -----------------------===//
//
// Every mistake in a description is reported as `file:line:col: error: message`
// (the form compilers use, so editors can jump to it). Reporting continues
// after an error where it can, so one run shows as many mistakes as possible.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_MODEL_DIAGNOSTICS_H
#define ACCELGEN_GEN_MODEL_DIAGNOSTICS_H

#include "model/Description.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace accelgen {
namespace gen {

/// Collects and prints errors about a description.
class Diagnostics {
public:
  explicit Diagnostics(llvm::raw_ostream &OS = llvm::errs()) : OS(OS) {}

  /// Prints "file:line:col: error: Msg".
  void error(const Loc &At, const llvm::Twine &Msg);
  unsigned errorCount() const { return Errors; }

private:
  llvm::raw_ostream &OS;
  unsigned Errors = 0;
};

/// Formats a location as "file:line:col" (parts that are unknown are left out).
std::string formatLoc(const Loc &At);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_MODEL_DIAGNOSTICS_H
