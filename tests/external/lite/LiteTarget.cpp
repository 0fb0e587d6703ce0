//===- LiteTarget.cpp - The lite NPU's generated converters ---------------===//
#include "target/GeneratedTarget.h"
