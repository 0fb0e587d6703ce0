//===- Backend.cpp - The backend interface's defaults and its registry ----===//
#include "driver/Backend.h"
#include "driver/Compilation.h"
#include "driver/HostRun.h"
#include "emit/CascadeEmitter.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <mutex>

using namespace llvm;

namespace accelgen {
namespace driver {

Backend::~Backend() = default;

Expected<bool> Backend::selectCpu(StringRef, Compilation &) const {
  return false;
}

void Backend::prepareCpuKernels(Compilation &) const {}

Expected<plan::CascadePlan> Backend::memoryPlan(Compilation &C) const {
  Expected<plan::CascadeOptions> O = cascadeOptions(C);
  if (!O)
    return O.takeError();
  return plan::planCascades(C.graph(), *O);
}

Expected<plan::CascadeOptions> Backend::cascadeOptions(Compilation &C) const {
  return emit::hostCascading(C.options().Cascading);
}

Error Backend::addToHostBuild(const Compilation &C, const RunOptions &R,
                              HostBuild &B) const {
  if (const Backend *F = C.target().FallbackBackend)
    return F->addToHostBuild(C, R, B);
  return Error::success();
}

Expected<std::vector<emit::EmittedFile>>
Backend::run(const Compilation &C, const RunOptions &R) const {
  return runOnHost(C, R);
}

std::string Backend::ranOn(const Compilation &) const { return ""; }

std::optional<target::Rejection>
Backend::reviewPlacement(const Compilation &, const ir::Graph &,
                         size_t) const {
  return std::nullopt;
}

bool Backend::allowsOperation(const Compilation &, llvm::StringRef) const {
  return true;
}

namespace {

std::map<std::string, std::unique_ptr<Backend>, std::less<>> &registry() {
  static std::map<std::string, std::unique_ptr<Backend>, std::less<>> R;
  return R;
}

} // namespace

bool BackendRegistry::add(std::unique_ptr<Backend> B) {
  std::string Name = B->name().str();
  return registry().emplace(std::move(Name), std::move(B)).second;
}

const Backend *BackendRegistry::get(StringRef Name) {
  auto It = registry().find(Name);
  return It == registry().end() ? nullptr : It->second.get();
}

std::vector<std::string> BackendRegistry::names() {
  std::vector<std::string> Names;
  for (const auto &[Name, B] : registry())
    Names.push_back(Name);
  return Names;
}

} // namespace driver
} // namespace accelgen
