//===- ModelMutator.h - Structured mutations of TensorFlow Lite models ----===//
//
// Random byte flips rarely get past the FlatBuffers verifier, so the pipeline
// fuzzer mutates models where they mean something: it imports the bytes,
// changes one thing in the Graph IR the way a hostile or broken converter
// might (a scale of 1e-45 or NaN, a zero point of 300, a stride of 0, an int64
// constant of 2^32 + 1, an operand pointing elsewhere, an output nothing
// writes, a huge version, a PAD put in front of an operator) and writes the
// model back with TFLiteWriter, which
// writes without checking. The same mutations, from fixed seeds, give the
// sanitizer test its models.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_FUZZ_MODELMUTATOR_H
#define ACCELGEN_TESTS_FUZZ_MODELMUTATOR_H

#include "ir/Graph.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace accelgen {
namespace fuzz {

/// xorshift32: the same sequence on every platform.
class Random {
public:
  explicit Random(uint32_t Seed) : State(Seed ? Seed : 0x9E3779B9u) {}
  uint32_t next() {
    State ^= State << 13;
    State ^= State >> 17;
    State ^= State << 5;
    return State;
  }
  /// A value in [0, N); 0 when N is 0.
  uint32_t below(uint32_t N) { return N ? next() % N : 0; }

private:
  uint32_t State;
};

/// Applies one mutation, chosen by \p R, to the main graph of \p M.
void mutateModel(ir::Model &M, Random &R);

/// The model file \p Bytes with one to three mutations from a generator
/// seeded with \p Seed, written back; std::nullopt when \p Bytes does not
/// import or the mutant is longer than \p MaxSize (the fuzzers' custom
/// mutators then fall back to libFuzzer's byte mutations).
std::optional<std::vector<uint8_t>>
mutateModelBytes(llvm::ArrayRef<uint8_t> Bytes, uint32_t Seed, size_t MaxSize);

} // namespace fuzz
} // namespace accelgen

#endif // ACCELGEN_TESTS_FUZZ_MODELMUTATOR_H
