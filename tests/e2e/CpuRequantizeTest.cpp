//===- CpuRequantizeTest.cpp - The SIMD kernels' requantization -----------===//
//
// cpu_requantize, the vector requantization of target cpu's SIMD kernels
// (templates/cpu/cpu_simd.c.in, its table from cpu::cpuRequantTable), for
// each instruction set against ref_multiply_by_quantized_multiplier plus
// the output offset: about six million (accumulator, multiplier, shift)
// triples per instruction set, every shift from -31 to 30 with edge and
// random multipliers, and per channel the accumulators where the
// arithmetic turns: INT32_MIN and INT32_MAX, every value near 0, left
// shifts that wrap, products exactly halfway between two multiples of 2^31
// (SRDHM's ties) and doubled-high products exactly halfway between two
// multiples of 2^s (the rounding divide's ties, positive and negative),
// and random ones. The rendered primitives and a table are built with gcc
// and the --cpu value's flags into a program that requantizes a file of
// accumulators; a processor without the instructions skips the case with
// a message.
//
//===----------------------------------------------------------------------===//

#include "E2ESupport.h"
#include "TestSupport.h"

#include "cpu/CpuIsa.h"
#include "cpu/CpuKernels.h"
#include "kernels/c/ref_fixedpoint.h"

#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>

using namespace accelgen;

namespace {

constexpr int32_t Int32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t Int32Max = std::numeric_limits<int32_t>::max();

/// The columns of one table: each one's multiplier and left shift.
struct Columns {
  std::vector<int32_t> Multipliers, Shifts;
};

/// Every left shift in [\p First, \p Last] with each of a set of edge and
/// random multipliers, then random columns up to a multiple of 16.
Columns makeColumns(int32_t First, int32_t Last, std::mt19937 &Gen) {
  std::uniform_int_distribution<int32_t> Normal(1 << 30, Int32Max);
  std::uniform_int_distribution<int32_t> Any(Int32Min + 1, Int32Max);
  std::uniform_int_distribution<int32_t> Shift(First, Last);
  Columns C;
  for (int32_t E = First; E <= Last; ++E) {
    const int32_t Edge[] = {
        0,        1,          1 << 30,    (1 << 30) + 1, 3 << 29,
        Int32Max, 1518500250, -(1 << 30), Int32Min + 1,  12345};
    for (int32_t M : Edge) {
      C.Multipliers.push_back(M);
      C.Shifts.push_back(E);
    }
    for (int I = 0; I < 5; ++I) {
      C.Multipliers.push_back(Normal(Gen));
      C.Shifts.push_back(E);
    }
    C.Multipliers.push_back(Any(Gen));
    C.Shifts.push_back(E);
  }
  while (C.Multipliers.size() % 16) {
    C.Multipliers.push_back(Normal(Gen));
    C.Shifts.push_back(Shift(Gen));
  }
  return C;
}

/// ref_srdhm_i32's product: x shifted left by max(e, 0) (wrapping) times m.
int64_t product(int32_t X, int32_t M, int32_t E) {
  return int64_t(ref_shl_i32(X, E > 0 ? E : 0)) * M;
}

/// \p Count accumulators for multiplier \p M and left shift \p E (see the
/// file comment).
std::vector<int32_t> accumulators(int32_t M, int32_t E, size_t Count,
                                  std::mt19937 &Gen) {
  std::vector<int32_t> X = {Int32Min,      Int32Min + 1, Int32Max,
                            Int32Max - 1,  1 << 30,      -(1 << 30),
                            (1 << 30) - 1, 1 << 20,      -(1 << 20)};
  for (int32_t V = -200; V <= 200; ++V)
    X.push_back(V);
  const int32_t Left = E > 0 ? E : 0, Right = E > 0 ? 0 : -E;
  auto Add = [&](int64_t V) {
    if (V >= Int32Min && V <= Int32Max && X.size() < Count)
      X.push_back(int32_t(V));
  };
  // SRDHM's ties: x * 2^left * m = 2^30 (mod 2^31) when m = 2^a * odd and
  // x * 2^left = 2^(30-a) * odd.
  if (M != 0) {
    int A = 0;
    while (((uint32_t(M) >> A) & 1) == 0)
      ++A;
    if (30 - A - Left >= 0)
      for (int64_t K : {0, 1, 2, 3, 100, 12345, -1, -2, -3, -101, -54321})
        Add((2 * K + 1) * (int64_t(1) << (30 - A - Left)));
  }
  // The rounding divide's ties: doubled-high products T = k 2^s + 2^(s-1)
  // or its negation; the accumulators near T 2^31 / m reach T.
  if (Right > 0 && M != 0) {
    std::uniform_int_distribution<int64_t> K(0, int64_t(1) << 20);
    std::vector<int64_t> Ks = {0, 1, 2, 7, 1000};
    for (int I = 0; I < 4; ++I)
      Ks.push_back(K(Gen));
    for (int64_t Kv : Ks)
      for (int Sign : {1, -1}) {
        const int64_t Base = (int64_t(1) << Right) * Kv;
        if (Base > (int64_t(1) << 32))
          continue;
        const long double T =
            Sign * (long double)(Base + (int64_t(1) << (Right - 1)));
        const long double X0 = T * 2147483648.0L / M;
        if (X0 < Int32Min - 4.0L || X0 > Int32Max + 4.0L)
          continue;
        for (int D = -2; D <= 2; ++D)
          Add(int64_t(X0) + D);
      }
  }
  // Random: any int32 (with a left shift, mostly wrapping), products that
  // stay within int32 after the left shift, small ones.
  std::uniform_int_distribution<int32_t> Any(Int32Min, Int32Max);
  std::uniform_int_distribution<int32_t> Fits(
      -(int32_t)((int64_t(1) << (31 - Left)) - 1),
      (int32_t)((int64_t(1) << (31 - Left)) - 1));
  std::uniform_int_distribution<int32_t> Small(-70000, 70000);
  while (X.size() < Count) {
    const size_t I = X.size() % 3;
    X.push_back(I == 0 ? Any(Gen) : I == 1 ? Fits(Gen) : Small(Gen));
  }
  return X;
}

/// The test program: the primitives, \p Table, and a main that reads rows
/// of one accumulator per column and writes, per row, cpu_requantize's
/// results with ties_below 1, then with ties_below 0.
std::string harness(const std::string &Primitives,
                    const cpu::CpuRequantTable &Table, size_t Lanes) {
  std::string Main = R"(
static const cpu_requant q[@VECTORS@] = {
@TABLE@};

int main(int argc, char **argv) {
  static int32_t row[@COLUMNS@], result[2][@COLUMNS@];
  FILE *in, *out;
  int v;
  if (argc != 3 || !(in = fopen(argv[1], "rb")) ||
      !(out = fopen(argv[2], "wb")))
    return 2;
  while (fread(row, sizeof row, 1, in) == 1) {
    for (v = 0; v < @VECTORS@; ++v) {
      const cpu_v x = cpu_load(row + v * @LANES@);
      const cpu_v exact = cpu_requantize(x, q + v, @ANY_LEFT@, @OFFSET@, 1);
      const cpu_v above = cpu_requantize(x, q + v, @ANY_LEFT@, @OFFSET@, 0);
      memcpy(result[0] + v * @LANES@, &exact, sizeof exact);
      memcpy(result[1] + v * @LANES@, &above, sizeof above);
    }
    if (fwrite(result, sizeof result, 1, out) != 1)
      return 3;
  }
  return fclose(out) == 0 ? 0 : 4;
}
)";
  const std::pair<const char *, std::string> Values[] = {
      {"@VECTORS@", std::to_string(Table.Vectors)},
      {"@TABLE@", Table.Initializer},
      {"@COLUMNS@", std::to_string(Table.Vectors * Lanes)},
      {"@LANES@", std::to_string(Lanes)},
      {"@ANY_LEFT@", Table.AnyLeft ? "1" : "0"},
      {"@OFFSET@", std::to_string(Table.Offset)}};
  for (const auto &[Name, Text] : Values)
    for (size_t At = Main.find(Name); At != std::string::npos;
         At = Main.find(Name, At + Text.size()))
      Main.replace(At, strlen(Name), Text);
  return "#include <stdint.h>\n#include <stdio.h>\n\n" + Primitives + "\n" +
         Main;
}

/// How often the inputs met the turning points the test is after.
struct Ties {
  size_t Srdhm = 0, DividePositive = 0, DivideNegative = 0;
};

/// cpu_requantize of --cpu \p Cpu with \p Cols and \p Offset, \p Rows
/// accumulators per column, against the reference.
void checkTable(const cpu::CpuChoice &Cpu, const Columns &Cols, int32_t Offset,
                size_t Rows, uint32_t Seed, Ties &Seen) {
  INFO("offset " << Offset << ", shifts " << Cols.Shifts.front() << "...");
  const size_t Lanes = Cpu.Level == cpu::CpuIsaLevel::Avx2 ? 8 : 16;
  auto Table =
      cpu::cpuRequantTable(Cols.Multipliers, Cols.Shifts, Offset, Cpu.Level);
  REQUIRE(Table);
  const size_t N = Table->Vectors * Lanes;
  REQUIRE(N == Cols.Multipliers.size());
  auto Primitives = cpu::renderCpuSimdPrimitives(Cpu, {"cpu_requantize"});
  REQUIRE_MESSAGE(bool(Primitives), llvm::toString(Primitives.takeError()));

  // Row-major: row r holds each column's r-th accumulator.
  std::mt19937 Gen(Seed);
  std::vector<int32_t> In(Rows * N);
  for (size_t C = 0; C < N; ++C) {
    const std::vector<int32_t> X =
        accumulators(Cols.Multipliers[C], Cols.Shifts[C], Rows, Gen);
    for (size_t R = 0; R < Rows; ++R)
      In[R * N + C] = X[R];
  }

  test::TempDir Dir;
  {
    std::vector<uint8_t> Bytes(In.size() * 4);
    std::memcpy(Bytes.data(), In.data(), Bytes.size());
    test::writeFileBytes(Dir.file("in.bin"), Bytes);
    const std::string Source = harness(*Primitives, *Table, Lanes);
    test::writeFileBytes(
        Dir.file("requantize.c"),
        llvm::ArrayRef<uint8_t>((const uint8_t *)Source.data(), Source.size()));
  }
  auto CC = llvm::sys::findProgramByName("gcc");
  REQUIRE_MESSAGE(bool(CC), "gcc is not installed");
  std::vector<std::string> Args = {"-std=c99", "-O2", "-Wall", "-Werror"};
  llvm::SmallVector<llvm::StringRef, 4> Flags;
  llvm::StringRef(Cpu.Flags).split(Flags, ' ', -1, false);
  for (llvm::StringRef F : Flags)
    Args.push_back(F.str());
  for (const std::string &A :
       {Dir.file("requantize.c"), std::string("-o"), Dir.file("requantize")})
    Args.push_back(A);
  test::RunResult Built = test::runProgram(*CC, Args, 120);
  REQUIRE_MESSAGE(Built.ExitCode == 0, Built.Stderr << Built.ErrorMessage);
  test::RunResult Ran = test::runProgram(
      Dir.file("requantize"), {Dir.file("in.bin"), Dir.file("out.bin")}, 120);
  REQUIRE_MESSAGE(Ran.ExitCode == 0, Ran.Stderr << Ran.ErrorMessage);
  const std::vector<uint8_t> Bytes = test::readFileBytes(Dir.file("out.bin"));
  REQUIRE(Bytes.size() == In.size() * 8);

  // Exact with ties_below 1; with 0, the same once clamped from below at
  // the offset.
  size_t Wrong = 0;
  for (size_t I = 0; I < In.size(); ++I) {
    const size_t C = I % N, Row = I / N;
    const int32_t M = Cols.Multipliers[C], E = Cols.Shifts[C];
    const int32_t Expected =
        int32_t(uint32_t(ref_multiply_by_quantized_multiplier(In[I], M, E)) +
                uint32_t(Offset));
    int32_t Got, Above;
    std::memcpy(&Got, Bytes.data() + 4 * (2 * Row * N + C), 4);
    std::memcpy(&Above, Bytes.data() + 4 * ((2 * Row + 1) * N + C), 4);
    if (Got != Expected && ++Wrong <= 10)
      FAIL_CHECK("x " << In[I] << ", multiplier " << M << ", left shift " << E
                      << ": " << Got << ", the reference " << Expected);
    if (std::max(Above, Offset) != std::max(Expected, Offset) && ++Wrong <= 10)
      FAIL_CHECK("ties_below 0: x " << In[I] << ", multiplier " << M
                                    << ", left shift " << E << ": " << Above
                                    << ", the reference " << Expected);
    const int64_t P = product(In[I], M, E);
    if ((P % (int64_t(1) << 31) + (int64_t(1) << 31)) % (int64_t(1) << 31) ==
        (int64_t(1) << 30))
      ++Seen.Srdhm;
    if (E < 0) {
      const int32_t T = ref_srdhm_i32(In[I], M);
      const int32_t Mask = int32_t((int64_t(1) << -E) - 1);
      if ((T & Mask) == (int32_t(1) << (-E - 1)))
        ++(T >= 0 ? Seen.DividePositive : Seen.DivideNegative);
    }
  }
  CHECK_MESSAGE(Wrong == 0, Wrong << " of " << In.size() << " differ");
}

} // namespace

TEST_CASE("cpu_requantize is ref_multiply_by_quantized_multiplier plus the "
          "offset") {
  for (const char *Name : {"x86-64-v3", "x86-64-v4", "znver4"}) {
    INFO("--cpu " << std::string(Name));
    const std::optional<cpu::CpuChoice> Cpu = e2e::hostCpu(Name);
    if (!Cpu)
      continue;
    std::mt19937 Gen(2026);
    Ties Seen;
    // Every shift, no offset (every left shift too: any_left); int8's and
    // uint8's extreme offsets, which AVX-512 folds into the table at these
    // shifts (without and with left shifts); an offset it cannot fold at
    // the largest right shifts.
    checkTable(*Cpu, makeColumns(-31, 30, Gen), 0, 4096, 1, Seen);
    checkTable(*Cpu, makeColumns(-20, 0, Gen), -128, 2048, 2, Seen);
    checkTable(*Cpu, makeColumns(-20, 7, Gen), 255, 2048, 3, Seen);
    checkTable(*Cpu, makeColumns(-31, -10, Gen), 100, 1024, 4, Seen);
    // The inputs met the ties they were built for.
    CHECK(Seen.Srdhm > 10000);
    CHECK(Seen.DividePositive > 10000);
    CHECK(Seen.DivideNegative > 10000);
  }
}

TEST_CASE("the requantization tables cover what the vector code does") {
  using cpu::CpuIsaLevel;
  for (CpuIsaLevel Isa :
       {CpuIsaLevel::Avx2, CpuIsaLevel::Avx512, CpuIsaLevel::Avx512Vnni}) {
    INFO(cpu::isaName(Isa).str());
    CHECK(cpu::cpuRequantTable({1 << 30}, {-31}, 0, Isa));
    CHECK(cpu::cpuRequantTable({1 << 30}, {30}, 7, Isa));
    CHECK_FALSE(cpu::cpuRequantTable({Int32Min}, {-3}, 0, Isa));
    CHECK_FALSE(cpu::cpuRequantTable({1 << 30}, {31}, 0, Isa));
    CHECK_FALSE(cpu::cpuRequantTable({1 << 30}, {-32}, 0, Isa));
    auto Padded = cpu::cpuRequantTable({1 << 30, 1 << 30}, {-2, 1}, 0, Isa);
    REQUIRE(Padded);
    CHECK(Padded->Vectors == 1);
    CHECK(Padded->AnyLeft);
    CHECK_FALSE(cpu::cpuRequantTable({1 << 30}, {-2}, 0, Isa)->AnyLeft);
  }
  // AVX-512 folds the offset into 64-bit constants where |offset| is under
  // 2^(29-s) for every right shift s; AVX2 leaves it to the caller.
  auto OffsetLeft = [](int32_t Shift, int32_t Offset, CpuIsaLevel Isa) {
    auto Table =
        cpu::cpuRequantTable({1 << 30, 1 << 30}, {-2, Shift}, Offset, Isa);
    REQUIRE(Table);
    return Table->Offset;
  };
  CHECK(OffsetLeft(-20, 255, CpuIsaLevel::Avx512) == 0);
  CHECK(OffsetLeft(-21, 255, CpuIsaLevel::Avx512Vnni) == 0);
  CHECK(OffsetLeft(-21, 256, CpuIsaLevel::Avx512) == 256);
  CHECK(OffsetLeft(-29, 0, CpuIsaLevel::Avx512) == 0);
  CHECK(OffsetLeft(-30, -1, CpuIsaLevel::Avx512Vnni) == -1);
  CHECK(OffsetLeft(5, -128, CpuIsaLevel::Avx512Vnni) == 0);
  CHECK(OffsetLeft(-2, -128, CpuIsaLevel::Avx2) == -128);
}
