#!/bin/sh
# plots.sh VTASIM CHECK SRC WORK: a sweep whose axes call for every kind of plot writes each as a
# PNG and an SVG of some substance, and index.html shows them (exit 77, skipped, without
# gnuplot).
set -eu
vtasim=$1 src=$3 work=$4
command -v gnuplot > /dev/null || { echo "plots: gnuplot is not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
fail() { echo "plots: $*"; exit 1; }

"$vtasim" sweep "$src/tests/sweep/plots.yaml" -o "$work/p" -j 2 > "$work/p.log" ||
	fail "the sweep failed: $(cat "$work/p.log")"
grep -q "^12 points: 12 ok" "$work/p.log" || fail "$(cat "$work/p.log")"
for plot in cycles_vs_sram_kib_wgt cycles_vs_arch_log_block_in utilization_heatmap \
	pareto_sram_cycles lut_bits; do
	png="$work/p/plots/$plot.png" svg="$work/p/plots/$plot.svg"
	[ -f "$png" ] && [ -f "$svg" ] || fail "$plot: not drawn ($(ls "$work/p/plots"))"
	# a 960x600 chart with axes, lines and labels is well above these
	[ "$(wc -c < "$png")" -gt 10000 ] || fail "$plot.png: $(wc -c < "$png") bytes"
	[ "$(wc -c < "$svg")" -gt 10000 ] || fail "$plot.svg: $(wc -c < "$svg") bytes"
	head -c 8 "$png" | od -An -c | grep -q "P   N   G" || fail "$plot.png is not a PNG"
	grep -q "<svg" "$svg" || fail "$plot.svg is not an SVG"
	[ "$(grep -c "^[0-9]" "$work/p/plots/$plot.dat")" -ge 2 ] || fail "$plot.dat: no data"
	grep -q "src=\"plots/$plot.svg\"" "$work/p/index.html" || fail "index.html lacks $plot"
done
grep -q "Not drawn" "$work/p/index.html" && fail "index.html: a plot was not drawn"
exit 0
