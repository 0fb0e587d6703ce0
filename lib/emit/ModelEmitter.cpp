//===- ModelEmitter.cpp - A graph as a self-contained C99 project ---------===//
//
// Emission runs in three steps: every operator's kernel call is computed and
// printed (failing on the first operator the target cannot run), the tensors
// those calls touch are collected (constants become arrays, arena tensors
// pointers at their planned offsets, shapes `ref_shape` constants), and the
// templates of templates/ lay the pieces out. Only what some call uses is
// emitted, so the output compiles without unused-variable warnings.
//
//===----------------------------------------------------------------------===//
#include "emit/ModelEmitter.h"
#include "emit/CLiteral.h"
#include "emit/CascadeEmitter.h"
#include "emit/KernelFiles.h"
#include "emit/ParamPrinter.h"
#include "emit/TemplateRender.h"

#include "analysis/ModelStats.h"
#include "ir/Calls.h"
#include "ir/Placement.h"
#include "ir/Verifier.h"
#include "kernels/KernelParams.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace accelgen {
namespace emit {

using tmpl::Value;

namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// ", scale 0.5, zero point -128" for a comment, ", 64 scales along axis 0"
/// for per-channel quantization, "" for none.
std::string quantText(const ir::Tensor &T) {
  if (!T.Quant || T.Quant->Scales.empty())
    return "";
  if (T.Quant->isPerChannel())
    return formatv(", {0} scales along axis {1}", T.Quant->Scales.size(),
                   T.Quant->Axis)
        .str();
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.9g", T.Quant->scale());
  return formatv(", scale {0}, zero point {1}", Buf, T.Quant->zeroPoint())
      .str();
}

/// A tensor name for a comment: made safe, and cut after 80 characters
/// (converters join whole layer paths into names).
std::string commentName(StringRef Name) {
  std::string S = commentSafe(Name);
  if (S.size() > 80)
    S = S.substr(0, 77) + "...";
  return S;
}

/// "[1, 49, 10, 1]".
std::string shapeText(const ir::Tensor &T) {
  std::string S = "[";
  for (size_t I = 0; I < T.Shape.size(); ++I)
    S += (I ? ", " : "") + std::to_string(T.Shape[I]);
  return S + "]";
}

/// Joins \p Words into a call statement indented by two spaces, wrapping
/// before 80 columns with continuation lines aligned after the parenthesis.
std::string wrapCall(StringRef Function, ArrayRef<std::string> Args,
                     StringRef Indent = "  ") {
  std::string Out = (Indent + Function + "(").str();
  const size_t Align = Out.size();
  size_t Column = Out.size();
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Word = Args[I] + (I + 1 < Args.size() ? "," : ");");
    if (I && Column + 1 + Word.size() > 80) {
      Out += "\n" + std::string(Align, ' ');
      Column = Align;
    } else if (I) {
      Out += " ";
      ++Column;
    }
    Out += Word;
    Column += Word.size();
  }
  if (Args.empty())
    Out += ");";
  return Out;
}

/// report.json's entry for operator \p Index, which device \p D runs.
json::Object operatorEntry(const ir::Graph &G, size_t Index, ir::Device D) {
  const ir::Operator &Op = G.Operators[Index];
  json::Array Ins, Outs;
  for (int32_t T : Op.Inputs)
    Ins.push_back(T);
  for (int32_t T : Op.Outputs)
    Outs.push_back(T);
  return json::Object{{"index", static_cast<int64_t>(Index)},
                      {"type", Op.Type},
                      {"placement", ir::deviceName(D)},
                      {"macs", analysis::operatorMacs(G, Op)},
                      {"inputs", std::move(Ins)},
                      {"outputs", std::move(Outs)}};
}

/// The entry of operator \p Index, which the CPU runs with \p Kernel.
json::Object cpuEntry(const ir::Graph &G, size_t Index, StringRef Kernel) {
  json::Object R = operatorEntry(G, Index, ir::Device::Cpu);
  R["kernel"] = Kernel.str(); // a json::Value would keep the StringRef
  return R;
}

/// What the graphs of one model share when its operators call graphs or
/// use variables (docs/control-flow.md).
struct CallContext {
  const ir::Model *Model = nullptr;
  ir::VariableTable Variables;
  /// The graphs the main graph calls, directly or not, in index order.
  std::vector<size_t> Graphs;
  /// The flag of each CALL_ONCE, by (graph, operator), numbered in that
  /// order.
  std::map<std::pair<size_t, size_t>, int64_t> OnceFlags;
  /// What each called graph's writer gave: its file, the kernels it calls
  /// and its report entry.
  std::vector<EmittedFile> Files;
  std::set<std::string> Functions;
  json::Array Report;

  bool empty() const {
    return Graphs.empty() && Variables.Variables.empty() && OnceFlags.empty();
  }
};

/// Collects what the emitted code refers to while the calls are printed.
class ModelWriter {
public:
  /// \p Graph is G's index in the model (0: the main one, whose files are
  /// model.c and model.h; another gives graph<Graph>.c); \p Calls what the
  /// model's graphs share, null when none calls another or uses a variable.
  ModelWriter(const ir::Graph &G, const EmitOptions &Opts,
              std::optional<plan::CascadePlan> Cascading,
              CallContext *Calls = nullptr, size_t Graph = 0)
      : G(G), Opts(Opts), Cascading(std::move(Cascading)),
        Plan(this->Cascading    ? this->Cascading->Memory
             : Opts.Accelerator ? Opts.Accelerator->Plan
                                : plan::planMemory(G)),
        Calls(Calls), GraphIndex(Graph) {}

  Error run(EmittedModel &Out);

private:
  /// The expression for tensor \p T's data, recording that it is used.
  std::string data(int32_t T) {
    if (T < 0)
      return "NULL";
    const ir::Tensor &Ten = G.tensor(T);
    if (Ten.IsConstant)
      UsedConstants.insert(T);
    else
      UsedArena.insert(T);
    if (Stripe && !Ten.IsConstant)
      return Stripe->data(T);
    return "t" + std::to_string(T);
  }
  std::string shape(int32_t T) {
    UsedShapes.insert(T);
    if (Stripe && !G.tensor(T).IsConstant)
      return Stripe->shape(T);
    return "&t" + std::to_string(T) + "_shape";
  }

  /// The arguments of reference call \p C, its parameters passed as
  /// \p Argument; the arrays of shapes and data a concatenation takes are
  /// declared in \p Block, named after \p Prefix.
  std::vector<std::string> referenceArguments(const kernels::KernelCall &C,
                                              const std::string &Argument,
                                              const std::string &Prefix,
                                              std::string &Block);
  /// Prints operator \p Index; into \p Piece instead of \p Ops when given
  /// (a member of a cascade, printed with Stripe set).
  Error emitOperator(size_t Index, Value::List &Ops,
                     std::set<std::string> &Functions, json::Array &Report,
                     CascadeMember *Piece = nullptr);
  void emitStripeCall(size_t Index, const StripeCall &S, json::Array &Report,
                      CascadeMember &Piece);
  Error emitCascade(const plan::Cascade &C, Value::List &Ops,
                    std::set<std::string> &Functions, json::Array &Report);
  void emitRegion(const OffloadRegion &R, Value::List &Ops,
                  json::Array &Report);
  Value tensorInfo(int32_t T, StringRef Role, size_t Index);
  /// The statements of operator \p Index, which the generated code runs
  /// itself (ir::runByHost), and what report.json says runs it.
  Error emitHostOperator(size_t Index, Value::List &Ops, json::Array &Report,
                         CascadeMember *Piece);
  /// An address constant of tensor \p T's bytes, for a file-scope
  /// initializer.
  std::string address(int32_t T);

  const ir::Graph &G;
  const EmitOptions &Opts;
  std::optional<plan::CascadePlan> Cascading;
  plan::MemoryPlan Plan;
  /// The kernels Opts.CpuKernels specialised, which replace the reference
  /// ones.
  std::vector<CpuKernel> CpuKernels;
  /// Set while a cascade's operator is printed: data and shapes of computed
  /// tensors become the stripe's.
  StripeNames *Stripe = nullptr;
  std::set<int32_t> UsedConstants, UsedArena, UsedShapes;
  CallContext *Calls;
  size_t GraphIndex;
  /// The variable each handle tensor names (VariableTable::handles), once
  /// a variable operator asks.
  std::optional<std::map<int32_t, int32_t>> Handles;
};

Value ModelWriter::tensorInfo(int32_t T, StringRef Role, size_t Index) {
  const ir::Tensor &Ten = G.tensor(T);
  Value::Map M;
  M["role"] = Role;
  M["index"] = Index;
  M["tensor"] = T;
  M["name"] = commentName(Ten.Name);
  M["ctype"] = cType(Ten.Type);
  M["shape"] = shapeText(Ten);
  M["quant"] = quantText(Ten);
  M["elements"] = Ten.numElements();
  M["bytes"] = Ten.byteSize();
  M["in_place"] = !Plan.find(T) && !Ten.IsConstant;
  if (const plan::Buffer *B = Plan.find(T)) {
    M["offset"] = B->Offset;
    M["source"] = "arena.bytes + " + std::to_string(B->Offset);
  } else {
    M["offset"] = 0;
    // An input read in place is bound in invoke() only if an operator's
    // call there reads it (an accelerator may read it instead).
    M["source"] = Role == "input" ? std::string() : data(T);
  }
  return Value(std::move(M));
}

std::vector<std::string>
ModelWriter::referenceArguments(const kernels::KernelCall &C,
                                const std::string &Argument,
                                const std::string &Prefix, std::string &Block) {
  using kernels::ArgKind;
  auto In = [&](size_t I) {
    return I < C.DataInputs.size() ? C.DataInputs[I] : -1;
  };
  const int32_t Output = C.Output;
  std::vector<std::string> Args;
  for (const kernels::KernelArgInfo &A : kernels::familyOf(C.Params).Args) {
    switch (A.Kind) {
    case ArgKind::Params:
    case ArgKind::Fields:
      Args.push_back(Argument);
      break;
    case ArgKind::Shape:
      Args.push_back(shape(In(A.Operand)));
      break;
    case ArgKind::Data:
    case ArgKind::State:
      Args.push_back(data(In(A.Operand)));
      break;
    case ArgKind::OutputShape:
      Args.push_back(shape(Output));
      break;
    case ArgKind::Output:
      Args.push_back(data(Output));
      break;
    case ArgKind::Result:
      Args.push_back(data(C.Results.at(A.Operand)));
      break;
    case ArgKind::Scratch:
      // The call's own working memory, whole 8-byte words.
      Block += formatv("    static uint64_t {0}_scratch[{1}];\n", Prefix,
                       std::max<int64_t>((C.ScratchBytes + 7) / 8, 1))
                   .str();
      Args.push_back(Prefix + "_scratch");
      break;
    case ArgKind::Count:
      Args.push_back(Stripe ? Stripe->count(Output)
                            : intLiteral(G.tensor(Output).numElements()));
      break;
    case ArgKind::ElementSize:
      // The result's element (a SELECT_V2's input 0 is its condition).
      Args.push_back(unsignedLiteral(ir::dtypeSize(G.tensor(Output).Type)));
      break;
    case ArgKind::InputShapes:
    case ArgKind::Inputs: {
      // Concatenation: arrays of every input's shape and data.
      const bool Shapes = A.Kind == ArgKind::InputShapes;
      std::string Name = Prefix + (Shapes ? "_shapes" : "_inputs");
      std::vector<std::string> Elems;
      for (int32_t T : C.DataInputs)
        Elems.push_back(Shapes ? shape(T) : data(T));
      std::string Type =
          Shapes ? "const ref_shape *const"
                 : ("const " + cType(G.tensor(Output).Type) + " *const").str();
      Block +=
          formatv("    {0} {1}[] = {{{2}};\n", Type, Name, join(Elems, ", "))
              .str();
      Args.push_back(Name);
      break;
    }
    }
  }
  return Args;
}

Error ModelWriter::emitOperator(size_t Index, Value::List &Ops,
                                std::set<std::string> &Functions,
                                json::Array &Report, CascadeMember *Piece) {
  const ir::Operator &Op = G.Operators[Index];
  auto Unsupported = [&](const Twine &Reason) {
    return makeError(formatv("operator {0} ({1}) is not supported by target "
                             "{2}: {3}",
                             Index, Op.Type, Opts.Target, Reason.str()));
  };
  if (ir::runByHost(Op.code()))
    return emitHostOperator(Index, Ops, Report, Piece);
  Expected<std::vector<kernels::KernelCall>> Calls =
      kernels::computeKernelCalls(G, Op);
  if (!Calls)
    return Unsupported(
        kernels::kernelCallReason(toString(Calls.takeError()), Op.Type));
  for (int32_t T : Op.Outputs)
    if (T < 0 || !Plan.find(T))
      return Unsupported("its output is not a tensor in working memory");
  for (const kernels::KernelCall &C : *Calls) {
    for (int32_t T : C.DataInputs)
      if (T >= 0 && !G.tensor(T).IsConstant && !Plan.find(T) &&
          !(Cascading && plan::inputInPlace(G, T, Cascading->Options)))
        return Unsupported(formatv("input tensor {0} has no data", T));
    for (int32_t T : C.DataInputs)
      if (T >= 0 && G.tensor(T).IsConstant &&
          static_cast<int64_t>(G.tensor(T).Data.size()) !=
              G.tensor(T).byteSize())
        return Unsupported(formatv("constant tensor {0} has {1} bytes of "
                                   "data for {2} bytes of shape",
                                   T, G.tensor(T).Data.size(),
                                   G.tensor(T).byteSize()));
    // Shapes must fit the kernels' ref_shape.
    for (int32_t T : C.DataInputs)
      if (T >= 0)
        if (Expected<ref_shape> S = kernels::toRefShape(G.tensor(T).Shape); !S)
          return Unsupported(toString(S.takeError()));
    if (Expected<ref_shape> S = kernels::toRefShape(G.tensor(C.Output).Shape);
        !S)
      return Unsupported(toString(S.takeError()));
  }
  // An operator with several results runs one reference call per result,
  // each writing its own tensor whole.
  if (Calls->size() > 1 && Piece)
    return Unsupported("its results are written by separate calls, which a "
                       "stripe cannot");
  kernels::KernelCall *Call = &Calls->front();

  const std::string Prefix = "op" + std::to_string(Index);
  Expected<PrintedParams> Params = printParams(Call->Params, Prefix);
  if (!Params)
    return Unsupported(toString(Params.takeError()));

  const int32_t Output = Call->Output;
  const plan::Buffer *OutBuf = Plan.find(Output);
  // A view whose output shares its input's bytes (directly, or through the
  // bytes the input itself shares) copies nothing.
  const plan::Buffer *InBuf =
      Call->DataInputs.empty() ? nullptr : Plan.find(Call->DataInputs[0]);
  const bool Aliased =
      kernels::familyOf(Call->Params).MayAlias && OutBuf && InBuf &&
      OutBuf->AliasOf >= 0 &&
      OutBuf->AliasOf == (InBuf->AliasOf < 0 ? InBuf->Tensor : InBuf->AliasOf);

  auto In = [&](size_t I) {
    return I < Call->DataInputs.size() ? Call->DataInputs[I] : -1;
  };
  std::string Text, Note, Kernel = Call->Function;
  if (Aliased && Piece)
    return Unsupported("it shares its input's bytes, which a stripe cannot");
  // Ending a cascade, an operator that sums over its input's rows runs the
  // reference kernel's _accumulate form per stripe and _finish after the
  // last (plan::whyNotStripable admits the kernels that have them).
  const bool Accumulating =
      Piece && ir::rowMap(Op.code()).Kind == ir::RowKind::Accumulate;
  // In a tiled cascade the reference kernel, which takes any rectangle.
  const bool Tiled = Piece && Stripe->cascade().tiled();
  // In a cascade, the specialised kernel's stripe variant.
  std::optional<CpuKernel> Special;
  if (Opts.CpuKernels && !Aliased && Calls->size() == 1 && !Accumulating &&
      !Tiled) {
    Expected<std::optional<CpuKernel>> S = Opts.CpuKernels->specialise(
        G, Index, *Call, formatv("{0}_op{1}", Opts.Name, Index).str(),
        /*Stripe=*/Piece != nullptr);
    if (!S)
      return S.takeError();
    Special = std::move(*S);
  }
  std::string Decls = Params->Declarations;
  if (Special) {
    std::vector<std::string> Args;
    for (const CpuKernelArg &A : Special->Arguments)
      switch (A.K) {
      case CpuKernelArg::Data:
        Args.push_back(data(A.Tensor));
        break;
      case CpuKernelArg::InputRow:
        Args.push_back(StripeNames::inputRow());
        break;
      case CpuKernelArg::OutputBegin:
        Args.push_back(StripeNames::outputBegin());
        break;
      case CpuKernelArg::OutputEnd:
        Args.push_back(StripeNames::outputEnd());
        break;
      case CpuKernelArg::Count:
        Args.push_back(Stripe->count(Output));
        break;
      }
    if (Piece)
      Piece->Call = wrapCall(Special->Function, Args, "    ");
    else
      Text = wrapCall(Special->Function, Args);
    Kernel = Special->Function;
    CpuKernels.push_back(std::move(*Special));
  } else if (Aliased) {
    Note = formatv(": tensor {0} shares tensor {1}'s bytes, nothing to copy",
                   Output, In(0))
               .str();
  } else {
    for (size_t R = 0; R < Calls->size(); ++R) {
      const kernels::KernelCall &C = (*Calls)[R];
      // Each result's call its own parameters: "op5", "op5_r1", ...
      std::optional<PrintedParams> More;
      if (R > 0) {
        Expected<PrintedParams> P =
            printParams(C.Params, Prefix + "_r" + std::to_string(R));
        if (!P)
          return Unsupported(toString(P.takeError()));
        More = std::move(*P);
        Decls += More->Declarations;
      }
      const std::string &Argument = More ? More->Argument : Params->Argument;
      std::string Block;
      std::vector<std::string> Args =
          referenceArguments(C, Argument, Prefix, Block);
      std::string One;
      if (Accumulating) {
        std::vector<std::string> Sum = Args;
        Sum.push_back(StripeNames::inputRow());
        Piece->Call = Block + "    if (e[3] < e[4])\n" +
                      wrapCall(C.Function + "_accumulate", Sum, "      ") +
                      "\n    if (e[0] < e[1])\n" +
                      wrapCall(C.Function + "_finish", Args, "      ");
        Piece->Accumulates = true;
        Kernel = C.Function + "_accumulate + _finish";
      } else if (Piece) {
        if (Error E = Stripe->params(C.Params, Argument, Args))
          return Unsupported(toString(std::move(E)));
        Piece->Call = Block + wrapCall(C.Function, Args, "    ");
      } else if (Block.empty()) {
        One = wrapCall(C.Function, Args);
      } else {
        One = "  {\n" + Block + wrapCall(C.Function, Args, "    ") + "\n  }";
      }
      Text += (Text.empty() ? "" : "\n") + One;
      Functions.insert(C.Function);
    }
  }

  if (Piece) {
    Piece->Op = static_cast<int32_t>(Index);
    if (!Special)
      Piece->Decls = StringRef(Decls).rtrim("\n").str();
  }
  Value::List Outputs;
  for (int32_t T : Op.Outputs) {
    data(T);
    Outputs.push_back(
        Value(Value::Map{{"tensor", T}, {"bytes", G.tensor(T).byteSize()}}));
  }
  if (!Piece)
    Ops.push_back(Value(Value::Map{
        {"index", Index},
        {"type", Op.Type},
        {"note", Note},
        {"decls", Aliased || Kernel != Call->Function
                      ? std::string()
                      : StringRef(Decls).rtrim("\n").str()},
        {"call", Text},
        {"outputs", Value(std::move(Outputs))}}));

  json::Object R = cpuEntry(
      G, Index, Aliased ? "none (shares its input's bytes)" : Kernel);
  // Working memory outside the arena (a static buffer of the call's).
  if (!Aliased && !Special && Call->ScratchBytes > 0)
    R["scratch_bytes"] = Call->ScratchBytes;
  // A target with specialised CPU kernels says why one keeps the
  // reference kernel.
  if (Opts.CpuKernels && !Aliased && !Special)
    R["reference_kernel_reason"] =
        Accumulating ? std::string("it sums over a cascade's stripes")
        : Tiled      ? std::string("it runs in a cascade's tiles")
                     : Opts.CpuKernels->referenceReason(G, Index, *Call);
  if (Stripe) {
    R["cascade"] = static_cast<int64_t>(Stripe->cascade().FirstOp);
    R["stripe_rows"] = Stripe->cascade().StripeRows;
    if (Stripe->cascade().tiled())
      R["tile_columns"] = Stripe->cascade().TileCols;
  }
  Report.push_back(std::move(R));
  return Error::success();
}

std::string ModelWriter::address(int32_t T) {
  data(T);
  if (const plan::Buffer *B = Plan.find(T))
    return "arena.bytes + " + std::to_string(B->Offset);
  return "t" + std::to_string(T);
}

Error ModelWriter::emitHostOperator(size_t Index, Value::List &Ops,
                                    json::Array &Report,
                                    CascadeMember *Piece) {
  const ir::Operator &Op = G.Operators[Index];
  auto Unsupported = [&](const Twine &Reason) {
    return makeError(formatv("operator {0} ({1}) is not supported by target "
                             "{2}: {3}",
                             Index, Op.Type, Opts.Target, Reason.str()));
  };
  if (Piece)
    return Unsupported("the generated code runs it on whole tensors, not on "
                       "a stripe");
  if (!Calls)
    return Unsupported("the graphs it calls and the variables it uses are "
                       "not given to the emitter");
  for (int32_t T : Op.Outputs)
    if (T < 0 || !Plan.find(T))
      return Unsupported("its output is not a tensor in working memory");
  for (int32_t T : Op.Inputs)
    if (T < 0 || (!G.tensor(T).IsConstant && !Plan.find(T)))
      return Unsupported(formatv("input tensor {0} has no data", T));
  const std::string &Name = Opts.Name;
  auto Bytes = [&](int32_t T) { return G.tensor(T).byteSize(); };
  auto Copy = [&](const std::string &To, const std::string &From, int64_t N,
                  StringRef Indent) {
    return formatv("{0}memcpy({1}, {2}, {3});\n", Indent, To, From, N).str();
  };
  auto GraphName = [&](int64_t K) {
    return formatv("{0}_graph{1}", Name, K).str();
  };
  auto Variable = [&](int32_t V) {
    return formatv("{0}_variable{1}", Name, V).str();
  };
  // Copies the caller's tensors to graph K's inputs, and its outputs back.
  auto ToInputs = [&](int64_t K, ArrayRef<int32_t> Tensors, StringRef Ind) {
    std::string S;
    for (size_t J = 0; J < Tensors.size(); ++J)
      S += Copy(formatv("{0}_inputs[{1}]", GraphName(K), J).str(),
                data(Tensors[J]), Bytes(Tensors[J]), Ind);
    return S;
  };
  auto FromOutputs = [&](int64_t K, ArrayRef<int32_t> Tensors,
                         StringRef Ind) {
    std::string S;
    for (size_t J = 0; J < Tensors.size(); ++J)
      S += Copy(data(Tensors[J]),
                formatv("{0}_outputs[{1}]", GraphName(K), J).str(),
                Bytes(Tensors[J]), Ind);
    return S;
  };
  std::vector<int64_t> Called = ir::calledGraphs(Op);
  if (!Handles)
    Handles = Calls->Variables.handles(G);
  int32_t Var = -1;
  if (Op.code() == ir::OpCode::VarHandle) {
    Var = Calls->Variables.find(Op);
  } else if (Op.code() == ir::OpCode::ReadVariable ||
             Op.code() == ir::OpCode::AssignVariable) {
    auto It = Handles->find(Op.input(0));
    Var = It == Handles->end() ? -1 : It->second;
  }
  if (Var < 0 && Called.empty())
    return Unsupported("no VAR_HANDLE of its graph names its variable");
  std::string Text, Kernel;
  switch (Op.code()) {
  case ir::OpCode::VarHandle:
    // The handle holds the variable's number, as the reference interpreter
    // writes its resource id.
    Text = formatv("  {0}[0] = {1};\n", data(Op.output(0)), Var);
    Kernel = formatv("generated: the handle of variable {0}", Var);
    break;
  case ir::OpCode::ReadVariable:
    Text = Copy(data(Op.output(0)), Variable(Var), Bytes(Op.output(0)), "  ");
    Kernel = formatv("generated: a copy of variable {0}", Var);
    break;
  case ir::OpCode::AssignVariable:
    Text = Copy(Variable(Var), data(Op.input(1)), Bytes(Op.input(1)), "  ");
    Kernel = formatv("generated: a copy into variable {0}", Var);
    break;
  case ir::OpCode::CallOnce: {
    const int64_t Flag = Calls->OnceFlags.at({GraphIndex, Index});
    Text = formatv("  if (!{0}_called_once[{1}]) {{\n"
                   "    {0}_called_once[{1}] = 1;\n"
                   "    {2}_invoke();\n"
                   "  }\n",
                   Name, Flag, GraphName(Called[0]));
    Kernel = formatv("generated: a call of graph {0}, once", Called[0]);
    break;
  }
  case ir::OpCode::If: {
    ArrayRef<int32_t> Operands = ArrayRef<int32_t>(Op.Inputs).drop_front();
    auto Branch = [&](int64_t K) {
      return ToInputs(K, Operands, "    ") + "    " + GraphName(K) +
             "_invoke();\n" + FromOutputs(K, Op.Outputs, "    ");
    };
    Text = formatv("  if ({0}[0]) {{\n{1}  } else {{\n{2}  }\n",
                   data(Op.input(0)), Branch(Called[0]), Branch(Called[1]));
    Kernel = formatv("generated: a call of graph {0} or {1}", Called[0],
                     Called[1]);
    break;
  }
  case ir::OpCode::While: {
    // As the reference interpreter: the results start as the operands and
    // are the loop's values; the condition graph sees them first.
    const int64_t Cond = Called[0], Body = Called[1];
    Text = ToInputs(Cond, Op.Inputs, "  ");
    for (size_t J = 0; J < Op.Inputs.size(); ++J)
      Text += Copy(data(Op.Outputs[J]), data(Op.Inputs[J]),
                   Bytes(Op.Inputs[J]), "  ");
    Text += formatv("  {0}_invoke();\n"
                    "  while (*(const bool *){0}_outputs[0]) {{\n",
                    GraphName(Cond));
    Text += ToInputs(Body, Op.Outputs, "    ");
    Text += "    " + GraphName(Body) + "_invoke();\n";
    Text += FromOutputs(Body, Op.Outputs, "    ");
    Text += ToInputs(Cond, Op.Outputs, "    ");
    Text += "    " + GraphName(Cond) + "_invoke();\n  }\n";
    Kernel = formatv("generated: a loop of graphs {0} and {1}", Cond, Body);
    break;
  }
  default:
    return Unsupported("no statement generates it");
  }
  Value::List Outputs;
  for (int32_t T : Op.Outputs)
    Outputs.push_back(Value(Value::Map{{"tensor", T}, {"bytes", Bytes(T)}}));
  Ops.push_back(Value(Value::Map{{"index", Index},
                                 {"type", Op.Type},
                                 {"note", std::string()},
                                 {"decls", std::string()},
                                 {"call", StringRef(Text).rtrim("\n").str()},
                                 {"outputs", Value(std::move(Outputs))}}));
  Report.push_back(cpuEntry(G, Index, Kernel));
  return Error::success();
}

/// A cascade member the accelerator runs: one functional-model call per
/// stripe, with the first row each operand's buffer holds.
void ModelWriter::emitStripeCall(size_t Index, const StripeCall &S,
                                 json::Array &Report, CascadeMember &Piece) {
  const plan::Cascade &C = Stripe->cascade();
  std::vector<std::string> Rows;
  for (int32_t T : S.Operands)
    Rows.push_back(T >= 0 && C.windowOf(T) >= 0 ? "lo" + std::to_string(T)
                                                : "0");
  // The loop moves the output's window through its pointer.
  const int32_t Output = S.Operands.back();
  if (C.windowOf(Output) >= 0)
    UsedArena.insert(Output);
  Piece.Op = static_cast<int32_t>(Index);
  Piece.TracesItself = true;
  Piece.Call =
      formatv("    {{\n      const int32_t first_row[{0}] = {{{1}};\n",
              Rows.size(), join(Rows, ", "))
          .str() +
      wrapCall("accel_stripe_run",
               {std::to_string(S.Subgraph), std::to_string(S.Op), "e",
                "first_row", std::to_string(Rows.size()), "arena.bytes",
                "sizeof(arena.bytes)"},
               "      ") +
      "\n    }";
  json::Object R = operatorEntry(G, Index, ir::Device::Accelerator);
  R["cascade"] = C.FirstOp;
  R["stripe_rows"] = C.StripeRows;
  Report.push_back(std::move(R));
}

Error ModelWriter::emitCascade(const plan::Cascade &C, Value::List &Ops,
                               std::set<std::string> &Functions,
                               json::Array &Report) {
  std::vector<CascadeMember> Members;
  std::vector<std::string> Decls;
  for (int32_t K = C.FirstOp; K <= C.LastOp; ++K) {
    StripeNames Names(G, C, K);
    Stripe = &Names;
    CascadeMember M;
    const StripeCall *OnDevice = nullptr;
    if (Opts.Accelerator) {
      auto S = Opts.Accelerator->Stripes.find(K);
      if (S != Opts.Accelerator->Stripes.end())
        OnDevice = &S->second;
    }
    const std::string *OnLibrary = nullptr;
    if (Opts.Accelerator) {
      auto L = Opts.Accelerator->LibraryStripes.find(K);
      if (L != Opts.Accelerator->LibraryStripes.end())
        OnLibrary = &L->second;
    }
    if (OnDevice) {
      emitStripeCall(K, *OnDevice, Report, M);
    } else if (OnLibrary) {
      // The loop slides the output's window and traces its rows through
      // its pointer; in tiles it copies the input's region through its
      // pointer too.
      UsedArena.insert(G.Operators[K].output(0));
      if (C.tiled())
        UsedArena.insert(G.Operators[K].input(0));
      M.Op = K;
      M.Call = *OnLibrary;
      // An operator that sums over its input's rows runs in steps that
      // write nothing.
      M.Accumulates =
          ir::rowMap(G.Operators[K].code()).Kind == ir::RowKind::Accumulate;
      json::Object R = operatorEntry(G, K, ir::Device::Accelerator);
      R["cascade"] = C.FirstOp;
      R["stripe_rows"] = C.StripeRows;
      if (C.tiled())
        R["tile_columns"] = C.TileCols;
      Report.push_back(std::move(R));
    }
    Error E = OnDevice || OnLibrary
                  ? Error::success()
                  : emitOperator(K, Ops, Functions, Report, &M);
    Stripe = nullptr;
    if (E)
      return E;
    M.Prologue = Names.prologue();
    if (!M.Decls.empty())
      Decls.push_back(M.Decls);
    Members.push_back(std::move(M));
  }
  const std::string Name = formatv("cascade{0}", C.FirstOp).str();
  Decls.push_back(cascadeTable(C, Name));
  Ops.push_back(Value(Value::Map{
      {"index", C.FirstOp},
      {"type", "cascade"},
      {"note", formatv(" of operators {0}-{1}: {2}", C.FirstOp, C.LastOp,
                       cascadeStepsText(G, C))
                   .str()},
      {"decls", join(Decls, "\n")},
      {"call", cascadeLoop(G, C, Members, Name)},
      // The loop traces every stripe of every member's output itself.
      {"outputs", Value(Value::List())},
  }));
  return Error::success();
}

/// One call for the operators an accelerator runs; their report entries.
void ModelWriter::emitRegion(const OffloadRegion &R, Value::List &Ops,
                             json::Array &Report) {
  const bool Device = Opts.Accelerator->HasDevice;
  Ops.push_back(Value(Value::Map{{"index", R.FirstOp},
                                 {"type", Device ? std::string("accelerator")
                                                 : G.Operators[R.FirstOp].Type},
                                 {"note", ": " + commentSafe(R.Comment)},
                                 {"decls", ""},
                                 {"call", R.Call},
                                 {"outputs", Value(Value::List())}}));
  for (size_t I = R.FirstOp; I < R.FirstOp + R.NumOps; ++I)
    Report.push_back(operatorEntry(G, I, ir::Device::Accelerator));
}

Error ModelWriter::run(EmittedModel &Out) {
  // Operators, in execution order; an accelerator's regions as one call each.
  Value::List Ops;
  std::set<std::string> Functions;
  json::Array ReportOps;
  std::map<size_t, const OffloadRegion *> Regions;
  if (Opts.Accelerator)
    for (const OffloadRegion &R : Opts.Accelerator->Regions)
      Regions[R.FirstOp] = &R;
  for (size_t I = 0; I < G.Operators.size(); ++I) {
    auto R = Regions.find(I);
    const plan::Cascade *C =
        Cascading ? Cascading->cascadeOf(static_cast<int32_t>(I)) : nullptr;
    if (R != Regions.end() && R->second->NumOps > 0) {
      emitRegion(*R->second, Ops, ReportOps);
      I += R->second->NumOps - 1;
    } else if (C) {
      if (Error E = emitCascade(*C, Ops, Functions, ReportOps))
        return E;
      I = C->LastOp;
    } else if (Error E = emitOperator(I, Ops, Functions, ReportOps)) {
      return E;
    }
  }
  if (Opts.Accelerator)
    for (json::Value &V : ReportOps) {
      json::Object &O = *V.getAsObject();
      auto Extra = Opts.Accelerator->OperatorReport.find(
          static_cast<size_t>(*O.getInteger("index")));
      if (Extra != Opts.Accelerator->OperatorReport.end())
        for (const auto &KV : Extra->second)
          O[KV.first] = KV.second;
    }

  // Inputs and outputs.
  Value::List Inputs, Outputs;
  std::vector<std::string> Parameters;
  for (size_t I = 0; I < G.Inputs.size(); ++I) {
    int32_t T = G.Inputs[I];
    if (!Plan.find(T) &&
        !(Cascading && plan::inputInPlace(G, T, Cascading->Options)))
      return makeError(formatv("input {0} (tensor {1}) is not in working "
                               "memory",
                               I, T));
    Inputs.push_back(tensorInfo(T, "input", I));
    Parameters.push_back(
        formatv("const {0} *input{1}", cType(G.tensor(T).Type), I).str());
    Out.Inputs.push_back({T, G.tensor(T).Type, G.tensor(T).byteSize()});
  }
  for (size_t I = 0; I < G.Outputs.size(); ++I) {
    int32_t T = G.Outputs[I];
    Outputs.push_back(tensorInfo(T, "output", I));
    Parameters.push_back(
        formatv("{0} *output{1}", cType(G.tensor(T).Type), I).str());
    Out.Outputs.push_back({T, G.tensor(T).Type, G.tensor(T).byteSize()});
  }
  if (Outputs.empty() && GraphIndex == 0)
    return makeError("the graph has no outputs");

  // What the calls use.
  Value::List Constants, Shapes, ArenaTensors;
  int64_t EmittedConstantBytes = 0;
  for (int32_t T : UsedConstants) {
    const ir::Tensor &Ten = G.tensor(T);
    std::string Data;
    raw_string_ostream OS(Data);
    writeInitializer(OS, Ten.Type, Ten.Data, "    ");
    OS.flush();
    EmittedConstantBytes += Ten.byteSize();
    Constants.push_back(Value(
        Value::Map{{"tensor", T},
                   {"name", commentName(Ten.Name)},
                   {"ctype", cType(Ten.Type)},
                   {"shape", shapeText(Ten)},
                   {"quant", quantText(Ten)},
                   {"elements", std::max<int64_t>(Ten.numElements(), 1)},
                   {"data", Data.empty() ? std::string("    0\n") : Data}}));
  }
  for (int32_t T : UsedShapes) {
    Expected<ref_shape> S = kernels::toRefShape(G.tensor(T).Shape);
    if (!S)
      return S.takeError();
    std::string Dims;
    for (int32_t D = 0; D < std::max(S->rank, 1); ++D)
      Dims += (D ? ", " : "") + std::to_string(S->rank ? S->dims[D] : 0);
    Shapes.push_back(
        Value(Value::Map{{"tensor", T}, {"rank", S->rank}, {"dims", Dims}}));
  }
  // Variable tensors: their bytes persist across invocations, and reset()
  // sets them to their initial value.
  Value::List State;
  for (size_t T = 0; T < G.Tensors.size(); ++T) {
    const ir::Tensor &Ten = G.Tensors[T];
    const plan::Buffer *B = Plan.find(static_cast<int32_t>(T));
    if (!Ten.IsVariable || !B)
      continue;
    State.push_back(Value(Value::Map{{"tensor", T},
                                     {"name", commentName(Ten.Name)},
                                     {"offset", B->Offset},
                                     {"bytes", Ten.byteSize()},
                                     {"fill", Ten.stateFillByte()}}));
  }
  Value::List InPlace;
  for (int32_t T : UsedArena) {
    const plan::Buffer *B = Plan.find(T);
    if (!B) { // a graph input read where the caller passed it
      auto It = llvm::find(G.Inputs, T);
      InPlace.push_back(Value(
          Value::Map{{"tensor", T},
                     {"ctype", cType(G.tensor(T).Type)},
                     {"input", static_cast<int64_t>(It - G.Inputs.begin())}}));
      continue;
    }
    ArenaTensors.push_back(Value(Value::Map{{"tensor", T},
                                            {"ctype", cType(G.tensor(T).Type)},
                                            {"offset", B->Offset}}));
  }

  std::string Upper = StringRef(Opts.Name).upper();
  tmpl::Bindings B;
  B["NAME"] = Opts.Name;
  B["UNAME"] = Upper;
  B["MODEL"] = commentSafe(Opts.ModelFileName);
  B["TARGET"] = Opts.Target;
  B["VERSION"] = Opts.GeneratorVersion;
  B["ARENA_BYTES"] = Plan.ArenaBytes;
  B["TILED"] = Cascading &&
               llvm::any_of(Cascading->Cascades,
                            [](const plan::Cascade &C) { return C.tiled(); });
  B["ALIGNMENT"] = Plan.Alignment;
  B["CONSTANT_BYTES"] = EmittedConstantBytes;
  B["CONSTANTS"] = Value(std::move(Constants));
  B["SHAPES"] = Value(std::move(Shapes));
  B["ARENA_TENSORS"] = Value(std::move(ArenaTensors));
  B["INPUTS_IN_PLACE"] = !InPlace.empty();
  B["IN_PLACE_TENSORS"] = Value(std::move(InPlace));
  B["GRAPH"] = static_cast<int64_t>(GraphIndex);
  B["HAS_GRAPHS"] = Calls && !Calls->empty();
  // A called graph: graph<K>.c, what its writer gives the main one's.
  if (GraphIndex != 0) {
    std::vector<std::string> In, Res;
    for (int32_t T : G.Inputs)
      In.push_back(address(T));
    for (int32_t T : G.Outputs)
      Res.push_back(address(T));
    Expected<KernelFileSet> Kernels = selectKernelFiles(Functions);
    if (!Kernels)
      return Kernels.takeError();
    Value::List Headers;
    for (const std::string &H : Kernels->Headers)
      Headers.push_back(H);
    B["HEADERS"] = Value(std::move(Headers));
    B["GRAPH_INPUTS"] = join(In, ", ");
    B["GRAPH_OUTPUTS"] = join(Res, ", ");
    B["OPS"] = Value(Ops);
    B["PARTS"] = Value(Value::List{Value(Value::Map{
        {"index", int64_t(0)},
        {"first", int64_t(0)},
        {"last", static_cast<int64_t>(G.Operators.size()) - 1},
        {"ops", Value(std::move(Ops))}})});
    B["OPERATOR_COUNT"] = G.Operators.size();
    B["ACCELERATOR"] = false;
    B["ACCEL_DECLS"] = "";
    const std::string Name = formatv("graph{0}.c", GraphIndex).str();
    B["BANNER"] = cBanner("model.c.in");
    Expected<std::string> Text = renderTemplate("model.c.in", B);
    if (!Text)
      return Text.takeError();
    Calls->Files.push_back({Name, std::move(*Text)});
    Calls->Functions.insert(Functions.begin(), Functions.end());
    json::Object Entry;
    Entry["graph"] = static_cast<int64_t>(GraphIndex);
    Entry["name"] = G.Name;
    Entry["file"] = Name;
    Entry["arena_bytes"] = Plan.ArenaBytes;
    Entry["operators"] = std::move(ReportOps);
    Calls->Report.push_back(std::move(Entry));
    return Error::success();
  }

  // The files.
  std::set<std::string> AllFunctions = Functions;
  if (Calls)
    AllFunctions.insert(Calls->Functions.begin(), Calls->Functions.end());
  if (Opts.Accelerator)
    AllFunctions.insert(Opts.Accelerator->KernelFunctions.begin(),
                        Opts.Accelerator->KernelFunctions.end());
  // Files that include reference headers: the accelerator's, cpu_kernels.c,
  // the called graphs'.
  std::vector<EmittedFile> Includers;
  if (Opts.Accelerator)
    Includers = Opts.Accelerator->Files;
  if (Calls)
    Includers.insert(Includers.end(), Calls->Files.begin(),
                     Calls->Files.end());
  std::vector<EmittedFile> CpuFiles;
  if (!CpuKernels.empty()) {
    auto Files = Opts.CpuKernels->files(CpuKernels, Opts.Name);
    if (!Files)
      return Files.takeError();
    for (auto &F : *Files)
      CpuFiles.push_back({F.first, std::move(F.second)});
    Includers.insert(Includers.end(), CpuFiles.begin(), CpuFiles.end());
  }
  Expected<KernelFileSet> Kernels = selectKernelFiles(AllFunctions, Includers);
  if (!Kernels)
    return Kernels.takeError();
  Value::List Headers;
  for (const std::string &H : Kernels->Headers)
    Headers.push_back(H);
  for (EmittedFile &F : CpuFiles) {
    if (StringRef(F.Name).endswith(".h"))
      Headers.push_back(F.Name);
    Kernels->Files.push_back(std::move(F));
  }
  if (Opts.Accelerator) {
    for (const std::string &H : Opts.Accelerator->Headers)
      Headers.push_back(H);
    for (const EmittedFile &F : Opts.Accelerator->Files)
      Kernels->Files.push_back(F);
  }

  B["GUARD"] = Upper + "_MODEL_H";
  B["INPUTS"] = Value(std::move(Inputs));
  B["OUTPUTS"] = Value(std::move(Outputs));
  B["PARAMETERS"] = join(Parameters, ", ");
  B["HEADERS"] = Value(std::move(Headers));
  B["STATE"] = Value(std::move(State));
  Value::List Variables;
  if (Calls) {
    const auto &Vars = Calls->Variables.Variables;
    for (size_t V = 0; V < Vars.size(); ++V)
      Variables.push_back(Value(Value::Map{
          {"index", static_cast<int64_t>(V)},
          {"name", commentName(Vars[V].Container.empty()
                                   ? Vars[V].SharedName
                                   : Vars[V].Container + "/" +
                                         Vars[V].SharedName)},
          {"bytes", Vars[V].Bytes},
          {"fill", static_cast<int64_t>(Vars[V].Fill)}}));
  }
  B["VARIABLES"] = Value(std::move(Variables));
  B["CALLED_ONCE"] =
      static_cast<int64_t>(Calls ? Calls->OnceFlags.size() : 0);
  // invoke() in parts: one function of tens of thousands of calls takes the
  // C compiler minutes and gigabytes.
  constexpr size_t OpsPerPart = 256;
  Value::List Parts;
  for (size_t First = 0; First < Ops.size(); First += OpsPerPart) {
    const size_t End = std::min(Ops.size(), First + OpsPerPart);
    Value::List PartOps(Ops.begin() + First, Ops.begin() + End);
    // Values share their contents: the parts cost no copy of the calls.
    Parts.push_back(Value(Value::Map{
        {"index", static_cast<int64_t>(Parts.size())},
        {"first", PartOps.front().getMap().at("index")},
        {"last", PartOps.back().getMap().at("index")},
        {"ops", Value(std::move(PartOps))}}));
  }
  B["OPS"] = Value(std::move(Ops));
  B["PARTS"] = Value(std::move(Parts));
  B["OPS_PER_PART"] = static_cast<int64_t>(OpsPerPart);
  B["OPERATOR_COUNT"] = G.Operators.size();
  B["ACCELERATOR"] = Opts.Accelerator != nullptr && Opts.Accelerator->HasDevice;
  B["ACCEL_INPUTS"] = Opts.Accelerator != nullptr && Opts.Accelerator->ReadsInputs;
  B["ACCEL_DECLS"] = Opts.Accelerator
                         ? StringRef(Opts.Accelerator->Declarations).rtrim("\n")
                         : StringRef();

  for (StringRef Name : {"model.c", "model.h"}) {
    std::string TemplateName = (Name + ".in").str();
    B["BANNER"] = cBanner(TemplateName);
    Expected<std::string> Text = renderTemplate(TemplateName, B);
    if (!Text)
      return Text.takeError();
    Out.Files.push_back({Name.str(), std::move(*Text)});
  }
  if (Calls && !Calls->empty()) {
    Value::List Graphs;
    for (size_t K : Calls->Graphs) {
      const ir::Graph &Called = Calls->Model->Graphs[K];
      Graphs.push_back(Value(Value::Map{
          {"index", static_cast<int64_t>(K)},
          {"inputs", static_cast<int64_t>(Called.Inputs.size())},
          {"outputs", static_cast<int64_t>(Called.Outputs.size())}}));
    }
    B["GRAPHS"] = Value(std::move(Graphs));
    B["BANNER"] = cBanner("graphs.h.in");
    Expected<std::string> Text = renderTemplate("graphs.h.in", B);
    if (!Text)
      return Text.takeError();
    Out.Files.push_back({"graphs.h", std::move(*Text)});
    for (EmittedFile &F : Calls->Files)
      Out.Files.push_back(std::move(F));
  }
  for (EmittedFile &F : Kernels->Files)
    Out.Files.push_back(std::move(F));

  // report.json.
  std::string Report;
  raw_string_ostream RS(Report);
  {
    json::OStream J(RS, 2);
    J.object([&] {
      J.attribute("generator", "accelgen " + Opts.GeneratorVersion);
      J.attribute("model", Opts.ModelFileName);
      J.attribute("target", Opts.Target);
      J.attribute("name", Opts.Name);
      J.attributeObject("arena", [&] {
        J.attribute("bytes", Plan.ArenaBytes);
        J.attribute("lower_bound", Plan.LowerBound);
        J.attribute("alignment", Plan.Alignment);
        J.attribute("order", plan::placementOrderName(Plan.Order));
      });
      J.attribute("constant_bytes", analysis::constantBytes(G));
      J.attribute("emitted_constant_bytes", EmittedConstantBytes);
      J.attribute("macs", analysis::graphMacs(G));
      auto IO = [&](StringRef Key, const std::vector<IOTensor> &List) {
        J.attributeArray(Key, [&] {
          for (const IOTensor &T : List)
            J.object([&] {
              J.attribute("tensor", T.Tensor);
              J.attribute("name", G.tensor(T.Tensor).Name);
              J.attribute("dtype", ir::dtypeName(T.Type));
              J.attributeArray("shape", [&] {
                for (int32_t D : G.tensor(T.Tensor).Shape)
                  J.value(D);
              });
              J.attribute("bytes", T.Bytes);
              if (const plan::Buffer *Buf = Plan.find(T.Tensor))
                J.attribute("arena_offset", Buf->Offset);
            });
        });
      };
      IO("inputs", Out.Inputs);
      IO("outputs", Out.Outputs);
      J.attribute("operators", json::Value(std::move(ReportOps)));
      if (Opts.Accelerator)
        J.attribute("accelerator", json::Object(Opts.Accelerator->Report));
      if (Cascading)
        J.attribute("cascading", cascadingReport(G, *Cascading));
      if (Calls && !Calls->Report.empty())
        J.attribute("graphs", json::Value(std::move(Calls->Report)));
      if (Calls && !Calls->Variables.Variables.empty())
        J.attributeArray("variables", [&] {
          for (const ir::Variable &V : Calls->Variables.Variables)
            J.object([&] {
              J.attribute("container", V.Container);
              J.attribute("shared_name", V.SharedName);
              J.attribute("bytes", V.Bytes);
              J.attribute("initial_byte", static_cast<int64_t>(V.Fill));
            });
        });
      J.attributeArray("kernels", [&] {
        std::set<std::string> Called = Functions;
        if (Calls)
          Called.insert(Calls->Functions.begin(), Calls->Functions.end());
        for (const std::string &F : Called)
          J.value(F);
        for (const CpuKernel &K : CpuKernels)
          J.value(K.Function);
      });
    });
  }
  RS << "\n";
  RS.flush();
  Out.Files.push_back({"report.json", std::move(Report)});

  llvm::sort(Out.Files, [](const EmittedFile &A, const EmittedFile &B) {
    return A.Name < B.Name;
  });
  Out.Plan = Plan;
  return Error::success();
}

} // namespace

Expected<EmittedModel> emitModel(const ir::Graph &G, const EmitOptions &Opts) {
  if (Opts.Target.empty())
    return makeError("no target label to emit for");
  if (std::string Problem = modelNameProblem(Opts.Name); !Problem.empty())
    return makeError("the name " + Problem);
  // The memory planner and the kernels assume a well-formed graph.
  std::vector<std::string> Problems = ir::verifyGraph(G);
  if (!Problems.empty())
    return makeError("the graph is malformed: " + Problems.front());
  std::optional<plan::CascadePlan> Cascading;
  if (Opts.Accelerator && Opts.Accelerator->Cascading) {
    // Planned with the program, which runs the cascades' accelerator
    // operators stripe by stripe.
    Cascading = Opts.Accelerator->Cascading;
  } else if (Opts.Cascading.Enabled || Opts.Cascading.InputsInPlace) {
    if (Opts.Accelerator)
      return makeError(formatv("--cascade, --memory-budget and "
                               "--inputs-in-place work on targets ref, cpu, "
                               "cmsis-nn and the accelerator targets with a "
                               "functional model, not {0}: its kernels run "
                               "on whole tensors",
                               Opts.Target));
    Expected<plan::CascadePlan> P =
        plan::planCascades(G, hostCascading(Opts.Cascading));
    if (!P)
      return P.takeError();
    std::vector<std::string> Problems = plan::verifyCascades(G, *P);
    if (!Problems.empty())
      return makeError("the cascaded memory plan is unsound: " +
                       Problems.front());
    Cascading = std::move(*P);
  }
  // The graphs G's operators call, directly or through others, each a file
  // of its own, and the model's variables.
  std::optional<CallContext> Ctx;
  EmitOptions Called = Opts;
  Called.Accelerator = nullptr;
  Called.CpuKernels = nullptr;
  Called.Cascading = plan::CascadeOptions();
  if (Opts.Model) {
    Ctx.emplace();
    Ctx->Model = Opts.Model;
    Expected<ir::VariableTable> V = ir::modelVariables(*Opts.Model);
    if (!V)
      return V.takeError();
    Ctx->Variables = std::move(*V);
    Ctx->Graphs = ir::reachableGraphs(*Opts.Model, G);
    // One flag per CALL_ONCE, numbered by graph and operator.
    int64_t Flag = 0;
    auto Flags = [&](const ir::Graph &From, size_t Index) {
      for (size_t I = 0; I < From.Operators.size(); ++I)
        if (From.Operators[I].code() == ir::OpCode::CallOnce)
          Ctx->OnceFlags[{Index, I}] = Flag++;
    };
    Flags(G, 0);
    for (size_t K : Ctx->Graphs)
      Flags(Opts.Model->Graphs[K], K);
    for (size_t K : Ctx->Graphs) {
      const ir::Graph &Sub = Opts.Model->Graphs[K];
      std::vector<std::string> Problems = ir::verifyGraph(Sub);
      if (!Problems.empty())
        return makeError(formatv("graph {0} is malformed: {1}", K,
                                 Problems.front()));
      EmittedModel Unused;
      ModelWriter W(Sub, Called, std::nullopt, &*Ctx, K);
      if (Error E = W.run(Unused))
        return makeError(formatv("graph {0}, which the model's operators "
                                 "call: {1}",
                                 K, toString(std::move(E))));
    }
  }
  EmittedModel Out;
  Out.Cascading = Cascading;
  ModelWriter W(G, Opts, std::move(Cascading), Ctx ? &*Ctx : nullptr, 0);
  if (Error E = W.run(Out))
    return std::move(E);
  return Out;
}

} // namespace emit
} // namespace accelgen
