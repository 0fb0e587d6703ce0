//===- FunctionalModelTest.cpp - The MDLA functional model, in process ----===//
//
// Runs the functional model (lib/program/c) on the programs of every shared
// model at every MDLA version, with random inputs, and compares every
// operator's result it reports with what the reference kernels compute for
// the input graph (tests/kernels' ModelRunner): the conversions to and from
// mdla1.5's uint8 and the 16C padding must change nothing. Hand-built graphs
// reach the cases the shared models do not: average pooling ties that a
// plain uint8 average would round the other way, channels that are no
// multiple of 16, and a view sharing a converted input's bytes. Cascaded,
// every striped subgraph's stripes (accel_run_stripe) must give the
// reference's rows, and wrong stripes must be refused before anything is
// written.
//
//===----------------------------------------------------------------------===//
#include "ProgramTestSupport.h"

#include "../kernels/KernelTestSupport.h"
#include "../kernels/ModelRunner.h"

#include "accel_functional.h"
#include "ir/OpCode.h"
#include "ref_activations.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace accelgen;
using namespace accelgen::test;

namespace {

/// What the functional model traced: (operator, tensor) and the bytes.
struct Traced {
  int32_t Op;
  int32_t Tensor;
  std::vector<uint8_t> Bytes;
};
std::vector<Traced> TraceLog;

void collect(int32_t Op, int32_t Tensor, const void *Data, size_t Bytes) {
  const auto *P = static_cast<const uint8_t *>(Data);
  TraceLog.push_back({Op, Tensor, std::vector<uint8_t>(P, P + Bytes)});
}

/// "12 of 640 bytes differ, first at 17 (got 5, want 4)".
std::string diffText(const std::vector<uint8_t> &Got,
                     const std::vector<uint8_t> &Want) {
  if (Got.size() != Want.size())
    return llvm::formatv("{0} bytes, want {1}", Got.size(), Want.size()).str();
  size_t Count = 0, First = 0;
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I] != Want[I] && Count++ == 0)
      First = I;
  return llvm::formatv("{0} of {1} bytes differ, first at {2} (got {3}, want "
                       "{4})",
                       Count, Got.size(), First, int(Got[First]),
                       int(Want[First]))
      .str();
}

/// Random contents for every graph input of \p G.
void randomInputs(const ir::Graph &G, TensorBuffers &B, unsigned Seed) {
  std::mt19937 Rng(Seed);
  for (int32_t In : G.Inputs) {
    const ir::Tensor &T = G.tensor(In);
    B[In].resize(static_cast<size_t>(T.byteSize()));
    if (T.Type == ir::DType::F32) {
      std::uniform_real_distribution<float> D(-2.0f, 2.0f);
      for (size_t I = 0; I + 4 <= B[In].size(); I += 4) {
        float V = D(Rng);
        std::memcpy(&B[In][I], &V, 4);
      }
    } else {
      for (uint8_t &Byte : B[In])
        Byte = static_cast<uint8_t>(Rng());
    }
  }
}

/// A program written for the functional model (8-byte aligned), with an
/// arena and scratch memory of the sizes it asks for.
struct Machine {
  std::vector<uint8_t> Bytes;
  std::vector<uint64_t> Program, Arena, Scratch;
  accel_memory Memory{};

  explicit Machine(const program::Program &Prog)
      : Bytes(program::writeProgram(Prog)), Program(Bytes.size() / 8 + 1),
        Arena(static_cast<size_t>(Prog.ArenaBytes) / 8 + 1),
        Scratch(static_cast<size_t>(Prog.ScratchBytes) / 8 + 1) {
    std::memcpy(Program.data(), Bytes.data(), Bytes.size());
    Memory.arena = reinterpret_cast<uint8_t *>(Arena.data());
    Memory.arena_bytes = static_cast<size_t>(Prog.ArenaBytes);
    Memory.scratch = reinterpret_cast<uint8_t *>(Scratch.data());
    Memory.scratch_bytes = static_cast<size_t>(Prog.ScratchBytes);
  }
  const uint8_t *program() const {
    return reinterpret_cast<const uint8_t *>(Program.data());
  }
};

/// Runs every subgraph of \p M's program on the reference values of its
/// inputs (\p Ref, from the reference kernels), and checks each operator's
/// result and each subgraph output against \p Ref; the first difference
/// fails the test naming its layer.
void checkAgainstReference(const program::AcceleratedModel &M,
                           const TensorBuffers &Ref) {
  Machine Mach(M.Prog);
  const std::vector<uint8_t> &Bytes = Mach.Bytes;
  const uint8_t *P = Mach.program();
  accel_memory &Memory = Mach.Memory;
  uint8_t *A = Memory.arena;

  for (size_t S = 0; S < M.Prog.Subgraphs.size(); ++S) {
    const program::Subgraph &Sub = M.Prog.Subgraphs[S];
    for (int32_t I : Sub.Inputs) {
      const program::Tensor &T = Sub.Tensors[I];
      std::memcpy(A + T.ArenaOffset, Ref[T.Id].data(), Ref[T.Id].size());
    }
    TraceLog.clear();
    double Cycles = 0;
    const int Status = accel_run_subgraph(
        P, Bytes.size(), static_cast<int32_t>(S), &Memory, collect, &Cycles);
    REQUIRE_MESSAGE(Status == ACCEL_OK,
                    "subgraph " << S << ": " << accel_status_name(Status));
    CHECK(Cycles == doctest::Approx(Sub.Cycles + Sub.SwitchCycles));

    // Every operator once, in order, equal to the reference kernels.
    size_t K = 0;
    for (size_t L = 0; L < Sub.Layers.size(); ++L)
      for (const program::Op &O : Sub.Layers[L].Ops) {
        REQUIRE(K < TraceLog.size());
        const Traced &T = TraceLog[K++];
        const program::Tensor &Out = Sub.Tensors[O.Outputs[0]];
        CHECK(T.Op == O.SourceIndex);
        CHECK(T.Tensor == Out.Id);
        if (T.Bytes != Ref[Out.Id])
          FAIL("first diverging layer: subgraph "
               << S << " layer " << L << " (" << Sub.Layers[L].Type
               << "), operator " << O.SourceIndex << " (" << O.Type << ", "
               << O.Kernel << (Out.isConverted() ? ", stored as uint8" : "")
               << (O.ChannelAlign ? ", 16C" : "") << "), tensor " << Out.Id
               << ": " << diffText(T.Bytes, Ref[Out.Id]));
      }
    CHECK(K == TraceLog.size());
    // The accelerator's copies of converted inputs hold q + 128 as uint8.
    for (int32_t I : Sub.ConvertIn) {
      const program::Tensor &T = Sub.Tensors[I];
      REQUIRE(T.Where == program::Memory::Scratch);
      const uint8_t *Copy = Memory.scratch + T.DeviceOffset;
      bool Shifted = true;
      for (int64_t B = 0; B < T.Bytes; ++B)
        Shifted &= Copy[B] == static_cast<uint8_t>(
                                  static_cast<int8_t>(Ref[T.Id][B]) + 128);
      CHECK_MESSAGE(Shifted, "subgraph " << S << ": the accelerator's copy of "
                                         << "tensor " << T.Id
                                         << " is not q + 128");
    }
    // The outputs are back in the model's format where the CPU reads them.
    for (int32_t I : Sub.Outputs) {
      const program::Tensor &T = Sub.Tensors[I];
      std::vector<uint8_t> Got(A + T.ArenaOffset, A + T.ArenaOffset + T.Bytes);
      CHECK_MESSAGE(Got == Ref[T.Id], "subgraph " << S << " output tensor "
                                                  << T.Id << ": "
                                                  << diffText(Got, Ref[T.Id]));
    }
  }
}

} // namespace

TEST_CASE("the functional model computes what the reference kernels compute") {
  for (const std::string &Name : programModels()) {
    const ir::Graph G = sharedGraph(Name);
    auto Runner = ModelRunner::create(G);
    REQUIRE_MESSAGE(bool(Runner), llvm::toString(Runner.takeError()));
    TensorBuffers Ref = Runner->initialBuffers();
    randomInputs(G, Ref, 7);
    llvm::Error E = Runner->runAll(Ref);
    REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
    for (const auto &[Label, Version] : mdlaVersions()) {
      // A structured binding cannot be captured (the macro's lambda).
      const auto &LabelRef = Label;
      INFO(Name << " " << LabelRef);
      checkAgainstReference(accelerate(G, Version), Ref);
    }
  }
}

namespace {

/// input [1, 4, 4, C] -> RESHAPE [1, 2, 8, C] -> AVERAGE_POOL_2D 2x2 ->
/// [1, 1, 4, C]: all int8 with zero point \p ZeroPoint.
ir::Graph reshapeThenPool(int32_t C, int64_t ZeroPoint) {
  GraphBuilder B;
  int32_t In = B.tensor(ir::DType::I8, {1, 4, 4, C}, 0.5f, ZeroPoint);
  int32_t Shape =
      B.constant(ir::DType::I32, {4}, std::vector<int32_t>{1, 2, 8, C});
  int32_t Mid = B.tensor(ir::DType::I8, {1, 2, 8, C}, 0.5f, ZeroPoint);
  int32_t Out = B.tensor(ir::DType::I8, {1, 1, 4, C}, 0.5f, ZeroPoint);
  B.op("RESHAPE", {In, Shape}, {Mid});
  ir::Operator &Pool = B.op("AVERAGE_POOL_2D", {Mid}, {Out});
  Pool.Attrs["filter_h"] = int64_t(2);
  Pool.Attrs["filter_w"] = int64_t(2);
  Pool.Attrs["stride_h"] = int64_t(2);
  Pool.Attrs["stride_w"] = int64_t(2);
  Pool.Attrs["padding"] = std::string("VALID");
  Pool.Attrs["fused_activation"] = std::string("NONE");
  B.G.Inputs = {In};
  B.G.Outputs = {Out};
  return B.G;
}

} // namespace

TEST_CASE("converted and padded operands change no result") {
  // Pairs of -1 and 0 average to -0.5: TensorFlow Lite rounds that away from
  // zero to -1, while averaging the uint8 form (127 and 128 to 127.5) would
  // round up to 128, which is 0: the model averages the int8 values.
  for (int32_t C : {1, 10, 16, 17}) {
    for (int64_t ZeroPoint : {int64_t(-3), int64_t(0)}) {
      INFO("channels " << C << ", zero point " << ZeroPoint);
      const ir::Graph G = reshapeThenPool(C, ZeroPoint);
      auto Runner = ModelRunner::create(G);
      REQUIRE(bool(Runner));
      TensorBuffers Ref = Runner->initialBuffers();
      Ref[G.Inputs[0]].resize(static_cast<size_t>(16 * C));
      for (size_t I = 0; I < Ref[G.Inputs[0]].size(); ++I)
        Ref[G.Inputs[0]][I] =
            static_cast<uint8_t>((I / static_cast<size_t>(C)) % 2 ? 0 : -1);
      llvm::Error E = Runner->runAll(Ref);
      REQUIRE(!E);
      const std::vector<int8_t> Out = valuesOf<int8_t>(Ref[G.Outputs[0]]);
      CHECK(Out.front() == -1);

      for (const auto &[Label, Version] : mdlaVersions()) {
        // A structured binding cannot be captured (the macro's lambda).
        const auto &LabelRef = Label;
        INFO(LabelRef);
        const program::AcceleratedModel M =
            accelerate(G, Version, /*UseCostModel=*/false);
        REQUIRE(M.Prog.Subgraphs.size() == 1);
        const program::Subgraph &S = M.Prog.Subgraphs[0];
        REQUIRE(S.Layers.size() == 2);
        const program::Op &Pool = S.Layers[1].Ops[0];
        CHECK(Pool.ChannelAlign == 16);
        const bool Converted = Label == "mdla1.5" && ZeroPoint != 0;
        CHECK(S.Tensors[Pool.Inputs[0]].isConverted() == Converted);
        CHECK(S.ConvertIn.size() == (Converted ? 1u : 0u));
        CHECK(S.ConvertOut.size() == (Converted ? 1u : 0u));
        // The RESHAPE's result shares its input's bytes: with a converted
        // input, both live in the scratch copy.
        if (Converted)
          CHECK(S.Tensors[Pool.Inputs[0]].Where == program::Memory::Scratch);
        checkAgainstReference(M, Ref);
      }
    }
  }
}

TEST_CASE("MEAN with equal quantization rounds on every MDLA version") {
  // The case of ReferencePathsTest, worked out by hand there from
  // TensorFlow Lite Micro's QuantizedMeanOrSum: [1, 7, 7, 4] int8, scale
  // 0.0705 and zero point -9 on both sides, MEAN over axes 1 and 2 gives
  // -9, -10, 7, 1 (truncating the raw sum / 49 would give -8, -9, 7, 0).
  GraphBuilder B;
  int32_t In = B.tensor(ir::DType::I8, {1, 7, 7, 4}, 0.0705f, -9);
  int32_t Axes = B.constant(ir::DType::I32, {2}, std::vector<int32_t>{1, 2});
  int32_t Out = B.tensor(ir::DType::I8, {1, 1, 1, 4}, 0.0705f, -9);
  B.op("MEAN", {In, Axes}, {Out}).Attrs = {{"keep_dims", true}};
  B.G.Inputs = {In};
  B.G.Outputs = {Out};
  auto Runner = ModelRunner::create(B.G);
  REQUIRE(bool(Runner));
  TensorBuffers Ref = Runner->initialBuffers();
  std::vector<int8_t> Data(49 * 4);
  for (int P = 0; P < 49; ++P) {
    Data[P * 4 + 0] = P == 20 ? 5 : -9;
    Data[P * 4 + 1] = P == 33 ? -39 : -9;
    Data[P * 4 + 2] = 7;
    Data[P * 4 + 3] = P == 48 ? 24 : 0;
  }
  Ref[In] = bytesOf(Data);
  REQUIRE(!Runner->runAll(Ref));
  const std::vector<int8_t> Want = {-9, -10, 7, 1};
  CHECK(valuesOf<int8_t>(Ref[Out]) == Want);
  for (const auto &[Label, Version] : mdlaVersions()) {
    // A structured binding cannot be captured (the macro's lambda).
    const auto &LabelRef = Label;
    INFO(LabelRef);
    const program::AcceleratedModel M =
        accelerate(B.G, Version, /*UseCostModel=*/false);
    // The MEAN runs on the accelerator, not on the CPU.
    REQUIRE(M.Prog.Subgraphs.size() == 1);
    const program::Subgraph &S = M.Prog.Subgraphs[0];
    REQUIRE(S.Layers.size() == 1);
    CHECK(S.Layers[0].Ops[0].Type == "MEAN");
    checkAgainstReference(M, Ref);
  }
}

TEST_CASE("programs follow the device rules of the target they are for") {
  // demo.td declares its own: NHWC on 1.0, NHWC or 16C from 2.0, pools in
  // 16C only; asymmetric int8 stored as uint8 on 1.0 only.
  const target::TargetInfo &Demo = demoTarget();
  CHECK_FALSE(Demo.hasFunctionalModel());
  const ir::Graph G = reshapeThenPool(10, -3);
  auto Runner = ModelRunner::create(G);
  REQUIRE(bool(Runner));
  TensorBuffers Ref = Runner->initialBuffers();
  Ref[G.Inputs[0]].resize(160);
  for (size_t I = 0; I < Ref[G.Inputs[0]].size(); ++I)
    Ref[G.Inputs[0]][I] = static_cast<uint8_t>(I * 37 % 256);
  REQUIRE(!Runner->runAll(Ref));
  for (unsigned Version = 0; Version < Demo.versions().size(); ++Version) {
    INFO(Demo.versionLabel(Version));
    const program::AcceleratedModel M =
        accelerateFor(Demo, G, Version, /*UseCostModel=*/false);
    CHECK(M.Prog.Target == "demo");
    REQUIRE(M.Prog.Subgraphs.size() == 1);
    const program::Subgraph &S = M.Prog.Subgraphs[0];
    REQUIRE(S.Layers.size() == 2);
    const program::Op &Reshape = S.Layers[0].Ops[0];
    const program::Op &Pool = S.Layers[1].Ops[0];
    CHECK(Pool.ChannelAlign == 16);
    CHECK(Reshape.ChannelAlign == 0);
    const program::Tensor &In = S.Tensors[Reshape.Inputs[0]];
    const program::Tensor &Mid = S.Tensors[Pool.Inputs[0]];
    CHECK(In.isConverted() == (Version == 0));
    CHECK(Mid.isConverted() == (Version == 0));
    CHECK(In.TensorLayout == program::Layout::NHWC);
    // On 1.0 the RESHAPE writes NHWC only and the pool reads 16C only: the
    // first layout either computes in. From 2.0 both compute in 16C.
    CHECK(Mid.TensorLayout ==
          (Version == 0 ? program::Layout::NHWC : program::Layout::C16));
    checkAgainstReference(M, Ref);
  }
}

TEST_CASE("operators the partitioner inserts are refused, naming them") {
  // On mdla1.5 a CONV_2D with input scale x filter scale >= output scale
  // gets a requantize after it (its result takes the input's scale), which
  // changes the arithmetic.
  GraphBuilder B;
  int32_t In = B.tensor(ir::DType::I8, {1, 4, 4, 16}, 1.0f, 0);
  int32_t W = B.constant(ir::DType::I8, {16, 1, 1, 16},
                         std::vector<int8_t>(256, 1), 0.5f, 0);
  int32_t Bias =
      B.constant(ir::DType::I32, {16}, std::vector<int32_t>(16, 0), 0.5f, 0);
  int32_t Out = B.tensor(ir::DType::I8, {1, 4, 4, 16}, 0.25f, 0);
  ir::Operator &Conv = B.op("CONV_2D", {In, W, Bias}, {Out});
  Conv.Attrs["stride_h"] = int64_t(1);
  Conv.Attrs["stride_w"] = int64_t(1);
  Conv.Attrs["dilation_h"] = int64_t(1);
  Conv.Attrs["dilation_w"] = int64_t(1);
  Conv.Attrs["padding"] = std::string("VALID");
  Conv.Attrs["fused_activation"] = std::string("NONE");
  B.G.Inputs = {In};
  B.G.Outputs = {Out};
  partition::PartitionOptions Opts;
  Opts.Cpu = &refTarget();
  Opts.UseCostModel = false;
  {
    const partition::PartitionResult R =
        partition::partition(B.G, mdlaTarget(), 0, Opts);
    REQUIRE(R.Ops.size() == 2);
    CHECK(R.Ops[0].Quant == target::QuantOutcome::InsertedRequantize);
    CHECK(R.Ops[1].Sources.empty());
  }
  auto M = program::buildAcceleratedModel(B.G, mdlaTarget(), 0, Opts, "test");
  REQUIRE_FALSE(bool(M));
  const std::string Msg = llvm::toString(M.takeError());
  CHECK_MESSAGE(llvm::StringRef(Msg).contains("inserted by mdla1.5's "
                                              "quantization rules"),
                Msg);
  // mdla2.0 needs no requantize.
  auto M2 = program::buildAcceleratedModel(B.G, mdlaTarget(), 1, Opts, "test");
  REQUIRE_MESSAGE(bool(M2), llvm::toString(M2.takeError()));
  CHECK(M2->Prog.Subgraphs.size() == 1);
}

TEST_CASE("accel_check_kernel checks one operator as a program's would be") {
  // A RELU on 8 int8 values; its rescaling left shift decides.
  const int32_t Dims[] = {1, 8};
  const accel_operand In{static_cast<int32_t>(ir::DType::I8), 2, Dims, nullptr};
  const accel_operand Out = In;
  ref_relu_params P{};
  P.output_multiplier = 1 << 30;
  P.act_min = -128;
  P.act_max = 127;
  const char *Why = nullptr;
  SUBCASE("parameters the device takes") {
    P.output_left_shift = 13;
    CHECK(accel_check_kernel("ref_relu_i8", &P, sizeof(P), &In, 1, &Out,
                             &Why) == ACCEL_OK);
    CHECK(Why == nullptr);
  }
  SUBCASE("a rescaling shift beyond the device's range") {
    P.output_left_shift = 14;
    CHECK(accel_check_kernel("ref_relu_i8", &P, sizeof(P), &In, 1, &Out,
                             &Why) == ACCEL_ERR_PROGRAM);
    REQUIRE(Why != nullptr);
    CHECK(std::string(Why) ==
          "its fixed-point parameters (zero points, rescaling shifts, window "
          "reach or accumulator bound) are beyond the device's range");
  }
  SUBCASE("shapes the kernel does not take") {
    const int32_t Other[] = {1, 9};
    const accel_operand Longer{In.dtype, 2, Other, nullptr};
    CHECK(accel_check_kernel("ref_relu_i8", &P, sizeof(P), &In, 1, &Longer,
                             &Why) == ACCEL_ERR_PROGRAM);
    REQUIRE(Why != nullptr);
    CHECK(std::string(Why) == "the operand shapes or the shape parameters "
                              "are not ones the kernel takes");
  }
  SUBCASE("an element type the kernel does not take") {
    const accel_operand U8{static_cast<int32_t>(ir::DType::U8), 2, Dims,
                           nullptr};
    CHECK(accel_check_kernel("ref_relu_i8", &P, sizeof(P), &U8, 1, &Out,
                             &Why) == ACCEL_ERR_PROGRAM);
    REQUIRE(Why != nullptr);
    CHECK(std::string(Why) == "an operand's element type is not the kernel's");
  }
  SUBCASE("no such kernel, or parameters of another size") {
    CHECK(accel_check_kernel("ref_relu_i9", &P, sizeof(P), &In, 1, &Out,
                             &Why) == ACCEL_ERR_UNSUPPORTED);
    CHECK(accel_check_kernel("ref_relu_i8", &P, sizeof(P) - 4, &In, 1, &Out,
                             &Why) == ACCEL_ERR_ARGUMENT);
    CHECK(accel_check_kernel("ref_relu_i8", &P, sizeof(P), &In, 1, nullptr,
                             &Why) == ACCEL_ERR_ARGUMENT);
  }
}

namespace {

/// \p G partitioned for MDLA version \p Version with the cascades of least
/// working memory, the graph inputs read in the caller's buffers when
/// \p InPlace.
program::AcceleratedModel accelerateCascaded(const ir::Graph &G,
                                             unsigned Version, bool InPlace) {
  partition::PartitionOptions Opts;
  Opts.Cpu = &refTarget();
  plan::CascadeOptions Cascading;
  Cascading.Enabled = true;
  Cascading.InputsInPlace = InPlace;
  auto M = program::buildAcceleratedModel(G, mdlaTarget(), Version, Opts,
                                          "accelgen test", Cascading);
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  REQUIRE(M->Cascading);
  return std::move(*M);
}

/// Where a striped subgraph's operator is: subgraph, index in it, operator.
struct StripedOp {
  int32_t Subgraph = -1;
  int32_t Index = -1;
  const program::Op *Op = nullptr;
};

/// The rows [Begin, End) of \p T in \p Ref.
std::vector<uint8_t> rowsOf(const ir::Tensor &T, const std::vector<uint8_t> &Ref,
                            int32_t Begin, int32_t End) {
  const size_t Row = static_cast<size_t>(T.byteSize() / T.Shape[1]);
  return std::vector<uint8_t>(Ref.begin() + Begin * Row,
                              Ref.begin() + End * Row);
}

/// Counts what checkStripes saw.
struct StripeCounts {
  int Stripes = 0;
  int Refusals = 0;
  /// Stripes reading a graph input in the caller's buffer.
  int FromInputs = 0;
};

/// Runs the cascades of \p M the way model.c's loops do: the windows slide
/// (a memmove of the rows kept), the accelerator's operators run through
/// accel_run_stripe, and the CPU's stripes are the reference's rows. Every
/// stripe an accelerator operator traces must equal the reference's rows,
/// and the first stripe of each striped subgraph must be refused, writing
/// nothing, when its table entry or its window rows are wrong.
StripeCounts checkStripes(const program::AcceleratedModel &M,
                          const TensorBuffers &Ref) {
  StripeCounts Counts;
  Machine Mach(M.Prog);
  const std::vector<uint8_t> &Bytes = Mach.Bytes;
  const uint8_t *P = Mach.program();
  accel_memory &Memory = Mach.Memory;
  uint8_t *A = Memory.arena;
  // Graph inputs without arena bytes are read in their own buffers.
  std::vector<const void *> Inputs;
  for (int32_t T : M.Graph.Inputs)
    Inputs.push_back(Ref.at(T).data());
  Memory.inputs = Inputs.data();
  Memory.input_count = Inputs.size();

  std::map<size_t, StripedOp> OnDevice;
  for (size_t S = 0; S < M.Prog.Subgraphs.size(); ++S) {
    const program::Subgraph &Sub = M.Prog.Subgraphs[S];
    // Whole runs refuse striped subgraphs.
    if (Sub.Striped)
      CHECK(accel_run_subgraph(P, Bytes.size(), static_cast<int32_t>(S),
                               &Memory, nullptr, nullptr) ==
            ACCEL_ERR_ARGUMENT);
    int32_t K = 0;
    size_t Pos = M.Regions[S].first;
    for (const program::Layer &L : Sub.Layers)
      for (const program::Op &O : L.Ops) {
        if (Sub.Striped)
          OnDevice[Pos] = {static_cast<int32_t>(S), K, &O};
        ++K;
        ++Pos;
      }
  }

  std::set<int32_t> Refused;
  for (const plan::Cascade &C : M.Cascading->Cascades) {
    // The cascade's whole inputs, from the reference.
    std::set<int32_t> Made;
    for (int32_t K = C.FirstOp; K <= C.LastOp; ++K)
      Made.insert(M.Graph.Operators[K].output(0));
    for (int32_t K = C.FirstOp; K <= C.LastOp; ++K)
      for (int32_t T : M.Graph.Operators[K].Inputs)
        if (T >= 0 && !M.Graph.tensor(T).IsConstant && !Made.count(T) &&
            M.Plan.find(T))
          std::memcpy(A + M.Plan.find(T)->Offset, Ref.at(T).data(),
                      Ref.at(T).size());
    std::map<int32_t, int32_t> Lo;
    auto Base = [&](int32_t T) {
      return T >= 0 && C.windowOf(T) >= 0 ? Lo[T] : 0;
    };
    for (const std::vector<plan::StripeStep> &Step : C.Steps)
      for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
        const plan::StripeStep &E = Step[K - C.FirstOp];
        if (E.Out.empty())
          continue;
        const int32_t Out = M.Graph.Operators[K].output(0);
        const ir::Tensor &T = M.Graph.tensor(Out);
        const size_t Row = static_cast<size_t>(T.byteSize() / T.Shape[1]);
        uint8_t *Buf = A + M.Plan.find(Out)->Offset;
        if (C.windowOf(Out) >= 0 && Lo[Out] != E.WindowBegin) {
          std::memmove(Buf, Buf + (E.WindowBegin - Lo[Out]) * Row,
                       (E.Out.Begin - E.WindowBegin) * Row);
          Lo[Out] = E.WindowBegin;
        }
        auto It = OnDevice.find(static_cast<size_t>(K));
        if (It == OnDevice.end()) { // the CPU's rows
          const std::vector<uint8_t> Rows =
              rowsOf(T, Ref.at(Out), E.Out.Begin, E.Out.End);
          std::memcpy(Buf + (E.Out.Begin - Base(Out)) * Row, Rows.data(),
                      Rows.size());
          continue;
        }
        const StripedOp &D = It->second;
        const program::Subgraph &Sub = M.Prog.Subgraphs[D.Subgraph];
        std::vector<int32_t> FirstRow;
        bool ReadsInput = false;
        for (int32_t I : D.Op->Inputs) {
          FirstRow.push_back(I < 0 ? 0 : Base(Sub.Tensors[I].Id));
          ReadsInput |= I >= 0 && Sub.Tensors[I].Input >= 0;
        }
        Counts.FromInputs += ReadsInput;
        FirstRow.push_back(Base(Out));
        accel_stripe St{E.Out.Begin, E.Out.End, E.In.Begin, E.In.End,
                        E.PadTop,    FirstRow.data(),
                        static_cast<int32_t>(FirstRow.size())};
        INFO("operator " << K << " (" << D.Op->Type << ") rows "
                         << E.Out.Begin << "-" << E.Out.End);
        if (Refused.insert(D.Subgraph).second) {
          // Wrong entries and rows the windows do not hold write nothing.
          const std::vector<uint8_t> Before(A, A + M.Prog.ArenaBytes);
          std::vector<accel_stripe> Wrong(5, St);
          std::vector<int32_t> Negative = FirstRow;
          Negative.front() = -1;
          if (accel_stripe_rows(D.Op->Kernel.c_str()) != ACCEL_ROWS_SAME) {
            Wrong[0].pad_top += 1;
            Wrong[1].in_end += 1;
          } else {
            Wrong[0].out_begin = -1;
            Wrong[1].first_row = Negative.data();
          }
          Wrong[2].out_end = T.Shape[1] + 1;
          Wrong[3].operands -= 1;
          std::vector<int32_t> Late = FirstRow;
          Late.back() = E.Out.Begin + 1;
          Wrong[4].first_row = Late.data();
          for (const accel_stripe &W : Wrong)
            CHECK(accel_run_stripe(P, Bytes.size(), D.Subgraph, D.Index, &W,
                                   &Memory, nullptr,
                                   nullptr) == ACCEL_ERR_ARGUMENT);
          if (ReadsInput) { // without the caller's input buffers
            accel_memory NoInputs = Memory;
            NoInputs.inputs = nullptr;
            NoInputs.input_count = 0;
            CHECK(accel_run_stripe(P, Bytes.size(), D.Subgraph, D.Index, &St,
                                   &NoInputs, nullptr,
                                   nullptr) == ACCEL_ERR_ARGUMENT);
          }
          CHECK(std::vector<uint8_t>(A, A + M.Prog.ArenaBytes) == Before);
          Counts.Refusals += 1;
        }
        TraceLog.clear();
        const int Status = accel_run_stripe(P, Bytes.size(), D.Subgraph,
                                            D.Index, &St, &Memory, collect,
                                            nullptr);
        REQUIRE_MESSAGE(Status == ACCEL_OK, accel_status_name(Status));
        REQUIRE(TraceLog.size() == 1);
        CHECK(TraceLog[0].Tensor == Out);
        const std::vector<uint8_t> Want =
            rowsOf(T, Ref.at(Out), E.Out.Begin, E.Out.End);
        if (TraceLog[0].Bytes != Want)
          FAIL("operator " << K << " (" << D.Op->Type << ", " << D.Op->Kernel
                           << ") rows " << E.Out.Begin << "-" << E.Out.End
                           << ": " << diffText(TraceLog[0].Bytes, Want));
        ++Counts.Stripes;
      }
    // The cascade's output, whole and in the model's format.
    const int32_t Out = M.Graph.Operators[C.LastOp].output(0);
    const int64_t Off = M.Plan.find(Out)->Offset;
    CHECK_MESSAGE(std::vector<uint8_t>(A + Off, A + Off + Ref.at(Out).size()) ==
                      Ref.at(Out),
                  "cascade " << C.FirstOp << "-" << C.LastOp << " output");
  }
  return Counts;
}

} // namespace

TEST_CASE("accel_stripe_rows says how each kernel family maps rows") {
  CHECK(accel_stripe_rows("ref_conv2d_i8_per_channel") == ACCEL_ROWS_WINDOW);
  CHECK(accel_stripe_rows("ref_max_pool2d_u8") == ACCEL_ROWS_WINDOW);
  CHECK(accel_stripe_rows("ref_pad_i8") == ACCEL_ROWS_SHIFTED);
  CHECK(accel_stripe_rows("ref_add_i8") == ACCEL_ROWS_SAME);
  CHECK(accel_stripe_rows("ref_requantize_u8_i8") == ACCEL_ROWS_SAME);
  CHECK(accel_stripe_rows("ref_fully_connected_i8") == ACCEL_ROWS_NONE);
  CHECK(accel_stripe_rows("ref_mean_i8") == ACCEL_ROWS_NONE);
  CHECK(accel_stripe_rows("no_such_kernel") == ACCEL_ROWS_NONE);
  CHECK(accel_stripe_rows(nullptr) == ACCEL_ROWS_NONE);
}

// The functional model's stripe rules come from defs/ops.td through the
// kernel table; the cascade planner's through the operator vocabulary
// (ir::rowMap, ir::mayOverlay). Both must say the same of every kernel: a
// kernel computing several operators runs on stripes as those with a stripe
// rule say (PAD's function also computes PADV2, which has none, and which
// the planner therefore never puts in a stripe).
TEST_CASE("every kernel's stripe rows and overlays are defs/ops.td's") {
  std::map<std::string, std::vector<ir::OpCode>> OpsOf;
#define REF_KERNEL_ROW(op, name, function, family)                             \
  OpsOf[#function].push_back(ir::OpCode::op);
#include "ref_kernel_table.inc"
  REQUIRE(OpsOf.size() > 50);
  auto RowsOf = [](ir::OpCode Op) {
    switch (ir::rowMap(Op).Kind) {
    case ir::RowKind::Identity:
      return ACCEL_ROWS_SAME;
    case ir::RowKind::Window:
      return ACCEL_ROWS_WINDOW;
    case ir::RowKind::Shifted:
      return ACCEL_ROWS_SHIFTED;
    case ir::RowKind::Whole:
      break;
    }
    return ACCEL_ROWS_NONE;
  };
  for (const auto &[Function, Ops] : OpsOf) {
    // A structured binding cannot be captured (the macro's lambda).
    const auto &FunctionRef = Function;
    INFO(FunctionRef);
    int Rows = ACCEL_ROWS_NONE;
    bool Conflict = false;
    unsigned Overlays = 0;
    for (ir::OpCode Op : Ops) {
      if (RowsOf(Op) != ACCEL_ROWS_NONE) {
        Conflict |= Rows != ACCEL_ROWS_NONE && Rows != RowsOf(Op);
        Rows = RowsOf(Op);
      }
      for (unsigned I = 0; I < 32; ++I)
        if (ir::mayOverlay(Op, I))
          Overlays |= 1u << I;
    }
    if (Conflict)
      Rows = ACCEL_ROWS_NONE;
    CHECK(accel_stripe_rows(Function.c_str()) == Rows);
    CHECK(accel_stripe_overlays(Function.c_str()) == Overlays);
  }
  // SOFTMAX reads its whole row of channels but ops.td gives it no stripe
  // rule, so no cascade holds it and the functional model refuses it too.
  CHECK(accel_stripe_rows("ref_softmax_i8") == ACCEL_ROWS_NONE);
  CHECK(accel_stripe_overlays("ref_add_i8") == 3u);
  CHECK(accel_stripe_overlays("ref_relu_i8") == 1u);
  CHECK(accel_stripe_overlays("ref_conv2d_i8") == 0u);
}

namespace {

/// Calls \p Fn with every program model's graph and its program cascaded
/// for the least working memory, on every MDLA version, with the graph
/// inputs copied into the arena and read in place.
void forEachCascadedProgram(
    llvm::function_ref<void(const std::string &Name, const ir::Graph &G,
                            const program::AcceleratedModel &M)>
        Fn) {
  for (const std::string &Name : programModels()) {
    const ir::Graph G = sharedGraph(Name);
    for (const auto &[Label, Version] : mdlaVersions())
      for (const bool InPlace : {false, true}) {
        // A structured binding cannot be captured (the macro's lambda).
        const auto &LabelRef = Label;
        INFO(Name << " " << LabelRef << (InPlace ? " inputs in place" : ""));
        Fn(Name, G, accelerateCascaded(G, Version, InPlace));
      }
  }
}

} // namespace

TEST_CASE("striped subgraphs compute the reference's rows, stripe by stripe") {
  int Stripes = 0, Refusals = 0, FromInputs = 0;
  // The reference's tensors of the model at hand.
  std::string RefModel;
  TensorBuffers Ref;
  forEachCascadedProgram([&](const std::string &Name, const ir::Graph &G,
                             const program::AcceleratedModel &M) {
    if (Name != RefModel) {
      auto Runner = ModelRunner::create(G);
      REQUIRE_MESSAGE(bool(Runner), llvm::toString(Runner.takeError()));
      Ref = Runner->initialBuffers();
      randomInputs(G, Ref, 11);
      llvm::Error E = Runner->runAll(Ref);
      REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
      RefModel = Name;
    }
    // Fused layers whole in one cascade or none.
    for (size_t S = 0; S < M.Prog.Subgraphs.size(); ++S) {
      const auto [First, Count] = M.Regions[S];
      const plan::Cascade *C =
          M.Cascading->cascadeOf(static_cast<int32_t>(First));
      CHECK(M.Prog.Subgraphs[S].Striped == (C != nullptr));
      for (size_t K = First; K < First + Count; ++K)
        CHECK(M.Cascading->cascadeOf(static_cast<int32_t>(K)) == C);
    }
    const StripeCounts N = checkStripes(M, Ref);
    Stripes += N.Stripes;
    Refusals += N.Refusals;
    FromInputs += N.FromInputs;
  });
  CHECK(FromInputs > 10);
  // The shared models put accelerator operators in cascades.
  CHECK(Stripes > 1000);
  CHECK(Refusals > 5);
}

namespace {

/// The switch cycles of \p P's cascades priced under \p Opts.
double switchCyclesOf(const ir::Graph &G, const plan::CascadePlan &P,
                      const plan::CascadeOptions &Opts) {
  double Sum = 0;
  for (const plan::Cascade &C : P.Cascades)
    Sum += plan::switchCycles(G, C, Opts);
  return Sum;
}

} // namespace

TEST_CASE("cascades take the fewest device switches the memory allows") {
  int Fewer = 0, FewerWithin = 0;
  forEachCascadedProgram([&](const std::string &, const ir::Graph &,
                             const program::AcceleratedModel &M) {
    const plan::CascadePlan &P = *M.Cascading;
    // The planner's price is the program's: each striped subgraph
    // switches at its inputs and outputs once per stripe it runs.
    double Program = 0;
    for (size_t S = 0; S < M.Prog.Subgraphs.size(); ++S) {
      if (!M.Prog.Subgraphs[S].Striped)
        continue;
      const int32_t First = static_cast<int32_t>(M.Regions[S].first);
      const plan::Cascade *C = P.cascadeOf(First);
      REQUIRE(C);
      int Runs = 0;
      for (const std::vector<plan::StripeStep> &Step : C->Steps)
        Runs += !Step[First - C->FirstOp].Out.empty();
      Program += M.Prog.Subgraphs[S].SwitchCycles * Runs;
    }
    double Planned = 0;
    for (const plan::Cascade &C : P.Cascades)
      Planned += C.SwitchCycles;
    CHECK(Planned == Program);
    CHECK(Planned == switchCyclesOf(M.Graph, P, P.Given));
    // The same planning with switches free reaches the same memory
    // and switches no fewer cycles.
    plan::CascadeOptions Free = P.Given;
    Free.SwitchCycles = 0;
    llvm::Expected<plan::CascadePlan> Unpriced =
        plan::planCascades(M.Graph, Free);
    REQUIRE_MESSAGE(bool(Unpriced), llvm::toString(Unpriced.takeError()));
    CHECK(P.Memory.ArenaBytes == Unpriced->Memory.ArenaBytes);
    const double Before = switchCyclesOf(M.Graph, *Unpriced, P.Given);
    CHECK(Planned <= Before);
    Fewer += Planned < Before;
    // Under a budget halfway to the layer-at-a-time arena, too: what
    // fits, with the fewest switch cycles.
    plan::CascadeOptions Half = P.Given;
    Half.Budget = (P.Memory.ArenaBytes + P.LayerMemory.ArenaBytes) / 2;
    Free.Budget = Half.Budget;
    llvm::Expected<plan::CascadePlan> Priced =
        plan::planCascades(M.Graph, Half);
    REQUIRE_MESSAGE(bool(Priced), llvm::toString(Priced.takeError()));
    Unpriced = plan::planCascades(M.Graph, Free);
    REQUIRE_MESSAGE(bool(Unpriced), llvm::toString(Unpriced.takeError()));
    CHECK(Priced->Memory.ArenaBytes <= Half.Budget);
    const double Within = switchCyclesOf(M.Graph, *Priced, Half);
    const double WithinBefore = switchCyclesOf(M.Graph, *Unpriced, Half);
    CHECK(Within <= WithinBefore);
    FewerWithin += Within < WithinBefore;
  });
  // The shared models have plans of equal memory and fewer switches.
  MESSAGE(Fewer << " least-memory plans and " << FewerWithin
                << " within budgets switch fewer cycles than unpriced");
  CHECK(Fewer > 0);
  CHECK(FewerWithin > 0);
}
