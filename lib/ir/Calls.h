//===- Calls.h - The graphs operators call, and the model's variables -----===//
//
// A model may hold more graphs than its main one: IF runs one of two graphs,
// WHILE runs a condition graph and a body graph, CALL_ONCE runs an
// initialisation graph once. Each called graph takes its caller's operands
// as copies into its inputs and gives its outputs back as copies, as the
// reference interpreter does; so operand and graph input (and graph output
// and result) must agree in element type and byte size. No graph may call
// itself, directly or through others.
//
// Resource variables are the model's state across invocations: VAR_HANDLE
// names one (by container and shared name, the same variable in every
// graph), ASSIGN_VARIABLE stores a value in it and READ_VARIABLE reads it.
// Each variable has one byte size, that of the values assigned to it, and
// before the first assignment holds its initial bytes: the low byte of the
// zero point of the first value assigned to it (graphs in order, operators
// in order), 0 for an unquantized one, as the reference interpreter fills
// it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_IR_CALLS_H
#define ACCELGEN_IR_CALLS_H

#include "ir/Graph.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace accelgen {
namespace ir {

/// The graphs operator \p Op calls, by index, in its attribute order (IF:
/// then, else; WHILE: cond, body; CALL_ONCE: init); empty for any other.
std::vector<int64_t> calledGraphs(const Operator &Op);

/// The graphs of \p M that \p From's operators call, directly or through
/// other graphs, in index order (\p From is the main graph or a version of
/// it, such as a partitioned copy).
std::vector<size_t> reachableGraphs(const Model &M, const Graph &From);

/// One message per problem with the calls of \p M ("graph 0, operator 2
/// (IF): ..."): graph indices out of range or calling the main graph,
/// operand and result counts, element types and byte sizes that differ from
/// the called graph's, a condition that is not one bool, graphs that call
/// themselves.
std::vector<std::string> verifyCalls(const Model &M);

/// A resource variable.
struct Variable {
  std::string Container;
  std::string SharedName;
  int64_t Bytes = 0;
  /// The byte every byte holds before the first assignment and after a
  /// reset.
  uint8_t Fill = 0;
};

/// The model's variables, numbered in the order their first VAR_HANDLE
/// comes (graphs in order, operators in order).
struct VariableTable {
  std::vector<Variable> Variables;
  /// Each variable's number by (container, shared name).
  std::map<std::pair<std::string, std::string>, int32_t> ByName;

  /// The number of the variable VAR_HANDLE \p Handle names; -1 for none.
  int32_t find(const Operator &Handle) const;
  /// The variable each handle tensor of \p G names, as the VAR_HANDLE
  /// writing it says.
  std::map<int32_t, int32_t> handles(const Graph &G) const;
};

/// The variables of \p M. Errors (one line, located): a READ_VARIABLE or
/// ASSIGN_VARIABLE whose handle no VAR_HANDLE of its own graph writes (a
/// handle passed between graphs), a variable read but never assigned, and
/// values or reads of one variable that differ in byte size.
llvm::Expected<VariableTable> modelVariables(const Model &M);

} // namespace ir
} // namespace accelgen

#endif // ACCELGEN_IR_CALLS_H
