//===- DeviceRules.cpp - A target's device semantics as program decisions -===//
//
// The target's description says which layouts its operators compute in and
// how each layout pads channels; here the builder's two questions are
// answered from that, for any target: where an activation is stored, and on
// how many channels an operator computes.
//
//===----------------------------------------------------------------------===//
#include "program/DeviceRules.h"

#include "llvm/ADT/StringSwitch.h"

namespace accelgen {
namespace program {

Layout programLayout(const target::LayoutDesc &L) {
  // The generator admits these names only.
  return llvm::StringSwitch<Layout>(L.Name)
      .Case("4C", Layout::C4)
      .Case("16C", Layout::C16)
      .Default(Layout::NHWC);
}

Layout tensorLayout(const target::DeviceRules &R, int64_t Channels,
                    const std::set<std::string> &Users) {
  uint32_t Every = ~0u, Some = 0;
  for (const std::string &Type : Users)
    if (uint32_t Mask = R.layoutsOf(Type)) {
      Every &= Mask;
      Some |= Mask;
    }
  llvm::ArrayRef<target::LayoutDesc> Layouts = R.layouts();
  for (uint32_t Mask : {Every & Some, Some})
    for (size_t I = 0; I < Layouts.size(); ++I)
      if ((Mask >> I & 1u) && Layouts[I].holds(Channels))
        return programLayout(Layouts[I]);
  return Layout::NHWC;
}

int32_t channelAlign(const target::DeviceRules &R, llvm::StringRef OpType,
                     ir::DType Type) {
  const target::LayoutDesc *L = R.onlyLayout(OpType);
  if (!L)
    return 0;
  int32_t Align = L->channelAlign(ir::dtypeSize(Type));
  return Align > 1 ? Align : 0;
}

} // namespace program
} // namespace accelgen
