#!/usr/bin/env bash
# Times accelgen-tblgen over every in-tree target description and every
# artifact, against LLVM's own llvm-tblgen-14 reading the same .td files as
# a peer in the same run (-print-records: parse and resolve, no backend).
#
#   bench/generator.sh [BUILD_DIR] [REPEATS]     (defaults: build, 20)
#
# Prints, per description, the wall time of one full generation (every
# artifact, one process each, as the build runs them), the median over
# REPEATS rounds, the peer's median and the ratio; then the total over all
# in-tree descriptions. Needs a built BUILD_DIR.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
repeats=${2:-20}
tblgen=$build/gen/accelgen-tblgen
peer=/usr/lib/llvm-14/bin/llvm-tblgen
# The per-target actions, as accelgen_add_target runs them.
mapfile -t actions < <(sed -n 's/^  "\([a-z-]*\):[A-Za-z]*\.[a-z]*".*/\1/p' \
  "$root/cmake/AccelgenTarget.cmake")
# The actions run once over defs/ for the whole build.
defs_actions=(kernel-params kernel-instances kernel-table op-vocabulary)

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
# defs/: the kernel library and the operator vocabulary, generated once.
defs_times=()
for ((r = 0; r < repeats; r++)); do
  t0=$(now)
  for a in "${defs_actions[@]}"; do
    case $a in
      kernel-*) src=$root/defs/kernels.td ;;
      *) src=$root/defs/ops.td ;;
    esac
    "$tblgen" "-gen-$a" "$src" -o "$out/$a"
  done
  t1=$(now)
  defs_times+=($((t1 - t0)))
done
d=$(printf '%s\n' "${defs_times[@]}" | median)
total_ns=$((total_ns + d))
printf '%-28s %12s %12s %8s\n' "defs/ (${#defs_actions[@]} actions)" \
  "$(awk -v g="$d" 'BEGIN {printf "%.1f", g / 1e6}')" - -
printf 'total over all in-tree descriptions: %.1f ms (goal: under 1000 ms)\n' \
  "$(awk -v t="$total_ns" 'BEGIN {print t / 1e6}')"
