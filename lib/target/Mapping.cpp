//===- Mapping.cpp - Building target operators from framework operators ----===//
#include "target/Mapping.h"

#include "llvm/ADT/StringRef.h"

namespace accelgen {
namespace target {

ir::Operator
mapOperator(const ir::Operator &Op, const char *TargetOp,
            std::initializer_list<std::pair<const char *, const char *>> Set) {
  ir::Operator Out = Op;
  Out.Type = TargetOp;
  for (const auto &[Name, Value] : Set) {
    int64_t I;
    if (!llvm::StringRef(Value).getAsInteger(10, I))
      Out.Attrs[Name] = I;
    else
      Out.Attrs[Name] = std::string(Value);
  }
  return Out;
}

} // namespace target
} // namespace accelgen
