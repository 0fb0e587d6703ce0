//===- Emitters.h - One emitter per generated artifact
//---------------------===//
//
// Each function writes one artifact of a target from its validated model.
// Output is deterministic: the same model always gives the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_EMITTERS_EMITTERS_H
#define ACCELGEN_GEN_EMITTERS_EMITTERS_H

#include "model/KernelLibrary.h"
#include "model/TargetModel.h"
#include "model/Vocabulary.h"

#include "llvm/Support/raw_ostream.h"

namespace accelgen {
namespace gen {

/// Legality.inc: a check function per constraint, a table per operator.
void emitLegality(const TargetModel &M, llvm::raw_ostream &OS);
/// OpSetups.inc: an OpSetup subclass per legal operator, and registration.
void emitOpSetups(const TargetModel &M, llvm::raw_ostream &OS);
/// Patterns.inc: pattern tables, capture structs and constraint checks.
void emitPatterns(const TargetModel &M, llvm::raw_ostream &OS);
/// SupportedOps.md: operator x version x type x constraint, in words.
void emitSupportedOps(const TargetModel &M, llvm::raw_ostream &OS);
/// VersionDiff.md: what each version changes from the one before.
void emitVersionDiff(const TargetModel &M, llvm::raw_ostream &OS);
/// ConstraintTests.inc: accept/reject boundary cases of every constraint.
void emitConstraintTests(const TargetModel &M, llvm::raw_ostream &OS);
/// DeviceRules.inc: layouts, storage conversions and residency per version.
void emitDeviceRules(const TargetModel &M, llvm::raw_ostream &OS);
/// A readable dump of the model, for debugging descriptions.
void dumpModel(const TargetModel &M, llvm::raw_ostream &OS);
/// OpVocabulary.inc: operators, TensorFlow Lite builtin codes and attribute
/// names as X-macro rows; \p Source names the input file in the banner.
void emitOpVocabulary(const Vocabulary &V, llvm::StringRef Source,
                      llvm::raw_ostream &OS);

/// <library>_params.h: the C parameter struct of every kernel family.
void emitKernelParams(const KernelLibraryModel &M, llvm::raw_ostream &OS);
/// The kernel templates' instantiation rows, one per rendered function.
void emitKernelInstances(const KernelLibraryModel &M, llvm::raw_ostream &OS);
/// KernelTable.inc: X-macro rows of fields, arguments, functions and the
/// operators each function computes.
void emitKernelTable(const KernelLibraryModel &M, llvm::raw_ostream &OS);

/// Kernels.inc: the target's own kernel families (those of \p M marked Own)
/// as registrations accelgen makes when it loads the target: declares their
/// builders and `kernelFamilies()` in \p Namespace (the target's,
/// targetNamespace) (GET_KERNELS_DECL) and defines it (GET_KERNELS_IMPL),
/// with the files the families need embedded (\p Files: name and text, in
/// order).
void emitKernelRegistration(
    const KernelLibraryModel &M, llvm::StringRef Target,
    llvm::StringRef Namespace,
    llvm::ArrayRef<std::pair<std::string, std::string>> Files,
    llvm::raw_ostream &OS);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_EMITTERS_EMITTERS_H
