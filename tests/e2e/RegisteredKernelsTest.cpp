//===- RegisteredKernelsTest.cpp - Kernel families added at run time ------===//
//
// A kernel family registered at run time (kernels::registerKernelFamily, as
// a plugin does) for an operator the reference kernels lack: its builder
// fills DynamicParams, the C emitter prints them (scalars, a fixed array, a
// pointer field's own array), copies the family's files and calls its
// function; the program is built with gcc and run, and its output is the
// operator's arithmetic computed here. Then what the registry refuses, and
// the functional model's refusal of a family it was not compiled with. Its
// operator, being no TensorFlow Lite builtin, is a CUSTOM operator in a
// model: written and read back with its attributes as FlexBuffer options.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "emit/ModelEmitter.h"
#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "kernels/KernelParams.h"
#include "kernels/OpContext.h"
#include "program/DeviceLimits.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

// TEST_CLAMP_OFFSET: output = clamp(input + offsets[channel], lo, hi), int8,
// with the offsets a constant operand folded into the parameters.
const char *const Header = R"c(#ifndef TEST_CLAMP_OFFSET_H
#define TEST_CLAMP_OFFSET_H
#include <stdint.h>

typedef struct test_clamp_offset_params {
  int32_t lo;
  int32_t hi;
  int32_t channels;
  const int32_t *offsets;
  int64_t window[2];
} test_clamp_offset_params;

void test_clamp_offset_i8(const test_clamp_offset_params *params,
                          int32_t count, const int8_t *input, int8_t *output);
#endif
)c";

const char *const Source = R"c(#include "test_clamp_offset.h"

void test_clamp_offset_i8(const test_clamp_offset_params *params,
                          int32_t count, const int8_t *input, int8_t *output) {
  int32_t i;
  for (i = 0; i < count; ++i) {
    int32_t v = input[i] + params->offsets[i % params->channels];
    if (v < params->window[0])
      v = (int32_t)params->window[0];
    if (v > params->window[1])
      v = (int32_t)params->window[1];
    output[i] = (int8_t)v;
  }
}
)c";

llvm::Expected<kernels::KernelCall>
clampOffsetOp(const kernels::detail::OpContext &Ctx) {
  ACCELGEN_TRY(In, Ctx.input(0));
  ACCELGEN_TRY(Offsets, Ctx.input(1));
  ACCELGEN_TRY(Out, Ctx.output());
  if (In->Type != ir::DType::I8 || Out->Type != ir::DType::I8)
    return Ctx.error("its kernel takes int8 only");
  ACCELGEN_TRY(Values, Ctx.constInts(*Offsets, "offsets"));
  const int64_t Channels = In->Shape.empty() ? 1 : In->Shape.back();
  if (static_cast<int64_t>(Values.size()) != Channels)
    return Ctx.error("one offset per channel");
  const int64_t Lo = Ctx.attr("lo", -128), Hi = Ctx.attr("hi", 127);
  kernels::DynamicParams P = kernels::DynamicParams::of(Ctx.family());
  P.set("lo", {Lo});
  P.set("hi", {Hi});
  P.set("channels", {Channels});
  P.set("offsets", Values);
  P.set("window", {Lo, Hi});
  return kernels::detail::makeCall(std::move(P), {Ctx.op().input(0)});
}

kernels::KernelFamilyRegistration registration() {
  using kernels::ArgKind;
  kernels::KernelFamilyRegistration R;
  R.Family = {"test_clamp_offset",
              "test_clamp_offset_params",
              "test_clamp_offset.h",
              /*ByValue=*/false,
              /*MayAlias=*/false,
              {{ArgKind::Params, -1, "params"},
               {ArgKind::Count, -1, "count"},
               {ArgKind::Data, 0, "input"},
               {ArgKind::Output, -1, "output"}},
              {{"lo", "int32_t", 0, false},
               {"hi", "int32_t", 0, false},
               {"channels", "int32_t", 0, false},
               {"offsets", "int32_t", 0, true},
               {"window", "int64_t", 2, false}}};
  R.Functions = {{"test_clamp_offset_i8",
                  nullptr,
                  ir::DType::I8,
                  ir::DType::I8,
                  "",
                  {ir::DType::I8, std::nullopt, std::nullopt},
                  ir::DType::I8}};
  R.Rows = {{"TEST_CLAMP_OFFSET", "test_clamp_offset_i8"}};
  R.Builder = &clampOffsetOp;
  R.Files = {{"test_clamp_offset.h", Header}, {"test_clamp_offset.c", Source}};
  R.Origin = "the test's registration";
  return R;
}

/// Registers the family once for the whole program.
void registerOnce() {
  static const bool Done = [] {
    llvm::Error E = kernels::registerKernelFamily(registration());
    REQUIRE_MESSAGE(!E, llvm::toString(std::move(E)));
    return true;
  }();
  (void)Done;
}

/// input int8 [1, 2, 2, 3] -> TEST_CLAMP_OFFSET(offsets) -> output.
ir::Graph clampGraph(const std::vector<int32_t> &Offsets, int64_t Lo,
                     int64_t Hi) {
  ir::Graph G;
  G.Name = "main";
  ir::Tensor In;
  In.Name = "input";
  In.Shape = {1, 2, 2, 3};
  In.Type = ir::DType::I8;
  In.Quant = ir::QuantParams{{0.5f}, {0}, 0};
  ir::Tensor Off;
  Off.Name = "offsets";
  Off.Shape = {static_cast<int32_t>(Offsets.size())};
  Off.Type = ir::DType::I32;
  Off.IsConstant = true;
  Off.Data.resize(Offsets.size() * 4);
  std::memcpy(Off.Data.data(), Offsets.data(), Off.Data.size());
  ir::Tensor Out = In;
  Out.Name = "output";
  G.Tensors = {In, Off, Out};
  ir::Operator Op;
  Op.Type = "TEST_CLAMP_OFFSET";
  Op.Inputs = {0, 1};
  Op.Outputs = {2};
  Op.Attrs["lo"] = Lo;
  Op.Attrs["hi"] = Hi;
  G.Operators = {Op};
  G.Inputs = {0};
  G.Outputs = {2};
  return G;
}

} // namespace

TEST_CASE("a kernel family registered at run time is emitted, built and run") {
  registerOnce();
  const std::vector<int32_t> Offsets = {100, -3, -100};
  const int64_t Lo = -20, Hi = 35;
  const ir::Graph G = clampGraph(Offsets, Lo, Hi);
  auto Call = kernels::computeKernelCall(G, G.Operators[0]);
  REQUIRE_MESSAGE(bool(Call), llvm::toString(Call.takeError()));
  CHECK(Call->Function == "test_clamp_offset_i8");
  CHECK(kernels::familyOf(Call->Params).Name ==
        llvm::StringRef("test_clamp_offset"));

  test::TempDir Dir, In, Out;
  const EmittedProgram P = emitProgram(G, "clamp", Dir.path());
  const std::set<std::string> &Names = P.Files;
  // The family's files, each with a line naming where it came from.
  REQUIRE(Names.count("test_clamp_offset.h"));
  REQUIRE(Names.count("test_clamp_offset.c"));
  CHECK(llvm::StringRef(test::readFileText(Dir.file("test_clamp_offset.c")))
            .startswith("/* Copied by accelgen from the kernels of the "
                        "test's registration (test_clamp_offset.c). */\n"));
  // The parameters as printed: scalars, the fixed array, the pointer
  // field's own array.
  const std::string ModelC = test::readFileText(Dir.file("model.c"));
  CHECK(ModelC.find("#include \"test_clamp_offset.h\"") != std::string::npos);
  CHECK(ModelC.find(".lo = -20,") != std::string::npos);
  CHECK(ModelC.find(".channels = 3,") != std::string::npos);
  CHECK(ModelC.find("static const int32_t op0_offsets[3] = {\n    100, -3, "
                    "-100\n};") != std::string::npos);
  CHECK(ModelC.find(".offsets = op0_offsets,") != std::string::npos);
  CHECK(ModelC.find("test_clamp_offset_i8(&op0_params, 12, ") !=
        std::string::npos);

  std::vector<uint8_t> X(12);
  for (size_t I = 0; I < X.size(); ++I)
    X[I] = static_cast<uint8_t>(static_cast<int8_t>(I * 23 - 128));
  test::writeFileBytes(In.file("input_0.bin"), X);
  buildAndRun("gcc", P.Main, P.Extra, {In.path(), Out.path()});
  std::vector<uint8_t> Want(12);
  for (size_t I = 0; I < X.size(); ++I) {
    const int64_t V = static_cast<int8_t>(X[I]) + Offsets[I % 3];
    Want[I] = static_cast<uint8_t>(static_cast<int8_t>(std::clamp(V, Lo, Hi)));
  }
  CHECK(test::readFileBytes(Out.file("output_0.bin")) == Want);

  // An emitted functional model runs a registered family from the kernel
  // table rows its registration brings (tests/external's vend target); this
  // one brings none, so an accelerator program cannot take the operator,
  // and says why.
  std::vector<target::Rejection> Why;
  CHECK_FALSE(program::checkDeviceLimits(G, G.Operators[0], Why));
  REQUIRE(Why.size() == 1);
  CHECK(Why[0].Message ==
        "the accelerator's functional model cannot run it: its kernel family "
        "is registered at run time without rows for the functional model "
        "(test_clamp_offset_i8)");
}

TEST_CASE("what the kernel family registry refuses") {
  registerOnce();
  auto Refused = [](kernels::KernelFamilyRegistration R) {
    llvm::Error E = kernels::registerKernelFamily(std::move(R));
    REQUIRE(bool(E));
    return llvm::toString(std::move(E));
  };
  const std::string Head =
      "kernel family 'test_clamp_offset' of the test's registration: ";
  // Registered already.
  CHECK(Refused(registration()) ==
        Head + "the test's registration already declares "
               "test_clamp_offset_params");
  kernels::KernelFamilyRegistration R = registration();
  R.Family.Name = "other";
  R.Family.Struct = "ref_conv2d_params";
  CHECK(Refused(R) == "kernel family 'other' of the test's registration: the "
                      "reference kernels already declare ref_conv2d_params");
  // A fresh family for an operator the reference kernels compute.
  auto Fresh = [] {
    kernels::KernelFamilyRegistration F = registration();
    F.Family.Name = "fresh";
    F.Family.Struct = "fresh_params";
    F.Functions[0].Name = "fresh_i8";
    F.Rows = {{"TEST_FRESH", "fresh_i8"}};
    F.Files = {{"test_clamp_offset.h", Header}};
    F.Files[0].first = "fresh.h";
    F.Family.Header = "fresh.h";
    return F;
  };
  const std::string Fh = "kernel family 'fresh' of the test's registration: ";
  R = Fresh();
  R.Rows = {{"CONV_2D", "fresh_i8"}};
  CHECK(Refused(R) ==
        Fh + "operator CONV_2D already runs with kernel family 'conv2d'");
  R = Fresh();
  R.Rows = {{"TEST_CLAMP_OFFSET", "fresh_i8"}};
  CHECK(Refused(R) == Fh + "operator TEST_CLAMP_OFFSET already runs with "
                           "kernel family 'test_clamp_offset'");
  R = Fresh();
  R.Rows = {{"TEST_FRESH", "fresh_u8"}};
  CHECK(Refused(R) == Fh + "a row names function 'fresh_u8', which it does "
                           "not declare");
  R = Fresh();
  R.Functions[0].Name = "ref_relu_i8";
  CHECK(Refused(R) == Fh + "function ref_relu_i8 is declared already");
  R = Fresh();
  R.Family.Fields[0].CType = "long";
  CHECK(Refused(R) == Fh + "field 'lo' has no name or an unknown C type "
                           "'long'");
  R = Fresh();
  R.Family.Header = "missing.h";
  CHECK(Refused(R) == Fh + "its header missing.h is not among its files");
  R = Fresh();
  R.Files.push_back({"test_clamp_offset.c", Source});
  CHECK(Refused(R) == Fh + "file test_clamp_offset.c is brought already");
  R = Fresh();
  R.Family.Args.push_back({kernels::ArgKind::Scratch, -1, "scratch"});
  CHECK(Refused(R) == Fh + "writes several results or takes scratch memory, "
                           "which registered families cannot yet");
  R = Fresh();
  R.Family.Args.erase(R.Family.Args.begin());
  CHECK(Refused(R) ==
        Fh + "needs exactly one parameters argument and one output");
  R = Fresh();
  R.Builder = nullptr;
  CHECK(Refused(R) == Fh + "has no builder");
  // Families registered together come or go together: a consistent one
  // before a refused one is removed again, operator and all.
  {
    std::vector<kernels::KernelFamilyRegistration> Both;
    Both.push_back(Fresh());
    Both.push_back(Fresh());
    Both[1].Family.Name = "second";
    Both[1].Family.Struct = "second_params";
    Both[1].Functions[0].Name = "second_i8";
    Both[1].Rows = {{"CONV_2D", "second_i8"}};
    Both[1].Files[0].first = "second.h";
    Both[1].Family.Header = "second.h";
    llvm::Error E = kernels::registerKernelFamilies(std::move(Both));
    REQUIRE(bool(E));
    CHECK(llvm::toString(std::move(E)) ==
          "kernel family 'second' of the test's registration: operator "
          "CONV_2D already runs with kernel family 'conv2d'");
    CHECK_FALSE(kernels::findRegisteredFamily("fresh"));
    CHECK_FALSE(kernels::registeredKernelFile("fresh.h"));
    CHECK_FALSE(ir::isCustomOperator("TEST_FRESH"));
  }
  // Nothing refused was registered: only the first family is.
  std::vector<const kernels::KernelFamilyInfo *> All =
      kernels::registeredFamilies();
  REQUIRE(All.size() == 1);
  CHECK(All[0]->Name == llvm::StringRef("test_clamp_offset"));
  CHECK_FALSE(kernels::findKernelFunction("fresh_i8"));

  // And a fresh one that is consistent is taken (its operator's row was
  // removed with the family refused with it).
  CHECK_FALSE(bool(kernels::registerKernelFamily(Fresh())));
  CHECK(kernels::registeredFamilies().size() == 2);
}

TEST_CASE("a registered family's operator is a custom operator of a model") {
  registerOnce();
  CHECK(ir::isCustomOperator("TEST_CLAMP_OFFSET"));
  CHECK_FALSE(ir::isCustomOperator("CONV_2D"));
  ir::Model M;
  M.Graphs.push_back(clampGraph({1, 2, 3}, -7, 9));
  M.main().Operators[0].Attrs["name"] = std::string("clamp");
  M.main().Operators[0].Attrs["on"] = true;
  M.main().Operators[0].Attrs["scale"] = 0.25;
  M.main().Operators[0].Attrs["axes"] = std::vector<int64_t>{1, -2};
  const std::vector<uint8_t> Bytes = tflite::writeModel(M);
  auto Read = tflite::importModel(Bytes);
  REQUIRE_MESSAGE(bool(Read), llvm::toString(Read.takeError()));
  const ir::Operator &Op = Read->Model->main().Operators.at(0);
  CHECK(Op.Type == "TEST_CLAMP_OFFSET");
  CHECK(Op.CustomCode == "TEST_CLAMP_OFFSET");
  CHECK_FALSE(Op.Opaque);
  CHECK(Op.Attrs == M.main().Operators[0].Attrs);
  // Read back, it runs as it was built.
  auto Call = kernels::computeKernelCall(Read->Model->main(), Op);
  REQUIRE_MESSAGE(bool(Call), llvm::toString(Call.takeError()));
  CHECK(Call->Function == "test_clamp_offset_i8");
  // Options that are not a map of such values are a located error.
  ir::Model Bad = M;
  Bad.main().Operators[0].Attrs.clear();
  Bad.main().Operators[0].RawOptions = {1, 2, 3};
  auto Refused = tflite::importModel(tflite::writeModel(Bad));
  REQUIRE_FALSE(bool(Refused));
  CHECK(llvm::toString(Refused.takeError()) ==
        "graph 0: operator 0 (TEST_CLAMP_OFFSET): its custom options are "
        "not a "
        "well-formed FlexBuffer");
}
