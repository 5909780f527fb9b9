#!/bin/sh
# energy.sh VTASIM CHECK SRC WORK: a run's energy, recomputed here from the statistics of its
# own JSON report and the default config's energy table (docs/energy.md), equals what the
# report says, part by part, for every layer and the total; doubling one key (the MAC's)
# moves only the GEMM part and the total, by exactly the MACs times the change.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "energy: $*"; exit 1; }
cfg=$src/configs/default.yaml
"$vtasim" run -c "$cfg" -w "$src/configs/workloads/demo.yaml" -o a.json > /dev/null
"$vtasim" run -c "$cfg" -w "$src/configs/workloads/demo.yaml" --set energy.mac_pj=0.6 -o b.json > /dev/null
get() { "$check" json "$1" "$2"; }
# near FILE PATH WANT: the report's value within 1e-9 relative of WANT
near() {
	got=$(get "$1" "$2")
	awk -v g="$got" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; s = w < 0 ? -w : w;
		exit !(d <= 1e-9 * (s > 1 ? s : 1)) }' || fail "$1 $2: report $got, recomputed $3"
}
# the default config: row bytes and capacities (KiB) of uop inp wgt acc out, the table memory
rows="uop:4:32 inp:16:32 wgt:256:256 acc:64:128 out:16:32"
# pJ per 64-bit access of an SRAM of K KiB: log-log through (8, 10), (32, 20), (1024, 100)
sram_pj='function e64(k,  lx) { lx = log(k) / log(2);
	if (lx < 5) return 10 * exp(log(2) * (lx - 3) / 2);
	return 20 * exp((log(5) / log(2)) * log(2) * (lx - 5) / 5) }
function row(k, b,  w, n) { w = b / 8; n = w > 1 ? w : 1; return e64(k / n) * w }'
for at in layers.0 layers.1 total; do
	sram=0
	for r in $rows; do
		name=${r%%:*} rest=${r#*:}; bytes=${rest%%:*}; kib=${rest#*:}
		reads=$(get a.json "$at.sram.$name.reads") writes=$(get a.json "$at.sram.$name.writes")
		want=$(awk -v k="$kib" -v b="$bytes" -v n="$((reads + writes))" "$sram_pj
			BEGIN { printf \"%.17g\", row(k, b) * n }")
		near a.json "$at.energy.sram_${name}_pj" "$want"
	done
	near a.json "$at.energy.dram_read_pj" "$(awk -v b="$(get a.json "$at.dram.read_bytes.total")" 'BEGIN { printf "%.17g", b * 162.5 }')"
	near a.json "$at.energy.dram_write_pj" "$(awk -v b="$(get a.json "$at.dram.write_bytes.total")" 'BEGIN { printf "%.17g", b * 162.5 }')"
	near a.json "$at.energy.gemm_pj" "$(awk -v m="$(get a.json "$at.macs")" 'BEGIN { printf "%.17g", m * 0.3 }')"
	near a.json "$at.energy.alu_pj" "$(awk -v u="$(get a.json "$at.alu_uops")" 'BEGIN { printf "%.17g", u * 16 * 0.1 }')"
	near a.json "$at.energy.fetch_pj" "$(awk -v i="$(get a.json "$at.modules.fetch.insns")" 'BEGIN { printf "%.17g", i * 2 * 2 * 10 }')"
	near a.json "$at.energy.leakage_pj" "$(awk -v c="$(get a.json "$at.cycles")" 'BEGIN { printf "%.17g", (32 + 32 + 256 + 128 + 32 + 32) * c * 0.02 }')"
	el=$(get a.json "$at.decoder.elements" 2> /dev/null || echo 0)
	tb=$(get a.json "$at.decoder.table_bytes" 2> /dev/null || echo 0)
	[ "$el" = - ] && el=0; [ "$tb" = - ] && tb=0
	near a.json "$at.energy.decoder_pj" "$(awk -v e="$el" -v t="$tb" 'BEGIN { x = 20 * 4 / 8; printf "%.17g", e * (0.03 + x) + t * x / 4 }')"
	# the total is the sum of the parts
	sum=0
	for p in dram_read dram_write sram_uop sram_inp sram_wgt sram_acc sram_out gemm alu fetch decoder leakage; do
		sum=$(awk -v s="$sum" -v v="$(get a.json "$at.energy.${p}_pj")" 'BEGIN { printf "%.17g", s + v }')
	done
	near a.json "$at.energy.total_pj" "$sum"
	# the MAC's energy doubled: only the GEMM part and the total move, by MACs x 0.3
	for p in dram_read dram_write sram_uop sram_inp sram_wgt sram_acc sram_out alu fetch decoder leakage; do
		near b.json "$at.energy.${p}_pj" "$(get a.json "$at.energy.${p}_pj")"
	done
	delta=$(awk -v m="$(get a.json "$at.macs")" 'BEGIN { printf "%.17g", m * 0.3 }')
	near b.json "$at.energy.total_pj" "$(awk -v a="$(get a.json "$at.energy.total_pj")" -v d="$delta" 'BEGIN { printf "%.17g", a + d }')"
done
exit 0
