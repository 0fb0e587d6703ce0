//===- Pattern.cpp - Operator-set lookup of fusion pattern tables ---------===//
//
// The two lookups the tables of Pattern.h need at match time: whether an
// operator type is a member of a set (a binary search over the set's sorted
// member row) and which operator type replaces a match.
//
//===----------------------------------------------------------------------===//
#include "target/Pattern.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

namespace accelgen {
namespace target {

int PatternOpSet::find(llvm::StringRef Type) const {
  const char *const *End = Members + NumMembers;
  const char *const *It = std::lower_bound(
      Members, End, Type,
      [](const char *Member, llvm::StringRef T) { return T > Member; });
  if (It == End || Type != *It)
    return -1;
  return static_cast<int>(It - Members);
}

llvm::StringRef PatternDesc::resultOp(const ir::Graph &G,
                                      const PatternMatch &M) const {
  if (ResultOp)
    return ResultOp;
  assert(ResultSet && ResultSet->Results && ResultNode >= 0 &&
         ResultNode < NumNodes &&
         "a result without an operator names a set with results and a node");
  int Member = ResultSet->find(G.Operators[M.Nodes[ResultNode]].Type);
  assert(Member >= 0 && "the node matched a member of the result's set");
  return ResultSet->Results[Member];
}

} // namespace target
} // namespace accelgen
