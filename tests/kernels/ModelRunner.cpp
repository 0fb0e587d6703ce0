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
  /// Results past the output, by index (null at 0), and working memory.
  std::vector<void *> Results;
  void *Scratch = nullptr;
};

using Adapter = std::function<void(const KernelCall &, const OpArgs &)>;

/// The C params struct of type \p C held by \p Call.
template <typename C> C cParams(const KernelCall &Call) {
  return std::get<kernels::FamilyParams<C>>(Call.Params).c();
}

/// Every data input's shape, for the kernels taking them all.
std::vector<const ref_shape *> inputShapes(const OpArgs &A) {
  std::vector<const ref_shape *> Shapes;
  for (const ref_shape &S : A.InShapes)
    Shapes.push_back(&S);
  return Shapes;
}

/// Every data input, typed, for the kernels taking them all.
template <typename T> std::vector<const T *> inputs(const OpArgs &A) {
  std::vector<const T *> In;
  for (const void *P : A.In)
    In.push_back(static_cast<const T *>(P));
  return In;
}

// The element types of the kernel table.
using CT_I8 = int8_t;
using CT_U8 = uint8_t;
using CT_I16 = int16_t;
using CT_I32 = int32_t;
using CT_I64 = int64_t;
using CT_F32 = float;
using CT_BOOL = uint8_t;
using CT_U32 = uint32_t;
using CT_ANY = void;

/// One adapter per kernel function, calling it as the kernel table (from
/// defs/kernels.td) spells its arguments.
const std::map<std::string, Adapter> &adapters() {
#define REF_KERNEL_ARG_PARAMS(family) &P
#define REF_KERNEL_ARG_FIELD(family, field) P.field
#define REF_KERNEL_ARG_SHAPE(i) &A.InShapes[i]
#define REF_KERNEL_ARG_DATA(i, type) static_cast<const CT_##type *>(A.In[i])
#define REF_KERNEL_ARG_STATE(i, type)                                          \
  static_cast<CT_##type *>(const_cast<void *>(A.In[i]))
#define REF_KERNEL_ARG_OUTPUT_SHAPE &A.OutShape
#define REF_KERNEL_ARG_OUTPUT(type) static_cast<CT_##type *>(A.Out)
#define REF_KERNEL_ARG_COUNT A.OutCount
#define REF_KERNEL_ARG_ELEMENT_SIZE A.ElementSize
#define REF_KERNEL_ARG_INPUT_SHAPES inputShapes(A).data()
#define REF_KERNEL_ARG_INPUTS(type) inputs<CT_##type>(A).data()
#define REF_KERNEL_ARG_RESULT(k, type) static_cast<CT_##type *>(A.Results[k])
#define REF_KERNEL_ARG_SCRATCH A.Scratch
#define REF_KERNEL_CALL(name, family, st, ...)                                 \
  {#name, [](const KernelCall &Call, const OpArgs &A) {                        \
     const st P = cParams<st>(Call);                                           \
     (void)P;                                                                  \
     name(__VA_ARGS__);                                                        \
   }},
  static const std::map<std::string, Adapter> Table = {
#include "ref_kernel_table.inc"
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
    auto Calls = kernels::computeKernelCalls(G, Op);
    if (!Calls)
      return Calls.takeError();
    for (const kernels::KernelCall &Call : *Calls)
      if (!adapters().count(Call.Function))
        return makeError("no adapter for kernel " + Call.Function);
    R.Calls.push_back(std::move(*Calls));
  }
  return R;
}

TensorBuffers ModelRunner::initialBuffers() const {
  TensorBuffers B(G->Tensors.size());
  for (size_t I = 0; I < G->Tensors.size(); ++I)
    if (G->Tensors[I].IsConstant)
      B[I] = G->Tensors[I].Data;
    else if (G->Tensors[I].IsVariable)
      B[I].assign(static_cast<size_t>(G->Tensors[I].byteSize()),
                  G->Tensors[I].stateFillByte());
  return B;
}

llvm::Error ModelRunner::runOperator(size_t Index,
                                     TensorBuffers &Buffers) const {
  const ir::Operator &Op = G->Operators[Index];
  for (const KernelCall &Call : Calls[Index]) {
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
    const int32_t OutT = Call.Output;
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
    // The further results a call writes, and its working memory (8-byte
    // words, as the emitted code declares it).
    std::vector<std::vector<uint8_t>> More(Call.Results.size());
    A.Results.assign(Call.Results.size(), nullptr);
    for (size_t R = 1; R < Call.Results.size(); ++R) {
      More[R].assign(
          static_cast<size_t>(G->tensor(Call.Results[R]).byteSize()), 0xA5);
      A.Results[R] = More[R].data();
    }
    std::vector<uint64_t> Scratch(
        static_cast<size_t>((Call.ScratchBytes + 7) / 8), 0xA5A5A5A5A5A5A5A5u);
    A.Scratch = Scratch.empty() ? nullptr : Scratch.data();
    adapters().at(Call.Function)(Call, A);
    Buffers[OutT] = std::move(Result);
    for (size_t R = 1; R < Call.Results.size(); ++R)
      Buffers[Call.Results[R]] = std::move(More[R]);
  }
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
