#!/bin/sh
# decoder_modes.sh VTASIM CHECK SRC WORK: the shipped decoder_modes sweep runs every point
# bit-exact, and what it shows holds: a run of channel blocks per decompressing load
# (decompressor.multi_block) takes fewer cycles and DRAM bytes than one block per load, both
# fewer than weights decoded on the host, where the key changes nothing.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "decoder_modes: $*"; exit 1; }
"$vtasim" sweep "$src/configs/sweeps/decoder_modes.yaml" -o "$work/out" --no-plots > "$work/log" 2>&1 ||
	fail "$(cat "$work/log")"
grep -q "^4 points: 4 ok" "$work/log" || fail "$(cat "$work/log")"
# points in product order: multi_block false (hw, host), true (hw, host)
cell() { "$check" get "$work/out" "$1" total "$2"; }
for p in 0 1 2 3; do
	[ "$(cell $p check.bit_exact)" = true ] || fail "point $p is not bit-exact"
done
one=$(cell 0 cycles) host=$(cell 1 cycles) multi=$(cell 2 cycles) host2=$(cell 3 cycles)
[ "$multi" -lt "$one" ] && [ "$one" -lt "$host" ] && [ "$host" -eq "$host2" ] ||
	fail "cycles: one block $one, a run $multi, host $host and $host2"
[ "$(cell 2 dram.read_bytes.total)" -lt "$(cell 0 dram.read_bytes.total)" ] || fail "DRAM bytes"
echo "decoder_modes: one block $one, a run $multi, host $host cycles"
