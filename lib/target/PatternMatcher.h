//===- PatternMatcher.h - Running fusion pattern tables on a graph --------===//
//
// Finds where a target's fusion patterns (Pattern.h) occur in a Graph IR and
// replaces each occurrence by the one target operator the pattern names.
//
// Matching starts at a root operator (pattern node 0) and follows operands to
// their producers: operand k of a pattern node that refers to another node
// must be a tensor that the operator matched for that node writes. A pattern
// node may be referenced more than once (a dag); all references must reach
// the same operator, and no operator matches two nodes. An operator matches a
// node when its type is the node's, or a member of the node's operator set,
// and it has no operand beyond the node's except omitted ones. A value capture binds the tensor at its operand (-1
// for an omitted one); an index used at two operands must bind the same
// tensor both times. Every result of a non-root node must stay inside the
// match: it is not a graph output, its readers are matched operators reading
// it where the pattern says (so, for a tree pattern, exactly one user), and no
// value capture binds it. Then the pattern's Check, if any, decides.
//
// The search is deterministic: patterns in table order (the generator sorts
// them by descending benefit, then name), roots in operator order, and an
// operator taken by one match is not available to any later one.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TARGET_PATTERNMATCHER_H
#define ACCELGEN_TARGET_PATTERNMATCHER_H

#include "target/Pattern.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace target {

/// The string attribute a fused operator carries: the original operator types
/// in execution order, joined by '+' ("CONV_2D+RELU").
constexpr const char FusedOpsAttr[] = "fused_ops";

/// One occurrence of a pattern in a graph.
struct FoundMatch {
  const PatternDesc *Pattern = nullptr;
  PatternMatch Match;
};

/// A structural match that the pattern's Check turned down.
struct MatchRejection {
  const PatternDesc *Pattern = nullptr;
  /// The operator the match was rooted at.
  size_t Root = 0;
  /// The failing constraints' messages.
  std::vector<std::string> Why;
};

/// Tries \p P rooted at operator \p Root of \p G, structure and Check; on a
/// Check failure, its messages go to \p Why if given.
std::optional<PatternMatch>
matchPattern(const ir::Graph &G, const PatternDesc &P, size_t Root,
             std::vector<std::string> *Why = nullptr);

/// Every non-overlapping occurrence of \p Patterns applicable at \p Version
/// (SinceVersion <= Version), in the order described above. Matches a Check
/// turned down go to \p Rejected if given. When \p CanFuse is given, an
/// operator for which it is false is never part of a match (e.g. one the
/// target cannot run).
std::vector<FoundMatch>
findMatches(const ir::Graph &G, llvm::ArrayRef<PatternDesc> Patterns,
            unsigned Version, std::vector<MatchRejection> *Rejected = nullptr,
            llvm::function_ref<bool(size_t OpIndex)> CanFuse = nullptr);

/// Replaces each match (disjoint, as findMatches returns them) by one
/// operator at its root's position: type PatternDesc::resultOp (ResultOp, or
/// what ResultSet lists for the operator node ResultNode matched), inputs
/// the captured tensors in ResultOperands order (-1 for an omitted one),
/// outputs the root's. Its attributes merge those of the matched operators in execution
/// order, later ones overriding earlier ones (so the root's win), plus
/// FusedOpsAttr. The other matched operators are erased; their results remain
/// as tensors nothing reads. Operator order stays topological.
void applyMatches(ir::Graph &G, llvm::ArrayRef<FoundMatch> Matches);

/// findMatches followed by applyMatches; returns the number of fusions.
size_t fusePatterns(ir::Graph &G, llvm::ArrayRef<PatternDesc> Patterns,
                    unsigned Version);

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_PATTERNMATCHER_H
