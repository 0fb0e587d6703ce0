#!/usr/bin/env bash
# Times accelgen-tblgen on descriptions far larger than any real target, to
# show generation stays about linear in the size of the description:
#   - one Legal rule listing N inline constraints (N = 5,000, 10,000, 20,000),
#     each locating its expression in the rule's text;
#   - one constraint of N `&&` terms.
#
#   bench/large-description.sh [BUILD_DIR]     (default: build)
#
# Prints N, the action and its wall time in seconds. The goal is under 2 s
# for 20,000 constraints (bench/RESULTS.md, "Large descriptions").
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
tblgen=$build/gen/accelgen-tblgen
[[ -x $tblgen ]] || { echo "error: $tblgen not built" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

head() {
  cat <<'TD'
include "kernels.td"
def V1 : Version<"1.0">;
def T : Target<"t", [V1]>;
TD
}

# One rule with $1 constraints, each with its own id and bound.
many_constraints() {
  head
  echo 'def : Legal<Conv2D, T, V1, [i8], ['
  for ((i = 0; i < $1; i++)); do
    sep=$([[ $i -lt $(($1 - 1)) ]] && echo , || true)
    echo "  Constraint<\"c$i\", \"stride_h <= $((i + 1))\", \"stride at most $((i + 1))\">$sep"
  done
  echo ']>;'
}

# One constraint of $1 terms joined by &&.
long_chain() {
  head
  printf 'def : Legal<Conv2D, T, V1, [i8], [Constraint<"chain", "stride_h >= 1'
  for ((i = 0; i < $1; i++)); do printf ' && stride_w <= %d' $((i + 1)); done
  echo '", "chain">]>;'
}

time_action() { # file action
  local t0 t1
  t0=$(date +%s%N)
  "$tblgen" "-gen-$2" "$1" -o "$work/out" || { echo "error: -gen-$2 failed on $1" >&2; exit 1; }
  t1=$(date +%s%N)
  awk -v ns=$((t1 - t0)) 'BEGIN {printf "%.2f", ns / 1e9}'
}

printf '%-24s %8s %16s %8s\n' shape N action seconds
for n in 5000 10000 20000; do
  many_constraints $n >"$work/many.td"
  for a in legality supported-ops; do
    printf '%-24s %8d %16s %8s\n' "constraints in a rule" $n $a "$(time_action "$work/many.td" $a)"
  done
done
for n in 5000 20000; do
  long_chain $n >"$work/chain.td"
  for a in legality supported-ops; do
    printf '%-24s %8d %16s %8s\n' "'&&' terms" $n $a "$(time_action "$work/chain.td" $a)"
  done
done
