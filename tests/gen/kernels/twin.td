//===- twin.td - A kernel library written in TableGen ---------------------===//
//
// Two kernel families that use every part of a family declaration: scalar,
// array and pointer fields, every argument kind and option, instances with
// each element type slot. twin.yaml declares the same families in YAML; the
// kernel library actions must generate identical bytes from either
// (TdDiagnosticsTest). The files are not rendered or compiled.
//
//===----------------------------------------------------------------------===//

include "ops.td"

def TwinBiasArg : KernelArg<"data", "bias", 2, "acc"> { let Optional = 1; }

def TwinWindowKernels : KernelFamily<"twin_window", "twin_window",
                                     "twinWindowOp"> {
  let Library = "twin";
  let Doc = "A window over the input, with its requantization.";
  let Fields = [
    KernelField<"stride_h", "int32_t", "Strides.">,
    KernelField<"stride_w", "int32_t">,
    ArrayField<"extent", "int64_t", "REF_MAX_RANK", "Per dimension.">,
    PointerField<"per_channel_multiplier", "int32_t",
                 "One per output channel.">,
    KernelField<"scale", "float">,
    KernelField<"bytes", "size_t">];
  let Args = [
    KernelArg<"params", "params">,
    KernelArg<"shape", "input_shape", 0>,
    KernelArg<"data", "input", 0, "in">,
    KernelArg<"data", "filter", 1, "weights">,
    TwinBiasArg,
    KernelArg<"state", "state", 3, "wide">,
    KernelArg<"output_shape", "output_shape">,
    KernelArg<"output", "output", -1, "out">,
    KernelArg<"result", "second", 1, "out">,
    KernelArg<"scratch", "scratch">];
  let Instances = [
    KernelInstance<Conv2D, "window", i8>,
    KernelInstance<Conv2D, "window", i8, AnyElement, "per_channel">,
    KernelInstance<DepthwiseConv2D, "window", i8>,
    KernelInstance<Conv2D, "window", i16, i16, "wide", i8, i64>,
    KernelInstance<Conv2D, "window", f32>];
}

def TwinMoveKernels : KernelFamily<"twin_move", "twin_move", "twinMoveOp"> {
  let Library = "twin";
  let Rendered = 0;
  let MayAlias = 1;
  let Fields = [KernelField<"count", "int32_t">];
  let Args = [
    KernelArg<"fields", "">,
    KernelArg<"count", "count">,
    KernelArg<"element_size", "element_size">,
    KernelArg<"input_shapes", "input_shapes">,
    KernelArg<"inputs", "inputs", -1, "any">,
    KernelArg<"output", "output", -1, "any">];
  let Instances = [KernelInstance<Reshape, "move">,
                   KernelInstance<Squeeze, "move">,
                   KernelInstance<Cast, "move", i8, f32>];
}
