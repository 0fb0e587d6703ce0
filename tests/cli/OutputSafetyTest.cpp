//===- OutputSafetyTest.cpp - accelgen never loses the user's files -------===//
//
// `compile -o DIR`, `run --outputs DIR` and `explain --dot FILE` write as
// lib/driver/OutputFolder.h says: never through a symbolic link, never
// over a file accelgen did not write, staged so that a failure leaves the
// folder as it was. Each case is checked with the exact one-line error and
// exit code 1, and with the files outside left untouched.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include <atomic>
#include <chrono>
#include <set>
#include <string>

using namespace accelgen;

namespace {

std::string contents(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : "<missing>";
}

void write(const std::string &Path, llvm::StringRef Text) {
  test::writeFileBytes(Path, llvm::arrayRefFromStringRef(Text));
}

test::RunResult compile(const std::string &Out) {
  return test::runAccelgen(
      {"compile", test::exampleModelPath(), "--target", "ref", "-o", Out});
}

} // namespace

TEST_CASE("compile does not write through a symbolic link in -o") {
  test::TempDir Dir;
  std::string Out = Dir.file("out"), Victim = Dir.file("victim.c");
  write(Victim, "precious\n");
  REQUIRE(compile(Out).ExitCode == 0);
  llvm::sys::fs::remove(Out + "/model.c");
  REQUIRE(!llvm::sys::fs::create_link(Victim, Out + "/model.c"));
  test::RunResult R = compile(Out);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: " + Out +
                        ": model.c is a symbolic link; accelgen does not "
                        "write through links (remove it)\n");
  CHECK(contents(Victim) == "precious\n");
}

TEST_CASE("compile does not replace a file it did not write") {
  test::TempDir Dir;
  std::string Out = Dir.file("out");
  REQUIRE(!llvm::sys::fs::create_directories(Out));
  write(Out + "/model.c", "my own model.c\n");
  test::RunResult R = compile(Out);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: " + Out +
                        ": model.c exists and was not written by accelgen (it "
                        "is not in .accelgen-files); remove it or choose "
                        "another folder\n");
  CHECK(contents(Out + "/model.c") == "my own model.c\n");
  // Nothing else was written: the check comes before any write.
  CHECK_FALSE(llvm::sys::fs::exists(Out + "/model.h"));
  CHECK_FALSE(llvm::sys::fs::exists(Out + "/report.json"));
}

TEST_CASE("compile replaces what it wrote and removes what it no longer "
          "writes") {
  test::TempDir Dir;
  std::string Out = Dir.file("out");
  REQUIRE(compile(Out).ExitCode == 0);
  std::string Model = contents(Out + "/model.c");
  // A file of an earlier run that this run does not write.
  write(Out + "/stale.c", "old\n");
  write(Out + "/.accelgen-files",
        contents(Out + "/.accelgen-files") + "stale.c\n");
  write(Out + "/model.c", "edited\n");
  test::RunResult R = compile(Out);
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(contents(Out + "/model.c") == Model);
  CHECK_FALSE(llvm::sys::fs::exists(Out + "/stale.c"));
  // No staging folder is left behind.
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Out, EC), End; It != End && !EC;
       It.increment(EC))
    CHECK_FALSE(llvm::StringRef(llvm::sys::path::filename(It->path()))
                    .startswith(".accelgen-stage"));
}

TEST_CASE("a failed compile leaves the folder as it was") {
  test::TempDir Dir;
  std::string Out = Dir.file("out");
  REQUIRE(compile(Out).ExitCode == 0);
  std::string Report = contents(Out + "/report.json");
  // report.json as a folder cannot be replaced by a file: the run fails
  // after model.c of the new run would have been written.
  llvm::sys::fs::remove(Out + "/report.json");
  REQUIRE(!llvm::sys::fs::create_directories(Out + "/report.json"));
  write(Out + "/model.c", "edited by accelgen's earlier run\n");
  test::RunResult R = compile(Out);
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr ==
        "error: " + Out + ": report.json exists and is not a regular file\n");
  CHECK(contents(Out + "/model.c") == "edited by accelgen's earlier run\n");
}

TEST_CASE("explain --dot replaces a symbolic link instead of writing "
          "through it") {
  test::TempDir Dir;
  std::string Dot = Dir.file("graph.dot"), Victim = Dir.file("victim");
  write(Victim, "precious\n");
  REQUIRE(!llvm::sys::fs::create_link(Victim, Dot));
  test::RunResult R = test::runAccelgen(
      {"explain", test::exampleModelPath(), "--target", "ref", "--dot", Dot});
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(contents(Victim) == "precious\n");
  CHECK(llvm::StringRef(contents(Dot)).startswith("digraph"));
}

TEST_CASE("a manifest line reaching outside the folder removes nothing there") {
  test::TempDir Dir;
  std::string Out = Dir.file("out"), Victim = Dir.file("victim.c");
  write(Victim, "precious\n");
  REQUIRE(compile(Out).ExitCode == 0);
  write(Out + "/.accelgen-files", contents(Out + "/.accelgen-files") +
                                      "../victim.c\n" + Victim + "\n");
  test::RunResult R = compile(Out);
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(contents(Victim) == "precious\n");
  CHECK(contents(Out + "/.accelgen-files").find("victim") == std::string::npos);
}

TEST_CASE("explain --dot into a pipe writes into it and leaves it a pipe") {
  test::TempDir Dir;
  const std::string Fifo = Dir.file("graph.fifo");
  REQUIRE(::mkfifo(Fifo.c_str(), 0600) == 0);
  // Held open for reading (and writing, so that nothing blocks): what
  // accelgen writes waits in the pipe; the example's graph is far below a
  // pipe's 64 KiB.
  const int FD = ::open(Fifo.c_str(), O_RDWR | O_NONBLOCK);
  REQUIRE(FD >= 0);
  test::RunResult R = test::runAccelgen(
      {"explain", test::exampleModelPath(), "--target", "ref", "--dot", Fifo});
  std::string Read;
  char Buf[4096];
  for (ssize_t N; (N = ::read(FD, Buf, sizeof(Buf))) > 0;)
    Read.append(Buf, size_t(N));
  ::close(FD);
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(llvm::StringRef(Read).startswith("digraph"));
  llvm::sys::fs::file_status St;
  REQUIRE(!llvm::sys::fs::status(Fifo, St, /*Follow=*/false));
  CHECK(St.type() == llvm::sys::fs::file_type::fifo_file);
  // Nothing is rendered beside a pipe.
  CHECK_FALSE(llvm::sys::fs::exists(Fifo + ".svg"));
}

TEST_CASE("a compile waits for the folder's lock") {
  // A writer of the folder holds .accelgen-lock: a compile into it waits,
  // writing nothing, until the lock is released.
  test::TempDir Dir;
  const std::string Out = Dir.file("out");
  REQUIRE(!llvm::sys::fs::create_directories(Out));
  int FD;
  REQUIRE(!llvm::sys::fs::openFileForReadWrite(
      Out + "/.accelgen-lock", FD, llvm::sys::fs::CD_OpenAlways,
      llvm::sys::fs::OF_None));
  REQUIRE(!llvm::sys::fs::lockFile(FD));
  std::atomic<bool> Done{false};
  test::RunResult R;
  std::thread Compile([&] {
    R = compile(Out);
    Done = true;
  });
  std::this_thread::sleep_for(std::chrono::seconds(1));
  CHECK_FALSE(Done);
  CHECK_FALSE(llvm::sys::fs::exists(Out + "/model.c"));
  REQUIRE(!llvm::sys::fs::unlockFile(FD));
  ::close(FD);
  Compile.join();
  INFO(R.Stderr);
  CHECK(R.ExitCode == 0);
  CHECK(llvm::sys::fs::exists(Out + "/model.c"));
}

TEST_CASE("compiles into one new folder at once both succeed") {
  test::TempDir Dir;
  for (int Round = 0; Round < 5; ++Round) {
    const std::string Out = Dir.file("out" + std::to_string(Round));
    std::vector<test::RunResult> Results(2);
    std::vector<std::thread> Threads;
    for (test::RunResult &Res : Results)
      Threads.emplace_back([&Res, &Out] { Res = compile(Out); });
    for (std::thread &T : Threads)
      T.join();
    for (const test::RunResult &Res : Results) {
      INFO("round " << Round << ": " << Res.Stderr);
      CHECK(Res.ExitCode == 0);
    }
    // The manifest names exactly the files there (besides itself and the
    // lock), so the next compile into the folder works.
    std::set<std::string> Listed, Present;
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    const std::string Manifest = contents(Out + "/.accelgen-files");
    llvm::StringRef(Manifest).split(Lines, '\n', -1, false);
    for (llvm::StringRef L : Lines)
      if (!L.startswith("#"))
        Listed.insert(L.str());
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Out, EC), End;
         It != End && !EC; It.increment(EC)) {
      llvm::StringRef Rel =
          llvm::StringRef(It->path()).drop_front(Out.size() + 1);
      if (It->type() != llvm::sys::fs::file_type::directory_file &&
          Rel != ".accelgen-files" && Rel != ".accelgen-lock")
        Present.insert(Rel.str());
    }
    INFO("round " << Round);
    CHECK(Listed == Present);
  }
}

TEST_CASE("a full disk is one error line, not a crash") {
  // /dev/full fails every write with ENOSPC, as a full disk does.
  if (!llvm::sys::fs::exists("/dev/full")) {
    MESSAGE("skipped: this system has no /dev/full");
    return;
  }
  test::RunResult R = test::runAccelgen({"explain", test::exampleModelPath(),
                                         "--target", "ref", "--dot",
                                         "/dev/full"});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr == "error: /dev/full: cannot write /dev/full: No space left "
                    "on device\n");
  // Standard output on a full disk.
  R = test::runProgram("/bin/sh",
                       {"-c", "exec \"$0\" targets > /dev/full",
                        test::accelgenPath()});
  CHECK(R.ExitCode == 1);
  CHECK(R.Stderr ==
        "error: cannot write the standard output: No space left on device\n");
}
