//===- Compilation.cpp - One model through the pipeline for one target ----===//
#include "driver/Compilation.h"
#include "emit/CascadeEmitter.h"

#include "import/ModelFile.h"
#include "kernels/KernelParams.h"
#include "support/InputFile.h"
#include "target/BuiltinTargets.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace accelgen {
namespace driver {

namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

} // namespace

std::string RunOptions::value(StringRef Name, StringRef Default) const {
  auto It = Values.find(Name.str());
  return It == Values.end() ? Default.str() : It->second;
}

std::vector<std::string> targetLabels() {
  target::registerBuiltinTargets();
  return target::TargetRegistry::labels();
}

Expected<ResolvedTarget> resolveTarget(StringRef Label, bool NeedBackend) {
  target::registerBuiltinTargets();
  auto R = target::TargetRegistry::resolve(Label);
  if (!R)
    return makeError(formatv("unknown target '{0}' (targets: {1})", Label,
                             join(targetLabels(), ", ")));
  ResolvedTarget T;
  T.Info = R->first;
  T.Version = R->second;
  T.VersionGiven = Label != T.Info->name();
  const std::string &Named = T.Info->backend();
  T.Backend = Named.empty() ? nullptr : BackendRegistry::get(Named);
  if (NeedBackend && !T.Backend) {
    if (Named.empty())
      return makeError(formatv("'{0}' can only explain: its description "
                               "names no backend that compiles",
                               Label));
    return makeError(formatv("'{0}' can only explain: its description names "
                             "backend '{1}', which this accelgen does not "
                             "have (it has: {2})",
                             Label, Named,
                             join(BackendRegistry::names(), ", ")));
  }
  const std::string &Fallback = T.Info->cpuFallback();
  if (!Fallback.empty()) {
    auto F = target::TargetRegistry::resolve(Fallback);
    if (!F)
      return makeError(formatv("target '{0}' names '{1}' as its CPU "
                               "fallback, which is not a target (targets: "
                               "{2})",
                               T.Info->name(), Fallback,
                               join(targetLabels(), ", ")));
    T.Fallback = F->first;
    T.FallbackVersion = F->second;
    T.FallbackBackend = BackendRegistry::get(F->first->backend());
    if (NeedBackend &&
        (!T.FallbackBackend || !T.FallbackBackend->runsOnHostCpu()))
      return makeError(formatv("target '{0}' names '{1}' as its CPU "
                               "fallback, whose backend does not run on the "
                               "host CPU",
                               T.Info->name(), Fallback));
  }
  return T;
}

Expected<std::unique_ptr<Compilation>> Compilation::create(Options O,
                                                           bool ExplainOnly) {
  Expected<ResolvedTarget> T = resolveTarget(O.Target, !ExplainOnly);
  if (!T)
    return T.takeError();
  if (O.LibraryCallsOnly && T->Info->library().empty())
    return makeError(formatv("--library-calls-only applies to a library-call "
                             "target (cmsis-nn); '{0}' calls no library",
                             O.Target));
  std::unique_ptr<Compilation> C(new Compilation(std::move(O)));
  C->Target = *T;
  if (!C->Opts.Cpu.empty() && !ExplainOnly) {
    Expected<bool> Took = T->Backend->selectCpu(C->Opts.Cpu, *C);
    if (Took && !*Took && T->FallbackBackend)
      Took = T->FallbackBackend->selectCpu(C->Opts.Cpu, *C);
    if (!Took)
      return Took.takeError();
    if (!*Took)
      return makeError(formatv("--cpu does not apply to target '{0}': "
                               "neither its backend ({1}) nor a CPU "
                               "fallback takes one",
                               C->Opts.Target, T->Backend->name()));
  }
  // The label as given ("ref"), unless --cpu chose another version.
  C->Emit.Target =
      C->Target.Version == T->Version ? C->Opts.Target : C->Target.label();
  C->Emit.Name = C->Opts.Name;
  C->Emit.GeneratorVersion = C->Opts.GeneratorVersion;
  C->Emit.Cascading = C->Opts.Cascading;
  return std::move(C);
}

Error Compilation::import(StringRef Path) {
  auto Buf = support::readInputFile(Path, support::MaxModelBytes);
  if (!Buf)
    return Buf.takeError();
  StringRef Data = (*Buf)->getBuffer();
  Bytes.assign(Data.bytes_begin(), Data.bytes_end());
  // A model converted from TensorFlow Lite computes TensorFlow Lite's
  // arithmetic whatever its format says.
  Expected<ImportResult> R = importAnyModel(
      Bytes, Opts.OnnxAsTFLite ? ir::Arithmetic::TFLite : ir::Arithmetic::ONNX);
  if (!R)
    return R.takeError();
  Warnings = std::move(R->Warnings);
  Model = std::move(R->Model);
  if (Model->Graphs.empty())
    return makeError("the model has no graph");
  Emit.ModelFileName = sys::path::filename(Path).str();
  Emit.Model = Model.get();
  return Error::success();
}

partition::PartitionResult Compilation::partition(bool UseCostModel) const {
  partition::PartitionOptions P;
  // A target running everything on the host CPU is its own CPU.
  P.Cpu = Target.Fallback ? Target.Fallback : Target.Info;
  P.UseCostModel = UseCostModel;
  // A target that only explains has no backend to ask.
  if (Target.Backend) {
    P.Review = [this](const ir::Graph &G, size_t Op) {
      return Target.Backend->reviewPlacement(*this, G, Op);
    };
    P.Allowed = [this](StringRef TargetOp) {
      return Target.Backend->allowsOperation(*this, TargetOp);
    };
  }
  // Every CPU-side operator runs on a kernel of the reference families
  // (target cpu's specialised kernels take the same parameters): what their
  // builder refuses, compile refuses.
  P.CpuKernel = [](const ir::Graph &G,
                   size_t Op) -> std::optional<target::Rejection> {
    const ir::Operator &O = G.Operators[Op];
    // The generated code runs control flow and variables itself.
    if (ir::runByHost(O.code()))
      return std::nullopt;
    Expected<std::vector<kernels::KernelCall>> Calls =
        kernels::computeKernelCalls(G, O);
    if (Calls)
      return std::nullopt;
    return target::Rejection{
        "cpu_kernel",
        "no CPU kernel runs it: " +
            kernels::kernelCallReason(toString(Calls.takeError()), O.Type),
        ""};
  };
  return partition::partition(graph(), *Target.Info, Target.Version, P);
}

void Compilation::setOffload(std::shared_ptr<const emit::Offload> O,
                             const ir::Graph *Graph,
                             std::shared_ptr<const void> Keep) {
  Offload = std::move(O);
  Emit.Accelerator = Offload.get();
  EmitGraph = Graph;
  Owner = std::move(Keep);
}

Error Compilation::compile() {
  if (Error E = Target.Backend->prepare(*this))
    return E;
  Expected<emit::EmittedModel> E = emit::emitModel(emittedGraph(), Emit);
  if (!E)
    return E.takeError();
  Emitted = std::move(*E);
  if (uint64_t(Emitted.Plan.ArenaBytes) > MaxArenaBytes)
    return makeError(formatv("the model needs a working-memory arena of {0} "
                             "bytes, more than the limit of {1} "
                             "(docs/compile.md)",
                             Emitted.Plan.ArenaBytes,
                             support::formatBytes(MaxArenaBytes)));
  return Error::success();
}

Expected<plan::CascadePlan> Compilation::memoryPlan() {
  if (Target.Backend)
    return Target.Backend->memoryPlan(*this);
  return plan::planCascades(graph(), emit::hostCascading(Opts.Cascading));
}

Expected<emit::EmittedFile> Compilation::hostMain() const {
  return emit::emitHostMain(graph(), Emit);
}

Expected<std::vector<emit::EmittedFile>>
Compilation::run(const RunOptions &R) const {
  // A backend's own option means nothing to another: given for a target
  // whose backend (and CPU fallback's) does not read it, it is a mistake.
  for (const auto &[Name, Value] : R.Values) {
    auto Reads = [&, &Name = Name](const Backend *B) {
      return B && llvm::any_of(B->runOptions(), [&](const BackendOption &O) {
               return O.Name == Name;
             });
    };
    if (!Reads(Target.Backend) && !Reads(Target.FallbackBackend))
      return makeError(formatv("--{0} does not apply to target '{1}': "
                               "neither its backend ({2}) nor a CPU "
                               "fallback reads it",
                               Name, Opts.Target, Target.Backend->name()));
  }
  return Target.Backend->run(*this, R);
}

} // namespace driver
} // namespace accelgen
