//===- ModelCheck.cpp - An emitted model against the reference vectors ----===//
//
// What ModelRunTest and CpuRunTest check for each model and target: every
// seed's outputs byte for byte, and seed 1's every layer, naming the first
// diverging operator when one differs.
//
//===----------------------------------------------------------------------===//
#include "ModelCheck.h"

#include "emit/ModelEmitter.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <map>
#include <sstream>

namespace accelgen {
namespace e2e {

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

} // namespace

void checkModelOnTarget(const std::string &Name, const std::string &Target,
                        const std::string &LayersFrom, bool CompareLayers) {
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

  for (const std::string &Seed : Seeds) {
    const std::string SeedName = llvm::sys::path::filename(Seed).str();
    INFO(Name << " " << SeedName << " on target " << Target);
    const bool Layers = CompareLayers && SeedName == "seed1";
    test::TempDir Out;
    test::RunResult R =
        runModel(modelPath(Name), Seed, Out.path(), Layers, Target);
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

} // namespace e2e
} // namespace accelgen
