//===- EmitConstraintsMain.cpp - Emit checks for ConstraintCheckTest -------===//
//
// emit-test-constraints OUTPUT.cpp: parses a fixed list of constraints in a
// CONV_2D-like scope and a two-operator pattern scope, and writes their
// generated checks, plus the boundary cases of each, as the tables
// ConstraintChecks.h declares. A constraint that does not parse is a build
// error naming it.
//
//===----------------------------------------------------------------------===//
#include "constraint/Constraint.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace accelgen::gen::constraint;

namespace {

struct Spec {
  const char *Id;
  const char *Expr;     ///< "" for a C++ function check.
  const char *Function; ///< The C++ function, for a function check.
  const char *Summary;
  CheckKind Kind;
};

const Spec Specs[] = {
    {"conv_stride", "stride_h in [1, 4] && stride_w in [1, 4]", "",
     "stride must be in [1, 4]", CheckKind::Operator},
    {"stride_h_max", "stride_h <= 4", "", "stride_h must be at most 4",
     CheckKind::Operator},
    {"conv_weights_const", "input(1).is_constant", "",
     "weights must be constant", CheckKind::Operator},
    {"dw_mult", "input(1).dim(3) == input(0).channels * depth_multiplier", "",
     "filter depth must be input channels x multiplier", CheckKind::Operator},
    {"pad_small", "padding == \"VALID\" || filter_h <= 15", "",
     "SAME padding needs a filter of at most 15", CheckKind::Operator},
    {"quant_15", "input(0).scale * input(1).scale < output(0).scale", "",
     "input scale x weight scale must be below the output scale",
     CheckKind::Operator},
    {"types", "input(0).dtype in {i8, u8} && !input(1).per_channel", "",
     "8-bit input and per-tensor weights", CheckKind::Operator},
    {"rank4", "input(0).rank == 4", "", "input must be 4-D",
     CheckKind::Operator},
    {"fc_depth", "input(1).dim(1) in [1, 2048]", "",
     "filter height must be in [1, 2048]", CheckKind::Operator},
    {"pool_filter", "filter_h * filter_w <= 64", "",
     "window must have at most 64 elements", CheckKind::Operator},
    {"softmax_beta", "beta == 1.0", "", "beta must be 1", CheckKind::Operator},
    {"act_kind", "fused_activation in {\"NONE\", \"RELU\"}", "",
     "only RELU can be fused", CheckKind::Operator},
    {"zero_points",
     "input(0).zero_point in [-128, 127] && output(0).zero_point == -128", "",
     "output zero point must be -128", CheckKind::Operator},
    {"channels_div", "input(0).dim(-1) % 4 == 0 && input(0).channels / 4 <= 64",
     "", "channels must be a multiple of 4, at most 256", CheckKind::Operator},
    {"bias_i32", "input(2).dtype == i32", "", "bias must be int32",
     CheckKind::Operator},
    {"has_bias", "input(2).dtype != none", "", "a bias is required",
     CheckKind::Operator},
    {"bias_i32_or_none", "input(2).dtype in {i32, none}", "",
     "bias, if any, must be int32", CheckKind::Operator},
    {"no_trap",
     "stride_h * filter_h * filter_w - 1 < 1000000 && "
     "stride_w / (stride_h - 1) >= 0 && -stride_w % (filter_w - 1) <= 0",
     "", "arithmetic never traps", CheckKind::Operator},
    {"counts", "num_inputs == 3 && num_outputs == 1", "",
     "three operands, one result", CheckKind::Operator},
    {"not_flag", "!flag && 4 >= stride_w", "", "flag must be clear",
     CheckKind::Operator},
    {"conv_macs", "macs / 256 <= 1024 && stride_w <= 2", "",
     "at most 1024 steps of 256 MACs", CheckKind::Operator},
    {"call_terms",
     "align(input(0).channels, 32) == 32 && "
     "select(stride_h > 1, filter_h, filter_w) in [1, 3] && "
     "ceil(beta * 1.5) >= min(2, max(stride_w, 1)) && floor(-beta) == -1",
     "", "every built-in function", CheckKind::Operator},
    {"call_limits", "align(stride_h, filter_h) >= stride_h && ceil(beta) >= 1",
     "", "aligned stride and a positive beta", CheckKind::Operator},
    {"dw_square", "", "accelgen::test::isSquareFilter",
     "filter must be square", CheckKind::Operator},
    {"conv_act",
     "conv.stride_h <= 2 && act.input(0).zero_point == conv.output(0).zero_point",
     "", "the activation must keep the convolution's zero point",
     CheckKind::Pattern},
    {"act_rank", "act.output(0).rank in [1, 4]", "",
     "activation output rank must be in [1, 4]", CheckKind::Pattern},
    {"conv_first", "", "accelgen::test::convComesFirst",
     "the convolution must come first", CheckKind::Pattern},
};

Scope convScope() {
  Scope S;
  S.Attrs = {{"stride_h", AttrInfo::Int},
             {"stride_w", AttrInfo::Int},
             {"filter_h", AttrInfo::Int},
             {"filter_w", AttrInfo::Int},
             {"depth_multiplier", AttrInfo::Int},
             {"padding", AttrInfo::String},
             {"fused_activation", AttrInfo::String},
             {"beta", AttrInfo::Float},
             {"flag", AttrInfo::Bool}};
  S.NumOperands = 3;
  S.NumResults = 1;
  return S;
}

Scope patternScope() {
  Scope S;
  S.Captures["conv"] = convScope();
  Scope Act;
  Act.NumOperands = 1;
  Act.NumResults = 1;
  S.Captures["act"] = Act;
  return S;
}

std::string quote(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

std::string boundaryRow(const Spec &S, const BoundaryCase &C) {
  const Reference &R = C.Subject;
  const char *What = R.K == Reference::Kind::Attr  ? "Attr"
                     : R.P == Reference::Prop::Rank ? "Rank"
                     : R.P == Reference::Prop::Dim  ? "Dim"
                                                    : "Channels";
  return llvm::formatv("    {{{0}, {1}, {2}, BoundaryRow::{3}, {4}, {5}, {6}, "
                       "{7}, {8}, {9}},\n",
                       quote(S.Id), quote(C.Ref), quote(R.Capture), What,
                       quote(R.Attr), R.K == Reference::Kind::Output ? "true"
                                                                     : "false",
                       std::to_string(R.Index), std::to_string(R.Axis),
                       std::to_string(C.Value), C.Accept ? "true" : "false");
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: emit-test-constraints OUTPUT.cpp\n";
    return 2;
  }
  std::string Checks, OpTable, PatternTable, Rows;
  llvm::raw_string_ostream OS(Checks);
  unsigned NumOps = 0, NumPatterns = 0, NumRows = 0;
  for (const Spec &S : Specs) {
    std::string Name = checkFunctionName(S.Id);
    bool IsPattern = S.Kind == CheckKind::Pattern;
    if (*S.Expr == '\0') {
      OS << llvm::formatv("// {0}: {1}\n{2} {{\n", S.Id, S.Summary,
                          checkSignature(Name, S.Kind));
      emitFunctionCheck(OS, S.Function, S.Id, S.Summary, S.Kind);
      OS << "}\n\n";
    } else {
      auto E = parse(S.Expr, IsPattern ? patternScope() : convScope());
      if (!E) {
        llvm::errs() << "constraint '" << S.Id
                     << "': " << llvm::toString(E.takeError()) << "\n";
        return 1;
      }
      emitCheckDefinition(OS, **E, S.Id, S.Summary, S.Kind);
      OS << "\n";
      for (const BoundaryCase &C : boundaryCases(**E)) {
        Rows += boundaryRow(S, C);
        ++NumRows;
      }
    }
    std::string Entry = llvm::formatv("    {{{0}, {1}},\n", quote(S.Id), Name);
    if (IsPattern) {
      PatternTable += Entry;
      ++NumPatterns;
    } else {
      OpTable += Entry;
      ++NumOps;
    }
  }

  std::error_code EC;
  llvm::raw_fd_ostream Out(argv[1], EC);
  if (EC) {
    llvm::errs() << argv[1] << ": " << EC.message() << "\n";
    return 1;
  }
  Out << llvm::formatv(R"(// Generated by emit-test-constraints (tests/gen/EmitConstraintsMain.cpp).
// Do not edit.
#include "ConstraintChecks.h"

#include "target/ConstraintRuntime.h"

#include <string>

namespace accelgen {{
namespace test {{
namespace {{

{0}} // namespace

const OperatorCheck OperatorChecks[] = {{
{1}};
const size_t NumOperatorChecks = {2};

const PatternCheck PatternChecks[] = {{
{3}};
const size_t NumPatternChecks = {4};

const BoundaryRow BoundaryRows[] = {{
{5}};
const size_t NumBoundaryRows = {6};

} // namespace test
} // namespace accelgen
)",
                       OS.str(), OpTable, std::to_string(NumOps), PatternTable,
                       std::to_string(NumPatterns), Rows,
                       std::to_string(NumRows));
  return 0;
}
