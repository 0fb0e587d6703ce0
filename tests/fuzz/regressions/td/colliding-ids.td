include "kernels.td"
def V1 : Version<"1.0">;
def T : Target<"t", [V1]>;
def : Legal<Relu, T, V1, [i8], [
  Constraint<"a b", "input(0).rank == 4", "s">,
  Constraint<"a_b", "input(0).rank >= 1", "s">]>;
