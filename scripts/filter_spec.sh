#!/bin/sh
# filter_spec.sh VTASIM MODEL.tflite BITS [OPS]: print a TFLM compression spec (docs/lut.md)
# LUT-compressing, at BITS bits, the filter (input 1) of every operator of MODEL whose name is
# in OPS (a space-separated list; default the accelerated ones: CONV_2D DEPTHWISE_CONV_2D
# FULLY_CONNECTED), each tensor once, as `vtasim inspect` lists them.
set -eu
[ $# -ge 3 ] || { echo "usage: filter_spec.sh VTASIM MODEL.tflite BITS [OPS]" >&2; exit 2; }
vtasim=$1 model=$2 bits=$3
ops=${4:-"CONV_2D DEPTHWISE_CONV_2D FULLY_CONNECTED"}
listing=$("$vtasim" inspect "$model")
echo "# $(basename "$model"): the filters of $ops, $bits-bit LUT indices"
echo "tensors:"
printf '%s\n' "$listing" | awk -v ops=" $ops " -v bits="$bits" '
	/^operators$/ { on = 1; next }
	/^placement:/ { on = 0 }
	on && $1 ~ /^[0-9]+$/ && index(ops, " " $2 " ") {
		for (i = 3; i <= NF; i++)
			if ($i == "in") { split($(i + 1), t, ","); break }
		if (t[2] != "" && t[2] != "-1" && !seen[t[2]]++) {
			printf "  - subgraph: 0\n    tensor: %s          # %s filter\n", t[2], $2
			printf "    compression:\n      - lut:\n          index_bitwidth: %s\n", bits
		}
	}'
