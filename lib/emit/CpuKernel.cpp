//===- CpuKernel.cpp - Kernels a backend specialises per operator ---------===//
#include "emit/CpuKernel.h"

namespace accelgen {
namespace emit {

CpuKernelSpecialiser::~CpuKernelSpecialiser() = default;

} // namespace emit
} // namespace accelgen
