//===- InspectModelsTest.cpp - accelgen inspect on the shared models ------===//
//
// Runs `accelgen inspect --json` on every model in the shared conformance
// folder (ACCELGEN_SHARED_DIR/models) and compares what it reports with values
// computed independently of accelgen:
//
//  - operator counts and versions: the `- operators:` and
//    `- operator versions:` lines of the model's section in models/MODELS.md;
//  - graph inputs and outputs (name, dtype, shape, scale, zero point): the
//    `- input:` / `- output:` lines of MODELS.md, and vectors/<model>/io.json
//    as written by the TensorFlow Lite runtime, where it exists.
//
// The folder is not part of the repository. Without it these tests fail and
// say so: a conformance suite that silently checks nothing is worse than none.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <map>
#include <set>

using namespace accelgen;
namespace json = llvm::json;

namespace {

/// The model whose original converter output makes the importer warn:
/// biases with quantized_dimension 3 on a 1-D tensor.
constexpr const char *WarningModel = "tflm_person_detect_int8.tflite";
constexpr const char *QDimFixModel = "tflm_person_detect_int8_qdimfix.tflite";

std::string join(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

std::string modelsDir() { return join(test::sharedDir(), "models"); }
std::string vectorsDir() { return join(test::sharedDir(), "vectors"); }

/// Fails the current test case unless the shared folder is there.
void requireSharedDir() {
  std::string Index = join(modelsDir(), "MODELS.md");
  REQUIRE_MESSAGE(llvm::sys::fs::exists(Index),
                  "the shared conformance folder is missing: "
                      << Index
                      << " does not exist. Point the CMake cache variable "
                         "ACCELGEN_SHARED_DIR at the folder holding models/ "
                         "and vectors/.");
}

/// The .tflite files of the models folder, sorted.
std::vector<std::string> modelFiles() {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(modelsDir(), EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".tflite")
      Names.push_back(llvm::sys::path::filename(It->path()).str());
  REQUIRE_MESSAGE(!EC, "cannot list " << modelsDir() << ": " << EC.message());
  std::sort(Names.begin(), Names.end());
  return Names;
}

/// A graph input or output as the references describe it.
struct IODesc {
  std::string Name;
  std::string DType; // accelgen's short name
  std::vector<int64_t> Shape;
  double Scale = 0;
  int64_t ZeroPoint = 0;
};

/// One model's section of MODELS.md.
struct ModelSection {
  std::map<std::string, int64_t> Counts;
  std::map<std::string, std::set<int64_t>> Versions;
  std::vector<IODesc> Inputs, Outputs;
  bool HasCounts = false, HasVersions = false;
};

/// The references name dtypes as NumPy does; accelgen uses short names.
std::string shortDType(llvm::StringRef Name) {
  static const std::map<std::string, std::string> Names = {
      {"int8", "i8"},     {"uint8", "u8"},  {"int16", "i16"},
      {"int32", "i32"},   {"int64", "i64"}, {"float16", "f16"},
      {"float32", "f32"}, {"bool", "bool"}};
  auto It = Names.find(Name.str());
  return It == Names.end() ? "unknown dtype '" + Name.str() + "'" : It->second;
}

/// "ADD x10, CONV_2D x36" -> {ADD: 10, CONV_2D: 36}.
void parseCounts(llvm::StringRef Text, ModelSection &S) {
  llvm::SmallVector<llvm::StringRef, 16> Items;
  Text.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    auto [Type, Count] = Item.trim().rsplit(" x");
    int64_t N = 0;
    REQUIRE_MESSAGE(!Count.getAsInteger(10, N),
                    "unreadable operator count '" << Item.str() << "'");
    S.Counts[Type.str()] += N;
  }
  S.HasCounts = true;
}

/// "ADD:v1, CONV_2D:v1/v3" -> {ADD: {1}, CONV_2D: {1, 3}}.
void parseVersions(llvm::StringRef Text, ModelSection &S) {
  llvm::SmallVector<llvm::StringRef, 16> Items;
  Text.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    auto [Type, Versions] = Item.trim().split(':');
    llvm::SmallVector<llvm::StringRef, 4> Vs;
    Versions.split(Vs, '/', -1, /*KeepEmpty=*/false);
    REQUIRE_MESSAGE(!Vs.empty(), "no version in '" << Item.str() << "'");
    for (llvm::StringRef V : Vs) {
      int64_t N = 0;
      REQUIRE_MESSAGE((V.consume_front("v") && !V.trim().getAsInteger(10, N)),
                      "unreadable operator version '" << Item.str() << "'");
      S.Versions[Type.str()].insert(N);
    }
  }
  S.HasVersions = true;
}

/// "`name` int8 [1x28x28] (scale 0.0039, zp 0)".
IODesc parseIOLine(llvm::StringRef Text) {
  llvm::Regex Re("^`([^`]*)` ([a-z0-9]+) \\[([0-9x]*)\\] \\(scale ([^,]+), "
                 "zp (-?[0-9]+)\\)$");
  llvm::SmallVector<llvm::StringRef, 6> M;
  IODesc D;
  REQUIRE_MESSAGE(Re.match(Text.trim(), &M),
                  "unreadable input/output line '" << Text.str() << "'");
  D.Name = M[1].str();
  D.DType = shortDType(M[2]);
  llvm::SmallVector<llvm::StringRef, 4> Dims;
  M[3].split(Dims, 'x', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Dim : Dims) {
    int64_t N = 0;
    REQUIRE(!Dim.getAsInteger(10, N));
    D.Shape.push_back(N);
  }
  REQUIRE(llvm::to_float(M[4], D.Scale));
  REQUIRE(!M[5].getAsInteger(10, D.ZeroPoint));
  return D;
}

/// The per-model sections ("### <file>") of MODELS.md.
const std::map<std::string, ModelSection> &modelSections() {
  static const std::map<std::string, ModelSection> Sections = [] {
    std::map<std::string, ModelSection> Out;
    std::string Text = test::readFileText(join(modelsDir(), "MODELS.md"));
    ModelSection *Current = nullptr;
    llvm::SmallVector<llvm::StringRef, 128> Lines;
    llvm::StringRef(Text).split(Lines, '\n');
    for (llvm::StringRef Line : Lines) {
      Line = Line.rtrim();
      if (Line.consume_front("### ")) {
        Current = &Out[Line.trim().str()];
        continue;
      }
      if (Line.startswith("#"))
        Current = nullptr;
      if (!Current)
        continue;
      if (Line.consume_front("- operators:"))
        parseCounts(Line, *Current);
      else if (Line.consume_front("- operator versions:"))
        parseVersions(Line, *Current);
      else if (Line.consume_front("- input:"))
        Current->Inputs.push_back(parseIOLine(Line));
      else if (Line.consume_front("- output:"))
        Current->Outputs.push_back(parseIOLine(Line));
    }
    return Out;
  }();
  return Sections;
}

/// What `accelgen inspect --json` said about one model.
struct Inspection {
  test::RunResult Run;
  json::Value JSON = nullptr;
};

const Inspection &inspect(const std::string &Model) {
  static std::map<std::string, Inspection> Cache;
  auto It = Cache.find(Model);
  if (It != Cache.end())
    return It->second;
  Inspection I;
  I.Run = test::runAccelgen({"inspect", join(modelsDir(), Model), "--json"});
  if (I.Run.ExitCode == 0) {
    llvm::Expected<json::Value> V = json::parse(I.Run.Stdout);
    if (V)
      I.JSON = std::move(*V);
    else
      FAIL_CHECK("output is not JSON: " << llvm::toString(V.takeError()));
  }
  return Cache.emplace(Model, std::move(I)).first->second;
}

/// The inspection of \p Model, failing the test case if accelgen failed.
const json::Object &inspectOK(const std::string &Model) {
  const Inspection &I = inspect(Model);
  REQUIRE_MESSAGE(I.Run.ExitCode == 0,
                  "accelgen inspect " << Model << " failed: " << I.Run.Stderr
                                      << I.Run.ErrorMessage);
  const json::Object *O = I.JSON.getAsObject();
  REQUIRE_MESSAGE(O, "accelgen inspect --json did not print an object");
  return *O;
}

/// Checks one graph input or output of accelgen's JSON against \p Want.
void checkIO(const json::Value &Got, const IODesc &Want) {
  const json::Object *T = Got.getAsObject();
  REQUIRE(T);
  CHECK(T->getString("name").getValueOr("") == Want.Name);
  CHECK(T->getString("dtype").getValueOr("") == Want.DType);
  std::vector<int64_t> Shape;
  if (const json::Array *A = T->getArray("shape"))
    for (const json::Value &D : *A)
      Shape.push_back(D.getAsInteger().getValueOr(-1));
  CHECK(Shape == Want.Shape);
  const json::Object *Q = T->getObject("quantization");
  REQUIRE_MESSAGE(Q, "tensor '" << Want.Name << "' is not quantized");
  const json::Array *Scales = Q->getArray("scale");
  const json::Array *ZeroPoints = Q->getArray("zero_point");
  REQUIRE((Scales && Scales->size() == 1));
  REQUIRE((ZeroPoints && ZeroPoints->size() == 1));
  // Both sides hold a float32 scale printed in decimal; as floats they agree
  // exactly.
  double Scale = (*Scales)[0].getAsNumber().getValueOr(-1);
  CHECK(static_cast<float>(Scale) == static_cast<float>(Want.Scale));
  CHECK((*ZeroPoints)[0].getAsInteger().getValueOr(-999) == Want.ZeroPoint);
}

/// The main graph's inputs or outputs in accelgen's JSON.
const json::Array &graphIO(const json::Object &Inspect, llvm::StringRef Key) {
  const json::Array *Graphs = Inspect.getArray("subgraphs");
  REQUIRE((Graphs && !Graphs->empty()));
  const json::Object *Main = (*Graphs)[0].getAsObject();
  REQUIRE(Main);
  const json::Array *IO = Main->getArray(Key);
  REQUIRE(IO);
  return *IO;
}

/// The inputs or outputs of vectors/<model>/io.json.
std::vector<IODesc> readIOJSON(const json::Object &IO, llvm::StringRef Key) {
  std::vector<IODesc> Out;
  const json::Array *A = IO.getArray(Key);
  REQUIRE_MESSAGE(A, "io.json has no '" << Key.str() << "'");
  for (const json::Value &V : *A) {
    const json::Object *O = V.getAsObject();
    REQUIRE(O);
    IODesc D;
    D.Name = O->getString("name").getValueOr("").str();
    D.DType = shortDType(O->getString("dtype").getValueOr(""));
    if (const json::Array *Shape = O->getArray("shape"))
      for (const json::Value &Dim : *Shape)
        D.Shape.push_back(Dim.getAsInteger().getValueOr(-1));
    D.Scale = O->getNumber("scale").getValueOr(-1);
    D.ZeroPoint = O->getInteger("zero_point").getValueOr(-999);
    Out.push_back(std::move(D));
  }
  return Out;
}

std::string stem(llvm::StringRef Model) {
  return llvm::sys::path::stem(Model).str();
}

} // namespace

TEST_CASE("the shared conformance folder is present") {
  requireSharedDir();
  CHECK(!modelFiles().empty());
}

TEST_CASE("MODELS.md has a section for every model and no other") {
  requireSharedDir();
  std::vector<std::string> Files = modelFiles();
  REQUIRE(!Files.empty());
  std::vector<std::string> Described;
  for (const auto &KV : modelSections())
    Described.push_back(KV.first);
  CHECK(Described == Files);
  for (const auto &ModelSEntry : modelSections()) {
    const auto &Model = ModelSEntry.first;
    const auto &S = ModelSEntry.second;
    INFO("MODELS.md section of ", Model);
    CHECK(S.HasCounts);
    CHECK(S.HasVersions);
    CHECK(!S.Inputs.empty());
    CHECK(!S.Outputs.empty());
  }
}

TEST_CASE("operator counts and versions match MODELS.md") {
  requireSharedDir();
  for (const std::string &Model : modelFiles()) {
    INFO("model ", Model);
    auto Section = modelSections().find(Model);
    REQUIRE(Section != modelSections().end());
    const json::Object &J = inspectOK(Model);

    std::map<std::string, int64_t> Counts;
    if (const json::Object *C = J.getObject("operator_counts"))
      for (const auto &KV : *C)
        Counts[KV.first.str()] = KV.second.getAsInteger().getValueOr(-1);
    CHECK(Counts == Section->second.Counts);

    std::map<std::string, std::set<int64_t>> Versions;
    if (const json::Object *V = J.getObject("operator_versions"))
      for (const auto &KV : *V)
        if (const json::Array *A = KV.second.getAsArray())
          for (const json::Value &N : *A)
            Versions[KV.first.str()].insert(N.getAsInteger().getValueOr(-1));
    CHECK(Versions == Section->second.Versions);
  }
}

TEST_CASE("inputs and outputs match MODELS.md") {
  requireSharedDir();
  for (const std::string &Model : modelFiles()) {
    INFO("model ", Model);
    auto Section = modelSections().find(Model);
    REQUIRE(Section != modelSections().end());
    const json::Object &J = inspectOK(Model);
    for (const char *Key : {"inputs", "outputs"}) {
      INFO(Key);
      const std::vector<IODesc> &Want = std::string(Key) == "inputs"
                                            ? Section->second.Inputs
                                            : Section->second.Outputs;
      const json::Array &Got = graphIO(J, Key);
      REQUIRE(Got.size() == Want.size());
      for (size_t I = 0; I < Want.size(); ++I) {
        INFO("#", I, " '", Want[I].Name, "'");
        checkIO(Got[I], Want[I]);
      }
    }
  }
}

TEST_CASE("inputs and outputs match the runtime's io.json") {
  requireSharedDir();
  size_t Compared = 0;
  for (const std::string &Model : modelFiles()) {
    INFO("model ", Model);
    std::string IOPath = join(join(vectorsDir(), stem(Model)), "io.json");
    if (!llvm::sys::fs::exists(IOPath)) {
      // The TensorFlow Lite runtime refuses the unmodified person_detect
      // model (see MODELS.md), so it has no io.json; MODELS.md still covers
      // its inputs and outputs above. Any other model must have one.
      CHECK_MESSAGE(Model == WarningModel, IOPath << " is missing");
      continue;
    }
    llvm::Expected<json::Value> IO = json::parse(test::readFileText(IOPath));
    REQUIRE_MESSAGE(bool(IO), IOPath << ": " << llvm::toString(IO.takeError()));
    const json::Object *IOObj = IO->getAsObject();
    REQUIRE(IOObj);
    const json::Object &J = inspectOK(Model);
    for (const char *Key : {"inputs", "outputs"}) {
      INFO(Key);
      std::vector<IODesc> Want = readIOJSON(*IOObj, Key);
      const json::Array &Got = graphIO(J, Key);
      REQUIRE(Got.size() == Want.size());
      for (size_t I = 0; I < Want.size(); ++I) {
        INFO("#", I, " '", Want[I].Name, "'");
        checkIO(Got[I], Want[I]);
      }
    }
    ++Compared;
  }
  CHECK(Compared > 0);
}

TEST_CASE("only the unmodified person_detect model warns") {
  requireSharedDir();
  for (const std::string &Model : modelFiles()) {
    INFO("model ", Model);
    const json::Object &J = inspectOK(Model);
    const json::Array *Warnings = J.getArray("warnings");
    REQUIRE(Warnings);
    const std::string &Stderr = inspect(Model).Run.Stderr;
    if (Model == WarningModel)
      continue;
    CHECK(Warnings->empty());
    CHECK(Stderr == "");
  }
}

TEST_CASE("person_detect: out-of-range quantized_dimension on biases") {
  requireSharedDir();
  // 14 bias tensors carry quantized_dimension 3 although they are 1-D; the
  // _qdimfix copy has those set to 0 (MODELS.md).
  const json::Object &J = inspectOK(WarningModel);
  const std::string &Stderr = inspect(WarningModel).Run.Stderr;
  std::string Path = join(modelsDir(), WarningModel);
  llvm::Regex Line("^warning: " + llvm::Regex::escape(Path) +
                   ": tensor [0-9]+ '[^']*_bias': quantized_dimension 3 is out "
                   "of range for a 1-D tensor of [0-9]+ channels; using 0$");
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(Stderr).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  CHECK(Lines.size() == 14);
  for (llvm::StringRef L : Lines)
    CHECK_MESSAGE(Line.match(L), "unexpected line: " << L.str());
  // The first one in full, as a user reads it.
  CHECK(Stderr.find("warning: " + Path +
                    ": tensor 33 'MobilenetV1/MobilenetV1/Conv2d_0/"
                    "Conv2D_bias': quantized_dimension 3 is out of range for "
                    "a 1-D tensor of 8 channels; using 0\n") !=
        std::string::npos);
  const json::Array *Warnings = J.getArray("warnings");
  REQUIRE(Warnings);
  CHECK(Warnings->size() == 14);

  const json::Object &Fixed = inspectOK(QDimFixModel);
  const json::Array *FixedWarnings = Fixed.getArray("warnings");
  REQUIRE(FixedWarnings);
  CHECK(FixedWarnings->empty());
  CHECK(inspect(QDimFixModel).Run.Stderr.find("quantized_dimension") ==
        std::string::npos);

  // Both copies import to the same per-tensor facts otherwise.
  CHECK(J.getInteger("macs") == Fixed.getInteger("macs"));
  CHECK(J.getInteger("activation_bytes") ==
        Fixed.getInteger("activation_bytes"));
}
