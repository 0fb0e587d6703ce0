//===- CascadeTest.cpp - The cascading planner and its checker ------------===//
//
// The stripe transforms as defs/ops.td declares them; the input rows of a
// window worked out by hand; a small convolution chain whose windows are
// worked out by hand; budgets below, at and above what the planner can reach;
// the checker on cascades broken on purpose; and every stateless shared
// model, whose cascaded plan must pass the checker and need no more than the
// layer-at-a-time arena.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "ir/Verifier.h"
#include "plan/Cascade.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

using namespace accelgen;
using plan::CascadeOptions;
using plan::CascadePlan;

namespace {

ir::Tensor tensor(std::vector<int32_t> Shape, bool Constant = false) {
  ir::Tensor T;
  T.Name = "t";
  T.Shape = std::move(Shape);
  T.Type = ir::DType::F32;
  T.IsConstant = Constant;
  if (Constant)
    T.Data.assign(static_cast<size_t>(T.byteSize()), 0);
  return T;
}

int32_t add(ir::Graph &G, ir::Tensor T) {
  G.Tensors.push_back(std::move(T));
  return static_cast<int32_t>(G.Tensors.size() - 1);
}

/// A convolution-like operator with SAME padding.
ir::Operator window(const char *Type, int32_t In, int32_t Filter, int32_t Out,
                    int64_t Stride) {
  ir::Operator Op;
  Op.Type = Type;
  Op.Inputs = {In, Filter, -1};
  Op.Outputs = {Out};
  Op.setAttr(ir::attr::Padding, std::string("SAME"));
  Op.setAttr(ir::attr::StrideH, Stride);
  Op.setAttr(ir::attr::StrideW, Stride);
  Op.setAttr(ir::attr::DilationH, int64_t(1));
  Op.setAttr(ir::attr::DilationW, int64_t(1));
  Op.setAttr(ir::attr::FusedActivation, std::string("NONE"));
  return Op;
}

/// Input 1xHxWxIC, CONV_2D 3x3 to MC channels, DEPTHWISE_CONV_2D 3x3
/// stride 2 to half the rows and columns (rounded up), CONV_2D 1x1 to OC
/// channels; float32, so 4 bytes an element.
ir::Graph convChain(int32_t H, int32_t W, int32_t IC, int32_t MC, int32_t OC) {
  ir::Graph G;
  const int32_t H2 = (H + 1) / 2, W2 = (W + 1) / 2;
  int32_t In = add(G, tensor({1, H, W, IC}));
  int32_t A = add(G, tensor({1, H, W, MC}));
  int32_t B = add(G, tensor({1, H2, W2, MC}));
  int32_t C = add(G, tensor({1, H2, W2, OC}));
  int32_t FA = add(G, tensor({MC, 3, 3, IC}, true));
  int32_t FB = add(G, tensor({1, 3, 3, MC}, true));
  int32_t FC = add(G, tensor({OC, 1, 1, MC}, true));
  G.Operators.push_back(window("CONV_2D", In, FA, A, 1));
  G.Operators.push_back(window("DEPTHWISE_CONV_2D", A, FB, B, 2));
  G.Operators.back().setAttr(ir::attr::DepthMultiplier, int64_t(1));
  G.Operators.push_back(window("CONV_2D", B, FC, C, 1));
  G.Inputs = {In};
  G.Outputs = {C};
  return G;
}

/// Input 1x7x6x2, CONV_2D 3x3 to 1x7x6x4, DEPTHWISE_CONV_2D 3x3 stride 2 to
/// 1x4x3x4, CONV_2D 1x1 to 1x4x3x2.
ir::Graph chain() { return convChain(7, 6, 2, 4, 2); }

/// Input 1x8x8x1, CONV_2D 3x3 to 1x8x8x16, DEPTHWISE_CONV_2D 3x3 stride 2
/// to 1x4x4x16, CONV_2D 1x1 to 1x4x4x1: a wide middle, where tiles need
/// less than stripes.
ir::Graph wideChain() { return convChain(8, 8, 1, 16, 1); }

/// The smallest budget the error for a budget of one byte names, which
/// plan::smallestBudget gives too.
int64_t smallestNamed(const ir::Graph &G, CascadeOptions O) {
  O.Enabled = true;
  O.Budget = 1;
  llvm::Expected<CascadePlan> None = plan::planCascades(G, O);
  REQUIRE_FALSE(bool(None));
  const std::string Message = llvm::toString(None.takeError());
  const size_t At = Message.find("works is ");
  REQUIRE(At != std::string::npos);
  const int64_t Named = std::stoll(Message.substr(At + 9));
  CHECK(plan::smallestBudget(G, O) == Named);
  return Named;
}

/// A residual block, float32, 1x8x4 images: in -> CONV_2D 1x1 -> x (2
/// channels, 256 bytes); then, when \p Expanded, x -> CONV_2D 1x1 -> 16
/// channels -> DEPTHWISE_CONV_2D 3x3 -> CONV_2D 1x1 -> y, else x ->
/// CONV_2D 3x3 -> 16 channels -> CONV_2D 1x1 -> y; ADD(x, y) -> out.
ir::Graph residual(bool Expanded) {
  ir::Graph G;
  int32_t In = add(G, tensor({1, 8, 4, 2}));
  int32_t X = add(G, tensor({1, 8, 4, 2}));
  int32_t F0 = add(G, tensor({2, 1, 1, 2}, true));
  G.Operators.push_back(window("CONV_2D", In, F0, X, 1));
  int32_t Y;
  if (Expanded) {
    int32_t A = add(G, tensor({1, 8, 4, 16}));
    int32_t B = add(G, tensor({1, 8, 4, 16}));
    Y = add(G, tensor({1, 8, 4, 2}));
    int32_t F1 = add(G, tensor({16, 1, 1, 2}, true));
    int32_t F2 = add(G, tensor({1, 3, 3, 16}, true));
    int32_t F3 = add(G, tensor({2, 1, 1, 16}, true));
    G.Operators.push_back(window("CONV_2D", X, F1, A, 1));
    G.Operators.push_back(window("DEPTHWISE_CONV_2D", A, F2, B, 1));
    G.Operators.back().setAttr(ir::attr::DepthMultiplier, int64_t(1));
    G.Operators.push_back(window("CONV_2D", B, F3, Y, 1));
  } else {
    int32_t A = add(G, tensor({1, 8, 4, 16}));
    Y = add(G, tensor({1, 8, 4, 2}));
    int32_t F1 = add(G, tensor({16, 3, 3, 2}, true));
    int32_t F2 = add(G, tensor({2, 1, 1, 16}, true));
    G.Operators.push_back(window("CONV_2D", X, F1, A, 1));
    G.Operators.push_back(window("CONV_2D", A, F2, Y, 1));
  }
  int32_t Out = add(G, tensor({1, 8, 4, 2}));
  ir::Operator Add;
  Add.Type = "ADD";
  Add.Inputs = {X, Y};
  Add.Outputs = {Out};
  Add.setAttr(ir::attr::FusedActivation, std::string("NONE"));
  G.Operators.push_back(Add);
  G.Inputs = {In};
  G.Outputs = {Out};
  return G;
}

/// A PAD of \p In into \p Out with the paddings [[0, 0], [Top, Bottom],
/// [Left, Right], [0, 0]].
ir::Operator pad(ir::Graph &G, int32_t In, int32_t Out, int32_t Top,
                 int32_t Bottom, int32_t Left, int32_t Right) {
  ir::Operator Pad;
  Pad.Type = "PAD";
  Pad.Inputs = {In, add(G, test::int32Constant("paddings", {4, 2},
                                               {0, 0, Top, Bottom, Left,
                                                Right, 0, 0}))};
  Pad.Outputs = {Out};
  return Pad;
}

/// Input 1x5x4x2, CONV_2D 3x3 SAME to 1x5x4x8, PAD rows [2, 1] and columns
/// [1, 1] to 1x8x6x8, CONV_2D 3x3 VALID to 1x6x4x2; float32.
ir::Graph padded() {
  ir::Graph G;
  int32_t In = add(G, tensor({1, 5, 4, 2}));
  int32_t A = add(G, tensor({1, 5, 4, 8}));
  int32_t B = add(G, tensor({1, 8, 6, 8}));
  int32_t C = add(G, tensor({1, 6, 4, 2}));
  int32_t FA = add(G, tensor({8, 3, 3, 2}, true));
  int32_t FC = add(G, tensor({2, 3, 3, 8}, true));
  G.Operators.push_back(window("CONV_2D", In, FA, A, 1));
  G.Operators.push_back(pad(G, A, B, 2, 1, 1, 1));
  G.Operators.push_back(window("CONV_2D", B, FC, C, 1));
  G.Operators.back().setAttr(ir::attr::Padding, std::string("VALID"));
  G.Inputs = {In};
  G.Outputs = {C};
  return G;
}

/// Input 1x6x4x2, CONV_2D 3x3 SAME to 1x6x4x8 (32 bytes a row), then
/// FULLY_CONNECTED with a [3, 192] filter to [1, 3]; int8 unless \p Type
/// says otherwise, the filter's rows \p Depth long.
ir::Graph summed(ir::DType Type = ir::DType::I8, int32_t Depth = 192,
                 int32_t Batches = 1) {
  ir::Graph G;
  auto Typed = [&](std::vector<int32_t> Shape, bool Constant = false) {
    ir::Tensor T = tensor(std::move(Shape), Constant);
    T.Type = Type;
    if (Constant)
      T.Data.assign(static_cast<size_t>(T.byteSize()), 0);
    return T;
  };
  int32_t In = add(G, Typed({1, 6, 4, 2}));
  int32_t A = add(G, Typed({1, 6, 4, 8}));
  int32_t Out = add(G, Typed({Batches, 3}));
  int32_t FA = add(G, Typed({8, 3, 3, 2}, true));
  int32_t FB = add(G, Typed({3, Depth}, true));
  G.Operators.push_back(window("CONV_2D", In, FA, A, 1));
  ir::Operator Fc;
  Fc.Type = "FULLY_CONNECTED";
  Fc.Inputs = {A, FB, -1};
  Fc.Outputs = {Out};
  Fc.setAttr(ir::attr::FusedActivation, std::string("NONE"));
  G.Operators.push_back(Fc);
  G.Inputs = {In};
  G.Outputs = {Out};
  return G;
}

std::string joined(const std::vector<std::string> &Lines) {
  return llvm::join(Lines, "\n");
}

/// \p G's cascaded plan, checked; \p Overlays lets a cascade's output take
/// over the bytes of a whole tensor (CascadeOptions::CascadeOverlays).
CascadePlan planned(const ir::Graph &G, int64_t Budget = -1,
                    bool Overlays = true) {
  CascadeOptions O;
  O.Enabled = true;
  O.Budget = Budget;
  O.CascadeOverlays = Overlays;
  llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
  std::vector<std::string> Problems = plan::verifyCascades(G, *P);
  CHECK_MESSAGE(Problems.empty(), joined(Problems));
  return std::move(*P);
}

/// A plan written out by hand: one cascade of operators 0-1 holding
/// tensor \p Window one 32-byte row at a time, with \p Steps (Conv, Second)
/// per row, and operator 1's output \p Out over tensor \p Over's bytes;
/// the arena placed with those options, the overlay in it.
CascadePlan overlaidByHand(const ir::Graph &G, int32_t Window, int32_t Out,
                           int32_t Over,
                           std::vector<std::vector<plan::StripeStep>> Steps) {
  CascadePlan P;
  plan::Cascade C;
  C.FirstOp = 0;
  C.LastOp = 1;
  C.Windowed = {Window};
  C.WindowRows = {1};
  C.RowBytes = {32};
  C.Steps = std::move(Steps);
  C.Overlaid = Over;
  P.Cascades = {C};
  P.Options.Groups = {{0, 1}};
  P.Options.HeldBytes = {{Window, 32}};
  P.Options.GroupOverlays = {{Out, Over}};
  P.Memory = plan::planMemory(G, P.Options);
  REQUIRE(P.Memory.find(Out));
  REQUIRE(P.Memory.find(Out)->AliasOf == Over);
  return P;
}

/// \p P's one cascade, which must run operators [First, Last].
const plan::Cascade &onlyCascade(const CascadePlan &P, int32_t First,
                                 int32_t Last) {
  REQUIRE(P.Cascades.size() == 1);
  const plan::Cascade &C = P.Cascades[0];
  CHECK(C.FirstOp == First);
  CHECK(C.LastOp == Last);
  return C;
}

} // namespace

TEST_CASE("stripe transforms come from defs/ops.td") {
  ir::RowMap Conv = ir::rowMap(ir::OpCode::Conv2D);
  CHECK(Conv.Kind == ir::RowKind::Window);
  CHECK(Conv.Stride == "stride_h");
  CHECK(Conv.Dilation == "dilation_h");
  CHECK(Conv.KernelOperand == 1);
  ir::RowMap Pool = ir::rowMap(ir::OpCode::MaxPool2D);
  CHECK(Pool.Kind == ir::RowKind::Window);
  CHECK(Pool.Kernel == "filter_h");
  CHECK(Pool.Dilation.empty());
  CHECK(Pool.KernelOperand == -1);
  CHECK(ir::rowMap(ir::OpCode::Add).Kind == ir::RowKind::Identity);
  CHECK(ir::rowMap(ir::OpCode::Concatenation).Kind == ir::RowKind::Identity);
  CHECK(ir::rowMap(ir::OpCode::Pad).Kind == ir::RowKind::Shifted);
  CHECK(ir::rowMap(ir::OpCode::FullyConnected).Kind == ir::RowKind::Accumulate);
  CHECK(ir::rowMap(ir::OpCode::Softmax).Kind == ir::RowKind::Whole);
  CHECK(ir::rowMap(ir::OpCode::Unknown).Kind == ir::RowKind::Whole);
}

TEST_CASE("tile transforms come from defs/ops.td: windows over columns") {
  ir::RowMap Conv = ir::colMap(ir::OpCode::Conv2D);
  CHECK(Conv.Kind == ir::RowKind::Window);
  CHECK(Conv.Stride == "stride_w");
  CHECK(Conv.Dilation == "dilation_w");
  CHECK(Conv.KernelOperand == 1);
  ir::RowMap Pool = ir::colMap(ir::OpCode::AveragePool2D);
  CHECK(Pool.Kind == ir::RowKind::Window);
  CHECK(Pool.Kernel == "filter_w");
  CHECK(ir::colMap(ir::OpCode::DepthwiseConv2D).Kind == ir::RowKind::Window);
  CHECK(ir::colMap(ir::OpCode::Add).Kind == ir::RowKind::Whole);
  CHECK(ir::colMap(ir::OpCode::Pad).Kind == ir::RowKind::Whole);
}

TEST_CASE("a window's input rows: stride, kernel and SAME padding") {
  // 7 rows, 3x3 stride 2 SAME: 4 output rows, (4-1)*2 + 3 - 7 = 2 padding
  // rows in all, 1 above.
  ir::Graph G = chain();
  const ir::Operator &Dw = G.Operators[1];
  int32_t Pad = -1;
  plan::RowRange R = plan::stripeInputRows(G, Dw, {0, 1}, Pad);
  CHECK(R.Begin == 0);
  CHECK(R.End == 2);
  CHECK(Pad == 1);
  R = plan::stripeInputRows(G, Dw, {1, 3}, Pad);
  CHECK(R.Begin == 1);
  CHECK(R.End == 6);
  CHECK(Pad == 0);
  R = plan::stripeInputRows(G, Dw, {3, 4}, Pad);
  CHECK(R.Begin == 5);
  CHECK(R.End == 7);
  CHECK(Pad == 0);
  // A 1x1 convolution reads its own rows.
  R = plan::stripeInputRows(G, G.Operators[2], {2, 3}, Pad);
  CHECK(R.Begin == 2);
  CHECK(R.End == 3);
  CHECK(Pad == 0);
}

TEST_CASE("PAD's input rows: shifted by the padding before the rows") {
  // Output row r copies input row r - 2 of 5; the rest are padding.
  ir::Graph G = padded();
  REQUIRE(ir::rowShift(G, G.Operators[1]) == 2);
  const ir::Operator &Pad = G.Operators[1];
  int32_t PadTop = -1;
  // Only padding: nothing read.
  plan::RowRange R = plan::stripeInputRows(G, Pad, {0, 2}, PadTop);
  CHECK(R.empty());
  CHECK(R.Begin == 0);
  CHECK(PadTop == 2);
  // One row of padding, then input rows 0 and 1.
  R = plan::stripeInputRows(G, Pad, {1, 4}, PadTop);
  CHECK(R.Begin == 0);
  CHECK(R.End == 2);
  CHECK(PadTop == 1);
  R = plan::stripeInputRows(G, Pad, {3, 7}, PadTop);
  CHECK(R.Begin == 1);
  CHECK(R.End == 5);
  CHECK(PadTop == 0);
  // The last row is padding after the input.
  R = plan::stripeInputRows(G, Pad, {7, 8}, PadTop);
  CHECK(R.empty());
  CHECK(PadTop == 0);
  // A paddings tensor that is not constant makes PAD whole.
  ir::Graph Bad = padded();
  Bad.tensor(Bad.Operators[1].Inputs[1]).IsConstant = false;
  CHECK(plan::whyNotStripable(Bad, 1) ==
        std::optional<std::string>(
            "its row padding is not a constant of the expected shape"));
  CHECK_FALSE(plan::whyNotStripable(G, 1));
}

TEST_CASE("a PAD inside a cascade, and the checker on its steps") {
  ir::Graph G = padded();
  REQUIRE(ir::verifyGraph(G).empty());
  CascadePlan P = planned(G);
  const plan::Cascade *C = P.cascadeOf(1);
  REQUIRE(C);
  CHECK(P.Memory.ArenaBytes < P.LayerMemory.ArenaBytes);
  // Every row of the padded tensor is written once, from the rows of A it
  // shifts.
  bool SawPadding = false;
  for (const std::vector<plan::StripeStep> &Step : C->Steps) {
    const plan::StripeStep &S = Step[1 - C->FirstOp];
    if (S.Out.empty())
      continue;
    int32_t PadTop = 0;
    plan::RowRange R = plan::stripeInputRows(G, G.Operators[1], S.Out, PadTop);
    CHECK(S.In.Begin == R.Begin);
    CHECK(S.In.End == R.End);
    CHECK(S.PadTop == PadTop);
    SawPadding |= S.PadTop > 0;
  }
  CHECK(SawPadding);
  // A step that claims other padding rows is found.
  CascadePlan Broken = P;
  plan::Cascade &B = Broken.Cascades[C - P.Cascades.data()];
  for (std::vector<plan::StripeStep> &Step : B.Steps)
    if (Step[1 - B.FirstOp].PadTop > 0) {
      Step[1 - B.FirstOp].PadTop += 1;
      break;
    }
  const std::string Found = joined(plan::verifyCascades(G, Broken));
  CHECK(Found.find("operator 1 (PAD): reads rows") != std::string::npos);
}

TEST_CASE("a window out of the row arithmetic's range stays whole") {
  // Found by the pipeline fuzzer: a dilation of 2^31 - 1 overflowed the
  // planner's int32 rows, and the checker rejected the plan.
  ir::Graph G = chain();
  G.Operators[1].setAttr(ir::attr::DilationH, int64_t(2147483647));
  CHECK(plan::whyNotStripable(G, 1) ==
        std::optional<std::string>(
            "its stride, dilation or kernel height is outside [1, 2^15)"));
  G.Operators[1].setAttr(ir::attr::DilationH, int64_t(1));
  G.Operators[1].setAttr(ir::attr::StrideH, int64_t(0));
  CHECK(plan::whyNotStripable(G, 1).has_value());
  G.Operators[1].setAttr(ir::attr::StrideH, int64_t(2));
  G.Operators[1].Inputs[1] = -1;
  CHECK(plan::whyNotStripable(G, 1) ==
        std::optional<std::string>("its kernel operand has no height"));
  // An output taller than the stride gives (found by the pipeline fuzzer:
  // a window reading rows the window had already let go): row 3 of 4 at
  // stride 4 over 7 rows would start past the input.
  ir::Graph Tall = chain();
  Tall.Operators[1].setAttr(ir::attr::StrideH, int64_t(4));
  CHECK(plan::whyNotStripable(Tall, 1) ==
        std::optional<std::string>(
            "its output rows do not follow from its input's by its stride"));
  planned(Tall);
  // A plan around such an operator is still sound.
  ir::Graph H = chain();
  H.Operators[1].setAttr(ir::attr::DilationH, int64_t(2147483647));
  planned(H);
}

TEST_CASE("rows no consumer reads are computed too, once") {
  // Found by the pipeline fuzzer: a 1x1 VALID convolution of stride 2 over 8
  // rows reads rows 0, 2, 4 and 6 only; row 7 of its input must still be
  // computed (layer dumps show every row), and once.
  ir::Graph G;
  int32_t In = add(G, tensor({1, 8, 4, 2}));
  int32_t A = add(G, tensor({1, 8, 4, 8}));
  int32_t B = add(G, tensor({1, 4, 2, 8}));
  int32_t FA = add(G, tensor({8, 3, 3, 2}, true));
  int32_t FB = add(G, tensor({8, 1, 1, 8}, true));
  G.Operators.push_back(window("CONV_2D", In, FA, A, 1));
  G.Operators.push_back(window("CONV_2D", A, FB, B, 2));
  G.Operators.back().setAttr(ir::attr::Padding, std::string("VALID"));
  G.Inputs = {In};
  G.Outputs = {B};
  REQUIRE(ir::verifyGraph(G).empty());
  CascadePlan P = planned(G);
  REQUIRE(P.Cascades.size() == 1);
  const plan::Cascade &C = P.Cascades[0];
  std::vector<int> Computed(8, 0);
  for (const std::vector<plan::StripeStep> &Step : C.Steps)
    for (int32_t R = Step[0].Out.Begin; R < Step[0].Out.End; ++R)
      ++Computed[R];
  CHECK(Computed == std::vector<int>(8, 1));
}

TEST_CASE("a window keeps the rows a consumer reads after a pause") {
  // Found by the pipeline fuzzer: X is read by an ADD row by row and, through
  // a PAD of 5 rows, by a convolution that reads only padding for its first
  // three rows and then X's row 0. The window of X must still hold row 0
  // then, though the ADD has moved on.
  ir::Graph G;
  int32_t In = add(G, tensor({1, 16, 8, 16}));
  int32_t X = add(G, tensor({1, 16, 8, 16}));
  int32_t P = add(G, tensor({1, 21, 8, 16}));
  int32_t Y = add(G, tensor({1, 16, 8, 16}));
  int32_t Z = add(G, tensor({1, 16, 8, 16}));
  int32_t F0 = add(G, tensor({16, 3, 3, 16}, true));
  int32_t F1 = add(G, tensor({16, 3, 3, 16}, true));
  G.Operators.push_back(window("CONV_2D", In, F0, X, 1));
  G.Operators.push_back(pad(G, X, P, 5, 0, 0, 0));
  G.Operators.push_back(window("CONV_2D", P, F1, Y, 1));
  ir::Operator Add;
  Add.Type = "ADD";
  Add.Inputs = {X, Y};
  Add.Outputs = {Z};
  Add.setAttr(ir::attr::FusedActivation, std::string("NONE"));
  G.Operators.push_back(Add);
  G.Inputs = {In};
  G.Outputs = {Z};
  REQUIRE(ir::verifyGraph(G).empty());
  for (int64_t Budget : {int64_t(-1), int64_t(20000), int64_t(26000)}) {
    CascadeOptions O;
    O.Enabled = true;
    O.Budget = Budget;
    llvm::Expected<CascadePlan> Plan = plan::planCascades(G, O);
    if (!Plan) {
      llvm::consumeError(Plan.takeError());
      continue;
    }
    CHECK_MESSAGE(plan::verifyCascades(G, *Plan).empty(),
                  joined(plan::verifyCascades(G, *Plan)));
  }
  // With the input in place the least memory cascades all four operators,
  // and X's window holds rows 0 to 3 when the convolution first reads row 0
  // (step 3).
  CascadeOptions O;
  O.Enabled = true;
  O.InputsInPlace = true;
  llvm::Expected<CascadePlan> Whole = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(Whole), llvm::toString(Whole.takeError()));
  const CascadePlan &Least = *Whole;
  CHECK_MESSAGE(plan::verifyCascades(G, Least).empty(),
                joined(plan::verifyCascades(G, Least)));
  const plan::Cascade *C = Least.cascadeOf(0);
  REQUIRE(C);
  REQUIRE(Least.cascadeOf(3) == C);
  CHECK(C->WindowRows[C->windowOf(X)] >= 4);
}

TEST_CASE("a constant first operand of an element-wise operator") {
  // Found by the coverage-guided pipeline fuzzer under ASan: the rows an
  // ADD reads were taken from dimension 1 of its input 0, a constant of rank
  // 1 broadcast along the rows, past its one dimension.
  ir::Graph G = chain();
  int32_t Bias = add(G, tensor({2}, true));
  int32_t Out = add(G, tensor({1, 4, 3, 2}));
  ir::Operator Add;
  Add.Type = "ADD";
  Add.Inputs = {Bias, G.Outputs[0]};
  Add.Outputs = {Out};
  Add.setAttr(ir::attr::FusedActivation, std::string("NONE"));
  G.Operators.push_back(Add);
  G.Outputs = {Out};
  REQUIRE(ir::verifyGraph(G).empty());
  CHECK_FALSE(plan::whyNotStripable(G, 3));
  int32_t Pad = -1;
  plan::RowRange R = plan::stripeInputRows(G, G.Operators[3], {1, 3}, Pad);
  CHECK(R.Begin == 1);
  CHECK(R.End == 3);
  CHECK(Pad == 0);
  // The planner tries every span, this ADD's included (under ASan the old
  // read past the shape fails here).
  CascadePlan P = planned(G);
  REQUIRE_FALSE(P.Cascades.empty());
  // The checker refuses a cascade over an operator that writes no image.
  ir::Graph Flat = G;
  Flat.tensor(Out).Shape = {8, 3};
  CascadePlan Bad = P;
  Bad.Cascades.front().LastOp = 3;
  const std::string Found = joined(plan::verifyCascades(Flat, Bad));
  CHECK(Found.find("operator 3 (ADD) does not work on images a stripe can "
                   "cut") != std::string::npos);
}

TEST_CASE("a chain runs as one cascade with windows worked out by hand") {
  // Every output with bytes of its own (the next test lets the depthwise
  // output take the input's).
  ir::Graph G = chain();
  REQUIRE(ir::verifyGraph(G).empty());
  CascadePlan P = planned(G, -1, false);
  const plan::Cascade &C = onlyCascade(P, 0, 2);
  CHECK(C.StripeRows == 1);
  CHECK(C.Steps.size() == 4);
  // The depthwise stripe of output row s reads rows [2s-1, 2s+2) of A:
  // windows [0,2), [1,4), [3,6), [5,7), so 3 rows; B is read row by row.
  REQUIRE(C.Windowed == std::vector<int32_t>{1, 2});
  CHECK(C.WindowRows == std::vector<int32_t>{3, 1});
  // Layer at a time the peak is operator 0: input 336 + A 672 bytes.
  // Cascaded: input 336, A's window 3*6*4*4 = 288, B's 3*4*4 = 48, output 96.
  CHECK(P.LayerMemory.ArenaBytes == 1008);
  CHECK(P.Memory.ArenaBytes == 768);
  CHECK(P.LiveBefore == std::vector<int64_t>{1008, 864, 288});
  CHECK(P.LiveAfter == std::vector<int64_t>{768, 768, 768});
  // Windows [0,2) -> [1,4) -> [3,6) -> [5,7) keep 1, 1 and 1 rows of A
  // (96 bytes each); B's one-row window moves nothing.
  CHECK(C.MovedBytes == 3 * 96);
}

TEST_CASE("a cascade's output fills the input rows its stripes consumed") {
  // Operators 0-1 a row of B at a time: step s writes row s of B (48
  // bytes) after the convolution has read input rows from 2s - 1 on (48
  // bytes a row), so B's bytes [0, 48(s + 1)) never reach a row still to be
  // read, and B takes the input's bytes. Arena: the input 336 (B inside)
  // and A's window of 3 rows (288); then operator 2 alone: B in the input's
  // first 192 bytes, and C 96 in the input's bytes past B's, free once the
  // cascade has run.
  ir::Graph G = chain();
  CascadePlan P = planned(G);
  const plan::Cascade &C = onlyCascade(P, 0, 1);
  CHECK(C.StripeRows == 1);
  CHECK(C.Overlaid == 0);
  CHECK(C.WindowRows == std::vector<int32_t>{3});
  CHECK(P.Options.GroupOverlays == std::map<int32_t, int32_t>{{2, 0}});
  REQUIRE(P.Memory.find(2));
  CHECK(P.Memory.find(2)->AliasOf == 0);
  CHECK(P.Memory.ArenaBytes == 336 + 288);
  REQUIRE(P.Memory.find(3));
  CHECK(P.Memory.find(3)->Offset == 192);
  // Against the same search with outputs of their own: one cascade 0-2,
  // 768 bytes (the test above).
  CHECK(P.Memory.ArenaBytes < planned(G, -1, false).Memory.ArenaBytes);
}

TEST_CASE("a cascade's output over its input: no stripe reads rows it wrote") {
  // Input -> CONV_2D 3x3 SAME -> A -> CONV_2D 1x1 -> B, all 1x8x4x2 float
  // (32 bytes a row). Step s writes row s of B; step s + 1 reads input rows
  // from s on (the window's top row): B may not take the input's bytes.
  ir::Graph G;
  const int32_t In = add(G, tensor({1, 8, 4, 2}));
  const int32_t A = add(G, tensor({1, 8, 4, 2}));
  const int32_t B = add(G, tensor({1, 8, 4, 2}));
  G.Operators.push_back(
      window("CONV_2D", In, add(G, tensor({2, 3, 3, 2}, true)), A, 1));
  G.Operators.push_back(
      window("CONV_2D", A, add(G, tensor({2, 1, 1, 2}, true)), B, 1));
  G.Inputs = {In};
  G.Outputs = {B};
  REQUIRE(ir::verifyGraph(G).empty());
  // The planner does not let it, at any stripe height.
  CascadeOptions O;
  O.Enabled = true;
  for (int64_t Budget : {-1, 512, 600}) {
    O.Budget = Budget;
    llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
    REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
    for (const plan::Cascade &C : P->Cascades)
      CHECK(C.Overlaid == -1);
    CHECK(plan::verifyCascades(G, *P).empty());
  }
  // Written out by hand with the overlay, the checker finds the read.
  std::vector<std::vector<plan::StripeStep>> Steps;
  for (int32_t S = 0; S < 8; ++S) {
    plan::StripeStep Conv3, Conv1;
    Conv3.Out = {S, S + 1};
    Conv3.WindowBegin = S;
    Conv3.In = {std::max(0, S - 1), std::min(8, S + 2)};
    Conv3.PadTop = S == 0 ? 1 : 0;
    Conv1.Out = Conv1.In = {S, S + 1};
    Steps.push_back({Conv3, Conv1});
  }
  const CascadePlan P = overlaidByHand(G, A, B, In, std::move(Steps));
  const std::string Found = joined(plan::verifyCascades(G, P));
  CHECK_MESSAGE(Found.find("cascade of operators 0-1: step 1, operator 0 "
                           "(CONV_2D): reads row 0 of tensor 0 after tensor 2 "
                           "overwrote it") != std::string::npos,
                Found);
}

TEST_CASE("budgets: cascade only what is needed, refuse what cannot fit") {
  ir::Graph G = chain();
  // Room for the layer-at-a-time plan: nothing is cascaded.
  CascadePlan Roomy = planned(G, 1008);
  CHECK(Roomy.Cascades.empty());
  CHECK(Roomy.Memory.ArenaBytes == 1008);
  // Below it, cascades appear and the arena fits.
  CascadePlan Tight = planned(G, 900);
  CHECK(!Tight.Cascades.empty());
  CHECK(Tight.Memory.ArenaBytes <= 900);
  // At the least memory, the plan of least memory: 768 bytes with every
  // output in bytes of its own, 624 with the depthwise output over the
  // input (the test above).
  CHECK(planned(G, 768, false).Memory.ArenaBytes == 768);
  CHECK(planned(G, 700).Memory.ArenaBytes == 624);
  CascadeOptions O;
  O.Enabled = true;
  O.CascadeOverlays = false;
  O.Budget = 767;
  llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
  REQUIRE_FALSE(bool(P));
  CHECK(llvm::toString(P.takeError()) ==
        "a memory budget of 767 bytes is too small: the smallest budget that "
        "works is 768 bytes (the working memory peaks at operator 0, "
        "CONV_2D)");
  O.CascadeOverlays = true;
  O.Budget = 623;
  P = plan::planCascades(G, O);
  REQUIRE_FALSE(bool(P));
  CHECK(llvm::toString(P.takeError()) ==
        "a memory budget of 623 bytes is too small: the smallest budget that "
        "works is 624 bytes (the working memory peaks at operator 0, "
        "CONV_2D)");
}

/// planned(), tiles allowed.
CascadePlan tiledPlan(const ir::Graph &G, int64_t Budget) {
  CascadeOptions O;
  O.Enabled = true;
  O.Budget = Budget;
  O.Tiles = true;
  llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
  std::vector<std::string> Problems = plan::verifyCascades(G, *P);
  CHECK_MESSAGE(Problems.empty(), joined(Problems));
  return std::move(*P);
}

TEST_CASE("tiles: a budget stripes cannot meet runs the chain in tiles") {
  ir::Graph G = wideChain();
  CascadeOptions O;
  const int64_t Striped = smallestNamed(G, O);
  // Tiles go below, computing some of the MACs twice.
  O.Tiles = true;
  O.Enabled = true;
  O.Budget = Striped - 1;
  llvm::Expected<CascadePlan> Small = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(Small), llvm::toString(Small.takeError()));
  CHECK(Small->Memory.ArenaBytes < Striped);
  REQUIRE(Small->Cascades.size() == 1);
  CHECK(Small->Cascades[0].tiled());
  CHECK(plan::verifyCascades(G, *Small).empty());
  // Without a budget, or with one stripes meet, nothing is tiled.
  O.Budget = -1;
  llvm::Expected<CascadePlan> Least = plan::planCascades(G, O);
  REQUIRE(bool(Least));
  CHECK_FALSE(llvm::any_of(Least->Cascades,
                           [](const plan::Cascade &C) { return C.tiled(); }));
  const int64_t Layer = plan::planMemory(G).ArenaBytes;
  CHECK_FALSE(llvm::any_of(tiledPlan(G, (Striped + Layer) / 2).Cascades,
                           [](const plan::Cascade &C) { return C.tiled(); }));
}

TEST_CASE("scratch: live at its operator, shared in a cascade, none in "
          "tiles") {
  ir::Graph G = wideChain();
  CascadeOptions O;
  O.Scratch = {{0, 64}, {1, 48}, {2, 32}};
  auto Shared = [](const CascadePlan &P) {
    return llvm::all_of(P.Memory.Scratch, [&](const plan::Buffer &B) {
      return B.Offset == P.Memory.Scratch.front().Offset;
    });
  };
  // Layer at a time: one buffer per operator, each live at it alone.
  llvm::Expected<CascadePlan> Layer = plan::planCascades(G, O);
  REQUIRE(bool(Layer));
  CHECK(plan::verifyCascades(G, *Layer).empty());
  REQUIRE(Layer->Memory.Scratch.size() == 3);
  for (const plan::Buffer &B : Layer->Memory.Scratch) {
    CHECK(B.FirstOp == B.Op);
    CHECK(B.LastOp == B.Op);
    CHECK(B.Size == O.Scratch.at(B.Op));
  }
  // The least memory in stripes: the scratch counts, one buffer of the
  // largest shared by the cascade's operators.
  const int64_t Without = smallestNamed(G, CascadeOptions());
  const int64_t With = smallestNamed(G, O);
  CHECK(With > Without);
  O.Enabled = true;
  O.Budget = With;
  llvm::Expected<CascadePlan> Striped = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(Striped), llvm::toString(Striped.takeError()));
  CHECK(plan::verifyCascades(G, *Striped).empty());
  REQUIRE(Striped->Cascades.size() == 1);
  CHECK_FALSE(Striped->Cascades[0].tiled());
  CHECK(Striped->Memory.Scratch.size() == 3);
  CHECK(Shared(*Striped));
  // In tiles (the reference kernels), none.
  O.Tiles = true;
  O.Budget = Without - 1;
  llvm::Expected<CascadePlan> Tiled = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(Tiled), llvm::toString(Tiled.takeError()));
  CHECK(plan::verifyCascades(G, *Tiled).empty());
  REQUIRE(Tiled->Cascades.size() == 1);
  CHECK(Tiled->Cascades[0].tiled());
  CHECK(Tiled->Memory.Scratch.empty());
  CHECK(Tiled->Options.Scratch.empty());
  CHECK(Tiled->Memory.ArenaBytes <= Without - 1);
  // Unless another kernel runs them there, with scratch of its own: counted
  // in the budget, one buffer of the largest shared by the cascade's calls.
  O.TileScratch = {{0, 16}, {2, 48}};
  O.Budget = Tiled->Memory.ArenaBytes + 48;
  llvm::Expected<CascadePlan> Wrapped = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(Wrapped), llvm::toString(Wrapped.takeError()));
  CHECK(plan::verifyCascades(G, *Wrapped).empty());
  REQUIRE(Wrapped->Cascades.size() == 1);
  CHECK(Wrapped->Cascades[0].tiled());
  CHECK(Wrapped->Options.Scratch == O.TileScratch);
  REQUIRE(Wrapped->Memory.Scratch.size() == 2);
  CHECK(Shared(*Wrapped));
  CHECK(Wrapped->Memory.findScratch(2)->Size == 48);
  CHECK(Wrapped->Memory.ArenaBytes <= O.Budget);
}

TEST_CASE("tiles of one pixel, worked out by hand") {
  ir::Graph G = wideChain();
  // The smallest budget that works: one pixel of the output a tile.
  CascadeOptions O;
  O.Tiles = true;
  CascadePlan P = tiledPlan(G, smallestNamed(G, O));
  REQUIRE(P.Cascades.size() == 1);
  const plan::Cascade &C = P.Cascades[0];
  REQUIRE(C.StripeRows == 1);
  REQUIRE(C.TileCols == 1);
  // 4 x 4 output pixels, one a tile.
  REQUIRE(C.Steps.size() == 16);
  // Tile (0, 0). The 1x1 convolution reads pixel (0, 0) of the depthwise
  // output. The depthwise 3x3 stride 2 (8 to 4: 1 row of padding in all,
  // after the last; the same for columns) reads rows and columns [0, 3),
  // padding 0. The next band's depthwise row reads from row 2, the next
  // tile's column from column 2: the 3x3 convolution owns rows and columns
  // [0, 2) of its output here and computes [0, 3) of each, reading its
  // input's [-1, 4) clipped to [0, 4), padding 1 above and left.
  const plan::StripeStep &Conv = C.Steps[0][0], &Dw = C.Steps[0][1],
                         &Last = C.Steps[0][2];
  CHECK(Last.Out.Begin == 0);
  CHECK(Last.Out.End == 1);
  CHECK(Last.OutCols.Begin == 0);
  CHECK(Last.OutCols.End == 1);
  CHECK(Dw.Out.End == 1);
  CHECK(Dw.OutCols.End == 1);
  CHECK(Dw.In.Begin == 0);
  CHECK(Dw.In.End == 3);
  CHECK(Dw.PadTop == 0);
  CHECK(Dw.InCols.Begin == 0);
  CHECK(Dw.InCols.End == 3);
  CHECK(Dw.PadLeft == 0);
  CHECK(Conv.OwnRows.Begin == 0);
  CHECK(Conv.OwnRows.End == 2);
  CHECK(Conv.OwnCols.Begin == 0);
  CHECK(Conv.OwnCols.End == 2);
  CHECK(Conv.Out.End == 3);
  CHECK(Conv.OutCols.End == 3);
  CHECK(Conv.In.Begin == 0);
  CHECK(Conv.In.End == 4);
  CHECK(Conv.PadTop == 1);
  CHECK(Conv.InCols.Begin == 0);
  CHECK(Conv.InCols.End == 4);
  CHECK(Conv.PadLeft == 1);
  // Tile (3, 3): the last band and column own to the end.
  const plan::StripeStep &End = C.Steps[15][0];
  CHECK(End.OwnRows.Begin == 6);
  CHECK(End.OwnRows.End == 8);
  CHECK(End.Out.Begin == 6);
  CHECK(End.Out.End == 8);
  // The last tile of the first band ends it.
  CHECK_FALSE(C.endsBand(2));
  CHECK(C.endsBand(3));
  // The convolution computes 3 x 3 pixels for most tiles, 64 once each
  // layer at a time: 3 * 3 * 9 + 2 * 3 * 6 + 2 * 2 = 121 in all.
  int64_t Pixels = 0;
  for (const std::vector<plan::StripeStep> &Step : C.Steps)
    Pixels += int64_t(Step[0].Out.size()) * Step[0].OutCols.size();
  CHECK(Pixels == 121);
}

TEST_CASE("tiles: what may not tile, and why") {
  ir::Graph G = chain();
  CHECK_FALSE(plan::whyNotTileable(G, 0));
  CHECK_FALSE(plan::whyNotTileable(G, 1));
  // A 1x1 window of stride 2 skips every other row and column.
  G.Operators[2].setAttr(ir::attr::StrideH, int64_t(2));
  G.Operators[2].setAttr(ir::attr::StrideW, int64_t(2));
  G.tensor(3).Shape = {1, 2, 2, 2};
  CHECK(plan::whyNotTileable(G, 2).value_or("") ==
        "its window skips input rows or columns (a kernel extent below its "
        "stride)");
  ir::Graph R = residual(false);
  CHECK(plan::whyNotTileable(R, R.Operators.size() - 1).value_or("") ==
        "it is no window over both rows and columns (Cols in defs/ops.td)");
}

TEST_CASE("verifyCascades finds what is wrong with tiles") {
  ir::Graph G = wideChain();
  CascadeOptions O;
  O.Tiles = true;
  O.Budget = smallestNamed(G, O);
  O.Enabled = true;
  llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
  REQUIRE(P->Cascades.size() == 1);
  REQUIRE(P->Cascades[0].tiled());
  const CascadePlan Good = *P;
  REQUIRE(plan::verifyCascades(G, Good).empty());

  CascadePlan Padded = Good;
  Padded.Cascades[0].Steps[0][0].PadLeft = 0;
  std::string Found = joined(plan::verifyCascades(G, Padded));
  CHECK(Found.find("cascade of operators 0-2: tile 0, operator 0 (CONV_2D): "
                   "reads rows [0, ") != std::string::npos);

  CascadePlan Narrow = Good;
  Narrow.Cascades[0].Steps[0][1].InCols.End -= 1;
  Found = joined(plan::verifyCascades(G, Narrow));
  CHECK(Found.find("tile 0, operator 1 (DEPTHWISE_CONV_2D): reads rows") !=
        std::string::npos);

  CascadePlan Untraced = Good;
  Untraced.Cascades[0].Steps[0][0].OwnCols.End -= 1;
  Found = joined(plan::verifyCascades(G, Untraced));
  CHECK(Found.find("of tensor 1 is traced 0 times") != std::string::npos);

  CascadePlan Twice = Good;
  Twice.Cascades[0].Steps[1] = Twice.Cascades[0].Steps[0];
  Found = joined(plan::verifyCascades(G, Twice));
  CHECK(Found.find("of tensor 3 is computed 2 times") != std::string::npos);

  CascadePlan Smaller = Good;
  Smaller.Cascades[0].PatchBytes -= 4;
  Found = joined(plan::verifyCascades(G, Smaller));
  CHECK(Found.find("its staging buffers are not the sizes its tiles need") !=
        std::string::npos);
  CHECK(Found.find("the arena's window sizes are not the cascades'") !=
        std::string::npos);
}

TEST_CASE("verifyCascades finds what is wrong with a cascade") {
  ir::Graph G = chain();
  CascadePlan Good = planned(G, -1, false);
  REQUIRE(Good.Cascades.size() == 1);

  CascadePlan Small = Good;
  Small.Cascades[0].WindowRows[0] = 2;
  std::string Found = joined(plan::verifyCascades(G, Small));
  CHECK(Found.find("cascade of operators 0-2: step 1, operator 0 (CONV_2D): "
                   "its window holds 3 rows, more than the 2 planned") !=
        std::string::npos);
  CHECK(Found.find("the arena's window sizes are not the cascades'") !=
        std::string::npos);

  CascadePlan Misread = Good;
  Misread.Cascades[0].Steps[1][1].In.Begin = 2;
  Found = joined(plan::verifyCascades(G, Misread));
  CHECK(Found.find("step 1, operator 1 (DEPTHWISE_CONV_2D): reads rows [2, "
                   "4) with padding 0, not [1, 4) with 0") !=
        std::string::npos);

  CascadePlan Skipped = Good;
  Skipped.Cascades[0].Steps[2][2].Out = {2, 2};
  Found = joined(plan::verifyCascades(G, Skipped));
  CHECK(Found.find("row 2 of tensor 3 is written 0 times") !=
        std::string::npos);

  CascadePlan Ungrouped = Good;
  Ungrouped.Options.Groups.clear();
  Found = joined(plan::verifyCascades(G, Ungrouped));
  CHECK(Found.find("the arena's groups are not the cascades") !=
        std::string::npos);
}

TEST_CASE("a FULLY_CONNECTED ends a cascade summing its input row by row") {
  ir::Graph G = summed();
  REQUIRE(ir::verifyGraph(G).empty());
  CHECK_FALSE(plan::whyNotStripable(G, 1).has_value());
  CascadePlan P = planned(G);
  const plan::Cascade &C = onlyCascade(P, 0, 1);
  // One row of A a step, read once: the convolution writes it, the fully
  // connected layer adds it to its three sums; the output after the last.
  CHECK(C.StripeRows == 1);
  REQUIRE(C.Steps.size() == 6);
  for (int32_t S = 0; S < 6; ++S) {
    const plan::StripeStep &Conv = C.Steps[S][0], &Fc = C.Steps[S][1];
    CHECK(Conv.Out.Begin == S);
    CHECK(Conv.Out.End == S + 1);
    CHECK(Conv.In.Begin == std::max(0, S - 1));
    CHECK(Conv.In.End == std::min(6, S + 2));
    CHECK(Fc.In.Begin == S);
    CHECK(Fc.In.End == S + 1);
    CHECK(Fc.Out.Begin == 0);
    CHECK(Fc.Out.End == (S == 5 ? 3 : 0));
  }
  CHECK(C.WindowRows == std::vector<int32_t>{1});
  CHECK(C.Overlaid == -1);
  // The output holds the sums, 3 int32, while the stripes run.
  CHECK(plan::accumulatorBytes(G, G.Operators[1]) == 12);
  CHECK(P.Options.HeldBytes.at(2) == 12);
  // Layer at a time the peak is operator 0: input 48 + A 192 bytes.
  // Cascaded: input 48, one row of A 32, then the sums' 12.
  CHECK(P.LayerMemory.ArenaBytes == 240);
  CHECK(P.Memory.ArenaBytes == 92);
}

TEST_CASE("a FULLY_CONNECTED sums stripe by stripe only where its kernels "
          "can") {
  // The 8-bit kernels have _accumulate and _finish forms; float32 sums in
  // another order would round otherwise.
  CHECK(plan::whyNotStripable(summed(ir::DType::F32), 1).value_or("") ==
        "only its 8-bit kernels sum stripe by stripe");
  CHECK(plan::whyNotStripable(summed(ir::DType::I8, 96), 1).value_or("") ==
        "its filter is not a constant row per unit as long as its input");
  CHECK(plan::whyNotStripable(summed(ir::DType::I8, 192, 2), 1).value_or("") ==
        "its output is not one batch of units");
  // Not stripable, it stays whole: no cascade pays.
  CHECK(planned(summed(ir::DType::F32)).Cascades.empty());
}

TEST_CASE("verifyCascades: a FULLY_CONNECTED sums every row once, then "
          "writes") {
  ir::Graph G = summed();
  CascadePlan Good = planned(G);
  REQUIRE(Good.Cascades.size() == 1);
  REQUIRE(Good.Cascades[0].Steps.size() == 6);

  CascadePlan Skipped = Good;
  Skipped.Cascades[0].Steps[2][1].In = {3, 4};
  std::string Found = joined(plan::verifyCascades(G, Skipped));
  CHECK(Found.find("cascade of operators 0-1: step 2, operator 1 "
                   "(FULLY_CONNECTED): sums rows [3, 4) of tensor 1, not the "
                   "next from row 2") != std::string::npos);

  CascadePlan Early = Good;
  Early.Cascades[0].Steps[4][1].Out = {0, 3};
  Early.Cascades[0].Steps[5][1].Out = {0, 0};
  Found = joined(plan::verifyCascades(G, Early));
  CHECK(Found.find("step 4, operator 1 (FULLY_CONNECTED): writes rows [0, 3) "
                   "of its output having summed 5 of 6 input rows") !=
        std::string::npos);
  CHECK(Found.find("row 0 of tensor 2 is written 0 times") !=
        std::string::npos);

  CascadePlan Unread = Good;
  Unread.Cascades[0].Steps[3][0].Out = {3, 3};
  Unread.Cascades[0].Steps[4][0].Out = {3, 5};
  Found = joined(plan::verifyCascades(G, Unread));
  CHECK(Found.find("step 3, operator 1 (FULLY_CONNECTED): needs rows [3, 4) "
                   "of tensor 1, whose window holds [2, 3)") !=
        std::string::npos);

  CascadePlan NoSums = Good;
  NoSums.Options.HeldBytes.erase(2);
  Found = joined(plan::verifyCascades(G, NoSums));
  CHECK(Found.find("the arena's window sizes are not the cascades'") !=
        std::string::npos);
}

TEST_CASE("a residual ADD ending a cascade writes over its whole operand") {
  // Line buffers keep the 1x1 expansion ahead of the ADD: the ADD writes
  // row s of out over row s of x in step s, when every later read of x is
  // of rows after s.
  ir::Graph G = residual(true);
  REQUIRE(ir::verifyGraph(G).empty());
  CascadePlan P = planned(G);
  const int32_t X = 1, Out = G.Operators.back().output(0);
  const plan::Cascade *C = P.cascadeOf(4);
  REQUIRE(C);
  CHECK(C->FirstOp == 1);
  CHECK(C->LastOp == 4);
  CHECK(C->StripeRows == 1);
  CHECK(C->Overlaid == X);
  CHECK(P.Options.GroupOverlays == std::map<int32_t, int32_t>{{Out, X}});
  REQUIRE(P.Memory.find(Out));
  CHECK(P.Memory.find(Out)->AliasOf == X);
  // x (256, out in its bytes), the windows of the expansion (3 rows of 256),
  // the depthwise output (1 row of 256) and y (1 row of 32).
  CHECK(P.Memory.ArenaBytes == 256 + 768 + 256 + 32);
}

TEST_CASE("an accelerator's rules: layers unsplit, operators kept whole, "
          "no overlays") {
  ir::Graph G = residual(true);
  CascadeOptions O;
  O.Enabled = true;
  auto Plan = [&] {
    llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
    REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
    CHECK_MESSAGE(plan::verifyCascades(G, *P).empty(),
                  joined(plan::verifyCascades(G, *P)));
    return std::move(*P);
  };
  // Unconstrained, operators 1-4 are one cascade (the test above).
  REQUIRE(Plan().cascadeOf(1));
  REQUIRE(Plan().cascadeOf(1)->FirstOp == 1);
  SUBCASE("no overlay layer at a time: the cascade's ADD still takes x") {
    O.Overlays = false;
    const CascadePlan P = Plan();
    REQUIRE(P.cascadeOf(4));
    CHECK(P.cascadeOf(4)->Overlaid == 1);
    CHECK_FALSE(P.Options.Overlays);
  }
  SUBCASE("no overlay: the ADD writes bytes of its own") {
    O.Overlays = false;
    O.CascadeOverlays = false;
    const CascadePlan P = Plan();
    for (const plan::Cascade &C : P.Cascades)
      CHECK(C.Overlaid == -1);
    CHECK(P.Options.GroupOverlays.empty());
    const int32_t Out = G.Operators.back().output(0);
    REQUIRE(P.Memory.find(Out));
    CHECK(P.Memory.find(Out)->AliasOf == -1);
  }
  SUBCASE("a layer of operators 0-1 is in one cascade whole or in none") {
    O.Unsplit = {{0, 1}};
    const CascadePlan P = Plan();
    CHECK(P.cascadeOf(0) == P.cascadeOf(1));
    const plan::Cascade *C = P.cascadeOf(1);
    CHECK((C == nullptr || C->FirstOp == 0));
  }
  SUBCASE("a layer with an operator that may not stripe stays whole") {
    O.Unsplit = {{1, 2}};
    O.NotStripable = {{2, "its kernel reads whole tensors"}};
    const CascadePlan P = Plan();
    CHECK(P.cascadeOf(1) == nullptr);
    CHECK(P.cascadeOf(2) == nullptr);
  }
  SUBCASE("an operator that may not stripe stays whole") {
    O.NotStripable = {{2, "its kernel reads whole tensors"}};
    const CascadePlan P = Plan();
    CHECK(P.cascadeOf(2) == nullptr);
  }
}

TEST_CASE("verifyCascades: an output over bytes whose rows are not its own") {
  // Written by hand (the planner never makes these): a cascade of a 1x1
  // CONV_2D and an ADD whose output takes the bytes of the ADD's second
  // operand, a graph input of other rows: 4 channels, then a flat vector.
  for (bool Flat : {false, true}) {
    CAPTURE(Flat);
    ir::Graph G;
    const int32_t In = add(G, tensor({1, 8, 4, 2}));
    const int32_t W = add(G, Flat ? tensor({1, 64}) : tensor({1, 8, 4, 4}));
    const int32_t A = add(G, tensor({1, 8, 4, 2}));
    const int32_t Out = add(G, tensor({1, 8, 4, 2}));
    G.Operators.push_back(
        window("CONV_2D", In, add(G, tensor({2, 1, 1, 2}, true)), A, 1));
    ir::Operator Add;
    Add.Type = "ADD";
    Add.Inputs = {A, W};
    Add.Outputs = {Out};
    Add.setAttr(ir::attr::FusedActivation, std::string("NONE"));
    G.Operators.push_back(Add);
    G.Inputs = {In, W};
    G.Outputs = {Out};
    std::vector<std::vector<plan::StripeStep>> Steps;
    for (int32_t S = 0; S < 8; ++S) {
      plan::StripeStep Conv, Sum;
      Conv.Out = Conv.In = {S, S + 1};
      Conv.WindowBegin = S;
      Sum.Out = Sum.In = {S, S + 1};
      Steps.push_back({Conv, Sum});
    }
    const CascadePlan P = overlaidByHand(G, A, Out, W, std::move(Steps));
    const std::string Found = joined(plan::verifyCascades(G, P));
    CHECK_MESSAGE(Found.find(Flat ? "cascade of operators 0-1: tensor 3 takes "
                                    "over the bytes of tensor 1, which has no "
                                    "rows"
                                  : "cascade of operators 0-1: tensor 3 takes "
                                    "over the bytes of tensor 1, which its "
                                    "own operator reads with other rows") !=
                      std::string::npos,
                  Found);
  }
}

TEST_CASE("verifyCascades: no stripe reads rows the ADD has overwritten") {
  // A 3x3 convolution of x feeding the ADD through identity rows reads row
  // s - 1 of x in step s, after the ADD wrote row s - 1 in step s - 1. The
  // planner never cascades this (the ADD alone, in place, needs less), so
  // the cascade is written out by hand: operators 1-3 a row at a time.
  ir::Graph G = residual(false);
  REQUIRE(ir::verifyGraph(G).empty());
  const int32_t X = 1, A = G.Operators[1].output(0),
                Y = G.Operators[2].output(0), Out = G.Operators[3].output(0);
  REQUIRE(A < Y);
  CascadePlan P;
  plan::Cascade C;
  C.FirstOp = 1;
  C.LastOp = 3;
  C.StripeRows = 1;
  C.Windowed = {A, Y};
  C.WindowRows = {1, 1};
  C.RowBytes = {256, 32};
  for (int32_t S = 0; S < 8; ++S) {
    plan::StripeStep Conv3, Conv1, Add;
    Conv3.Out = {S, S + 1};
    Conv3.WindowBegin = S;
    Conv3.In = {std::max(0, S - 1), std::min(8, S + 2)};
    Conv3.PadTop = S == 0 ? 1 : 0;
    Conv1.Out = Conv1.In = {S, S + 1};
    Conv1.WindowBegin = S;
    Add.Out = Add.In = {S, S + 1};
    C.Steps.push_back({Conv3, Conv1, Add});
  }
  P.Cascades = {C};
  P.Options.Groups = {{1, 3}};
  P.Options.HeldBytes = {{A, 256}, {Y, 32}};
  P.Memory = plan::planMemory(G, P.Options);
  // Written out right: sound.
  std::string Found = joined(plan::verifyCascades(G, P));
  CHECK_MESSAGE(Found.empty(), Found);

  // With the ADD's output in x's bytes, the checker finds the row read after
  // it was overwritten.
  P.Cascades[0].Overlaid = X;
  P.Options.GroupOverlays[Out] = X;
  P.Memory = plan::planMemory(G, P.Options);
  REQUIRE(P.Memory.find(Out)->AliasOf == X);
  Found = joined(plan::verifyCascades(G, P));
  CHECK_MESSAGE(Found.find("cascade of operators 1-3: step 1, operator 1 "
                           "(CONV_2D): reads row 0 of tensor 1 after tensor " +
                           std::to_string(Out) + " overwrote it") !=
                    std::string::npos,
                Found);
}

TEST_CASE("every stateless shared model: a sound cascaded plan") {
  for (const std::string &Name : test::sharedModelNames()) {
    if (test::sharedModelHasState(Name))
      continue;
    CAPTURE(Name);
    std::string Path = test::sharedDir() + "/models/" + Name + ".tflite";
    auto Imported = tflite::importModelFile(Path);
    REQUIRE_MESSAGE(Imported, llvm::toString(Imported.takeError()));
    const ir::Graph &G = Imported->Model->main();
    CascadePlan P = planned(G);
    CHECK(P.Memory.ArenaBytes <= P.LayerMemory.ArenaBytes);
    // The bytes live per operator peak at the lower bound, within the
    // arena, layer at a time and cascaded.
    REQUIRE(P.LiveAfter.size() == std::max<size_t>(1, G.Operators.size()));
    CHECK(*std::max_element(P.LiveAfter.begin(), P.LiveAfter.end()) ==
          P.Memory.LowerBound);
    CHECK(*std::max_element(P.LiveBefore.begin(), P.LiveBefore.end()) ==
          P.LayerMemory.LowerBound);
    CHECK(P.Memory.LowerBound <= P.Memory.ArenaBytes);
  }
}

TEST_CASE("MobileNetV2-224, input read in place: within 172 kB, in place") {
  const std::string Name = "coral_mobilenet_v2_10_224_quant_uint8";
  std::string Path = test::sharedDir() + "/models/" + Name + ".tflite";
  auto Imported = tflite::importModelFile(Path);
  REQUIRE_MESSAGE(Imported, llvm::toString(Imported.takeError()));
  const ir::Graph &G = Imported->Model->main();
  CascadeOptions O;
  O.Enabled = true;
  O.InputsInPlace = true;
  llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
  REQUIRE_MESSAGE(bool(P), llvm::toString(P.takeError()));
  std::vector<std::string> Problems = plan::verifyCascades(G, *P);
  CHECK_MESSAGE(Problems.empty(), joined(Problems));
  // Residual ADDs ending cascades write their sums over the block's input.
  CHECK(llvm::any_of(P->Cascades,
                     [](const plan::Cascade &C) { return C.Overlaid >= 0; }));
  CHECK(P->Memory.ArenaBytes <= 172000);
}

TEST_CASE("inputs in place: the graph input takes no bytes of the arena") {
  ir::Graph G = chain();
  CascadeOptions O;
  O.Enabled = true;
  O.InputsInPlace = true;
  llvm::Expected<CascadePlan> P = plan::planCascades(G, O);
  REQUIRE(bool(P));
  CHECK(plan::verifyCascades(G, *P).empty());
  CHECK(P->Memory.find(0) == nullptr);
  CHECK(P->LayerMemory.find(0) == nullptr);
  // Layer at a time: A and B at operator 1, 672 + 192. Cascaded: the
  // windows of A (288) and B (48) and the output (96).
  CHECK(P->LayerMemory.ArenaBytes == 864);
  CHECK(P->Memory.ArenaBytes == 432);
  // Without the option the verifier wants the input in the arena.
  std::string Found =
      joined(plan::verifyPlan(G, P->Memory, plan::PlanOptions()));
  CHECK(Found.find("tensor 0 't' is used but has no buffer") !=
        std::string::npos);
}
