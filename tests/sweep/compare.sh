#!/bin/sh
# compare.sh VTASIM CHECK SRC WORK: `vtasim sweep --compare` on real sweeps. The tests'
# small sweep and the same axes over a faster DRAM bus (a `fixed` value): every point
# matched by its axes' values, the change B against A as the results hold them, the
# --threshold gate; a sweep against itself moves nothing; sweeps of other axes, a folder
# that holds no sweep and --threshold without --compare are one error line, exit status 2.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "compare: $*"; exit 1; }
sed "s|^config: .*|config: $src/configs/tiny.yaml|; s|^workload: .*|workload: $src/tests/cli/workloads/conv_odd.yaml|" \
	"$src/tests/sweep/small.yaml" > a0.yaml
# a metric both sweep files name is compared; one only B names is not
{ cat a0.yaml; printf 'metrics:\n  pj_per_mac: energy.total_pj / macs\n'; } > a.yaml
{ cat a0.yaml; printf 'fixed:\n  dram.bus_bits: 128\nmetrics:\n  only_b: cycles * 2\n  pj_per_mac: energy.total_pj / macs\n'; } > b.yaml
"$vtasim" sweep a.yaml -o a -j 2 > /dev/null
"$vtasim" sweep b.yaml -o b -j 2 > /dev/null

out=$("$vtasim" sweep --compare a b) || fail "no --threshold must exit 0: $out"
echo "$out" | grep -q "^compare: a -> b (8 points over dram.latency_cycles,sram_kib.inp,threads)$" || fail "$out"
# point 0's cycles as each sweep's results hold them, and the change between them
ca=$("$check" get a 0 total cycles)
cb=$("$check" get b 0 total cycles)
want=$(awk -v a="$ca" -v b="$cb" 'BEGIN { if (a == b) print "="; else printf "%+.2f%%", (b - a) / a * 100 }')
echo "$out" | grep -Eq "^dram.latency_cycles=16 sram_kib.inp=2 threads=1 +cycles +$ca +$cb +$want$" ||
	fail "want point 0 $ca -> $cb ($want): $out"
set +e
"$vtasim" sweep --compare a b --threshold 0 > t0.out; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "values moved by more than 0%$" t0.out || fail "--threshold 0: exit $rc: $(tail -1 t0.out)"
out=$("$vtasim" sweep --compare a a --threshold 0) || fail "a sweep against itself: $out"
echo "$out" | grep -q "^no value moved by more than 0% (64 compared)$" || fail "$out"
# 8 points by cycles, DRAM read and written, utilization, energy, EDP, area and pj_per_mac
out=$("$vtasim" sweep --compare a b)
[ "$(echo "$out" | grep -c " pj_per_mac ")" -eq 8 ] || fail "pj_per_mac: $out"
echo "$out" | grep -q "only_b" && fail "a metric of one sweep compared: $out"
pa=$(awk -v v="$("$check" get a 0 total pj_per_mac)" 'BEGIN { printf "%.6g", v }')
echo "$out" | grep -q " pj_per_mac  *$pa " || fail "point 0's pj_per_mac $pa: $out"

expect() { # expect PATTERN ARGS...: exit status 2 and one error line matching
	pattern=$1; shift
	set +e
	"$vtasim" sweep "$@" > e.out 2> e.err; rc=$?
	set -e
	[ $rc -eq 2 ] && [ "$(wc -l < e.err)" -eq 1 ] && grep -q "$pattern" e.err ||
		fail "sweep $*: exit $rc, $(cat e.err)"
}
grep -v "threads: \[1, 2\]" a.yaml > c.yaml
"$vtasim" sweep c.yaml -o c -j 2 > /dev/null
expect "^vtasim: error: --compare: a varies dram.latency_cycles,sram_kib.inp,threads and c varies dram.latency_cycles,sram_kib.inp: compare sweeps of the same axes$" --compare a c
mkdir -p empty
expect "^vtasim: error: empty/sweep.json: " --compare a empty
expect "^vtasim: error: --threshold is for --compare$" a.yaml --threshold 3
expect "^vtasim: error: usage: vtasim sweep --compare DIR1 DIR2" --compare a
exit 0
