//===- DemoTarget.cpp - The demo target's generated code, registered -------===//
//
// Includes the code accelgen-tblgen generated from demo.td. The one
// hand-written piece is the C++ constraint the description names as an escape
// hatch (isSquareFilter), defined before the generated checks that call it.
//
//===----------------------------------------------------------------------===//
#include "ir/Graph.h"

namespace accelgen {
namespace demo {

/// True when the filter (input 1, [1, kh, kw, c]) has as many rows as columns.
bool isSquareFilter(const ir::Graph &G, const ir::Operator &Op) {
  int32_t F = Op.input(1);
  if (!G.isValidTensor(F) || G.tensor(F).rank() != 4)
    return false;
  return G.tensor(F).Shape[1] == G.tensor(F).Shape[2];
}

} // namespace demo
} // namespace accelgen

#include "target/GeneratedTarget.h"
