//===- Diagnostics.h - Errors in target descriptions
//-----------------------===//
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
  /// At most this many errors are printed; the rest are counted, and the
  /// count is printed when the Diagnostics ends ("error: N more errors not
  /// shown"), so that a description repeating one mistake a million times
  /// does not print a million lines.
  static constexpr unsigned MaxPrinted = 20;

  explicit Diagnostics(llvm::raw_ostream &OS = llvm::errs()) : OS(OS) {}
  ~Diagnostics();
  Diagnostics(const Diagnostics &) = delete;
  Diagnostics &operator=(const Diagnostics &) = delete;

  /// Prints "file:line:col: error: Msg" (or counts it past MaxPrinted).
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
