//===- DeviceRules.cpp - Lookups in a target's device semantics -----------===//
//
// Reads the tables DeviceRules.inc generates for one version: an operator
// named by a rule has a row of its own (rows are sorted by name), every other
// operator follows the version's rules for every operator.
//
//===----------------------------------------------------------------------===//
#include "target/DeviceRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>

namespace accelgen {
namespace target {

int32_t LayoutDesc::channelAlign(unsigned ElementBytes) const {
  int32_t Align = std::max(ChannelPixels, 1);
  if (ChannelBytes > 0 && ElementBytes > 0)
    Align = std::max(Align, ChannelBytes / static_cast<int32_t>(ElementBytes));
  return Align;
}

DeviceRules::DeviceRules(const DeviceRulesDesc *Desc, unsigned Version)
    : Desc(Desc) {
  if (Desc && Version < Desc->NumVersions)
    At = &Desc->Versions[Version];
}

llvm::ArrayRef<LayoutDesc> DeviceRules::layouts() const {
  if (!Desc)
    return {};
  return llvm::makeArrayRef(Desc->Layouts, Desc->NumLayouts);
}

const DeviceOpRule *DeviceRules::rule(llvm::StringRef OpType) const {
  if (!At || !At->NumOps)
    return nullptr;
  const DeviceOpRule *End = At->Ops + At->NumOps;
  const DeviceOpRule *It = std::lower_bound(
      At->Ops, End, OpType, [](const DeviceOpRule &R, llvm::StringRef Name) {
        return llvm::StringRef(R.Op) < Name;
      });
  return It != End && OpType == It->Op ? It : nullptr;
}

uint32_t DeviceRules::layoutsOf(llvm::StringRef OpType) const {
  if (!At)
    return 0;
  const DeviceOpRule *R = rule(OpType);
  return R ? R->Layouts : At->Layouts;
}

const LayoutDesc *DeviceRules::onlyLayout(llvm::StringRef OpType) const {
  uint32_t Mask = layoutsOf(OpType);
  if (!Mask || !llvm::isPowerOf2_32(Mask))
    return nullptr;
  return &Desc->Layouts[llvm::countTrailingZeros(Mask)];
}

bool DeviceRules::keepsFusedIntermediates(llvm::StringRef OpType) const {
  if (!At)
    return false;
  const DeviceOpRule *R = rule(OpType);
  return R ? R->KeepsFused : At->KeepsFused;
}

ir::DType
DeviceRules::storedAs(ir::DType Type,
                      const std::optional<ir::QuantParams> &Quant) const {
  if (!At || !Quant)
    return Type;
  const bool Symmetric = llvm::all_of(
      Quant->ZeroPoints, [](int64_t ZeroPoint) { return ZeroPoint == 0; });
  for (unsigned I = 0; I < At->NumStorage; ++I) {
    const DeviceStorageRule &S = At->Storage[I];
    if (S.Type == Type && S.Symmetric == Symmetric &&
        S.PerChannel == Quant->isPerChannel())
      return S.StoredAs;
  }
  return Type;
}

} // namespace target
} // namespace accelgen
