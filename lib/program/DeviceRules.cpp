//===- DeviceRules.cpp - What MDLA stores and computes differently --------===//
//
// Read from the MDLA description where it says it: an operator runs in the
// 16C layout only when its legality at the version carries a 16C-only layout
// constraint (`nhwc_16c`, `nhwc_16c_at_most_4d`, `pool3d_ndhwc_16c`; not
// `nhwc_4c_16c`), found in the target's generated legality tables. The
// asymmetric int8 conversion of mdla1.5 is the design guide's data type
// matrix ("ASYM INT8: SW" on 1.5 only), which the description states in
// words but not as data.
//
//===----------------------------------------------------------------------===//
#include "program/ProgramBuilder.h"

#include "target/Legality.h"

#include "llvm/ADT/StringRef.h"

namespace accelgen {
namespace targets {
namespace mdla {
// Generated into the mdla target's Legality.inc.
extern const accelgen::target::OpLegalityTable *const LegalityTables[];
extern const unsigned NumLegalityTables;
} // namespace mdla
} // namespace targets

namespace program {

namespace {

/// True for a layout constraint id that admits 16C only.
bool isSixteenCOnlyId(llvm::StringRef Id) {
  return Id.contains("16c") && !Id.contains("4c");
}

bool mdlaSixteenCOnly(llvm::StringRef OpType, unsigned Version) {
  using targets::mdla::LegalityTables;
  for (unsigned I = 0; I < targets::mdla::NumLegalityTables; ++I) {
    const target::OpLegalityTable *Table = LegalityTables[I];
    if (OpType != Table->Op || Version >= Table->NumVersions)
      continue;
    const target::LegalityAt *At = Table->PerVersion[Version];
    if (!At)
      return false;
    for (unsigned C = 0; C < At->NumConstraints; ++C)
      if (isSixteenCOnlyId(At->Constraints[C].Id))
        return true;
    return false;
  }
  return false;
}

} // namespace

bool hasFunctionalModel(const target::TargetInfo &T) {
  return T.name() == "mdla";
}

DeviceRules deviceRules(const target::TargetInfo &T, unsigned Version) {
  DeviceRules R;
  if (T.name() != "mdla")
    return R;
  R.SixteenCOnly = [Version](llvm::StringRef OpType) {
    return mdlaSixteenCOnly(OpType, Version);
  };
  R.AsymmetricInt8AsUInt8 = T.versions().at(Version) == "1.5";
  return R;
}

} // namespace program
} // namespace accelgen
