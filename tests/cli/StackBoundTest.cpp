//===- StackBoundTest.cpp - accelgen-stack-bound --------------------------===//
//
// The static stack bound over gcc's call-graph files: hand-written files
// whose deepest chain is known (across files, with a static function of one
// name in two files), every caveat the tool lists (unknown frames, dynamic
// frames, indirect calls, recursion), its errors, and files the host gcc
// writes for a small program, checked against the frame sizes of its own
// `-fstack-usage` output.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

using namespace accelgen;

namespace {

test::RunResult stackBound(llvm::ArrayRef<std::string> Args) {
  return test::runProgram(ACCELGEN_TEST_STACK_BOUND, Args);
}

void write(const std::string &Path, llvm::StringRef Text) {
  test::writeFileBytes(Path, llvm::arrayRefFromStringRef(Text));
}

// main (16) calls run (32, model.c) and helper (8, main.c's own); run calls
// helper (64, model.c's static one) and memcpy (no frame known).
constexpr const char *MainCi = R"ci(graph: { title: "main.c"
node: { title: "main" label: "main\nmain.c:3:5\n16 bytes (static)" }
node: { title: "run" label: "run\nmodel.c:2:6" shape : ellipse }
edge: { sourcename: "main" targetname: "run" label: "main.c:4:3" }
node: { title: "helper" label: "helper\nmain.c:1:13\n8 bytes (static)" }
edge: { sourcename: "main" targetname: "helper" label: "main.c:5:3" }
}
)ci";
constexpr const char *ModelCi = R"ci(graph: { title: "model.c"
node: { title: "run" label: "run\nmodel.c:2:6\n32 bytes (static)" }
node: { title: "helper" label: "helper\nmodel.c:1:13\n64 bytes (static)" }
edge: { sourcename: "run" targetname: "helper" label: "model.c:3:3" }
node: { title: "memcpy" label: "memcpy\n<built-in>" shape : ellipse }
edge: { sourcename: "run" targetname: "memcpy" label: "model.c:4:3" }
}
)ci";

// top (24) calls through a pointer and walk (40, a dynamic frame), which
// calls itself.
constexpr const char *CaveatsCi = R"ci(graph: { title: "a.c"
node: { title: "top" label: "top\na.c:1:5\n24 bytes (static)" }
edge: { sourcename: "top" targetname: "__indirect_call" label: "a.c:2:3" }
edge: { sourcename: "top" targetname: "walk" label: "a.c:3:3" }
node: { title: "walk" label: "walk\na.c:5:5\n40 bytes (dynamic,bounded)" }
edge: { sourcename: "walk" targetname: "walk" label: "a.c:6:3" }
}
)ci";

} // namespace

TEST_CASE("stack bound: the deepest chain across files") {
  test::TempDir Dir;
  write(Dir.file("main.ci"), MainCi);
  write(Dir.file("model.ci"), ModelCi);
  test::RunResult R = stackBound({"--root", "main", "--root", "run",
                                  Dir.file("main.ci"), Dir.file("model.ci")});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  // main's chain takes model.c's helper (64) through run, not main.c's (8).
  CHECK(R.Stdout == "main: 112 bytes\n"
                    "  path: main (16) > run (32) > helper (64)\n"
                    "  assumed frames: none\n"
                    "  unknown frames (counted as 0): memcpy\n"
                    "  dynamic frames: none\n"
                    "  indirect calls from: none\n"
                    "  recursion (not followed): none\n"
                    "run: 96 bytes\n"
                    "  path: run (32) > helper (64)\n"
                    "  assumed frames: none\n"
                    "  unknown frames (counted as 0): memcpy\n"
                    "  dynamic frames: none\n"
                    "  indirect calls from: none\n"
                    "  recursion (not followed): none\n");
}

TEST_CASE("stack bound: a frame given to a function the files lack") {
  test::TempDir Dir;
  write(Dir.file("main.ci"), MainCi);
  write(Dir.file("model.ci"), ModelCi);
  // memcpy, a leaf of 80 bytes, now ends the deepest chain under run.
  test::RunResult R = stackBound({"--root", "main", "--frame", "memcpy=80",
                                  Dir.file("main.ci"), Dir.file("model.ci")});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(R.Stdout == "main: 128 bytes\n"
                    "  path: main (16) > run (32) > memcpy (80, assumed)\n"
                    "  assumed frames: memcpy (80)\n"
                    "  unknown frames (counted as 0): none\n"
                    "  dynamic frames: none\n"
                    "  indirect calls from: none\n"
                    "  recursion (not followed): none\n");
  test::RunResult Bad =
      stackBound({"--root", "main", "--frame", "memcpy", Dir.file("main.ci")});
  CHECK(Bad.ExitCode == 1);
  CHECK(Bad.Stderr.find("--frame 'memcpy' is not NAME=BYTES") !=
        std::string::npos);
}

TEST_CASE("stack bound: what the call graph cannot bound is listed") {
  test::TempDir Dir;
  write(Dir.file("a.ci"), CaveatsCi);
  test::RunResult R = stackBound({"--root", "top", Dir.file("a.ci")});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(R.Stdout == "top: 64 bytes\n"
                    "  path: top (24) > walk (40)\n"
                    "  assumed frames: none\n"
                    "  unknown frames (counted as 0): none\n"
                    "  dynamic frames: walk (dynamic,bounded)\n"
                    "  indirect calls from: top\n"
                    "  recursion (not followed): walk -> walk\n");
}

TEST_CASE("stack bound: errors") {
  test::TempDir Dir;
  write(Dir.file("main.ci"), MainCi);
  test::RunResult R =
      stackBound({"--root", "nowhere", "--root", "main", Dir.file("main.ci")});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr.find("error: function 'nowhere' is not defined in the files "
                      "given") != std::string::npos);
  // The other root is still bounded (run has no frame in this file).
  CHECK(llvm::StringRef(R.Stdout).startswith("main: 24 bytes\n"));
  test::RunResult Missing =
      stackBound({"--root", "main", Dir.file("absent.ci")});
  CHECK(Missing.ExitCode == 1);
  CHECK(Missing.Stderr.find("absent.ci: No such file or directory") !=
        std::string::npos);
}

TEST_CASE("stack bound: gcc's own files for a small program") {
  llvm::ErrorOr<std::string> Gcc = llvm::sys::findProgramByName("gcc");
  if (!Gcc) {
    MESSAGE("skipped: gcc is not on PATH");
    return;
  }
  test::TempDir Dir;
  write(Dir.file("p.c"), R"(
__attribute__((noinline)) int leaf(volatile char *p, int n) {
  volatile char buf[200];
  buf[n] = p[n];
  return buf[0];
}
__attribute__((noinline)) int mid(int n) {
  volatile char buf[100];
  buf[0] = (char)n;
  return leaf(buf, n) + 1;
}
int main(void) { return mid(3) == 0; }
)");
  test::RunResult C =
      test::runProgram(*Gcc, {"-O1", "-fstack-usage", "-fcallgraph-info=su",
                              "-c", Dir.file("p.c"), "-o", Dir.file("p.o")});
  if (C.ExitCode != 0) {
    MESSAGE("skipped: gcc cannot write call graphs: " << C.Stderr);
    return;
  }
  // The expected bound: the frames gcc reports in p.su, summed along
  // main > mid > leaf.
  std::string Su = test::readFileText(Dir.file("p.su"));
  int64_t Sum = 0;
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  llvm::StringRef(Su).split(Lines, '\n', -1, false);
  REQUIRE(Lines.size() == 3);
  for (llvm::StringRef L : Lines) {
    llvm::SmallVector<llvm::StringRef, 3> Fields;
    L.split(Fields, '\t');
    REQUIRE(Fields.size() == 3);
    int64_t Bytes = 0;
    REQUIRE(!Fields[1].getAsInteger(10, Bytes));
    Sum += Bytes;
  }
  test::RunResult R = stackBound({"--root", "main", Dir.file("p.ci")});
  INFO(R.Stderr);
  REQUIRE(R.ExitCode == 0);
  CHECK(llvm::StringRef(R.Stdout).startswith("main: " + std::to_string(Sum) +
                                             " bytes\n"));
  CHECK(R.Stdout.find("path: main (") != std::string::npos);
}
