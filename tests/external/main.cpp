//===- main.cpp - Legalize one graph for the vendor's targets -------------===//
//
// in [1,8,8,4] -> CONV_2D (stride S) -> RELU -> ADD(other) -> out, legalized
// for acme1, acme2 (where conv + RELU fuse) and lite; prints each operator's
// placement and reasons, one line per operator.
//
//===----------------------------------------------------------------------===//
#include "target/Legalize.h"
#include "target/PatternMatcher.h"
#include "target/TargetInfo.h"

#include <cstdio>
#include <memory>

namespace accelgen::targets {
namespace acme {
std::unique_ptr<target::TargetInfo> createTargetInfo();
}
namespace lite {
std::unique_ptr<target::TargetInfo> createTargetInfo();
}
} // namespace accelgen::targets

using namespace accelgen;

namespace {

int32_t addTensor(ir::Graph &G, const char *Name, std::vector<int32_t> Shape,
                  bool Constant = false) {
  ir::Tensor T;
  T.Name = Name;
  T.Shape = std::move(Shape);
  T.Type = ir::DType::I8;
  T.Quant = ir::QuantParams{{0.5f}, {0}, 0};
  T.IsConstant = Constant;
  if (Constant)
    T.Data.assign(static_cast<size_t>(T.byteSize()), 0);
  G.Tensors.push_back(std::move(T));
  return static_cast<int32_t>(G.Tensors.size() - 1);
}

ir::Graph makeGraph(int64_t Stride) {
  ir::Graph G;
  int32_t In = addTensor(G, "in", {1, 8, 8, 4});
  int32_t W = addTensor(G, "w", {4, 3, 3, 4}, true);
  int32_t Conv = addTensor(G, "conv", {1, 8, 8, 4});
  int32_t Relu = addTensor(G, "relu", {1, 8, 8, 4});
  int32_t Other = addTensor(G, "other", {1, 8, 8, 4});
  int32_t Out = addTensor(G, "out", {1, 8, 8, 4});
  ir::Operator C;
  C.Type = "CONV_2D";
  C.Inputs = {In, W, -1};
  C.Outputs = {Conv};
  C.Attrs = {{"padding", std::string("SAME")}, {"stride_h", Stride},
             {"stride_w", Stride}, {"dilation_h", int64_t(1)},
             {"dilation_w", int64_t(1)},
             {"fused_activation", std::string("NONE")}};
  ir::Operator R;
  R.Type = "RELU";
  R.Inputs = {Conv};
  R.Outputs = {Relu};
  ir::Operator A;
  A.Type = "ADD";
  A.Inputs = {Relu, Other};
  A.Outputs = {Out};
  A.Attrs = {{"fused_activation", std::string("NONE")}};
  G.Operators = {C, R, A};
  G.Inputs = {In, Other};
  G.Outputs = {Out};
  return G;
}

void run(const target::TargetInfo &T, unsigned Version, int64_t Stride) {
  ir::Graph G = makeGraph(Stride);
  size_t Fused = target::fusePatterns(G, T.patterns(), Version);
  target::LegalizeReport R = target::legalize(G, T, Version);
  std::printf("%s, stride %lld: %zu fused, %zu of %zu on the accelerator\n",
              R.Target.c_str(), static_cast<long long>(Stride), Fused,
              R.numLegal(), R.Ops.size());
  for (const target::OpLegalization &Op : R.Ops) {
    std::printf("  %s -> %s: %s\n", Op.OriginalType.c_str(), Op.Type.c_str(),
                Op.Legal ? "accelerator" : "cpu");
    for (const target::Rejection &Why : Op.Why)
      std::printf("    %s: %s%s%s\n", Why.ConstraintId.c_str(),
                  Why.Message.c_str(), Why.Hint.empty() ? "" : "; ",
                  Why.Hint.c_str());
  }
}

} // namespace

int main() {
  auto Acme = targets::acme::createTargetInfo();
  auto Lite = targets::lite::createTargetInfo();
  run(*Acme, 0, 1);
  run(*Acme, 0, 4);
  run(*Acme, 1, 1);
  run(*Lite, 0, 1);
  return 0;
}
