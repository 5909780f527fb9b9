#!/bin/sh
# run.sh - host speed of the SystemC model at the default DRAM latency and at 100 times
# that latency (a separate process each: one config per process). The host time must not
# grow with the simulated cycles: the ratio printed last should stay near 1.
# Each variant runs 3 times; the fastest run counts (the machine may be shared).
# Usage: bench/sim/run.sh [BUILD_DIR] [SCALE]
set -eu
build=${1:-build}
scale=${2:-1}
bin="$build/bench/sim/bench_sim"
[ -x "$bin" ] || { echo "run.sh: $bin not built" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for mult in 1 100; do
	for rep in 1 2 3; do
		"$bin" "$mult" "$scale" >"$out/x$mult.$rep"
	done
	cat "$out/x$mult.1"
done
# best host seconds per program and latency multiplier
for f in "$out"/x1.* "$out"/x100.*; do
	m=${f##*/x}; m=${m%%.*}
	awk -v m="$m" '$2 == "insns" { for (i = 1; i <= NF; i++) if ($i == "host") print m, $1, $(i+1) }' "$f"
done | awk '
	{ k = $1 " " $2; if (!(k in best) || $3 < best[k]) best[k] = $3 }
	END {
		split("gemm insn", progs, " ")
		for (i = 1; i <= 2; i++) {
			p = progs[i]
			printf "%-5s best host seconds: latency x1 %.3f, x100 %.3f, ratio %.2f\n", p,
			       best["1 " p], best["100 " p], best["100 " p] / best["1 " p]
		}
	}'
