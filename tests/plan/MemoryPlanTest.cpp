//===- MemoryPlanTest.cpp - The static memory planner ---------------------===//
//
// The planner on small hand-built graphs whose best arena is worked out by
// hand (chain, diamond, views that alias, outputs and inputs that must stay
// live, state), the checker on plans broken on purpose, and every model of
// the shared conformance folder: each plans, passes the independent check,
// and needs no more working memory than TensorFlow Lite Micro's interpreter
// used for it (vectors/<model>/tflm_arena.txt, which also counts the
// interpreter's own bookkeeping).
//
// The shared folder is not part of the repository. Without it the model test
// fails and says so.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "import/TFLiteImporter.h"
#include "ir/Verifier.h"
#include "plan/MemoryPlan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

using namespace accelgen;
using plan::Buffer;
using plan::MemoryPlan;
using plan::PlacementOrder;
using plan::PlanOptions;

namespace {

ir::Tensor tensor(std::string Name, std::vector<int32_t> Shape,
                  ir::DType Type = ir::DType::I8, bool Constant = false) {
  ir::Tensor T;
  T.Name = std::move(Name);
  T.Shape = std::move(Shape);
  T.Type = Type;
  T.IsConstant = Constant;
  if (Constant)
    T.Data.assign(static_cast<size_t>(T.byteSize()), 0);
  return T;
}

ir::Operator op(std::string Type, std::vector<int32_t> Inputs,
                std::vector<int32_t> Outputs) {
  ir::Operator Op;
  Op.Type = std::move(Type);
  Op.Inputs = std::move(Inputs);
  Op.Outputs = std::move(Outputs);
  return Op;
}

/// Adds \p T to \p G and returns its index.
int32_t add(ir::Graph &G, ir::Tensor T) {
  G.Tensors.push_back(std::move(T));
  return static_cast<int32_t>(G.Tensors.size() - 1);
}

std::string joined(const std::vector<std::string> &Lines) {
  return llvm::join(Lines, "\n");
}

/// Plans \p G, which must be well formed, and checks the plan.
MemoryPlan planChecked(const ir::Graph &G, const PlanOptions &Opts = {}) {
  std::vector<std::string> GraphProblems = ir::verifyGraph(G);
  REQUIRE_MESSAGE(GraphProblems.empty(), joined(GraphProblems));
  MemoryPlan Plan = plan::planMemory(G, Opts);
  std::vector<std::string> Problems = plan::verifyPlan(G, Plan, Opts);
  CHECK_MESSAGE(Problems.empty(), joined(Problems));
  CHECK(Plan.LowerBound <= Plan.ArenaBytes);
  return Plan;
}

const Buffer &buffer(const MemoryPlan &Plan, int32_t T) {
  const Buffer *B = Plan.find(T);
  REQUIRE_MESSAGE(B, "tensor " << T << " has no buffer");
  return *B;
}

bool overlap(const Buffer &A, const Buffer &B) {
  return A.Offset < B.Offset + B.Size && B.Offset < A.Offset + A.Size;
}

/// in -> op0 -> t1 -> op1 -> t2 -> op2 -> out, of 100, 200, 300, 50 bytes.
struct Chain {
  ir::Graph G;
  int32_t In, T1, T2, Out;
  Chain() {
    In = add(G, tensor("in", {1, 100}));
    T1 = add(G, tensor("t1", {1, 200}));
    T2 = add(G, tensor("t2", {1, 300}));
    Out = add(G, tensor("out", {1, 50}));
    G.Operators = {op("A", {In}, {T1}), op("B", {T1}, {T2}),
                   op("C", {T2}, {Out})};
    G.Inputs = {In};
    G.Outputs = {Out};
  }
};

/// in -> CONV_2D -> x -> RESHAPE -> y -> FULLY_CONNECTED -> out.
struct ReshapeGraph {
  ir::Graph G;
  int32_t In, X, Y, Out;
  ReshapeGraph() {
    In = add(G, tensor("in", {1, 8, 8, 4}));
    int32_t W = add(G, tensor("w", {8, 1, 1, 4}, ir::DType::I8, true));
    int32_t B = add(G, tensor("b", {8}, ir::DType::I32, true));
    X = add(G, tensor("x", {1, 8, 8, 8}));
    int32_t Shape = add(G, tensor("shape", {2}, ir::DType::I32, true));
    Y = add(G, tensor("y", {1, 512}));
    int32_t W2 = add(G, tensor("w2", {10, 512}, ir::DType::I8, true));
    Out = add(G, tensor("out", {1, 10}));
    G.Operators = {op("CONV_2D", {In, W, B}, {X}),
                   op("RESHAPE", {X, Shape}, {Y}),
                   op("FULLY_CONNECTED", {Y, W2, -1}, {Out})};
    G.Inputs = {In};
    G.Outputs = {Out};
  }
};

} // namespace

TEST_CASE("chain: lifetimes, reuse and the smallest arena") {
  Chain C;
  MemoryPlan Plan = planChecked(C.G);
  REQUIRE(Plan.Buffers.size() == 4);
  CHECK(buffer(Plan, C.In).FirstOp == 0);
  CHECK(buffer(Plan, C.In).LastOp == 0);
  CHECK(buffer(Plan, C.T1).FirstOp == 0);
  CHECK(buffer(Plan, C.T1).LastOp == 1);
  CHECK(buffer(Plan, C.T2).FirstOp == 1);
  CHECK(buffer(Plan, C.T2).LastOp == 2);
  CHECK(buffer(Plan, C.Out).FirstOp == 2);
  CHECK(buffer(Plan, C.Out).LastOp == 2);
  // t2 (300) at 0, t1 after it at the next multiple of 16; in reuses t2's
  // bytes, out reuses t1's.
  CHECK(buffer(Plan, C.T2).Offset == 0);
  CHECK(buffer(Plan, C.T1).Offset == 304);
  CHECK(buffer(Plan, C.In).Offset == 0);
  CHECK(buffer(Plan, C.Out).Offset == 304);
  CHECK(Plan.ArenaBytes == 504);
  CHECK(Plan.LowerBound == 500);
  for (const Buffer &B : Plan.Buffers) {
    CHECK(B.Offset % 16 == 0);
    CHECK(B.AliasOf == -1);
    CHECK(B.Size == C.G.tensor(B.Tensor).byteSize());
  }
}

TEST_CASE("diamond: a tensor read by two branches stays live for both") {
  ir::Graph G;
  int32_t In = add(G, tensor("in", {64}));
  int32_t A = add(G, tensor("a", {128}));
  int32_t B = add(G, tensor("b", {96}));
  int32_t C = add(G, tensor("c", {80}));
  int32_t Out = add(G, tensor("out", {96}));
  G.Operators = {op("A", {In}, {A}), op("B", {A}, {B}), op("C", {A}, {C}),
                 op("ADD", {B, C}, {Out})};
  G.Inputs = {In};
  G.Outputs = {Out};
  MemoryPlan Plan = planChecked(G);
  CHECK(buffer(Plan, A).LastOp == 2);
  CHECK(buffer(Plan, B).LastOp == 3);
  CHECK_FALSE(overlap(buffer(Plan, A), buffer(Plan, C)));
  CHECK_FALSE(overlap(buffer(Plan, B), buffer(Plan, C)));
  // a, b and c are live together at operator 2: 304 bytes, all multiples of
  // 16, so the lower bound is reachable.
  CHECK(Plan.LowerBound == 304);
  CHECK(Plan.ArenaBytes == 304);
}

TEST_CASE("RESHAPE output shares its input's bytes") {
  ReshapeGraph R;
  MemoryPlan Plan = planChecked(R.G);
  const Buffer &X = buffer(Plan, R.X), &Y = buffer(Plan, R.Y);
  CHECK(Y.AliasOf == R.X);
  CHECK(X.AliasOf == -1);
  CHECK(Y.Offset == X.Offset);
  CHECK(Y.FirstOp == 1);
  CHECK(Y.LastOp == 2);
  // The alias keeps x's bytes live until y's last reader.
  CHECK(X.FirstOp == 0);
  CHECK(X.LastOp == 2);
  CHECK_FALSE(overlap(X, buffer(Plan, R.Out)));
  // x (512) at 0; in and out (256 and 10 bytes, never live together) at 512.
  CHECK(Plan.ArenaBytes == 768);
  CHECK(Plan.Buffers.size() == 4); // constants are not in the arena

  SUBCASE("no aliasing operators: y is a copy of its own") {
    PlanOptions Opts;
    Opts.AliasOps.clear();
    MemoryPlan Copy = planChecked(R.G, Opts);
    CHECK(buffer(Copy, R.Y).AliasOf == -1);
    CHECK_FALSE(overlap(buffer(Copy, R.X), buffer(Copy, R.Y)));
    CHECK(Copy.ArenaBytes == 1024);
  }
}

TEST_CASE("SQUEEZE then EXPAND_DIMS alias the first buffer, not each other") {
  ir::Graph G;
  int32_t In = add(G, tensor("in", {1, 1, 16}));
  int32_t X = add(G, tensor("x", {1, 1, 32}));
  int32_t Y = add(G, tensor("y", {1, 32}));
  int32_t Z = add(G, tensor("z", {1, 32, 1}));
  int32_t Out = add(G, tensor("out", {1, 32, 1}));
  G.Operators = {op("A", {In}, {X}), op("SQUEEZE", {X}, {Y}),
                 op("EXPAND_DIMS", {Y}, {Z}), op("B", {Z}, {Out})};
  G.Inputs = {In};
  G.Outputs = {Out};
  MemoryPlan Plan = planChecked(G);
  CHECK(buffer(Plan, Y).AliasOf == X);
  CHECK(buffer(Plan, Z).AliasOf == X);
  CHECK(buffer(Plan, Z).Offset == buffer(Plan, X).Offset);
  CHECK(buffer(Plan, X).LastOp == 3);
  CHECK_FALSE(overlap(buffer(Plan, X), buffer(Plan, Out)));
}

TEST_CASE("views that may not alias get buffers of their own") {
  ir::Graph G;
  int32_t In = add(G, tensor("in", {4, 4}));
  int32_t K = add(G, tensor("k", {4, 4}, ir::DType::I8, true));
  int32_t KView = add(G, tensor("k_view", {16}));
  int32_t Wide = add(G, tensor("wide", {16}, ir::DType::I16));
  int32_t State = add(G, tensor("state", {16}));
  G.Tensors[State].IsVariable = true;
  int32_t StateView = add(G, tensor("state_view", {4, 4}));
  int32_t Out = add(G, tensor("out", {16}));
  G.Operators = {op("RESHAPE", {K}, {KView}),         // constant input
                 op("RESHAPE", {In}, {Wide}),         // byte size changes
                 op("RESHAPE", {State}, {StateView}), // variable input
                 op("ADD", {KView, Wide, StateView}, {Out})};
  G.Inputs = {In};
  G.Outputs = {Out};
  MemoryPlan Plan = planChecked(G);
  CHECK(Plan.find(K) == nullptr);
  for (int32_t T : {KView, Wide, StateView})
    CHECK_MESSAGE(buffer(Plan, T).AliasOf == -1, G.tensor(T).Name);
}

TEST_CASE("a graph output is kept live to the end") {
  ir::Graph G;
  int32_t In = add(G, tensor("in", {64}));
  int32_t O1 = add(G, tensor("o1", {256}));
  int32_t T = add(G, tensor("t", {256}));
  int32_t O2 = add(G, tensor("o2", {256}));
  G.Operators = {op("A", {In}, {O1}), op("B", {In}, {T}), op("C", {T}, {O2})};
  G.Inputs = {In};
  G.Outputs = {O1, O2};
  MemoryPlan Plan = planChecked(G);
  const Buffer &B1 = buffer(Plan, O1);
  CHECK(B1.FirstOp == 0);
  CHECK(B1.LastOp == 2);
  CHECK_FALSE(overlap(B1, buffer(Plan, T)));
  CHECK_FALSE(overlap(B1, buffer(Plan, O2)));
  CHECK(Plan.ArenaBytes == 768);

  SUBCASE("the same tensor, not an output, is reused") {
    G.Outputs = {O2};
    MemoryPlan Reused = planChecked(G);
    CHECK(buffer(Reused, O1).LastOp == 0);
    CHECK(Reused.ArenaBytes == 512);
  }
}

TEST_CASE("graph inputs are live from the start until their last reader") {
  ir::Graph G;
  int32_t In1 = add(G, tensor("in1", {32}));
  int32_t In2 = add(G, tensor("in2", {48}));
  int32_t A = add(G, tensor("a", {48}));
  int32_t B = add(G, tensor("b", {48}));
  int32_t Out = add(G, tensor("out", {48}));
  G.Operators = {op("A", {In1}, {A}), op("B", {A}, {B}),
                 op("ADD", {B, In2}, {Out})};
  G.Inputs = {In1, In2};
  G.Outputs = {Out};
  MemoryPlan Plan = planChecked(G);
  const Buffer &I2 = buffer(Plan, In2);
  CHECK(I2.FirstOp == 0);
  CHECK(I2.LastOp == 2);
  for (int32_t T : {In1, A, B, Out})
    CHECK_FALSE(overlap(I2, buffer(Plan, T)));
  CHECK_FALSE(overlap(buffer(Plan, In1), buffer(Plan, A)));
}

TEST_CASE("variable tensors keep their bytes over the whole graph") {
  ir::Graph G;
  int32_t In = add(G, tensor("in", {64}));
  int32_t State = add(G, tensor("state", {64}));
  G.Tensors[State].IsVariable = true;
  int32_t H = add(G, tensor("h", {64}));
  int32_t T = add(G, tensor("t", {64}));
  int32_t Out = add(G, tensor("out", {64}));
  G.Operators = {op("A", {In}, {T}), op("LSTM", {T, State}, {H}),
                 op("B", {H}, {Out})};
  G.Inputs = {In};
  G.Outputs = {Out};
  MemoryPlan Plan = planChecked(G);
  const Buffer &S = buffer(Plan, State);
  CHECK(S.FirstOp == 0);
  CHECK(S.LastOp == 2);
  for (int32_t Other : {In, H, T, Out})
    CHECK_FALSE(overlap(S, buffer(Plan, Other)));
}

TEST_CASE("a graph without operators plans its inputs and outputs") {
  ir::Graph G;
  int32_t X = add(G, tensor("x", {10}));
  int32_t Y = add(G, tensor("y", {10}));
  G.Inputs = {X, Y};
  G.Outputs = {X};
  MemoryPlan Plan = plan::planMemory(G);
  CHECK(plan::verifyPlan(G, Plan).empty());
  CHECK_FALSE(overlap(buffer(Plan, X), buffer(Plan, Y)));
  CHECK(Plan.ArenaBytes == 26);
}

TEST_CASE("zero-sized tensors take no bytes") {
  ir::Graph G;
  int32_t In = add(G, tensor("in", {0, 4}));
  int32_t Out = add(G, tensor("out", {8}));
  G.Operators = {op("A", {In}, {Out})};
  G.Inputs = {In};
  G.Outputs = {Out};
  MemoryPlan Plan = planChecked(G);
  CHECK(buffer(Plan, In).Size == 0);
  CHECK(Plan.ArenaBytes == 8);
}

TEST_CASE("planning is deterministic and every order gives a sound plan") {
  ReshapeGraph R;
  Chain C;
  for (const ir::Graph *G : {&R.G, &C.G}) {
    MemoryPlan A = plan::planMemory(*G), B = plan::planMemory(*G);
    REQUIRE(A.Buffers.size() == B.Buffers.size());
    for (size_t I = 0; I < A.Buffers.size(); ++I) {
      CHECK(A.Buffers[I].Tensor == B.Buffers[I].Tensor);
      CHECK(A.Buffers[I].Offset == B.Buffers[I].Offset);
    }
    for (PlacementOrder O :
         {PlacementOrder::Size, PlacementOrder::FirstUse,
          PlacementOrder::SizeTimesLifetime, PlacementOrder::Lifetime}) {
      PlanOptions Opts;
      Opts.Orders = {O};
      MemoryPlan One = planChecked(*G, Opts);
      CHECK(One.Order == O);
      CHECK(A.ArenaBytes <= One.ArenaBytes);
    }
  }
}

TEST_CASE("other alignments") {
  Chain C;
  PlanOptions Opts;
  Opts.Alignment = 64;
  MemoryPlan Plan = planChecked(C.G, Opts);
  CHECK(Plan.Alignment == 64);
  CHECK(buffer(Plan, C.T1).Offset == 320);
  Opts.Alignment = 1;
  CHECK(planChecked(C.G, Opts).ArenaBytes == 500);
}

TEST_CASE("verifyPlan finds what is wrong with a plan") {
  ReshapeGraph R;
  MemoryPlan Good = plan::planMemory(R.G);
  REQUIRE(plan::verifyPlan(R.G, Good).empty());
  auto Mutable = [](MemoryPlan &P, int32_t T) -> Buffer & {
    return *const_cast<Buffer *>(P.find(T));
  };
  auto Mentions = [](const std::vector<std::string> &Problems,
                     llvm::StringRef Text) {
    return llvm::any_of(Problems, [&](const std::string &P) {
      return llvm::StringRef(P).contains(Text);
    });
  };

  SUBCASE("overlap of tensors live together") {
    MemoryPlan P = Good;
    Mutable(P, R.In).Offset = Mutable(P, R.X).Offset;
    std::vector<std::string> Problems = plan::verifyPlan(R.G, P);
    CHECK_MESSAGE(Mentions(Problems, "tensor 0 'in' [0, 256) and tensor 3 'x' "
                                     "[0, 512) overlap and are both live at "
                                     "operator 0 (CONV_2D)"),
                  joined(Problems));
  }
  SUBCASE("an alias's lifetime counts: out may not take x's bytes") {
    MemoryPlan P = Good;
    Mutable(P, R.Out).Offset = Mutable(P, R.X).Offset;
    CHECK(
        Mentions(plan::verifyPlan(R.G, P), "'y' [0, 512) and tensor 7 'out'"));
  }
  SUBCASE("misaligned, wrong size, outside the arena") {
    MemoryPlan P = Good;
    Mutable(P, R.Out).Offset += 8;
    Mutable(P, R.In).Size = 7;
    P.ArenaBytes = 100;
    std::vector<std::string> Problems = plan::verifyPlan(R.G, P);
    CHECK(Mentions(Problems, "'out' is at offset"));
    CHECK(Mentions(Problems, "'in' has a buffer of 7 bytes, not 256"));
    CHECK(Mentions(Problems, "past the arena's 100 bytes"));
  }
  SUBCASE("a missing buffer") {
    MemoryPlan P = Good;
    P.Buffers.erase(P.Buffers.begin());
    CHECK(Mentions(plan::verifyPlan(R.G, P),
                   "tensor 0 'in' is used but has no buffer"));
  }
  SUBCASE("an alias no view operator makes") {
    MemoryPlan P = Good;
    Mutable(P, R.Out).AliasOf = R.X;
    Mutable(P, R.Out).Offset = Mutable(P, R.X).Offset;
    CHECK(Mentions(plan::verifyPlan(R.G, P),
                   "'out' aliases tensor 3 'x' but is neither a same-size "
                   "view"));
  }
  SUBCASE("an alias when aliasing is off") {
    PlanOptions NoAlias;
    NoAlias.AliasOps.clear();
    CHECK(Mentions(plan::verifyPlan(R.G, Good, NoAlias),
                   "'y' aliases tensor 3 'x' but is neither a same-size "
                   "view"));
  }
}

TEST_CASE("placement again with the topmost buffer first, while it helps") {
  // Four tensors worked out by hand: a (32 bytes, live at operator 1), b (32,
  // at 3), c (16, 0-2), d (16, 2-3); at most 48 bytes live at once (a and c
  // at 1, b and d at 3). Largest first: a and b at 0, c above a at 32, and
  // d, which lives with b and with c, above both at 48: 64 bytes. Placed
  // first, d takes 0 and the others fit around it: 48.
  ir::Graph G;
  int32_t K = add(G, tensor("k", {1, 16}, ir::DType::I8, true));
  int32_t A = add(G, tensor("a", {1, 32}));
  int32_t B = add(G, tensor("b", {1, 32}));
  int32_t C = add(G, tensor("c", {1, 16}));
  int32_t D = add(G, tensor("d", {1, 16}));
  G.Operators = {op("P", {K}, {C}), op("Q", {K}, {A}), op("R", {C}, {D}),
                 op("S", {K}, {B})};
  G.Outputs = {D, B};
  PlanOptions Opts;
  Opts.Orders = {PlacementOrder::Size};
  MemoryPlan Plan = planChecked(G, Opts);
  CHECK(Plan.LowerBound == 48);
  CHECK(Plan.ArenaBytes == 48);
  CHECK(buffer(Plan, D).Offset == 0);
  CHECK(buffer(Plan, A).Offset == 0);
  CHECK(buffer(Plan, B).Offset == 16);
  CHECK(buffer(Plan, C).Offset == 32);
}

TEST_CASE("scratch: a buffer live at its operator alone") {
  // Chain's in (100 bytes), t1 (200), t2 (300), out (50); operator 0 needs
  // 500 bytes of scratch, operator 1 needs 64.
  Chain C;
  PlanOptions Opts;
  Opts.Scratch = {{0, 500}, {1, 64}};
  MemoryPlan Plan = planChecked(C.G, Opts);
  REQUIRE(Plan.Scratch.size() == 2);
  const Buffer *S0 = Plan.findScratch(0), *S1 = Plan.findScratch(1);
  REQUIRE(S0);
  REQUIRE(S1);
  CHECK(Plan.findScratch(2) == nullptr);
  CHECK(S0->Tensor == -1);
  CHECK(S0->Op == 0);
  CHECK(S0->Size == 500);
  CHECK(S0->FirstOp == 0);
  CHECK(S0->LastOp == 0);
  CHECK(S1->Size == 64);
  CHECK(S1->FirstOp == 1);
  CHECK(S1->LastOp == 1);
  // Apart from what lives with it; t2, written after operator 0, may take
  // operator 0's scratch bytes.
  CHECK_FALSE(overlap(*S0, buffer(Plan, C.In)));
  CHECK_FALSE(overlap(*S0, buffer(Plan, C.T1)));
  CHECK_FALSE(overlap(*S1, buffer(Plan, C.T1)));
  CHECK_FALSE(overlap(*S1, buffer(Plan, C.T2)));
  CHECK(overlap(*S0, buffer(Plan, C.T2)));
  // At operator 0: in, t1 and the scratch, 800 bytes; 16-byte offsets make
  // 820 (the scratch at 0, t2 over it, t1 at 512, in at 720).
  CHECK(Plan.LowerBound == 800);
  CHECK(Plan.ArenaBytes == 820);
  // No scratch, no scratch buffers; zero bytes are none.
  Opts.Scratch = {{2, 0}};
  CHECK(planChecked(C.G, Opts).Scratch.empty());
}

TEST_CASE("scratch: a group's operators share one buffer, the largest") {
  Chain C;
  PlanOptions Opts;
  Opts.Groups = {{0, 1}};
  Opts.Scratch = {{0, 64}, {1, 128}};
  MemoryPlan Plan = planChecked(C.G, Opts);
  REQUIRE(Plan.Scratch.size() == 2);
  CHECK(Plan.Scratch[0].Offset == Plan.Scratch[1].Offset);
  CHECK(Plan.Scratch[0].Size == 64);
  CHECK(Plan.Scratch[1].Size == 128);
  for (const Buffer &S : Plan.Scratch) {
    CHECK(S.FirstOp == 0);
    CHECK(S.LastOp == 1);
  }
  // in, t1 and t2 live over the group with 128 bytes of scratch.
  CHECK(Plan.LowerBound == 100 + 200 + 300 + 128);
}

TEST_CASE("verifyPlan finds what is wrong with a plan's scratch") {
  Chain C;
  PlanOptions Opts;
  Opts.Scratch = {{1, 64}};
  const MemoryPlan Good = planChecked(C.G, Opts);
  REQUIRE(Good.Scratch.size() == 1);
  auto Problems = [&](const MemoryPlan &P, const PlanOptions &O) {
    return joined(plan::verifyPlan(C.G, P, O));
  };
  auto Has = [](const std::string &Text, llvm::StringRef Part) {
    return llvm::StringRef(Text).contains(Part);
  };
  SUBCASE("over a tensor live at its operator") {
    MemoryPlan P = Good;
    const int64_t At = buffer(P, C.T2).Offset;
    P.Scratch[0].Offset = At;
    std::string Text = Problems(P, Opts);
    CHECK_MESSAGE(Has(Text, llvm::formatv("the scratch of operator 1 (B) "
                                          "[{0}, {1}) overlaps tensor 2 't2' "
                                          "[{0}, {2}), live at the same step",
                                          At, At + 64, At + 300)
                                .str()),
                  Text);
  }
  SUBCASE("missing, or where no operator needs it") {
    MemoryPlan P = Good;
    P.Scratch.clear();
    CHECK(Has(Problems(P, Opts),
              "operator 1 (B) needs 64 bytes of scratch but has no buffer"));
    CHECK(Has(Problems(Good, PlanOptions()),
              "the scratch of operator 1 (B) has 64 bytes, not 0"));
  }
  SUBCASE("of the wrong size, misaligned, outside the arena, twice") {
    MemoryPlan P = Good;
    P.Scratch[0].Size = 32;
    CHECK(Has(Problems(P, Opts),
              "the scratch of operator 1 (B) has 32 bytes, not 64"));
    P = Good;
    P.Scratch[0].Offset = 8;
    CHECK(Has(Problems(P, Opts), "the scratch of operator 1 (B) is at offset "
                                 "8, not a multiple of 16"));
    P = Good;
    P.Scratch[0].Offset = P.ArenaBytes;
    CHECK(Has(Problems(P, Opts), "past the arena's"));
    P = Good;
    P.Scratch.push_back(P.Scratch[0]);
    CHECK(Has(Problems(P, Opts),
              "the scratch of operator 1 (B) has more than one buffer"));
    P = Good;
    P.Scratch[0].Op = 7;
    CHECK(Has(Problems(P, Opts),
              "a scratch buffer names operator 7, which does not exist"));
  }
}

//===----------------------------------------------------------------------===//
// In-place operators
//===----------------------------------------------------------------------===//

namespace {

/// A residual block: in -> A -> x (1 KiB) -> B -> y (1 KiB), ADD(x, y) ->
/// sum (1 KiB) -> C -> out (16 bytes).
struct Residual {
  ir::Graph G;
  int32_t In, X, Y, Sum, Out;
  Residual() {
    In = add(G, tensor("in", {1, 16}));
    X = add(G, tensor("x", {1, 4, 16, 16}));
    Y = add(G, tensor("y", {1, 4, 16, 16}));
    Sum = add(G, tensor("sum", {1, 4, 16, 16}));
    Out = add(G, tensor("out", {1, 16}));
    G.Operators = {op("A", {In}, {X}), op("B", {X}, {Y}),
                   op("ADD", {X, Y}, {Sum}), op("C", {Sum}, {Out})};
    G.Inputs = {In};
    G.Outputs = {Out};
  }
};

} // namespace

TEST_CASE("in-place operators: the fact comes from defs/ops.td") {
  CHECK(ir::mayOverlay(ir::OpCode::Add, 0));
  CHECK(ir::mayOverlay(ir::OpCode::Add, 1));
  CHECK(ir::mayOverlay(ir::OpCode::Mul, 1));
  CHECK(ir::mayOverlay(ir::OpCode::Relu, 0));
  CHECK(ir::mayOverlay(ir::OpCode::Quantize, 0));
  CHECK_FALSE(ir::mayOverlay(ir::OpCode::Relu, 1));
  CHECK_FALSE(ir::mayOverlay(ir::OpCode::Conv2D, 0));
  CHECK_FALSE(ir::mayOverlay(ir::OpCode::Softmax, 0));
  CHECK_FALSE(ir::mayOverlay(ir::OpCode::Unknown, 0));
}

TEST_CASE("an in-place ADD takes the bytes of the operand it reads last") {
  Residual R;
  MemoryPlan Plan = planChecked(R.G);
  // x and y are both read last by the ADD; it takes the first, x.
  const Buffer &Sum = buffer(Plan, R.Sum), &X = buffer(Plan, R.X);
  CHECK(Sum.AliasOf == R.X);
  CHECK(Sum.Offset == X.Offset);
  CHECK(X.FirstOp == 0);
  CHECK(X.LastOp == 3);
  CHECK_FALSE(overlap(X, buffer(Plan, R.Y)));
  // x and y at operator 2 (the ADD's output in x's bytes): 2 KiB, against 3
  // KiB without.
  CHECK(Plan.ArenaBytes == 2048);
  CHECK(Plan.LowerBound == 2048);
  PlanOptions Off;
  Off.Overlays = false;
  MemoryPlan Without = planChecked(R.G, Off);
  CHECK(buffer(Without, R.Sum).AliasOf == -1);
  CHECK(Without.ArenaBytes == 3072);

  SUBCASE("not over an operand read later") {
    R.G.Operators[3].Inputs.push_back(R.X);
    MemoryPlan P = planChecked(R.G);
    CHECK(buffer(P, R.Sum).AliasOf == R.Y);
    R.G.Operators[3].Inputs.push_back(R.Y);
    CHECK(buffer(planChecked(R.G), R.Sum).AliasOf == -1);
  }
  SUBCASE("not over a graph output, nor one a view of which is an output") {
    R.G.Outputs = {R.Out, R.X, R.Y};
    CHECK(buffer(planChecked(R.G), R.Sum).AliasOf == -1);
  }
  SUBCASE("not when broadcasting: an operand of another shape") {
    R.G.Tensors[R.Y].Shape = {1, 1, 16, 16};
    R.G.Tensors[R.X].Shape = {1, 1, 16, 64};
    MemoryPlan P = planChecked(R.G);
    CHECK(buffer(P, R.Sum).AliasOf == -1);
  }
  SUBCASE("not over a graph input read in place") {
    R.G.Operators = {op("ADD", {R.In, R.In}, {R.Out})};
    R.G.Tensors[R.In].Shape = {1, 16};
    PlanOptions InPlace;
    InPlace.InputsInPlace = true;
    MemoryPlan P = planChecked(R.G, InPlace);
    CHECK(buffer(P, R.Out).AliasOf == -1);
    // In the arena it is the ADD's to take.
    CHECK(buffer(planChecked(R.G), R.Out).AliasOf == R.In);
  }
  SUBCASE("chains: a RESHAPE of the sum and a RELU of that share x's bytes") {
    int32_t Shape = add(R.G, tensor("shape", {2}, ir::DType::I32, true));
    int32_t Flat = add(R.G, tensor("flat", {1, 1024}));
    int32_t Act = add(R.G, tensor("act", {1, 1024}));
    R.G.Operators[3] = op("RESHAPE", {R.Sum, Shape}, {Flat});
    R.G.Operators.push_back(op("RELU", {Flat}, {Act}));
    R.G.Operators.push_back(op("C", {Act}, {R.Out}));
    MemoryPlan P = planChecked(R.G);
    CHECK(buffer(P, Flat).AliasOf == R.X);
    CHECK(buffer(P, Act).AliasOf == R.X);
  }
  SUBCASE("inside a group only the overlays the cascade planner lists") {
    PlanOptions Grouped;
    Grouped.Groups = {{1, 2}};
    CHECK(buffer(planChecked(R.G, Grouped), R.Sum).AliasOf == -1);
    Grouped.GroupOverlays[R.Sum] = R.X;
    MemoryPlan P = planChecked(R.G, Grouped);
    CHECK(buffer(P, R.Sum).AliasOf == R.X);
  }
}

TEST_CASE("verifyPlan accepts exactly the overlays in-place operators allow") {
  Residual R;
  MemoryPlan Good = plan::planMemory(R.G);
  REQUIRE(buffer(Good, R.Sum).AliasOf == R.X);
  auto Mutable = [](MemoryPlan &P, int32_t T) -> Buffer & {
    return *const_cast<Buffer *>(P.find(T));
  };
  auto Found = [](const std::vector<std::string> &Problems,
                  llvm::StringRef Text) {
    return llvm::any_of(Problems, [&](const std::string &P) {
      return llvm::StringRef(P).contains(Text);
    });
  };

  SUBCASE("an operand read after the operator that overwrote it") {
    R.G.Operators[3].Inputs.push_back(R.X);
    std::vector<std::string> Problems = plan::verifyPlan(R.G, Good);
    CHECK_MESSAGE(Found(Problems, "tensor 3 'sum' takes over the bytes of "
                                  "tensor 1 'x' at operator 2 (ADD), but "
                                  "tensor 1 'x' is live until operator 3 (C)"),
                  joined(Problems));
  }
  SUBCASE("an operator that may not overlay its operand") {
    MemoryPlan P = Good;
    Mutable(P, R.Y).AliasOf = R.X;
    Mutable(P, R.Y).Offset = buffer(P, R.X).Offset;
    std::vector<std::string> Problems = plan::verifyPlan(R.G, P);
    CHECK_MESSAGE(Found(Problems, "tensor 2 'y' aliases tensor 1 'x' but is "
                                  "neither a same-size view"),
                  joined(Problems));
    CHECK_MESSAGE(Found(Problems, "'x' and tensor 2 'y' share bytes but hold "
                                  "different values, both live at operator "
                                  "1 (B)"),
                  joined(Problems));
  }
  SUBCASE("a broadcast operand") {
    ir::Graph G = R.G;
    G.Tensors[R.X].Shape = {1, 4, 1, 256};
    CHECK(Found(plan::verifyPlan(G, Good), "'sum' aliases tensor 1 'x' but "
                                           "is neither"));
  }
  SUBCASE("with overlays off") {
    PlanOptions Off;
    Off.Overlays = false;
    CHECK(Found(plan::verifyPlan(R.G, Good, Off),
                "'sum' aliases tensor 1 'x' but is neither"));
  }
  SUBCASE("the same bytes without saying so") {
    MemoryPlan P = Good;
    Mutable(P, R.Sum).AliasOf = -1;
    std::vector<std::string> Problems = plan::verifyPlan(R.G, P);
    CHECK_MESSAGE(Found(Problems, "and tensor 3 'sum' ["), joined(Problems));
    CHECK_MESSAGE(Found(Problems, "overlap and are both live at operator 2 "
                                  "(ADD)"),
                  joined(Problems));
  }
}

//===----------------------------------------------------------------------===//
// The shared models
//===----------------------------------------------------------------------===//

TEST_CASE("ic_resnet8: the residual ADDs write their sums in place") {
  std::string Path =
      test::sharedDir() + "/models/mlperf_tiny_ic_resnet8_int8.tflite";
  REQUIRE_MESSAGE(llvm::sys::fs::exists(Path),
                  "the shared conformance folder is missing: " << Path);
  auto Imported = tflite::importModelFile(Path);
  REQUIRE_MESSAGE(Imported, llvm::toString(Imported.takeError()));
  const ir::Graph &G = Imported->Model->main();
  MemoryPlan Plan = planChecked(G);
  PlanOptions Off;
  Off.Overlays = false;
  MemoryPlan Without = planChecked(G, Off);
  // The bytes of their own live at operator K.
  auto LiveAt = [](const MemoryPlan &P, int32_t K) {
    int64_t Sum = 0;
    for (const Buffer &B : P.Buffers)
      if (B.AliasOf < 0 && B.FirstOp <= K && K <= B.LastOp)
        Sum += B.Size;
    return Sum;
  };
  int Adds = 0, InPlace = 0;
  for (size_t K = 0; K < G.Operators.size(); ++K) {
    const ir::Operator &Op = G.Operators[K];
    if (Op.code() != ir::OpCode::Add)
      continue;
    ++Adds;
    // Two activations of the ADD's size live at it, not three.
    const int64_t Bytes = G.tensor(Op.output(0)).byteSize();
    CHECK(LiveAt(Plan, static_cast<int32_t>(K)) == 2 * Bytes);
    CHECK(LiveAt(Without, static_cast<int32_t>(K)) == 3 * Bytes);
    const Buffer &Out = buffer(Plan, Op.output(0));
    // The bytes of one of its inputs.
    InPlace += Out.AliasOf >= 0 && llvm::any_of(Op.Inputs, [&](int32_t In) {
                 const Buffer *B = In >= 0 ? Plan.find(In) : nullptr;
                 return B && (B->AliasOf < 0 ? In : B->AliasOf) == Out.AliasOf;
               });
  }
  CHECK(Adds == 3);
  CHECK(InPlace == Adds);
  // The arena is the same: its peak is the first block's second
  // convolution, where the block's input and both convolutions' outputs
  // (16 KiB each) are live.
  CHECK(Plan.ArenaBytes == 49152);
  CHECK(Without.ArenaBytes == 49152);
}

namespace {

std::string pathJoin(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

/// Models TensorFlow Lite Micro has no arena figure for, and why.
const std::map<std::string, std::string> &withoutTflmFigure() {
  static const std::map<std::string, std::string> Models = {
      {"coral_mobilenet_v2_10_224_quant_uint8",
       "TensorFlow Lite Micro has no uint8 convolution"},
  };
  return Models;
}

/// Models whose figure is another model's: the same graph with different
/// quantization metadata (MODELS.md).
const std::map<std::string, std::string> &sameGraphAs() {
  static const std::map<std::string, std::string> Models = {
      {"tflm_person_detect_int8", "tflm_person_detect_int8_qdimfix"},
  };
  return Models;
}

/// The `arena_used=N` figure of vectors/<Stem>/tflm_arena.txt, or -1.
int64_t tflmArena(llvm::StringRef Stem) {
  std::string Path = pathJoin(
      pathJoin(pathJoin(test::sharedDir(), "vectors"), Stem), "tflm_arena.txt");
  if (!llvm::sys::fs::exists(Path))
    return -1;
  std::string Text = test::readFileText(Path);
  llvm::StringRef Value = llvm::StringRef(Text).trim();
  int64_t N = -1;
  REQUIRE_MESSAGE(
      (Value.consume_front("arena_used=") && !Value.getAsInteger(10, N)),
      Path << " does not read arena_used=N: " << Text);
  return N;
}

} // namespace

TEST_CASE("every shared model plans within TensorFlow Lite Micro's arena") {
  std::string Models = pathJoin(test::sharedDir(), "models");
  REQUIRE_MESSAGE(llvm::sys::fs::is_directory(Models),
                  "the shared conformance folder is missing: "
                      << Models
                      << " does not exist. Point the CMake cache variable "
                         "ACCELGEN_SHARED_DIR at the folder holding models/ "
                         "and vectors/.");
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Models, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".tflite")
      Files.push_back(It->path());
  REQUIRE_MESSAGE(!EC, "cannot list " << Models << ": " << EC.message());
  REQUIRE_MESSAGE(!Files.empty(), "no .tflite model in " << Models);
  std::sort(Files.begin(), Files.end());

  std::string Table =
      "\n| model | arena | TFLM arena | lower bound | order "
      "| buffers | aliases |\n|---|---:|---:|---:|---|---:|---:|\n";
  for (const std::string &File : Files) {
    std::string Stem = llvm::sys::path::stem(File).str();
    CAPTURE(Stem);
    auto Imported = tflite::importModelFile(File);
    REQUIRE_MESSAGE(Imported, llvm::toString(Imported.takeError()));
    const ir::Graph &G = Imported->Model->main();

    MemoryPlan Plan = plan::planMemory(G);
    std::vector<std::string> Problems = plan::verifyPlan(G, Plan);
    CHECK_MESSAGE(Problems.empty(), joined(Problems));
    CHECK(Plan.LowerBound <= Plan.ArenaBytes);
    for (PlacementOrder O :
         {PlacementOrder::Size, PlacementOrder::FirstUse,
          PlacementOrder::SizeTimesLifetime, PlacementOrder::Lifetime}) {
      PlanOptions Opts;
      Opts.Orders = {O};
      MemoryPlan One = plan::planMemory(G, Opts);
      CHECK_MESSAGE(plan::verifyPlan(G, One).empty(),
                    "order " << plan::placementOrderName(O).str());
      CHECK(Plan.ArenaBytes <= One.ArenaBytes);
    }

    std::string FigureOf = Stem;
    if (sameGraphAs().count(Stem))
      FigureOf = sameGraphAs().at(Stem);
    int64_t Tflm = tflmArena(FigureOf);
    if (Tflm < 0)
      CHECK_MESSAGE(withoutTflmFigure().count(Stem),
                    "vectors/" << FigureOf << "/tflm_arena.txt is missing");
    else
      CHECK_MESSAGE(Plan.ArenaBytes <= Tflm,
                    "the arena takes " << Plan.ArenaBytes
                                       << " bytes, TensorFlow Lite Micro "
                                       << Tflm);

    size_t Aliases = llvm::count_if(
        Plan.Buffers, [](const Buffer &B) { return B.AliasOf != -1; });
    Table += "| " + Stem + " | " + std::to_string(Plan.ArenaBytes) + " | " +
             (Tflm < 0 ? std::string("-") : std::to_string(Tflm)) + " | " +
             std::to_string(Plan.LowerBound) + " | " +
             plan::placementOrderName(Plan.Order).str() + " | " +
             std::to_string(Plan.Buffers.size()) + " | " +
             std::to_string(Aliases) + " |\n";
  }
  MESSAGE(Table);
}
