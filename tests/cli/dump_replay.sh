#!/bin/sh
# dump_replay.sh VTASIM CONFIG WORKLOAD: `run --dump` writes the tensors, stream and DRAM image
# of every layer; replaying each dumped stream with `exec` on the reference executor gives the
# same output bytes, and for flat (ADD) outputs they equal output_golden.npy's data.
set -eu
vtasim=$1
config=$2
workload=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$vtasim" run -c "$config" -w "$workload" --dump "$tmp/dump" >/dev/null
for layer in "$tmp"/dump/*/; do
	for f in stream.s dram.bin layer.json output_golden.npy output_simulated.npy; do
		[ -s "$layer/$f" ] || { echo "missing $layer$f"; exit 1; }
	done
	addr=$(sed -n 's/.*"output_addr": \([0-9]*\).*/\1/p' "$layer/layer.json")
	len=$(sed -n 's/.*"output_bytes": \([0-9]*\).*/\1/p' "$layer/layer.json")
	"$vtasim" exec -c "$config" "$layer/stream.s" --dram "$layer/dram.bin" --engine ref \
		--dump-dram "$addr:$len:$tmp/out.bin" >/dev/null
	count=$(( $(wc -c <"$layer/output_golden.npy") - 128 ))
	if [ "$count" -eq "$len" ]; then
		tail -c "$len" "$layer/output_golden.npy" | cmp - "$tmp/out.bin"
	fi
	echo "ok: $layer"
done
