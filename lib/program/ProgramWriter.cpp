//===- ProgramWriter.cpp - Serializing an accelerator program -------------===//
//
// Builds the FlatBuffers form of a Program with the code flatc generates
// from accel_program.fbs. Kernel parameters go field for field, in their
// family's declaration order (defs/kernels.td), into ParamValues; constant
// buffers are aligned to 16 bytes, so the functional model can hand them to
// the kernels in place.
//
//===----------------------------------------------------------------------===//
#include "program/Program.h"

#include "accel_program_generated.h"

#include <type_traits>

namespace accelgen {
namespace program {

namespace {

namespace fbs = accelgen::program::fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

fbs::DType toFb(ir::DType T) { return static_cast<fbs::DType>(T); }

/// Writes a family's fields, in declaration order, as ParamValues.
class FieldWriter {
public:
  explicit FieldWriter(FlatBufferBuilder &B) : B(B) {}

  template <typename T> void scalar(const char *, const T &Field) {
    Values.push_back(value(&Field, 1));
  }
  template <typename T> void array(const char *, const T *Field, size_t N) {
    Values.push_back(value(Field, N));
  }
  template <typename T>
  void pointer(const char *, const std::vector<T> &Field) {
    Values.push_back(value(Field.data(), Field.size()));
  }

  std::vector<Offset<fbs::ParamValue>> Values;

private:
  /// The vector of \p N values of \p P in the member for its C type; an
  /// empty ParamValue for none (a null pointer).
  template <typename T> Offset<fbs::ParamValue> value(const T *P, size_t N) {
    if (N == 0)
      return fbs::CreateParamValue(B);
    if constexpr (std::is_same_v<T, float>) {
      return fbs::CreateParamValue(B, 0, 0, B.CreateVector(P, N));
    } else if constexpr (std::is_same_v<T, double>) {
      return fbs::CreateParamValue(B, 0, 0, 0, B.CreateVector(P, N));
    } else if constexpr (sizeof(T) == 8) {
      std::vector<int64_t> V(P, P + N);
      return fbs::CreateParamValue(B, 0, B.CreateVector(V));
    } else {
      std::vector<int32_t> V(P, P + N);
      return fbs::CreateParamValue(B, B.CreateVector(V));
    }
  }

  FlatBufferBuilder &B;
};

Offset<fbs::Quantization>
quantization(FlatBufferBuilder &B, const std::optional<ir::QuantParams> &Q) {
  if (!Q)
    return 0;
  return fbs::CreateQuantization(B, B.CreateVector(Q->Scales),
                                 B.CreateVector(Q->ZeroPoints), Q->Axis);
}

Offset<fbs::Tensor> tensor(FlatBufferBuilder &B, const Tensor &T) {
  return fbs::CreateTensor(B, T.Id, B.CreateString(T.Name), toFb(T.Type),
                           B.CreateVector(T.Shape), quantization(B, T.Quant),
                           toFb(T.DeviceType), quantization(B, T.DeviceQuant),
                           static_cast<fbs::Layout>(T.TensorLayout), T.Bytes,
                           T.ArenaOffset, static_cast<fbs::Memory>(T.Where),
                           T.DeviceOffset, T.Buffer, T.Layer, T.Internal,
                           T.HeldRows, T.Input);
}

Offset<fbs::Op> op(FlatBufferBuilder &B, const Op &O) {
  FieldWriter W(B);
  std::visit([&](const auto &P) { kernels::forEachField(W, P); }, O.Params);
  auto Params = B.CreateVector(W.Values);
  return fbs::CreateOp(
      B, O.SourceIndex, B.CreateString(O.Type), B.CreateString(O.Kernel),
      B.CreateString(kernels::familyOf(O.Params).Name), Params,
      B.CreateVector(O.Inputs), B.CreateVector(O.Outputs), O.ChannelAlign);
}

Offset<fbs::Layer> layer(FlatBufferBuilder &B, const Layer &L) {
  std::vector<Offset<fbs::Op>> Ops;
  for (const Op &O : L.Ops)
    Ops.push_back(op(B, O));
  return fbs::CreateLayer(B, B.CreateString(L.Type),
                          B.CreateString(L.SourceType), L.Index,
                          B.CreateVector(Ops), L.Cycles.value_or(-1.0));
}

Offset<fbs::Subgraph> subgraph(FlatBufferBuilder &B, const Subgraph &S) {
  std::vector<Offset<fbs::Tensor>> Tensors;
  for (const Tensor &T : S.Tensors)
    Tensors.push_back(tensor(B, T));
  std::vector<Offset<fbs::Layer>> Layers;
  for (const Layer &L : S.Layers)
    Layers.push_back(layer(B, L));
  return fbs::CreateSubgraph(
      B, S.Index, B.CreateVector(Tensors), B.CreateVector(S.Inputs),
      B.CreateVector(S.Outputs), B.CreateVector(S.ConvertIn),
      B.CreateVector(S.ConvertOut), B.CreateVector(Layers), S.Cycles,
      S.SwitchCycles, S.ScratchBytes, S.Striped);
}

} // namespace

std::vector<uint8_t> writeProgram(const Program &P) {
  FlatBufferBuilder B(1024);
  std::vector<Offset<fbs::Buffer>> Buffers;
  for (const std::vector<uint8_t> &Data : P.Buffers) {
    B.ForceVectorAlignment(Data.size(), 1, 16);
    Buffers.push_back(fbs::CreateBuffer(B, B.CreateVector(Data)));
  }
  std::vector<Offset<fbs::Subgraph>> Subgraphs;
  for (const Subgraph &S : P.Subgraphs)
    Subgraphs.push_back(subgraph(B, S));
  auto Root =
      fbs::CreateProgram(B, B.CreateString(P.Target), B.CreateString(P.Version),
                         B.CreateString(P.Generator), B.CreateVector(Subgraphs),
                         B.CreateVector(Buffers), P.ArenaBytes, P.ScratchBytes);
  fbs::FinishProgramBuffer(B, Root);
  return std::vector<uint8_t>(B.GetBufferPointer(),
                              B.GetBufferPointer() + B.GetSize());
}

llvm::StringRef layoutName(Layout L) {
  switch (L) {
  case Layout::NHWC:
    return "NHWC";
  case Layout::C4:
    return "4C";
  case Layout::C16:
    return "16C";
  }
  return "?";
}

} // namespace program
} // namespace accelgen
