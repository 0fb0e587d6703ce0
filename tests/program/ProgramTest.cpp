//===- ProgramTest.cpp - Accelerator programs: content, round trip, damage ===//
//
// For every shared model at every MDLA version: the program says what the
// partition says (each layer's operators are the input model's, with the
// reference kernels' parameters, in order), its tensors carry what the
// device stores (mdla1.5's uint8 for asymmetric int8, 16C layouts, fused
// intermediates), and it survives writing and reading unchanged. Damaged
// programs (truncated, every byte flipped, random damage) are rejected with
// an error by the reader and by the functional model's own reader, and never
// crash either (run under the sanitizers in `scripts/test.sh --asan`).
//
//===----------------------------------------------------------------------===//
#include "ProgramTestSupport.h"

#include "emit/ParamPrinter.h"
#include "program/Program.h"

#include "accel_functional.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>
#include <random>

using namespace accelgen;
using namespace accelgen::test;

namespace {

/// The parameters as C text: equal text, equal parameters.
std::string paramsText(const kernels::AnyParams &P) {
  auto T = emit::printParams(P, "p");
  REQUIRE_MESSAGE(bool(T), llvm::toString(T.takeError()));
  return T->Declarations + T->Argument;
}

void checkSameQuant(const std::optional<ir::QuantParams> &A,
                    const std::optional<ir::QuantParams> &B) {
  REQUIRE(A.has_value() == B.has_value());
  if (!A)
    return;
  CHECK(A->Scales == B->Scales);
  CHECK(A->ZeroPoints == B->ZeroPoints);
  CHECK(A->Axis == B->Axis);
}

/// Every field of \p B equals \p A's.
void checkSameProgram(const program::Program &A, const program::Program &B) {
  CHECK(A.Target == B.Target);
  CHECK(A.Version == B.Version);
  CHECK(A.Generator == B.Generator);
  CHECK(A.ArenaBytes == B.ArenaBytes);
  CHECK(A.ScratchBytes == B.ScratchBytes);
  CHECK((A.Buffers == B.Buffers));
  REQUIRE(A.Subgraphs.size() == B.Subgraphs.size());
  for (size_t S = 0; S < A.Subgraphs.size(); ++S) {
    const program::Subgraph &X = A.Subgraphs[S], &Y = B.Subgraphs[S];
    CHECK(X.Index == Y.Index);
    CHECK(X.Inputs == Y.Inputs);
    CHECK(X.Outputs == Y.Outputs);
    CHECK(X.ConvertIn == Y.ConvertIn);
    CHECK(X.ConvertOut == Y.ConvertOut);
    CHECK(X.Cycles == Y.Cycles);
    CHECK(X.SwitchCycles == Y.SwitchCycles);
    CHECK(X.ScratchBytes == Y.ScratchBytes);
    CHECK(X.Striped == Y.Striped);
    REQUIRE(X.Tensors.size() == Y.Tensors.size());
    for (size_t I = 0; I < X.Tensors.size(); ++I) {
      const program::Tensor &T = X.Tensors[I], &U = Y.Tensors[I];
      INFO("tensor " << T.Id);
      CHECK(T.Id == U.Id);
      CHECK(T.Name == U.Name);
      CHECK(T.Type == U.Type);
      CHECK(T.DeviceType == U.DeviceType);
      CHECK(T.Shape == U.Shape);
      checkSameQuant(T.Quant, U.Quant);
      checkSameQuant(T.DeviceQuant, U.DeviceQuant);
      CHECK(T.TensorLayout == U.TensorLayout);
      CHECK(T.Bytes == U.Bytes);
      CHECK(T.ArenaOffset == U.ArenaOffset);
      CHECK(T.Where == U.Where);
      CHECK(T.DeviceOffset == U.DeviceOffset);
      CHECK(T.Buffer == U.Buffer);
      CHECK(T.Layer == U.Layer);
      CHECK(T.Internal == U.Internal);
      CHECK(T.HeldRows == U.HeldRows);
      CHECK(T.Input == U.Input);
    }
    REQUIRE(X.Layers.size() == Y.Layers.size());
    for (size_t L = 0; L < X.Layers.size(); ++L) {
      const program::Layer &P = X.Layers[L], &Q = Y.Layers[L];
      CHECK(P.Type == Q.Type);
      CHECK(P.SourceType == Q.SourceType);
      CHECK(P.Index == Q.Index);
      CHECK(P.Cycles == Q.Cycles);
      REQUIRE(P.Ops.size() == Q.Ops.size());
      for (size_t O = 0; O < P.Ops.size(); ++O) {
        const program::Op &M = P.Ops[O], &N = Q.Ops[O];
        CHECK(M.SourceIndex == N.SourceIndex);
        CHECK(M.Type == N.Type);
        CHECK(M.Kernel == N.Kernel);
        CHECK(M.Inputs == N.Inputs);
        CHECK(M.Outputs == N.Outputs);
        CHECK(M.ChannelAlign == N.ChannelAlign);
        CHECK(paramsText(M.Params) == paramsText(N.Params));
      }
    }
  }
}

/// 8-byte aligned bytes, as the functional model wants them.
struct AlignedBytes {
  explicit AlignedBytes(llvm::ArrayRef<uint8_t> B)
      : Words(B.size() / 8 + 1), Size(B.size()) {
    if (Size)
      std::memcpy(Words.data(), B.data(), Size);
  }
  uint8_t *data() { return reinterpret_cast<uint8_t *>(Words.data()); }
  std::vector<uint64_t> Words;
  size_t Size;
};

/// Runs the functional model on \p Bytes, whatever they hold, in memory of
/// the given sizes: every subgraph it finds (and one more).
void runAnyway(llvm::ArrayRef<uint8_t> Bytes, int64_t ArenaBytes,
               int64_t ScratchBytes) {
  AlignedBytes A(Bytes);
  std::vector<uint64_t> Arena(static_cast<size_t>(ArenaBytes) / 8 + 1);
  std::vector<uint64_t> Scratch(static_cast<size_t>(ScratchBytes) / 8 + 1);
  accel_memory Memory{};
  Memory.arena = reinterpret_cast<uint8_t *>(Arena.data());
  Memory.arena_bytes = static_cast<size_t>(ArenaBytes);
  Memory.scratch = reinterpret_cast<uint8_t *>(Scratch.data());
  Memory.scratch_bytes = static_cast<size_t>(ScratchBytes);
  const int32_t Count = std::min(accel_subgraph_count(A.data(), A.Size), 4);
  for (int32_t S = 0; S <= Count; ++S) {
    double Cycles = 0;
    int Status =
        accel_run_subgraph(A.data(), A.Size, S, &Memory, nullptr, &Cycles);
    CHECK(Status >= ACCEL_OK);
    CHECK(Status <= ACCEL_ERR_ARGUMENT);
  }
}

/// Runs every check on damaged \p Bytes that nothing may crash on: the
/// reader and the functional model's check (which must agree), and with
/// \p Run the functional model itself.
void survive(llvm::ArrayRef<uint8_t> Bytes, int64_t ArenaBytes,
             int64_t ScratchBytes, bool Run) {
  llvm::Expected<program::Program> P = program::readProgram(Bytes);
  AlignedBytes A(Bytes);
  const int Check =
      accel_check_program(A.data(), A.Size, static_cast<size_t>(ArenaBytes),
                          static_cast<size_t>(ScratchBytes));
  // The reader runs the same check, so it cannot accept what it refuses.
  if (P)
    CHECK(Check == ACCEL_OK);
  else
    llvm::consumeError(P.takeError());
  if (Run)
    runAnyway(Bytes, ArenaBytes, ScratchBytes);
}

} // namespace

TEST_CASE("every layer runs the input model's operators with the reference "
          "kernels' parameters") {
  for (const std::string &Name : programModels()) {
    const ir::Graph G = sharedGraph(Name);
    for (const auto &[Label, Version] : mdlaVersions()) {
      // A structured binding cannot be captured (the macro's lambda).
      const auto &LabelRef = Label;
      INFO(Name << " " << LabelRef);
      const program::AcceleratedModel M = accelerate(G, Version);
      const partition::PartitionResult &R = M.Partition;
      CHECK(M.Prog.Target == "mdla");
      CHECK(Label == "mdla" + M.Prog.Version);
      REQUIRE(M.Prog.Subgraphs.size() == R.Subgraphs.size());
      size_t Offloaded = 0;
      for (size_t S = 0; S < R.Subgraphs.size(); ++S) {
        const program::Subgraph &PS = M.Prog.Subgraphs[S];
        REQUIRE(PS.Layers.size() == R.Subgraphs[S].Ops.size());
        for (size_t L = 0; L < PS.Layers.size(); ++L) {
          const program::Layer &Layer = PS.Layers[L];
          const partition::PlacedOp &P = R.Ops[R.Subgraphs[S].Ops[L]];
          CHECK(Layer.Type == P.Type);
          CHECK(Layer.SourceType == P.SourceType);
          CHECK(Layer.Cycles == P.Cycles);
          // One program operator per kernel call of each source operator
          // (a SPLIT's results are one each), in order.
          size_t Pos = 0;
          for (int64_t SourceIndex : P.Sources) {
            const ir::Operator &Src = G.Operators[size_t(SourceIndex)];
            auto Calls = kernels::computeKernelCalls(G, Src);
            REQUIRE(bool(Calls));
            for (const kernels::KernelCall &Call : *Calls) {
              REQUIRE(Pos < Layer.Ops.size());
              const program::Op &O = Layer.Ops[Pos++];
              CHECK(O.SourceIndex == SourceIndex);
              CHECK(O.Type == Src.Type);
              CHECK(O.Kernel == Call.Function);
              CHECK(paramsText(O.Params) == paramsText(Call.Params));
              REQUIRE(O.Inputs.size() == Call.DataInputs.size());
              for (size_t I = 0; I < O.Inputs.size(); ++I)
                CHECK((O.Inputs[I] < 0 ? -1 : PS.Tensors[O.Inputs[I]].Id) ==
                      Call.DataInputs[I]);
              REQUIRE(O.Outputs.size() == 1);
              CHECK(PS.Tensors[O.Outputs[0]].Id == Call.Output);
              CHECK(PS.Tensors[O.Outputs[0]].Layer ==
                    static_cast<int32_t>(L));
            }
            ++Offloaded;
          }
          CHECK(Pos == Layer.Ops.size());
        }
        // The region the emitter replaces holds exactly these operators.
        CHECK(M.Regions[S].second ==
              static_cast<size_t>(llvm::count_if(M.SourceIndex, [&](int64_t I) {
                for (const program::Layer &L : PS.Layers)
                  for (const program::Op &O : L.Ops)
                    if (O.SourceIndex == I)
                      return true;
                return false;
              })));
      }
      CHECK(Offloaded == llvm::count_if(R.Ops, [](const auto &P) {
                           return P.Placement == partition::Device::Accelerator;
                         }) + [&] {
        size_t Extra = 0;
        for (const auto &P : R.Ops)
          if (P.Placement == partition::Device::Accelerator)
            Extra += P.Sources.size() - 1;
        return Extra;
      }());
    }
  }
}

TEST_CASE("tensors carry what the accelerator stores") {
  for (const std::string &Name : programModels()) {
    const ir::Graph G = sharedGraph(Name);
    for (const auto &[Label, Version] : mdlaVersions()) {
      // A structured binding cannot be captured (the macro's lambda).
      const auto &LabelRef = Label;
      INFO(Name << " " << LabelRef);
      const program::AcceleratedModel M = accelerate(G, Version);
      for (const program::Subgraph &S : M.Prog.Subgraphs)
        for (const program::Tensor &T : S.Tensors) {
          INFO("tensor " << T.Id);
          const ir::Tensor &Src = G.tensor(T.Id);
          CHECK(T.Type == Src.Type);
          CHECK(T.Shape == Src.Shape);
          CHECK(T.Bytes == Src.byteSize());
          // Asymmetric int8 is stored as uint8 on mdla1.5, and only there.
          const bool Asymmetric8 =
              !Src.IsConstant && Src.Type == ir::DType::I8 && Src.Quant &&
              !Src.Quant->isPerChannel() && Src.Quant->zeroPoint() != 0;
          CHECK(T.isConverted() == (Asymmetric8 && Label == "mdla1.5"));
          if (T.isConverted()) {
            CHECK(T.DeviceType == ir::DType::U8);
            REQUIRE(T.DeviceQuant);
            CHECK(T.DeviceQuant->Scales == Src.Quant->Scales);
            CHECK(T.DeviceQuant->zeroPoint() == Src.Quant->zeroPoint() + 128);
          }
          if (Src.IsConstant) {
            CHECK(T.Where == program::Memory::Constant);
            CHECK(M.Prog.Buffers.at(T.Buffer) == Src.Data);
          } else {
            CHECK(T.ArenaOffset == M.Plan.find(T.Id)->Offset);
          }
          if (Src.IsConstant || Src.Shape.size() != 4)
            CHECK(T.TensorLayout == program::Layout::NHWC);
        }
    }
  }
}

TEST_CASE("layers record the MDLA's 16C operators and fused intermediates") {
  // kws: CONV_2D+AVERAGE_POOL_2D and DEPTHWISE_CONV_2D+CONV_2D groups.
  const ir::Graph G = sharedGraph("mlperf_tiny_kws_dscnn_int8");
  const program::AcceleratedModel M = accelerate(G, 0);
  size_t Pools = 0, Intermediates = 0;
  for (const program::Subgraph &S : M.Prog.Subgraphs)
    for (const program::Layer &L : S.Layers)
      for (size_t K = 0; K < L.Ops.size(); ++K) {
        const program::Op &O = L.Ops[K];
        if (O.Type == "AVERAGE_POOL_2D") {
          ++Pools;
          CHECK(O.ChannelAlign == 16);
          CHECK(S.Tensors[O.Inputs[0]].TensorLayout == program::Layout::C16);
        } else {
          CHECK(O.ChannelAlign == 0);
        }
        // A fused group's results but the last stay inside it.
        const program::Tensor &Out = S.Tensors[O.Outputs[0]];
        CHECK(Out.Internal == (K + 1 < L.Ops.size()));
        Intermediates += Out.Internal;
      }
  CHECK(Pools == 1);
  CHECK(Intermediates > 0);
}

TEST_CASE("programs survive writing and reading unchanged") {
  // Layer at a time, and cascaded with the inputs in the caller's buffers
  // (striped subgraphs, windows, inputs read in place).
  plan::CascadeOptions Cascaded;
  Cascaded.Enabled = true;
  Cascaded.InputsInPlace = true;
  int Striped = 0, InPlace = 0;
  for (const std::string &Name : programModels()) {
    const ir::Graph G = sharedGraph(Name);
    for (const auto &[Label, Version] : mdlaVersions())
    for (const plan::CascadeOptions &Opts : {plan::CascadeOptions(), Cascaded}) {
      // A structured binding cannot be captured (the macro's lambda).
      const auto &LabelRef = Label;
      INFO(Name << " " << LabelRef << (Opts.Enabled ? " cascaded" : ""));
      partition::PartitionOptions P;
      P.Cpu = &refTarget();
      auto Built = program::buildAcceleratedModel(G, mdlaTarget(), Version, P,
                                                  "accelgen test", Opts);
      REQUIRE_MESSAGE(bool(Built), llvm::toString(Built.takeError()));
      const program::AcceleratedModel &M = *Built;
      for (const program::Subgraph &S : M.Prog.Subgraphs) {
        Striped += S.Striped;
        for (const program::Tensor &T : S.Tensors)
          InPlace += T.Input >= 0;
      }
      const std::vector<uint8_t> Bytes = program::writeProgram(M.Prog);
      llvm::Expected<program::Program> Back = program::readProgram(Bytes);
      REQUIRE_MESSAGE(bool(Back), llvm::toString(Back.takeError()));
      checkSameProgram(M.Prog, *Back);
      CHECK(program::writeProgram(*Back) == Bytes);
      AlignedBytes A(Bytes);
      CHECK(accel_subgraph_count(A.data(), A.Size) ==
            static_cast<int32_t>(M.Prog.Subgraphs.size()));
    }
  }
  CHECK(Striped > 0);
  CHECK(InPlace > 0);
}

TEST_CASE("the reader names what is wrong") {
  const ir::Graph G = sharedGraph("tflm_micro_speech_int8");
  program::AcceleratedModel M = accelerate(G, 0);
  auto Fails = [](const program::Program &P, llvm::StringRef Expected) {
    llvm::Expected<program::Program> R =
        program::readProgram(program::writeProgram(P));
    REQUIRE_FALSE(bool(R));
    std::string Msg = llvm::toString(R.takeError());
    CHECK_MESSAGE(llvm::StringRef(Msg).contains(Expected), Msg);
  };
  {
    program::Program P = M.Prog;
    P.Subgraphs[0].Layers[0].Ops[0].Kernel = "ref_conv2d_i4";
    Fails(P, "unsupported by the functional model");
  }
  {
    program::Program P = M.Prog;
    P.Subgraphs[0].Inputs.push_back(1000);
    Fails(P, "names tensor 1000");
  }
  {
    program::Program P = M.Prog;
    P.Subgraphs[0].Tensors[0].ArenaOffset = P.ArenaBytes;
    Fails(P, "outside the memory");
  }
  {
    program::Program P = M.Prog;
    P.Subgraphs[0].Tensors[0].Shape.push_back(2);
    Fails(P, "malformed program");
  }
  CHECK_FALSE(bool(program::readProgram({})));
  llvm::consumeError(program::readProgram({}).takeError());
  const std::vector<uint8_t> NotAProgram(64, 0);
  llvm::Expected<program::Program> R = program::readProgram(NotAProgram);
  REQUIRE_FALSE(bool(R));
  CHECK(llvm::StringRef(llvm::toString(R.takeError())).contains("verifier"));
}

TEST_CASE("damaged programs are errors, never crashes") {
  // micro_speech on mdla1.5: converted inputs and outputs, a depthwise
  // convolution, a fully connected layer, a RESHAPE.
  const ir::Graph G = sharedGraph("tflm_micro_speech_int8");
  const program::AcceleratedModel M = accelerate(G, 0);
  const std::vector<uint8_t> Good = program::writeProgram(M.Prog);
  const int64_t Arena = M.Prog.ArenaBytes, Scratch = M.Prog.ScratchBytes;

  SUBCASE("truncated") {
    for (size_t N = 0; N < Good.size(); N += (N < 256 ? 1 : 61))
      survive(llvm::ArrayRef<uint8_t>(Good).take_front(N), Arena, Scratch,
              false);
  }
  SUBCASE("every byte flipped") {
    for (size_t I = 0; I < Good.size(); ++I) {
      std::vector<uint8_t> Bad = Good;
      Bad[I] ^= 0xA5;
      // Running takes time: run one damaged program in 16.
      survive(Bad, Arena, Scratch, I % 16 == 0);
    }
  }
  SUBCASE("random damage, bypassing the verifier") {
    std::mt19937 Rng(20240611);
    for (int Round = 0; Round < 3000; ++Round) {
      std::vector<uint8_t> Bad = Good;
      const int Damage = 1 + Round % 8;
      for (int D = 0; D < Damage; ++D) {
        size_t At = Rng() % Bad.size();
        Bad[At] = static_cast<uint8_t>(Rng());
      }
      // The functional model's reader on its own.
      AlignedBytes A(Bad);
      accel_check_program(A.data(), A.Size, static_cast<size_t>(Arena),
                          static_cast<size_t>(Scratch));
      if (Round % 4 == 0)
        runAnyway(Bad, Arena, Scratch);
    }
  }
}
