//===- FuzzTableGen.h - TableGen inside a fuzz target -----------*- C++ -*-===//
//
// LLVM 14's TableGen parses only through TableGenMain, which reads the file its
// command-line options name. The `.td` and `.yaml` fuzz targets set those
// options once (defs/ on the include path, output to /dev/null) and then point
// the input option at the file to parse before each call.
//
// TableGen reports some mistakes with PrintFatalError, which ends the process
// with exit(1): for a tool, the right behaviour. Inside a fuzz target an
// exit would stop the run, so while an input is parsed, exit() returns to
// parseTd instead (the target's own definition of exit, which the linker
// prefers to the C library's); what the abandoned parse allocated is
// leaked, so these targets run without leak detection.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_TESTS_FUZZ_FUZZTABLEGEN_H
#define ACCELGEN_TESTS_FUZZ_FUZZTABLEGEN_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

#include <csetjmp>
#include <dlfcn.h>
#include <string>
#include <type_traits>

namespace accelgen {
namespace fuzz {

/// Set while TableGen runs inside parseTd.
inline bool InsideParse = false;
inline std::jmp_buf ExitJump;

/// Sets TableGen's options: defs/ (ACCELGEN_FUZZ_DEFS_DIR) on the include path,
/// output to /dev/null.
inline void initTableGen() {
  const char *Argv[] = {
      "accelgen-fuzzer", "-I", ACCELGEN_FUZZ_DEFS_DIR, "-o", "/dev/null",
      "placeholder.td"};
  llvm::cl::ParseCommandLineOptions(6, Argv);
}

/// The path of a new, empty temporary `.td` file; empty when none can be
/// made. TableGen reads only files, so the fuzzers write their input there.
inline std::string createTemporaryTd(const char *Prefix) {
  llvm::SmallString<128> Path;
  int FD;
  if (llvm::sys::fs::createTemporaryFile(Prefix, "td", FD, Path))
    return std::string();
  llvm::sys::fs::closeFile(FD);
  return std::string(Path);
}

/// Parses the `.td` file \p Path with TableGen and calls \p Action on its
/// records; false if TableGen or the action reported an error (or exited).
inline llvm::TableGenMainFn *CurrentAction = nullptr;

/// Runs the fuzzer's action, then keeps the parse's classes alive for good.
/// LLVM 14's TableGen caches each instantiation of a class (VarDefInit) in a
/// process-wide table keyed by the class's address, with the record it made:
/// once a parse's records are freed, a later parse whose class lands at a
/// freed class's address would be handed a record that no longer exists. A
/// tool parses once; a fuzzer parses thousands of times, so it never lets a
/// class's address be reused (a few kilobytes a parse).
inline bool runAndKeepClasses(llvm::raw_ostream &OS,
                              llvm::RecordKeeper &Records) {
  const bool Failed = CurrentAction(OS, Records);
  using Map = std::remove_reference_t<decltype(Records.getClasses())>;
  for (auto &Class :
       const_cast<std::remove_const_t<Map> &>(Records.getClasses()))
    (void)Class.second.release();
  return Failed;
}

inline bool parseTd(const std::string &Path, llvm::TableGenMainFn *Action) {
  CurrentAction = Action;
  auto *Input = static_cast<llvm::cl::opt<std::string> *>(
      llvm::cl::TopLevelSubCommand->PositionalOpts.front());
  Input->setValue(Path);
  if (setjmp(ExitJump)) {
    InsideParse = false;
    return false;
  }
  // TableGen's lexer reads the source manager's first buffer, and the
  // manager is a global that outlives the call: start each parse afresh, or
  // every input after the first would be parsed as the first.
  llvm::SrcMgr = llvm::SourceMgr();
  InsideParse = true;
  int RC = llvm::TableGenMain("accelgen-fuzzer", &runAndKeepClasses);
  InsideParse = false;
  return RC == 0;
}

} // namespace fuzz
} // namespace accelgen

/// TableGen's PrintFatalError ends in exit(1): inside parseTd, return there.
extern "C" void exit(int Status) {
  if (accelgen::fuzz::InsideParse)
    std::longjmp(accelgen::fuzz::ExitJump, 1);
  using ExitFn = void (*)(int);
  auto Real = reinterpret_cast<ExitFn>(dlsym(RTLD_NEXT, "exit"));
  Real(Status);
  __builtin_unreachable();
}

#endif // ACCELGEN_TESTS_FUZZ_FUZZTABLEGEN_H
