#!/bin/sh
# resnet_datapath.sh - ResNet-18 C2-C11 (configs/workloads/resnet18.yaml, default config, LUT
# constants through the hardware decoder) with the model's C datapath and with the verilated
# RTL units clocked inside it: wall seconds of each whole `vtasim run` (best of two), their
# ratio, and the simulated cycles, which must be equal.
# Usage: bench/sim/resnet_datapath.sh [BUILD_DIR]
set -eu
build=${1:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for dp in c rtl; do
	for rep in 1 2; do
		t0=$(date +%s.%N)
		"$build/vtasim" run -c configs/default.yaml -w configs/workloads/resnet18.yaml \
			--set datapath=$dp >"$out/$dp.txt"
		t1=$(date +%s.%N)
		echo "$t0 $t1" | awk '{ print $2 - $1 }' >>"$out/$dp.secs"
	done
	grep -q 'BIT-EXACT' "$out/$dp.txt" || { echo "resnet_datapath: $dp run not bit-exact" >&2; exit 1; }
done
c=$(sort -n "$out/c.secs" | head -1)
r=$(sort -n "$out/rtl.secs" | head -1)
# the total's line: "  cycles            N (...), roofline ..."
total_cycles() { sed -n '/^total/,$ s/^  cycles  *\([0-9]*\).*/\1/p' "$1" | head -1; }
cc=$(total_cycles "$out/c.txt")
rc=$(total_cycles "$out/rtl.txt")
echo "$c $r $cc $rc" | awk '{ printf "host seconds: c %.2f, rtl %.2f, rtl/c %.1fx; cycles: c %d, rtl %d (%s)\n", $1, $2, $2 / $1, $3, $4, $3 == $4 ? "equal" : "DIFFER" }'
