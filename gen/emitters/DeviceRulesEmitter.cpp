//===- DeviceRulesEmitter.cpp - DeviceRules.inc ---------------------------===//
//
// Emits a target's device semantics as plain tables (target/DeviceRules.h):
// its layouts, then per version the layouts and residency in force for every
// operator, a row per operator named by a rule (sorted by name, so lookups
// bisect) and the storage conversions. createTargetInfo() (OpSetups.inc)
// hands the tables to the TargetInfo.
//
//===----------------------------------------------------------------------===//
#include "constraint/Escape.h"
#include "emitters/EmitterSupport.h"
#include "emitters/Emitters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace accelgen {
namespace gen {

namespace {

class DeviceRulesEmitter {
public:
  explicit DeviceRulesEmitter(const TargetModel &M) : M(M) {}

  void run(raw_ostream &OS) {
    emitBanner(OS, M, "-gen-device-rules");
    std::string NS = targetNamespace(M);
    OS << formatv(R"(#ifdef GET_DEVICE_RULES_DECL
#undef GET_DEVICE_RULES_DECL
namespace {0} {{
/// How each version of the device computes and stores differently from the
/// model: layouts, storage conversions, intermediates kept in the device.
extern const accelgen::target::DeviceRulesDesc TargetDeviceRules;
} // namespace {0}
#endif // GET_DEVICE_RULES_DECL

#ifdef GET_DEVICE_RULES_IMPL
#undef GET_DEVICE_RULES_IMPL
)",
                  NS);
    if (M.FunctionalModel)
      OS << R"(// The functional model's limits (program/DeviceLimits.h, in the
// accelgen_device_limits library every target library links).
namespace accelgen::program {
bool checkDeviceLimits(const accelgen::ir::Graph &G,
                       const accelgen::ir::Operator &Op,
                       std::vector<accelgen::target::Rejection> &Why);
} // namespace accelgen::program

)";
    OS << formatv(R"(namespace {0} {{
namespace {{

)",
                  NS);
    if (!M.Layouts.empty()) {
      OS << "/// Name, most channels, channel padding in elements and in "
            "bytes.\n"
            "const accelgen::target::LayoutDesc DeviceLayouts[] = {\n";
      for (const LayoutDef &L : M.Layouts)
        OS << formatv("    {{{0}, {1}, {2}, {3}}, // {4}\n", cppString(L.Name),
                      L.MaxChannels, L.ChannelPixels, L.ChannelBytes,
                      commentText(L.Key));
      OS << "};\n\n";
    }
    for (unsigned V = 0; V < M.Device.size(); ++V)
      emitVersionRows(OS, V);
    OS << "const accelgen::target::DeviceVersionDesc DeviceVersions[] = {\n";
    for (unsigned V = 0; V < M.Device.size(); ++V) {
      const DeviceAt &At = M.Device[V];
      OS << formatv(
          "    {{{0}, {1}, {2}, {3}, {4}, {5}}, // {6}\n", mask(At.Layouts),
          At.KeepsFused ? "true" : "false",
          At.Ops.empty() ? "nullptr" : "DeviceOps" + itostr(V), At.Ops.size(),
          At.Conversions.empty() ? "nullptr" : "DeviceStorage" + itostr(V),
          At.Conversions.size(), commentText(M.versionLabel(V)));
    }
    OS << formatv(R"(};

} // namespace

const accelgen::target::DeviceRulesDesc TargetDeviceRules = {{
    {0}, {1}, {2}, DeviceVersions, {3}};

} // namespace {4}
#endif // GET_DEVICE_RULES_IMPL
)",
                  M.FunctionalModel ? "&accelgen::program::checkDeviceLimits"
                                    : "nullptr",
                  M.Layouts.empty() ? "nullptr" : "DeviceLayouts",
                  M.Layouts.size(), M.Device.size(), NS);
  }

private:
  const TargetModel &M;

  /// A mask over M.Layouts, as hexadecimal.
  static std::string mask(const std::vector<unsigned> &Layouts) {
    uint32_t Mask = 0;
    for (unsigned I : Layouts)
      Mask |= 1u << I;
    return formatv("{0:x}", Mask).str();
  }

  static std::string dtype(StringRef Name) {
    return "accelgen::ir::DType::" + Name.upper();
  }

  void emitVersionRows(raw_ostream &OS, unsigned V) {
    const DeviceAt &At = M.Device[V];
    if (!At.Ops.empty()) {
      OS << formatv(
          "/// {0}: operators with rules of their own.\n"
          "const accelgen::target::DeviceOpRule DeviceOps{1}[] = {{\n",
          commentText(M.versionLabel(V)), V);
      for (const DeviceAt::OpRule &R : At.Ops)
        OS << formatv("    {{{0}, {1}, {2}},\n", cppString(R.Op->name()),
                      mask(R.Layouts), R.KeepsFused ? "true" : "false");
      OS << "};\n\n";
    }
    if (!At.Conversions.empty()) {
      OS << formatv("/// {0}: types stored converted.\n"
                    "const accelgen::target::DeviceStorageRule "
                    "DeviceStorage{1}[] = {{\n",
                    commentText(M.versionLabel(V)), V);
      for (const DeviceAt::Storage &S : At.Conversions) {
        StringRef Scheme = S.Scheme;
        OS << formatv("    {{{0}, {1}, {2}, {3}}, // {4}\n", dtype(S.Type),
                      Scheme.startswith("symmetric") ? "true" : "false",
                      Scheme.endswith("per_channel") ? "true" : "false",
                      dtype(S.StoredAs), commentText(S.Scheme));
      }
      OS << "};\n\n";
    }
  }
};

} // namespace

void emitDeviceRules(const TargetModel &M, raw_ostream &OS) {
  DeviceRulesEmitter(M).run(OS);
}

} // namespace gen
} // namespace accelgen
