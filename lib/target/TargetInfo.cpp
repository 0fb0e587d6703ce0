//===- TargetInfo.cpp - Target tables and the registry of targets ---------===//
//
// A TargetInfo owns one target's converters and points at its pattern table.
// The TargetRegistry maps target names to factories; a target is built the
// first time it is asked for and lives until the program ends. Labels such as
// "demo2.0" are split into a registered name and one of its versions; a label
// that names no registered target, or a version the target does not have,
// resolves to nothing, and the caller reports it (labels() lists what exists).
//
//===----------------------------------------------------------------------===//
#include "target/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <mutex>

namespace accelgen {
namespace target {

OpSetup::~OpSetup() = default;

ir::Operator OpSetup::CreateOperation(const ir::Graph &G,
                                      const ir::Operator &Op,
                                      unsigned Version) const {
  std::vector<ir::Operator> Candidates = CandidateOperations(G, Op, Version);
  return Candidates.empty() ? Op : std::move(Candidates.front());
}

OperationChoice TargetInfo::chooseOperation(
    const ir::Graph &G, const ir::Operator &Op, unsigned Version,
    llvm::function_ref<bool(llvm::StringRef)> Allowed) const {
  OperationChoice C;
  C.Chosen = Op;
  const OpSetup *Setup = opSetup(Op.Type);
  if (!Setup)
    return C;
  // One candidate per target operator: a later mapping to the same one (an
  // older version's, of lower benefit) adds nothing to choose from.
  std::vector<ir::Operator> Ops;
  for (ir::Operator &Candidate : Setup->CandidateOperations(G, Op, Version))
    if ((!Allowed || Allowed(Candidate.Type)) &&
        llvm::none_of(Ops, [&](const ir::Operator &O) {
          return O.Type == Candidate.Type;
        }))
      Ops.push_back(std::move(Candidate));
  if (Ops.empty())
    return C;
  size_t Best = 0;
  bool EveryCost = true;
  for (size_t I = 0; I < Ops.size(); ++I) {
    std::optional<double> Cycles = estimateCycles(G, Ops[I], Version);
    C.Candidates.push_back({Ops[I].Type, Cycles});
    EveryCost = EveryCost && Cycles.has_value();
  }
  if (EveryCost && Ops.size() > 1) {
    C.ByCost = true;
    // The cheapest; of equal estimates, the mapping of higher benefit.
    for (size_t I = 1; I < Ops.size(); ++I)
      if (*C.Candidates[I].Cycles < *C.Candidates[Best].Cycles)
        Best = I;
  }
  C.Chosen = std::move(Ops[Best]);
  C.Index = Best;
  return C;
}

std::optional<unsigned> TargetInfo::findVersion(llvm::StringRef Label) const {
  // "demo2.0" and "2.0" both name version "2.0"; the version text itself must
  // match exactly, so "demo2" is not "demo2.0".
  llvm::StringRef Version = Label;
  if (Version.startswith(Name) && Version.size() > Name.size())
    Version = Version.drop_front(Name.size());
  for (unsigned V = 0; V < Versions.size(); ++V)
    if (Versions[V] == Version)
      return V;
  return std::nullopt;
}

void TargetInfo::addOpSetup(std::unique_ptr<OpSetup> Setup) {
  std::string Op = Setup->opName().str();
  if (Setups.count(Op))
    llvm::report_fatal_error("target '" + llvm::Twine(Name) +
                             "' registers operator '" + Op + "' twice");
  Setups.emplace(std::move(Op), std::move(Setup));
}

const OpSetup *TargetInfo::opSetup(llvm::StringRef OpName) const {
  auto It = Setups.find(OpName);
  return It == Setups.end() ? nullptr : It->second.get();
}

std::vector<std::string> TargetInfo::opNames() const {
  std::vector<std::string> Names;
  for (const auto &Entry : Setups)
    Names.push_back(Entry.first);
  return Names;
}

namespace {

struct RegistryEntry {
  TargetRegistry::Factory Make;
  /// The plugin module's path; empty for a built-in target.
  std::string Origin;
  /// Built on first use, so that registration from static initializers does
  /// not depend on the order in which they run.
  std::unique_ptr<TargetInfo> Built;
};

struct Registry {
  /// Recursive, so that a factory may look up another target.
  std::recursive_mutex Lock;
  std::map<std::string, RegistryEntry, std::less<>> Entries;
};

Registry &registry() {
  static Registry R;
  return R;
}

/// The target of \p Entry, built if needed; the caller holds the lock.
const TargetInfo *build(llvm::StringRef Name, RegistryEntry &Entry) {
  if (!Entry.Built) {
    Entry.Built = Entry.Make();
    if (!Entry.Built || Entry.Built->name() != Name)
      llvm::report_fatal_error("the factory of target '" + llvm::Twine(Name) +
                               "' does not build a target of that name");
  }
  return Entry.Built.get();
}

} // namespace

void TargetRegistry::add(llvm::StringRef Name, Factory Make,
                         llvm::StringRef Origin) {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  if (!R.Entries.emplace(Name.str(), RegistryEntry{Make, Origin.str(), nullptr})
           .second)
    llvm::report_fatal_error("target '" + llvm::Twine(Name) +
                             "' is registered twice");
}

bool TargetRegistry::contains(llvm::StringRef Name) {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  return R.Entries.count(Name) != 0;
}

std::string TargetRegistry::origin(llvm::StringRef Name) {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  auto It = R.Entries.find(Name);
  return It == R.Entries.end() ? std::string() : It->second.Origin;
}

const TargetInfo *TargetRegistry::get(llvm::StringRef Name) {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  auto It = R.Entries.find(Name);
  return It == R.Entries.end() ? nullptr : build(Name, It->second);
}

std::unique_ptr<TargetInfo> TargetRegistry::create(llvm::StringRef Name) {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  auto It = R.Entries.find(Name);
  return It == R.Entries.end() ? nullptr : It->second.Make();
}

std::optional<std::pair<const TargetInfo *, unsigned>>
TargetRegistry::resolve(llvm::StringRef Label) {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  // Try the longest registered name first, so that "demo-lite2.0" resolves to
  // a target "demo-lite" even when "demo" is registered too.
  std::optional<std::pair<const TargetInfo *, unsigned>> Found;
  size_t FoundLength = 0;
  for (auto &[Name, Entry] : R.Entries) {
    if (!Label.startswith(Name) || (Found && Name.size() <= FoundLength))
      continue;
    const TargetInfo *T = build(Name, Entry);
    llvm::StringRef Version = Label.drop_front(Name.size());
    if (Version.empty()) {
      if (T->versions().empty())
        continue;
      Found = {T, static_cast<unsigned>(T->versions().size() - 1)};
    } else if (std::optional<unsigned> V = T->findVersion(Version)) {
      Found = {T, *V};
    } else {
      continue;
    }
    FoundLength = Name.size();
  }
  return Found;
}

std::vector<std::string> TargetRegistry::names() {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  std::vector<std::string> Names;
  for (const auto &Entry : R.Entries)
    Names.push_back(Entry.first);
  return Names;
}

std::vector<std::string> TargetRegistry::labels() {
  Registry &R = registry();
  std::lock_guard<std::recursive_mutex> Guard(R.Lock);
  std::vector<std::string> Labels;
  for (auto &[Name, Entry] : R.Entries) {
    const TargetInfo *T = build(Name, Entry);
    for (unsigned V = 0; V < T->versions().size(); ++V)
      Labels.push_back(T->versionLabel(V));
  }
  return Labels;
}

} // namespace target
} // namespace accelgen
