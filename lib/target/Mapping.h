//===- Mapping.h - Building target operators from framework operators ------===//
#ifndef ACCELGEN_TARGET_MAPPING_H
#define ACCELGEN_TARGET_MAPPING_H

#include "ir/Graph.h"

#include <initializer_list>
#include <string>
#include <utility>

namespace accelgen {
namespace target {

/// A copy of \p Op retyped to \p TargetOp, with the attribute settings
/// \p Set ("name", "value") applied: a value that reads as an integer is
/// stored as one, any other as a string. Operands and results are unchanged.
ir::Operator
mapOperator(const ir::Operator &Op, const char *TargetOp,
            std::initializer_list<std::pair<const char *, const char *>> Set);

} // namespace target
} // namespace accelgen

#endif // ACCELGEN_TARGET_MAPPING_H
