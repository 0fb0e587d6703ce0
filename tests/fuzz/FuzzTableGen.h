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
#include "llvm/Support/ManagedStatic.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

#include <csetjmp>
#include <dlfcn.h>
#include <string>

namespace accelgen {
namespace fuzz {

/// Set while TableGen runs inside parseTd.
inline bool InsideParse = false;
inline std::jmp_buf ExitJump;
/// TableGen's input-file option, found once: parseTd resets LLVM's managed
/// statics, the option registry among them, so it cannot be looked up again.
inline llvm::cl::opt<std::string> *InputOption = nullptr;

/// Sets TableGen's options: defs/ (ACCELGEN_FUZZ_DEFS_DIR) on the include path,
/// output to /dev/null.
inline void initTableGen() {
  const char *Argv[] = {
      "accelgen-fuzzer", "-I", ACCELGEN_FUZZ_DEFS_DIR, "-o", "/dev/null",
      "placeholder.td"};
  llvm::cl::ParseCommandLineOptions(6, Argv);
  InputOption = static_cast<llvm::cl::opt<std::string> *>(
      llvm::cl::TopLevelSubCommand->PositionalOpts.front());
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
///
/// TableGen is made to run once per process, and a fuzzer runs it thousands
/// of times, so each parse starts from the state a new process would have:
///  - its lexer reads the source manager's first buffer, and the manager is
///    a global: it is emptied, or every input would be parsed as the first;
///  - LLVM 14 keeps process-wide tables of uniqued values (Record.cpp's
///    context, a ManagedStatic), some keyed by the address of a class record
///    and holding records of the parse that made them (an instantiation of
///    a class caches the record it built): once that parse's records are
///    freed, a later parse whose class lands at the same address would be
///    handed a freed record. llvm_shutdown() after each parse destroys
///    those tables; they are made again when next used.
inline bool parseTd(const std::string &Path, llvm::TableGenMainFn *Action) {
  InputOption->setValue(Path);
  int RC = 1;
  if (!setjmp(ExitJump)) {
    llvm::SrcMgr = llvm::SourceMgr();
    InsideParse = true;
    RC = llvm::TableGenMain("accelgen-fuzzer", Action);
  }
  InsideParse = false;
  llvm::SrcMgr = llvm::SourceMgr();
  llvm::llvm_shutdown();
  return RC == 0;
}

} // namespace fuzz
} // namespace accelgen

/// No leak check, at each input (-detect_leaks=0) or at exit (this): what an
/// abandoned parse allocated is leaked on purpose (see above).
extern "C" const char *__asan_default_options() { return "detect_leaks=0"; }

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
