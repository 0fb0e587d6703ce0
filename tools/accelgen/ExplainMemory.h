//===- ExplainMemory.h - explain --memory: memory per step --*- C++ -*-===//
//
// The working memory of a model step by step, layer at a time and with
// cascades (docs/cascading.md): a table or JSON, and a picture of the memory
// profile over the operators as SVG.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TOOLS_EXPLAINMEMORY_H
#define ACCELGEN_TOOLS_EXPLAINMEMORY_H

#include "ir/Graph.h"
#include "plan/Cascade.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace accelgen {
namespace cli {

/// Prints \p P for model \p Model: totals, one row per operator (bytes live
/// before and after cascading, its cascade and stripe height), one line per
/// cascade (steps, windows, bytes moved, extra MACs).
void printMemoryText(llvm::raw_ostream &OS, llvm::StringRef Model,
                     const ir::Graph &G, const plan::CascadePlan &P);

/// An SVG of the bytes live at every operator, layer at a time (grey) and
/// cascaded (blue), with cascades shaded and the budget, if any, as a line.
std::string memorySvg(llvm::StringRef Model, const ir::Graph &G,
                      const plan::CascadePlan &P, int64_t Budget);

} // namespace cli
} // namespace accelgen

#endif // ACCELGEN_TOOLS_EXPLAINMEMORY_H
