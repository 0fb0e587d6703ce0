//===- MdlaTarget.cpp - The MDLA target's generated code ------------------===//
//
// Includes what accelgen-tblgen generated from mdla.td: the legality of every
// operator MDLA 1.5, 2.0 and 3.0 run, the mappings to MDLA layers, the
// quantization rules and the fusion patterns. Nothing is hand-written: the
// description names no C++ constraint.
//
//===----------------------------------------------------------------------===//
#include "target/GeneratedTarget.h"
