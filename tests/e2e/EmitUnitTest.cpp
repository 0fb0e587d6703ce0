//===- EmitUnitTest.cpp - The C emitter's pieces on their own -------------===//
//
// Literals read back bit for bit by real C compilers (floats, doubles with
// infinities, FLT_MAX, subnormals and negative zero; integers at the edges
// of their types), comment and identifier safety, the layer-dump order, and
// a float graph built here (FULLY_CONNECTED with RELU6, then ADD with no
// activation, so the float clamps are FLT_MAX) emitted, built and run.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "emit/CLiteral.h"
#include "emit/ModelEmitter.h"
#include "ir/GraphBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

uint32_t bitsOf(float F) {
  uint32_t B;
  std::memcpy(&B, &F, sizeof(B));
  return B;
}
uint64_t bitsOf(double D) {
  uint64_t B;
  std::memcpy(&B, &D, sizeof(B));
  return B;
}

/// \p V as \p Digits lowercase hex digits, as the C programs print it.
std::string hexBits(uint64_t V, int Digits) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%0*llx", Digits,
                static_cast<unsigned long long>(V));
  return Buf;
}

} // namespace

TEST_CASE("float and double literals read back exactly") {
  std::vector<float> Floats = {0.0f,
                               -0.0f,
                               0.1f,
                               1.0f / 3.0f,
                               1.0f,
                               -2.5f,
                               16777216.0f,
                               1234567.875f,
                               FLT_MAX,
                               -FLT_MAX,
                               FLT_MIN,
                               std::numeric_limits<float>::denorm_min(),
                               -std::numeric_limits<float>::denorm_min(),
                               1e-40f,
                               3e38f,
                               std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity()};
  std::vector<double> Doubles = {0.0,
                                 -0.0,
                                 0.1,
                                 1.0 / 3.0,
                                 DBL_MAX,
                                 -DBL_MAX,
                                 DBL_MIN,
                                 std::numeric_limits<double>::denorm_min(),
                                 0.00390625,
                                 1e300,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity()};
  // And random finite bit patterns.
  std::mt19937 Rng(12345);
  while (Floats.size() < 400) {
    uint32_t B = Rng();
    float F;
    std::memcpy(&F, &B, sizeof(F));
    if (std::isfinite(F))
      Floats.push_back(F);
  }
  while (Doubles.size() < 400) {
    uint64_t B = (uint64_t(Rng()) << 32) | Rng();
    double D;
    std::memcpy(&D, &B, sizeof(D));
    if (std::isfinite(D))
      Doubles.push_back(D);
  }

  std::string Src;
  llvm::raw_string_ostream OS(Src);
  OS << "#include <math.h>\n#include <stdio.h>\n#include <string.h>\n"
        "#include <stdint.h>\n\nstatic const float f[] = {\n";
  for (float F : Floats)
    OS << "  " << emit::floatLiteral(F) << ",\n";
  OS << "};\nstatic const double d[] = {\n";
  for (double D : Doubles)
    OS << "  " << emit::doubleLiteral(D) << ",\n";
  OS << "};\nstatic const float n = " << emit::floatLiteral(NAN) << ";\n"
     << R"(
int main(void) {
  size_t i;
  for (i = 0; i < sizeof f / sizeof f[0]; ++i) {
    uint32_t b;
    memcpy(&b, &f[i], sizeof b);
    printf("%08lx\n", (unsigned long)b);
  }
  for (i = 0; i < sizeof d / sizeof d[0]; ++i) {
    uint64_t b;
    memcpy(&b, &d[i], sizeof b);
    printf("%08lx%08lx\n", (unsigned long)(b >> 32),
           (unsigned long)(b & 0xffffffffu));
  }
  printf("%s\n", n != n ? "nan" : "number");
  return 0;
}
)";
  OS.flush();
  std::string Want;
  for (float F : Floats)
    Want += hexBits(bitsOf(F), 8) + "\n";
  for (double D : Doubles)
    Want += hexBits(bitsOf(D), 16) + "\n";
  Want += "nan\n";
  for (const char *CC : {"gcc", "clang-14"}) {
    INFO(CC);
    CHECK(buildAndRun(CC, Src) == Want);
  }
}

TEST_CASE("integer literals at the edges of their types") {
  CHECK(emit::intLiteral(-5) == "-5");
  CHECK(emit::intLiteral(INT32_MIN) == "(-2147483647 - 1)");
  CHECK(emit::intLiteral(INT64_MIN) == "(-INT64_C(9223372036854775807) - 1)");
  CHECK(emit::unsignedLiteral(7) == "7u");
  const std::vector<int64_t> Values = {0,
                                       -1,
                                       INT32_MIN,
                                       INT32_MAX,
                                       INT64_MIN,
                                       INT64_MAX,
                                       int64_t(INT32_MAX) + 1,
                                       int64_t(INT32_MIN) - 1};
  std::string Src = "#include <stdint.h>\n#include <stdio.h>\n"
                    "static const int64_t v[] = {";
  std::string Want;
  for (int64_t V : Values) {
    Src += emit::intLiteral(V) + ", ";
    Want += std::to_string(V) + "\n";
  }
  Src += "};\nstatic const int32_t m = " + emit::intLiteral(INT32_MIN) +
         ";\nstatic const uint32_t u = " + emit::unsignedLiteral(UINT32_MAX) +
         ";\n"
         "int main(void) {\n  size_t i;\n"
         "  for (i = 0; i < sizeof v / sizeof v[0]; ++i)\n"
         "    printf(\"%lld\\n\", (long long)v[i]);\n"
         "  printf(\"%ld %lu\\n\", (long)m, (unsigned long)u);\n"
         "  return 0;\n}\n";
  Want += std::to_string(INT32_MIN) + " " + std::to_string(UINT32_MAX) + "\n";
  for (const char *CC : {"gcc", "clang-14"}) {
    INFO(CC);
    CHECK(buildAndRun(CC, Src) == Want);
  }
}

TEST_CASE("names in comments and identifiers") {
  CHECK(emit::commentSafe("a*/b/*c") == "a* /b/ *c");
  CHECK(emit::commentSafe("tab\there\xff") == "tab?here?");
  CHECK(emit::isCIdentifier("model"));
  CHECK(emit::isCIdentifier("kws_v2"));
  CHECK_FALSE(emit::isCIdentifier(""));
  CHECK_FALSE(emit::isCIdentifier("_model"));
  CHECK_FALSE(emit::isCIdentifier("2model"));
  CHECK_FALSE(emit::isCIdentifier("my-model"));
  CHECK(emit::modelNameProblem("model").empty());
  CHECK(emit::modelNameProblem("accelerated").empty());
  CHECK(emit::modelNameProblem("reference_net").empty());
  for (const char *Taken : {"accel", "ACCEL", "ref", "ref_x", "cpu", "arm_net",
                            "cnn"})
    CHECK_FALSE(emit::modelNameProblem(Taken).empty());
}

namespace {

/// A tensor of \p T with \p Shape.
ir::Tensor tensor(const char *Name, std::vector<int32_t> Shape, ir::DType T) {
  ir::Tensor X;
  X.Name = Name;
  X.Shape = std::move(Shape);
  X.Type = T;
  return X;
}

/// A constant float tensor.
ir::Tensor floats(const char *Name, std::vector<int32_t> Shape,
                  const std::vector<float> &V) {
  ir::Tensor X = tensor(Name, std::move(Shape), ir::DType::F32);
  X.IsConstant = true;
  X.Data.resize(V.size() * 4);
  std::memcpy(X.Data.data(), V.data(), X.Data.size());
  return X;
}

/// input [1, 4] -> FULLY_CONNECTED (3 units, RELU6) -> ADD constant -> output.
ir::Graph floatGraph() {
  ir::Graph G;
  G.Name = "main";
  G.Tensors = {
      tensor("input", {1, 4}, ir::DType::F32),
      floats("weights", {3, 4}, {1, 2, 0.5f, -1, -3, 0, 0.25f, 1, 2, 2, 2, 2}),
      floats("bias", {3}, {0.5f, -1, 0}),
      tensor("fc", {1, 3}, ir::DType::F32),
      floats("offset", {1, 3}, {-0.125f, 1e-3f, 1e30f}),
      tensor("output", {1, 3}, ir::DType::F32)};
  ir::Operator FC;
  FC.Type = "FULLY_CONNECTED";
  FC.Inputs = {0, 1, 2};
  FC.Outputs = {3};
  FC.Attrs["fused_activation"] = std::string("RELU6");
  FC.Attrs["keep_num_dims"] = false;
  FC.Attrs["weights_format"] = int64_t(0);
  ir::Operator Add;
  Add.Type = "ADD";
  Add.Inputs = {3, 4};
  Add.Outputs = {5};
  Add.Attrs["fused_activation"] = std::string("NONE");
  G.Operators = {FC, Add};
  G.Inputs = {0};
  G.Outputs = {5};
  return G;
}

} // namespace

TEST_CASE("a float graph, emitted, built and run") {
  const ir::Graph G = floatGraph();
  test::TempDir Dir, In, Out;
  const EmittedProgram P = emitProgram(G, "tiny", Dir.path());
  const std::string ModelC = test::readFileText(Dir.file("model.c"));
  // The fused clamps as printed: RELU6, then none at all.
  CHECK(ModelC.find(".act_max_f = 6.0f") != std::string::npos);
  CHECK(ModelC.find("3.40282347e+38f") != std::string::npos);
  CHECK(ModelC.find("1.00000002e+30f") != std::string::npos);

  const std::vector<float> X = {1.5f, -2, 4, 0.75f};
  std::vector<uint8_t> XBytes(16);
  std::memcpy(XBytes.data(), X.data(), 16);
  test::writeFileBytes(In.file("input_0.bin"), XBytes);
  // fc = relu6(W x + b): [1.5-4+2-0.75+0.5, -4.5+0+1+0.75-1, 3-4+8+1.5+0]
  //                    = [-0.75, -3.75, 8.5] -> [0, 0, 6]; plus the offset.
  const std::vector<float> Want = {0.0f + -0.125f, 0.0f + 1e-3f, 6.0f + 1e30f};
  for (const char *CC : {"gcc", "clang-14"}) {
    INFO(CC);
    std::vector<std::string> Extra = P.Extra;
    Extra.push_back("-DTINY_TRACE");
    buildAndRun(CC, P.Main, Extra, {In.path(), Out.path()});
    std::vector<uint8_t> Got = test::readFileBytes(Out.file("output_0.bin"));
    REQUIRE(Got.size() == 12);
    std::vector<float> Y(3);
    std::memcpy(Y.data(), Got.data(), 12);
    CHECK(Y == Want);
  }
}

TEST_CASE("the layer dump order: outputs, then operator outputs, once each") {
  ir::Graph G = floatGraph();
  CHECK(emit::layerDumpTensors(G) == std::vector<int32_t>{5, 3});
  // A second graph output that is also an intermediate tensor.
  G.Outputs = {5, 3};
  CHECK(emit::layerDumpTensors(G) == std::vector<int32_t>{5, 3});
  G.Outputs = {3};
  CHECK(emit::layerDumpTensors(G) == std::vector<int32_t>{3, 5});
}

TEST_CASE("bad names and malformed graphs are refused") {
  emit::EmitOptions Opts;
  Opts.Target = "ref";
  Opts.Name = "no spaces";
  auto M = emit::emitModel(floatGraph(), Opts);
  REQUIRE_FALSE(bool(M));
  CHECK(llvm::StringRef(llvm::toString(M.takeError()))
            .startswith("the name 'no spaces' is not a C identifier"));
  Opts.Name = "model";
  ir::Graph Bad = floatGraph();
  Bad.Operators[1].Inputs[1] = 42;
  M = emit::emitModel(Bad, Opts);
  REQUIRE_FALSE(bool(M));
  CHECK(llvm::StringRef(llvm::toString(M.takeError()))
            .startswith("the graph is malformed: "));
  // The label names the target in banners and the report: required.
  Opts.Target.clear();
  M = emit::emitModel(floatGraph(), Opts);
  REQUIRE_FALSE(bool(M));
  CHECK(llvm::toString(M.takeError()) == "no target label to emit for");
}

TEST_CASE("a model without inputs: main.c builds with every warning an error") {
  // RELU of a constant: the program reads no input file, so it must not
  // define the reader (an unused static function fails -Werror).
  ir::GraphBuilder B;
  const std::vector<int8_t> Values = {-100, -6, -5, 0, 7, 127};
  const int32_t C = B.constant(ir::DType::I8, {6}, Values, 0.5f, -5);
  const int32_t Out = B.tensor(ir::DType::I8, {6}, 0.5f, -5);
  B.op("RELU", {C}, {Out});
  B.G.Name = "main";
  B.outputs({Out});
  emit::EmitOptions Opts;
  Opts.Target = "ref";
  Opts.Name = "constant";
  Opts.ModelFileName = "constant.tflite";
  Opts.GeneratorVersion = test::accelgenVersion();
  test::TempDir Src, In, Output;
  std::vector<std::string> Args = {"-std=c99", "-Wall", "-Wextra",
                                   "-pedantic", "-Werror"};
  for (const std::string &Source : e2e::writeProgram(B.G, Opts, Src))
    Args.push_back(Source);
  Args.insert(Args.end(), {"-o", Src.file("prog"), "-lm"});
  auto CC = llvm::sys::findProgramByName("gcc");
  REQUIRE_MESSAGE(bool(CC), "gcc is not installed");
  test::RunResult Built = test::runProgram(*CC, Args, 120);
  REQUIRE_MESSAGE(Built.ExitCode == 0, Built.Stderr);
  test::RunResult Ran =
      test::runProgram(Src.file("prog"), {In.path(), Output.path()}, 60);
  REQUIRE_MESSAGE(Ran.ExitCode == 0, Ran.Stderr);
  // Same scale and zero point in and out: RELU keeps what is at or above the
  // zero point and raises the rest to it.
  std::vector<uint8_t> Want;
  for (int8_t V : Values)
    Want.push_back(uint8_t(int8_t(std::max<int>(V, -5))));
  CHECK(test::readFileBytes(Output.file("output_0.bin")) == Want);
}

TEST_CASE("invoke() runs the operators in parts of at most 256") {
  // One function of 20,000 calls took gcc five minutes and 1.6 GB.
  ir::GraphBuilder B;
  const int32_t X = B.tensor(ir::DType::I8, {1, 8}, 0.5f, 0);
  int32_t In = X;
  for (int I = 0; I < 600; ++I) {
    const int32_t Y = B.tensor(ir::DType::I8, {1, 8}, 0.5f, 0);
    B.op("RELU", {In}, {Y});
    In = Y;
  }
  B.inputs({X}).outputs({In});
  B.G.Name = "main";
  emit::EmitOptions Opts;
  Opts.Target = "ref";
  Opts.Name = "chain";
  Opts.GeneratorVersion = test::accelgenVersion();
  auto M = emit::emitModel(B.G, Opts);
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  const auto It = llvm::find_if(
      M->Files, [](const emit::EmittedFile &F) { return F.Name == "model.c"; });
  REQUIRE(It != M->Files.end());
  const llvm::StringRef Text(It->Text);
  CHECK(Text.contains("CHAIN_PART invoke_part0(void)"));
  CHECK(Text.contains("/* Operators 0 to 255. */"));
  CHECK(Text.contains("/* Operators 256 to 511. */"));
  CHECK(Text.contains("/* Operators 512 to 599. */"));
  CHECK_FALSE(Text.contains("invoke_part3"));
  CHECK(Text.contains("#define CHAIN_PART static __attribute__((noinline)) void"));
}
