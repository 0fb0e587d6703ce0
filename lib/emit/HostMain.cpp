//===- HostMain.cpp - A host program around an emitted model --------------===//
//
// main.c reads the inputs from files, runs the model, writes the outputs and,
// through the trace hook, every operator's output in the order of the shared
// reference vectors' layer dumps. `accelgen run` builds it; `accelgen compile
// --main` writes it beside the model.
//
//===----------------------------------------------------------------------===//
#include "emit/CLiteral.h"
#include "emit/ModelEmitter.h"
#include "emit/TemplateRender.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace llvm;

namespace accelgen {
namespace emit {

using tmpl::Value;

std::vector<int32_t> layerDumpTensors(const ir::Graph &G) {
  std::vector<int32_t> Order;
  std::set<int32_t> Seen;
  auto Add = [&](int32_t T) {
    if (T >= 0 && Seen.insert(T).second)
      Order.push_back(T);
  };
  for (int32_t T : G.Outputs)
    Add(T);
  for (const ir::Operator &Op : G.Operators)
    for (int32_t T : Op.Outputs)
      Add(T);
  return Order;
}

Expected<EmittedFile> emitHostMain(const ir::Graph &G,
                                   const EmitOptions &Opts) {
  if (std::string Problem = modelNameProblem(Opts.Name); !Problem.empty())
    return createStringError(inconvertibleErrorCode(), "the name " + Problem);
  Value::List Inputs, Outputs, Layers;
  std::vector<std::string> Arguments;
  auto Info = [&](int32_t T, size_t I) {
    const ir::Tensor &Ten = G.tensor(T);
    return Value(Value::Map{{"index", I},
                            {"tensor", T},
                            {"ctype", cType(Ten.Type)},
                            {"elements", Ten.numElements()},
                            {"bytes", Ten.byteSize()}});
  };
  for (size_t I = 0; I < G.Inputs.size(); ++I) {
    Inputs.push_back(Info(G.Inputs[I], I));
    Arguments.push_back("input" + std::to_string(I));
  }
  for (size_t I = 0; I < G.Outputs.size(); ++I) {
    Outputs.push_back(Info(G.Outputs[I], I));
    Arguments.push_back("output" + std::to_string(I));
  }
  std::vector<int32_t> Dump = layerDumpTensors(G);
  for (size_t K = 0; K < Dump.size(); ++K)
    Layers.push_back(
        Value(Value::Map{{"index", K},
                         {"tensor", Dump[K]},
                         {"bytes", G.tensor(Dump[K]).byteSize()}}));

  tmpl::Bindings B;
  B["BANNER"] = cBanner("main.c.in");
  B["NAME"] = Opts.Name;
  B["UNAME"] = StringRef(Opts.Name).upper();
  B["MODEL"] = commentSafe(Opts.ModelFileName);
  B["VERSION"] = Opts.GeneratorVersion;
  B["INPUTS"] = Value(std::move(Inputs));
  B["OUTPUTS"] = Value(std::move(Outputs));
  B["LAYERS"] = Value(std::move(Layers));
  B["ARGUMENTS"] = join(Arguments, ", ");
  B["ACCELERATOR"] = Opts.Accelerator != nullptr && Opts.Accelerator->HasDevice;
  Expected<std::string> Text = renderTemplate("main.c.in", B);
  if (!Text)
    return Text.takeError();
  return EmittedFile{"main.c", std::move(*Text)};
}

} // namespace emit
} // namespace accelgen
