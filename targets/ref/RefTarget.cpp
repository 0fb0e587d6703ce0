//===- RefTarget.cpp - The reference CPU target's generated code ----------===//
//
// Includes what accelgen-tblgen generated from ref.td: the legality of every
// operator the reference kernels run, for placement reports and for the
// targets that fall back to the CPU.
//
//===----------------------------------------------------------------------===//
#include "target/GeneratedTarget.h"
