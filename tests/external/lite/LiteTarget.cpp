//===- LiteTarget.cpp - The lite NPU's generated converters ---------------===//
#include "target/ConstraintRuntime.h"
#include "target/Legality.h"
#include "target/Mapping.h"
#include "target/QuantRules.h"
#include "target/TargetInfo.h"

#define GET_LEGALITY_DECL
#define GET_LEGALITY_IMPL
#include "Legality.inc"
#define GET_OPSETUP_DECL
#define GET_OPSETUP_IMPL
#include "OpSetups.inc"
#define GET_PATTERNS_DECL
#define GET_PATTERNS_IMPL
#include "Patterns.inc"

namespace accelgen::targets::lite {

std::unique_ptr<target::TargetInfo> createTargetInfo() {
  auto T = std::make_unique<target::TargetInfo>(
      TargetName, std::vector<std::string>(TargetVersions,
                                           TargetVersions + NumTargetVersions));
  addOpSetups(*T);
  T->setPatterns(llvm::ArrayRef<target::PatternDesc>(Patterns, NumPatterns));
  return T;
}

} // namespace accelgen::targets::lite
