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
  if ((In->Type != ir::DType::I8 && In->Type != ir::DType::I16) ||
      Out->Type != In->Type)
    return Ctx.error("VEND_CLAMP_OFFSET runs on int8 and int16, its output "
                     "of its input's type");
  if (In->Shape != Out->Shape)
    return Ctx.error("its output has its input's shape");
  ACCELGEN_TRY(Values, Ctx.constInts(*Offsets, "offsets"));
  const int64_t Channels = In->Shape.empty() ? 1 : In->Shape.back();
  if (Channels < 1 || static_cast<int64_t>(Values.size()) != Channels)
    return Ctx.error("it needs one offset per channel");
  const int64_t Min = In->Type == ir::DType::I8 ? -128 : -32768;
  const int64_t Max = In->Type == ir::DType::I8 ? 127 : 32767;
  const int64_t Lo = Ctx.attr("lo", Min), Hi = Ctx.attr("hi", Max);
  if (Lo < Min || Hi > Max || Lo > Hi)
    return Ctx.error("lo and hi are values of the input's type, lo <= hi");
  kernels::DynamicParams P = kernels::DynamicParams::of(Ctx.family());
  P.set("lo", {Lo});
  P.set("hi", {Hi});
  P.set("channels", {Channels});
  P.set("offsets", Values);
  return kernels::detail::makeCall(std::move(P), {Ctx.op().input(0)});
}

} // namespace accelgen::targets::vend
