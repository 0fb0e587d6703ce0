//===- TFLiteImporter.cpp - TensorFlow Lite FlatBuffers to Graph IR --------===//
#include "import/TFLiteImporter.h"

#include "import/BuiltinOps.h"
#include "import/OperatorChecks.h"
#include "ir/Verifier.h"
#include "tflite_subset_generated.h"

#include "flatbuffers/flexbuffers.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <cstring>
#include <optional>

namespace accelgen {
namespace tflite {

namespace fb = ::accelgen::tfl;
using ir::AttrValue;
namespace attr = ir::attr;

namespace {

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg.str());
}

/// Sets the padding attribute; a value the format does not define is an
/// error, not a silent SAME.
llvm::Error setPadding(ir::Operator &Out, fb::Padding P) {
  if (P != fb::Padding::SAME && P != fb::Padding::VALID)
    return makeError(llvm::formatv("padding {0} is neither SAME (0) nor "
                                   "VALID (1)",
                                   static_cast<int>(P)));
  Out.setAttr(attr::Padding, std::string(fb::EnumNamePadding(P)));
  return llvm::Error::success();
}

/// Sets the fused activation by its name in the format; a value the format
/// does not define is an error.
llvm::Error setActivation(ir::Operator &Out, fb::Activation A) {
  if (A < fb::Activation::MIN || A > fb::Activation::MAX)
    return makeError(llvm::formatv("fused activation {0} is not one the "
                                   "format defines (0 to {1})",
                                   static_cast<int>(A),
                                   static_cast<int>(fb::Activation::MAX)));
  Out.setAttr(attr::FusedActivation, std::string(fb::EnumNameActivation(A)));
  return llvm::Error::success();
}

template <typename T>
std::vector<int64_t> toInts(const flatbuffers::Vector<T> *V) {
  std::vector<int64_t> Out;
  if (V)
    Out.assign(V->begin(), V->end());
  return Out;
}

/// The elements of a vector of 8-byte integers. FlatBuffers 2.0's verifier
/// checks the alignment of a vector's length field but not of its elements,
/// so a verified file can hold them at a 4-byte boundary, where the vector's
/// own accessor would load them misaligned: read each with an unaligned load.
std::vector<int64_t> toInt64s(const flatbuffers::Vector<int64_t> *V) {
  std::vector<int64_t> Out;
  if (!V)
    return Out;
  Out.reserve(V->size());
  for (size_t I = 0; I < V->size(); ++I)
    Out.push_back(llvm::support::endian::read64le(V->Data() + 8 * I));
  return Out;
}

template <typename T>
std::vector<int32_t> toInt32s(const flatbuffers::Vector<T> *V) {
  std::vector<int32_t> Out;
  if (V)
    Out.assign(V->begin(), V->end());
  return Out;
}

/// How the importer reads one builtin operator: the options table it expects
/// (NONE for operators without options) and how to turn them into attributes.
struct OpReader {
  fb::BuiltinOptions Options;
  llvm::Error (*Read)(const fb::Operator &, ir::Operator &);
};

llvm::Error readConv2D(const fb::Operator &Op, ir::Operator &Out) {
  const fb::Conv2DOptions *O = Op.builtin_options_as_Conv2DOptions();
  if (llvm::Error E = setPadding(Out, O->padding()))
    return E;
  Out.setAttr(attr::StrideH, int64_t(O->stride_h()));
  Out.setAttr(attr::StrideW, int64_t(O->stride_w()));
  Out.setAttr(attr::DilationH, int64_t(O->dilation_h_factor()));
  Out.setAttr(attr::DilationW, int64_t(O->dilation_w_factor()));
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  return llvm::Error::success();
}

llvm::Error readDepthwise(const fb::Operator &Op, ir::Operator &Out) {
  const fb::DepthwiseConv2DOptions *O =
      Op.builtin_options_as_DepthwiseConv2DOptions();
  if (llvm::Error E = setPadding(Out, O->padding()))
    return E;
  Out.setAttr(attr::StrideH, int64_t(O->stride_h()));
  Out.setAttr(attr::StrideW, int64_t(O->stride_w()));
  Out.setAttr(attr::DilationH, int64_t(O->dilation_h_factor()));
  Out.setAttr(attr::DilationW, int64_t(O->dilation_w_factor()));
  Out.setAttr(attr::DepthMultiplier, int64_t(O->depth_multiplier()));
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  return llvm::Error::success();
}

llvm::Error readPool(const fb::Operator &Op, ir::Operator &Out) {
  const fb::Pool2DOptions *O = Op.builtin_options_as_Pool2DOptions();
  if (llvm::Error E = setPadding(Out, O->padding()))
    return E;
  Out.setAttr(attr::StrideH, int64_t(O->stride_h()));
  Out.setAttr(attr::StrideW, int64_t(O->stride_w()));
  Out.setAttr(attr::FilterH, int64_t(O->filter_height()));
  Out.setAttr(attr::FilterW, int64_t(O->filter_width()));
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  return llvm::Error::success();
}

llvm::Error readFullyConnected(const fb::Operator &Op, ir::Operator &Out) {
  const fb::FullyConnectedOptions *O =
      Op.builtin_options_as_FullyConnectedOptions();
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  Out.setAttr(attr::KeepNumDims, O->keep_num_dims());
  Out.setAttr(attr::WeightsFormat, int64_t(O->weights_format()));
  Out.setAttr(attr::AsymmetricQuantizeInputs, O->asymmetric_quantize_inputs());
  return llvm::Error::success();
}

llvm::Error readSoftmax(const fb::Operator &Op, ir::Operator &Out) {
  Out.setAttr(attr::Beta,
              double(Op.builtin_options_as_SoftmaxOptions()->beta()));
  return llvm::Error::success();
}

llvm::Error readConcat(const fb::Operator &Op, ir::Operator &Out) {
  const fb::ConcatenationOptions *O =
      Op.builtin_options_as_ConcatenationOptions();
  Out.setAttr(attr::Axis, int64_t(O->axis()));
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  return llvm::Error::success();
}

llvm::Error readAdd(const fb::Operator &Op, ir::Operator &Out) {
  const fb::AddOptions *O = Op.builtin_options_as_AddOptions();
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  Out.setAttr(attr::PotScaleInt16, O->pot_scale_int16());
  return llvm::Error::success();
}

llvm::Error readSub(const fb::Operator &Op, ir::Operator &Out) {
  const fb::SubOptions *O = Op.builtin_options_as_SubOptions();
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  Out.setAttr(attr::PotScaleInt16, O->pot_scale_int16());
  return llvm::Error::success();
}

llvm::Error readMul(const fb::Operator &Op, ir::Operator &Out) {
  if (llvm::Error E = setActivation(
          Out, Op.builtin_options_as_MulOptions()->fused_activation_function()))
    return E;
  return llvm::Error::success();
}

llvm::Error readDiv(const fb::Operator &Op, ir::Operator &Out) {
  return setActivation(
      Out, Op.builtin_options_as_DivOptions()->fused_activation_function());
}

template <typename Options>
llvm::Error setResizeAttrs(const Options *O, ir::Operator &Out) {
  Out.setAttr(attr::AlignCorners, O->align_corners());
  Out.setAttr(attr::HalfPixelCenters, O->half_pixel_centers());
  return llvm::Error::success();
}

llvm::Error readResizeBilinear(const fb::Operator &Op, ir::Operator &Out) {
  return setResizeAttrs(Op.builtin_options_as_ResizeBilinearOptions(), Out);
}

llvm::Error readResizeNearest(const fb::Operator &Op, ir::Operator &Out) {
  return setResizeAttrs(Op.builtin_options_as_ResizeNearestNeighborOptions(),
                        Out);
}

llvm::Error readMirrorPad(const fb::Operator &Op, ir::Operator &Out) {
  const fb::MirrorPadMode M = Op.builtin_options_as_MirrorPadOptions()->mode();
  if (M != fb::MirrorPadMode::REFLECT && M != fb::MirrorPadMode::SYMMETRIC)
    return makeError(llvm::formatv("unknown mirror padding mode {0}", int(M)));
  Out.setAttr(attr::Mode, std::string(M == fb::MirrorPadMode::REFLECT
                                                   ? "REFLECT"
                                                   : "SYMMETRIC"));
  return llvm::Error::success();
}

llvm::Error readL2Norm(const fb::Operator &Op, ir::Operator &Out) {
  return setActivation(
      Out, Op.builtin_options_as_L2NormOptions()->fused_activation_function());
}

llvm::Error readGather(const fb::Operator &Op, ir::Operator &Out) {
  const fb::GatherOptions *O = Op.builtin_options_as_GatherOptions();
  Out.setAttr(attr::Axis, int64_t(O->axis()));
  Out.setAttr(attr::BatchDims, int64_t(O->batch_dims()));
  return llvm::Error::success();
}

llvm::Error readBatchMatMul(const fb::Operator &Op, ir::Operator &Out) {
  const fb::BatchMatMulOptions *O = Op.builtin_options_as_BatchMatMulOptions();
  Out.setAttr(attr::AdjX, O->adj_x());
  Out.setAttr(attr::AdjY, O->adj_y());
  Out.setAttr(attr::AsymmetricQuantizeInputs, O->asymmetric_quantize_inputs());
  return llvm::Error::success();
}

llvm::Error readCumsum(const fb::Operator &Op, ir::Operator &Out) {
  const fb::CumsumOptions *O = Op.builtin_options_as_CumsumOptions();
  Out.setAttr(attr::Exclusive, O->exclusive());
  Out.setAttr(attr::Reverse, O->reverse());
  return llvm::Error::success();
}

llvm::Error readPack(const fb::Operator &Op, ir::Operator &Out) {
  const fb::PackOptions *O = Op.builtin_options_as_PackOptions();
  if (O->values_count() != static_cast<int>(Op.inputs() ? Op.inputs()->size()
                                                        : 0))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("PACK says {0} values but has {1} inputs",
                      O->values_count(),
                      Op.inputs() ? Op.inputs()->size() : 0)
            .str());
  Out.setAttr(attr::Axis, int64_t(O->axis()));
  return llvm::Error::success();
}

/// The number of results \p Declared an operator's options give, checked
/// against its outputs.
llvm::Error checkResultCount(const fb::Operator &Op, int32_t Declared,
                             llvm::StringRef What) {
  const size_t N = Op.outputs() ? Op.outputs()->size() : 0;
  if (Declared != static_cast<int64_t>(N))
    return makeError(llvm::formatv("{0} is {1} but it has {2} outputs", What,
                                   Declared, N));
  return llvm::Error::success();
}

llvm::Error readUnpack(const fb::Operator &Op, ir::Operator &Out) {
  const fb::UnpackOptions *O = Op.builtin_options_as_UnpackOptions();
  if (llvm::Error E = checkResultCount(Op, O->num(), "num"))
    return E;
  Out.setAttr(attr::Axis, int64_t(O->axis()));
  return llvm::Error::success();
}

llvm::Error readSplit(const fb::Operator &Op, ir::Operator &Out) {
  const int32_t N = Op.builtin_options_type() == fb::BuiltinOptions::SplitOptions
                        ? Op.builtin_options_as_SplitOptions()->num_splits()
                        : Op.builtin_options_as_SplitVOptions()->num_splits();
  if (llvm::Error E = checkResultCount(Op, N, "num_splits"))
    return E;
  Out.setAttr(attr::NumSplits, int64_t(N));
  return llvm::Error::success();
}

llvm::Error readIf(const fb::Operator &Op, ir::Operator &Out) {
  const fb::IfOptions *O = Op.builtin_options_as_IfOptions();
  Out.setAttr(attr::ThenSubgraph, int64_t(O->then_subgraph_index()));
  Out.setAttr(attr::ElseSubgraph, int64_t(O->else_subgraph_index()));
  return llvm::Error::success();
}

llvm::Error readWhile(const fb::Operator &Op, ir::Operator &Out) {
  const fb::WhileOptions *O = Op.builtin_options_as_WhileOptions();
  Out.setAttr(attr::CondSubgraph, int64_t(O->cond_subgraph_index()));
  Out.setAttr(attr::BodySubgraph, int64_t(O->body_subgraph_index()));
  return llvm::Error::success();
}

llvm::Error readCallOnce(const fb::Operator &Op, ir::Operator &Out) {
  Out.setAttr(attr::InitSubgraph,
              int64_t(Op.builtin_options_as_CallOnceOptions()
                          ->init_subgraph_index()));
  return llvm::Error::success();
}

llvm::Error readVarHandle(const fb::Operator &Op, ir::Operator &Out) {
  // The converter always writes the options; without them the handle names
  // the variable "" of container "".
  const fb::VarHandleOptions *O = Op.builtin_options_as_VarHandleOptions();
  auto Text = [](const flatbuffers::String *S) {
    return S ? S->str() : std::string();
  };
  Out.setAttr(attr::Container, O ? Text(O->container()) : std::string());
  Out.setAttr(attr::SharedName, O ? Text(O->shared_name()) : std::string());
  return llvm::Error::success();
}

llvm::Error readReshape(const fb::Operator &Op, ir::Operator &Out) {
  // Options are optional here: the new shape usually comes as input 1.
  if (const fb::ReshapeOptions *O = Op.builtin_options_as_ReshapeOptions())
    if (O->new_shape())
      Out.setAttr(attr::NewShape, toInts(O->new_shape()));
  return llvm::Error::success();
}

llvm::Error readReducer(const fb::Operator &Op, ir::Operator &Out) {
  Out.setAttr(attr::KeepDims,
              Op.builtin_options_as_ReducerOptions()->keep_dims());
  return llvm::Error::success();
}

llvm::Error readSqueeze(const fb::Operator &Op, ir::Operator &Out) {
  std::vector<int64_t> Dims;
  if (const fb::SqueezeOptions *O = Op.builtin_options_as_SqueezeOptions())
    Dims = toInts(O->squeeze_dims());
  Out.setAttr(attr::SqueezeDims, Dims);
  return llvm::Error::success();
}

llvm::Error readStridedSlice(const fb::Operator &Op, ir::Operator &Out) {
  const fb::StridedSliceOptions *O =
      Op.builtin_options_as_StridedSliceOptions();
  Out.setAttr(attr::BeginMask, int64_t(O->begin_mask()));
  Out.setAttr(attr::EndMask, int64_t(O->end_mask()));
  Out.setAttr(attr::EllipsisMask, int64_t(O->ellipsis_mask()));
  Out.setAttr(attr::NewAxisMask, int64_t(O->new_axis_mask()));
  Out.setAttr(attr::ShrinkAxisMask, int64_t(O->shrink_axis_mask()));
  Out.setAttr(attr::Offset, O->offset());
  return llvm::Error::success();
}

llvm::Error readTransposeConv(const fb::Operator &Op, ir::Operator &Out) {
  const fb::TransposeConvOptions *O =
      Op.builtin_options_as_TransposeConvOptions();
  if (llvm::Error E = setPadding(Out, O->padding()))
    return E;
  Out.setAttr(attr::StrideH, int64_t(O->stride_h()));
  Out.setAttr(attr::StrideW, int64_t(O->stride_w()));
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  return llvm::Error::success();
}

llvm::Error readLSTM(const fb::Operator &Op, ir::Operator &Out) {
  const fb::UnidirectionalSequenceLSTMOptions *O =
      Op.builtin_options_as_UnidirectionalSequenceLSTMOptions();
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  Out.setAttr(attr::CellClip, double(O->cell_clip()));
  Out.setAttr(attr::ProjClip, double(O->proj_clip()));
  Out.setAttr(attr::TimeMajor, O->time_major());
  Out.setAttr(attr::AsymmetricQuantizeInputs, O->asymmetric_quantize_inputs());
  Out.setAttr(attr::DiagonalRecurrentTensors, O->diagonal_recurrent_tensors());
  return llvm::Error::success();
}

llvm::Error readSvdf(const fb::Operator &Op, ir::Operator &Out) {
  const fb::SVDFOptions *O = Op.builtin_options_as_SVDFOptions();
  Out.setAttr(attr::Rank, int64_t(O->rank()));
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  Out.setAttr(attr::AsymmetricQuantizeInputs, O->asymmetric_quantize_inputs());
  return llvm::Error::success();
}

llvm::Error readLeakyRelu(const fb::Operator &Op, ir::Operator &Out) {
  Out.setAttr(attr::Alpha,
              double(Op.builtin_options_as_LeakyReluOptions()->alpha()));
  return llvm::Error::success();
}

llvm::Error readSpaceToDepth(const fb::Operator &Op, ir::Operator &Out) {
  Out.setAttr(attr::BlockSize,
              int64_t(Op.builtin_options_as_SpaceToDepthOptions()->block_size()));
  return llvm::Error::success();
}

llvm::Error readDepthToSpace(const fb::Operator &Op, ir::Operator &Out) {
  Out.setAttr(attr::BlockSize,
              int64_t(Op.builtin_options_as_DepthToSpaceOptions()->block_size()));
  return llvm::Error::success();
}

llvm::Error readConv3D(const fb::Operator &Op, ir::Operator &Out) {
  const fb::Conv3DOptions *O = Op.builtin_options_as_Conv3DOptions();
  if (llvm::Error E = setPadding(Out, O->padding()))
    return E;
  Out.setAttr(attr::StrideD, int64_t(O->stride_d()));
  Out.setAttr(attr::StrideH, int64_t(O->stride_h()));
  Out.setAttr(attr::StrideW, int64_t(O->stride_w()));
  Out.setAttr(attr::DilationD, int64_t(O->dilation_d_factor()));
  Out.setAttr(attr::DilationH, int64_t(O->dilation_h_factor()));
  Out.setAttr(attr::DilationW, int64_t(O->dilation_w_factor()));
  if (llvm::Error E = setActivation(Out, O->fused_activation_function()))
    return E;
  return llvm::Error::success();
}

llvm::Error readNothing(const fb::Operator &, ir::Operator &) {
  return llvm::Error::success();
}

using BO = fb::BuiltinOptions;

/// How the importer reads canonical operator \p Op, or nothing for one it
/// imports as opaque. Those with NONE take no options (or, like RESHAPE and
/// SQUEEZE, read optional ones themselves).
std::optional<OpReader> readerFor(ir::OpCode Op) {
  using ir::OpCode;
  switch (Op) {
  case OpCode::Add:
    return OpReader{BO::AddOptions, readAdd};
  case OpCode::AveragePool2D:
  case OpCode::MaxPool2D:
  case OpCode::L2Pool2D:
    return OpReader{BO::Pool2DOptions, readPool};
  case OpCode::Concatenation:
    return OpReader{BO::ConcatenationOptions, readConcat};
  case OpCode::Conv2D:
    return OpReader{BO::Conv2DOptions, readConv2D};
  case OpCode::Conv3D:
    return OpReader{BO::Conv3DOptions, readConv3D};
  case OpCode::DepthwiseConv2D:
    return OpReader{BO::DepthwiseConv2DOptions, readDepthwise};
  case OpCode::FullyConnected:
    return OpReader{BO::FullyConnectedOptions, readFullyConnected};
  case OpCode::LeakyRelu:
    return OpReader{BO::LeakyReluOptions, readLeakyRelu};
  case OpCode::Mean:
  case OpCode::ReduceMax:
  case OpCode::ReduceMin:
  case OpCode::ReduceAll:
  case OpCode::Sum:
    return OpReader{BO::ReducerOptions, readReducer};
  case OpCode::Mul:
    return OpReader{BO::MulOptions, readMul};
  case OpCode::Div:
    return OpReader{BO::DivOptions, readDiv};
  case OpCode::Gather:
    return OpReader{BO::GatherOptions, readGather};
  case OpCode::L2Normalization:
    return OpReader{BO::L2NormOptions, readL2Norm};
  case OpCode::Pack:
    return OpReader{BO::PackOptions, readPack};
  case OpCode::Unpack:
    return OpReader{BO::UnpackOptions, readUnpack};
  case OpCode::Split:
    return OpReader{BO::SplitOptions, readSplit};
  case OpCode::SplitV:
    return OpReader{BO::SplitVOptions, readSplit};
  case OpCode::Cumsum:
    return OpReader{BO::CumsumOptions, readCumsum};
  case OpCode::If:
    return OpReader{BO::IfOptions, readIf};
  case OpCode::While:
    return OpReader{BO::WhileOptions, readWhile};
  case OpCode::CallOnce:
    return OpReader{BO::CallOnceOptions, readCallOnce};
  case OpCode::VarHandle:
    return OpReader{BO::NONE, readVarHandle};
  case OpCode::BatchMatMul:
    return OpReader{BO::BatchMatMulOptions, readBatchMatMul};
  case OpCode::MirrorPad:
    return OpReader{BO::MirrorPadOptions, readMirrorPad};
  case OpCode::ResizeBilinear:
    return OpReader{BO::ResizeBilinearOptions, readResizeBilinear};
  case OpCode::ResizeNearestNeighbor:
    return OpReader{BO::ResizeNearestNeighborOptions, readResizeNearest};
  case OpCode::Reshape:
    return OpReader{BO::NONE, readReshape};
  case OpCode::Softmax:
    return OpReader{BO::SoftmaxOptions, readSoftmax};
  case OpCode::Squeeze:
    return OpReader{BO::NONE, readSqueeze};
  case OpCode::StridedSlice:
    return OpReader{BO::StridedSliceOptions, readStridedSlice};
  case OpCode::Sub:
    return OpReader{BO::SubOptions, readSub};
  case OpCode::TransposeConv:
    return OpReader{BO::TransposeConvOptions, readTransposeConv};
  case OpCode::UnidirectionalSequenceLSTM:
    return OpReader{BO::UnidirectionalSequenceLSTMOptions, readLSTM};
  case OpCode::Svdf:
    return OpReader{BO::SVDFOptions, readSvdf};
  case OpCode::SpaceToDepth:
    return OpReader{BO::SpaceToDepthOptions, readSpaceToDepth};
  case OpCode::DepthToSpace:
    return OpReader{BO::DepthToSpaceOptions, readDepthToSpace};
  case OpCode::Abs:
  case OpCode::AddN:
  case OpCode::ArgMax:
  case OpCode::ArgMin:
  case OpCode::BatchToSpaceND:
  case OpCode::BroadcastArgs:
  case OpCode::BroadcastTo:
  case OpCode::DynamicUpdateSlice:
  case OpCode::EmbeddingLookup:
  case OpCode::GatherNd:
  case OpCode::Shape:
  case OpCode::Cast:
  case OpCode::Ceil:
  case OpCode::Cos:
  case OpCode::Dequantize:
  case OpCode::Elu:
  case OpCode::Equal:
  case OpCode::Exp:
  case OpCode::ExpandDims:
  case OpCode::Floor:
  case OpCode::Fill:
  case OpCode::FloorDiv:
  case OpCode::FloorMod:
  case OpCode::Greater:
  case OpCode::GreaterEqual:
  case OpCode::HardSwish:
  case OpCode::Less:
  case OpCode::LessEqual:
  case OpCode::Log:
  case OpCode::LogSoftmax:
  case OpCode::LogicalAnd:
  case OpCode::LogicalNot:
  case OpCode::LogicalOr:
  case OpCode::Logistic:
  case OpCode::Maximum:
  case OpCode::Minimum:
  case OpCode::Neg:
  case OpCode::NotEqual:
  case OpCode::Pad:
  case OpCode::Prelu:
  case OpCode::PadV2:
  case OpCode::Quantize:
  case OpCode::Relu:
  case OpCode::Relu6:
  case OpCode::ReluN1To1:
  case OpCode::ReverseV2:
  case OpCode::Round:
  case OpCode::Rsqrt:
  case OpCode::SelectV2:
  case OpCode::Sin:
  case OpCode::Slice:
  case OpCode::SpaceToBatchND:
  case OpCode::Sqrt:
  case OpCode::Square:
  case OpCode::SquaredDifference:
  case OpCode::Tanh:
  case OpCode::Transpose:
  case OpCode::ZerosLike:
  case OpCode::ReadVariable:
  case OpCode::AssignVariable:
    return OpReader{BO::NONE, readNothing};
  default:
    return std::nullopt;
  }
}

std::optional<ir::DType> convertType(fb::TensorType T) {
  switch (T) {
  case fb::TensorType::INT8:
    return ir::DType::I8;
  case fb::TensorType::UINT8:
    return ir::DType::U8;
  case fb::TensorType::INT16:
    return ir::DType::I16;
  case fb::TensorType::INT32:
    return ir::DType::I32;
  case fb::TensorType::INT64:
    return ir::DType::I64;
  case fb::TensorType::FLOAT16:
    return ir::DType::F16;
  case fb::TensorType::FLOAT32:
    return ir::DType::F32;
  case fb::TensorType::BOOL:
    return ir::DType::Bool;
  case fb::TensorType::UINT32:
    return ir::DType::U32;
  default:
    return std::nullopt;
  }
}

class Importer {
public:
  Importer(llvm::ArrayRef<uint8_t> Bytes, ImportResult &Result)
      : Bytes(Bytes), Result(Result) {}

  llvm::Error run();

private:
  llvm::ArrayRef<uint8_t> Bytes;
  ImportResult &Result;
  const fb::Model *Root = nullptr;
  /// Constant bytes copied into the IR so far, over all graphs.
  uint64_t ConstantBytes = 0;

  void warn(const llvm::Twine &Msg) { Result.Warnings.push_back(Msg.str()); }

  llvm::Error importGraph(size_t Index, const fb::SubGraph &SG, ir::Graph &G);
  llvm::Error importTensor(const fb::Tensor &T, size_t Index, ir::Tensor &Out);
  llvm::Error importQuant(const fb::QuantizationParameters &Q,
                          const std::string &Loc, ir::Tensor &Out);
  llvm::Error importOperator(const fb::Operator &Op, size_t Index,
                             ir::Operator &Out);
};

llvm::Error Importer::run() {
  if (Bytes.size() < 8)
    return makeError(llvm::formatv("file is too small ({0} bytes) to be a "
                                   "TensorFlow Lite model",
                                   Bytes.size()));
  if (Bytes.size() >= (size_t(1) << 31))
    return makeError("file is larger than 2 GiB, the FlatBuffers limit");
  if (!fb::ModelBufferHasIdentifier(Bytes.data())) {
    std::string Id;
    for (size_t I = 4; I < 8; ++I)
      Id += std::isprint(Bytes[I]) ? char(Bytes[I]) : '?';
    return makeError(llvm::formatv("not a TensorFlow Lite model: file "
                                   "identifier is '{0}', expected '{1}'",
                                   Id, fb::ModelIdentifier()));
  }
  // As many tables as the bytes can hold (each takes at least 4), not
  // FlatBuffers' default million: a model of 250,000 operators has more.
  flatbuffers::Verifier::Options Limits;
  Limits.max_tables =
      static_cast<flatbuffers::uoffset_t>(Bytes.size() / 4 + 1);
  flatbuffers::Verifier V(Bytes.data(), Bytes.size(), Limits);
  if (!fb::VerifyModelBuffer(V))
    return makeError("malformed FlatBuffer: the model fails verification "
                     "(truncated or corrupt file)");
  Root = fb::GetModel(Bytes.data());

  auto M = std::make_unique<ir::Model>();
  M->SchemaVersion = Root->version();
  if (Root->description())
    M->Description = Root->description()->str();
  if (!Root->subgraphs() || Root->subgraphs()->size() == 0)
    return makeError("the model has no subgraph");
  M->Graphs.resize(Root->subgraphs()->size());
  for (size_t I = 0; I < Root->subgraphs()->size(); ++I)
    if (llvm::Error E =
            importGraph(I, *Root->subgraphs()->Get(I), M->Graphs[I]))
      return E;
  if (llvm::Error E = ir::verifyModel(*M))
    return E;
  for (size_t I = 0; I < M->Graphs.size(); ++I)
    if (llvm::Error E = checkOperators(M->Graphs[I]))
      return makeError(
          llvm::formatv("graph {0}: {1}", I, llvm::toString(std::move(E))));
  Result.Model = std::move(M);
  return llvm::Error::success();
}

llvm::Error Importer::importGraph(size_t Index, const fb::SubGraph &SG,
                                  ir::Graph &G) {
  G.Name = SG.name() ? SG.name()->str() : "";
  if (SG.tensors()) {
    G.Tensors.resize(SG.tensors()->size());
    for (size_t I = 0; I < SG.tensors()->size(); ++I)
      if (llvm::Error E = importTensor(*SG.tensors()->Get(I), I, G.Tensors[I]))
        return makeError(llvm::formatv("graph {0}: {1}", Index,
                                       llvm::toString(std::move(E))));
  }
  G.Inputs = toInt32s(SG.inputs());
  G.Outputs = toInt32s(SG.outputs());
  if (SG.operators()) {
    G.Operators.resize(SG.operators()->size());
    for (size_t I = 0; I < SG.operators()->size(); ++I)
      if (llvm::Error E =
              importOperator(*SG.operators()->Get(I), I, G.Operators[I]))
        return makeError(llvm::formatv("graph {0}: {1}", Index,
                                       llvm::toString(std::move(E))));
  }
  return llvm::Error::success();
}

llvm::Error Importer::importTensor(const fb::Tensor &T, size_t Index,
                                   ir::Tensor &Out) {
  Out.Name = T.name() ? T.name()->str() : "";
  std::string Loc = llvm::formatv("tensor {0} '{1}'", Index, Out.Name).str();
  // int4 weights are int8 values, packed two to a byte in the file.
  Out.PackedInt4 = T.type() == fb::TensorType::INT4;
  // A resource handle holds the int32 that names its variable.
  Out.IsResource = T.type() == fb::TensorType::RESOURCE;
  std::optional<ir::DType> Type = Out.PackedInt4  ? ir::DType::I8
                                  : Out.IsResource ? ir::DType::I32
                                                   : convertType(T.type());
  if (!Type)
    return makeError(llvm::formatv(
        "{0}: element type {1} is not supported", Loc,
        fb::EnumNameTensorType(T.type())[0] ? fb::EnumNameTensorType(T.type())
                                            : "unknown"));
  Out.Type = *Type;
  if (T.shape() && T.shape()->size() > ir::MaxRank)
    return makeError(llvm::formatv("{0}: rank {1} exceeds the maximum of {2}",
                                   Loc, T.shape()->size(), ir::MaxRank));
  Out.Shape = toInt32s(T.shape());
  for (size_t D = 0; D < Out.Shape.size(); ++D)
    if (Out.Shape[D] < 0)
      return makeError(llvm::formatv("{0}: dimension {1} is negative ({2})",
                                     Loc, D, Out.Shape[D]));
  if (Out.numElements() > ir::MaxElements)
    return makeError(llvm::formatv("{0}: shape {1} has more than {2} elements",
                                   Loc, ir::formatShape(Out.Shape),
                                   ir::MaxElements));
  Out.IsVariable = T.is_variable();
  if (T.sparsity())
    return makeError(
        llvm::formatv("{0}: sparse tensors are not supported", Loc));

  uint32_t BufIndex = T.buffer();
  size_t NumBuffers = Root->buffers() ? Root->buffers()->size() : 0;
  if (BufIndex != 0) {
    if (BufIndex >= NumBuffers)
      return makeError(llvm::formatv("{0}: buffer index {1} is out of range "
                                     "({2} buffers)",
                                     Loc, BufIndex, NumBuffers));
    const fb::Buffer *B = Root->buffers()->Get(BufIndex);
    llvm::ArrayRef<uint8_t> Data;
    if (B->data() && B->data()->size() > 0) {
      Data = llvm::ArrayRef<uint8_t>(B->data()->data(), B->data()->size());
    } else if (B->offset() > 1) {
      // Data stored after the FlatBuffer, at an absolute file offset.
      if (B->offset() > Bytes.size() || B->size() > Bytes.size() - B->offset())
        return makeError(llvm::formatv(
            "{0}: buffer {1} points to bytes [{2}, {2}+{3}) beyond the end of "
            "the {4}-byte file",
            Loc, BufIndex, B->offset(), B->size(), Bytes.size()));
      Data = Bytes.slice(B->offset(), B->size());
    }
    if (!Data.empty()) {
      int64_t Expected =
          Out.PackedInt4 ? (Out.numElements() + 1) / 2 : Out.byteSize();
      if (static_cast<int64_t>(Data.size()) != Expected)
        return makeError(llvm::formatv(
            "{0}: buffer {1} has {2} bytes, but shape {3} of {4} needs {5}",
            Loc, BufIndex, Data.size(), ir::formatShape(Out.Shape),
            Out.PackedInt4 ? llvm::StringRef("int4")
                           : ir::dtypeName(Out.Type),
            Expected));
      // Every tensor gets its own copy of its buffer, and any number of
      // tensors may name the same buffer: without a bound, a file of a few
      // hundred kilobytes expands to gigabytes. Converters give each tensor
      // a buffer of its own, so the copies total at most the file's size;
      // allow some sharing beyond that.
      ConstantBytes += Data.size();
      if (ConstantBytes > MaxConstantExpansion * Bytes.size())
        return makeError(llvm::formatv(
            "{0}: buffer {1} brings the constant data of all tensors to {2} "
            "bytes, more than {3} times the {4}-byte file (buffers shared by "
            "too many tensors)",
            Loc, BufIndex, ConstantBytes, MaxConstantExpansion, Bytes.size()));
      Out.IsConstant = true;
      if (Out.PackedInt4)
        Out.Data = ir::unpackInt4(Data, Out.numElements());
      else
        Out.Data.assign(Data.begin(), Data.end());
    }
  }
  if (Out.PackedInt4 && !Out.IsConstant)
    return makeError(llvm::formatv("{0}: an int4 tensor must be constant "
                                   "(packed weights); only int4 weights are "
                                   "supported",
                                   Loc));

  if (const fb::QuantizationParameters *Q = T.quantization())
    if (llvm::Error E = importQuant(*Q, Loc, Out))
      return E;
  return llvm::Error::success();
}

llvm::Error Importer::importQuant(const fb::QuantizationParameters &Q,
                                  const std::string &Loc, ir::Tensor &Out) {
  if (Q.details_type() != 0)
    return makeError(llvm::formatv("{0}: custom quantization schemes are not "
                                   "supported",
                                   Loc));
  if (!Q.scale() || Q.scale()->size() == 0)
    return llvm::Error::success(); // Not quantized.
  ir::QuantParams P;
  P.Scales.assign(Q.scale()->begin(), Q.scale()->end());
  if (Q.zero_point() && Q.zero_point()->size() > 0)
    P.ZeroPoints = toInt64s(Q.zero_point());
  else
    P.ZeroPoints.assign(P.Scales.size(), 0);
  int32_t Axis = Q.quantized_dimension();
  if (P.isPerChannel() &&
      (Axis < 0 || static_cast<unsigned>(Axis) >= Out.rank()) &&
      Out.rank() == 1 &&
      static_cast<int64_t>(P.Scales.size()) == Out.Shape[0]) {
    // Some converters wrote the filter's channel axis on 1-D biases. The
    // reference runtimes read biases per element and ignore the axis; so do we.
    warn(llvm::formatv("{0}: quantized_dimension {1} is out of range for a "
                       "1-D tensor of {2} channels; using 0",
                       Loc, Axis, P.Scales.size()));
    Axis = 0;
  }
  P.Axis = P.isPerChannel() ? Axis : 0;
  Out.Quant = std::move(P);
  return llvm::Error::success();
}

/// The custom code of TensorFlow Lite's SSD post-processing, which is also
/// the name of its operator in the vocabulary.
constexpr llvm::StringLiteral DetectionPostProcessCode =
    "TFLite_Detection_PostProcess";

/// The custom options \p Op carries as a FlexBuffer map, in aligned
/// storage \p Aligned; none when it carries none.
llvm::Expected<std::optional<flexbuffers::Map>>
customOptionsMap(const fb::Operator &Op, std::vector<uint64_t> &Aligned) {
  const flatbuffers::Vector<uint8_t> *Raw = Op.custom_options();
  if (!Raw || Raw->size() == 0)
    return std::nullopt;
  // FlexBuffers reads scalars in place: the bytes go to aligned storage.
  Aligned.assign((Raw->size() + 7) / 8, 0);
  std::memcpy(Aligned.data(), Raw->data(), Raw->size());
  const auto *Bytes = reinterpret_cast<const uint8_t *>(Aligned.data());
  if (!flexbuffers::VerifyBuffer(Bytes, Raw->size()))
    return makeError("its custom options are not a well-formed FlexBuffer");
  const flexbuffers::Reference Root = flexbuffers::GetRoot(Bytes, Raw->size());
  if (!Root.IsMap())
    return makeError("its custom options are not a FlexBuffer map");
  return std::optional<flexbuffers::Map>(Root.AsMap());
}

/// The integers of a FlexBuffer vector of integers; none for anything else.
std::optional<std::vector<int64_t>>
intVector(const flexbuffers::Reference &V) {
  std::vector<int64_t> Out;
  if (V.IsTypedVector()) {
    const flexbuffers::TypedVector T = V.AsTypedVector();
    for (size_t I = 0; I < T.size(); ++I) {
      if (!T[I].IsIntOrUint())
        return std::nullopt;
      Out.push_back(T[I].AsInt64());
    }
    return Out;
  }
  if (!V.IsVector())
    return std::nullopt;
  const flexbuffers::Vector U = V.AsVector();
  for (size_t I = 0; I < U.size(); ++I) {
    if (!U[I].IsIntOrUint())
      return std::nullopt;
    Out.push_back(U[I].AsInt64());
  }
  return Out;
}

/// A custom operator of a registered kernel family: every entry of its
/// options' FlexBuffer map (none: no attributes) is an attribute, an
/// integer, a real, a bool or a string.
llvm::Error readCustomAttributes(const fb::Operator &Op, ir::Operator &Out) {
  std::vector<uint64_t> Aligned;
  auto M = customOptionsMap(Op, Aligned);
  if (!M)
    return M.takeError();
  if (!*M)
    return llvm::Error::success();
  const flexbuffers::TypedVector Keys = (*M)->Keys();
  const flexbuffers::Vector Values = (*M)->Values();
  for (size_t I = 0; I < Keys.size(); ++I) {
    const std::string Key = Keys[I].AsKey();
    const flexbuffers::Reference V = Values[I];
    if (V.IsBool())
      Out.setAttr(Key, V.AsBool());
    else if (V.IsIntOrUint())
      Out.setAttr(Key, V.AsInt64());
    else if (V.IsFloat())
      Out.setAttr(Key, V.AsDouble());
    else if (V.IsString())
      Out.setAttr(Key, V.AsString().str());
    else if (std::optional<std::vector<int64_t>> Ints = intVector(V))
      Out.setAttr(Key, std::move(*Ints));
    else
      return makeError(llvm::formatv("custom option '{0}' is neither an "
                                     "integer, a real, a bool, a string nor "
                                     "a vector of integers",
                                     Key));
  }
  return llvm::Error::success();
}

/// TFLite_Detection_PostProcess's options: the FlexBuffer map of its custom
/// options, read as TensorFlow Lite Micro reads it (a key left out reads as
/// 0, 0.0 or false; detections_per_class as 100).
llvm::Error readDetectionPostProcess(const fb::Operator &Op,
                                     ir::Operator &Out) {
  std::vector<uint64_t> Aligned;
  auto Options = customOptionsMap(Op, Aligned);
  if (!Options)
    return Options.takeError();
  if (!*Options)
    return makeError("it has no custom options (the FlexBuffer map of its "
                     "settings)");
  const flexbuffers::Map M = **Options;
  namespace A = ir::attr;
  auto Int = [&](llvm::StringRef Name, const char *Key) {
    Out.setAttr(Name, static_cast<int64_t>(M[Key].AsInt32()));
  };
  auto Float = [&](llvm::StringRef Name, const char *Key) {
    Out.setAttr(Name, static_cast<double>(M[Key].AsFloat()));
  };
  Int(A::MaxDetections, "max_detections");
  Int(A::MaxClassesPerDetection, "max_classes_per_detection");
  Out.setAttr(A::DetectionsPerClass,
              M["detections_per_class"].IsNull()
                  ? int64_t(100)
                  : static_cast<int64_t>(M["detections_per_class"].AsInt32()));
  Out.setAttr(A::UseRegularNms, !M["use_regular_nms"].IsNull() &&
                                    M["use_regular_nms"].AsBool());
  Float(A::NmsScoreThreshold, "nms_score_threshold");
  Float(A::NmsIouThreshold, "nms_iou_threshold");
  Int(A::NumClasses, "num_classes");
  Float(A::YScale, "y_scale");
  Float(A::XScale, "x_scale");
  Float(A::HScale, "h_scale");
  Float(A::WScale, "w_scale");
  return llvm::Error::success();
}

llvm::Error Importer::importOperator(const fb::Operator &Op, size_t Index,
                                     ir::Operator &Out) {
  size_t NumCodes = Root->operator_codes() ? Root->operator_codes()->size() : 0;
  if (Op.opcode_index() >= NumCodes)
    return makeError(llvm::formatv("operator {0}: opcode index {1} is out of "
                                   "range ({2} operator codes)",
                                   Index, Op.opcode_index(), NumCodes));
  const fb::OperatorCode *Code = Root->operator_codes()->Get(Op.opcode_index());
  // Writers put codes below 127 in the old one-byte field and larger ones in
  // the new field only; the larger of the two is the code.
  int32_t BuiltinCode =
      std::max<int32_t>(Code->deprecated_builtin_code(), Code->builtin_code());
  Out.BuiltinCode = BuiltinCode;
  Out.Version = Code->version();
  Out.Inputs = toInt32s(Op.inputs());
  Out.Outputs = toInt32s(Op.outputs());
  Out.Type = builtinOperatorName(BuiltinCode);
  if (BuiltinCode == static_cast<int32_t>(Builtin::CUSTOM) &&
      Code->custom_code())
    Out.CustomCode = Code->custom_code()->str();
  if (Out.CustomCode == DetectionPostProcessCode) {
    Out.Type = Out.CustomCode;
    if (llvm::Error E = readDetectionPostProcess(Op, Out))
      return makeError(llvm::formatv("operator {0} ({1}): {2}", Index,
                                     Out.Type, llvm::toString(std::move(E))));
    return llvm::Error::success();
  }

  if (!Out.CustomCode.empty() && ir::isCustomOperator(Out.CustomCode)) {
    Out.Type = Out.CustomCode;
    if (llvm::Error E = readCustomAttributes(Op, Out))
      return makeError(llvm::formatv("operator {0} ({1}): {2}", Index,
                                     Out.Type, llvm::toString(std::move(E))));
    return llvm::Error::success();
  }
  std::optional<OpReader> Reader = readerFor(builtinOpCode(BuiltinCode));
  if (!Reader) {
    Out.Opaque = true;
    Out.RawOptionsTag = static_cast<int32_t>(Op.builtin_options_type());
    if (Op.custom_options())
      Out.RawOptions.assign(Op.custom_options()->begin(),
                            Op.custom_options()->end());
    return llvm::Error::success();
  }
  if (Reader->Options != BO::NONE &&
      Op.builtin_options_type() != Reader->Options)
    return makeError(llvm::formatv(
        "operator {0} ({1}): expected {2}, found {3}", Index, Out.Type,
        fb::EnumNameBuiltinOptions(Reader->Options),
        Op.builtin_options_type() == BO::NONE
            ? std::string("no options")
            : "options of tag " +
                  std::to_string(int(Op.builtin_options_type()))));
  // The tag and the table are separate fields: a file can carry the tag and
  // omit the table, which the FlatBuffers verifier accepts.
  if (Reader->Options != BO::NONE && !Op.builtin_options())
    return makeError(llvm::formatv(
        "operator {0} ({1}): options tag says {2}, but the options table is "
        "missing",
        Index, Out.Type, fb::EnumNameBuiltinOptions(Reader->Options)));
  if (llvm::Error E = Reader->Read(Op, Out))
    return makeError(llvm::formatv("operator {0} ({1}): {2}", Index, Out.Type,
                                   llvm::toString(std::move(E))));
  return llvm::Error::success();
}

} // namespace

llvm::Expected<ImportResult> importModel(llvm::ArrayRef<uint8_t> Bytes) {
  // The FlatBuffers verifier checks alignment relative to the start of the
  // buffer, and the accessors then load scalars in place: bytes at an address
  // that is not 8-byte aligned (a model embedded as a C array) would be read
  // misaligned. Such bytes are copied into storage from operator new[], which
  // is aligned for any scalar.
  std::unique_ptr<uint8_t[]> AlignedCopy;
  if (reinterpret_cast<uintptr_t>(Bytes.data()) % alignof(uint64_t) != 0) {
    AlignedCopy.reset(new uint8_t[Bytes.size()]);
    std::memcpy(AlignedCopy.get(), Bytes.data(), Bytes.size());
    Bytes = llvm::ArrayRef<uint8_t>(AlignedCopy.get(), Bytes.size());
  }
  ImportResult Result;
  if (llvm::Error E = Importer(Bytes, Result).run())
    return E;
  return Result;
}

llvm::Expected<ImportResult> importModelFile(llvm::StringRef Path) {
  auto BufOrErr = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!BufOrErr)
    return makeError("cannot read file: " + BufOrErr.getError().message());
  const llvm::MemoryBuffer &Buf = **BufOrErr;
  return importModel(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Buf.getBufferStart()),
      Buf.getBufferSize()));
}

llvm::Expected<ImportResult> importOneGraphModelFile(llvm::StringRef Path) {
  llvm::Expected<ImportResult> M = importModelFile(Path);
  if (M && M->Model->Graphs.size() != 1)
    return makeError(llvm::formatv("a model of {0} graphs; this tool takes "
                                   "models of one",
                                   M->Model->Graphs.size())
                         .str());
  return M;
}

} // namespace tflite
} // namespace accelgen
