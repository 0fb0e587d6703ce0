//===- TemplateBench.cpp - Rendering speed of the template engine ---------===//
//
// Renders tests/template/elementwise_add.c.in 3,000 times (int8, uint8 and
// float, batch tiles 1 to 16) and, as the peer in the same run, builds the
// same 3,000 outputs by plain string substitution of their text with
// llvm::formatv-free concatenation: the rendered text of each dtype and tile
// is produced once by the engine, then copied. The ratio says what the
// engine's interpretation costs over just producing the bytes.
//
//   accelgen-bench-template [ROUNDS]        (default 5; prints the median)
//
//===----------------------------------------------------------------------===//
#include "template/Template.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace accelgen::tmpl;

namespace {

double seconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int Rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  llvm::Expected<Template> T =
      Template::parseFile(ACCELGEN_BENCH_SOURCE_DIR "/tests/template/elementwise_add.c.in");
  if (!T) {
    llvm::errs() << "error: " << llvm::toString(T.takeError()) << "\n";
    return 1;
  }
  const char *DTypes[] = {"int8", "uint8", "float"};
  auto Bind = [&](int I) {
    return Bindings{{"TARGET", "Ref"},
                    {"DTYPE", DTypes[I % 3]},
                    {"BATCH_TILE", 1 + (I / 3) % 16}};
  };
  std::map<int, std::string> Once;
  for (int I = 0; I < 48; ++I)
    Once[I] = *T->render(Bind(I));

  std::vector<double> Engine, Copy;
  size_t Bytes = 0;
  for (int R = 0; R < Rounds; ++R) {
    auto Start = std::chrono::steady_clock::now();
    for (int I = 0; I < 3000; ++I)
      Bytes += T->render(Bind(I))->size();
    Engine.push_back(seconds(Start));
    Start = std::chrono::steady_clock::now();
    for (int I = 0; I < 3000; ++I) {
      std::string S = Once[I % 48];
      Bytes += S.size();
    }
    Copy.push_back(seconds(Start));
  }
  double E = median(Engine), C = median(Copy);
  llvm::outs() << "3000 renders of elementwise_add.c.in: "
               << llvm::format("%.2f", E * 1000) << " ms ("
               << llvm::format("%.1f", 3000 / E / 1000) << "k renders/s); "
               << "copying the same bytes: " << llvm::format("%.2f", C * 1000)
               << " ms; ratio " << llvm::format("%.0f", E / C) << "x ("
               << Bytes << " bytes)\n";
  return 0;
}
