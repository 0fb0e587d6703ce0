//===- ExplainTest.cpp - `accelgen explain` -------------------------------===//
//
// The explain command on a conformance model with the demo target: the text
// summary and its aligned table, the JSON (parsed back and checked against
// the partitioner's decisions and the model's tensor names), the Graphviz
// drawing (graph inputs and outputs, escaping of names, rendering or the
// warning when Graphviz is missing), and its errors.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "ir/GraphBuilder.h"
#include "target/BuiltinTargets.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cctype>

using namespace accelgen;

namespace {

std::string kwsModel() {
  std::string Path =
      test::sharedDir() + "/models/mlperf_tiny_kws_dscnn_int8.tflite";
  INFO("the shared conformance folder is missing: "
       << Path << " (set ACCELGEN_SHARED_DIR)");
  REQUIRE(llvm::sys::fs::exists(Path));
  return Path;
}

/// "(targets: demo1.0, ..., ref1)": every label of every target the build
/// registers, as error messages list them.
std::string targetList() {
  target::registerBuiltinTargets();
  return "(targets: " + llvm::join(target::TargetRegistry::labels(), ", ") +
         ")";
}

/// The lines of \p Text.
std::vector<std::string> lines(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 32> Parts;
  Text.split(Parts, '\n', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

/// The model's tensor names written by its operators, in operator order.
std::vector<std::vector<std::string>>
operatorOutputNames(const std::string &Path) {
  llvm::Expected<tflite::ImportResult> M = tflite::importModelFile(Path);
  REQUIRE(static_cast<bool>(M));
  const ir::Graph &G = M->Model->main();
  std::vector<std::vector<std::string>> Names;
  for (const ir::Operator &Op : G.Operators) {
    Names.emplace_back();
    for (int32_t T : Op.Outputs)
      Names.back().push_back(G.tensor(T).Name);
  }
  return Names;
}

} // namespace

TEST_CASE(
    "explain: text summary with the reasons an operator stays on the CPU") {
  test::RunResult R =
      test::runAccelgen({"explain", kwsModel(), "--target", "demo2.0"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(llvm::StringRef(R.Stdout).startswith(
      "mlperf_tiny_kws_dscnn_int8.tflite on demo2.0: 12 of 13 operators on the "
      "accelerator in 2 subgraphs"));
  CHECK(R.Stdout.find("stride_at_most_4: stride_h = 25, stride_w = 5: stride "
                      "must be in [1, 4]") != std::string::npos);
}

TEST_CASE("explain --json") {
  test::RunResult R = test::runAccelgen(
      {"explain", kwsModel(), "--target", "demo1.0", "--json"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Stdout);
  REQUIRE(static_cast<bool>(V));
  const llvm::json::Object &O = *V->getAsObject();
  CHECK(*O.getString("target") == "demo1.0");
  const llvm::json::Array &Ops = *O.getArray("operators");
  REQUIRE(Ops.size() == 13);
  int64_t OnAcc = 0;
  for (const llvm::json::Value &Op : Ops) {
    const llvm::json::Object &P = *Op.getAsObject();
    bool Acc = *P.getString("device") == "accelerator";
    OnAcc += Acc;
    // Accelerator operators have a subgraph and no reasons; CPU ones the
    // opposite.
    CHECK(Acc == (*P.getInteger("subgraph") >= 0));
    CHECK(Acc == P.getArray("reasons")->empty());
  }
  CHECK(*O.getInteger("on_accelerator") == OnAcc);
  // SOFTMAX is legal from demo2.0 only.
  const llvm::json::Object &Softmax = *Ops.back().getAsObject();
  CHECK(*Softmax.getString("type") == "SOFTMAX");
  CHECK(*Softmax.getString("device") == "cpu");
  const llvm::json::Object &Why =
      *Softmax.getArray("reasons")->front().getAsObject();
  CHECK(*Why.getString("id") == "not_available");
  CHECK(*Why.getString("hint") == "legal from demo2.0");
}

TEST_CASE("a library-call target's costs choose functions, not the CPU") {
  // cmsis-nn states costs (instructions on Cortex-M) that the partitioner
  // must not weigh against ref's estimates in another measure: every fully
  // connected layer of ad_autoencoder stays a call on Cortex-M4, where
  // comparing them moved all ten to ref ("cost: 506233 accelerator cycles
  // ... >= 264192 on the CPU").
  std::string Model =
      test::sharedDir() + "/models/mlperf_tiny_ad_autoencoder_int8.tflite";
  REQUIRE(llvm::sys::fs::exists(Model));
  test::RunResult R =
      test::runAccelgen({"explain", Model, "--target", "cmsis-nn4"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(lines(R.Stdout).front() ==
        "mlperf_tiny_ad_autoencoder_int8.tflite on cmsis-nn4: 0 of 10 "
        "operators as CMSIS-NN calls, 10 as kernels generated per layer, the "
        "rest as on ref");
  CHECK(R.Stdout.find("cost:") == std::string::npos);
}

TEST_CASE("--library-calls-only keeps a library-call target to its library") {
  std::string Model =
      test::sharedDir() + "/models/mlperf_tiny_kws_dscnn_int8.tflite";
  REQUIRE(llvm::sys::fs::exists(Model));
  // kws on Cortex-M4 otherwise runs its convolutions and depthwise layers on
  // generated kernels; with the option every one is a CMSIS-NN call.
  test::RunResult R = test::runAccelgen(
      {"explain", Model, "--target", "cmsis-nn4", "--library-calls-only"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(lines(R.Stdout).front() ==
        "mlperf_tiny_kws_dscnn_int8.tflite on cmsis-nn4: 12 of 13 operators "
        "as CMSIS-NN calls, the rest as on ref");
  CHECK(R.Stdout.find("accelgen_") == std::string::npos);
  CHECK(R.Stdout.find("arm_depthwise_conv_3x3_s8") != std::string::npos);
  // Any other target calls no library: a clear error.
  test::RunResult M = test::runAccelgen(
      {"explain", Model, "--target", "mdla2.0", "--library-calls-only"});
  CHECK(M.ExitCode != 0);
  CHECK(M.Stderr.find("--library-calls-only applies to a library-call "
                      "target (cmsis-nn); 'mdla2.0' calls no library") !=
        std::string::npos);
}

TEST_CASE("explain names the CMSIS-NN function of each operator of cmsis-nn") {
  std::string Model =
      test::sharedDir() + "/models/tflm_micro_speech_int8.tflite";
  REQUIRE(llvm::sys::fs::exists(Model));
  test::RunResult R =
      test::runAccelgen({"explain", Model, "--target", "cmsis-nn55"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  // A library-call target: no accelerator, subgraphs or cycles.
  std::vector<std::string> L = lines(R.Stdout);
  REQUIRE(L.size() == 7);
  CHECK(L[0] == "tflm_micro_speech_int8.tflite on cmsis-nn55: 1 of 4 "
                "operators as CMSIS-NN calls, 2 as kernels generated per "
                "layer, the rest as on ref");
  CHECK(L[1] ==
        "  #  from  operator                                            "
        "device    quantization  output");
  CHECK(L[2] ==
        "  0  #0    RESHAPE                                             "
        "ref       -             Reshape_2");
  CHECK(L[3] == "     unsupported_operator: operator RESHAPE is not supported "
                "by target cmsis-nn: no rule of its description names this "
                "operator");
  // With Helium, the depthwise convolution of one input channel runs as a
  // convolution on the generated Helium kernel, and so does the fully
  // connected layer of 4 units.
  CHECK(L[4] ==
        "  1  #1    DEPTHWISE_CONV_2D -> accelgen_convolve_s8_mve       "
        "CMSIS-NN  -             Relu");
  CHECK(L[5] ==
        "  2  #2    FULLY_CONNECTED -> accelgen_fully_connected_s8_mve  "
        "CMSIS-NN  -             add_1");
  CHECK(L[6] ==
        "  3  #3    SOFTMAX -> arm_softmax_s8                           "
        "CMSIS-NN  -             labels_softmax");
  CHECK(R.Stdout.find("accelerator") == std::string::npos);

  test::RunResult J =
      test::runAccelgen({"explain", Model, "--target", "cmsis-nn4", "--json"});
  INFO(J.Stderr);
  REQUIRE(J.ExitCode == 0);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(J.Stdout);
  REQUIRE(static_cast<bool>(V));
  const llvm::json::Object &O = *V->getAsObject();
  CHECK(*O.getString("library") == "CMSIS-NN");
  const llvm::json::Array &Ops = *O.getArray("operators");
  REQUIRE(Ops.size() == 4);
  const char *Expected[][2] = {{"RESHAPE", "ref"},
                               {"accelgen_depthwise_conv_s8_dsp", "CMSIS-NN"},
                               {"accelgen_fully_connected_s8_dsp", "CMSIS-NN"},
                               {"arm_softmax_s8", "CMSIS-NN"}};
  for (size_t I = 0; I < Ops.size(); ++I) {
    const llvm::json::Object &P = *Ops[I].getAsObject();
    CHECK(*P.getString("type") == Expected[I][0]);
    CHECK(*P.getString("device") == Expected[I][1]);
  }

  // The drawing has every operator and no subgraph clusters.
  test::TempDir Dir;
  test::RunResult D = test::runAccelgen(
      {"explain", Model, "--target", "cmsis-nn", "--dot", Dir.file("g.dot")});
  INFO(D.Stderr);
  REQUIRE(D.ExitCode == 0);
  std::string Dot = test::readFileText(Dir.file("g.dot"));
  for (int I = 0; I < 4; ++I)
    CHECK(Dot.find("  op" + std::to_string(I) + " [label=") !=
          std::string::npos);
  CHECK(Dot.find("cluster") == std::string::npos);
}

TEST_CASE("explain --dot draws devices and subgraphs") {
  test::TempDir Dir;
  std::string Dot = Dir.file("kws.dot");
  test::RunResult R = test::runAccelgen(
      {"explain", kwsModel(), "--target", "demo2.0", "--dot", Dot});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  std::string Text = test::readFileText(Dot);
  CHECK(llvm::StringRef(Text).startswith(
      "digraph \"mlperf_tiny_kws_dscnn_int8.tflite\" {"));
  CHECK(Text.find("subgraph cluster_0 {") != std::string::npos);
  CHECK(Text.find("subgraph cluster_1 {") != std::string::npos);
  CHECK(Text.find("fillcolor=\"#fdd0a2\"") != std::string::npos); // a CPU op
  CHECK(Text.find("op8 -> op9") != std::string::npos);
}

TEST_CASE("explain: errors") {
  test::RunResult R =
      test::runAccelgen({"explain", kwsModel(), "--target", "nope"});
  CHECK(R.ExitCode == 1);
  // Every label the build registers, the in-tree targets among them.
  CHECK(R.Stderr == "error: unknown target 'nope' " + targetList() + "\n");
  for (const char *Label : {"demo1.0", "mdla1.5", "mdla3.0", "ref1"})
    CHECK(R.Stderr.find(Label) != std::string::npos);
  R = test::runAccelgen(
      {"explain", "/nonexistent.tflite", "--target", "demo1.0"});
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith("error: /nonexistent.tflite: "));
  R = test::runAccelgen({"explain", kwsModel()});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: explain needs --target, e.g. --target ref " +
                        targetList() + "\n");
}

TEST_CASE(
    "explain: the text table names each operator's output, columns aligned") {
  std::vector<std::vector<std::string>> Names = operatorOutputNames(kwsModel());
  test::RunResult R =
      test::runAccelgen({"explain", kwsModel(), "--target", "demo2.0"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  std::vector<std::string> L = lines(R.Stdout);
  REQUIRE(L.size() > 2);
  const std::string &Header = L[1];
  CHECK(llvm::StringRef(Header).ltrim().startswith("#  from"));
  size_t Device = Header.find("device"), Output = Header.find("output");
  REQUIRE(Device != std::string::npos);
  REQUIRE(Output != std::string::npos);
  // Each operator row: the device and output columns start under their
  // headers, the row ends with the tensor the operator writes. On demo2.0 no
  // operator is fused, so row I stands for input operator I.
  size_t Rows = 0;
  for (size_t I = 2; I < L.size(); ++I) {
    llvm::StringRef Line = L[I];
    llvm::StringRef Index = Line.ltrim();
    unsigned Op = 0;
    if (Line.startswith("    ") && !Index.empty() &&
        std::isdigit(Index[0]) == 0)
      continue; // a reason under its operator
    if (!Line.startswith("  "))
      break; // subgraph and fusion lines follow the table
    REQUIRE_FALSE(Index.split(' ').first.getAsInteger(10, Op));
    REQUIRE(Op < Names.size());
    CAPTURE(Line);
    CHECK((Line.substr(Device).startswith("accelerator ") ||
           Line.substr(Device).startswith("cpu ")));
    CHECK(Line.substr(Output) == Names[Op].front());
    CHECK_FALSE(Line.contains(" ,"));
    ++Rows;
  }
  CHECK(Rows == Names.size());
}

TEST_CASE("explain --json names each operator's output tensors") {
  std::vector<std::vector<std::string>> Names = operatorOutputNames(kwsModel());
  test::RunResult R = test::runAccelgen(
      {"explain", kwsModel(), "--target", "demo2.0", "--json"});
  REQUIRE(R.ExitCode == 0);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Stdout);
  REQUIRE(static_cast<bool>(V));
  const llvm::json::Array &Ops = *V->getAsObject()->getArray("operators");
  REQUIRE(Ops.size() == Names.size());
  for (const llvm::json::Value &Op : Ops) {
    const llvm::json::Object &P = *Op.getAsObject();
    // The outputs of the last input operator it stands for.
    const llvm::json::Array &Sources = *P.getArray("sources");
    REQUIRE(!Sources.empty());
    int64_t Last = *Sources.back().getAsInteger();
    std::vector<std::string> Outputs;
    for (const llvm::json::Value &N : *P.getArray("outputs"))
      Outputs.push_back(N.getAsString()->str());
    CHECK(Outputs == Names[Last]);
  }
}

TEST_CASE("explain --dot draws graph inputs and outputs and escapes names") {
  // The example model with tensor names Graphviz must not take literally: a
  // quote and a backslash in the input's name, a newline in the first
  // operator's output.
  llvm::Expected<tflite::ImportResult> M =
      tflite::importModelFile(test::exampleModelPath());
  REQUIRE(static_cast<bool>(M));
  ir::Graph &G = M->Model->main();
  G.tensor(G.Inputs[0]).Name = "img \"rgb\" C:\\in";
  G.tensor(G.Operators[0].Outputs[0]).Name = "conv\nrelu";
  test::TempDir Dir;
  std::string Model = Dir.file("named.tflite"), Dot = Dir.file("named.dot");
  REQUIRE_FALSE(llvm::errorToBool(tflite::writeModelFile(*M->Model, Model)));
  test::RunResult R =
      test::runAccelgen({"explain", Model, "--target", "ref", "--dot", Dot});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  std::string Text = test::readFileText(Dot);
  INFO(Text);
  // Graph input and output nodes, with edges to their consumer and from
  // their producer; the last operator is the SOFTMAX.
  size_t Last = G.Operators.size() - 1;
  CHECK(Text.find(
            "  in0 [label=\"input 0\\nimg \\\"rgb\\\" C:\\\\in\\n1x16x16x3\", "
            "shape=ellipse, style=solid];") != std::string::npos);
  CHECK(Text.find("  in0 -> op0 [label=\"1x16x16x3\"];") != std::string::npos);
  CHECK(Text.find("  op" + std::to_string(Last) +
                  " -> out0 [label=\"1x10\"];") != std::string::npos);
  // Operators are named by their output; a newline becomes Graphviz's line
  // break, never a raw newline inside a quoted string.
  CHECK(Text.find("  op0 [label=\"#0 CONV_2D\\n-> conv\\nrelu\", ") !=
        std::string::npos);
  for (const std::string &Line : lines(Text))
    CHECK(std::count(Line.begin(), Line.end(), '"') % 2 == 0);
  // What Graphviz makes of it, when it is installed: each label line a text
  // element, the quotes and backslash shown as they are.
  if (llvm::sys::findProgramByName("dot")) {
    std::string Svg = test::readFileText(Dot + ".svg");
    CHECK(Svg.find(">img &quot;rgb&quot; C:\\in</text>") != std::string::npos);
    CHECK(Svg.find(">&#45;&gt; conv</text>") != std::string::npos);
    CHECK(Svg.find(">relu</text>") != std::string::npos);
  } else {
    MESSAGE("Graphviz's dot is not installed: the SVG was not checked");
  }
}

TEST_CASE("explain --dot says so when Graphviz is missing") {
  test::TempDir Dir, EmptyPath;
  std::string Dot = Dir.file("example.dot");
  std::vector<std::string> Env = {"PATH=" + EmptyPath.path()};
  test::RunResult R = test::runAccelgen(
      {"explain", test::exampleModelPath(), "--target", "ref", "--dot", Dot},
      llvm::makeArrayRef(Env));
  REQUIRE(R.ExitCode == 0);
  CHECK(R.Stderr ==
        "warning: " + Dot + ": not rendering " + Dot +
            ".svg: Graphviz's `dot` program is not on PATH "
            "(install Graphviz, e.g. `apt-get install graphviz`)\n");
  CHECK(llvm::sys::fs::exists(Dot));
  CHECK_FALSE(llvm::sys::fs::exists(Dot + ".svg"));
}

TEST_CASE("a target that runs everything on the host CPU says so") {
  // ref and cpu have no accelerator: their operators are not "on the
  // accelerator", and they have no subgraphs or device cycles.
  for (const char *Target : {"ref", "cpu"}) {
    test::RunResult R = test::runAccelgen(
        {"explain", test::exampleModelPath(), "--target", Target});
    INFO(R.Stderr);
    REQUIRE(R.ExitCode == 0);
    const std::string Backend =
        std::string(Target) == "ref" ? "ref-kernels" : "cpu-kernels";
    CHECK(llvm::StringRef(R.Stdout).startswith(
        "tiny_convnet_int8.tflite on " + std::string(Target) +
        "1: 6 of 6 operators on the host CPU (" + Backend + " backend)\n"));
    CHECK(R.Stdout.find("accelerator") == std::string::npos);
    CHECK(R.Stdout.find("subgraph") == std::string::npos);
  }
}

TEST_CASE("explain --dot: a very long tensor name still renders") {
  // A 20,000-character name made a .dot file Graphviz could not read.
  ir::GraphBuilder B;
  const std::string Long(20000, 'q');
  int32_t X = B.tensor("x", {1, 4}, ir::perTensor(0.5f, 0));
  int32_t Y = B.tensor(Long, {1, 4}, ir::perTensor(0.5f, 0));
  B.op("RELU", {X}, {Y});
  B.inputs({X}).outputs({Y});
  B.G.Name = "main";
  ir::Model M;
  M.Graphs.push_back(B.G);
  test::TempDir Dir;
  const std::string Model = Dir.file("long.tflite"), Dot = Dir.file("g.dot");
  test::writeFileBytes(Model, tflite::writeModel(M));
  test::RunResult R = test::runAccelgen(
      {"explain", Model, "--target", "mdla2.0", "--dot", Dot});
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  const std::string Text = test::readFileText(Dot);
  CHECK(Text.find(std::string(200, 'q') + "...") != std::string::npos);
  CHECK(Text.find(std::string(201, 'q')) == std::string::npos);
  if (!llvm::sys::findProgramByName("dot")) {
    MESSAGE("Graphviz is not installed: the rendering is not checked");
    return;
  }
  CHECK(R.Stderr.empty());
  CHECK(llvm::StringRef(test::readFileText(Dot + ".svg")).contains("</svg>"));
}
