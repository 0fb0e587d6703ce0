//===- RecordFrontend.h - TableGen records to a target description ---------===//
//
// Reads the records TableGen parsed from a `.td` target description (classes
// from defs/) into a TargetDecl. It only reads: every check happens when the
// model is built, the same for `.td` and `.yaml` descriptions.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_FRONTEND_RECORDFRONTEND_H
#define ACCELGEN_GEN_FRONTEND_RECORDFRONTEND_H

#include "model/Description.h"
#include "model/Diagnostics.h"

namespace llvm {
class RecordKeeper;
class Record;
} // namespace llvm

namespace accelgen {
namespace gen {

/// The location of \p R's definition.
Loc recordLoc(const llvm::Record &R);

/// The `Name`s of the records of class \p Class defined in the file that
/// defines the class (defs/accelgen.td): the ones the description language
/// itself declares, which accelgen implements, in definition order. A
/// description defining more of them declares something accelgen does not
/// have.
std::vector<std::string> languageNames(const llvm::RecordKeeper &Records,
                                       llvm::StringRef Class);

/// Reads every operator record (canonical and target) into \p Out.Ops and
/// the backends, quantization relations and actions into Out.KnownBackends,
/// Out.KnownQuantRelations and Out.KnownQuantActions.
void readOperatorRecords(const llvm::RecordKeeper &Records, TargetDecl &Out);

/// Reads every KernelFamily record, in definition order, into
/// \p Out.KernelFamilies. A family is the portable library's (InLibrary)
/// when the file defining it is `kernels.td` in the folder of the file
/// defining the class (defs/): only those are compiled into accelgen.
void readKernelFamilyRecords(const llvm::RecordKeeper &Records,
                             TargetDecl &Out);

/// Reads the one target in \p Records and its rules into \p Out; false (after
/// reporting) when there is no target or more than one.
bool readTargetRecords(const llvm::RecordKeeper &Records, TargetDecl &Out,
                       Diagnostics &Diags);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_FRONTEND_RECORDFRONTEND_H
