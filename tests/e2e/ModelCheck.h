//===- ModelCheck.h - An emitted model against the reference vectors -*- C++
//-*-===//
//
// The per-model check of the end-to-end run tests (ModelRunTest for target
// ref, CpuRunTest for target cpu).
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_E2E_MODELCHECK_H
#define ACCELGEN_TESTS_E2E_MODELCHECK_H

#include "E2ESupport.h"

#include <string>

namespace accelgen {
namespace e2e {

/// Runs every seed of shared model \p Name with `accelgen run --target
/// TARGET`: every output against expected_<i>.bin, and seed 1's layers
/// against \p LayersFrom's (default: the model's own) seed1/layers unless the
/// model has no layer vectors (\p CompareLayers false).
void checkModelOnTarget(const std::string &Name, const std::string &Target,
                        const std::string &LayersFrom = "",
                        bool CompareLayers = true);

} // namespace e2e
} // namespace accelgen

#endif // ACCELGEN_TESTS_E2E_MODELCHECK_H
