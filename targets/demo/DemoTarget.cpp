//===- DemoTarget.cpp - The demo target's generated code, registered -------===//
//
// Includes the files accelgen-tblgen generated from demo.td and registers the
// target as "demo". The one hand-written piece is the C++ constraint the
// description names as an escape hatch (isSquareFilter).
//
//===----------------------------------------------------------------------===//
#include "target/Legality.h"
#include "target/Mapping.h"
#include "target/QuantRules.h"
#include "target/TargetInfo.h"
#include "target/ConstraintRuntime.h"

#include <memory>

namespace accelgen {
namespace demo {

/// True when the filter (input 1, [1, kh, kw, c]) has as many rows as columns.
bool isSquareFilter(const ir::Graph &G, const ir::Operator &Op) {
  int32_t F = Op.input(1);
  if (!G.isValidTensor(F) || G.tensor(F).rank() != 4)
    return false;
  return G.tensor(F).Shape[1] == G.tensor(F).Shape[2];
}

} // namespace demo
} // namespace accelgen

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
namespace demo {

std::unique_ptr<target::TargetInfo> createTargetInfo() {
  auto T = std::make_unique<target::TargetInfo>(
      TargetName, std::vector<std::string>(TargetVersions,
                                           TargetVersions + NumTargetVersions));
  addOpSetups(*T);
  T->setPatterns(llvm::ArrayRef<target::PatternDesc>(Patterns, NumPatterns));
  return T;
}

} // namespace demo
} // namespace targets
} // namespace accelgen
