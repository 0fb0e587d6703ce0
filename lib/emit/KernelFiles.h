//===- KernelFiles.h - The kernel sources an emitted model needs -*- C++
//-*-===//
//
// Which of the embedded reference kernel files a set of kernel functions
// needs: the header declaring each function (its family's, from
// defs/kernels.td), the source of the same name, and everything those
// include, transitively.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_EMIT_KERNELFILES_H
#define ACCELGEN_EMIT_KERNELFILES_H

#include "emit/ModelEmitter.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace accelgen {
namespace emit {

/// The kernel files to copy for a set of functions.
struct KernelFileSet {
  /// The headers declaring the functions, for model.c to include; sorted.
  std::vector<std::string> Headers;
  /// Every file to copy, each opening with a line naming where it came from;
  /// sorted by name.
  std::vector<EmittedFile> Files;
};

/// The files named by the `#include "..."` lines of C text \p Text, in
/// order: the emitted folders are flat, so these are the folder's own files.
std::vector<std::string> quotedIncludes(llvm::StringRef Text);

/// The files \p Functions need, and the kernel files \p Includers include
/// (a functional model that calls kernels through the kernel table); an
/// error naming a function that no kernel family declares.
llvm::Expected<KernelFileSet>
selectKernelFiles(const std::set<std::string> &Functions,
                  llvm::ArrayRef<EmittedFile> Includers = {});

} // namespace emit
} // namespace accelgen

#endif // ACCELGEN_EMIT_KERNELFILES_H
