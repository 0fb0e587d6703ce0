//===- ProgramReader.cpp - Decoding and checking an accelerator program ---===//
//
// Three layers of checks, none trusting the bytes: the FlatBuffers verifier
// (every offset and length inside the buffer), the decoding here (enum
// values, indices, array lengths, each kernel family's parameter fields as
// defs/kernels.td declares them), and the functional
// model's own walk over the program (kernels, operand types and shapes,
// memory ranges), which is what will run it.
//
//===----------------------------------------------------------------------===//
#include "program/Program.h"

#include "accel_functional.h"
#include "accel_program_generated.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

namespace accelgen {
namespace program {

namespace {

namespace fbs = accelgen::program::fb;

llvm::Error problem(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed accelerator program: " + Msg);
}

/// The elements of \p V. The verifier checks a vector's length field for
/// 4-byte alignment only, so a crafted program can place 8-byte elements at
/// any 4-byte boundary: copy bytes instead of loading them as T.
template <typename T> std::vector<T> toVector(const flatbuffers::Vector<T> *V) {
  std::vector<T> Out(V ? V->size() : 0);
  if (!Out.empty())
    std::memcpy(Out.data(), V->Data(), Out.size() * sizeof(T));
  for (T &X : Out)
    X = flatbuffers::EndianScalar(X);
  return Out;
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
    if (V < 0 || V > static_cast<int>(ir::DType::U32)) {
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

  std::optional<kernels::AnyParams> params(const fbs::Op &O);

  /// A default-constructed AnyParams holding alternative \p I.
  static kernels::AnyParams variantAt(size_t I) {
    return variantAt(
        I, std::make_index_sequence<std::variant_size_v<kernels::AnyParams>>());
  }
  template <size_t... Is>
  static kernels::AnyParams variantAt(size_t I, std::index_sequence<Is...>) {
    static const kernels::AnyParams All[] = {
        kernels::AnyParams(std::in_place_index<Is>)...};
    return All[I];
  }

  void fail(std::string Msg) {
    if (Problem.empty())
      Problem = std::move(Msg);
  }

private:
  std::string Problem;
};

/// Fills a family's fields, in declaration order, from an Op's params.
class FieldReader {
public:
  FieldReader(
      const flatbuffers::Vector<flatbuffers::Offset<fbs::ParamValue>> *Values,
      llvm::StringRef Family, Decoder &D)
      : Values(Values), Family(Family), D(D) {}

  template <typename T> void scalar(const char *Name, T &Field) {
    std::vector<T> V = next<T>(Name);
    if (V.size() != 1)
      return bad(Name, V.size(), "1 value");
    Field = V[0];
  }
  template <typename T> void array(const char *Name, T *Field, size_t N) {
    std::vector<T> V = next<T>(Name);
    if (V.size() != N)
      return bad(Name, V.size(), std::to_string(N) + " values");
    std::copy(V.begin(), V.end(), Field);
  }
  template <typename T> void pointer(const char *Name, std::vector<T> &Field) {
    Field = next<T>(Name);
  }
  /// Reports params beyond the family's fields.
  void finish() {
    const size_t Count = Values ? Values->size() : 0;
    if (Index < Count)
      D.fail(llvm::formatv("{0} parameters for family {1}, which has {2} "
                           "fields",
                           Count, Family, Index)
                 .str());
  }

private:
  /// The values of the next field, converted to T from the vector its C
  /// type is stored in.
  template <typename T> std::vector<T> next(const char *Name) {
    const size_t At = Index++;
    if (!Values || At >= Values->size()) {
      D.fail(
          llvm::formatv("family {0} misses its field {1}", Family, Name).str());
      return {};
    }
    const fbs::ParamValue *V = Values->Get(At);
    if constexpr (std::is_same_v<T, float>)
      return convert<T>(V->floats());
    else if constexpr (std::is_same_v<T, double>)
      return convert<T>(V->doubles());
    else if constexpr (sizeof(T) == 8)
      return convert<T>(V->longs());
    else
      return convert<T>(V->ints());
  }
  template <typename T, typename F>
  static std::vector<T> convert(const flatbuffers::Vector<F> *V) {
    std::vector<T> Out;
    for (F X : toVector(V))
      Out.push_back(static_cast<T>(X));
    return Out;
  }
  void bad(const char *Name, size_t Got, const std::string &Want) {
    D.fail(llvm::formatv("field {0} of family {1} has {2} values, not {3}",
                         Name, Family, Got, Want)
               .str());
  }

  const flatbuffers::Vector<flatbuffers::Offset<fbs::ParamValue>> *Values;
  llvm::StringRef Family;
  Decoder &D;
  size_t Index = 0;
};

std::optional<kernels::AnyParams> Decoder::params(const fbs::Op &O) {
  const std::string Family = toString(O.family());
  const auto Families = kernels::kernelFamilies();
  for (size_t I = 0; I < Families.size(); ++I) {
    if (Family != Families[I].Name)
      continue;
    kernels::AnyParams Params = variantAt(I);
    FieldReader R(O.params(), Family, *this);
    std::visit([&](auto &P) { kernels::forEachField(R, P); }, Params);
    R.finish();
    return Params;
  }
  // A family registered at run time (a plugin's own).
  if (const kernels::KernelFamilyInfo *F =
          kernels::findRegisteredFamily(Family)) {
    kernels::AnyParams Params = kernels::DynamicParams::of(*F);
    FieldReader R(O.params(), Family, *this);
    kernels::forEachField(R, std::get<kernels::DynamicParams>(Params));
    R.finish();
    return Params;
  }
  fail(llvm::formatv("operator {0} ({1}) names kernel family '{2}', which "
                     "this accelgen does not know",
                     O.source_index(), toString(O.type()), Family)
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

  // As many tables as the bytes can hold (each takes at least 4), not
  // FlatBuffers' default million: a program of 100,000 layers has more.
  flatbuffers::Verifier::Options Limits;
  Limits.max_tables =
      static_cast<flatbuffers::uoffset_t>(Bytes.size() / 4 + 1);
  flatbuffers::Verifier V(Data, Bytes.size(), Limits);
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
      S.Striped = FS->striped();
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
          T.HeldRows = FT->held_rows();
          T.Input = FT->input();
          if (T.Where == Memory::Constant &&
              (T.Buffer < 0 ||
               static_cast<size_t>(T.Buffer) >= P.Buffers.size()))
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
              O.Outputs =
                  Indices(FO->outputs(), "an operator's results", false);
              O.ChannelAlign = FO->channel_align();
              L.Ops.push_back(std::move(O));
            }
          S.Layers.push_back(std::move(L));
        }
      P.Subgraphs.push_back(std::move(S));
    }
  if (llvm::Error E = D.error())
    return std::move(E);

  // What the functional model checks before it runs anything; accelgen's
  // own copy of it has the reference kernels' families only, so a program
  // calling a registered family's kernels is checked by the functional model
  // of the project it is emitted into, which includes that family's rows
  // (accel_target_kernels.inc), before that runs anything.
  if (!registeredFamiliesCalled(P).empty())
    return P;
  int Status =
      accel_check_program(Data, Bytes.size(), static_cast<size_t>(P.ArenaBytes),
                          static_cast<size_t>(P.ScratchBytes));
  if (Status != ACCEL_OK)
    return problem(llvm::formatv("the functional model rejects it: {0}",
                                 accel_status_name(Status)));
  return P;
}

std::vector<const kernels::KernelFamilyInfo *>
registeredFamiliesCalled(const Program &P) {
  std::vector<const kernels::KernelFamilyInfo *> Families;
  for (const Subgraph &S : P.Subgraphs)
    for (const Layer &L : S.Layers)
      for (const Op &O : L.Ops) {
        const kernels::KernelFunctionInfo *Fn =
            kernels::findKernelFunction(O.Kernel);
        if (Fn && kernels::findRegisteredFamily(Fn->Family->Name) ==
                      Fn->Family &&
            !llvm::is_contained(Families, Fn->Family))
          Families.push_back(Fn->Family);
      }
  return Families;
}

std::vector<std::string> functionalModelKernels() {
  std::vector<std::string> Names;
  for (int32_t I = 0; const char *N = accel_kernel_name(I); ++I)
    Names.push_back(N);
  return Names;
}

} // namespace program
} // namespace accelgen
