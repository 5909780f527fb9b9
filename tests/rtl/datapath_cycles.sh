#!/bin/sh
# datapath_cycles.sh - every regression case on both datapaths: the C timing model's unit
# cycles (GEMM/ALU pipeline, LUT decoder) against the RTL units' handshakes, instruction by
# instruction, and the same DRAM bytes after the run. They must agree exactly: the model's
# formulas are meant to be exact for the RTL as built (docs/rtl.md).
# Usage: datapath_cycles.sh VTASIM SOURCE_DIR
set -eu
vtasim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=0 insns=0 units=0 bad=0
for dir in "$src"/traces/*/; do
	[ -f "$dir/program.s" ] || continue
	name=$(basename "$dir")
	set -- exec -c "$dir/config.yaml" "$dir/program.s" --dump-dram "0:1048576:$tmp/DP.bin"
	[ -f "$dir/dram.bin" ] && set -- "$@" --dram "$dir/dram.bin"
	for dp in c rtl; do
		# failing cases fail on both datapaths; their logs hold the records up to the error
		"$vtasim" "$@" --set datapath=$dp --log "$tmp/$dp.txt" >/dev/null 2>&1 || true
		[ -f "$tmp/DP.bin" ] && mv "$tmp/DP.bin" "$tmp/$dp.bin"
		touch "$tmp/$dp.bin"
	done
	cmp -s "$tmp/c.bin" "$tmp/rtl.bin" || { echo "FAIL $name: DRAM differs"; bad=$((bad + 1)); }
	# field 9 of an instruction line is its unit cycles ('-' for none); an instruction that
	# failed a check stops where it is (the RTL after the uops it issued) and is left out
	grep -v '^#' "$tmp/c.txt" | awk 'NF > 9 && $3 == "retired" { print $1, $9 }' >"$tmp/c.u"
	grep -v '^#' "$tmp/rtl.txt" | awk 'NF > 9 && $3 == "retired" { print $1, $9 }' >"$tmp/rtl.u"
	if ! cmp -s "$tmp/c.u" "$tmp/rtl.u"; then
		echo "FAIL $name: unit cycles differ (insn c rtl):"
		join "$tmp/c.u" "$tmp/rtl.u" | awk '$2 != $3' | head -5
		bad=$((bad + 1))
	fi
	cases=$((cases + 1))
	insns=$((insns + $(wc -l <"$tmp/c.u")))
	units=$((units + $(awk '$2 != "-"' "$tmp/c.u" | wc -l)))
	rm -f "$tmp"/*.bin "$tmp"/*.txt
done
echo "$cases cases, $insns instructions, $units with datapath cycles: $bad differ"
[ "$bad" -eq 0 ]
