include "kernels.td"
def V1 : Version<"1.0">;
def T : Target<"t", [V1]>;
def L : Legal<Relu, T, ?, [i8]>;
