#!/bin/sh
# plot_reading.sh VTASIM CHECK SRC WORK: what a person reads off the plots, checked on a real
# sweep (a layers axis whose two values give the same points, decompress hw/host, two DRAM
# latencies) by reading gnuplot's own rendering of each chart as text (the dumb terminal):
# - every chart's tick labels differ from one another (no axis of "2 2 2");
# - series with the same points are one line whose legend names them all
#   ("layers=A|all, decompress=hw|host"), and no two lines of a chart hold the same data;
# - a text axis (decompress, layers) is drawn as grouped bars, a bar per value;
# - a layer name with a backquote reaches the scripts only as text: gnuplot runs nothing
#   (a marker file the command would create never appears).
# Exit 77 (skipped) without gnuplot.
set -eu
vtasim=$1 src=$3 work=$4
command -v gnuplot > /dev/null || { echo "plot_reading: gnuplot is not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "plot_reading: $*"; exit 1; }
sed 's/name: narrow/name: "n`touch INJ`"/' "$src/tests/sweep/two_layers.yaml" | sed '/name: wide/,$d' > wl.yaml
cat > s.yaml <<YAML
config: $src/configs/tiny.yaml
workload: wl.yaml
axes:
  layers: ["n\`touch INJ\`", all]
  decompress: [hw, host]
  dram.latency_cycles: [16, 17]
YAML
"$vtasim" sweep s.yaml -o out > run.log 2>&1 || fail "$(cat run.log)"
grep -q "^8 points: 8 ok" run.log || fail "$(cat run.log)"
[ ! -e INJ ] && [ ! -e out/plots/INJ ] || fail "a layer name ran as a command in gnuplot"
grep -q "^Not drawn" out/index.html && fail "index.html: a plot was not drawn"

# the chart as text: the .gp with the dumb terminal instead of PNG and SVG
dumb() {
	sed -e 's/^set terminal pngcairo.*/set terminal dumb size 110,32/' -e '/^set output/d' \
		-e '/^set terminal svg/,$d' "$1" | (cd out/plots && gnuplot 2> /dev/null)
}
# the labels of the left axis: a label, then the axis' frame
yticks() { dumb "$1" | sed -n 's/^ *\([^ |+:]\{1,\}\) [|+].*/\1/p'; }
n=0
for gp in out/plots/*.gp; do
	ticks=$(yticks "$gp")
	[ "$(echo "$ticks" | grep -c .)" -ge 2 ] || fail "$gp: fewer than two tick labels: $ticks"
	[ "$(echo "$ticks" | sort | uniq -d | grep -c .)" -eq 0 ] ||
		fail "$gp: tick labels repeat: $(echo $ticks)"
	n=$((n + 1))
done
[ $n -ge 8 ] || fail "$n charts"

# one line for the four identical series, its legend naming them
gp=out/plots/cycles_vs_dram_latency_cycles.gp
[ "$(grep '^plot' "$gp" | grep -o "title '" | wc -l)" -eq 1 ] || fail "$(grep ^plot "$gp")"
grep -q "title 'layers=n\`touch INJ\`|all, decompress=hw|host'" "$gp" || fail "legend: $(grep ^plot "$gp")"
# no chart draws the same data twice: its data blocks differ
for dat in out/plots/*_vs_*.dat; do
	awk 'BEGIN { RS = "\n\n\n" } /[0-9]/ { gsub(/#[^\n]*\n/, ""); gsub(/\n+$/, ""); if (seen[$0]++) bad = 1 }
		END { exit bad }' "$dat" || fail "$dat: two lines with the same points"
done

# grouped bars for the text axes: a bar per value in each group
for axis in decompress layers; do
	dat=out/plots/cycles_by_$axis.dat
	[ -f out/plots/cycles_by_$axis.png ] && [ -f out/plots/cycles_by_$axis.svg ] || fail "no cycles_by_$axis"
	grep -q "histograms" out/plots/cycles_by_$axis.gp || fail "cycles_by_$axis is not a bar chart"
	[ "$(grep -c '^"' "$dat")" -ge 2 ] || fail "$dat: $(cat "$dat")"
	awk '/^"/ { if (NF < 3) exit 1 }' "$dat" || fail "$dat: a group without its bars"
	grep -q "src=\"plots/cycles_by_$axis.svg\"" out/index.html || fail "index.html lacks cycles_by_$axis"
done
echo "plot_reading: ok ($n charts)"
