//===- MdlaTarget.cpp - The MDLA target's generated code ------------------===//
//
// Includes what accelgen-tblgen generated from mdla.td: the legality of every
// operator MDLA 1.5, 2.0 and 3.0 run, the mappings to MDLA layers, the
// quantization rules and the fusion patterns. Nothing is hand-written: the
// description names no C++ constraint.
//
//===----------------------------------------------------------------------===//
#include "target/ConstraintRuntime.h"
#include "target/Legality.h"
#include "target/Mapping.h"
#include "target/QuantRules.h"
#include "target/TargetInfo.h"

#include <memory>

#define GET_LEGALITY_DECL
#define GET_LEGALITY_IMPL
#include "Legality.inc"
#define GET_OPSETUP_DECL
#define GET_OPSETUP_IMPL
#include "OpSetups.inc"
#define GET_PATTERNS_DECL
#define GET_PATTERNS_IMPL
#include "Patterns.inc"

namespace accelgen {
namespace targets {
namespace mdla {

std::unique_ptr<target::TargetInfo> createTargetInfo() {
  auto T = std::make_unique<target::TargetInfo>(
      TargetName, std::vector<std::string>(TargetVersions,
                                           TargetVersions + NumTargetVersions));
  addOpSetups(*T);
  T->setPatterns(llvm::ArrayRef<target::PatternDesc>(Patterns, NumPatterns));
  return T;
}

} // namespace mdla
} // namespace targets
} // namespace accelgen
