//===- DriverTest.cpp - Targets meet their backends -----------------------===//
//
// The driver resolves a label to a target, its backend and its CPU fallback
// by name (driver/Compilation.h). These tests hold every built-in target to
// a backend this program has and a fallback that runs on the host CPU, and
// check what resolution says when a description gets either wrong.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "driver/Backend.h"
#include "driver/Compilation.h"
#include "driver/HostRun.h"
#include "driver/OutputFolder.h"
#include "target/BuiltinTargets.h"
#include "target/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>

#include <unistd.h>

using namespace accelgen;

namespace {

/// Version "1" of a target named \p Name with backend \p Backend and CPU
/// fallback \p Fallback, as a description would make it.
std::unique_ptr<target::TargetInfo> make(const char *Name, const char *Backend,
                                         const char *Fallback) {
  auto T =
      std::make_unique<target::TargetInfo>(Name, std::vector<std::string>{"1"});
  T->setBackend(Backend);
  T->setCpuFallback(Fallback);
  return T;
}

std::unique_ptr<target::TargetInfo> fallbackNowhere() {
  return make("t-nowhere", "functional-model", "nowhere");
}
std::unique_ptr<target::TargetInfo> fallbackDevice() {
  return make("t-device", "functional-model", "mdla");
}
std::unique_ptr<target::TargetInfo> unknownBackend() {
  return make("t-unknown", "no-such-backend", "cpu");
}

void registerTestTargets() {
  static bool Done = false;
  if (Done)
    return;
  Done = true;
  target::registerBuiltinTargets();
  driver::registerBuiltinBackends();
  target::TargetRegistry::add("t-nowhere", &fallbackNowhere);
  target::TargetRegistry::add("t-device", &fallbackDevice);
  target::TargetRegistry::add("t-unknown", &unknownBackend);
}

std::string resolveError(llvm::StringRef Label, bool NeedBackend = true) {
  registerTestTargets();
  llvm::Expected<driver::ResolvedTarget> T =
      driver::resolveTarget(Label, NeedBackend);
  REQUIRE_FALSE(bool(T));
  return llvm::toString(T.takeError());
}

} // namespace

TEST_CASE("every built-in target's backend and fallback are this program's") {
  target::registerBuiltinTargets();
  driver::registerBuiltinBackends();
  size_t WithBackend = 0;
  for (const std::string &Name : target::TargetRegistry::names()) {
    INFO(Name);
    const target::TargetInfo *T = target::TargetRegistry::get(Name);
    REQUIRE(T);
    if (T->backend().empty())
      continue;
    ++WithBackend;
    // The name the description gives is one a backend registered under.
    const driver::Backend *B = driver::BackendRegistry::get(T->backend());
    REQUIRE(B);
    if (T->cpuFallback().empty()) {
      CHECK(B->runsOnHostCpu());
    } else {
      const target::TargetInfo *F =
          target::TargetRegistry::get(T->cpuFallback());
      REQUIRE(F);
      const driver::Backend *FB = driver::BackendRegistry::get(F->backend());
      REQUIRE(FB);
      CHECK(FB->runsOnHostCpu());
    }
    llvm::Expected<driver::ResolvedTarget> R =
        driver::resolveTarget(Name, /*NeedBackend=*/true);
    REQUIRE_MESSAGE(bool(R), llvm::toString(R.takeError()));
    CHECK(R->Backend == B);
  }
  // ref, cpu, cmsis-nn, mdla and npu at least.
  CHECK(WithBackend >= 5);
}

TEST_CASE("resolution says what is wrong with a target's backend") {
  registerTestTargets();
  CHECK(resolveError("nope1") == "unknown target 'nope1' (targets: " +
                                     llvm::join(driver::targetLabels(), ", ") +
                                     ")");
  CHECK(resolveError("t-unknown1") ==
        "'t-unknown1' can only explain: its description names backend "
        "'no-such-backend', which this accelgen does not have (it has: " +
            llvm::join(driver::BackendRegistry::names(), ", ") + ")");
  // Explaining needs no backend.
  CHECK(bool(driver::resolveTarget("t-unknown1", /*NeedBackend=*/false)));
  CHECK(resolveError("t-nowhere1") ==
        "target 't-nowhere' names 'nowhere' as its CPU fallback, which is "
        "not a target (targets: " +
            llvm::join(driver::targetLabels(), ", ") + ")");
  CHECK(resolveError("t-device1") ==
        "target 't-device' names 'mdla' as its CPU fallback, whose backend "
        "does not run on the host CPU");
}

TEST_CASE("files the user names: links replaced, devices written into") {
  test::TempDir Dir;
  auto Contents = [](const std::string &Path) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    return Buf ? (*Buf)->getBuffer().str() : std::string("<missing>");
  };
  const std::string Victim = Dir.file("victim"), Link = Dir.file("link");
  test::writeFileBytes(Victim, llvm::arrayRefFromStringRef("precious\n"));
  REQUIRE(!llvm::sys::fs::create_link(Victim, Link));
  const std::string From = Dir.file("image");
  test::writeFileBytes(From, llvm::arrayRefFromStringRef("image bytes"));
  // A link is replaced by the file, never written through.
  REQUIRE_FALSE(bool(driver::copyToUserFile(From, Link)));
  CHECK(Contents(Victim) == "precious\n");
  CHECK(Contents(Link) == "image bytes");
  CHECK(llvm::sys::fs::is_regular_file(Link));
  // A folder is an error, and so is a link to one as a folder to write in.
  llvm::Error E = driver::writeUserFile(Dir.path(), "x");
  CHECK(llvm::toString(std::move(E)) == Dir.path() + " is a folder");
  const std::string DirLink = Dir.file("dir-link");
  REQUIRE(!llvm::sys::fs::create_directories(Dir.file("elsewhere")));
  REQUIRE(!llvm::sys::fs::create_link(Dir.file("elsewhere"), DirLink));
  E = driver::makeUserFolder(DirLink);
  CHECK(llvm::toString(std::move(E)) ==
        DirLink + " is a symbolic link; accelgen does not write through "
                  "links (remove it)");
  CHECK_FALSE(bool(driver::makeUserFolder(Dir.file("new/folder"))));
  CHECK(llvm::sys::fs::is_directory(Dir.file("new/folder")));
  // A device is written into and stays a device.
  CHECK_FALSE(bool(driver::writeUserFile("/dev/null", "discarded")));
  llvm::sys::fs::file_status St;
  REQUIRE(!llvm::sys::fs::status("/dev/null", St));
  CHECK(St.type() == llvm::sys::fs::file_type::character_file);
}

TEST_CASE("a killed build's folder in the cache is removed an hour on") {
  test::TempDir Root;
  const std::string Old = Root.file("tmp-killed"),
                    Recent = Root.file("tmp-busy"),
                    Other = Root.file("objects");
  for (const std::string &D : {Old, Recent, Other})
    REQUIRE(!llvm::sys::fs::create_directories(D));
  // Old: last changed two hours ago.
  int FD;
  REQUIRE(!llvm::sys::fs::openFileForRead(Old, FD));
  const auto TwoHoursAgo =
      std::chrono::system_clock::now() - std::chrono::hours(2);
  REQUIRE(!llvm::sys::fs::setLastAccessAndModificationTime(
      FD, llvm::sys::toTimePoint(
              std::chrono::system_clock::to_time_t(TwoHoursAgo))));
  ::close(FD);
  llvm::Expected<std::string> Fresh =
      driver::makeTempFolder(Root.path(), "tmp-");
  REQUIRE(bool(Fresh));
  CHECK_FALSE(llvm::sys::fs::exists(Old));
  CHECK(llvm::sys::fs::is_directory(Recent));
  CHECK(llvm::sys::fs::is_directory(Other));
  CHECK(llvm::sys::fs::is_directory(*Fresh));
}
