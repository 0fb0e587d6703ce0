//===- ProgramReader.cpp - Decoding and checking an accelerator program ---===//
//
// Three layers of checks, none trusting the bytes: the FlatBuffers verifier
// (every offset and length inside the buffer), the decoding here (enum
// values, indices, array lengths, the Params union), and the functional
// model's own walk over the program (kernels, operand types and shapes,
// memory ranges), which is what will run it.
//
//===----------------------------------------------------------------------===//
#include "program/Program.h"

#include "accel_program_generated.h"
#include "mdla_functional.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <memory>

namespace accelgen {
namespace program {

namespace {

namespace fbs = accelgen::program::fb;

llvm::Error problem(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed accelerator program: " + Msg);
}

template <typename T>
std::vector<T> toVector(const flatbuffers::Vector<T> *V) {
  return V ? std::vector<T>(V->begin(), V->end()) : std::vector<T>();
}

std::string toString(const flatbuffers::String *S) {
  return S ? S->str() : std::string();
}

/// Decodes one table's fields into the kernels' parameter types.
class Decoder {
public:
  llvm::Error error() {
    return Problem.empty() ? llvm::Error::success() : problem(Problem);
  }

  std::optional<ir::DType> dtype(fbs::DType T, llvm::StringRef What) {
    auto V = static_cast<int>(T);
    if (V < 0 || V > static_cast<int>(ir::DType::Bool)) {
      fail(llvm::formatv("{0} has element type {1}", What, V).str());
      return std::nullopt;
    }
    return static_cast<ir::DType>(V);
  }

  std::optional<ir::QuantParams> quant(const fbs::Quantization *Q) {
    if (!Q)
      return std::nullopt;
    ir::QuantParams P;
    P.Scales = toVector(Q->scales());
    P.ZeroPoints = toVector(Q->zero_points());
    P.Axis = Q->axis();
    return P;
  }

  /// A fixed array of REF_MAX_RANK entries.
  void dims(const flatbuffers::Vector<int32_t> *V, int32_t (&Out)[REF_MAX_RANK],
            llvm::StringRef What) {
    if (!V || V->size() != REF_MAX_RANK) {
      fail(llvm::formatv("{0} must have {1} entries", What, REF_MAX_RANK).str());
      return;
    }
    for (unsigned I = 0; I < REF_MAX_RANK; ++I)
      Out[I] = V->Get(I);
  }

  std::optional<kernels::AnyParams> params(const fbs::Op &O);

  void fail(std::string Msg) {
    if (Problem.empty())
      Problem = std::move(Msg);
  }

private:
  std::string Problem;
};

std::optional<kernels::AnyParams> Decoder::params(const fbs::Op &O) {
  switch (O.params_type()) {
  case fbs::Params::Conv2DParams: {
    const fbs::Conv2DParams *F = O.params_as_Conv2DParams();
    kernels::Conv2DParams P;
    ref_conv2d_params &S = P.Scalars;
    S.stride_h = F->stride_h();
    S.stride_w = F->stride_w();
    S.dilation_h = F->dilation_h();
    S.dilation_w = F->dilation_w();
    S.pad_top = F->pad_top();
    S.pad_left = F->pad_left();
    S.input_offset = F->input_offset();
    S.filter_offset = F->filter_offset();
    S.output_offset = F->output_offset();
    S.output_multiplier = F->output_multiplier();
    S.output_left_shift = F->output_left_shift();
    S.act_min = F->act_min();
    S.act_max = F->act_max();
    S.act_min_f = F->act_min_f();
    S.act_max_f = F->act_max_f();
    P.Multipliers = toVector(F->per_channel_multiplier());
    P.LeftShifts = toVector(F->per_channel_left_shift());
    return kernels::AnyParams(std::move(P));
  }
  case fbs::Params::DepthwiseConv2DParams: {
    const fbs::DepthwiseConv2DParams *F = O.params_as_DepthwiseConv2DParams();
    kernels::DepthwiseConv2DParams P;
    ref_depthwise_conv2d_params &S = P.Scalars;
    S.stride_h = F->stride_h();
    S.stride_w = F->stride_w();
    S.dilation_h = F->dilation_h();
    S.dilation_w = F->dilation_w();
    S.pad_top = F->pad_top();
    S.pad_left = F->pad_left();
    S.depth_multiplier = F->depth_multiplier();
    S.input_offset = F->input_offset();
    S.filter_offset = F->filter_offset();
    S.output_offset = F->output_offset();
    S.output_multiplier = F->output_multiplier();
    S.output_left_shift = F->output_left_shift();
    S.act_min = F->act_min();
    S.act_max = F->act_max();
    S.act_min_f = F->act_min_f();
    S.act_max_f = F->act_max_f();
    P.Multipliers = toVector(F->per_channel_multiplier());
    P.LeftShifts = toVector(F->per_channel_left_shift());
    return kernels::AnyParams(std::move(P));
  }
  case fbs::Params::FullyConnectedParams: {
    const fbs::FullyConnectedParams *F = O.params_as_FullyConnectedParams();
    kernels::FullyConnectedParams P;
    ref_fully_connected_params &S = P.Scalars;
    S.input_offset = F->input_offset();
    S.filter_offset = F->filter_offset();
    S.output_offset = F->output_offset();
    S.output_multiplier = F->output_multiplier();
    S.output_left_shift = F->output_left_shift();
    S.act_min = F->act_min();
    S.act_max = F->act_max();
    S.act_min_f = F->act_min_f();
    S.act_max_f = F->act_max_f();
    P.Multipliers = toVector(F->per_channel_multiplier());
    P.LeftShifts = toVector(F->per_channel_left_shift());
    return kernels::AnyParams(std::move(P));
  }
  case fbs::Params::Pool2DParams: {
    const fbs::Pool2DParams *F = O.params_as_Pool2DParams();
    ref_pool2d_params P{};
    P.stride_h = F->stride_h();
    P.stride_w = F->stride_w();
    P.filter_h = F->filter_h();
    P.filter_w = F->filter_w();
    P.pad_top = F->pad_top();
    P.pad_left = F->pad_left();
    P.act_min = F->act_min();
    P.act_max = F->act_max();
    P.act_min_f = F->act_min_f();
    P.act_max_f = F->act_max_f();
    return kernels::AnyParams(P);
  }
  case fbs::Params::ElementwiseParams: {
    const fbs::ElementwiseParams *F = O.params_as_ElementwiseParams();
    ref_elementwise_params P{};
    P.input1_offset = F->input1_offset();
    P.input2_offset = F->input2_offset();
    P.output_offset = F->output_offset();
    P.input_left_shift = F->input_left_shift();
    P.input1_multiplier = F->input1_multiplier();
    P.input1_left_shift = F->input1_left_shift();
    P.input2_multiplier = F->input2_multiplier();
    P.input2_left_shift = F->input2_left_shift();
    P.output_multiplier = F->output_multiplier();
    P.output_left_shift = F->output_left_shift();
    P.act_min = F->act_min();
    P.act_max = F->act_max();
    P.act_min_f = F->act_min_f();
    P.act_max_f = F->act_max_f();
    return kernels::AnyParams(P);
  }
  case fbs::Params::SoftmaxParams: {
    const fbs::SoftmaxParams *F = O.params_as_SoftmaxParams();
    ref_softmax_params P{};
    P.input_multiplier = F->input_multiplier();
    P.input_left_shift = F->input_left_shift();
    P.diff_min = F->diff_min();
    P.beta = F->beta();
    return kernels::AnyParams(P);
  }
  case fbs::Params::QuantizeParams: {
    const fbs::QuantizeParams *F = O.params_as_QuantizeParams();
    ref_quantize_params P{};
    P.scale = F->scale();
    P.zero_point = F->zero_point();
    return kernels::AnyParams(P);
  }
  case fbs::Params::DequantizeParams: {
    const fbs::DequantizeParams *F = O.params_as_DequantizeParams();
    ref_dequantize_params P{};
    P.scale = F->scale();
    P.zero_point = F->zero_point();
    return kernels::AnyParams(P);
  }
  case fbs::Params::RequantizeParams: {
    const fbs::RequantizeParams *F = O.params_as_RequantizeParams();
    ref_requantize_params P{};
    P.input_zero_point = F->input_zero_point();
    P.output_zero_point = F->output_zero_point();
    P.multiplier = F->multiplier();
    P.left_shift = F->left_shift();
    return kernels::AnyParams(P);
  }
  case fbs::Params::ReluParams: {
    const fbs::ReluParams *F = O.params_as_ReluParams();
    ref_relu_params P{};
    P.input_zero_point = F->input_zero_point();
    P.output_zero_point = F->output_zero_point();
    P.output_multiplier = F->output_multiplier();
    P.output_left_shift = F->output_left_shift();
    P.act_min = F->act_min();
    P.act_max = F->act_max();
    P.act_min_f = F->act_min_f();
    P.act_max_f = F->act_max_f();
    return kernels::AnyParams(P);
  }
  case fbs::Params::LeakyReluParams: {
    const fbs::LeakyReluParams *F = O.params_as_LeakyReluParams();
    ref_leaky_relu_params P{};
    P.input_zero_point = F->input_zero_point();
    P.output_zero_point = F->output_zero_point();
    P.identity_multiplier = F->identity_multiplier();
    P.identity_left_shift = F->identity_left_shift();
    P.alpha_multiplier = F->alpha_multiplier();
    P.alpha_left_shift = F->alpha_left_shift();
    P.alpha = F->alpha();
    return kernels::AnyParams(P);
  }
  case fbs::Params::HardSwishParams: {
    const fbs::HardSwishParams *F = O.params_as_HardSwishParams();
    ref_hard_swish_params P{};
    P.input_zero_point = F->input_zero_point();
    P.output_zero_point = F->output_zero_point();
    P.reluish_multiplier = F->reluish_multiplier();
    P.reluish_left_shift = F->reluish_left_shift();
    P.output_multiplier = F->output_multiplier();
    P.output_left_shift = F->output_left_shift();
    return kernels::AnyParams(P);
  }
  case fbs::Params::SigmoidParams: {
    const fbs::SigmoidParams *F = O.params_as_SigmoidParams();
    ref_sigmoid_params P{};
    P.input_zero_point = F->input_zero_point();
    P.input_range_radius = F->input_range_radius();
    P.input_multiplier = F->input_multiplier();
    P.input_left_shift = F->input_left_shift();
    return kernels::AnyParams(P);
  }
  case fbs::Params::PadParams: {
    const fbs::PadParams *F = O.params_as_PadParams();
    ref_pad_params P{};
    dims(F->before(), P.before, "PadParams.before");
    dims(F->after(), P.after, "PadParams.after");
    P.pad_value = F->pad_value();
    P.pad_value_f = F->pad_value_f();
    return kernels::AnyParams(P);
  }
  case fbs::Params::ConcatParams: {
    const fbs::ConcatParams *F = O.params_as_ConcatParams();
    kernels::ConcatParams P;
    P.Scalars.axis = F->axis();
    P.Scalars.num_inputs = F->num_inputs();
    P.Scalars.output_scale = F->output_scale();
    P.Scalars.output_zero_point = F->output_zero_point();
    P.InputScales = toVector(F->input_scale());
    P.InputZeroPoints = toVector(F->input_zero_point());
    return kernels::AnyParams(std::move(P));
  }
  case fbs::Params::MeanParams: {
    const fbs::MeanParams *F = O.params_as_MeanParams();
    ref_mean_params P{};
    P.axis_mask = F->axis_mask();
    P.same_quantization = F->same_quantization();
    P.input_zero_point = F->input_zero_point();
    P.output_zero_point = F->output_zero_point();
    P.multiplier = F->multiplier();
    P.left_shift = F->left_shift();
    return kernels::AnyParams(P);
  }
  case fbs::Params::TransposeParams: {
    ref_transpose_params P{};
    dims(O.params_as_TransposeParams()->perm(), P.perm, "TransposeParams.perm");
    return kernels::AnyParams(P);
  }
  case fbs::Params::StridedSliceParams: {
    const fbs::StridedSliceParams *F = O.params_as_StridedSliceParams();
    ref_strided_slice_params P{};
    dims(F->start(), P.start, "StridedSliceParams.start");
    dims(F->stop(), P.stop, "StridedSliceParams.stop");
    dims(F->stride(), P.stride, "StridedSliceParams.stride");
    return kernels::AnyParams(P);
  }
  case fbs::Params::ReshapeParams: {
    kernels::ReshapeParams P;
    P.Bytes = static_cast<size_t>(O.params_as_ReshapeParams()->bytes());
    return kernels::AnyParams(P);
  }
  case fbs::Params::NONE:
    break;
  }
  fail(llvm::formatv("operator {0} ({1}) has no parameters of a known kind",
                     O.source_index(), toString(O.type()))
           .str());
  return std::nullopt;
}

} // namespace

llvm::Expected<Program> readProgram(llvm::ArrayRef<uint8_t> Bytes) {
  // The functional model reads the program in place and wants it 8-byte
  // aligned; so does flatbuffers' verifier for its scalars.
  std::unique_ptr<uint64_t[]> Aligned(new uint64_t[Bytes.size() / 8 + 1]);
  auto *Data = reinterpret_cast<uint8_t *>(Aligned.get());
  if (!Bytes.empty())
    std::memcpy(Data, Bytes.data(), Bytes.size());

  flatbuffers::Verifier V(Data, Bytes.size());
  if (!fbs::VerifyProgramBuffer(V))
    return problem("the FlatBuffers verifier rejects it (not an accelerator "
                   "program, truncated, or an offset out of bounds)");
  const fbs::Program *F = fbs::GetProgram(Data);

  Decoder D;
  Program P;
  P.Target = toString(F->target());
  P.Version = toString(F->version());
  P.Generator = toString(F->generator());
  P.ArenaBytes = F->arena_bytes();
  P.ScratchBytes = F->scratch_bytes();
  if (P.Target.empty() || P.Version.empty())
    return problem("it names no target or version");
  if (P.ArenaBytes < 0 || P.ScratchBytes < 0)
    return problem("negative arena or scratch size");
  if (F->buffers())
    for (const fbs::Buffer *B : *F->buffers())
      P.Buffers.push_back(toVector(B->data()));

  if (F->subgraphs())
    for (const fbs::Subgraph *FS : *F->subgraphs()) {
      Subgraph S;
      S.Index = FS->index();
      S.Cycles = FS->cycles();
      S.SwitchCycles = FS->switch_cycles();
      S.ScratchBytes = FS->scratch_bytes();
      const size_t NumTensors = FS->tensors() ? FS->tensors()->size() : 0;
      auto Indices = [&](const flatbuffers::Vector<int32_t> *V,
                         llvm::StringRef What, bool AllowNone) {
        std::vector<int32_t> Out = toVector(V);
        for (int32_t I : Out)
          if ((I < 0 && !(AllowNone && I == -1)) ||
              (I >= 0 && static_cast<size_t>(I) >= NumTensors))
            D.fail(llvm::formatv("subgraph {0}: {1} names tensor {2} of {3}",
                                 S.Index, What, I, NumTensors)
                       .str());
        return Out;
      };
      if (FS->tensors())
        for (const fbs::Tensor *FT : *FS->tensors()) {
          Tensor T;
          T.Id = FT->id();
          T.Name = toString(FT->name());
          T.Type = D.dtype(FT->dtype(), "a tensor").value_or(ir::DType::I8);
          T.DeviceType =
              D.dtype(FT->device_dtype(), "a tensor").value_or(ir::DType::I8);
          T.Shape = toVector(FT->shape());
          T.Quant = D.quant(FT->quantization());
          T.DeviceQuant = D.quant(FT->device_quantization());
          auto L = static_cast<int>(FT->layout());
          auto M = static_cast<int>(FT->memory());
          if (L < 0 || L > static_cast<int>(Layout::C16) || M < 0 ||
              M > static_cast<int>(Memory::Constant))
            D.fail(llvm::formatv("tensor {0} has layout {1} and memory {2}",
                                 T.Id, L, M)
                       .str());
          T.TensorLayout = static_cast<Layout>(L);
          T.Where = static_cast<Memory>(M);
          T.Bytes = FT->bytes();
          T.ArenaOffset = FT->arena_offset();
          T.DeviceOffset = FT->device_offset();
          T.Buffer = FT->buffer();
          T.Layer = FT->layer();
          T.Internal = FT->internal();
          if (T.Where == Memory::Constant &&
              (T.Buffer < 0 || static_cast<size_t>(T.Buffer) >= P.Buffers.size()))
            D.fail(llvm::formatv("tensor {0} names buffer {1} of {2}", T.Id,
                                 T.Buffer, P.Buffers.size())
                       .str());
          S.Tensors.push_back(std::move(T));
        }
      S.Inputs = Indices(FS->inputs(), "its inputs", false);
      S.Outputs = Indices(FS->outputs(), "its outputs", false);
      S.ConvertIn = Indices(FS->convert_in(), "convert_in", false);
      S.ConvertOut = Indices(FS->convert_out(), "convert_out", false);
      if (FS->layers())
        for (const fbs::Layer *FL : *FS->layers()) {
          Layer L;
          L.Type = toString(FL->type());
          L.SourceType = toString(FL->source_type());
          L.Index = FL->index();
          if (FL->cycles() >= 0)
            L.Cycles = FL->cycles();
          if (FL->ops())
            for (const fbs::Op *FO : *FL->ops()) {
              Op O;
              O.SourceIndex = FO->source_index();
              O.Type = toString(FO->type());
              O.Kernel = toString(FO->kernel());
              if (std::optional<kernels::AnyParams> Params = D.params(*FO))
                O.Params = std::move(*Params);
              O.Inputs = Indices(FO->inputs(), "an operator's inputs", true);
              O.Outputs = Indices(FO->outputs(), "an operator's results", false);
              O.ChannelAlign = FO->channel_align();
              L.Ops.push_back(std::move(O));
            }
          S.Layers.push_back(std::move(L));
        }
      P.Subgraphs.push_back(std::move(S));
    }
  if (llvm::Error E = D.error())
    return std::move(E);

  // What the functional model checks before it runs anything.
  int Status = mdla_check_program(Data, Bytes.size(),
                                  static_cast<size_t>(P.ArenaBytes),
                                  static_cast<size_t>(P.ScratchBytes));
  if (Status != MDLA_OK)
    return problem(llvm::formatv("the functional model rejects it: {0}",
                                 mdla_status_name(Status)));
  return P;
}

std::vector<std::string> functionalModelKernels() {
  std::vector<std::string> Names;
  for (int32_t I = 0; const char *N = mdla_kernel_name(I); ++I)
    Names.push_back(N);
  return Names;
}

} // namespace program
} // namespace accelgen
