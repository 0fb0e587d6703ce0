//===- RefTarget.cpp - The reference CPU target's generated code ----------===//
//
// Includes what accelgen-tblgen generated from ref.td: the legality of every
// operator the reference kernels run, for placement reports and for the
// targets that fall back to the CPU.
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
namespace ref {

std::unique_ptr<target::TargetInfo> createTargetInfo() {
  auto T = std::make_unique<target::TargetInfo>(
      TargetName, std::vector<std::string>(TargetVersions,
                                           TargetVersions + NumTargetVersions));
  addOpSetups(*T);
  T->setPatterns(llvm::ArrayRef<target::PatternDesc>(Patterns, NumPatterns));
  return T;
}

} // namespace ref
} // namespace targets
} // namespace accelgen
