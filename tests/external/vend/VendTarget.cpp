//===- VendTarget.cpp - The vend target and its kernel's builder ----------===//
//
// Everything generated from vend.td, and the builder of its kernel family:
// the parameters of one VEND_CLAMP_OFFSET from the operator.
//
//===----------------------------------------------------------------------===//
#include "target/GeneratedTarget.h"

namespace accelgen::targets::vend {

llvm::Expected<kernels::KernelCall>
clampOffsetOp(const kernels::detail::OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Offsets, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->Type != ir::DType::I8 || Out->Type != ir::DType::I8)
    return Ctx.error("VEND_CLAMP_OFFSET runs on int8 only");
  if (In->Shape != Out->Shape)
    return Ctx.error("its output has its input's shape");
  ACCELGEN_TRY(Values, Ctx.constInts(*Offsets, "offsets"));
  const int64_t Channels = In->Shape.empty() ? 1 : In->Shape.back();
  if (Channels < 1 || static_cast<int64_t>(Values.size()) != Channels)
    return Ctx.error("it needs one offset per channel");
  const int64_t Lo = Ctx.attr("lo", -128), Hi = Ctx.attr("hi", 127);
  if (Lo < -128 || Hi > 127 || Lo > Hi)
    return Ctx.error("lo and hi are int8 values, lo <= hi");
  kernels::DynamicParams P = kernels::DynamicParams::of(Ctx.family());
  P.set("lo", {Lo});
  P.set("hi", {Hi});
  P.set("channels", {Channels});
  P.set("offsets", Values);
  return kernels::detail::makeCall(std::move(P), {Ctx.op().input(0)});
}

} // namespace accelgen::targets::vend
