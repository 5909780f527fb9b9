#!/bin/sh
# run.sh - host speed of the SystemC model at the default DRAM latency and at 100 times
# that latency (a separate process each: one config per process). The host time must not
# grow with the simulated cycles: the ratio printed last should stay near 1.
# Then the same programs on the RTL datapath (the verilated units clocked inside the model):
# host cost per instruction and per GEMM uop, rtl against c, measured in the same run.
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
for rep in 1 2 3; do
	"$bin" 1 "$scale" rtl >"$out/rtl.$rep"
done
cat "$out/rtl.1"
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
# best ns per instruction and per GEMM uop, c (latency x1) against rtl
for f in "$out"/x1.* "$out"/rtl.*; do
	d=c; case $f in *rtl.*) d=rtl ;; esac
	awk -v d="$d" '$2 == "insns" { for (i = 2; i <= NF; i++) {
		if ($i == "ns/insn") print d, $1, "insn", $(i-1)
		if ($i == "ns/gemm_uop") print d, $1, "uop", $(i-1) } }' "$f"
done | awk '
	{ k = $1 " " $2 " " $3; if (!(k in best) || $4 < best[k]) best[k] = $4 }
	END {
		printf "gemm  host ns per GEMM uop: c %.2f, rtl %.2f, rtl/c %.1fx\n",
		       best["c gemm uop"], best["rtl gemm uop"], best["rtl gemm uop"] / best["c gemm uop"]
		printf "gemm  host ns per instruction: c %.1f, rtl %.1f, rtl/c %.1fx\n",
		       best["c gemm insn"], best["rtl gemm insn"], best["rtl gemm insn"] / best["c gemm insn"]
		printf "insn  host ns per instruction: c %.1f, rtl %.1f, rtl/c %.1fx\n",
		       best["c insn insn"], best["rtl insn insn"], best["rtl insn insn"] / best["c insn insn"]
	}'
