//===- ModelRunner.cpp - Run an imported model on the reference kernels ---===//
//
// Kernel functions are looked up by the name KernelParams gives, through a
// table of adapters, one per C signature family, that unpack the operator's
// buffers into the kernel's typed arguments.
//
//===----------------------------------------------------------------------===//
#include "ModelRunner.h"

#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <map>
#include <string>
#include <type_traits>

namespace accelgen {
namespace test {

using kernels::KernelCall;

namespace {

/// The operands of one call, unpacked from the buffers.
struct OpArgs {
  std::vector<ref_shape> InShapes;
  /// Null for an omitted optional operand.
  std::vector<const void *> In;
  ref_shape OutShape{};
  void *Out = nullptr;
  int32_t OutCount = 0;
  int32_t InCount = 0;
  size_t OutBytes = 0;
  size_t ElementSize = 0;
};

using Adapter = std::function<void(const KernelCall &, const OpArgs &)>;

/// Which alternative of KernelParams holds a C params struct.
template <typename C> struct HolderOf { using type = C; };
template <> struct HolderOf<ref_conv2d_params> {
  using type = kernels::Conv2DParams;
};
template <> struct HolderOf<ref_depthwise_conv2d_params> {
  using type = kernels::DepthwiseConv2DParams;
};
template <> struct HolderOf<ref_fully_connected_params> {
  using type = kernels::FullyConnectedParams;
};
template <> struct HolderOf<ref_concat_params> {
  using type = kernels::ConcatParams;
};

/// The C params struct of type \p C held by \p Call.
template <typename C> C cParams(const KernelCall &Call) {
  const auto &H = std::get<typename HolderOf<C>::type>(Call.Params);
  if constexpr (std::is_same_v<typename HolderOf<C>::type, C>)
    return H;
  else
    return H.c();
}

template <typename P, typename T, typename B>
Adapter convLike(void (*F)(const P *, const ref_shape *, const T *,
                           const ref_shape *, const T *, const B *,
                           const ref_shape *, T *)) {
  return [F](const KernelCall &Call, const OpArgs &A) {
    const P Params = cParams<P>(Call);
    F(&Params, &A.InShapes[0], static_cast<const T *>(A.In[0]), &A.InShapes[1],
      static_cast<const T *>(A.In[1]), static_cast<const B *>(A.In[2]),
      &A.OutShape, static_cast<T *>(A.Out));
  };
}

template <typename P, typename T>
Adapter shaped(void (*F)(const P *, const ref_shape *, const T *,
                         const ref_shape *, T *)) {
  return [F](const KernelCall &Call, const OpArgs &A) {
    const P Params = cParams<P>(Call);
    F(&Params, &A.InShapes[0], static_cast<const T *>(A.In[0]), &A.OutShape,
      static_cast<T *>(A.Out));
  };
}

template <typename P, typename T>
Adapter binary(void (*F)(const P *, const ref_shape *, const T *,
                         const ref_shape *, const T *, const ref_shape *,
                         T *)) {
  return [F](const KernelCall &Call, const OpArgs &A) {
    const P Params = cParams<P>(Call);
    F(&Params, &A.InShapes[0], static_cast<const T *>(A.In[0]), &A.InShapes[1],
      static_cast<const T *>(A.In[1]), &A.OutShape, static_cast<T *>(A.Out));
  };
}

template <typename P, typename T>
Adapter rows(void (*F)(const P *, const ref_shape *, const T *, T *)) {
  return [F](const KernelCall &Call, const OpArgs &A) {
    const P Params = cParams<P>(Call);
    F(&Params, &A.InShapes[0], static_cast<const T *>(A.In[0]),
      static_cast<T *>(A.Out));
  };
}

template <typename P, typename TIn, typename TOut>
Adapter counted(void (*F)(const P *, int32_t, const TIn *, TOut *)) {
  return [F](const KernelCall &Call, const OpArgs &A) {
    const P Params = cParams<P>(Call);
    F(&Params, A.OutCount, static_cast<const TIn *>(A.In[0]),
      static_cast<TOut *>(A.Out));
  };
}

template <typename T>
Adapter concat(void (*F)(const ref_concat_params *, const ref_shape *const *,
                         const T *const *, const ref_shape *, T *)) {
  return [F](const KernelCall &Call, const OpArgs &A) {
    const ref_concat_params Params = cParams<ref_concat_params>(Call);
    std::vector<const ref_shape *> Shapes;
    std::vector<const T *> Inputs;
    for (size_t I = 0; I < A.In.size(); ++I) {
      Shapes.push_back(&A.InShapes[I]);
      Inputs.push_back(static_cast<const T *>(A.In[I]));
    }
    F(&Params, Shapes.data(), Inputs.data(), &A.OutShape,
      static_cast<T *>(A.Out));
  };
}

const std::map<std::string, Adapter> &adapters() {
  static const std::map<std::string, Adapter> Table = {
      {"ref_conv2d_i8_per_channel", convLike(ref_conv2d_i8_per_channel)},
      {"ref_conv2d_i8", convLike(ref_conv2d_i8)},
      {"ref_conv2d_u8", convLike(ref_conv2d_u8)},
      {"ref_conv2d_f32", convLike(ref_conv2d_f32)},
      {"ref_depthwise_conv2d_i8_per_channel",
       convLike(ref_depthwise_conv2d_i8_per_channel)},
      {"ref_depthwise_conv2d_i8", convLike(ref_depthwise_conv2d_i8)},
      {"ref_depthwise_conv2d_u8", convLike(ref_depthwise_conv2d_u8)},
      {"ref_depthwise_conv2d_f32", convLike(ref_depthwise_conv2d_f32)},
      {"ref_fully_connected_i8", convLike(ref_fully_connected_i8)},
      {"ref_fully_connected_i8_per_channel",
       convLike(ref_fully_connected_i8_per_channel)},
      {"ref_fully_connected_u8", convLike(ref_fully_connected_u8)},
      {"ref_fully_connected_f32", convLike(ref_fully_connected_f32)},
      {"ref_average_pool2d_i8", shaped(ref_average_pool2d_i8)},
      {"ref_average_pool2d_u8", shaped(ref_average_pool2d_u8)},
      {"ref_average_pool2d_f32", shaped(ref_average_pool2d_f32)},
      {"ref_max_pool2d_i8", shaped(ref_max_pool2d_i8)},
      {"ref_max_pool2d_u8", shaped(ref_max_pool2d_u8)},
      {"ref_max_pool2d_f32", shaped(ref_max_pool2d_f32)},
      {"ref_add_i8", binary(ref_add_i8)},
      {"ref_add_u8", binary(ref_add_u8)},
      {"ref_add_f32", binary(ref_add_f32)},
      {"ref_sub_i8", binary(ref_sub_i8)},
      {"ref_sub_u8", binary(ref_sub_u8)},
      {"ref_sub_f32", binary(ref_sub_f32)},
      {"ref_mul_i8", binary(ref_mul_i8)},
      {"ref_mul_u8", binary(ref_mul_u8)},
      {"ref_mul_f32", binary(ref_mul_f32)},
      {"ref_softmax_i8", rows(ref_softmax_i8)},
      {"ref_softmax_u8", rows(ref_softmax_u8)},
      {"ref_softmax_f32", rows(ref_softmax_f32)},
      {"ref_quantize_f32_i8", counted(ref_quantize_f32_i8)},
      {"ref_quantize_f32_u8", counted(ref_quantize_f32_u8)},
      {"ref_dequantize_i8_f32", counted(ref_dequantize_i8_f32)},
      {"ref_dequantize_u8_f32", counted(ref_dequantize_u8_f32)},
      {"ref_requantize_i8_i8", counted(ref_requantize_i8_i8)},
      {"ref_requantize_i8_u8", counted(ref_requantize_i8_u8)},
      {"ref_requantize_u8_i8", counted(ref_requantize_u8_i8)},
      {"ref_requantize_u8_u8", counted(ref_requantize_u8_u8)},
      {"ref_relu_i8", counted(ref_relu_i8)},
      {"ref_relu_u8", counted(ref_relu_u8)},
      {"ref_relu_f32", counted(ref_relu_f32)},
      {"ref_leaky_relu_i8", counted(ref_leaky_relu_i8)},
      {"ref_leaky_relu_u8", counted(ref_leaky_relu_u8)},
      {"ref_leaky_relu_f32", counted(ref_leaky_relu_f32)},
      {"ref_hard_swish_i8", counted(ref_hard_swish_i8)},
      {"ref_hard_swish_u8", counted(ref_hard_swish_u8)},
      {"ref_hard_swish_f32", counted(ref_hard_swish_f32)},
      {"ref_logistic_i8", counted(ref_logistic_i8)},
      {"ref_logistic_u8", counted(ref_logistic_u8)},
      {"ref_logistic_f32", counted(ref_logistic_f32)},
      {"ref_tanh_i8", counted(ref_tanh_i8)},
      {"ref_tanh_u8", counted(ref_tanh_u8)},
      {"ref_tanh_f32", counted(ref_tanh_f32)},
      {"ref_pad_i8", shaped(ref_pad_i8)},
      {"ref_pad_u8", shaped(ref_pad_u8)},
      {"ref_pad_f32", shaped(ref_pad_f32)},
      {"ref_concat_i8", concat(ref_concat_i8)},
      {"ref_concat_u8", concat(ref_concat_u8)},
      {"ref_concat_f32", concat(ref_concat_f32)},
      {"ref_concat_u8_rescale", concat(ref_concat_u8_rescale)},
      {"ref_mean_i8", rows(ref_mean_i8)},
      {"ref_mean_u8", rows(ref_mean_u8)},
      {"ref_mean_f32", rows(ref_mean_f32)},
      {"ref_transpose",
       [](const KernelCall &Call, const OpArgs &A) {
         const auto P = cParams<ref_transpose_params>(Call);
         ref_transpose(&P, A.ElementSize, &A.InShapes[0], A.In[0], &A.OutShape,
                       A.Out);
       }},
      {"ref_strided_slice",
       [](const KernelCall &Call, const OpArgs &A) {
         const auto P = cParams<ref_strided_slice_params>(Call);
         ref_strided_slice(&P, A.ElementSize, &A.InShapes[0], A.In[0], A.Out);
       }},
      {"ref_reshape",
       [](const KernelCall &Call, const OpArgs &A) {
         ref_reshape(std::get<kernels::ReshapeParams>(Call.Params).Bytes,
                     A.In[0], A.Out);
       }},
  };
  return Table;
}

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg.str());
}

} // namespace

llvm::Expected<ModelRunner> ModelRunner::create(const ir::Graph &G) {
  ModelRunner R(G);
  for (const ir::Operator &Op : G.Operators) {
    auto Call = kernels::computeKernelCall(G, Op);
    if (!Call)
      return Call.takeError();
    if (!adapters().count(Call->Function))
      return makeError("no adapter for kernel " + Call->Function);
    R.Calls.push_back(std::move(*Call));
  }
  return R;
}

TensorBuffers ModelRunner::initialBuffers() const {
  TensorBuffers B(G->Tensors.size());
  for (size_t I = 0; I < G->Tensors.size(); ++I)
    if (G->Tensors[I].IsConstant)
      B[I] = G->Tensors[I].Data;
  return B;
}

llvm::Error ModelRunner::runOperator(size_t Index,
                                     TensorBuffers &Buffers) const {
  const ir::Operator &Op = G->Operators[Index];
  const KernelCall &Call = Calls[Index];
  OpArgs A;
  for (int32_t T : Call.DataInputs) {
    if (T < 0) {
      A.InShapes.push_back(ref_shape{});
      A.In.push_back(nullptr);
      continue;
    }
    const ir::Tensor &Tensor = G->tensor(T);
    if (static_cast<int64_t>(Buffers[T].size()) != Tensor.byteSize())
      return makeError(llvm::formatv("operator {0} ({1}): input tensor {2} "
                                     "holds {3} bytes, expected {4}",
                                     Index, Op.Type, T, Buffers[T].size(),
                                     Tensor.byteSize()));
    auto S = kernels::toRefShape(Tensor.Shape);
    if (!S)
      return S.takeError();
    A.InShapes.push_back(*S);
    A.In.push_back(Buffers[T].data());
  }
  const int32_t OutT = Op.output(0);
  const ir::Tensor &Out = G->tensor(OutT);
  auto S = kernels::toRefShape(Out.Shape);
  if (!S)
    return S.takeError();
  A.OutShape = *S;
  A.OutCount = static_cast<int32_t>(Out.numElements());
  A.OutBytes = static_cast<size_t>(Out.byteSize());
  A.ElementSize = ir::dtypeSize(Out.Type);
  // A fresh buffer: a kernel must not rely on what was there before.
  std::vector<uint8_t> Result(A.OutBytes, 0xA5);
  A.Out = Result.data();
  adapters().at(Call.Function)(Call, A);
  Buffers[OutT] = std::move(Result);
  return llvm::Error::success();
}

llvm::Error ModelRunner::runAll(TensorBuffers &Buffers) const {
  for (size_t I = 0; I < Calls.size(); ++I)
    if (llvm::Error E = runOperator(I, Buffers))
      return E;
  return llvm::Error::success();
}

} // namespace test
} // namespace accelgen
