//===- Diagnostics.cpp - Errors in target descriptions
//---------------------===//
#include "model/Diagnostics.h"

namespace accelgen {
namespace gen {

std::string formatLoc(const Loc &At) {
  std::string S = At.File.empty() ? "<unknown>" : At.File;
  if (At.Line) {
    S += ":" + std::to_string(At.Line);
    if (At.Col)
      S += ":" + std::to_string(At.Col);
  }
  return S;
}

void Diagnostics::error(const Loc &At, const llvm::Twine &Msg) {
  if (++Errors > MaxPrinted)
    return;
  OS << formatLoc(At) << ": error: " << Msg << "\n";
  OS.flush();
}

Diagnostics::~Diagnostics() {
  if (Errors <= MaxPrinted)
    return;
  unsigned More = Errors - MaxPrinted;
  OS << "error: " << More << " more error" << (More == 1 ? "" : "s")
     << " not shown\n";
  OS.flush();
}

} // namespace gen
} // namespace accelgen
