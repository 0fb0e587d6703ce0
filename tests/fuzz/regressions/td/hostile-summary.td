include "kernels.td"
def V1 : Version<"1.0">;
def T : Target<"t", [V1]>;
def : Legal<Relu, T, V1, [i8], [
  Constraint<"r", "input(0).rank == 4", "line one\n#error injected */ | `tick` \"q\" \\">]>;
