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

/// Reads every operator record (canonical and target) into \p Out.Ops and
/// the backends into Out.KnownBackends.
void readOperatorRecords(const llvm::RecordKeeper &Records, TargetDecl &Out);

/// Reads the one target in \p Records and its rules into \p Out; false (after
/// reporting) when there is no target or more than one.
bool readTargetRecords(const llvm::RecordKeeper &Records, TargetDecl &Out,
                       Diagnostics &Diags);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_FRONTEND_RECORDFRONTEND_H
