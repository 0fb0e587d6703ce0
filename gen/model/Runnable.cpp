//===- Runnable.cpp - What a target declares must run --------------------===//
//
// See Runnable.h. A declaration's types are those of the operator's input 0
// (as the legality checks read them), and a kernel function's element type
// is its input's; byte-moving kernels have none and take every type. An
// operator whose operand 0 is not its input (TRANSPOSE_CONV's output shape,
// SPLIT's axis, SELECT_V2's condition) declares that operand's type, which
// says nothing of its kernels' types (its parameter builder checks them):
// it is refused only when no kernel runs it at all. An operator a mapping
// creates runs on its source operator's kernels.
//
//===----------------------------------------------------------------------===//
#include "model/Runnable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

namespace accelgen {
namespace gen {

void checkDeclaredRunnable(const TargetDecl &D, const TargetModel &M,
                           const KernelLibraryModel &K, Diagnostics &Diags) {
  // A target without a backend only explains: nothing it places runs.
  if (D.Backend.empty())
    return;
  // The element types each operator (record key) has a kernel for; "" for
  // a kernel of any type.
  std::map<std::string, std::set<std::string>> Computed;
  // A program operator has one result and no working memory of its own: on
  // the functional model, families whose calls write several results or
  // take scratch memory run nothing (TFLite_Detection_PostProcess's).
  const bool OnFunctionalModel =
      llvm::any_of(D.KnownBackends, [&](const auto &B) {
        return B.first == D.Backend && B.second;
      });
  // (The target's own families run there too: the emitted functional model
  // includes their rows, Kernels.inc's.)
  std::set<std::string> NotOnFunctionalModel;
  for (const auto &F : K.Families) {
    const bool Runs = !OnFunctionalModel ||
                      llvm::none_of(F->Args, [](const KernelArgDef &A) {
                        return A.Kind == "result" || A.Kind == "scratch";
                      });
    for (const auto &[Op, Fn] : F->Rows) {
      if (Runs)
        Computed[Op].insert(Fn->Type);
      else
        NotOnFunctionalModel.insert(Op);
    }
  }
  // An operator a mapping creates runs on the kernels of the operator it
  // was created from (the functional model runs the source graph's
  // operators); that operator's own declaration is checked for its types.
  std::map<std::string, std::vector<std::string>> MappedFrom;
  for (const MappingDecl &Map : D.Mappings)
    MappedFrom[Map.To].push_back(Map.From);
  auto Runs = [&](const std::string &Key) {
    if (Computed.count(Key))
      return true;
    auto It = MappedFrom.find(Key);
    return It != MappedFrom.end() &&
           llvm::all_of(It->second, [&](const std::string &From) {
             return Computed.count(From) != 0;
           });
  };
  for (const LegalDecl &L : D.Legals) {
    const OpDef *Op = L.Removed ? nullptr : M.findOp(L.Op);
    if (!Op)
      continue;
    // The generated code runs these itself, on the host CPU: a target with
    // a CPU fallback hands them to it.
    if (Op->Decl.RunByHost) {
      if (!D.CpuFallback.empty())
        Diags.error(L.At,
                    llvm::formatv("{0} is declared legal (from version {1}), "
                                  "but the generated code runs {0} itself on "
                                  "the host CPU; only a target that runs "
                                  "every operator there (CpuFallback = \"\") "
                                  "declares it, and its CPU fallback ('{2}') "
                                  "takes it from this one",
                                  Op->name(), L.Since, D.CpuFallback));
      continue;
    }
    if (!Runs(Op->Decl.Key) && NotOnFunctionalModel.count(Op->Decl.Key)) {
      Diags.error(L.At,
                  llvm::formatv("{0} is declared legal (from version {1}), "
                                "but its kernel writes several results or "
                                "needs working memory, which the functional "
                                "model's programs do not give a kernel, so "
                                "no layer placed by it could run; leave it "
                                "to the CPU fallback",
                                Op->name(), L.Since));
      continue;
    }
    if (!Runs(Op->Decl.Key)) {
      Diags.error(L.At,
                  llvm::formatv("{0} is declared legal (from version {1}), "
                                "but no kernel runs {0} (defs/kernels.td or "
                                "the target's own families), so "
                                "no layer placed by it could run; declare "
                                "only operators a kernel runs",
                                Op->name(), L.Since));
      continue;
    }
    if (MappedFrom.count(Op->Decl.Key) || Op->Decl.Operands.empty() ||
        Op->Decl.Operands.front().Name != "input")
      continue;
    const std::set<std::string> &Have = Computed[Op->Decl.Key];
    if (Have.count(""))
      continue;
    for (const std::string &T : L.Types)
      if (!Have.count(T))
        Diags.error(L.At,
                    llvm::formatv("{0} is declared legal for {1} (from "
                                  "version {2}), but no kernel computes {0} "
                                  "on {1} (defs/kernels.td or the target's "
                                  "own families), so no layer "
                                  "placed by it could run; declare the types "
                                  "a kernel computes",
                                  Op->name(), T, L.Since));
  }
}

} // namespace gen
} // namespace accelgen
