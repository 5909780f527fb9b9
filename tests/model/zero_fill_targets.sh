#!/bin/sh
# zero_fill_targets.sh VTASIM MODEL.tflite SPEC.yaml CONFIG: compress MODEL's filters by SPEC,
# run it with zero-lane fill on the decoder and decoded on the host, and hold the mode to
# what it is for: both runs BIT-EXACT; the depthwise layers' WGT bytes read from DRAM within
# 1.5x of the TFLM index bytes of their filters (the compressor's own count of the
# last-axis tables' index strings); accelerator cycles no worse than with host decoding.
set -eu
vtasim=$1 model=$2 spec=$3 config=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$vtasim" compress "$model" "$spec" -o "$tmp/m.tflite" >"$tmp/compress.txt"
tflm=$(sed -n 's/.*(last axis): [0-9]* B -> \([0-9]*\) B indices.*/\1/p' "$tmp/compress.txt" |
	awk '{s += $1} END {print s + 0}')
for mode in hw host; do
	"$vtasim" run -c "$config" -m "$tmp/m.tflite" --decompress $mode -o "$tmp/$mode.csv" \
		>"$tmp/$mode.txt"
	grep -q '^verdict: BIT-EXACT' "$tmp/$mode.txt" || { cat "$tmp/$mode.txt"; exit 1; }
done
# the CSV's columns by name: cycles, where, op, dram.read_bytes.wgt
sum() { awk -F, -v col="$2" -v op="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["where"] == "accel" && (op == "" || $c["op"] == op) { s += $c[col] } END { print s + 0 }' "$1"; }
wgt=$(sum "$tmp/hw.csv" dram.read_bytes.wgt DEPTHWISE_CONV_2D)
hw=$(sum "$tmp/hw.csv" cycles "")
host=$(sum "$tmp/host.csv" cycles "")
echo "depthwise WGT read $wgt B, TFLM indices $tflm B; cycles hw $hw, host $host"
[ "$tflm" -gt 0 ] || { echo "no depthwise filter compressed"; exit 1; }
[ $((wgt * 2)) -le $((tflm * 3)) ] || { echo "depthwise index bytes above 1.5x TFLM's"; exit 1; }
[ "$hw" -le "$host" ] || { echo "more cycles than with host decoding"; exit 1; }
echo ok
