#!/usr/bin/env bash
# Times accelgen-tblgen over every in-tree target description and every
# artifact, against LLVM's own llvm-tblgen-14 reading the same .td files as
# a peer in the same run (-print-records: parse and resolve, no backend).
#
#   bench/generator.sh [BUILD_DIR] [REPEATS]     (defaults: build, 20)
#
# Prints, per description, the wall time of one full generation (all six
# artifacts, one process each, as the build runs them), the median over
# REPEATS rounds, the peer's median and the ratio; then the total over all
# in-tree descriptions. Needs a built BUILD_DIR.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
repeats=${2:-20}
tblgen=$build/gen/accelgen-tblgen
peer=/usr/lib/llvm-14/bin/llvm-tblgen
actions=(op-setups legality patterns constraint-tests supported-ops version-diff)

[[ -x $tblgen ]] || { echo "error: $tblgen not built" >&2; exit 1; }
[[ -x $peer ]] || { echo "error: $peer missing (apt-get install llvm-14)" >&2; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

now() { date +%s%N; }

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {printf "%d\n", (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

total_ns=0
printf '%-28s %12s %12s %8s\n' description "accelgen ms" "peer ms" ratio
for desc in "$root"/targets/*/*.td "$root"/targets/*/*.yaml; do
  [[ -e $desc ]] || continue
  gen_times=() peer_times=()
  for ((r = 0; r < repeats; r++)); do
    t0=$(now)
    for a in "${actions[@]}"; do
      "$tblgen" "-gen-$a" "$desc" -o "$out/$a"
    done
    t1=$(now)
    gen_times+=($((t1 - t0)))
    if [[ $desc == *.td ]]; then
      t0=$(now)
      for a in "${actions[@]}"; do
        "$peer" -print-records -I "$root/defs" "$desc" -o "$out/peer"
      done
      t1=$(now)
      peer_times+=($((t1 - t0)))
    fi
  done
  g=$(printf '%s\n' "${gen_times[@]}" | median)
  total_ns=$((total_ns + ${g%.*}))
  if [[ ${#peer_times[@]} -gt 0 ]]; then
    p=$(printf '%s\n' "${peer_times[@]}" | median)
    ratio=$(awk -v g="$g" -v p="$p" 'BEGIN {printf "%.2f", g / p}')
    peer_ms=$(awk -v p="$p" 'BEGIN {printf "%.1f", p / 1e6}')
  else
    ratio=- peer_ms=-
  fi
  printf '%-28s %12s %12s %8s\n' "${desc#"$root"/}" \
    "$(awk -v g="$g" 'BEGIN {printf "%.1f", g / 1e6}')" "$peer_ms" "$ratio"
done
printf 'total over all in-tree descriptions: %.1f ms (goal: under 1000 ms)\n' \
  "$(awk -v t="$total_ns" 'BEGIN {print t / 1e6}')"
