//===- GeneratedEscapesTest.cpp - Description strings in generated code ---===//
//
// hostile/hostile.td holds strings with newlines, backslashes, quotes, `*/`,
// `/*`, `??/`, `|`, backticks and `-->`. This file includes everything
// generated from it (so the build fails if any of it does not compile), runs
// its checks to see each summary come back exactly, and checks that the
// generated Markdown keeps its tables whole.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"
#include "target/TargetLibTestSupport.h"

namespace accelgen {
namespace targets {
namespace hostile {
/// The C++ function hostile.td's constraint "never" names.
bool neverHolds(const ir::Graph &, const ir::Operator &) { return false; }
} // namespace hostile
} // namespace targets
} // namespace accelgen

#include "target/GeneratedTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <string>

using namespace accelgen;

namespace {

std::string generated(llvm::StringRef Name) {
  auto Buf = llvm::MemoryBuffer::getFile(ACCELGEN_HOSTILE_DIR "/" + Name);
  REQUIRE(bool(Buf));
  return (*Buf)->getBuffer().str();
}

/// The cells of a Markdown table row: '|' not escaped by '\' separates them.
size_t cells(llvm::StringRef Row) {
  size_t Bars = 0;
  for (size_t I = 0; I < Row.size(); ++I)
    if (Row[I] == '\\')
      ++I;
    else if (Row[I] == '|')
      ++Bars;
  return Bars - 1;
}

} // namespace

TEST_CASE("a failed check reports its summary exactly") {
  ir::GraphBuilder B;
  int32_t In = B.tensor("in", {1, 8}, ir::perTensor(0.5f, 0));
  int32_t Out = B.tensor("out", {1, 8}, ir::perTensor(0.5f, 0));
  const ir::Operator &Relu = B.op("RELU", {In}, {Out}, {});
  std::string Message;
  CHECK_FALSE(
      targets::hostile::check_rank_____q_____tick_(B.G, Relu, Message));
  CHECK(Message == "input(0).rank = 2, must be 4");
  CHECK_FALSE(targets::hostile::check_never(B.G, Relu, Message));
  CHECK(Message ==
        "line one\n#error injected */ /* | `tick` \"quoted\" ?\?/ ends in \\");
}

TEST_CASE("generated C++ has no line a description wrote") {
  for (const char *File : {"Legality.inc", "OpSetups.inc", "Patterns.inc",
                           "ConstraintTests.inc", "DeviceRules.inc"}) {
    INFO(File);
    llvm::SmallVector<llvm::StringRef, 0> Lines;
    std::string Text = generated(File);
    llvm::StringRef(Text).split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      CHECK_FALSE(L.ltrim().startswith("#error"));
      // A '//' comment ending in a backslash would swallow the next line.
      if (L.contains("//"))
        CHECK_FALSE(L.rtrim().endswith("\\"));
    }
  }
}

TEST_CASE("generated Markdown keeps its tables and headings") {
  for (const char *File : {"SupportedOps.md", "VersionDiff.md"}) {
    INFO(File);
    std::string Text = generated(File);
    llvm::SmallVector<llvm::StringRef, 0> Lines;
    llvm::StringRef(Text).split(Lines, '\n');
    size_t Header = 0;
    for (llvm::StringRef L : Lines) {
      if (!L.startswith("|")) {
        Header = 0;
        CHECK_FALSE(L.startswith("# not a heading"));
        continue;
      }
      if (!Header)
        Header = cells(L);
      INFO(L.str());
      CHECK(cells(L) == Header);
    }
  }
}
