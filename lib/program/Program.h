//===- Program.h - Accelerator programs: description, writer, reader -*- C++
//-*-===//
//
// An accelerator program (accel_program.fbs) in memory, as the writer takes
// it and the reader gives it back: per accelerator subgraph, its tensors
// (tensor-oriented quantization as the model and as the accelerator hold
// them, layout, arena offset, where the accelerator keeps them, fused-group
// membership) and its layers, each listing the input model's operators it
// stands for with the reference kernel and parameters that compute them.
//
// readProgram never trusts its bytes: the FlatBuffers verifier runs first,
// every index is checked while decoding, and then the functional model's own
// checks (lib/program/c/accel_functional.h) run over the whole program, so a
// program it accepts is one the functional model runs.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_PROGRAM_PROGRAM_H
#define ACCELGEN_PROGRAM_PROGRAM_H

#include "ir/Graph.h"
#include "kernels/KernelParams.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace program {

/// How an accelerator tensor is laid out: NHWC (and every tensor that is
/// not 4-D), 4C (at most 4 channels, width aligned), 16C (channels padded to
/// 16 bytes).
enum class Layout : uint8_t { NHWC, C4, C16 };

/// "NHWC", "4C", "16C".
llvm::StringRef layoutName(Layout L);

/// Where the accelerator's copy of a tensor is.
enum class Memory : uint8_t {
  Arena,    ///< the host arena, at the tensor's arena offset
  Scratch,  ///< the scratch memory, at its device offset
  Constant, ///< a buffer of the program
};

struct Tensor {
  /// The tensor's index in the input model.
  int32_t Id = -1;
  std::string Name;
  /// As the model holds it.
  ir::DType Type = ir::DType::I8;
  std::vector<int32_t> Shape;
  std::optional<ir::QuantParams> Quant;
  /// As the accelerator stores it.
  ir::DType DeviceType = ir::DType::I8;
  std::optional<ir::QuantParams> DeviceQuant;
  Layout TensorLayout = Layout::NHWC;
  int64_t Bytes = 0;
  /// -1 for constants.
  int64_t ArenaOffset = -1;
  Memory Where = Memory::Arena;
  /// The offset in scratch memory when Where is Scratch, else -1.
  int64_t DeviceOffset = -1;
  /// The program buffer when Where is Constant, else -1.
  int32_t Buffer = -1;
  /// The layer of the subgraph writing it; -1 for inputs and constants.
  int32_t Layer = -1;
  /// A fused group's intermediate result: read inside its layer only.
  bool Internal = false;
  /// In a striped subgraph, the rows the arena holds of a tensor held as a
  /// window of rows; 0 when it is whole.
  int32_t HeldRows = 0;
  /// A graph input read in the caller's buffer (--inputs-in-place): its
  /// index among the graph inputs (ArenaOffset is then 0, in that buffer);
  /// -1 for a tensor in the arena.
  int32_t Input = -1;

  /// True when the accelerator stores it in another format (int8 stored as
  /// uint8, as the target's DeviceStorage rules say).
  bool isConverted() const { return DeviceType != Type; }
};

/// One operator of the input model, as the accelerator computes it.
struct Op {
  int32_t SourceIndex = -1;
  std::string Type;
  /// The reference kernel ("ref_conv2d_i8_per_channel").
  std::string Kernel;
  kernels::AnyParams Params;
  /// Indices into the subgraph's tensors: the kernel's data operands (-1 for
  /// an omitted optional one) and the results.
  std::vector<int32_t> Inputs;
  std::vector<int32_t> Outputs;
  /// Not 0 when it computes in 16C: channels padded to a multiple of this.
  int32_t ChannelAlign = 0;
};

/// One accelerator operator: a fused group or a single operator.
struct Layer {
  std::string Type;
  std::string SourceType;
  /// Its index in the partitioned graph.
  int32_t Index = -1;
  std::vector<Op> Ops;
  std::optional<double> Cycles;
};

struct Subgraph {
  int32_t Index = -1;
  std::vector<Tensor> Tensors;
  std::vector<int32_t> Inputs;
  std::vector<int32_t> Outputs;
  /// Inputs converted to the accelerator's format at the start, outputs
  /// converted back at the end.
  std::vector<int32_t> ConvertIn;
  std::vector<int32_t> ConvertOut;
  std::vector<Layer> Layers;
  double Cycles = 0;
  double SwitchCycles = 0;
  int64_t ScratchBytes = 0;
  /// A cascade's operators, run by the host a stripe at a time
  /// (accel_run_stripe); no converted copies in scratch memory.
  bool Striped = false;
};

struct Program {
  /// The target's name and version ("demo", "2.0").
  std::string Target;
  std::string Version;
  std::string Generator;
  std::vector<Subgraph> Subgraphs;
  /// Constant data, each 16-byte aligned in the serialized program.
  std::vector<std::vector<uint8_t>> Buffers;
  int64_t ArenaBytes = 0;
  int64_t ScratchBytes = 0;
};

/// The serialized program (file identifier "AGPR").
std::vector<uint8_t> writeProgram(const Program &P);

/// Decodes and checks \p Bytes: the FlatBuffers verifier, then every index
/// and value the functional model relies on. An error says what is wrong.
llvm::Expected<Program> readProgram(llvm::ArrayRef<uint8_t> Bytes);

/// The reference kernels the functional model can call.
std::vector<std::string> functionalModelKernels();

/// The kernel families registered at run time (a plugin's own) whose
/// functions \p P calls, each once, in the order of their first call.
std::vector<const kernels::KernelFamilyInfo *>
registeredFamiliesCalled(const Program &P);

} // namespace program
} // namespace accelgen

#endif // ACCELGEN_PROGRAM_PROGRAM_H
