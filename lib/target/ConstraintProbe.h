//===- ConstraintProbe.h - Generated tests of constraint checks -----------===//
//
// accelgen-tblgen derives accept/reject cases from each constraint whose
// references a test can set: attributes of every kind, operand and result
// counts, and an operand's or result's dtype, rank, dims, channels,
// num_elements, is_constant, scale, zero_point and per_channel
// (`stride_h in [1, 4]`, `input(0).dtype in {i8, u8}`,
// `padding == "VALID" || filter_h <= 15`), and emits them as ConstraintProbe
// tables (ConstraintTests.inc). runConstraintProbe builds, for every case,
// an operator whose references read as the case's values, runs the
// generated check on it and compares the verdict, and on rejection the
// message, with the case. A case the generator found not constructible (no
// operator reads as its values, such as a dim outside the rank) carries the
// reason and is reported, not run.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_CONSTRAINTPROBE_H
#define ACCELGEN_TARGET_CONSTRAINTPROBE_H

#include "ir/Graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// One reference a probe sets.
struct ProbeRef {
  enum Kind : uint8_t {
    AttrInt,    ///< An attribute, by its kind.
    AttrFloat,
    AttrBool,
    AttrString,
    DType,      ///< input(Index).dtype (or output(Index) when Output)
    Rank,       ///< .rank
    Dim,        ///< .dim(Axis); negative axes count from the end
    Channels,   ///< .channels
    IsConstant, ///< .is_constant
    Scale,      ///< .scale
    ZeroPoint,  ///< .zero_point
    PerChannel, ///< .per_channel
    NumElements, ///< .num_elements
    NumInputs,  ///< num_inputs (operand slots)
    NumOutputs, ///< num_outputs
  };
  Kind K;
  bool Output;          ///< For tensor properties: a result, not an operand.
  const char *Name;     ///< The attribute, for Attr*.
  uint16_t Index;       ///< The operand or result, for tensor properties.
  int16_t Axis;         ///< For Dim.
  const char *Spelling; ///< As written: "input(0).dim(1)".
};

/// The dtype value of an absent operand (`none`) in ProbeValue::Int.
constexpr int64_t ProbeDTypeNone = -1;

/// A value of a reference: Int for ints, bools (0, 1) and dtypes (the
/// ir::DType enumerator, or ProbeDTypeNone); Float for floats; Str for
/// strings.
struct ProbeValue {
  int64_t Int = 0;
  double Float = 0;
  const char *Str = nullptr;
};

/// One case: a value for each reference, and what should happen.
struct ProbeCase {
  /// Index of the case's first value in ConstraintProbe::Values; NumRefs
  /// values follow.
  uint32_t FirstValue;
  bool Accept;
  const char *Label; ///< What the case exercises ("stride_h = 5").
  /// Why no operator reads as the values, or null when one does.
  const char *NotConstructible;
};

/// The cases of one constraint and the check they exercise. Cases[0] is
/// the base case, which the constraint accepts; the others change it.
struct ConstraintProbe {
  const char *Id;
  const char *Expr; ///< The constraint as written canonically.
  bool (*Check)(const ir::Graph &G, const ir::Operator &Op,
                std::string &Message);
  uint16_t NumRefs;
  const ProbeRef *Refs;
  uint16_t NumCases;
  const ProbeCase *Cases;
  const ProbeValue *Values;
};

/// The graph of case \p Case of \p P: one operator (operator 0, type
/// "PROBE") whose references read as the case's values. Operands and results
/// up to the highest index referenced (or num_inputs, num_outputs) exist,
/// 4-D i8 tensors of dimension 1, unless their dtype reads `none` (then
/// absent, index -1). A rank is the one set, else 4 or the smallest holding
/// every dim read (at most 64); dims and channels set their axis, and
/// num_elements the lowest axis none of them sets (the count divided by the
/// other dims). A tensor with a scale, zero_point or per_channel reference
/// gets quantization parameters: scale (1.0 unless set) and zero point,
/// twice when per_channel.
ir::Graph probeGraph(const ConstraintProbe &P, const ProbeCase &Case);

/// What running a probe found.
struct ProbeResult {
  /// One line per case that misbehaved: a wrong verdict, a rejection message
  /// without the values the case changed, or a graph that does not read as
  /// a case the table calls constructible.
  std::vector<std::string> Failures;
  /// One line per case the table calls not constructible, with the reason.
  std::vector<std::string> NotConstructible;
  /// Cases run.
  unsigned Run = 0;
};

/// Runs every case of \p P.
ProbeResult runConstraintProbe(const ConstraintProbe &P);

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_CONSTRAINTPROBE_H
