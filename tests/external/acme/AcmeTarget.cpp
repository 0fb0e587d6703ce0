//===- AcmeTarget.cpp - The ACME NPU's generated converters ---------------===//
#include "target/GeneratedTarget.h"
