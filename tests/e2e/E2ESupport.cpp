//===- E2ESupport.cpp - Shared pieces of the end-to-end tests -------------===//
//
// ACCELGEN_E2E_CACHE_DIR (set by tests/e2e/CMakeLists.txt) keeps the
// programs `accelgen run` builds inside the build folder.
//
//===----------------------------------------------------------------------===//
#include "E2ESupport.h"

#include "cpu/CpuIsa.h"
#include "emit/ModelEmitter.h"
#include "import/TFLiteImporter.h"
#include "target/BuiltinTargets.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>

#ifndef ACCELGEN_E2E_CACHE_DIR
#error "ACCELGEN_E2E_CACHE_DIR must name the tests' program cache"
#endif

namespace accelgen {
namespace e2e {

std::string pathJoin(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

std::string modelsDir() { return pathJoin(test::sharedDir(), "models"); }
std::string vectorsDir() { return pathJoin(test::sharedDir(), "vectors"); }
std::string modelPath(llvm::StringRef Name) {
  return pathJoin(modelsDir(), (Name + ".tflite").str());
}

bool exists(llvm::StringRef Path) { return llvm::sys::fs::exists(Path); }

void requireSharedDir() {
  const std::string Index = pathJoin(modelsDir(), "MODELS.md");
  REQUIRE_MESSAGE(exists(Index),
                  "the shared conformance folder is missing: "
                      << Index
                      << " does not exist. Point the CMake cache variable "
                         "ACCELGEN_SHARED_DIR at the folder holding models/ "
                         "and vectors/.");
}

std::vector<std::string>
functionalModelLabels(llvm::ArrayRef<llvm::StringRef> Except) {
  target::registerBuiltinTargets();
  std::vector<std::string> Labels;
  for (const std::string &Name : target::TargetRegistry::names()) {
    const target::TargetInfo *T = target::TargetRegistry::get(Name);
    if (!T || !T->hasFunctionalModel() || llvm::is_contained(Except, Name))
      continue;
    for (unsigned V = 0; V < T->versions().size(); ++V)
      Labels.push_back(T->versionLabel(V));
  }
  return Labels;
}

std::string targetLabelList() {
  target::registerBuiltinTargets();
  return llvm::join(target::TargetRegistry::labels(), ", ");
}

const std::vector<std::string> &runnableModels() {
  return test::sharedModelNames();
}

const std::vector<std::string> &convolutionalModels() {
  static const std::vector<std::string> Models = {
      "mlperf_tiny_ic_resnet8_int8", "mlperf_tiny_kws_dscnn_int8",
      "mlperf_tiny_vww_mobilenetv1_025_96_int8",
      "mlperf_tiny_ad_autoencoder_int8",
      "coral_mobilenet_v2_10_224_quant_uint8"};
  return Models;
}

std::set<std::string> statelessModels() {
  std::set<std::string> Models;
  for (const std::string &M : runnableModels())
    if (!test::sharedModelHasState(M))
      Models.insert(M);
  return Models;
}

std::vector<std::string> seedDirs(llvm::StringRef Name) {
  std::vector<std::string> Seeds;
  std::error_code EC;
  const std::string Dir = pathJoin(vectorsDir(), Name);
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::filename(It->path()).startswith("seed"))
      Seeds.push_back(It->path());
  std::sort(Seeds.begin(), Seeds.end());
  return Seeds;
}

ir::Graph importGraph(llvm::StringRef Name) {
  auto R = tflite::importModelFile(modelPath(Name));
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  return R->Model->main();
}

test::RunResult runAccelgen(const std::vector<std::string> &Args) {
  return test::runProgram(test::accelgenPath(), Args, /*TimeoutSeconds=*/280);
}

test::RunResult runModel(const std::string &Model, const std::string &In,
                         const std::string &Out, bool Layers) {
  return runModelOn("ref", {}, Model, In, Out, Layers);
}

ir::Model modelOf(ir::GraphBuilder &B, const std::vector<int32_t> &Inputs,
                  const std::vector<int32_t> &Outputs) {
  B.inputs(Inputs).outputs(Outputs);
  B.G.Name = "main";
  ir::Model M;
  M.SchemaVersion = 3;
  M.Graphs.push_back(B.G);
  return M;
}

test::RunResult runModelOn(const std::string &Target,
                           const std::vector<std::string> &Extra,
                           const std::string &Model, const std::string &In,
                           const std::string &Out, bool Layers) {
  std::vector<std::string> Args = {
      "run", Model,       "--target", Target,        "--inputs",
      In,    "--outputs", Out,        "--cache-dir", ACCELGEN_E2E_CACHE_DIR};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  if (Layers)
    Args.push_back("--dump-layers");
  return runAccelgen(Args);
}

std::string describeDiff(const std::vector<uint8_t> &Got,
                         const std::vector<uint8_t> &Want, ir::DType T) {
  std::ostringstream OS;
  if (Got.size() != Want.size()) {
    OS << "size " << Got.size() << ", expected " << Want.size();
    return OS.str();
  }
  auto Value = [&](uint8_t B) {
    return T == ir::DType::I8 ? int(int8_t(B)) : int(B);
  };
  size_t Count = 0, First = 0;
  int MaxStep = 0;
  for (size_t I = 0; I < Got.size(); ++I) {
    if (Got[I] == Want[I])
      continue;
    if (Count++ == 0)
      First = I;
    MaxStep = std::max(MaxStep, std::abs(Value(Got[I]) - Value(Want[I])));
  }
  if (Count == 0)
    return "identical";
  OS << Count << " of " << Got.size() << " bytes differ, first at " << First
     << " (got " << Value(Got[First]) << ", want " << Value(Want[First]) << ")";
  if (T == ir::DType::I8 || T == ir::DType::U8)
    OS << ", largest step " << MaxStep;
  return OS.str();
}

namespace {

/// One entry of a layers/map.json.
struct LayerEntry {
  int64_t Output = -1;
  int64_t Tensor = -1;
  int64_t OpIndex = -1;
};

std::vector<LayerEntry> readLayerMap(const std::string &Path) {
  llvm::Expected<llvm::json::Value> V =
      llvm::json::parse(test::readFileText(Path));
  REQUIRE_MESSAGE(bool(V), Path << ": " << llvm::toString(V.takeError()));
  const llvm::json::Array *A = V->getAsArray();
  REQUIRE_MESSAGE(A, Path << " is not a JSON array");
  std::vector<LayerEntry> Entries;
  for (const llvm::json::Value &E : *A) {
    const llvm::json::Object *O = E.getAsObject();
    REQUIRE(O);
    LayerEntry L;
    L.Output = O->getInteger("output").getValueOr(-1);
    L.Tensor = O->getInteger("tensor").getValueOr(-1);
    L.OpIndex = O->getInteger("op_index").getValueOr(-1);
    Entries.push_back(L);
  }
  return Entries;
}

/// Checks the layer dump in \p OutDir against \p RefDir (a layers folder
/// with map.json) and reports the first diverging operator.
void checkLayers(const ir::Graph &G, const std::string &RefDir,
                 const std::string &OutDir, const std::string &Model) {
  std::vector<LayerEntry> Map = readLayerMap(pathJoin(RefDir, "map.json"));
  const std::vector<int32_t> Order = emit::layerDumpTensors(G);
  REQUIRE(Map.size() == Order.size());
  // The dump's naming is the reference's: layer k is the same tensor.
  for (size_t K = 0; K < Map.size(); ++K) {
    CHECK(Map[K].Output == static_cast<int64_t>(K));
    CHECK(Map[K].Tensor == Order[K]);
  }

  // Compare every layer; report them in execution order.
  std::map<int64_t, std::string> Diverging; // by operator index
  size_t Same = 0;
  for (const LayerEntry &L : Map) {
    const std::string Name = "output_" + std::to_string(L.Output) + ".bin";
    const std::string Got = pathJoin(pathJoin(OutDir, "layers"), Name);
    REQUIRE_MESSAGE(exists(Got), Got << " was not written");
    const auto GotBytes = test::readFileBytes(Got);
    const auto WantBytes = test::readFileBytes(pathJoin(RefDir, Name));
    if (GotBytes == WantBytes) {
      ++Same;
      continue;
    }
    const ir::Tensor &T = G.tensor(static_cast<int32_t>(L.Tensor));
    std::ostringstream OS;
    OS << "operator " << L.OpIndex << " ("
       << (L.OpIndex >= 0 ? G.Operators[L.OpIndex].Type : "none")
       << "), output tensor " << L.Tensor << " (" << ir::dtypeName(T.Type).str()
       << " " << ir::formatShape(T.Shape) << "), layers/" << Name << ": "
       << describeDiff(GotBytes, WantBytes, T.Type);
    Diverging.emplace(L.OpIndex, OS.str());
  }
  if (!Diverging.empty())
    FAIL_CHECK(Model << ": " << Diverging.size() << " of " << Map.size()
                     << " layers differ; first diverging layer: "
                     << Diverging.begin()->second);
  CHECK(Same == Map.size());
}

/// Runs every seed of an int8 model: outputs against expected_<i>.bin, and
/// seed 1's layers against \p LayersFrom's seed1/layers unless the model has
/// no layer vectors (\p CompareLayers false).
} // namespace

namespace {

/// Runs every seed of shared model \p Name (graph \p G) with \p Run, its
/// outputs against the expected ones, and with \p RefLayers seed 1's
/// layers against those.
void checkSeeds(const std::string &Name, const ir::Graph &G,
                const std::vector<std::string> &Seeds,
                const std::string &RefLayers, const RunFn &Run) {
  const bool CompareLayers = !RefLayers.empty();
  for (const std::string &Seed : Seeds) {
    const std::string SeedName = llvm::sys::path::filename(Seed).str();
    INFO(Name << " " << SeedName);
    const bool Layers = CompareLayers && SeedName == "seed1";
    test::TempDir Out;
    test::RunResult R = Run(modelPath(Name), Seed, Out.path(), Layers);
    REQUIRE_MESSAGE(R.ExitCode == 0,
                    "accelgen run failed: " << R.Stderr << R.ErrorMessage);
    CHECK(R.Stderr.find("error") == std::string::npos);
    for (size_t I = 0; I < G.Outputs.size(); ++I) {
      const std::string Want =
          pathJoin(Seed, "expected_" + std::to_string(I) + ".bin");
      REQUIRE_MESSAGE(exists(Want), Want << " is missing");
      const auto Got = test::readFileBytes(
          pathJoin(Out.path(), "output_" + std::to_string(I) + ".bin"));
      const ir::DType T = G.tensor(G.Outputs[I]).Type;
      CHECK_MESSAGE(Got == test::readFileBytes(Want),
                    "output "
                        << I << ": "
                        << describeDiff(Got, test::readFileBytes(Want), T));
    }
    if (Layers)
      checkLayers(G, RefLayers, Out.path(), Name);
  }
}

} // namespace

void checkModel(const std::string &Name, const std::string &LayersFrom,
                bool CompareLayers, const RunFn &Run) {
  requireSharedDir();
  const ir::Graph G = importGraph(Name);
  const std::vector<std::string> Seeds = seedDirs(Name);
  REQUIRE_MESSAGE(!Seeds.empty(), "no seed folders for " << Name);
  const std::string RefLayers = pathJoin(
      pathJoin(pathJoin(vectorsDir(), LayersFrom.empty() ? Name : LayersFrom),
               "seed1"),
      "layers");
  REQUIRE_MESSAGE(exists(pathJoin(RefLayers, "map.json")) == CompareLayers,
                  RefLayers << "/map.json "
                            << (CompareLayers ? "is missing" : "exists"));
  checkSeeds(Name, G, Seeds, CompareLayers ? RefLayers : "", Run);
}

void checkModelOutputs(const std::string &Name, const RunFn &Run) {
  requireSharedDir();
  const std::vector<std::string> Seeds = seedDirs(Name);
  REQUIRE_MESSAGE(!Seeds.empty(), "no seed folders for " << Name);
  checkSeeds(Name, importGraph(Name), Seeds, "", Run);
}

std::vector<std::string> writeProgram(const ir::Graph &G,
                                      const emit::EmitOptions &Opts,
                                      const test::TempDir &Dir) {
  auto M = emit::emitModel(G, Opts);
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  auto Main = emit::emitHostMain(G, Opts);
  REQUIRE_MESSAGE(bool(Main), llvm::toString(Main.takeError()));
  M->Files.push_back(*Main);
  std::vector<std::string> Sources;
  for (const emit::EmittedFile &F : M->Files) {
    test::writeFileBytes(Dir.file(F.Name),
                         llvm::arrayRefFromStringRef(llvm::StringRef(F.Text)));
    if (llvm::StringRef(F.Name).endswith(".c"))
      Sources.push_back(Dir.file(F.Name));
  }
  return Sources;
}

bool haveCortexM() {
  for (const char *Tool : {"arm-none-eabi-gcc", "qemu-system-arm", "timeout"})
    if (!llvm::sys::findProgramByName(Tool)) {
      MESSAGE("skipped: " << Tool
                          << " is not installed (scripts/setup.sh installs "
                             "gcc-arm-none-eabi, libnewlib-arm-none-eabi and "
                             "qemu-system-arm)");
      return false;
    }
  return true;
}

bool hostRuns(const std::string &Cpu) {
  llvm::Expected<cpu::CpuChoice> C = cpu::resolveCpu(Cpu);
  REQUIRE_MESSAGE(bool(C), llvm::toString(C.takeError()));
  if (cpu::hostSupports(C->Level))
    return true;
  MESSAGE("skipped: this processor lacks the "
          << cpu::isaName(C->Level).str() << " instructions of --cpu "
          << Cpu);
  return false;
}

std::optional<cpu::CpuChoice> hostCpu(const std::string &Cpu) {
  if (!hostRuns(Cpu))
    return std::nullopt;
  llvm::Expected<cpu::CpuChoice> C = cpu::resolveCpu(Cpu);
  REQUIRE_MESSAGE(bool(C), llvm::toString(C.takeError()));
  return *C;
}

void checkAgainstRef(const std::string &Name,
                     const std::vector<std::string> &Extra) {
  requireSharedDir();
  const ir::Graph G = importGraph(Name);
  for (const std::string &Seed : seedDirs(Name)) {
    INFO(Name << " " << llvm::sys::path::filename(Seed).str());
    test::TempDir Cpu, Ref;
    test::RunResult R =
        runModelOn("cpu", Extra, modelPath(Name), Seed, Cpu.path(), false);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
    R = runModel(modelPath(Name), Seed, Ref.path(), false);
    REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr << R.ErrorMessage);
    for (size_t I = 0; I < G.Outputs.size(); ++I) {
      const std::string File = "output_" + std::to_string(I) + ".bin";
      const auto Got = test::readFileBytes(pathJoin(Cpu.path(), File));
      const auto Want = test::readFileBytes(pathJoin(Ref.path(), File));
      CHECK_MESSAGE(
          Got == Want,
          "output " << I << ": "
                    << describeDiff(Got, Want, G.tensor(G.Outputs[I]).Type));
    }
  }
}

void checkCascadedOn(const std::string &Target, const std::string &Name,
                     const std::vector<std::string> &Extra) {
  checkModel(Name,
             Name == "tflm_person_detect_int8"
                 ? "tflm_person_detect_int8_qdimfix"
                 : "",
             /*CompareLayers=*/true,
             [&](const std::string &Model, const std::string &In,
                 const std::string &Out, bool Layers) {
               std::vector<std::string> Args = {"--cascade"};
               Args.insert(Args.end(), Extra.begin(), Extra.end());
               return runModelOn(Target, Args, Model, In, Out, Layers);
             });
}

int64_t smallestBudget(const std::string &Target, const std::string &Name,
                       const std::vector<std::string> &Extra) {
  test::TempDir Out;
  std::vector<std::string> Args = {"--memory-budget", "1"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  test::RunResult R = runModelOn(Target, Args, modelPath(Name),
                                 seedDirs(Name).front(), Out.path(), false);
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 1);
  // The last line (import warnings may come first).
  std::smatch M;
  static const std::regex Message(
      "error: [^:\n]*: a memory budget of 1 bytes is too small: the "
      "smallest budget that works is ([0-9]+) bytes \\(the working memory "
      "peaks at operator [0-9]+, [A-Z0-9_]+\\)\n$");
  REQUIRE(std::regex_search(R.Stderr, M, Message));
  CHECK(M.position(0) + M.length(0) == static_cast<long>(R.Stderr.size()));
  return std::stoll(M[1]);
}

llvm::json::Object compiledInTiles(const std::string &Model,
                                   const std::string &Target, int64_t Budget) {
  test::TempDir Compiled;
  test::RunResult R =
      runAccelgen({"compile", Model, "--target", Target, "-o", Compiled.path(),
                   "--memory-budget", std::to_string(Budget)});
  REQUIRE_MESSAGE(R.ExitCode == 0, R.Stderr);
  auto V = llvm::json::parse(test::readFileText(Compiled.file("report.json")));
  REQUIRE(bool(V));
  llvm::json::Object Report = std::move(*V->getAsObject());
  CHECK(Report.getObject("arena")->getInteger("bytes").getValueOr(-1) <=
        Budget);
  const llvm::json::Object &Cascading = *Report.getObject("cascading");
  const int64_t Macs = Cascading.getInteger("macs").getValueOr(0);
  const int64_t Extra = Cascading.getInteger("extra_macs").getValueOr(-1);
  CHECK(Extra > 0);
  CHECK(Extra * 10 <= Macs);
  const llvm::json::Object &First =
      *Cascading.getArray("cascades")->front().getAsObject();
  CHECK(First.getInteger("tile_columns").getValueOr(0) > 0);
  return Report;
}

std::string buildAndRun(const std::string &Compiler, const std::string &Source,
                        const std::vector<std::string> &Extra,
                        const std::vector<std::string> &Args) {
  auto CC = llvm::sys::findProgramByName(Compiler);
  REQUIRE_MESSAGE(bool(CC), Compiler << " is not installed");
  test::TempDir Dir;
  const std::string Main = Dir.file("main.c");
  test::writeFileBytes(Main,
                       llvm::arrayRefFromStringRef(llvm::StringRef(Source)));
  std::vector<std::string> Flags = {
      "-std=c99",  "-O2", "-Wall",          "-Wextra", "-Werror",
      "-pedantic", "-o",  Dir.file("prog"), Main};
  Flags.insert(Flags.end(), Extra.begin(), Extra.end());
  Flags.push_back("-lm");
  test::RunResult B = test::runProgram(*CC, Flags, 120);
  REQUIRE_MESSAGE(B.ExitCode == 0, Compiler << ": " << B.Stderr);
  CHECK_MESSAGE(B.Stderr.empty(), B.Stderr);
  test::RunResult R = test::runProgram(Dir.file("prog"), Args, 60);
  REQUIRE_MESSAGE(R.ExitCode == 0, "exit " << R.ExitCode << ": " << R.Stderr);
  return R.Stdout;
}

EmittedProgram emitProgram(const ir::Graph &G, llvm::StringRef Name,
                           llvm::StringRef Dir) {
  emit::EmitOptions Opts;
  Opts.Target = "ref";
  Opts.Name = Name.str();
  Opts.ModelFileName = (Name + ".tflite").str();
  Opts.GeneratorVersion = test::accelgenVersion();
  auto M = emit::emitModel(G, Opts);
  REQUIRE_MESSAGE(bool(M), llvm::toString(M.takeError()));
  auto Main = emit::emitHostMain(G, Opts);
  REQUIRE_MESSAGE(bool(Main), llvm::toString(Main.takeError()));
  EmittedProgram P;
  P.Extra = {"-I", Dir.str()};
  for (const emit::EmittedFile &F : M->Files) {
    P.Files.insert(F.Name);
    const std::string Path = pathJoin(Dir, F.Name);
    test::writeFileBytes(Path,
                         llvm::arrayRefFromStringRef(llvm::StringRef(F.Text)));
    if (llvm::StringRef(F.Name).endswith(".c"))
      P.Extra.push_back(Path);
  }
  P.Main = Main->Text;
  return P;
}

} // namespace e2e
} // namespace accelgen
