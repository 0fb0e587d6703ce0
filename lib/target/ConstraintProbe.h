//===- ConstraintProbe.h - Boundary tests of generated constraint checks --===//
//
// accelgen-tblgen derives accept/reject boundary cases from each constraint
// whose value is decided by integer attributes and operand or result shapes
// (`stride_h in [1, 4] && input(0).rank == 4`), and emits them as
// ConstraintProbe tables (ConstraintTests.inc). runConstraintProbe builds,
// for every case, an operator with every probed reference at an accepted
// value and the probed one at the case's value, runs the generated check on
// it and compares the verdict, and on rejection the message, with the case.
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

/// One reference a boundary test sets.
struct ProbeRef {
  enum Kind : uint8_t {
    Attr,           ///< An integer attribute.
    InputRank,      ///< input(Index).rank
    InputDim,       ///< input(Index).dim(Axis)
    InputChannels,  ///< input(Index).channels
    OutputRank,     ///< output(Index).rank
    OutputDim,      ///< output(Index).dim(Axis)
    OutputChannels, ///< output(Index).channels
  };
  Kind K;
  const char *Name;     ///< The attribute, for Attr.
  uint16_t Index;       ///< The operand or result, otherwise.
  int16_t Axis;         ///< For *Dim; negative counts from the end.
  int64_t Accepted;     ///< A value the constraint accepts.
  const char *Spelling; ///< As written: "input(0).dim(1)".
};

/// One boundary case: reference Ref set to Value.
struct ProbeCase {
  uint16_t Ref;
  int64_t Value;
  bool Accept;
};

/// The boundary cases of one constraint and the check they exercise.
struct ConstraintProbe {
  const char *Id;
  const char *Expr; ///< The constraint as written canonically.
  bool (*Check)(const ir::Graph &G, const ir::Operator &Op,
                std::string &Message);
  uint16_t NumRefs;
  const ProbeRef *Refs;
  uint16_t NumCases;
  const ProbeCase *Cases;
};

/// The graph of case \p Case of \p P: one operator (operator 0) whose probed
/// references read as their accepted values, except the case's own, which
/// reads as the case's value. Operands and results the references do not
/// mention are absent; shapes not set are 4-D with every dimension 1.
ir::Graph probeGraph(const ConstraintProbe &P, const ProbeCase &Case);

/// Runs every case of \p P; returns one line per case that did not behave
/// (wrong verdict, a rejection message without the observed value, or a
/// graph that could not be made to read as the case says). Empty when all
/// cases pass.
std::vector<std::string> runConstraintProbe(const ConstraintProbe &P);

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_CONSTRAINTPROBE_H
