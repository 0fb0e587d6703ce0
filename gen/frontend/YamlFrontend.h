//===- YamlFrontend.h - A `.yaml` target description
//------------------------===//
//
// Reads a target description written in YAML into a TargetDecl, the same
// structure the TableGen front end fills, so both forms are validated and
// emitted by the same code. The operator vocabulary (Out.Ops) is read from
// defs/ by TableGen before this runs; the YAML adds the target's own
// operators and its rules. Locations come from yaml-cpp marks.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_GEN_FRONTEND_YAMLFRONTEND_H
#define ACCELGEN_GEN_FRONTEND_YAMLFRONTEND_H

#include "model/Description.h"
#include "model/Diagnostics.h"

#include <string>

namespace accelgen {
namespace gen {

/// Reads the description in file \p Path into \p Out; false (after reporting
/// through \p Diags) if the file cannot be read or is not well formed.
bool readYamlTarget(const std::string &Path, TargetDecl &Out,
                    Diagnostics &Diags);

/// Reads the description \p Text, located as file \p Path, into \p Out;
/// false (after reporting through \p Diags) if it is not well formed.
bool readYamlTargetText(const std::string &Text, const std::string &Path,
                        TargetDecl &Out, Diagnostics &Diags);

/// Reads a kernel library in file \p Path (a document of
/// `kernel_families` only, docs/dsl-yaml.md) into \p Out.KernelFamilies;
/// false (after reporting) if it cannot be read or is not well formed.
bool readYamlKernelLibrary(const std::string &Path, TargetDecl &Out,
                           Diagnostics &Diags);

} // namespace gen
} // namespace accelgen

#endif // ACCELGEN_GEN_FRONTEND_YAMLFRONTEND_H
