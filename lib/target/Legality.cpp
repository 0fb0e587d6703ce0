//===- Legality.cpp - Evaluating generated legality tables -----------------===//
#include "target/Legality.h"

#include "llvm/Support/FormatVariadic.h"

namespace accelgen {
namespace target {

std::string weightScheme(const ir::Tensor &T) {
  if (!T.Quant)
    return "none";
  bool Symmetric = true;
  for (int64_t Z : T.Quant->ZeroPoints)
    Symmetric = Symmetric && Z == 0;
  return std::string(Symmetric ? "symmetric" : "asymmetric") +
         (T.Quant->isPerChannel() ? "_per_channel" : "_per_tensor");
}

namespace {
std::string joinList(const char *const *Items, unsigned N) {
  std::string S;
  for (unsigned I = 0; I < N; ++I)
    S += (I ? ", " : "") + std::string(Items[I]);
  return S;
}

bool contains(const char *const *Items, unsigned N, llvm::StringRef S) {
  for (unsigned I = 0; I < N; ++I)
    if (S == Items[I])
      return true;
  return false;
}
} // namespace

bool evaluateLegality(const ir::Graph &G, const ir::Operator &Op,
                      const OpLegalityTable &Table, unsigned Version,
                      const std::string &VersionLabel,
                      std::vector<Rejection> &Why) {
  const LegalityAt *L =
      Version < Table.NumVersions ? Table.PerVersion[Version] : nullptr;
  if (!L) {
    Why.push_back({"not_available",
                   llvm::formatv("{0} is not available on {1}", Table.Op,
                                 VersionLabel),
                   Version < Table.NumVersions
                       ? Table.UnavailableHints[Version]
                       : ""});
    return false;
  }
  size_t Before = Why.size();
  int32_t In = Op.input(0);
  if (G.isValidTensor(In)) {
    llvm::StringRef Type = ir::dtypeName(G.tensor(In).Type);
    if (!contains(L->Types, L->NumTypes, Type))
      Why.push_back({"dtype",
                     llvm::formatv("input(0).dtype = {0}, must be one of {{{1}}",
                                   Type, joinList(L->Types, L->NumTypes)),
                     L->TypeHint});
  }
  int32_t W = Op.input(1);
  if (L->NumWeightSchemes && G.isValidTensor(W)) {
    std::string Scheme = weightScheme(G.tensor(W));
    if (!contains(L->WeightSchemes, L->NumWeightSchemes, Scheme))
      Why.push_back(
          {"weight_scheme",
           llvm::formatv("weights are {0}, must be one of {{{1}}", Scheme,
                         joinList(L->WeightSchemes, L->NumWeightSchemes)),
           ""});
  }
  for (unsigned I = 0; I < L->NumConstraints; ++I) {
    const ConstraintEntry &C = L->Constraints[I];
    std::string Message;
    if (!C.Check(G, Op, Message))
      Why.push_back({C.Id, Message, C.Hint});
  }
  return Why.size() == Before;
}

} // namespace target
} // namespace accelgen
