//===- stack_bound.cpp - A static stack bound from GCC's call graphs ------===//
//
// accelgen-stack-bound reads the call-graph files GCC writes with
// `-fcallgraph-info=su` (one `.ci` per translation unit: a node per function
// with its frame size, an edge per direct call) and prints, for each root
// function, the deepest stack any chain of calls from it can use: the
// largest sum of frame sizes along a path of the call graph, with that path.
//
// The bound is exact for what the files show; it says what they cannot:
//   - a function without a frame size (one compiled without the flag, such
//     as the C library's memcpy) counts the bytes `--frame NAME=BYTES` gives
//     it, as a leaf, and is listed as assumed; without one, 0 bytes, and it
//     is listed as unknown;
//   - a frame GCC marks dynamic (alloca, variable-length arrays) counts its
//     static part and is listed, bounded or not;
//   - an indirect call (GCC's `__indirect_call` node) cannot be followed and
//     is listed with its caller;
//   - recursion has no bound: a call back into a function on the current
//     path is not followed, and the cycle is listed.
// A static function is looked up in its caller's file first, so two files'
// static functions of one name stay apart; otherwise, when several files
// define a name, the largest frame is taken.
//
// Usage: accelgen-stack-bound --root NAME [--root NAME...]
//            [--frame NAME=BYTES...] FILE.ci...
// Prints per root "NAME: N bytes" and the path, then what is not counted.
// Exit status 1 when a file cannot be read or a root is not defined.
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace llvm;

static cl::list<std::string> Files(cl::Positional, cl::OneOrMore,
                                   cl::desc("<file.ci>..."));
static cl::list<std::string> Roots("root", cl::OneOrMore,
                                   cl::desc("Function to bound the stack of"),
                                   cl::value_desc("name"));
static cl::list<std::string>
    Frames("frame",
           cl::desc("The frame of a function the files do not define (a "
                    "leaf written in assembly)"),
           cl::value_desc("name=bytes"));

namespace {

/// One function definition: its frame and where its calls go.
struct Function {
  std::string Name;
  unsigned File = 0; ///< Index into Files.
  bool HasFrame = false;
  uint64_t Frame = 0;
  std::string Qualifier; ///< "static", "dynamic", "dynamic,bounded".
  std::vector<std::string> Callees;
};

/// The value of `key: "..."` in \p Line (GCC's VCG output; `\"` escapes).
std::string field(StringRef Line, StringRef Key) {
  size_t At = Line.find((Key + ": \"").str());
  if (At == StringRef::npos)
    return "";
  std::string Out;
  for (size_t I = At + Key.size() + 3; I < Line.size(); ++I) {
    if (Line[I] == '\\' && I + 1 < Line.size()) {
      char C = Line[++I];
      Out += C == 'n' ? '\n' : C;
      continue;
    }
    if (Line[I] == '"')
      break;
    Out += Line[I];
  }
  return Out;
}

class CallGraph {
public:
  /// Reads one `.ci` file; false with a message on error.
  bool read(StringRef Path, unsigned Index) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      WithColor::error(errs(), "accelgen-stack-bound")
          << Path << ": " << Buf.getError().message() << "\n";
      return false;
    }
    SmallVector<StringRef, 0> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    std::map<std::string, size_t> Local;
    for (StringRef L : Lines) {
      L = L.trim();
      if (L.startswith("node:")) {
        std::string Title = field(L, "title");
        std::string Label = field(L, "label");
        SmallVector<StringRef, 4> Parts;
        StringRef(Label).split(Parts, '\n');
        // A definition has "N bytes (qualifier)" as its third line.
        if (Parts.size() < 3)
          continue;
        Function F;
        F.Name = Title;
        F.File = Index;
        StringRef Size = Parts[2];
        StringRef Bytes = Size.take_until([](char C) { return C == ' '; });
        F.HasFrame = !Bytes.getAsInteger(10, F.Frame);
        size_t Open = Size.find('('), Close = Size.find(')');
        if (Open != StringRef::npos && Close != StringRef::npos)
          F.Qualifier = Size.slice(Open + 1, Close).str();
        Local[Title] = Defs.size();
        ByName[Title].push_back(Defs.size());
        Defs.push_back(std::move(F));
      } else if (L.startswith("edge:")) {
        std::string From = field(L, "sourcename");
        auto It = Local.find(From);
        if (It != Local.end())
          Defs[It->second].Callees.push_back(field(L, "targetname"));
      }
    }
    return true;
  }

  /// The definition \p Name stands for when called from file \p File, or -1.
  int resolve(StringRef Name, unsigned File) const {
    auto It = ByName.find(Name);
    if (It == ByName.end())
      return -1;
    int Best = -1;
    for (size_t I : It->second) {
      if (Defs[I].File == File)
        return static_cast<int>(I);
      if (Best < 0 || Defs[I].Frame > Defs[Best].Frame)
        Best = static_cast<int>(I);
    }
    return Best;
  }

  /// The deepest path from \p Root, with every caveat met on the way.
  struct Bound {
    uint64_t Bytes = 0;
    std::vector<size_t> Path;
    /// A function of assumed frame at the end of Path, or empty.
    std::string Leaf;
  };
  Bound bound(size_t Root) {
    Memo.clear();
    std::vector<size_t> Active;
    return deepest(Root, Active);
  }

  std::vector<Function> Defs;
  std::set<std::string> Unknown, Assumed, Dynamic, Indirect, Recursive;
  /// The frames --frame gives functions the files do not define.
  StringMap<uint64_t> Given;

private:
  StringMap<std::vector<size_t>> ByName;
  std::map<size_t, Bound> Memo;

  Bound deepest(size_t I, std::vector<size_t> &Active) {
    auto Known = Memo.find(I);
    if (Known != Memo.end())
      return Known->second;
    const Function &F = Defs[I];
    if (!F.HasFrame)
      Unknown.insert(F.Name);
    if (StringRef(F.Qualifier).startswith("dynamic"))
      Dynamic.insert(F.Name + " (" + F.Qualifier + ")");
    Active.push_back(I);
    Bound Best;
    bool Any = false;
    for (const std::string &Callee : F.Callees) {
      if (Callee == "__indirect_call") {
        Indirect.insert(F.Name);
        continue;
      }
      int C = resolve(Callee, F.File);
      if (C < 0 || !Defs[C].HasFrame) {
        auto It = Given.find(Callee);
        if (It == Given.end()) {
          Unknown.insert(Callee);
        } else {
          Assumed.insert(formatv("{0} ({1})", Callee, It->second).str());
          if (!Any || It->second > Best.Bytes) {
            Best = Bound();
            Best.Bytes = It->second;
            Best.Leaf = Callee;
            Any = true;
          }
        }
        if (C < 0)
          continue;
      }
      if (is_contained(Active, static_cast<size_t>(C))) {
        Recursive.insert(F.Name + " -> " + Callee);
        continue;
      }
      Bound B = deepest(C, Active);
      if (!Any || B.Bytes > Best.Bytes) {
        Best = B;
        Any = true;
      }
    }
    Active.pop_back();
    Best.Bytes += F.Frame;
    Best.Path.insert(Best.Path.begin(), I);
    // A result reached inside a cycle depends on the path taken to it.
    if (Recursive.empty())
      Memo[I] = Best;
    return Best;
  }
};

void list(StringRef What, const std::set<std::string> &Names) {
  outs() << "  " << What << ": "
         << (Names.empty() ? std::string("none") : join(Names, ", ")) << "\n";
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "A static stack bound per root function from GCC's -fcallgraph-info=su "
      "files\n");
  CallGraph G;
  for (unsigned I = 0; I < Files.size(); ++I)
    if (!G.read(Files[I], I))
      return 1;
  for (StringRef F : Frames) {
    auto [Name, Bytes] = F.split('=');
    uint64_t N = 0;
    if (Name.empty() || Bytes.getAsInteger(10, N)) {
      WithColor::error(errs(), "accelgen-stack-bound")
          << "--frame '" << F << "' is not NAME=BYTES\n";
      return 1;
    }
    G.Given[Name] = N;
  }
  int Status = 0;
  for (const std::string &Root : Roots) {
    int R = G.resolve(Root, ~0u);
    if (R < 0) {
      WithColor::error(errs(), "accelgen-stack-bound")
          << "function '" << Root << "' is not defined in the files given\n";
      Status = 1;
      continue;
    }
    G.Unknown.clear(), G.Assumed.clear(), G.Dynamic.clear();
    G.Indirect.clear();
    G.Recursive.clear();
    CallGraph::Bound B = G.bound(R);
    outs() << formatv("{0}: {1} bytes\n", Root, B.Bytes);
    std::vector<std::string> Steps;
    for (size_t I : B.Path)
      Steps.push_back(
          formatv("{0} ({1})", G.Defs[I].Name, G.Defs[I].Frame).str());
    if (!B.Leaf.empty())
      Steps.push_back(
          formatv("{0} ({1}, assumed)", B.Leaf, G.Given.lookup(B.Leaf)).str());
    outs() << "  path: " << join(Steps, " > ") << "\n";
    list("assumed frames", G.Assumed);
    list("unknown frames (counted as 0)", G.Unknown);
    list("dynamic frames", G.Dynamic);
    list("indirect calls from", G.Indirect);
    list("recursion (not followed)", G.Recursive);
  }
  return Status;
}
