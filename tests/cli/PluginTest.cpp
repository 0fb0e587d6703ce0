//===- PluginTest.cpp - Targets loaded from plugin modules
//-----------------===//
//
// `--load` and ACCELGEN_PLUGIN_PATH with the toy target (tests/cli/plugins/
// toy.td, built with accelgen_add_target(... PLUGIN)): it is listed by
// `accelgen targets` with its origin, explained, compiled and run, with
// outputs identical to the `ref` target's; and every module accelgen must
// refuse gets one error line and exit code 1.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"
#include "target/AbiFingerprint.h"
#include "target/Plugin.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace accelgen;

namespace {

const std::string ToyPlugin = ACCELGEN_TEST_TOY_PLUGIN;

std::string badPlugin(llvm::StringRef Kind) {
  return (llvm::Twine(ACCELGEN_TEST_BAD_PLUGIN_DIR) + "/bad-" + Kind + ".so")
      .str();
}

/// accelgen with ACCELGEN_PLUGIN_PATH set to \p SearchPath.
test::RunResult runWithPluginPath(const std::string &SearchPath,
                                  std::vector<std::string> Args) {
  Args.insert(Args.begin(),
              {"ACCELGEN_PLUGIN_PATH=" + SearchPath, test::accelgenPath()});
  return test::runProgram("/usr/bin/env", Args);
}

/// The one line accelgen printed on stderr, after checking it failed with 1.
std::string oneErrorLine(const test::RunResult &R) {
  INFO(R.Stdout << R.Stderr << R.ErrorMessage);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stdout.empty());
  llvm::StringRef Err(R.Stderr);
  CHECK(Err.endswith("\n"));
  CHECK(Err.count('\n') == 1);
  return Err.rtrim("\n").str();
}

} // namespace

TEST_CASE("targets lists the built-in targets and a loaded plugin") {
  test::RunResult R = test::runAccelgen({"targets", "--load", ToyPlugin});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  // The row of toy, its columns separated by two spaces or more: toy.td
  // declares one version "1", two operators and a functional model.
  llvm::StringRef Out(R.Stdout);
  size_t Row = Out.find("\ntoy ");
  REQUIRE(Row < Out.size());
  llvm::StringRef Line = Out.substr(Row + 1).split('\n').first;
  std::vector<std::string> Columns;
  while (!Line.empty()) {
    size_t Gap = Line.find("  ");
    Columns.push_back(Line.substr(0, Gap).str());
    Line = Gap == llvm::StringRef::npos ? "" : Line.substr(Gap).ltrim(' ');
  }
  CHECK(Columns == std::vector<std::string>{
                       "toy", "1", "2", ToyPlugin,
                       "explain, compile, run: CPU kernels + programs on the "
                       "functional model"});
  CHECK(Out.startswith("target "));
  CHECK(Out.contains("\nref "));
  test::RunResult J =
      test::runAccelgen({"targets", "--json", "--load=" + ToyPlugin});
  REQUIRE(J.ExitCode == 0);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(J.Stdout);
  REQUIRE(static_cast<bool>(V));
  const llvm::json::Array *Rows = V->getAsArray();
  REQUIRE(Rows);
  bool SawToy = false, SawRef = false;
  for (const llvm::json::Value &Row : *Rows) {
    const llvm::json::Object *O = Row.getAsObject();
    REQUIRE(O);
    llvm::StringRef Name = *O->getString("name");
    if (Name == "toy") {
      SawToy = true;
      CHECK(*O->getString("origin") == "plugin");
      CHECK(*O->getString("plugin") == ToyPlugin);
      CHECK(*O->getInteger("operators") == 2);
      CHECK(*O->getBoolean("compile"));
      CHECK(*O->getBoolean("run"));
      REQUIRE(O->getArray("versions")->size() == 1);
      CHECK(*(*O->getArray("versions"))[0].getAsString() == "toy1");
    } else if (Name == "ref") {
      SawRef = true;
      CHECK(*O->getString("origin") == "builtin");
      CHECK(O->get("plugin")->getAsNull());
    }
  }
  CHECK(SawToy);
  CHECK(SawRef);
}

TEST_CASE("--help names the targets, plugins included") {
  test::RunResult R = test::runAccelgen({"--help", "--load", ToyPlugin});
  REQUIRE(R.ExitCode == 0);
  CHECK(R.Stdout.find("toy1") != std::string::npos);
  CHECK(R.Stdout.find("mdla2.0") != std::string::npos);
  CHECK(R.Stdout.find("--load") != std::string::npos);
}

TEST_CASE("a plugin found through ACCELGEN_PLUGIN_PATH") {
  std::string Dir = llvm::sys::path::parent_path(ToyPlugin).str();
  test::RunResult R =
      runWithPluginPath("/nonexistent-but-skipped-not::" + Dir, {"targets"});
  // A folder that does not exist is an error, not silently skipped.
  CHECK(oneErrorLine(R) == "error: ACCELGEN_PLUGIN_PATH: "
                           "'/nonexistent-but-skipped-not' is not a folder");
  R = runWithPluginPath(
      Dir, {"explain", test::exampleModelPath(), "--target", "toy1"});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(R.Stdout.find("on toy1: 2 of 6 operators on the accelerator") !=
        std::string::npos);
}

TEST_CASE("a plugin target compiles and runs, identical to ref") {
  test::TempDir Dir;
  // The example's input: any bytes of the right size will do; both targets
  // get the same ones.
  test::RunResult Io =
      test::runAccelgen({"inspect", test::exampleModelPath(), "--json"});
  REQUIRE(Io.ExitCode == 0);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Io.Stdout);
  REQUIRE(static_cast<bool>(V));
  const llvm::json::Object *Model = V->getAsObject();
  REQUIRE(Model);
  // The input tensor's size, from inspect's own description of the model.
  const llvm::json::Array *Graphs = Model->getArray("subgraphs");
  REQUIRE(Graphs);
  const llvm::json::Object *G = (*Graphs)[0].getAsObject();
  REQUIRE(G);
  // Each input is described in full, its bytes among the rest.
  const llvm::json::Array *Inputs = G->getArray("inputs");
  REQUIRE(Inputs);
  REQUIRE(!Inputs->empty());
  const llvm::json::Object *T = (*Inputs)[0].getAsObject();
  REQUIRE(T);
  const llvm::Optional<int64_t> Bytes = T->getInteger("bytes");
  REQUIRE(Bytes);
  std::vector<uint8_t> Input(static_cast<size_t>(*Bytes));
  for (size_t I = 0; I < Input.size(); ++I)
    Input[I] = static_cast<uint8_t>(I * 37 + 11);
  llvm::sys::fs::create_directories(Dir.file("in"));
  test::writeFileBytes(Dir.file("in/input_0.bin"), Input);

  test::RunResult Ref = test::runAccelgen(
      {"run", test::exampleModelPath(), "--target", "ref", "--inputs",
       Dir.file("in"), "--outputs", Dir.file("ref")});
  INFO(Ref.Stderr);
  REQUIRE(Ref.ExitCode == 0);
  test::RunResult Toy = test::runAccelgen(
      {"run", test::exampleModelPath(), "--load", ToyPlugin, "--target", "toy1",
       "--inputs", Dir.file("in"), "--outputs", Dir.file("toy")});
  INFO(Toy.Stderr);
  REQUIRE(Toy.ExitCode == 0);
  CHECK(test::readFileBytes(Dir.file("toy/output_0.bin")) ==
        test::readFileBytes(Dir.file("ref/output_0.bin")));

  test::RunResult C =
      test::runAccelgen({"compile", test::exampleModelPath(), "--load",
                         ToyPlugin, "--target", "toy1", "-o", Dir.file("c")});
  INFO(C.Stderr);
  REQUIRE(C.ExitCode == 0);
  CHECK(llvm::sys::fs::exists(Dir.file("c/model.c")));
}

TEST_CASE("a module reached twice is loaded once") {
  // --load of a module also on the search path, and a folder listed twice.
  const std::string Dir = llvm::sys::path::parent_path(ToyPlugin).str();
  for (const test::RunResult &R :
       {runWithPluginPath(Dir, {"targets", "--load", ToyPlugin}),
        runWithPluginPath(Dir + ":" + Dir, {"targets"}),
        test::runAccelgen({"targets", "--load", ToyPlugin, "--load",
                           ToyPlugin})}) {
    INFO(R.Stderr);
    CHECK(R.ExitCode == 0);
    CHECK(llvm::StringRef(R.Stdout).count("\ntoy ") == 1);
  }
}

TEST_CASE("modules accelgen refuses: one line, exit code 1") {
  test::TempDir Dir;
  std::string Text = Dir.file("accelgen-text.so");
  // Long enough for an ELF header, so the loader reads it and says why.
  test::writeFileBytes(Text, std::vector<uint8_t>(100, 'x'));
  CHECK(oneErrorLine(test::runAccelgen({"targets", "--load", Text})) ==
        "error: plugin '" + Text +
            "': not a loadable module: invalid ELF header");
  CHECK(oneErrorLine(
            test::runAccelgen({"targets", "--load", Dir.file("missing.so")})) ==
        "error: plugin '" + Dir.file("missing.so") + "': no such file");
  CHECK(oneErrorLine(
            test::runAccelgen({"targets", "--load", badPlugin("no_entry")})) ==
        "error: plugin '" + badPlugin("no_entry") +
            "': exports no accelgenPluginInfo(); is it an accelgen target "
            "plugin (accelgen_add_target(... PLUGIN))?");
  CHECK(oneErrorLine(test::runAccelgen(
            {"targets", "--load", badPlugin("old_version")})) ==
        "error: plugin '" + badPlugin("old_version") +
            "': built against accelgen 0.0.1 with SDK fingerprint " +
            ACCELGEN_ABI_FINGERPRINT + ", this is accelgen " +
            test::accelgenVersion() + " with fingerprint " +
            ACCELGEN_ABI_FINGERPRINT + "; rebuild it against this accelgen");
  // Built against the same version whose target/TargetInfo.h has one more
  // member: the fingerprints differ, and the module is refused.
  const std::string Drifted = oneErrorLine(
      test::runAccelgen({"targets", "--load", badPlugin("drifted")}));
  const std::string Prefix = "error: plugin '" + badPlugin("drifted") +
                             "': built against accelgen " +
                             test::accelgenVersion() + " with SDK fingerprint ";
  REQUIRE(llvm::StringRef(Drifted).startswith(Prefix));
  const std::string Theirs = Drifted.substr(Prefix.size(), 16);
  CHECK(Theirs != ACCELGEN_ABI_FINGERPRINT);
  CHECK(Drifted == Prefix + Theirs + ", this is accelgen " +
                       test::accelgenVersion() + " with fingerprint " +
                       ACCELGEN_ABI_FINGERPRINT +
                       "; rebuild it against this accelgen");
  CHECK(oneErrorLine(
            test::runAccelgen({"targets", "--load", badPlugin("old_abi")})) ==
        "error: plugin '" + badPlugin("old_abi") +
            "': built for plugin interface " +
            std::to_string(target::PluginAbiVersion + 41) +
            ", this accelgen loads interface " +
            std::to_string(target::PluginAbiVersion) +
            "; rebuild it against this accelgen");
  CHECK(oneErrorLine(test::runAccelgen(
            {"targets", "--load", badPlugin("bad_family")})) ==
        "error: plugin '" + badPlugin("bad_family") +
            "': kernel family 'conv_again' of plugin " +
            badPlugin("bad_family") +
            ": operator CONV_2D already runs with kernel family 'conv2d'");
  CHECK(oneErrorLine(
            test::runAccelgen({"targets", "--load", badPlugin("clash")})) ==
        "error: plugin '" + badPlugin("clash") +
            "': target 'ref' is already built in");
  CHECK(oneErrorLine(test::runAccelgen(
            {"targets", "--load", badPlugin("null_factory")})) ==
        "error: plugin '" + badPlugin("null_factory") +
            "': its factory for target 'nothing' returned no target");
  CHECK(oneErrorLine(
            test::runAccelgen({"targets", "--load", badPlugin("misnamed")})) ==
        "error: plugin '" + badPlugin("misnamed") +
            "': names target 'stated' but its factory builds 'built'");
  // Another copy of a module whose target is loaded.
  {
    test::TempDir Copy;
    const std::string Twin = Copy.file("accelgen-twin.so");
    REQUIRE(!llvm::sys::fs::copy_file(ToyPlugin, Twin));
    CHECK(oneErrorLine(test::runAccelgen(
              {"targets", "--load", ToyPlugin, "--load", Twin})) ==
          "error: plugin '" + Twin + "': target 'toy' is already loaded " +
              "from '" + ToyPlugin + "'");
    // A module cut short (a copy interrupted, a full disk) is refused
    // before the loader maps it, which would crash with SIGBUS.
    auto Whole = llvm::MemoryBuffer::getFile(ToyPlugin, false, false);
    REQUIRE(Whole);
    const std::string Cut = Copy.file("accelgen-cut.so");
    test::writeFileBytes(
        Cut, llvm::arrayRefFromStringRef(
                 (*Whole)->getBuffer().take_front((*Whole)->getBufferSize() / 2)));
    for (const char *Command : {"targets", "--version", "--help"}) {
      const std::string Line =
          oneErrorLine(test::runAccelgen({Command, "--load", Cut}));
      CHECK_MESSAGE(llvm::StringRef(Line).startswith(
                        "error: plugin '" + Cut +
                        "': not a loadable module: truncated: "),
                    Line);
    }
  }
  CHECK(oneErrorLine(test::runAccelgen({"targets", "--load"})) ==
        "error: --load needs a module path");
  // A text file in a plugin folder is refused just the same.
  CHECK(oneErrorLine(runWithPluginPath(Dir.path(), {"targets"})) ==
        "error: plugin '" + Text +
            "': not a loadable module: invalid ELF header");
}

TEST_CASE("the template project's target explains the example model") {
  // examples/vendor-target/mynpu.td: version 1 runs the convolutions, the
  // depthwise and fully connected layers, version 2 adds the average pool;
  // RESHAPE and SOFTMAX stay on the CPU, and so does the example's small
  // fully connected layer, for which a switch costs more than it saves.
  test::RunResult R1 =
      test::runAccelgen({"explain", test::exampleModelPath(), "--load",
                         ACCELGEN_TEST_TEMPLATE_PLUGIN, "--target", "mynpu1"});
  INFO(R1.Stderr);
  REQUIRE(R1.ExitCode == 0);
  CHECK(R1.Stdout.find("on mynpu1: 2 of 6 operators on the accelerator") !=
        std::string::npos);
  CHECK(R1.Stdout.find("AVERAGE_POOL_2D is not available on mynpu1 (legal "
                       "from mynpu2)") != std::string::npos);
  test::RunResult R2 =
      test::runAccelgen({"explain", test::exampleModelPath(), "--load",
                         ACCELGEN_TEST_TEMPLATE_PLUGIN, "--target", "mynpu2"});
  INFO(R2.Stderr);
  REQUIRE(R2.ExitCode == 0);
  CHECK(R2.Stdout.find("on mynpu2: 3 of 6 operators on the accelerator") !=
        std::string::npos);
}
