//===- AcceleratorEmit.cpp - The accelerator's part of an emitted model ---===//
#include "program/AcceleratorEmit.h"

#include "emit/CLiteral.h"
#include "emit/EmbeddedFiles.h"
#include "ir/Placement.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace accelgen {
namespace emit {
/// The functional model's sources, lib/program/c/*.{c,h} (embedded at build
/// time by lib/program/CMakeLists.txt).
llvm::ArrayRef<EmbeddedFile> functionalModelFiles();
} // namespace emit

namespace program {

namespace {

/// \p Bytes as the initializer of a byte array: decimal, lines under 80
/// columns.
std::string byteInitializer(llvm::ArrayRef<uint8_t> Bytes) {
  std::string Out;
  Out.reserve(Bytes.size() * 4 + Bytes.size() / 16);
  llvm::raw_string_ostream OS(Out);
  size_t Column = 0;
  for (size_t I = 0; I < Bytes.size(); ++I) {
    std::string Word = std::to_string(Bytes[I]) + ",";
    if (Column == 0) {
      OS << "    ";
      Column = 4;
    }
    OS << Word;
    Column += Word.size();
    if (Column > 72) {
      OS << "\n";
      Column = 0;
    }
  }
  if (Column)
    OS << "\n";
  return OS.str();
}

/// The file-scope C: the program, the scratch memory, the trace hook and
/// the functions the regions and the cascades' stripes call.
std::string declarations(const Program &P, llvm::ArrayRef<uint8_t> Bytes,
                         llvm::StringRef Upper, llvm::StringRef Name,
                         size_t Inputs) {
  bool Whole = false, Striped = false;
  for (const Subgraph &S : P.Subgraphs)
    (S.Striped ? Striped : Whole) = true;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::formatv(
      "/* The {0}{1} program of the accelerator subgraphs, {2} bytes\n"
      " * (lib/program/accel_program.fbs), run by the functional model of\n"
      " * accel_functional.c. */\n"
      "static const union {{\n  uint64_t align;\n  uint8_t bytes[{2}];\n}"
      " accel_program = {{.bytes = {{\n",
      P.Target, P.Version, Bytes.size());
  OS << byteInitializer(Bytes) << "}};\n\n";
  OS << llvm::formatv(
      "/* The functional model's scratch memory. */\n"
      "static union {{\n  uint64_t align;\n  uint8_t bytes[{0}];\n}"
      " accel_scratch;\n\n",
      std::max<int64_t>(P.ScratchBytes, 1));
  OS << llvm::formatv("#ifdef {0}_TRACE\n#define ACCEL_TRACE {1}_trace\n"
                      "#else\n#define ACCEL_TRACE NULL\n#endif\n\n",
                      Upper, Name);
  if (Inputs)
    OS << llvm::formatv("/* The graph inputs read in the caller's buffers, set "
                        "by {0}_run_io. */\n"
                        "static const void *accel_inputs[{1}];\n\n",
                        Name, Inputs);
  OS << "/* The arena and the scratch memory, for the functional model. */\n"
        "static accel_memory accel_memory_of(uint8_t *arena_bytes,\n"
        "                                    size_t arena_size) {\n"
        "  accel_memory memory;\n"
        "  memory.arena = arena_bytes;\n"
        "  memory.arena_bytes = arena_size;\n"
        "  memory.scratch = accel_scratch.bytes;\n"
        "  memory.scratch_bytes = sizeof(accel_scratch.bytes);\n";
  if (Inputs)
    OS << "  memory.inputs = accel_inputs;\n"
          "  memory.input_count = sizeof(accel_inputs) / "
          "sizeof(accel_inputs[0]);\n";
  else
    OS << "  memory.inputs = NULL;\n"
          "  memory.input_count = 0;\n";
  OS << "  return memory;\n"
        "}\n";
  if (Whole)
    OS << "\n/* Runs accelerator subgraph `index` on the arena, unless an "
          "earlier\n * call failed. */\n"
          "static void accel_run(int32_t index, uint8_t *arena_bytes,\n"
          "                      size_t arena_size) {\n"
          "  accel_memory memory = accel_memory_of(arena_bytes, arena_size);\n"
          "  if (accel_status != 0)\n"
          "    return;\n"
          "  accel_status = accel_run_subgraph(accel_program.bytes,\n"
          "                                   sizeof(accel_program.bytes), "
          "index,\n"
          "                                   &memory, ACCEL_TRACE, "
          "&accel_cycles);\n"
          "}\n";
  if (Striped)
    OS << "\n/* Runs one stripe of operator `op` of striped subgraph `index`,\n"
          " * unless an earlier call failed: the rows of cascade step entry "
          "`e`\n * (output rows [e0, e1), input rows [e3, e4), padding e5), "
          "each\n * operand's buffer holding rows from first_row[i]. */\n"
          "static void accel_stripe_run(int32_t index, int32_t op, "
          "const int16_t *e,\n"
          "                             const int32_t *first_row, "
          "int32_t operands,\n"
          "                             uint8_t *arena_bytes, size_t "
          "arena_size) {\n"
          "  accel_memory memory = accel_memory_of(arena_bytes, arena_size);\n"
          "  accel_stripe stripe;\n"
          "  if (accel_status != 0)\n"
          "    return;\n"
          "  stripe.out_begin = e[0];\n"
          "  stripe.out_end = e[1];\n"
          "  stripe.in_begin = e[3];\n"
          "  stripe.in_end = e[4];\n"
          "  stripe.pad_top = e[5];\n"
          "  stripe.first_row = first_row;\n"
          "  stripe.operands = operands;\n"
          "  accel_status = accel_run_stripe(accel_program.bytes,\n"
          "                                  sizeof(accel_program.bytes), "
          "index, op,\n"
          "                                  &stripe, &memory, ACCEL_TRACE,\n"
          "                                  &accel_cycles);\n"
          "}\n";
  return OS.str();
}

/// The functional model's file naming the target's own kernel families.
constexpr llvm::StringLiteral TargetKernelsFile = "accel_target_kernels.inc";

/// The text of accel_target_kernels.inc for \p P: the headers and kernel
/// table rows of the registered families it calls (whose functions join
/// \p Functions, for their files), or "" when it calls none. An error for a
/// family registered without rows for the functional model.
llvm::Expected<std::string>
targetKernels(const Program &P, std::set<std::string> &Functions) {
  std::vector<const kernels::KernelFamilyInfo *> Families =
      registeredFamiliesCalled(P);
  if (Families.empty())
    return "";
  std::string Headers, Rows;
  std::vector<std::string> Origins;
  for (const kernels::KernelFamilyInfo *F : Families) {
    std::optional<kernels::RegisteredRows> R =
        kernels::registeredProgramRows(*F);
    if (!R)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("kernel family '{0}' brings no kernel table rows for "
                        "the functional model",
                        F->Name));
    if (!llvm::is_contained(Origins, R->Origin.str()))
      Origins.push_back(R->Origin.str());
    Headers += llvm::formatv("#include \"{0}\"\n", F->Header).str();
    Rows += R->Rows.str();
  }
  for (const Subgraph &S : P.Subgraphs)
    for (const Layer &L : S.Layers)
      for (const Op &O : L.Ops)
        if (const kernels::KernelFunctionInfo *Fn =
                kernels::findKernelFunction(O.Kernel);
            Fn && llvm::is_contained(Families, Fn->Family))
          Functions.insert(O.Kernel);
  return llvm::formatv(
             "/* Written by accelgen: the kernel families the program calls "
             "that\n * accel_functional.c includes before each include of "
             "ref_kernel_table.inc,\n * from {0}. */\n"
             "#ifdef ACCEL_TARGET_KERNEL_HEADERS\n"
             "#undef ACCEL_TARGET_KERNEL_HEADERS\n{1}#else\n{2}#endif\n",
             llvm::join(Origins, ", "), Headers, Rows)
      .str();
}

} // namespace

llvm::Expected<emit::Offload> makeOffload(const AcceleratedModel &M,
                                          llvm::StringRef Name) {
  const Program &P = M.Prog;
  std::vector<uint8_t> Bytes = writeProgram(P);
  if (llvm::Expected<Program> Back = readProgram(Bytes); !Back)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the accelerator program does not check: " +
                                       llvm::toString(Back.takeError()));

  emit::Offload O;
  O.Plan = M.Plan;
  O.Cascading = M.Cascading;
  // Without a subgraph there is nothing to run: no program, no functional
  // model, only the (zero) cycles.
  if (!P.Subgraphs.empty()) {
    O.Headers.push_back("accel_functional.h");
    llvm::Expected<std::string> Own = targetKernels(P, O.KernelFunctions);
    if (!Own)
      return Own.takeError();
    for (const emit::EmbeddedFile &F : emit::functionalModelFiles())
      O.Files.push_back(
          {F.Name, F.Name == TargetKernelsFile && !Own->empty()
                       ? *Own
                       : (llvm::Twine("/* Copied by accelgen from the "
                                      "accelerator functional model "
                                      "(lib/program/c/") +
                          F.Name + "). */\n" + F.Text)
                             .str()});
    for (const std::string &K : functionalModelKernels())
      O.KernelFunctions.insert(K);
    for (const Subgraph &S : P.Subgraphs)
      for (const Tensor &T : S.Tensors)
        O.ReadsInputs |= T.Input >= 0;
    O.Declarations =
        declarations(P, Bytes, llvm::StringRef(Name).upper(), Name,
                     O.ReadsInputs ? M.Graph.Inputs.size() : 0);
  }

  const std::string Label = P.Target + P.Version;
  llvm::json::Array Subgraphs;
  double Cycles = 0, SwitchCycles = 0;
  size_t Offloaded = 0, Layers = 0;
  for (size_t S = 0; S < P.Subgraphs.size(); ++S) {
    const Subgraph &Sub = P.Subgraphs[S];
    const auto [First, Count] = M.Regions[S];
    if (!Sub.Striped) {
      emit::OffloadRegion R;
      R.FirstOp = First;
      R.NumOps = Count;
      R.Comment = llvm::formatv("operators {0}-{1} run on {2}, subgraph {3} "
                                "({4} layers)",
                                First, First + Count - 1, Label, Sub.Index,
                                Sub.Layers.size())
                      .str();
      R.Call = llvm::formatv(
                   "  accel_run({0}, arena.bytes, sizeof(arena.bytes));", S)
                   .str();
      O.Regions.push_back(std::move(R));
    }

    size_t Op = First;
    int32_t InSubgraph = 0;
    for (size_t L = 0; L < Sub.Layers.size(); ++L)
      for (const program::Op &PO : Sub.Layers[L].Ops) {
        if (Sub.Striped) {
          emit::StripeCall Call;
          Call.Subgraph = static_cast<int32_t>(S);
          Call.Op = InSubgraph;
          for (int32_t I : PO.Inputs)
            Call.Operands.push_back(I < 0 ? -1 : Sub.Tensors[I].Id);
          Call.Operands.push_back(Sub.Tensors[PO.Outputs.front()].Id);
          O.Stripes[Op] = std::move(Call);
        }
        ++InSubgraph;
        llvm::json::Object Extra{{"device", ir::deviceName(ir::Device::Accelerator)},
                                 {"subgraph", Sub.Index},
                                 {"source_index", PO.SourceIndex},
                                 {"kernel", PO.Kernel},
                                 {"layer", static_cast<int64_t>(L)},
                                 {"layer_type", Sub.Layers[L].Type}};
        Extra["layer_cycles"] = Sub.Layers[L].Cycles
                                    ? llvm::json::Value(*Sub.Layers[L].Cycles)
                                    : llvm::json::Value(nullptr);
        if (PO.ChannelAlign)
          Extra["channel_align"] = PO.ChannelAlign;
        O.OperatorReport[Op++] = std::move(Extra);
      }
    // A striped subgraph switches the device with every stripe of its first
    // operator (accel_run_stripe counts them so).
    double Switches = 1;
    if (Sub.Striped && M.Cascading)
      if (const plan::Cascade *C =
              M.Cascading->cascadeOf(static_cast<int32_t>(First))) {
        Switches = 0;
        for (const std::vector<plan::StripeStep> &Step : C->Steps)
          Switches += !Step[First - C->FirstOp].Out.empty();
      }
    Cycles += Sub.Cycles + Sub.SwitchCycles * Switches;
    SwitchCycles += Sub.SwitchCycles * Switches;
    Offloaded += Count;
    Layers += Sub.Layers.size();
    Subgraphs.push_back(llvm::json::Object{
        {"index", Sub.Index},
        {"first_operator", static_cast<int64_t>(First)},
        {"operators", static_cast<int64_t>(Count)},
        {"layers", static_cast<int64_t>(Sub.Layers.size())},
        {"inputs", static_cast<int64_t>(Sub.Inputs.size())},
        {"outputs", static_cast<int64_t>(Sub.Outputs.size())},
        {"converted_inputs", static_cast<int64_t>(Sub.ConvertIn.size())},
        {"converted_outputs", static_cast<int64_t>(Sub.ConvertOut.size())},
        {"cycles", Sub.Cycles},
        {"switch_cycles", Sub.SwitchCycles * Switches},
        {"device_runs", Switches},
        {"scratch_bytes", Sub.ScratchBytes},
        {"striped", Sub.Striped}});
  }
  for (size_t I = 0; I < M.Graph.Operators.size(); ++I)
    if (!O.OperatorReport.count(I))
      O.OperatorReport[I] =
          llvm::json::Object{{"device", ir::deviceName(ir::Device::Cpu)},
                             {"subgraph", -1},
                             {"source_index", M.SourceIndex[I]}};

  O.Report = llvm::json::Object{
      {"target", Label},
      {"functional_model", "accel_functional.c"},
      {"program_bytes", static_cast<int64_t>(Bytes.size())},
      {"scratch_bytes", P.ScratchBytes},
      {"operators_offloaded", static_cast<int64_t>(Offloaded)},
      {"operators", static_cast<int64_t>(M.Graph.Operators.size())},
      {"layers", static_cast<int64_t>(Layers)},
      {"subgraph_count", static_cast<int64_t>(P.Subgraphs.size())},
      {"estimated_cycles", Cycles},
      {"switch_cycles", SwitchCycles},
      {"subgraphs", std::move(Subgraphs)}};
  return O;
}

} // namespace program
} // namespace accelgen
