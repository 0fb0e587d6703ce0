//===- MdlaCompileTest.cpp - What `accelgen compile --target mdlaX.Y` writes
//===//
//
// For models that exercise the accelerator's part differently (kws: fused
// groups and a 16C pool; resnet8: residual ADDs, several layers per
// subgraph; hello_world: nothing on the accelerator) at every MDLA version:
// the files, report.json's placement, subgraphs and cycles against the
// partition, and sources that compile without a warning under `-std=c99 -O2
// -Wall -Wextra -Werror -pedantic` with gcc and clang-14, with and without
// the trace hook (model.c, which alone reads it).
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"
#include "ProgramTestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <set>

using namespace accelgen;
using namespace accelgen::e2e;

namespace {

const char *const StrictFlags[] = {"-std=c99", "-O2",       "-Wall", "-Wextra",
                                   "-Werror",  "-pedantic", "-c"};

std::set<std::string> filesIn(const std::string &Dir) {
  std::set<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Names.insert(llvm::sys::path::filename(It->path()).str());
  return Names;
}

/// Compiles every .c file of \p Dir (or only \p Only) strictly with
/// \p Compiler (and \p Extra); a warning fails the test.
void compileStrict(llvm::StringRef Compiler, const std::string &Dir,
                   const std::vector<std::string> &Extra,
                   llvm::StringRef Only = "") {
  auto CC = llvm::sys::findProgramByName(Compiler);
  REQUIRE_MESSAGE(bool(CC), Compiler.str() << " is not installed");
  test::TempDir Obj;
  for (const std::string &File : filesIn(Dir)) {
    if (!llvm::StringRef(File).endswith(".c") || (!Only.empty() && File != Only))
      continue;
    std::vector<std::string> Args(std::begin(StrictFlags),
                                  std::end(StrictFlags));
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    Args.insert(Args.end(),
                {"-I", Dir, pathJoin(Dir, File), "-o", Obj.file(File + ".o")});
    test::RunResult R = test::runProgram(*CC, Args, 280);
    CHECK_MESSAGE(R.ExitCode == 0, Compiler.str()
                                       << " " << File << ": " << R.Stderr
                                       << R.ErrorMessage);
    CHECK_MESSAGE(R.Stderr.empty(), Compiler.str()
                                        << " " << File << ": " << R.Stderr);
  }
}

std::string text(llvm::Optional<llvm::StringRef> S) {
  return S ? S->str() : std::string("(missing)");
}

int64_t integer(llvm::Optional<int64_t> I) { return I ? *I : INT64_MIN; }

void checkCompiled(const std::string &Model) {
  requireSharedDir();
  const ir::Graph G = importGraph(Model);
  for (const auto &[Label, Version] : test::mdlaVersions()) {
    // A structured binding cannot be captured (the macro's lambda).
    const auto &LabelRef = Label;
    INFO(Model << " " << LabelRef);
    const program::AcceleratedModel M = test::accelerate(G, Version);
    test::TempDir Out;
    test::RunResult R = runAccelgen({"compile", modelPath(Model), "--target",
                                     Label, "-o", Out.path(), "--main"});
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);

    const std::set<std::string> Files = filesIn(Out.path());
    const bool Offloads = !M.Prog.Subgraphs.empty();
    CHECK(Files.count("model.c"));
    CHECK(Files.count("main.c"));
    CHECK(Files.count("accel_functional.c") == (Offloads ? 1u : 0u));
    CHECK(Files.count("accel_functional.h") == (Offloads ? 1u : 0u));
    const std::string ModelC = test::readFileText(Out.file("model.c"));
    CHECK((ModelC.find("accel_program") != std::string::npos) == Offloads);
    CHECK(ModelC.find("for target " + Label) != std::string::npos);

    // report.json: every operator placed as the partition says.
    auto Report =
        llvm::json::parse(test::readFileText(Out.file("report.json")));
    REQUIRE(bool(Report));
    const llvm::json::Object &Root = *Report->getAsObject();
    CHECK(text(Root.getString("target")) == Label);
    const llvm::json::Object *Acc = Root.getObject("accelerator");
    REQUIRE(Acc);
    CHECK(integer(Acc->getInteger("subgraph_count")) ==
          static_cast<int64_t>(M.Partition.Subgraphs.size()));
    CHECK(Acc->getNumber("estimated_cycles").getValueOr(-1) ==
          doctest::Approx(M.Partition.acceleratorCycles()));
    std::map<int64_t, int32_t> SubgraphOf;
    for (const partition::PlacedOp &P : M.Partition.Ops)
      for (int64_t S : P.Sources)
        SubgraphOf[S] =
            P.Placement == partition::Device::Accelerator ? P.Subgraph : -1;
    const llvm::json::Array *Ops = Root.getArray("operators");
    REQUIRE(Ops);
    REQUIRE(Ops->size() == G.Operators.size());
    int64_t Offloaded = 0;
    for (const llvm::json::Value &V : *Ops) {
      const llvm::json::Object &O = *V.getAsObject();
      const int64_t Source = *O.getInteger("source_index");
      const int32_t Subgraph = SubgraphOf.at(Source);
      CHECK(integer(O.getInteger("subgraph")) == Subgraph);
      CHECK(text(O.getString("device")) ==
            (Subgraph >= 0 ? "accelerator" : "cpu"));
      CHECK(text(O.getString("type")) == G.Operators[Source].Type);
      Offloaded += Subgraph >= 0;
    }
    CHECK(integer(Acc->getInteger("operators_offloaded")) == Offloaded);

    for (const char *CC : {"gcc", "clang-14"}) {
      compileStrict(CC, Out.path(), {});
      compileStrict(CC, Out.path(), {"-DMODEL_TRACE"}, "model.c");
    }
  }
}

} // namespace

TEST_CASE("compile --target mdla: mlperf_tiny_kws_dscnn_int8") {
  checkCompiled("mlperf_tiny_kws_dscnn_int8");
}
TEST_CASE("compile --target mdla: mlperf_tiny_ic_resnet8_int8") {
  checkCompiled("mlperf_tiny_ic_resnet8_int8");
}
TEST_CASE("compile --target mdla: tflm_hello_world_int8") {
  checkCompiled("tflm_hello_world_int8");
}

TEST_CASE("compile --target mdla: errors") {
  requireSharedDir();
  test::TempDir Out;
  test::RunResult R =
      runAccelgen({"compile", modelPath("tflm_hello_world_int8"), "--target",
                   "mdla4.0", "-o", Out.file("x")});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("unknown target 'mdla4.0' (targets: " +
                      targetLabelList() + ")") != std::string::npos);
  CHECK(R.Stderr.find("mdla1.5, mdla2.0, mdla3.0") != std::string::npos);
}
