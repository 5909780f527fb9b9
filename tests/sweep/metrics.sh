#!/bin/sh
# metrics.sh VTASIM CHECK SRC WORK: a sweep's `metrics:` are columns computed from each row's
# other columns. Every metric cell of a real sweep is recomputed here from the cells it reads
# (awk, not vtasim); a column a row lacks leaves its metric empty without a word; a value an
# expression cannot have (division by zero) leaves the cell empty with one note naming the
# expression's place; a rerun into the folder (resume) and a model sweep carry them too.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "metrics: $*"; exit 1; }
cat > m.yaml <<YAML
config: $src/configs/tiny.yaml
workload: $src/tests/cli/workloads/conv_odd.yaml
axes:
  threads: [1, 2]
metrics:
  pj_per_mac: energy.total_pj / macs
  gops_per_mm2: 2 * macs / time_us / 1000 / area.total_mm2
  efficient: pj_per_mac < 20 && bound == 'gemm'
  per_thread: cycles / (threads - 1)
YAML
"$vtasim" sweep m.yaml -o out > run.out 2> run.err || fail "$(cat run.err)"
[ "$(wc -l < run.err)" -eq 1 ] || fail "one note expected: $(cat run.err)"
grep -q "^vtasim: note: .*/m.yaml:9:22: metric per_thread: division by zero (point 0, layer c3_same_lut2); 6 metric cells left empty$" run.err ||
	fail "$(cat run.err)"

near() { # near GOT WANT: equal to 1e-9 relative
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && d * d <= 1e-18 * b * b) }'
}
for p in 0 1; do
	e=$("$check" get out $p total energy.total_pj)
	m=$("$check" get out $p total macs)
	t=$("$check" get out $p total time_us)
	a=$("$check" get out $p total area.total_mm2)
	c=$("$check" get out $p total cycles)
	b=$("$check" get out $p total bound)
	got=$("$check" get out $p total pj_per_mac)
	near "$got" "$(awk -v e="$e" -v m="$m" 'BEGIN { printf "%.17g", e / m }')" ||
		fail "point $p pj_per_mac $got, energy $e over $m MACs"
	got=$("$check" get out $p total gops_per_mm2)
	near "$got" "$(awk -v m="$m" -v t="$t" -v a="$a" 'BEGIN { printf "%.17g", 2 * m / t / 1000 / a }')" ||
		fail "point $p gops_per_mm2 $got"
	want=$(awk -v e="$e" -v m="$m" -v b="$b" 'BEGIN { print (e / m < 20 && b == "gemm") ? 1 : 0 }')
	[ "$("$check" get out $p total efficient)" = "$want" ] || fail "point $p efficient"
done
# point 1 (two threads) divides by 1; point 0 by zero: empty
[ "$("$check" get out 1 total per_thread)" = "$("$check" get out 1 total cycles)" ] || fail "per_thread"
[ "$("$check" get out 0 total per_thread)" = - ] || fail "a division by zero has a value"
# a layer row has no area (a run's area is its total's): that metric is empty there ("-")
[ "$("$check" get out 0 c17_stride2 gops_per_mm2)" = - ] || fail "layer gops_per_mm2"
[ "$("$check" get out 0 c17_stride2 pj_per_mac)" != - ] || fail "layer pj_per_mac"
head -1 out/results.csv | grep -q ",pj_per_mac,gops_per_mm2,efficient,per_thread$" ||
	fail "the metrics are the last columns: $(head -1 out/results.csv)"

# a rerun runs nothing and writes the same table, metrics and all
cp -r out first
"$vtasim" sweep m.yaml -o out > /dev/null 2>&1
"$check" same first out > same.out || fail "rerun: $(cat same.out)"
grep -q ",pj_per_mac,gops_per_mm2,efficient,per_thread$" out/results.csv || fail "rerun lost the metrics"

# an edited manifest whose metric name is no name (it would become a file and a script
# line of the plots): one line, exit status 2, nothing run
cp -r out edited
sed -i 's/"name": "pj_per_mac"/"name": "p`touch INJ`"/' edited/sweep.json
set +e
"$vtasim" sweep --merge edited > /dev/null 2> edited.err; rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l < edited.err)" -eq 1 ] &&
	grep -q "^vtasim: error: sweep.json: metric 'p\\x60touch INJ\\x60' is not a name$\|^vtasim: error: sweep.json: metric 'p.touch INJ.' is not a name$" edited.err ||
	fail "edited manifest: exit $rc: $(cat edited.err)"
[ ! -e INJ ] && [ ! -e edited/plots/INJ ] || fail "a metric name ran as a command"

# a model sweep: the operators' rows and the total's
sed "s|^config: .*|config: $src/configs/default.yaml|; s|^workload: .*|workload: $src/tests/model/data/person_detect.tflite|" \
	"$src/tests/sweep/model.yaml" > model.yaml
printf 'metrics:\n  uj: energy.total_pj / 1000000\n  on_accel: where == "accel"\n' >> model.yaml
"$vtasim" sweep model.yaml -o mo > /dev/null 2> mo.err || fail "$(cat mo.err)"
[ ! -s mo.err ] || fail "model: $(cat mo.err)"
e=$("$check" get mo 0 total energy.total_pj)
near "$("$check" get mo 0 total uj)" "$(awk -v e="$e" 'BEGIN { printf "%.17g", e / 1000000 }')" || fail "model uj"
[ "$("$check" get mo 0 "0 DEPTHWISE_CONV_2D" on_accel)" = 1 ] || fail "op 0 on_accel"
[ "$("$check" get mo 0 total on_accel)" = - ] || fail "the total has no 'where'"
echo "metrics: ok"
