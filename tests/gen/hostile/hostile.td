// A target description whose strings hold everything that must be escaped
// where generated code and docs write them: newlines, backslashes (one
// ending a summary), quotes, `*/`, `/*`, `??/`, `|`, backticks and `-->`.
// tests/gen/CMakeLists.txt generates every artifact from it and compiles the
// generated C++ (GeneratedEscapesTest).
include "kernels.td"

def V1 : Version<"1.0">;
def Hostile : Target<"hostile", [V1]> {
  let Description = "Hostile --> strings\n# not a heading | `tick`";
}

def : Legal<Relu, Hostile, V1, [i8], [
  Constraint<"rank */ \"q\" | `tick`", "input(0).rank == 4",
             "line one\n#error injected */ /* | `tick` \"quoted\" ??/ ends in \\">,
  Constraint<"dtype", "input(0).dtype == i8", "dtype ends in a space \\ ",
             "hint with\nnewline */">,
  CppConstraint<"never", "neverHolds",
                "line one\n#error injected */ /* | `tick` \"quoted\" ??/ ends in \\">]>;
