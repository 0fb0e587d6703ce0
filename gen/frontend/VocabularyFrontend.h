//===- VocabularyFrontend.h - Records to the operator vocabulary ----------===//
//
// Reads the canonical operators, attributes and TensorFlow Lite builtin codes
// TableGen parsed from defs/ops.td (and the files it includes) for
// -gen-op-vocabulary. It only reads; buildVocabulary checks.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_FRONTEND_VOCABULARYFRONTEND_H
#define ACCELGEN_GEN_FRONTEND_VOCABULARYFRONTEND_H

#include "model/Vocabulary.h"

namespace llvm {
class RecordKeeper;
} // namespace llvm

namespace accelgen {
namespace gen {

/// Every Op record but target operators, every Attr and every TFLiteBuiltin
/// record of \p Records, in definition order.
VocabularyDecl readVocabularyRecords(const llvm::RecordKeeper &Records);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_FRONTEND_VOCABULARYFRONTEND_H
