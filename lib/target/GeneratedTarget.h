//===- GeneratedTarget.h - Everything generated for one target ------------===//
//
// Included by exactly one source file of a target library built with
// accelgen_add_target (cmake/AccelgenTarget.cmake), whose generated folder is
// on the include path: defines the target's constraint checks and legality
// tables (Legality.inc), its OpSetup classes, cost model and
// createTargetInfo() (OpSetups.inc), its fusion patterns (Patterns.inc), its
// device semantics (DeviceRules.inc) and its own kernel families
// (Kernels.inc: kernelFamilies(), and the declarations of their builders,
// which the target's sources define), in the target's namespace
// accelgen::targets::<name>. C++ functions a description names as escape
// hatches must be declared before it.
//
//===----------------------------------------------------------------------===//
#include "kernels/KernelParams.h"
#include "kernels/OpContext.h"
#include "target/ConstraintRuntime.h"
#include "target/DeviceRules.h"
#include "target/Legality.h"
#include "target/Mapping.h"
#include "target/QuantRules.h"
#include "target/TargetInfo.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#define GET_LEGALITY_DECL
#define GET_LEGALITY_IMPL
#include "Legality.inc"
#define GET_OPSETUP_DECL
#define GET_OPSETUP_IMPL
#include "OpSetups.inc"
#define GET_PATTERNS_DECL
#define GET_PATTERNS_IMPL
#include "Patterns.inc"
#define GET_DEVICE_RULES_DECL
#define GET_DEVICE_RULES_IMPL
#include "DeviceRules.inc"
#define GET_KERNELS_DECL
#define GET_KERNELS_IMPL
#include "Kernels.inc"
