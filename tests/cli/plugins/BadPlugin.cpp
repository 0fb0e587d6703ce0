//===- BadPlugin.cpp - Plugin modules accelgen must refuse
//-----------------===//
//
// Compiled once per kind of defect (ACCELGEN_BAD_PLUGIN):
//   no_entry      exports no entry point;
//   old_version   built against accelgen 0.0.1;
//   old_abi       a plugin interface that does not exist;
//   clash         a target named "ref", which is built in;
//   drifted       built against an SDK with one header changed (its
//                 target/AbiFingerprint.h is found first; CMakeLists.txt);
//   null_factory  a factory that returns no target;
//   misnamed      a factory that builds a target of another name;
//   bad_family    a kernel family for CONV_2D, which the reference kernels
//                 compute (the registry refuses it, and so the module).
// No other factory is ever called: each is refused before.
//
//===----------------------------------------------------------------------===//
#include "target/Plugin.h"

#define KIND_no_entry 1
#define KIND_old_version 2
#define KIND_old_abi 3
#define KIND_clash 4
#define KIND_drifted 5
#define KIND_null_factory 6
#define KIND_misnamed 7
#define KIND_bad_family 8
#define CAT(A, B) A##B
#define KIND(K) CAT(KIND_, K)

static std::unique_ptr<accelgen::target::TargetInfo> neverCalled() {
  return nullptr;
}

#if KIND(ACCELGEN_BAD_PLUGIN) == KIND_bad_family
static llvm::Expected<accelgen::kernels::KernelCall>
neverBuilds(const accelgen::kernels::detail::OpContext &) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "never");
}

static std::vector<accelgen::kernels::KernelFamilyRegistration> families() {
  using namespace accelgen::kernels;
  KernelFamilyRegistration R;
  R.Family = {"conv_again",
              "bad_conv_again_params",
              "bad_conv_again.h",
              false,
              false,
              {{ArgKind::Params, -1, "params"}, {ArgKind::Output, -1, "output"}},
              {{"unused", "int32_t", 0, false}}};
  R.Functions = {{"bad_conv_again_i8",
                  nullptr,
                  accelgen::ir::DType::I8,
                  accelgen::ir::DType::I8,
                  "",
                  {accelgen::ir::DType::I8, std::nullopt, std::nullopt},
                  accelgen::ir::DType::I8}};
  R.Rows = {{"CONV_2D", "bad_conv_again_i8"}};
  R.Builder = &neverBuilds;
  R.Files = {{"bad_conv_again.h", "/* nothing */\n"}};
  return {std::move(R)};
}
#endif

#if KIND(ACCELGEN_BAD_PLUGIN) == KIND_no_entry
extern "C" __attribute__((visibility("default"))) int notAnEntryPoint() {
  return neverCalled() ? 1 : 0;
}
#else
extern "C" __attribute__((visibility("default")))
const accelgen::target::PluginInfo *
accelgenPluginInfo() {
#if KIND(ACCELGEN_BAD_PLUGIN) == KIND_old_version
  static const accelgen::target::PluginInfo Info = {
      accelgen::target::PluginAbiVersion, "0.0.1", ACCELGEN_ABI_FINGERPRINT,
      "old", &neverCalled};
#elif KIND(ACCELGEN_BAD_PLUGIN) == KIND_old_abi
  static const accelgen::target::PluginInfo Info = {
      accelgen::target::PluginAbiVersion + 41, ACCELGEN_VERSION_STRING,
      ACCELGEN_ABI_FINGERPRINT, "abi", &neverCalled};
#elif KIND(ACCELGEN_BAD_PLUGIN) == KIND_null_factory
  static const accelgen::target::PluginInfo Info = {
      accelgen::target::PluginAbiVersion, ACCELGEN_VERSION_STRING,
      ACCELGEN_ABI_FINGERPRINT, "nothing", &neverCalled};
#elif KIND(ACCELGEN_BAD_PLUGIN) == KIND_misnamed
  static const accelgen::target::PluginInfo Info = {
      accelgen::target::PluginAbiVersion, ACCELGEN_VERSION_STRING,
      ACCELGEN_ABI_FINGERPRINT, "stated", [] {
        return std::make_unique<accelgen::target::TargetInfo>(
            "built", std::vector<std::string>{"1"});
      }};
#elif KIND(ACCELGEN_BAD_PLUGIN) == KIND_bad_family
  static const accelgen::target::PluginInfo Info = {
      accelgen::target::PluginAbiVersion,
      ACCELGEN_VERSION_STRING,
      ACCELGEN_ABI_FINGERPRINT,
      "badfamily",
      [] {
        return std::make_unique<accelgen::target::TargetInfo>(
            "badfamily", std::vector<std::string>{"1"});
      },
      &families};
#elif KIND(ACCELGEN_BAD_PLUGIN) == KIND_drifted
  static const accelgen::target::PluginInfo Info = {
      accelgen::target::PluginAbiVersion, ACCELGEN_VERSION_STRING,
      ACCELGEN_ABI_FINGERPRINT, "drifted", &neverCalled};
#else
  static const accelgen::target::PluginInfo Info = {
      accelgen::target::PluginAbiVersion, ACCELGEN_VERSION_STRING,
      ACCELGEN_ABI_FINGERPRINT, "ref", &neverCalled};
#endif
  return &Info;
}
#endif
