//===- CompileTest.cpp - accelgen compile and run: sources and errors -----===//
//
// What `accelgen compile --target ref` writes, for every shared model the ref
// target runs: the files and their banners, report.json (placement and kernel
// of every operator, arena no larger than TensorFlow Lite Micro's, constant
// bytes and MACs), and sources that compile without a single warning under
// `-std=c99 -O2 -Wall -Wextra -Werror -pedantic` with gcc and with clang-14;
// the same for `--target cpu` on the models with specialised kernels. Then:
// deterministic output, the typed entry points called from a C program of our
// own, the state the LSTM models keep between invocations and its reset, the
// program cache of `accelgen run`, and every error: bad command lines, bad
// inputs.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "analysis/ModelStats.h"
#include "emit/ModelEmitter.h"
#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Program.h"

#include <set>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

const char *const StrictFlags[] = {"-std=c99", "-O2",       "-Wall", "-Wextra",
                                   "-Werror",  "-pedantic", "-c"};

/// The path of C compiler \p Name; fails the test if it is not installed.
std::string compilerPath(llvm::StringRef Name) {
  auto P = llvm::sys::findProgramByName(Name);
  REQUIRE_MESSAGE(bool(P), Name.str() << " is not installed; the generated "
                                         "code is checked with gcc and "
                                         "clang-14");
  return *P;
}

/// The files of folder \p Dir, by name.
std::set<std::string> filesIn(const std::string &Dir) {
  std::set<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Names.insert(llvm::sys::path::filename(It->path()).str());
  return Names;
}

/// Compiles every .c file of \p Dir (or only \p Only) with \p Compiler and
/// the strict flags (plus \p Extra); each warning is an error and fails the
/// test.
void compileStrict(const std::string &Compiler, const std::string &Dir,
                   const std::vector<std::string> &Extra = {},
                   llvm::StringRef Only = "") {
  const std::string CC = compilerPath(Compiler);
  test::TempDir Obj;
  for (const std::string &File : filesIn(Dir)) {
    if (!llvm::StringRef(File).endswith(".c") || (!Only.empty() && File != Only))
      continue;
    std::vector<std::string> Args(std::begin(StrictFlags),
                                  std::end(StrictFlags));
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    Args.insert(Args.end(),
                {"-I", Dir, pathJoin(Dir, File), "-o", Obj.file(File + ".o")});
    test::RunResult R = test::runProgram(CC, Args, 280);
    CHECK_MESSAGE(R.ExitCode == 0, Compiler << " " << File << ": " << R.Stderr
                                            << R.ErrorMessage);
    CHECK_MESSAGE(R.Stderr.empty(),
                  Compiler << " " << File << ": " << R.Stderr);
  }
}

/// Writes \p Main as main.c beside the emitted sources in \p Dir and builds
/// every .c file there with \p Compiler, -std=c99 -O2 and \p Flags into
/// \p Bin's `prog`, whose path it returns.
std::string buildWithMain(const std::string &Compiler, const std::string &Dir,
                          llvm::StringRef Main, const test::TempDir &Bin,
                          const std::vector<std::string> &Flags = {}) {
  test::writeFileBytes(pathJoin(Dir, "main.c"),
                       llvm::arrayRefFromStringRef(Main));
  std::vector<std::string> Args = {"-std=c99", "-O2"};
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  Args.insert(Args.end(), {"-o", Bin.file("prog")});
  for (const std::string &F : filesIn(Dir))
    if (llvm::StringRef(F).endswith(".c"))
      Args.push_back(pathJoin(Dir, F));
  Args.push_back("-lm");
  test::RunResult Build = test::runProgram(compilerPath(Compiler), Args, 120);
  REQUIRE_MESSAGE(Build.ExitCode == 0, Build.Stderr);
  return Bin.file("prog");
}

/// The arena_used figure of vectors/<model>/tflm_arena.txt, or -1.
int64_t tflmArena(const std::string &Model) {
  const std::string Path =
      pathJoin(pathJoin(vectorsDir(), Model), "tflm_arena.txt");
  if (!exists(Path))
    return -1;
  const std::string File = test::readFileText(Path);
  llvm::StringRef Text = llvm::StringRef(File).trim();
  int64_t N = -1;
  REQUIRE_MESSAGE(Text.consume_front("arena_used="),
                  Path << ": " << Text.str());
  REQUIRE_MESSAGE(!Text.getAsInteger(10, N), Path << ": " << Text.str());
  return N;
}

/// Checks one model's `accelgen compile` output for \p Target (ref or cpu),
/// then compiles it strictly.
void checkCompiledModel(const std::string &Model,
                        const std::string &Target = "ref") {
  requireSharedDir();
  const ir::Graph G = importGraph(Model);
  test::TempDir Out;
  test::RunResult R = runAccelgen(
      {"compile", modelPath(Model), "--target", Target, "-o", Out.path()});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);

  // The files: model.c/.h, report.json, the kernels, nothing else.
  const std::set<std::string> Files = filesIn(Out.path());
  for (const char *F : {"model.c", "model.h", "report.json"})
    CHECK_MESSAGE(Files.count(F), F << " is missing");
  // The manifest of what accelgen wrote (lib/driver/OutputFolder.h)
  // lists every other file but the lock writers take turns on.
  REQUIRE(Files.count(".accelgen-files"));
  CHECK(Files.count(".accelgen-lock"));
  auto Bookkeeping = [](const std::string &F) {
    return F == ".accelgen-files" || F == ".accelgen-lock";
  };
  const std::string Manifest = test::readFileText(Out.file(".accelgen-files"));
  for (const std::string &F : Files)
    if (!Bookkeeping(F))
      CHECK_MESSAGE(llvm::StringRef(Manifest).contains("\n" + F + "\n"), F);
  for (const std::string &F : Files) {
    if (Bookkeeping(F))
      continue;
    const std::string Text = test::readFileText(Out.file(F));
    if (F == "model.c" || F == "model.h")
      CHECK_MESSAGE(llvm::StringRef(Text).startswith(
                        "/* Generated by accelgen from template templates/" +
                        F + ".in. Do not edit. */\n"),
                    F);
    else if (F == "cpu_kernels.c" || F == "cpu_kernels.h")
      // Target cpu's specialised kernels (targets/cpu/CpuKernels.h).
      CHECK_MESSAGE(
          (Target == "cpu" && llvm::StringRef(Text).startswith(
                                  "/* Generated by accelgen from template "
                                  "targets/cpu/templates/" +
                                  F + ".in. Do not edit. */\n")),
          F);
    else if (F != "report.json")
      // A kernel file: rendered from its template (ref_conv.c from
      // templates/ref/conv.c.in), generated from the kernel families
      // (ref_params.h), or copied from lib/kernels/c.
      CHECK_MESSAGE((llvm::StringRef(Text).startswith(
                         "/* Generated by accelgen-tblgen -gen-kernel-") ||
                     llvm::StringRef(Text).startswith(
                         "/* Generated by accelgen from template "
                         "templates/ref/" +
                         F.substr(4) + ".in. Do not edit. */\n") ||
                     llvm::StringRef(Text).startswith(
                         "/* Copied by accelgen from the reference kernels of "
                         "target ref (lib/kernels/c/" +
                         F + "). */\n")),
                    F);
  }

  // report.json.
  auto Report = llvm::json::parse(test::readFileText(Out.file("report.json")));
  REQUIRE_MESSAGE(bool(Report), llvm::toString(Report.takeError()));
  const llvm::json::Object &O = *Report->getAsObject();
  CHECK(O.getString("target") == llvm::Optional<llvm::StringRef>(Target));
  CHECK(O.getString("model") ==
        llvm::Optional<llvm::StringRef>(Model + ".tflite"));
  CHECK(O.getInteger("macs") == analysis::graphMacs(G));
  CHECK(O.getInteger("constant_bytes") == analysis::constantBytes(G));
  const llvm::json::Object *Arena = O.getObject("arena");
  REQUIRE(Arena);
  const int64_t ArenaBytes = Arena->getInteger("bytes").getValueOr(-1);
  CHECK(ArenaBytes >= Arena->getInteger("lower_bound").getValueOr(-1));
  CHECK(ArenaBytes > 0);
  const int64_t Tflm = tflmArena(Model);
  if (Tflm >= 0)
    CHECK_MESSAGE(ArenaBytes <= Tflm, "arena " << ArenaBytes
                                               << " bytes, TensorFlow Lite "
                                                  "Micro used "
                                               << Tflm);
  const llvm::json::Array *Ops = O.getArray("operators");
  REQUIRE(Ops);
  REQUIRE(Ops->size() == G.Operators.size());
  for (size_t I = 0; I < Ops->size(); ++I) {
    const llvm::json::Object &Op = *(*Ops)[I].getAsObject();
    INFO("operator " << I);
    CHECK(Op.getInteger("index") == static_cast<int64_t>(I));
    CHECK(Op.getString("type") ==
          llvm::Optional<llvm::StringRef>(G.Operators[I].Type));
    CHECK(Op.getString("placement") == llvm::Optional<llvm::StringRef>("cpu"));
    llvm::Optional<llvm::StringRef> Kernel = Op.getString("kernel");
    REQUIRE(Kernel);
    // Target cpu's own kernels are named after the model and operator.
    CHECK((Kernel->startswith("ref_") || Kernel->startswith("none") ||
           (Target == "cpu" && *Kernel == "model_op" + std::to_string(I))));
    CHECK(Op.getInteger("macs") == analysis::operatorMacs(G, G.Operators[I]));
  }

  // Strict C99, both compilers, with and without the trace hook (which
  // only model.c reads).
  for (const char *CC : {"gcc", "clang-14"}) {
    INFO(CC);
    compileStrict(CC, Out.path());
    compileStrict(CC, Out.path(), {"-DMODEL_TRACE"}, "model.c");
  }
}

} // namespace

TEST_CASE("coral_mobilenet_v2_10_224_quant_uint8") {
  checkCompiledModel("coral_mobilenet_v2_10_224_quant_uint8");
}
// Target cpu on the models with each kind of specialised kernel: GEMM
// convolutions direct and through patches, depthwise, fully connected.
TEST_CASE("target cpu: mlperf_tiny_ic_resnet8_int8") {
  checkCompiledModel("mlperf_tiny_ic_resnet8_int8", "cpu");
}
TEST_CASE("target cpu: mlperf_tiny_vww_mobilenetv1_025_96_int8") {
  checkCompiledModel("mlperf_tiny_vww_mobilenetv1_025_96_int8", "cpu");
}
TEST_CASE("target cpu: mlperf_tiny_kws_dscnn_int8") {
  checkCompiledModel("mlperf_tiny_kws_dscnn_int8", "cpu");
}
TEST_CASE("target cpu: mlperf_tiny_ad_autoencoder_int8") {
  checkCompiledModel("mlperf_tiny_ad_autoencoder_int8", "cpu");
}
TEST_CASE("mlperf_tiny_ad_autoencoder_int8") {
  checkCompiledModel("mlperf_tiny_ad_autoencoder_int8");
}
TEST_CASE("mlperf_tiny_ic_resnet8_int8") {
  checkCompiledModel("mlperf_tiny_ic_resnet8_int8");
}
TEST_CASE("mlperf_tiny_kws_dscnn_int8") {
  checkCompiledModel("mlperf_tiny_kws_dscnn_int8");
}
TEST_CASE("mlperf_tiny_vww_mobilenetv1_025_96_int8") {
  checkCompiledModel("mlperf_tiny_vww_mobilenetv1_025_96_int8");
}
TEST_CASE("tflm_hello_world_int8") {
  checkCompiledModel("tflm_hello_world_int8");
}
TEST_CASE("tflm_micro_speech_int8") {
  checkCompiledModel("tflm_micro_speech_int8");
}
TEST_CASE("tflm_person_detect_int8") {
  checkCompiledModel("tflm_person_detect_int8");
}
TEST_CASE("tflm_person_detect_int8_qdimfix") {
  checkCompiledModel("tflm_person_detect_int8_qdimfix");
}
TEST_CASE("tflm_simple_add") { checkCompiledModel("tflm_simple_add"); }
TEST_CASE("tflm_mnist_lstm_int8") {
  checkCompiledModel("tflm_mnist_lstm_int8");
}
TEST_CASE("coral_keras_lstm_mnist_ptq") {
  checkCompiledModel("coral_keras_lstm_mnist_ptq");
}

TEST_CASE("compile output is deterministic and independent of the path") {
  requireSharedDir();
  const std::string Model = "mlperf_tiny_ic_resnet8_int8";
  test::TempDir A, B, Copy;
  const std::string Moved = Copy.file(Model + ".tflite");
  test::writeFileBytes(Moved, test::readFileBytes(modelPath(Model)));
  REQUIRE(runAccelgen(
              {"compile", modelPath(Model), "--target", "ref", "-o", A.path()})
              .ExitCode == 0);
  REQUIRE(runAccelgen({"compile", Moved, "--target", "ref", "-o", B.path()})
              .ExitCode == 0);
  const std::set<std::string> Files = filesIn(A.path());
  CHECK(Files == filesIn(B.path()));
  for (const std::string &F : Files) {
    INFO(F);
    CHECK(test::readFileText(A.file(F)) == test::readFileText(B.file(F)));
  }
}

TEST_CASE("the typed entry points, called from C") {
  requireSharedDir();
  // Two inputs, so the parameter order matters.
  const std::string Model = "tflm_simple_add";
  test::TempDir Out;
  REQUIRE(runAccelgen({"compile", modelPath(Model), "--target", "ref", "-o",
                       Out.path(), "--name", "simple_add"})
              .ExitCode == 0);
  const std::string Header = test::readFileText(Out.file("model.h"));
  CHECK(Header.find("int simple_add_run(const int8_t *input0, const int8_t "
                    "*input1, int8_t *output0);") != std::string::npos);
  CHECK(Header.find("int simple_add_run_io(const simple_add_io *io);") !=
        std::string::npos);
  CHECK(Header.find("#define SIMPLE_ADD_INPUT1_BYTES 16384") !=
        std::string::npos);

  // A program of our own: both entry points on seed 1, null pointers.
  const std::string Main = R"(#include "model.h"
#include <stdio.h>
#include <string.h>

static int8_t in0[SIMPLE_ADD_INPUT0_ELEMENTS], in1[SIMPLE_ADD_INPUT1_ELEMENTS];
static int8_t out_a[SIMPLE_ADD_OUTPUT0_ELEMENTS];
static int8_t out_b[SIMPLE_ADD_OUTPUT0_ELEMENTS];

static int load(const char *path, int8_t *data, size_t bytes) {
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(data, 1, bytes, f) : 0;
  if (f)
    fclose(f);
  return n == bytes ? 0 : 1;
}

int main(int argc, char **argv) {
  simple_add_io io;
  FILE *f;
  if (argc != 4 || load(argv[1], in0, sizeof in0) ||
      load(argv[2], in1, sizeof in1))
    return 2;
  if (simple_add_run(in0, in1, out_a) != 0)
    return 3;
  io.input0 = in0;
  io.input1 = in1;
  io.output0 = out_b;
  if (simple_add_run_io(&io) != 0)
    return 4;
  if (memcmp(out_a, out_b, sizeof out_a) != 0)
    return 5;
  if (simple_add_run(in0, NULL, out_a) != 1 || simple_add_run_io(NULL) != 1)
    return 6;
  f = fopen(argv[3], "wb");
  if (!f || fwrite(out_a, 1, sizeof out_a, f) != sizeof out_a)
    return 7;
  return fclose(f) == 0 ? 0 : 8;
}
)";
  for (const char *CC : {"gcc", "clang-14"}) {
    INFO(CC);
    test::TempDir Bin;
    buildWithMain(CC, Out.path(), Main, Bin);
    compileStrict(CC, Out.path());
    const std::string Seed = pathJoin(pathJoin(vectorsDir(), Model), "seed1");
    test::RunResult Run = test::runProgram(
        Bin.file("prog"), {pathJoin(Seed, "input_0.bin"),
                           pathJoin(Seed, "input_1.bin"), Bin.file("out.bin")});
    REQUIRE_MESSAGE(Run.ExitCode == 0, "exit " << Run.ExitCode);
    CHECK(test::readFileBytes(Bin.file("out.bin")) ==
          test::readFileBytes(pathJoin(Seed, "expected_0.bin")));
  }
}

TEST_CASE("LSTM state persists across invocations until reset") {
  requireSharedDir();
  for (const char *Model :
       {"tflm_mnist_lstm_int8", "coral_keras_lstm_mnist_ptq"}) {
    INFO(Model);
    const ir::Graph G = importGraph(Model);
    REQUIRE(G.Inputs.size() == 1);
    REQUIRE(G.Outputs.size() == 1);
    test::TempDir Out;
    REQUIRE(runAccelgen({"compile", modelPath(Model), "--target", "ref", "-o",
                         Out.path(), "--name", "lstm"})
                .ExitCode == 0);
    CHECK(test::readFileText(Out.file("model.h"))
              .find("void lstm_reset(void);") != std::string::npos);
    // Seed 1 run three times: fresh, continued, after a reset. The first and
    // third must give the reference output; the LSTM layer (caught with the
    // trace hook) must repeat in the third run and differ in the second,
    // which continues from the state the first left.
    int32_t LstmOut = -1;
    for (const ir::Operator &Op : G.Operators)
      if (Op.Type == "UNIDIRECTIONAL_SEQUENCE_LSTM")
        LstmOut = Op.Outputs[0];
    REQUIRE(LstmOut >= 0);
    const std::string Main = R"(#include "model.h"
#include <stdio.h>
#include <string.h>

static uint8_t in[LSTM_INPUT0_BYTES], out[3][LSTM_OUTPUT0_BYTES];
static uint8_t layer[3][LAYER_BYTES];
static int run;

void lstm_trace(int32_t op, int32_t tensor, const void *data, size_t bytes) {
  (void)op;
  if (tensor == LAYER_TENSOR && bytes == LAYER_BYTES)
    memcpy(layer[run], data, bytes);
}

int main(int argc, char **argv) {
  FILE *f = argc == 3 ? fopen(argv[1], "rb") : NULL;
  if (!f || fread(in, 1, sizeof in, f) != sizeof in)
    return 2;
  fclose(f);
  for (run = 0; run < 3; ++run) {
    if (run == 2)
      lstm_reset();
    if (lstm_run((const void *)in, (void *)out[run]) != 0)
      return 3;
  }
  f = fopen(argv[2], "wb");
  if (!f || fwrite(out, 1, sizeof out, f) != sizeof out ||
      fwrite(layer, 1, sizeof layer, f) != sizeof layer)
    return 4;
  return fclose(f) == 0 ? 0 : 5;
}
)";
    const int64_t LayerBytes = G.tensor(LstmOut).byteSize();
    test::TempDir Bin;
    buildWithMain("gcc", Out.path(), Main, Bin,
                  {"-Wall", "-Wextra", "-Werror", "-pedantic", "-DLSTM_TRACE",
                   "-DLAYER_TENSOR=" + std::to_string(LstmOut),
                   "-DLAYER_BYTES=" + std::to_string(LayerBytes)});
    const std::string Seed = pathJoin(pathJoin(vectorsDir(), Model), "seed1");
    test::RunResult Run = test::runProgram(
        Bin.file("prog"), {pathJoin(Seed, "input_0.bin"), Bin.file("out.bin")});
    REQUIRE_MESSAGE(Run.ExitCode == 0, "exit " << Run.ExitCode);
    const std::vector<uint8_t> All = test::readFileBytes(Bin.file("out.bin"));
    const size_t N = static_cast<size_t>(G.tensor(G.Outputs[0]).byteSize());
    const size_t L = static_cast<size_t>(LayerBytes);
    REQUIRE(All.size() == 3 * N + 3 * L);
    auto Part = [&](size_t Offset, size_t Size) {
      return std::vector<uint8_t>(All.begin() + Offset,
                                  All.begin() + Offset + Size);
    };
    CHECK(Part(0, N) == test::readFileBytes(pathJoin(Seed, "expected_0.bin")));
    CHECK(Part(2 * N, N) == Part(0, N));
    CHECK(Part(3 * N + 2 * L, L) == Part(3 * N, L));
    CHECK(Part(3 * N + L, L) != Part(3 * N, L));
  }
}

TEST_CASE("variables and CALL_ONCE persist across invocations until reset") {
  // Graph 1, which CALL_ONCE runs, assigns "acc" = C. The main graph reads
  // "acc" (output 0), adds its input x (output 1) and assigns the sum back;
  // it reads "late" (output 2) before assigning it x. So the first run gives
  // C and late's initial bytes, the zero point of the first value assigned
  // to it (x's, 3; as TensorFlow Lite Micro fills a variable); the second
  // the first run's sum and x; a run after reset() the first run's again.
  const std::vector<int8_t> C = {10, 20, 30, 40};
  const std::vector<int8_t> X = {-5, 1, 7, 100};
  auto Q = [] { return ir::perTensor(0.25f, 3); };
  ir::Model M;
  M.SchemaVersion = 3;
  ir::GraphBuilder Init;
  Init.op("ASSIGN_VARIABLE",
          {Init.varHandle("acc"),
           Init.constant("c", {1, 4}, Q(), ir::DType::I8, C)},
          {});
  ir::GraphBuilder B;
  const int32_t In = B.tensor("x", {1, 4}, Q());
  B.op("CALL_ONCE", {}, {}, {{"init_subgraph", int64_t(1)}});
  const int32_t Acc = B.varHandle("acc");
  const int32_t V = B.tensor("v", {1, 4}, Q());
  B.op("READ_VARIABLE", {Acc}, {V});
  const int32_t S = B.tensor("s", {1, 4}, Q());
  B.op("ADD", {In, V}, {S}, {{"fused_activation", std::string("NONE")}});
  B.op("ASSIGN_VARIABLE", {Acc, S}, {});
  const int32_t Late = B.varHandle("late");
  const int32_t L = B.tensor("l", {1, 4}, Q());
  B.op("READ_VARIABLE", {Late}, {L});
  B.op("ASSIGN_VARIABLE", {Late, In}, {});
  B.inputs({In}).outputs({V, S, L});
  Init.G.Name = "init";
  M.Graphs = {B.G, Init.G};
  test::TempDir Out;
  const std::string Model = Out.file("state.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  // explain says where the called graph runs.
  test::RunResult Explain =
      runAccelgen({"explain", Model, "--target", "mdla2.0"});
  REQUIRE_MESSAGE(Explain.ExitCode == 0, Explain.Stderr);
  CHECK(Explain.Stdout.find("graph 1 'init': called by IF, WHILE or "
                            "CALL_ONCE; its 2 operator(s) run on the host "
                            "CPU with the reference kernels\n") !=
        std::string::npos);
  test::RunResult R = runAccelgen({"compile", Model, "--target", "ref", "-o",
                                   Out.path(), "--name", "state"});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  compileStrict("gcc", Out.path());
  const std::string Main = R"(#include "model.h"
#include <stdio.h>

int main(int argc, char **argv) {
  static const int8_t x[4] = {-5, 1, 7, 100};
  int8_t out[3][3][4];
  FILE *f;
  int run;
  for (run = 0; run < 3; ++run) {
    if (run == 2)
      state_reset();
    if (state_run(x, out[run][0], out[run][1], out[run][2]) != 0)
      return 3;
  }
  f = argc == 2 ? fopen(argv[1], "wb") : NULL;
  if (!f || fwrite(out, 1, sizeof out, f) != sizeof out)
    return 4;
  return fclose(f) == 0 ? 0 : 5;
}
)";
  test::TempDir Bin;
  // Under ASan and UBSan: the copies into and out of the variables and the
  // called graph's buffers stay in bounds.
  buildWithMain("gcc", Out.path(), Main, Bin,
                {"-Wall", "-Wextra", "-Werror", "-pedantic",
                 "-fsanitize=address,undefined",
                 "-fno-sanitize-recover=all"});
  test::RunResult Run = test::runProgram(Bin.file("prog"), {Bin.file("o")});
  REQUIRE_MESSAGE(Run.ExitCode == 0, "exit " << Run.ExitCode);
  const std::vector<uint8_t> All = test::readFileBytes(Bin.file("o"));
  REQUIRE(All.size() == 36);
  auto Part = [&](int Run, int Output) {
    auto Begin = All.begin() + 12 * Run + 4 * Output;
    return std::vector<int8_t>(Begin, Begin + 4);
  };
  const std::vector<int8_t> ZeroPoint(4, 3);
  CHECK(Part(0, 0) == C);
  CHECK(Part(0, 2) == ZeroPoint);
  CHECK(Part(1, 0) == Part(0, 1));
  CHECK(Part(1, 2) == X);
  CHECK(Part(2, 0) == C);
  CHECK(Part(2, 1) == Part(0, 1));
  CHECK(Part(2, 2) == ZeroPoint);
  // The sum of the first run is not C again: the second run's read differs.
  CHECK(Part(0, 1) != C);
}

namespace {

/// Runs accelgen with \p Args and checks it fails with one `error:` line
/// containing \p Message, printing nothing on stdout.
void checkFails(const std::vector<std::string> &Args,
                const std::string &Message) {
  INFO(llvm::join(Args, " "));
  test::RunResult R = runAccelgen(Args);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stdout.empty());
  CHECK_MESSAGE(llvm::StringRef(R.Stderr).startswith("error: "), R.Stderr);
  CHECK_MESSAGE(R.Stderr.find(Message) != std::string::npos, R.Stderr);
  CHECK_MESSAGE(llvm::StringRef(R.Stderr).count('\n') == 1, R.Stderr);
}

} // namespace

TEST_CASE("bad command lines") {
  requireSharedDir();
  const std::string M = modelPath("tflm_hello_world_int8");
  test::TempDir Dir;
  const std::string Out = Dir.file("out");
  checkFails({"compile", M, "-o", Out}, "--target");
  checkFails({"compile", M, "--target", "ref"}, "-o");
  checkFails({"compile", "--target", "ref", "-o", Out}, "");
  checkFails({"compile", M, "--target", "mdla9", "-o", Out},
             "error: unknown target 'mdla9' (targets: " + targetLabelList() +
                 ")");
  // A target whose description names no backend can only be explained.
  checkFails({"compile", M, "--target", "demo2.0", "-o", Out},
             "error: 'demo2.0' can only explain: its description names no "
             "backend that compiles");
  checkFails({"compile", M, "--target", "ref", "-o", Out, "--name", "9lives"},
             "--name '9lives' is not a C identifier");
  checkFails({"compile", M, "--target", "ref", "-o", Out, "--name", "a-b"},
             "is not a C identifier");
  // Names the linked C libraries' symbols start with: `accel` made model.c
  // define accel_run twice.
  checkFails({"compile", M, "--target", "mdla2.0", "-o", Out, "--name",
              "accel"},
             "error: --name 'accel' would collide with the functional model's "
             "runtime, whose symbols start with accel_");
  checkFails({"compile", M, "--target", "ref", "-o", Out, "--name", "Ref_net"},
             "error: --name 'Ref_net' would collide with the reference "
             "kernels, whose symbols start with ref_");
  checkFails(
      {"compile", Dir.file("missing.tflite"), "--target", "ref", "-o", Out},
      "error: " + Dir.file("missing.tflite") + ": cannot read");
  checkFails({"compile", M, "--target", "ref", "-o", Out, "--bogus"}, "bogus");
  CHECK_FALSE(exists(Out));

  const std::string Seed =
      pathJoin(pathJoin(vectorsDir(), "tflm_hello_world_int8"), "seed1");
  checkFails({"run", M, "--target", "ref", "--outputs", Out}, "--inputs");
  checkFails({"run", M, "--target", "ref", "--inputs", Seed}, "--outputs");
  checkFails({"run", M, "--inputs", Seed, "--outputs", Out}, "--target");
  checkFails({"run", M, "--target", "x", "--inputs", Seed, "--outputs", Out},
             "unknown target 'x'");
  checkFails({"run", M, "--target", "ref", "--inputs", Dir.file("none"),
              "--outputs", Out},
             "error: " + Dir.file("none") + ": not a folder");
}

TEST_CASE("run checks its input files") {
  requireSharedDir();
  const std::string M = modelPath("tflm_simple_add");
  const std::string Seed =
      pathJoin(pathJoin(vectorsDir(), "tflm_simple_add"), "seed1");
  test::TempDir In, Out;
  // Only the first of the two inputs.
  test::writeFileBytes(In.file("input_0.bin"),
                       test::readFileBytes(pathJoin(Seed, "input_0.bin")));
  checkFails({"run", M, "--target", "ref", "--inputs", In.path(), "--outputs",
              Out.file("o"), "--cache-dir", ACCELGEN_E2E_CACHE_DIR},
             "error: " + In.file("input_1.bin") + ": cannot read");
  // The second one a byte short.
  std::vector<uint8_t> Short =
      test::readFileBytes(pathJoin(Seed, "input_1.bin"));
  Short.pop_back();
  test::writeFileBytes(In.file("input_1.bin"), Short);
  checkFails({"run", M, "--target", "ref", "--inputs", In.path(), "--outputs",
              Out.file("o"), "--cache-dir", ACCELGEN_E2E_CACHE_DIR},
             "error: " + In.file("input_1.bin") +
                 ": has 16383 bytes, but input 1 ('serving_default_input_2:0', "
                 "i8 1x128x128x1) takes 16384 bytes");
  CHECK_FALSE(exists(Out.file("o")));
}

/// The programs' folders of cache \p Root (not its objects/ folder).
std::set<std::string> programsIn(const std::string &Root) {
  std::set<std::string> Names = filesIn(Root);
  Names.erase("objects");
  return Names;
}

TEST_CASE("run builds once per model, compiler and generated code") {
  requireSharedDir();
  const std::string Model = "tflm_hello_world_int8";
  test::TempDir Home, Out;
  const std::string Cache = Home.file("cache");
  auto RunModelWith = [&](const std::string &Name,
                          const std::vector<std::string> &Env) {
    const std::string Seed = pathJoin(pathJoin(vectorsDir(), Name), "seed1");
    // env(1) sets the variables for accelgen alone.
    std::vector<std::string> Args = Env;
    Args.insert(Args.end(),
                {test::accelgenPath(), "run", modelPath(Name), "--target",
                 "ref", "--inputs", Seed, "--outputs", Out.path()});
    test::RunResult R = test::runProgram("/usr/bin/env", Args, 280);
    CHECK_MESSAGE(R.ExitCode == 0, R.Stderr);
    CHECK(test::readFileBytes(Out.file("output_0.bin")) ==
          test::readFileBytes(pathJoin(Seed, "expected_0.bin")));
  };
  auto RunWith = [&](const std::vector<std::string> &Env) {
    RunModelWith(Model, Env);
  };

  // $XDG_CACHE_HOME/accelgen by default.
  RunWith({"XDG_CACHE_HOME=" + Cache});
  const std::string Root = pathJoin(Cache, "accelgen");
  std::set<std::string> Entries = programsIn(Root);
  REQUIRE(Entries.size() == 1);
  const std::string Program =
      pathJoin(pathJoin(Root, *Entries.begin()), "model-run");
  REQUIRE(exists(Program));
  llvm::sys::fs::file_status Before, After;
  REQUIRE(!llvm::sys::fs::status(Program, Before));

  // The same again: the program is reused, not rebuilt.
  RunWith({"XDG_CACHE_HOME=" + Cache});
  REQUIRE(!llvm::sys::fs::status(Program, After));
  CHECK(Before.getLastModificationTime() == After.getLastModificationTime());
  CHECK(programsIn(Root).size() == 1);

  // Each source is compiled once into objects/: another model compiles its
  // own model.c and main.c, and the reference kernels it shares with the
  // first only where its calls need kernels the first did not.
  const std::string Objects = pathJoin(Root, "objects");
  const size_t FirstObjects = filesIn(Objects).size();
  CHECK(FirstObjects >= 3);
  RunModelWith("tflm_micro_speech_int8", {"XDG_CACHE_HOME=" + Cache});
  std::set<std::string> Second = programsIn(Root);
  REQUIRE(Second.size() == 2);
  for (const std::string &E : Entries)
    Second.erase(E);
  size_t Sources = 0;
  for (const std::string &F : filesIn(pathJoin(Root, *Second.begin())))
    Sources += llvm::StringRef(F).endswith(".c");
  CHECK(filesIn(Objects).size() - FirstObjects < Sources);

  // Another compiler is another build.
  RunWith({"XDG_CACHE_HOME=" + Cache, "CC=" + compilerPath("clang-14")});
  CHECK(programsIn(Root).size() == 3);

  // ~/.cache/accelgen without XDG_CACHE_HOME.
  RunWith({"-u", "XDG_CACHE_HOME", "HOME=" + Home.path()});
  CHECK(programsIn(pathJoin(pathJoin(Home.path(), ".cache"), "accelgen"))
            .size() == 1);

  // A compiler that is not there.
  const std::string Seed = pathJoin(pathJoin(vectorsDir(), Model), "seed1");
  test::RunResult R = test::runProgram(
      "/usr/bin/env",
      {"XDG_CACHE_HOME=" + Home.file("other"), "CC=no-such-cc-accelgen",
       test::accelgenPath(), "run", modelPath(Model), "--target", "ref",
       "--inputs", Seed, "--outputs", Out.path()},
      280);
  CHECK(R.ExitCode == 1);
  CHECK_MESSAGE(R.Stderr.find("cannot find the C compiler "
                              "'no-such-cc-accelgen' (set CC)") !=
                    std::string::npos,
                R.Stderr);
}

namespace {

/// `accelgen compile` of the model whose main graph \p B built, for
/// \p Target, in \p Dir (the model as model.tflite, the output in out/).
test::RunResult compileBuilt(const ir::GraphBuilder &B,
                             const std::string &Target,
                             const test::TempDir &Dir) {
  ir::Model M;
  M.Graphs.push_back(B.G);
  M.Graphs.back().Name = "main";
  const std::string Model = Dir.file("model.tflite");
  test::writeFileBytes(Model, tflite::writeModel(M));
  return runAccelgen(
      {"compile", Model, "--target", Target, "-o", Dir.file("out")});
}

} // namespace

TEST_CASE("a chain of 100,000 operators compiles for an accelerator") {
  // The program's 100,000 layers passed FlatBuffers' default limit of a
  // million tables, so its own checker rejected it, after 2.5 minutes in
  // the memory planner (a tensors-by-steps table of 10^10 entries, every
  // placed buffer met for each new one); now about 6 seconds. The time is
  // bounded here only by the test's timeout.
  ir::GraphBuilder B;
  const int32_t X = B.tensor("x", {1, 8}, ir::perTensor(0.5f, 0));
  int32_t In = X;
  for (int I = 0; I < 100000; ++I) {
    const int32_t Y = B.tensor("y" + std::to_string(I), {1, 8},
                               ir::perTensor(0.5f, 0));
    B.op("RELU", {In}, {Y});
    In = Y;
  }
  B.inputs({X}).outputs({In});
  test::TempDir Dir;
  test::RunResult R = compileBuilt(B, "npu55", Dir);
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(llvm::StringRef(R.Stdout).contains("100000 operators"));
}

TEST_CASE("5,000 operators with thousands of tensors live compile for an "
          "accelerator") {
  // Each ADD also reads the tensor half as far down the chain, so about
  // 2,500 tensors are live at once. The memory planner met every placed
  // buffer again at each step they shared, and the plan's checker compared
  // every live pair at every step: 137 seconds on npu55; now about one.
  ir::GraphBuilder B;
  std::vector<int32_t> T = {B.tensor("t0", {1, 8, 8, 4},
                                     ir::perTensor(0.05f, 0))};
  for (int K = 0; K < 5000; ++K) {
    T.push_back(B.tensor("t" + std::to_string(K + 1), {1, 8, 8, 4},
                         ir::perTensor(0.05f, 0)));
    B.op("ADD", {T[size_t(K)], T[size_t(K / 2)]}, {T.back()});
  }
  B.inputs({T.front()}).outputs({T.back()});
  test::TempDir Dir;
  test::RunResult R = compileBuilt(B, "npu55", Dir);
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  // The plan is still as small as the tensors live together allow.
  llvm::SmallVector<llvm::StringRef, 3> Match;
  REQUIRE_MESSAGE(llvm::Regex("5000 operators, arena ([0-9]+) bytes \\(lower "
                              "bound ([0-9]+)\\)")
                      .match(R.Stdout, &Match),
                  R.Stdout);
  CHECK(Match[1] == Match[2]);
}

TEST_CASE("report.json says why an operator keeps the reference kernel on "
          "cpu") {
  ir::GraphBuilder B;
  // A 16x8 convolution: no specialised int16 kernel.
  const int32_t X = B.tensor("x", {1, 4, 4, 2}, ir::perTensor(1.0f / 4096, 0),
                             ir::DType::I16);
  const int32_t W = B.constant("w", {3, 1, 1, 2}, ir::perTensor(0.01f, 0),
                               ir::DType::I8, std::vector<int8_t>(6, 3));
  const int32_t Y = B.tensor("y", {1, 4, 4, 3}, ir::perTensor(1.0f / 2048, 0),
                             ir::DType::I16);
  B.op("CONV_2D", {X, W, -1}, {Y},
       {{"padding", std::string("VALID")}, {"stride_h", int64_t(1)},
        {"stride_w", int64_t(1)}});
  // A fully connected layer whose bias is at int32's limit: its
  // accumulator can leave int32.
  const int32_t A = B.tensor("a", {1, 4}, ir::perTensor(0.05f, -3));
  const int32_t FW = B.constant("fw", {2, 4}, ir::perTensor(0.01f, 0),
                                ir::DType::I8, std::vector<int8_t>(8, 100));
  const int32_t FB =
      B.constant("fb", {2}, ir::perTensor(0.0005f, 0), ir::DType::I32,
                 std::vector<int32_t>{INT32_MAX, 7});
  const int32_t F = B.tensor("f", {1, 2}, ir::perTensor(0.2f, 1));
  B.op("FULLY_CONNECTED", {A, FW, FB}, {F});
  // The same with an ordinary bias: specialised.
  const int32_t FB2 =
      B.constant("fb2", {2}, ir::perTensor(0.0005f, 0), ir::DType::I32,
                 std::vector<int32_t>{1000, 7});
  const int32_t F2 = B.tensor("f2", {1, 2}, ir::perTensor(0.2f, 1));
  B.op("FULLY_CONNECTED", {A, FW, FB2}, {F2});
  B.inputs({X, A}).outputs({Y, F, F2});
  test::TempDir Dir;
  test::RunResult R = compileBuilt(B, "cpu", Dir);
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  auto Report =
      llvm::json::parse(test::readFileText(Dir.file("out/report.json")));
  REQUIRE_MESSAGE(bool(Report), llvm::toString(Report.takeError()));
  const llvm::json::Array *Ops = Report->getAsObject()->getArray("operators");
  REQUIRE(Ops);
  REQUIRE(Ops->size() == 3);
  auto Reason = [&](size_t I) {
    return (*Ops)[I].getAsObject()->getString("reference_kernel_reason");
  };
  CHECK(Reason(0) == llvm::Optional<llvm::StringRef>(
                         "no specialised kernel for i16 CONV_2D"));
  CHECK(Reason(1) == llvm::Optional<llvm::StringRef>(
                         "its accumulator could leave int32 (the reference "
                         "kernel wraps it as TensorFlow Lite does)"));
  CHECK_FALSE(Reason(2));
  CHECK((*Ops)[1].getAsObject()->getString("kernel") ==
        llvm::Optional<llvm::StringRef>("ref_fully_connected_i8"));
  CHECK((*Ops)[2].getAsObject()->getString("kernel") !=
        llvm::Optional<llvm::StringRef>("ref_fully_connected_i8"));
}
