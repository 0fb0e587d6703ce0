//===- DeviceModel.cpp - Validating a description's device semantics ------===//
//
// The part of the model that says how the accelerator computes and stores
// differently from the CPU: its layouts, the layouts each operator computes
// in, the types it stores converted, which intermediate results stay in the
// device. Every rule is resolved per version here, by the language's
// convention (a rule holds from its version until a later one for the same
// operators, or the same type and scheme, replaces it; a rule naming an
// operator wins over the rules for every operator), so the emitter writes
// plain tables.
//
//===----------------------------------------------------------------------===//
#include "model/TargetModel.h"

#include "ir/DType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <set>

namespace accelgen {
namespace gen {

namespace {

/// The layouts accelerator programs record (lib/program/accel_program.fbs).
const char *const ProgramLayouts[] = {"NHWC", "4C", "16C"};
const char *const Residencies[] = {"fused_intermediates", "none"};

/// The names in \p List, separated by ", ".
template <size_t N> std::string listOf(const char *const (&List)[N]) {
  std::string S;
  for (const char *E : List)
    S += (S.empty() ? "" : ", ") + std::string(E);
  return S;
}

/// The rules of one kind that name operators (or every operator), by key
/// (null: every operator), each by version.
template <typename DeclT> struct ByOperators {
  std::map<const OpDef *, std::map<unsigned, const DeclT *>> Rules;

  /// The rule in force for \p Key at version \p V, or null.
  const DeclT *at(const OpDef *Key, unsigned V) const {
    auto It = Rules.find(Key);
    if (It == Rules.end())
      return nullptr;
    const DeclT *Found = nullptr;
    for (const auto &[Since, D] : It->second)
      if (Since <= V)
        Found = D;
    return Found;
  }
};

class DeviceBuilder {
public:
  using VersionFn =
      std::function<std::optional<unsigned>(const std::string &, const Loc &)>;
  using OpFn = std::function<const OpDef *(const std::string &, const Loc &)>;

  DeviceBuilder(const TargetDecl &D, TargetModel &M, Diagnostics &Diags,
                const VersionFn &Version, const OpFn &Op)
      : D(D), M(M), Diags(Diags), Version(Version), Op(Op) {}

  void run() {
    buildLayouts();
    ByOperators<DeviceLayoutDecl> Layouts =
        group(D.DeviceLayouts, "a device layout rule");
    ByOperators<DeviceResidencyDecl> Residency =
        group(D.DeviceResidency, "a device residency rule");
    for (const DeviceLayoutDecl &L : D.DeviceLayouts)
      checkLayoutRule(L);
    for (const DeviceResidencyDecl &R : D.DeviceResidency)
      if (!llvm::is_contained(Residencies, R.Keeps))
        Diags.error(R.At, llvm::formatv("unknown residency '{0}' "
                                        "(residencies: {1})",
                                        R.Keeps, listOf(Residencies)));
    std::map<std::pair<std::string, std::string>,
             std::map<unsigned, const DeviceStorageDecl *>>
        Storage = groupStorage();

    std::set<const OpDef *> Named;
    for (const auto &[Key, Rules] : Layouts.Rules)
      Named.insert(Key);
    for (const auto &[Key, Rules] : Residency.Rules)
      Named.insert(Key);
    Named.erase(nullptr);
    std::vector<const OpDef *> Sorted(Named.begin(), Named.end());
    llvm::sort(Sorted, [](const OpDef *A, const OpDef *B) {
      return A->name() < B->name();
    });

    M.Device.resize(M.Versions.size());
    for (unsigned V = 0; V < M.Versions.size(); ++V) {
      DeviceAt &At = M.Device[V];
      At.Layouts = layoutSet(Layouts.at(nullptr, V));
      At.KeepsFused = keepsFused(Residency.at(nullptr, V));
      for (const OpDef *O : Sorted) {
        DeviceAt::OpRule R;
        R.Op = O;
        const DeviceLayoutDecl *L = Layouts.at(O, V);
        R.Layouts = L ? layoutSet(L) : At.Layouts;
        const DeviceResidencyDecl *K = Residency.at(O, V);
        R.KeepsFused = K ? keepsFused(K) : At.KeepsFused;
        At.Ops.push_back(std::move(R));
      }
      for (const auto &[Key, Steps] : Storage) {
        const DeviceStorageDecl *Found = nullptr;
        for (const auto &[Since, S] : Steps)
          if (Since <= V)
            Found = S;
        if (Found && Found->StoredAs != Found->Type)
          At.Conversions.push_back(
              {Found->Type, Found->Scheme, Found->StoredAs});
      }
    }
  }

private:
  const TargetDecl &D;
  TargetModel &M;
  Diagnostics &Diags;
  const VersionFn &Version;
  const OpFn &Op;
  /// Layout keys to their index in M.Layouts.
  std::map<std::string, unsigned> LayoutIndex;

  void buildLayouts() {
    std::map<std::string, const LayoutDecl *> ByName;
    for (const LayoutDecl &L : D.Layouts) {
      if (!llvm::is_contained(ProgramLayouts, L.Name)) {
        Diags.error(L.At, llvm::formatv("layout '{0}' is named '{1}'; "
                                        "accelerator programs record the "
                                        "layouts {2}",
                                        L.Key, L.Name, listOf(ProgramLayouts)));
        continue;
      }
      if (L.MaxChannels < 0 || L.ChannelPixels < 0 || L.ChannelBytes < 0) {
        Diags.error(L.At, llvm::formatv("layout '{0}': the channel limit and "
                                        "paddings must not be negative",
                                        L.Key));
        continue;
      }
      auto [It, New] = ByName.insert({L.Name, &L});
      if (!New) {
        Diags.error(L.At, llvm::formatv("layout '{0}' has the name '{1}' of "
                                        "layout '{2}' (at {3})",
                                        L.Key, L.Name, It->second->Key,
                                        formatLoc(It->second->At)));
        continue;
      }
      LayoutIndex[L.Key] = static_cast<unsigned>(M.Layouts.size());
      M.Layouts.push_back(
          {L.Key, L.Name, L.MaxChannels, L.ChannelPixels, L.ChannelBytes});
    }
  }

  /// The layout indices of \p L, ascending (none for no rule).
  std::vector<unsigned> layoutSet(const DeviceLayoutDecl *L) {
    std::vector<unsigned> Out;
    if (!L)
      return Out;
    for (const std::string &Key : L->Layouts) {
      auto It = LayoutIndex.find(Key);
      if (It != LayoutIndex.end() && !llvm::is_contained(Out, It->second))
        Out.push_back(It->second);
    }
    llvm::sort(Out);
    return Out;
  }
  void checkLayoutRule(const DeviceLayoutDecl &L) {
    if (L.Layouts.empty())
      Diags.error(L.At, "a device layout rule lists no layout");
    std::set<std::string> Seen;
    for (const std::string &Key : L.Layouts) {
      if (!Seen.insert(Key).second)
        Diags.error(L.At, llvm::formatv("layout '{0}' is listed twice in a "
                                        "device layout rule",
                                        Key));
      else if (!LayoutIndex.count(Key) &&
               !llvm::any_of(D.Layouts, [&](const LayoutDecl &Decl) {
                 return Decl.Key == Key; // Reported with its definition.
               }))
        Diags.error(L.At, llvm::formatv("unknown layout '{0}'", Key));
    }
  }

  static bool keepsFused(const DeviceResidencyDecl *R) {
    return R && R->Keeps == "fused_intermediates";
  }

  /// Whether \p O is legal at some version.
  bool everLegal(const OpDef *O) const {
    return llvm::any_of(M.Legality, [&](const OpLegality &L) {
      return L.Op == O && L.firstVersion();
    });
  }

  /// Groups rules naming operators by operator and version; \p What is
  /// "a device layout rule".
  template <typename DeclT>
  ByOperators<DeclT> group(const std::vector<DeclT> &Decls,
                           llvm::StringRef What) {
    ByOperators<DeclT> Out;
    for (const DeclT &R : Decls) {
      std::optional<unsigned> V = Version(R.Since, R.At);
      std::vector<const OpDef *> Keys;
      if (R.Ops.empty())
        Keys.push_back(nullptr);
      for (const std::string &Name : R.Ops) {
        const OpDef *O = Op(Name, R.At);
        if (!O)
          continue;
        if (!everLegal(O)) {
          Diags.error(R.At, llvm::formatv("operator '{0}' has {1} but is "
                                          "legal at no version of target "
                                          "'{2}'",
                                          O->Decl.Key, What, M.Name));
          continue;
        }
        Keys.push_back(O);
      }
      if (!V)
        continue;
      for (const OpDef *Key : Keys) {
        auto [It, New] = Out.Rules[Key].insert({*V, &R});
        if (!New)
          Diags.error(R.At,
                      llvm::formatv("{0} already has {1} for version {2} "
                                    "(at {3})",
                                    Key ? "operator '" + Key->Decl.Key + "'"
                                        : std::string("every operator"),
                                    What, R.Since, formatLoc(It->second->At)));
      }
    }
    return Out;
  }

  std::map<std::pair<std::string, std::string>,
           std::map<unsigned, const DeviceStorageDecl *>>
  groupStorage() {
    std::map<std::pair<std::string, std::string>,
             std::map<unsigned, const DeviceStorageDecl *>>
        Out;
    for (const DeviceStorageDecl &S : D.DeviceStorage) {
      bool Ok = true;
      for (const std::string *T : {&S.Type, &S.StoredAs})
        if (!ir::parseDType(*T)) {
          Diags.error(S.At, llvm::formatv("unknown data type '{0}'", *T));
          Ok = false;
        }
      if (!llvm::is_contained(QuantSchemeNames, S.Scheme)) {
        Diags.error(S.At, llvm::formatv("unknown quantization scheme '{0}' "
                                        "(schemes: {1})",
                                        S.Scheme, listOf(QuantSchemeNames)));
        Ok = false;
      }
      if (Ok && S.StoredAs != S.Type &&
          !(S.Type == "i8" && S.StoredAs == "u8")) {
        Diags.error(S.At, llvm::formatv("activations of type '{0}' cannot be "
                                        "stored as '{1}': the one conversion "
                                        "accelerator programs make is i8 "
                                        "stored as u8 (q + 128, zero point + "
                                        "128)",
                                        S.Type, S.StoredAs));
        Ok = false;
      }
      std::optional<unsigned> V = Version(S.Since, S.At);
      if (!Ok || !V)
        continue;
      auto [It, New] = Out[{S.Type, S.Scheme}].insert({*V, &S});
      if (!New)
        Diags.error(S.At, llvm::formatv("activations of type '{0}' quantized "
                                        "{1} already have a storage rule for "
                                        "version {2} (at {3})",
                                        S.Type, S.Scheme, S.Since,
                                        formatLoc(It->second->At)));
    }
    return Out;
  }
};

} // namespace

void buildDeviceModel(
    const TargetDecl &D, TargetModel &M, Diagnostics &Diags,
    const std::function<std::optional<unsigned>(const std::string &,
                                                const Loc &)> &Version,
    const std::function<const OpDef *(const std::string &, const Loc &)> &Op) {
  DeviceBuilder(D, M, Diags, Version, Op).run();
}

} // namespace gen
} // namespace accelgen
