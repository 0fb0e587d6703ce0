//===- CommandLine.h - Option parsing with one-line errors ------*- C++ -*-===//
//
// LLVM's option parser reports a mistake over several lines ("<tool>: Unknown
// command line argument '-x'.  Try: ...", "Did you mean ...?"), some of them
// written straight to standard error rather than to the stream it is given.
// parseOptions runs it with standard error captured and keeps the first
// line, without the tool's name and the "Try:" advice, so that both tools
// report option mistakes as one `error:` line like every other error.
// Header-only, shared by accelgen and accelgen-tblgen.
//
//===----------------------------------------------------------------------===//
#ifndef ACCELGEN_SUPPORT_COMMANDLINE_H
#define ACCELGEN_SUPPORT_COMMANDLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <optional>
#include <string>
#include <unistd.h>

namespace accelgen {
namespace support {

/// Parses the command line; on a mistake returns its message as one line
/// ("Unknown command line argument '-x'", "for the --target option: requires
/// a value").
inline std::optional<std::string>
parseOptions(int Argc, const char *const *Argv, llvm::StringRef Overview) {
  std::string Errors;
  llvm::raw_string_ostream ErrOS(Errors);
  // Standard error goes to a temporary file while LLVM parses.
  llvm::errs().flush();
  std::FILE *Captured = std::tmpfile();
  int Saved = Captured ? ::dup(2) : -1;
  if (Saved >= 0)
    ::dup2(::fileno(Captured), 2);
  bool Ok = llvm::cl::ParseCommandLineOptions(Argc, Argv, Overview, &ErrOS);
  llvm::errs().flush();
  if (Saved >= 0) {
    ::dup2(Saved, 2);
    ::close(Saved);
    std::rewind(Captured);
    char Buf[4096];
    size_t N = std::fread(Buf, 1, sizeof(Buf), Captured);
    Errors = std::string(Buf, N) + ErrOS.str();
  }
  if (Captured)
    std::fclose(Captured);
  if (Ok)
    return std::nullopt;
  llvm::StringRef First = llvm::StringRef(Errors).ltrim().split('\n').first;
  // LLVM prefixes "<program>: " or "<program> <command>: ".
  size_t Colon = First.find(": ");
  if (Colon != llvm::StringRef::npos && !First.take_front(Colon).contains('\''))
    First = First.drop_front(Colon + 2);
  First = First.split("  Try:").first.rtrim(". ");
  if (First.empty())
    First = "invalid command line";
  return First.str();
}

} // namespace support
} // namespace accelgen

#endif // ACCELGEN_SUPPORT_COMMANDLINE_H
