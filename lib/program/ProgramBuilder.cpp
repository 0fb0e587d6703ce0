//===- ProgramBuilder.cpp - A partitioned model as an accelerator program -===//
//
// The steps: the execution order (the partitioned graph's operators, each
// replaced by the input operators it stands for), its memory plan, then one
// program subgraph per accelerator subgraph: its tensors in the order the
// layers first use them, what the device stores differently (converted
// types, the scratch copies of converted inputs, layouts), the layers with
// their kernel calls, and the scratch memory the functional model will need
// for them, computed the way it allocates it.
//
//===----------------------------------------------------------------------===//
#include "program/ProgramBuilder.h"

#include "ir/Verifier.h"
#include "kernels/KernelParams.h"
#include "program/DeviceRules.h"

#include "accel_functional.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

namespace accelgen {
namespace program {

namespace {

llvm::Error failure(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

int64_t align16(int64_t V) { return (V + 15) / 16 * 16; }

/// The bytes of \p T with its last dimension rounded up to \p Align.
int64_t paddedBytes(const Tensor &T, int32_t Align) {
  if (T.Shape.empty() || Align <= 0)
    return T.Bytes;
  int64_t Last = T.Shape.back();
  if (Last == 0)
    return 0;
  int64_t Padded = (Last + Align - 1) / Align * Align;
  return T.Bytes / Last * Padded;
}

/// Builds the program subgraphs of one accelerated model.
class Builder {
public:
  Builder(AcceleratedModel &M, const ir::Graph &Input,
          const target::TargetInfo &T, unsigned Version,
          const plan::CascadeOptions &Cascading)
      : M(M), Input(Input), T(T), Version(Version), Cascading(Cascading),
        Rules(T.deviceRules(Version)) {}

  llvm::Error run(llvm::StringRef Generator);

private:
  llvm::Error executionOrder();
  llvm::Error planMemory();
  std::optional<std::string> whyNotStriped(size_t Pos) const;
  int32_t cascadeAt(size_t Pos) const;
  llvm::Error buildSubgraph(size_t Index, llvm::ArrayRef<size_t> Ops);
  int32_t local(Subgraph &S, int32_t GraphTensor);
  void assignMemory(Subgraph &S, const std::set<int32_t> &Written);
  int64_t scratchFor(const Subgraph &S, const plan::Cascade *C,
                     size_t First) const;

  AcceleratedModel &M;
  const ir::Graph &Input;
  const target::TargetInfo &T;
  unsigned Version;
  const plan::CascadeOptions &Cascading;
  /// Where each operator of the partitioned graph starts in the execution
  /// order; one past the end last.
  std::vector<size_t> Start;
  target::DeviceRules Rules;
  std::vector<std::string> Known = functionalModelKernels();
  /// Graph tensor to its index in the current subgraph's tensors.
  std::map<int32_t, int32_t> Local;
  /// Graph tensor to its program buffer.
  std::map<int32_t, int32_t> BufferOf;
};

llvm::Error Builder::executionOrder() {
  const partition::PartitionResult &R = M.Partition;
  std::vector<bool> Seen(Input.Operators.size(), false);
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    const partition::PlacedOp &P = R.Ops[I];
    if (P.Sources.empty())
      return failure(llvm::formatv(
          "operator {0} ({1}) of the partitioned graph was inserted by {2}'s "
          "quantization rules; it changes the arithmetic, and the functional "
          "model runs the input model's operators only",
          I, P.Type, R.Target));
    for (int64_t S : P.Sources) {
      if (S < 0 || static_cast<size_t>(S) >= Seen.size() || Seen[S])
        return failure(llvm::formatv("operator {0} of the partitioned graph "
                                     "names input operator {1} twice or out "
                                     "of range",
                                     I, S));
      Seen[S] = true;
      M.SourceIndex.push_back(S);
    }
  }
  if (M.SourceIndex.size() != Input.Operators.size())
    return failure("the partitioned graph does not stand for every operator "
                   "of the input graph");

  M.Graph = Input;
  M.Graph.Operators.clear();
  for (int64_t S : M.SourceIndex)
    M.Graph.Operators.push_back(Input.Operators[S]);

  // Every operator must come after the producers of what it reads.
  std::set<int32_t> Produced, Written;
  for (const ir::Operator &Op : Input.Operators)
    Produced.insert(Op.Outputs.begin(), Op.Outputs.end());
  for (size_t I = 0; I < M.Graph.Operators.size(); ++I) {
    const ir::Operator &Op = M.Graph.Operators[I];
    for (int32_t In : Op.Inputs)
      if (In >= 0 && Produced.count(In) && !Written.count(In))
        return failure(llvm::formatv("input operator {0} ({1}) would run "
                                     "before the operator writing tensor {2}",
                                     M.SourceIndex[I], Op.Type, In));
    Written.insert(Op.Outputs.begin(), Op.Outputs.end());
  }
  return llvm::Error::success();
}

int32_t Builder::local(Subgraph &S, int32_t Id) {
  if (Id < 0)
    return -1;
  auto [It, New] =
      Local.try_emplace(Id, static_cast<int32_t>(S.Tensors.size()));
  if (!New)
    return It->second;
  const ir::Tensor &G = M.Graph.tensor(Id);
  Tensor Ten;
  Ten.Id = Id;
  Ten.Name = G.Name;
  Ten.Type = Ten.DeviceType = G.Type;
  Ten.Shape = G.Shape;
  Ten.Quant = G.Quant;
  Ten.Bytes = G.byteSize();
  if (G.IsConstant) {
    Ten.Where = Memory::Constant;
    auto [B, NewBuffer] =
        BufferOf.try_emplace(Id, static_cast<int32_t>(M.Prog.Buffers.size()));
    if (NewBuffer)
      M.Prog.Buffers.push_back(G.Data);
    Ten.Buffer = B->second;
  } else {
    // Checked by the caller: every non-constant operand has a buffer, or is
    // a graph input read in the caller's buffer.
    if (const plan::Buffer *B = M.Plan.find(Id)) {
      Ten.ArenaOffset = B->Offset;
    } else {
      Ten.ArenaOffset = 0;
      Ten.Input = static_cast<int32_t>(llvm::find(M.Graph.Inputs, Id) -
                                       M.Graph.Inputs.begin());
    }
    // The one conversion programs make (the generator admits no other):
    // int8 stored as uint8, q + 128, zero point + 128.
    Ten.DeviceType = Rules.storedAs(G.Type, G.Quant);
    if (Ten.isConverted()) {
      Ten.DeviceQuant = G.Quant;
      for (int64_t &ZeroPoint : Ten.DeviceQuant->ZeroPoints)
        ZeroPoint += 128;
    }
  }
  S.Tensors.push_back(std::move(Ten));
  return It->second;
}

/// Converted inputs get scratch copies; a view sharing their bytes (the
/// plan's aliases) shares the copy.
void Builder::assignMemory(Subgraph &S, const std::set<int32_t> &Written) {
  int64_t Offset = 0;
  for (int32_t I : S.Inputs) {
    Tensor &Ten = S.Tensors[I];
    if (!Ten.isConverted())
      continue;
    Ten.Where = Memory::Scratch;
    Ten.DeviceOffset = Offset;
    Offset = align16(Offset + Ten.Bytes);
    S.ConvertIn.push_back(I);
  }
  for (Tensor &Ten : S.Tensors) {
    if (Ten.Where == Memory::Constant || !Written.count(Ten.Id))
      continue;
    const plan::Buffer *B = M.Plan.find(Ten.Id);
    if (B->AliasOf < 0)
      continue;
    auto Root = Local.find(B->AliasOf);
    if (Root == Local.end() || S.Tensors[Root->second].Where != Memory::Scratch)
      continue;
    Ten.Where = Memory::Scratch;
    Ten.DeviceOffset = S.Tensors[Root->second].DeviceOffset;
  }
  // Outputs stored converted go back to the model's type, once per buffer.
  std::set<int64_t> Done;
  for (int32_t I : S.Outputs)
    if (S.Tensors[I].isConverted() &&
        Done.insert(S.Tensors[I].ArenaOffset).second)
      S.ConvertOut.push_back(I);
}

/// The scratch memory the functional model takes for \p S: the converted
/// inputs' copies, then per operator its temporaries, allocated as the
/// functional model does (each at the next multiple of 16). In a striped
/// subgraph (\p C's operators, the first at position \p First), the
/// temporaries of its tallest stripes, and none for its inputs and outputs,
/// which stay in the model's format.
int64_t Builder::scratchFor(const Subgraph &S, const plan::Cascade *C,
                            size_t First) const {
  int64_t Base = 0;
  for (const Tensor &Ten : S.Tensors)
    if (Ten.Where == Memory::Scratch)
      Base = std::max(Base, Ten.DeviceOffset + Ten.Bytes);
  int64_t Most = Base;
  size_t Pos = First;
  for (const Layer &L : S.Layers)
    for (const Op &O : L.Ops) {
      int64_t Top = Base;
      auto Alloc = [&](int64_t Bytes) { Top = align16(Top) + Bytes; };
      const size_t OpPos = Pos++;
      if (O.Outputs.empty() || O.Inputs.empty())
        continue;
      // The operand as one stripe of it: the most rows a step reads.
      auto View = [&](int32_t I, bool Window) {
        Tensor Ten = S.Tensors[I];
        if (!C || Ten.Where == Memory::Constant || Ten.Shape.size() != 4 ||
            Ten.Shape[1] <= 0)
          return Ten;
        int32_t Rows = 0;
        for (const std::vector<plan::StripeStep> &Step : C->Steps) {
          const plan::StripeStep &St = Step[OpPos - C->FirstOp];
          Rows = std::max(Rows, Window ? St.In.size() : St.Out.size());
        }
        Ten.Bytes = Ten.Bytes / Ten.Shape[1] * Rows;
        Ten.Shape[1] = Rows;
        if (llvm::is_contained(S.Inputs, I) || llvm::is_contained(S.Outputs, I))
          Ten.DeviceType = Ten.Type;
        return Ten;
      };
      const bool Window = ir::mapsInputRows(M.Graph.Operators[OpPos].code());
      const Tensor Out = View(O.Outputs.front(), false);
      const Tensor In0 = View(O.Inputs.front(), Window);
      const bool Skip =
          kernels::familyOf(O.Params).MayAlias && In0.Where == Out.Where &&
          (In0.Where == Memory::Scratch ? In0.DeviceOffset == Out.DeviceOffset
                                        : In0.ArenaOffset == Out.ArenaOffset);
      if (!Skip)
        for (size_t I = 0; I < O.Inputs.size(); ++I) {
          if (O.Inputs[I] < 0)
            continue;
          const Tensor In = View(O.Inputs[I], Window && I == 0);
          if (I == 0 && O.ChannelAlign)
            Alloc(paddedBytes(In, O.ChannelAlign));
          else if (In.isConverted())
            Alloc(In.Bytes);
        }
      if (O.ChannelAlign && !Skip)
        Alloc(paddedBytes(Out, O.ChannelAlign));
      if (Skip && Out.isConverted())
        Alloc(Out.Bytes);
      Most = std::max(Most, Top);
    }
  return align16(Most);
}

/// True when \p Params computes each channel (the last dimension) on its
/// own, so padding channels changes no result: pools, and MEAN over other
/// axes.
bool channelWise(const kernels::AnyParams &Params, size_t Rank) {
  if (std::holds_alternative<kernels::FamilyParams<ref_pool2d_params>>(Params))
    return Rank == 4;
  if (const auto *P =
          std::get_if<kernels::FamilyParams<ref_mean_params>>(&Params))
    return Rank >= 1 && Rank <= 4 &&
           !((P->Scalars.axis_mask >> (Rank - 1)) & 1u);
  return false;
}

/// Builds the program subgraph of operators \p Ops of partition subgraph
/// \p Index: all of them, or the run of them inside one cascade or between
/// cascades. Each runs on the device in one go (with its switches), or
/// stripe by stripe.
llvm::Error Builder::buildSubgraph(size_t Index, llvm::ArrayRef<size_t> Ops) {
  const partition::PartitionResult &R = M.Partition;
  const partition::Subgraph &PS = R.Subgraphs[Index];
  const size_t First = Start[Ops.front()];
  const size_t Count = Start[Ops.back() + 1] - First;
  M.Regions.push_back({First, Count});
  const int32_t CascadeFirst = cascadeAt(First);
  const plan::Cascade *C =
      CascadeFirst >= 0 ? M.Cascading->cascadeOf(CascadeFirst) : nullptr;
  Subgraph S;
  S.Index = static_cast<int32_t>(Index);
  S.SwitchCycles = PS.SwitchCycles;
  S.Striped = C != nullptr;
  if (Ops.size() == PS.Ops.size())
    S.Cycles = PS.Cycles;
  else
    for (size_t I : Ops)
      S.Cycles += R.Ops[I].Cycles.value_or(0);
  Local.clear();

  std::set<int32_t> Written;
  std::map<int32_t, int32_t> WriterLayer;         // graph tensor -> layer
  std::map<int32_t, std::string> WriterType;      // graph tensor -> op type
  std::map<int32_t, std::set<std::string>> Users; // graph tensor -> op types
  size_t Pos = First;
  for (size_t OpIndex : Ops) {
    const partition::PlacedOp &P = R.Ops[OpIndex];
    Layer L;
    L.Type = P.Type;
    L.SourceType = P.SourceType;
    L.Index = static_cast<int32_t>(OpIndex);
    L.Cycles = P.Cycles;
    for (size_t K = 0; K < P.Sources.size(); ++K, ++Pos) {
      const ir::Operator &Op = M.Graph.Operators[Pos];
      const int64_t Source = M.SourceIndex[Pos];
      auto Unsupported = [&](const llvm::Twine &Why) {
        return failure(llvm::formatv("operator {0} ({1}) cannot run on {2}'s "
                                     "functional model: {3}",
                                     Source, Op.Type, R.Target, Why.str()));
      };
      llvm::Expected<std::vector<kernels::KernelCall>> Calls =
          kernels::computeKernelCalls(M.Graph, Op);
      if (!Calls)
        return Unsupported(llvm::toString(Calls.takeError()));
      // One program operator per call: a SPLIT's results one each.
      for (kernels::KernelCall &Call : *Calls) {
        // The functional model's kernels, or those of a family registered
        // with rows for it, which the emitted model includes.
        const kernels::KernelFamilyInfo &Family = kernels::familyOf(Call.Params);
        if (!llvm::is_contained(Known, Call.Function) &&
            !kernels::registeredProgramRows(Family))
          return Unsupported("it has no kernel " + Call.Function);
        if (Call.DataInputs.empty() || Call.DataInputs.front() < 0)
          return Unsupported("its kernel reads no data");
        for (int32_t In : Call.DataInputs)
          if (In >= 0 && !M.Graph.tensor(In).IsConstant &&
              !M.Plan.find(In) &&
              !(M.Cascading &&
                plan::inputInPlace(M.Graph, In, M.Cascading->Options)))
            return Unsupported(llvm::formatv("tensor {0} has no data", In));
        const int32_t Out = Call.Output;
        if (!M.Plan.find(Out))
          return Unsupported("its result is not in working memory");

        program::Op O;
        O.SourceIndex = static_cast<int32_t>(Source);
        O.Type = Op.Type;
        O.Kernel = Call.Function;
        O.Params = std::move(Call.Params);
        for (int32_t In : Call.DataInputs) {
          O.Inputs.push_back(local(S, In));
          if (In >= 0)
            Users[In].insert(Op.Type);
        }
        O.Outputs.push_back(local(S, Out));
        Users[Out].insert(Op.Type);
        Written.insert(Out);
        WriterLayer[Out] = static_cast<int32_t>(S.Layers.size());
        WriterType[Out] = Op.Type;
        S.Tensors[O.Outputs[0]].Layer = static_cast<int32_t>(S.Layers.size());

        // An operator computing in one padded layout only computes on the
        // padded channels (16C: 16 bytes).
        const ir::Tensor &In0 = M.Graph.tensor(Call.DataInputs.front());
        if (channelWise(O.Params, In0.Shape.size()) &&
            M.Graph.tensor(Out).Shape.size() >= 1 &&
            M.Graph.tensor(Out).Shape.back() == In0.Shape.back())
          O.ChannelAlign = channelAlign(Rules, Op.Type, In0.Type);
        L.Ops.push_back(std::move(O));
      }
    }
    S.Layers.push_back(std::move(L));
  }

  // Inputs, outputs, fused intermediates, layouts.
  std::map<int32_t, std::set<int32_t>> ReaderLayers; // inside the region
  std::set<int32_t> ReadOutside;
  for (size_t I = 0; I < M.Graph.Operators.size(); ++I) {
    const bool Inside = I >= First && I < First + Count;
    for (int32_t In : M.Graph.Operators[I].Inputs)
      if (In >= 0 && !Inside)
        ReadOutside.insert(In);
  }
  for (size_t L = 0; L < S.Layers.size(); ++L)
    for (const Op &O : S.Layers[L].Ops)
      for (int32_t In : O.Inputs)
        if (In >= 0)
          ReaderLayers[S.Tensors[In].Id].insert(static_cast<int32_t>(L));
  for (size_t I = 0; I < S.Tensors.size(); ++I) {
    Tensor &Ten = S.Tensors[I];
    const int32_t Id = Ten.Id;
    const bool GraphOutput = llvm::is_contained(M.Graph.Outputs, Id);
    if (Ten.Where != Memory::Constant && !Written.count(Id))
      S.Inputs.push_back(static_cast<int32_t>(I));
    if (Written.count(Id) && (GraphOutput || ReadOutside.count(Id)))
      S.Outputs.push_back(static_cast<int32_t>(I));
    if (Written.count(Id) && !GraphOutput && !ReadOutside.count(Id) &&
        Rules.keepsFusedIntermediates(WriterType[Id])) {
      const std::set<int32_t> &Readers = ReaderLayers[Id];
      Ten.Internal = !Readers.empty() && Readers.size() == 1 &&
                     *Readers.begin() == WriterLayer[Id];
    }
    if (Ten.Where != Memory::Constant && Ten.Shape.size() == 4)
      Ten.TensorLayout = tensorLayout(Rules, Ten.Shape[3], Users[Id]);
    if (C && C->windowOf(Id) >= 0)
      Ten.HeldRows = C->WindowRows[C->windowOf(Id)];
  }
  // A striped subgraph's inputs and outputs are converted per stripe, as
  // the functional model reads and writes them.
  if (!S.Striped)
    assignMemory(S, Written);
  S.ScratchBytes = scratchFor(S, C, First);
  // A part of a partition subgraph switches the device at its own inputs
  // and outputs.
  if (Ops.size() != PS.Ops.size())
    S.SwitchCycles = T.switchCycles() *
                     static_cast<double>(S.Inputs.size() + S.Outputs.size());
  M.Prog.ScratchBytes = std::max(M.Prog.ScratchBytes, S.ScratchBytes);
  M.Prog.Subgraphs.push_back(std::move(S));
  return llvm::Error::success();
}

llvm::Error Builder::run(llvm::StringRef Generator) {
  if (llvm::Error E = executionOrder())
    return E;
  // The operators of each subgraph, consecutive in the execution order.
  Start.assign(M.Partition.Ops.size() + 1, 0);
  for (size_t I = 0; I < M.Partition.Ops.size(); ++I)
    Start[I + 1] = Start[I] + M.Partition.Ops[I].Sources.size();
  if (llvm::Error E = planMemory())
    return E;

  M.Prog.Target = T.name();
  M.Prog.Version = T.versions().at(Version);
  M.Prog.Generator = Generator.str();
  M.Prog.ArenaBytes = M.Plan.ArenaBytes;
  // A program subgraph per partition subgraph, split where cascades begin
  // and end: the runs inside a cascade go stripe by stripe.
  for (size_t I = 0; I < M.Partition.Subgraphs.size(); ++I) {
    const std::vector<size_t> &Ops = M.Partition.Subgraphs[I].Ops;
    for (size_t K = 0; K < Ops.size();) {
      const int32_t C = cascadeAt(Start[Ops[K]]);
      size_t End = K + 1;
      while (End < Ops.size() && cascadeAt(Start[Ops[End]]) == C)
        ++End;
      if (llvm::Error E = buildSubgraph(
              I, llvm::makeArrayRef(Ops).slice(K, End - K)))
        return E;
      K = End;
    }
  }
  return llvm::Error::success();
}

/// The first operator of the cascade running the operator at position
/// \p Pos, or -1.
int32_t Builder::cascadeAt(size_t Pos) const {
  const plan::Cascade *C =
      M.Cascading ? M.Cascading->cascadeOf(static_cast<int32_t>(Pos))
                  : nullptr;
  return C ? C->FirstOp : -1;
}

/// Why the accelerator cannot run the operator at position \p Pos stripe by
/// stripe: its kernel reads whole tensors on the functional model, or maps
/// rows otherwise than the operator's stripe transform says.
std::optional<std::string> Builder::whyNotStriped(size_t Pos) const {
  const ir::Operator &Op = M.Graph.Operators[Pos];
  llvm::Expected<std::vector<kernels::KernelCall>> Calls =
      kernels::computeKernelCalls(M.Graph, Op);
  if (!Calls) // building its subgraph reports it
    return llvm::toString(Calls.takeError());
  if (Calls->size() != 1)
    return "its results are written by separate calls";
  const kernels::KernelCall *Call = &Calls->front();
  const int Rows = accel_stripe_rows(Call->Function.c_str());
  int Expected = ACCEL_ROWS_SAME;
  if (ir::mapsInputRows(Op.code()))
    Expected = ir::rowMap(Op.code()).Kind == ir::RowKind::Shifted
                   ? ACCEL_ROWS_SHIFTED
                   : ACCEL_ROWS_WINDOW;
  if (Rows == ACCEL_ROWS_NONE)
    return "the functional model runs " + Call->Function +
           " on whole tensors only";
  if (Rows != Expected)
    return Call->Function + " maps rows otherwise than " + Op.Type +
           "'s stripe transform";
  return std::nullopt;
}

llvm::Error Builder::planMemory() {
  // No in-place operators: a program's operators run through the device's
  // commands (converted copies in scratch memory, tiles), in an order of
  // reads and writes the plan does not see; the CPU operators share the
  // arena with them.
  if (!Cascading.Enabled && !Cascading.InputsInPlace) {
    plan::PlanOptions PlanOpts;
    PlanOpts.Overlays = false;
    M.Plan = plan::planMemory(M.Graph, PlanOpts);
    std::vector<std::string> Problems =
        plan::verifyPlan(M.Graph, M.Plan, PlanOpts);
    if (!Problems.empty())
      return failure("the memory plan is unsound: " + Problems.front());
    return llvm::Error::success();
  }
  plan::CascadeOptions Opts = Cascading;
  Opts.Overlays = false;
  const partition::PartitionResult &R = M.Partition;
  // What a cascade's stripes cost in device switches.
  Opts.SwitchCycles = T.switchCycles();
  Opts.Subgraph.assign(M.Graph.Operators.size(), -1);
  for (size_t I = 0; I < R.Ops.size(); ++I)
    for (size_t Pos = Start[I]; Pos < Start[I + 1]; ++Pos)
      Opts.Subgraph[Pos] = R.Ops[I].Subgraph;
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    if (R.Ops[I].Sources.size() > 1)
      Opts.Unsplit.push_back({static_cast<int32_t>(Start[I]),
                              static_cast<int32_t>(Start[I + 1] - 1)});
    if (R.Ops[I].Placement != partition::Device::Accelerator)
      continue;
    for (size_t Pos = Start[I]; Pos < Start[I + 1]; ++Pos)
      if (std::optional<std::string> Why = whyNotStriped(Pos))
        Opts.NotStripable[static_cast<int32_t>(Pos)] = *Why;
  }
  llvm::Expected<plan::CascadePlan> P = plan::planCascades(M.Graph, Opts);
  if (!P)
    return P.takeError();
  std::vector<std::string> Problems = plan::verifyCascades(M.Graph, *P);
  if (!Problems.empty())
    return failure("the cascaded memory plan is unsound: " + Problems.front());
  M.Plan = P->Memory;
  M.Cascading = std::move(*P);
  // Every fused layer inside one cascade or none.
  for (size_t I = 0; I < R.Ops.size(); ++I)
    for (size_t Pos = Start[I]; Pos < Start[I + 1]; ++Pos)
      if (cascadeAt(Pos) != cascadeAt(Start[I]))
        return failure(llvm::formatv("a cascade splits the fused operator {0} "
                                     "({1}) of the partitioned graph",
                                     I, R.Ops[I].Type));
  return llvm::Error::success();
}

} // namespace

llvm::Expected<AcceleratedModel>
buildAcceleratedModel(const ir::Graph &G, const target::TargetInfo &T,
                      unsigned Version, const partition::PartitionOptions &Opts,
                      llvm::StringRef Generator,
                      const plan::CascadeOptions &Cascading) {
  // The memory planner and the kernels' parameter code assume a well-formed
  // graph.
  std::vector<std::string> Problems = ir::verifyGraph(G);
  if (!Problems.empty())
    return failure("the graph is malformed: " + Problems.front());
  AcceleratedModel M;
  M.Partition = partition::partition(G, T, Version, Opts);
  Builder B(M, G, T, Version, Cascading);
  if (llvm::Error E = B.run(Generator))
    return std::move(E);
  return M;
}

} // namespace program
} // namespace accelgen
