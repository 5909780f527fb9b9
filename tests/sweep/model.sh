#!/bin/sh
# model.sh VTASIM CHECK SRC WORK: a model as a sweep's workload (model.yaml: person detection
# behind two DRAM ports; model_wl.yaml: the same model named by a workload YAML).
#   - the all-host reference runs once, in the golden phase; every point reads it, and a
#     second sweep sharing the cache computes nothing;
#   - a point's total row (cycles, inferences/s, ops on each side, DRAM bytes) is the
#     `vtasim run -m -o` report's for the same config, one row per operator before it;
#   - --emit parallel and --merge give the rows of the local sweep;
#   - the workload YAML's options (host_ops, seed) apply at every point;
#   - host_ops as an axis (model_host_ops.yaml) moves op classes to the host per point.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "model: $*"; exit 1; }
sweep="$src/tests/sweep/model.yaml"

out=$("$vtasim" sweep "$sweep" -o "$work/local" -j 2)
echo "$out" | grep -q "^goldens: the model's all-host reference run, computed" || fail "$out"
echo "$out" | grep -q "^2 points: 2 ok, 0 failed, 0 not run" || fail "$out"
rows=$("$check" rows "$work/local")
[ "$(echo "$rows" | grep -c ' total ')" -eq 2 ] || fail "$rows"
[ "$(echo "$rows" | grep -c '^0 ')" -eq 32 ] || fail "31 operators and the total: $rows"
for p in 0 1; do
	[ "$("$check" get "$work/local" $p total reference_cached)" = true ] ||
		fail "point $p ran its own reference"
	[ "$("$check" get "$work/local" $p total check.bit_exact)" = true ] || fail "point $p"
done
[ "$("$check" get "$work/local" 0 "27 AVERAGE_POOL_2D" where)" = host ] || fail "op 27"

# the totals are `vtasim run -m`'s
"$vtasim" run -c "$src/configs/default.yaml" --set dram.bus_bits=64 \
	-m "$src/tests/model/data/person_detect.tflite" -o "$work/run.json" > /dev/null
tot() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" "$work/run.json" | tail -1; }
for c in "cycles accel_cycles" "inferences_per_second inferences_per_second" \
	 "accel_ops accel_ops" "host_ops host_ops" "dram.read_bytes.total dram_read_bytes" \
	 "dram.write_bytes.total dram_write_bytes"; do
	set -- $c
	got=$("$check" get "$work/local" 1 total "$1")
	want=$(tot "$2")
	awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d * d <= 1e-16 * b * b) }' ||
		fail "point 1 $1 $got, run -m $2 $want"
done

# a second sweep on the same cache: the reference is there
out=$("$vtasim" sweep "$sweep" -o "$work/again" --golden "$work/local/golden" -j 2)
echo "$out" | grep -q "^goldens: the model's all-host reference run, cached" || fail "$out"
"$check" same "$work/local" "$work/again" || fail "the second sweep's rows differ"

# shards and a merge
out=$("$vtasim" sweep "$sweep" --emit parallel --shards 2 -o "$work/par")
echo "$out" | grep -q "jobs.txt: 2 points in 2 shards" || fail "$out"
sh "$work/par/jobs.txt" > "$work/par.log" 2>&1 || fail "a shard failed: $(cat "$work/par.log")"
grep "goldens" "$work/par.log" | grep -q "computed" &&
	fail "a shard ran the reference the emit should have: $(cat "$work/par.log")"
out=$("$vtasim" sweep --merge "$work/par")
echo "$out" | grep -q "^2 points: 2 ok, 0 failed, 0 not run" || fail "$out"
"$check" same "$work/local" "$work/par" || fail "merged rows differ from the local run's"

# the workload YAML's options at every point: depthwise on the host, seed 3
out=$("$vtasim" sweep "$src/tests/sweep/model_wl.yaml" -o "$work/wl" -j 2)
echo "$out" | grep -q "^2 points: 2 ok, 0 failed, 0 not run" || fail "$out"
[ "$("$check" get "$work/wl" 0 "0 DEPTHWISE_CONV_2D" where)" = host ] || fail "host_ops"
[ "$("$check" get "$work/wl" 1 total host_ops)" = 17 ] || fail "host_ops count"
# host_ops as an axis: the classes each point moves to the host
out=$("$vtasim" sweep "$src/tests/sweep/model_host_ops.yaml" -o "$work/ho" -j 2)
echo "$out" | grep -q "^3 points: 3 ok, 0 failed, 0 not run" || fail "$out"
for p in "0 3" "1 17" "2 31"; do
	set -- $p
	[ "$("$check" get "$work/ho" $1 total host_ops)" = $2 ] || fail "point $1: host_ops"
	[ "$("$check" get "$work/ho" $1 total check.bit_exact)" = true ] || fail "point $1"
done
[ "$("$check" get "$work/ho" 0 total cycles)" = "$("$check" get "$work/local" 1 total cycles)" ] ||
	fail "host_ops none is not the plain run"
# the plots, when gnuplot is installed
if command -v gnuplot > /dev/null; then
	for plot in cycles_vs_dram_bus_bits inferences_per_second_vs_dram_bus_bits; do
		[ -s "$work/local/plots/$plot.png" ] || fail "no $plot: $(ls "$work/local/plots")"
		grep -q "$plot" "$work/local/index.html" || fail "index.html lacks $plot"
	done
fi
exit 0
