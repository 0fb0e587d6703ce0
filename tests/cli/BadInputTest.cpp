//===- BadInputTest.cpp - accelgen on malformed models and misuse ---------===//
//
// Every bad input makes `accelgen inspect` print exactly one line,
// `error: <file>: <what is wrong, where>`, print nothing on stdout and exit
// with 1; no input may crash it or be accepted. The malformed models are made
// here: from the bundled example, imported, damaged in the IR and written back
// with TFLiteWriter (which writes without checking), or, for what the IR cannot
// express, by changing a field of the written FlatBuffer in place.
//
// Also the command line itself: no command, unknown options, missing files,
// `--help` and `--version`.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "import/TFLiteWriter.h"
#include "llvm/Support/FileSystem.h"
#include "tflite_subset_generated.h"
#include "ir/GraphBuilder.h"

#include <cctype>
#include <functional>

using namespace accelgen;
namespace fb = accelgen::tfl;

namespace {

/// The example model as IR. Its main graph, for reference:
///   tensors  0 input, 1 conv/weights, 2 conv/bias, 3 conv/Relu,
///            4 dwconv/weights, 5 dwconv/bias, 6 dwconv/Relu, 7 pool,
///            8 flatten/shape, 9 flatten, 10 dense/weights, 11 dense/bias,
///            12 dense, 13 probabilities
///   operators 0 CONV_2D, 1 DEPTHWISE_CONV_2D, 2 AVERAGE_POOL_2D,
///            3 RESHAPE, 4 FULLY_CONNECTED, 5 SOFTMAX
///   buffers  8 (the empty one and 7 constants); operator codes 6
ir::Model example() {
  auto R = tflite::importModelFile(test::exampleModelPath());
  REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
  REQUIRE(R->Model->main().Tensors.size() == 14);
  REQUIRE(R->Model->main().Operators.size() == 6);
  return std::move(*R->Model);
}

std::vector<uint8_t> exampleBytes() {
  return test::readFileBytes(test::exampleModelPath());
}

/// Runs `accelgen inspect` on \p Path, with and without --json, and checks
/// the one-line error naming the file.
void checkRejected(const std::string &Path, const std::string &Message) {
  for (bool JSON : {false, true}) {
    INFO((JSON ? "with --json" : "without --json"));
    std::vector<std::string> Args{"inspect", Path};
    if (JSON)
      Args.push_back("--json");
    test::RunResult R = test::runAccelgen(Args);
    CHECK(R.ExitCode == 1);
    CHECK(R.Stdout == "");
    CHECK(R.Stderr == "error: " + Path + ": " + Message + "\n");
  }
}

/// Writes \p M into \p Dir as \p Name and checks accelgen rejects it.
void checkModelRejected(const test::TempDir &Dir, const ir::Model &M,
                        const std::string &Name, const std::string &Message) {
  std::string Path = Dir.file(Name);
  test::writeFileBytes(Path, tflite::writeModel(M));
  checkRejected(Path, Message);
}

/// Writes the example, lets \p Damage change it in place, and checks
/// accelgen rejects the result.
void checkPatchedRejected(const test::TempDir &Dir, const std::string &Name,
                          const std::function<bool(fb::Model &)> &Damage,
                          const std::string &Message) {
  std::vector<uint8_t> Bytes = tflite::writeModel(example());
  // The mutators only change fields the file stores; they fail on absent
  // (default-valued) ones.
  REQUIRE(Damage(*fb::GetMutableModel(Bytes.data())));
  std::string Path = Dir.file(Name);
  test::writeFileBytes(Path, Bytes);
  checkRejected(Path, Message);
}

/// xorshift32, for reproducible garbage.
std::vector<uint8_t> randomBytes(size_t N, uint32_t State) {
  std::vector<uint8_t> Out(N);
  for (uint8_t &B : Out) {
    State ^= State << 13;
    State ^= State >> 17;
    State ^= State << 5;
    B = static_cast<uint8_t>(State >> 24);
  }
  return Out;
}

} // namespace

TEST_CASE("the example model is accepted") {
  test::RunResult R = test::runAccelgen({"inspect", test::exampleModelPath()});
  CHECK(R.ExitCode == 0);
  CHECK(R.Stderr == "");
  CHECK(R.Stdout.find("MACs: 18512") != std::string::npos);
}

TEST_CASE("files that are not models") {
  test::TempDir Dir;

  SUBCASE("missing file") {
    checkRejected(Dir.file("no-such-model.tflite"),
                  "cannot read file: No such file or directory");
  }
  SUBCASE("a folder") {
    checkRejected(Dir.path(), "cannot read file: Is a directory");
  }
  SUBCASE("empty file") {
    std::string Path = Dir.file("empty.tflite");
    test::writeFileBytes(Path, {});
    checkRejected(Path, "file is too small (0 bytes) to be a TensorFlow Lite "
                        "model");
  }
  SUBCASE("shorter than a header") {
    std::string Path = Dir.file("seven.tflite");
    std::vector<uint8_t> Bytes = exampleBytes();
    Bytes.resize(7);
    test::writeFileBytes(Path, Bytes);
    checkRejected(Path, "file is too small (7 bytes) to be a TensorFlow Lite "
                        "model");
  }
  SUBCASE("random bytes") {
    std::string Path = Dir.file("random.tflite");
    std::vector<uint8_t> Bytes = randomBytes(4096, 0x9E3779B9u);
    test::writeFileBytes(Path, Bytes);
    std::string Id;
    for (size_t I = 4; I < 8; ++I)
      Id += std::isprint(Bytes[I]) ? char(Bytes[I]) : '?';
    checkRejected(Path, "not a TensorFlow Lite model: file identifier is '" +
                            Id + "', expected 'TFL3'");
  }
  SUBCASE("wrong file identifier") {
    std::string Path = Dir.file("tfl2.tflite");
    std::vector<uint8_t> Bytes = exampleBytes();
    std::copy_n("TFL2", 4, Bytes.begin() + 4);
    test::writeFileBytes(Path, Bytes);
    checkRejected(Path, "not a TensorFlow Lite model: file identifier is "
                        "'TFL2', expected 'TFL3'");
  }
  SUBCASE("a text file") {
    std::string Path = Dir.file("notes.tflite");
    std::string Text = "name,value\n";
    test::writeFileBytes(Path, std::vector<uint8_t>(Text.begin(), Text.end()));
    checkRejected(Path, "not a TensorFlow Lite model: file identifier is "
                        "',val', expected 'TFL3'");
  }
}

TEST_CASE("corrupt FlatBuffers") {
  test::TempDir Dir;
  const std::string Corrupt = "malformed FlatBuffer: the model fails "
                              "verification (truncated or corrupt file)";

  SUBCASE("truncated to half") {
    std::vector<uint8_t> Bytes = exampleBytes();
    Bytes.resize(Bytes.size() / 2);
    std::string Path = Dir.file("half.tflite");
    test::writeFileBytes(Path, Bytes);
    checkRejected(Path, Corrupt);
  }
  SUBCASE("truncated by one byte") {
    std::vector<uint8_t> Bytes = exampleBytes();
    Bytes.pop_back();
    std::string Path = Dir.file("short.tflite");
    test::writeFileBytes(Path, Bytes);
    checkRejected(Path, Corrupt);
  }
  SUBCASE("random bytes behind a valid identifier") {
    std::vector<uint8_t> Bytes = randomBytes(4096, 12345u);
    std::copy_n("TFL3", 4, Bytes.begin() + 4);
    std::string Path = Dir.file("random-tfl3.tflite");
    test::writeFileBytes(Path, Bytes);
    checkRejected(Path, Corrupt);
  }
  SUBCASE("root offset past the end") {
    std::vector<uint8_t> Bytes = exampleBytes();
    Bytes[0] = Bytes[1] = Bytes[2] = 0xff;
    Bytes[3] = 0x7f;
    std::string Path = Dir.file("root.tflite");
    test::writeFileBytes(Path, Bytes);
    checkRejected(Path, Corrupt);
  }
}

TEST_CASE("model structure") {
  test::TempDir Dir;
  ir::Model M = example();
  ir::Graph &G = M.main();

  SUBCASE("operator input tensor index out of range") {
    G.Operators[1].Inputs[0] = 99;
    checkModelRejected(Dir, M, "input-index.tflite",
                       "graph 0: operator 1 (DEPTHWISE_CONV_2D): input 0 is "
                       "tensor 99, but the graph has 14 tensors");
  }
  SUBCASE("operator output tensor index out of range") {
    G.Operators[5].Outputs[0] = -3;
    checkModelRejected(Dir, M, "output-index.tflite",
                       "graph 0: operator 5 (SOFTMAX): output 0 is tensor -3, "
                       "but the graph has 14 tensors");
  }
  SUBCASE("graph output out of range") {
    G.Outputs = {20};
    checkModelRejected(Dir, M, "graph-output.tflite",
                       "graph 0: graph output 20 is out of range (14 tensors)");
  }
  SUBCASE("an operator writing a constant") {
    G.Operators[2].Outputs[0] = 1;
    checkModelRejected(Dir, M, "const-output.tflite",
                       "graph 0: operator 2 (AVERAGE_POOL_2D): output 0 is "
                       "the constant tensor 1 'conv/weights'");
  }
  SUBCASE("a tensor written twice") {
    G.Operators[2].Outputs[0] = 3;
    checkModelRejected(Dir, M, "two-writers.tflite",
                       "graph 0: operator 2 (AVERAGE_POOL_2D): writes tensor 3 "
                       "'conv/Relu', already written by operator 0");
  }
  SUBCASE("a cycle") {
    // The convolution reads the softmax output: every operator then depends
    // on itself.
    G.Operators[0].Inputs[0] = 13;
    checkModelRejected(Dir, M, "cycle.tflite",
                       "graph 0: operators form a cycle: 0 -> 5 -> 4 -> 3 -> "
                       "2 -> 1 -> 0");
  }
  SUBCASE("no subgraph") {
    M.Graphs.clear();
    checkModelRejected(Dir, M, "no-graph.tflite", "the model has no subgraph");
  }
  SUBCASE("a name that is not UTF-8") {
    G.Tensors[3].Name = "conv/\xffRelu";
    checkModelRejected(Dir, M, "latin1.tflite",
                       "graph 0: tensor 3 'conv/\xef\xbf\xbdRelu': name is "
                       "not valid UTF-8");
  }
  SUBCASE("a description that is not UTF-8") {
    M.Description = "caf\xe9";
    checkModelRejected(Dir, M, "description.tflite",
                       "model description is not valid UTF-8");
  }
  SUBCASE("operator without its options") {
    // Written as an opaque operator, the convolution loses its options table.
    G.Operators[0].Opaque = true;
    checkModelRejected(Dir, M, "no-options.tflite",
                       "graph 0: operator 0 (CONV_2D): expected "
                       "Conv2DOptions, found no options");
  }
}

TEST_CASE("tensors") {
  test::TempDir Dir;
  ir::Model M = example();
  ir::Graph &G = M.main();

  SUBCASE("negative dimension") {
    G.Tensors[3].Shape = {1, 8, -8, 8};
    checkModelRejected(Dir, M, "negative-dim.tflite",
                       "graph 0: tensor 3 'conv/Relu': dimension 2 is "
                       "negative (-8)");
  }
  SUBCASE("absurd dimensions") {
    G.Tensors[3].Shape = {1 << 30, 1 << 30};
    checkModelRejected(Dir, M, "absurd-dims.tflite",
                       "graph 0: tensor 3 'conv/Relu': shape "
                       "1073741824x1073741824 has more than 2147483647 "
                       "elements");
  }
  SUBCASE("rank above 8") {
    G.Tensors[7].Shape = {1, 1, 1, 1, 1, 1, 1, 1, 8};
    checkModelRejected(Dir, M, "rank.tflite",
                       "graph 0: tensor 7 'pool': rank 9 exceeds the maximum "
                       "of 8");
  }
  SUBCASE("constant data shorter than its shape") {
    G.Tensors[2].Data.resize(30);
    checkModelRejected(Dir, M, "short-buffer.tflite",
                       "graph 0: tensor 2 'conv/bias': buffer 2 has 30 bytes, "
                       "but shape 8 of i32 needs 32");
  }
  SUBCASE("constant data longer than its shape") {
    G.Tensors[10].Data.resize(81);
    checkModelRejected(Dir, M, "long-buffer.tflite",
                       "graph 0: tensor 10 'dense/weights': buffer 6 has 81 "
                       "bytes, but shape 10x8 of i8 needs 80");
  }
  SUBCASE("per-channel scales that do not match the channels") {
    G.Tensors[1].Quant->Scales.pop_back();
    G.Tensors[1].Quant->ZeroPoints.pop_back();
    checkModelRejected(Dir, M, "channels.tflite",
                       "graph 0: tensor 1 'conv/weights': 7 per-channel "
                       "scales, but dimension 0 has 8 channels");
  }
  SUBCASE("buffer index out of range") {
    checkPatchedRejected(
        Dir, "buffer-index.tflite",
        [](fb::Model &Root) {
          return Root.mutable_subgraphs()
              ->GetMutableObject(0)
              ->mutable_tensors()
              ->GetMutableObject(1)
              ->mutate_buffer(500);
        },
        "graph 0: tensor 1 'conv/weights': buffer index 500 is out of range "
        "(8 buffers)");
  }
  SUBCASE("unsupported element type") {
    checkPatchedRejected(
        Dir, "string.tflite",
        [](fb::Model &Root) {
          return Root.mutable_subgraphs()
              ->GetMutableObject(0)
              ->mutable_tensors()
              ->GetMutableObject(3)
              ->mutate_type(fb::TensorType::STRING);
        },
        "graph 0: tensor 3 'conv/Relu': element type STRING is not "
        "supported");
  }
}

TEST_CASE("operator codes") {
  test::TempDir Dir;
  SUBCASE("opcode index out of range") {
    checkPatchedRejected(
        Dir, "opcode-index.tflite",
        [](fb::Model &Root) {
          return Root.mutable_subgraphs()
              ->GetMutableObject(0)
              ->mutable_operators()
              ->GetMutableObject(1)
              ->mutate_opcode_index(42);
        },
        "graph 0: operator 1: opcode index 42 is out of range (6 operator "
        "codes)");
  }
}

TEST_CASE("command line misuse") {
  auto CheckUsageError = [](std::vector<std::string> Args,
                            const std::string &Message) {
    test::RunResult R = test::runAccelgen(Args);
    CHECK(R.ExitCode == 1);
    CHECK(R.Stdout == "");
    CHECK(R.Stderr == "error: " + Message + " (see 'accelgen --help')\n");
  };
  SUBCASE("no command") { CheckUsageError({}, "no command given"); }
  SUBCASE("unknown option") {
    CheckUsageError({"--frobnicate"},
                    "Unknown command line argument '--frobnicate'");
  }
  SUBCASE("unknown option of a command") {
    CheckUsageError({"inspect", "--frobnicate", test::exampleModelPath()},
                    "Unknown command line argument '--frobnicate'");
  }
  SUBCASE("unknown command") {
    CheckUsageError({"frobnicate"},
                    "Unknown command line argument 'frobnicate'");
  }
  SUBCASE("inspect without a model") {
    CheckUsageError({"inspect"},
                    "Not enough positional command line arguments specified!");
  }
  SUBCASE("inspect with two models") {
    CheckUsageError(
        {"inspect", test::exampleModelPath(), test::exampleModelPath()},
        "Too many positional arguments specified!");
  }
}

TEST_CASE("--help and --version") {
  SUBCASE("--help") {
    test::RunResult R = test::runAccelgen({"--help"});
    CHECK(R.ExitCode == 0);
    CHECK(R.Stderr == "");
    CHECK(R.Stdout.find("USAGE: accelgen") != std::string::npos);
    CHECK(R.Stdout.find("inspect") != std::string::npos);
  }
  SUBCASE("inspect --help") {
    test::RunResult R = test::runAccelgen({"inspect", "--help"});
    CHECK(R.ExitCode == 0);
    CHECK(R.Stderr == "");
    CHECK(R.Stdout.find("--json") != std::string::npos);
  }
  SUBCASE("--version") {
    test::RunResult R = test::runAccelgen({"--version"});
    CHECK(R.ExitCode == 0);
    CHECK(R.Stderr == "");
    CHECK(R.Stdout == "accelgen " + test::accelgenVersion() + "\n");
  }
}

TEST_CASE("an arena past the limit is rejected before anything is built") {
  // Two int8 inputs of 600,000,000 elements added: more than 1 GiB live at
  // once. The model file itself is small (no constant data).
  ir::GraphBuilder B;
  int32_t X = B.tensor("x", {1, 30000, 20000, 1}, ir::perTensor(0.5f, 0));
  int32_t Y = B.tensor("y", {1, 30000, 20000, 1}, ir::perTensor(0.5f, 0));
  int32_t Z = B.tensor("z", {1, 30000, 20000, 1}, ir::perTensor(1.0f, 0));
  B.op("ADD", {X, Y}, {Z}, {{"fused_activation", std::string("NONE")}});
  B.inputs({X, Y}).outputs({Z});
  ir::Model M;
  M.Graphs.push_back(B.G);
  test::TempDir Dir;
  std::string Path = Dir.file("big.tflite");
  test::writeFileBytes(Path, tflite::writeModel(M));
  test::RunResult R = test::runAccelgen(
      {"compile", Path, "--target", "ref", "-o", Dir.file("out")});
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith(
      "error: " + Path + ": the model needs a working-memory arena of "));
  CHECK(llvm::StringRef(R.Stderr).endswith(
      " bytes, more than the limit of 1 GiB (docs/compile.md)\n"));
  CHECK(llvm::count(R.Stderr, '\n') == 1);
  CHECK_FALSE(llvm::sys::fs::exists(Dir.file("out")));
}

TEST_CASE("a model larger than the limit is read no further") {
  checkRejected("/dev/zero", "the file is larger than the limit of 256 MiB");
}

TEST_CASE("an option missing its value is one line") {
  test::RunResult R = test::runAccelgen(
      {"compile", test::exampleModelPath(), "-o", "x", "--target"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: for the --target option: requires a value! (see "
                    "'accelgen --help')\n");
}

TEST_CASE("control characters in names and paths are spelt out") {
  // A tensor name holding escape sequences (clear the screen, a C1 CSI,
  // a bell) and a model description holding a newline: printed raw they
  // would act on the terminal.
  const std::string Evil = "x\x1b[2J\x07y\xc2\x9b" "31mz";
  ir::GraphBuilder B;
  int32_t X = B.tensor("in", {1, 4}, ir::perTensor(0.5f, 0));
  int32_t Y = B.tensor(Evil, {1, 4}, ir::perTensor(0.5f, 0));
  B.op("RELU", {X}, {Y});
  B.inputs({X}).outputs({Y});
  B.G.Name = "main";
  ir::Model M;
  M.Description = "line one\nline two\r";
  M.Graphs.push_back(B.G);
  test::TempDir Dir;
  const std::string Path = Dir.file("evil.tflite");
  test::writeFileBytes(Path, tflite::writeModel(M));
  auto Clean = [](const std::string &Text) {
    return llvm::none_of(Text, [](char C) {
      const unsigned char U = static_cast<unsigned char>(C);
      return (U < 0x20 && U != '\n') || U == 0x7f;
    }) && Text.find("\xc2\x9b") == std::string::npos;
  };
  for (const std::vector<std::string> &Args :
       {std::vector<std::string>{"inspect", Path},
        std::vector<std::string>{"explain", Path, "--target", "mdla2.0"}}) {
    test::RunResult R = test::runAccelgen(Args);
    INFO(Args[0] << ": " << R.Stderr);
    CHECK(R.ExitCode == 0);
    CHECK(Clean(R.Stdout));
    CHECK(R.Stdout.find("x\\x1b[2J\\x07y\\u009b31mz") != std::string::npos);
  }
  test::RunResult R = test::runAccelgen({"inspect", Path});
  CHECK(R.Stdout.find("\"line one\\nline two\\r\"") != std::string::npos);
  // A newline in a path does not split the one-line error.
  const std::string Odd = Dir.file("two\nlines.tflite");
  R = test::runAccelgen({"inspect", Odd});
  CHECK(R.ExitCode == 1);
  CHECK(llvm::StringRef(R.Stderr).count('\n') == 1);
  CHECK(llvm::StringRef(R.Stderr).startswith(
      "error: " + Dir.path() + "/two\\nlines.tflite: "));
}
