//===- Vocabulary.h - The operator vocabulary of the Graph IR -------------===//
//
// defs/ops.td's canonical operators and attribute names, with the builtin
// operator codes of TensorFlow Lite (defs/tflite.td): as written (the Decl
// structures, filled by the record front end) and validated (Vocabulary, what
// -gen-op-vocabulary emits). It is the one source of ir::OpCode, the IR's
// operator names, the importer's builtin-code table and the ir::attr names.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_MODEL_VOCABULARY_H
#define ACCELGEN_GEN_MODEL_VOCABULARY_H

#include "model/Description.h"
#include "model/Diagnostics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace accelgen {
namespace gen {

/// An operator's stripe transform as written (`StripeRows` in accelgen.td):
/// its kind and, for a window, the attributes and operand it reads.
struct StripeAttrDecl {
  std::string Name, Kind;
};
struct StripeRowsDecl {
  std::string Kind =
      "whole"; ///< whole, identity, shifted, window or accumulate.
  /// A window's attributes as written; the lists hold at most one each.
  StripeAttrDecl Stride;
  std::vector<StripeAttrDecl> Dilation, Kernel;
  std::vector<std::string> KernelOperand; ///< Operand names.
};

/// A canonical operator as written: `def Conv2D : Op<"CONV_2D", ...>`.
struct VocabularyOpDecl {
  std::string Key;  ///< The record name (`Conv2D`).
  std::string Name; ///< The operator name in the IR (`CONV_2D`).
  bool IsBuiltin = true;
  Loc At;
  /// Operand counts: the listed operands less the optional trailing ones, the
  /// listed ones (-1 when Variadic), and the results.
  int32_t MinOperands = 0;
  int32_t MaxOperands = 0;
  int32_t NumResults = 1;
  /// Bit I set: operand I (of the first 64) may not be omitted (-1); an
  /// optional operand before a required one (SVDF's bias) has it clear.
  uint64_t RequiredMask = 0;
  /// The names of its attributes and operands, in order.
  std::vector<std::string> AttrNames, OperandNames;
  /// The rows a stripe of output rows reads; the columns a tile of output
  /// columns reads (`Cols`, tiled cascades).
  StripeRowsDecl Rows, Cols;
  /// The operands output 0 may take the bytes of (`OutputOverlays`), by name.
  std::vector<std::string> OutputOverlays;
  /// Run by the generated code itself, without a kernel (`RunByHost`).
  bool RunByHost = false;
};

/// A builtin operator code of the TensorFlow Lite format as written.
struct BuiltinDecl {
  int64_t Code = 0;
  std::string Name;
  Loc At;
};

/// An attribute as written: `def StrideHAttr : Attr<"stride_h", IntAttr>`.
struct VocabularyAttrDecl {
  std::string Name;
  std::string Kind;
  Loc At;
};

/// Everything -gen-op-vocabulary reads, in definition order.
struct VocabularyDecl {
  std::vector<VocabularyOpDecl> Ops;
  std::vector<BuiltinDecl> Builtins;
  std::vector<VocabularyAttrDecl> Attrs;
  /// The names of the QuantRelation and QuantAction records of
  /// defs/accelgen.td, in definition order ("same_scale", "reject").
  std::vector<std::string> QuantRelations, QuantActions;
};

/// The validated vocabulary, in the order it is emitted.
struct Vocabulary {
  struct OpEntry {
    std::string Enumerator; ///< ir::OpCode enumerator: the record name.
    std::string Name;
    int32_t BuiltinCode = -1; ///< -1 for an operator of accelgen's own.
    int32_t MinOperands = 0;
    int32_t MaxOperands = 0; ///< -1: variadic.
    int32_t NumResults = 1;
    uint64_t RequiredMask = 0; ///< As VocabularyOpDecl::RequiredMask.
    /// A stripe transform: RowKind enumerator (Whole, Identity, Shifted,
    /// Window, Accumulate), attribute names ("" when unset) and the kernel
    /// operand's index (-1 when unset).
    struct StripeMap {
      std::string Kind = "Whole";
      std::string Stride, Dilation, Kernel;
      int32_t KernelOperand = -1;
    };
    /// Over the rows (dimension 1) and over the columns (dimension 2).
    StripeMap Rows, Cols;
    /// The operands output 0 may overlay, one bit per operand index.
    uint32_t OverlayMask = 0;
    /// Run by the generated code itself (`RunByHost`).
    bool RunByHost = false;
  };
  struct BuiltinEntry {
    int32_t Code = 0;
    std::string Name;
  };
  struct AttrEntry {
    std::string Constant; ///< ir::attr constant: `stride_h` gives `StrideH`.
    std::string Name;
  };
  /// Operators in definition order (the enumerators' order).
  std::vector<OpEntry> Ops;
  /// Builtins by ascending code.
  std::vector<BuiltinEntry> Builtins;
  /// Attribute names, sorted, each once.
  std::vector<AttrEntry> Attrs;
  /// Quantization rule relations and actions in definition order: the
  /// enumerator (target::QuantRelation, target::QuantAction: the name in
  /// CamelCase, as generated targets spell it) and the name.
  std::vector<AttrEntry> QuantRelations, QuantActions;
};

/// The C++ enumerator of a description's snake_case name ("same_scale" is
/// SameScale), as the generated tables and lib/target spell them.
std::string enumeratorName(llvm::StringRef Snake);

/// Checks \p D and builds its vocabulary; reports every mistake to \p Diags
/// and returns nothing if there was one.
std::optional<Vocabulary> buildVocabulary(const VocabularyDecl &D,
                                          Diagnostics &Diags);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_MODEL_VOCABULARY_H
