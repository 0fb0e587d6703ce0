//===- Runnable.cpp - What a target declares must run --------------------===//
//
// See Runnable.h. A declaration's types are those of the operator's input 0
// (as the legality checks read them), and a kernel function's element type
// is its input's; byte-moving kernels have none and take every type. An
// operator whose operand 0 is not its input (TRANSPOSE_CONV's output shape,
// SPLIT's axis, SELECT_V2's condition) declares that operand's type, which
// says nothing of its kernels' types (its parameter builder checks them):
// it is listed only when no kernel runs it at all.
//
//===----------------------------------------------------------------------===//
#include "model/Runnable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

namespace accelgen {
namespace gen {

void checkDeclaredRunnable(const TargetDecl &D, const TargetModel &M,
                           const KernelLibraryModel &K, Diagnostics &Diags,
                           llvm::raw_ostream *Warnings) {
  // The element types each operator (record key) has a kernel for; "" for
  // a kernel of any type.
  std::map<std::string, std::set<std::string>> Computed;
  for (const auto &F : K.Families)
    for (const auto &[Op, Fn] : F->Rows)
      Computed[Op].insert(Fn->Type);
  // Operators (IR names, in declaration order) and the types declared for
  // them that no kernel computes.
  std::vector<std::string> Order;
  std::map<std::string, std::set<std::string>> Missing;
  for (const LegalDecl &L : D.Legals) {
    const OpDef *Op = L.Removed ? nullptr : M.findOp(L.Op);
    if (!Op)
      continue;
    if (Op->Decl.Operands.empty() ||
        Op->Decl.Operands.front().Name != "input") {
      if (!Computed.count(Op->Decl.Key)) {
        if (!Missing.count(Op->name()))
          Order.push_back(Op->name());
        Missing[Op->name()].insert("no kernel");
      }
      continue;
    }
    const std::set<std::string> &Have = Computed[Op->Decl.Key];
    if (Have.count(""))
      continue;
    for (const std::string &T : L.Types) {
      if (Have.count(T))
        continue;
      if (T == "i16") {
        Diags.error(L.At,
                    llvm::formatv("{0} is declared legal for i16 (from "
                                  "version {1}), but no kernel computes {0} "
                                  "on i16 (defs/kernels.td), so no layer "
                                  "placed by it could run; declare the types "
                                  "a kernel computes",
                                  Op->name(), L.Since));
        continue;
      }
      if (!Missing.count(Op->name()))
        Order.push_back(Op->name());
      Missing[Op->name()].insert(T);
    }
  }
  if (!Warnings || Order.empty())
    return;
  std::vector<std::string> Items;
  for (const std::string &Op : Order)
    Items.push_back(Op + " (" +
                    llvm::join(Missing[Op].begin(), Missing[Op].end(), ", ") +
                    ")");
  *Warnings << D.Name << ": warning: " << Order.size()
            << " operators are declared for element types no kernel computes "
               "(defs/kernels.td), so models using them there fail to "
               "compile: "
            << llvm::join(Items, "; ") << "\n";
}

} // namespace gen
} // namespace accelgen
