#!/bin/sh
# table_csv.sh VTASIM CHECK SRC WORK: `run -o X.csv` writes one row per layer (a workload) or
# operator (a model) and a total, every line with the header's number of fields; each
# accelerated row's cycles, MACs, DRAM bytes by type and energy are its JSON report's (the same
# run written both ways), the shares are recomputed here from the cycles and the energy, the
# total is the sum of the rows; a host operator has only its seconds. A CSV path that cannot be
# written is one error line, exit status 2, as a JSON one is.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "table_csv: $*"; exit 1; }
get() { "$check" json "$1" "$2"; }
# col FILE ROW NAME: the cell of a data row (1 = the first layer) under a header name (the
# names hold no comma; model names hold a space and no comma)
col() {
	awk -F, -v r="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		NR == r + 1 { print $(c[n]); exit }' "$1"
}
fields() { awk -F, '{ print NF }' "$1" | sort -u | wc -l; }
near() { awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
	s = b < 0 ? -b : b; exit !(a != "" && d <= tol * (s > 1 ? s : 1)) }'; }

# a layer workload, written as JSON and as CSV by the same command twice (timing is
# deterministic)
wl=$src/tests/cli/workloads/conv_odd.yaml cfg=$src/configs/tiny.yaml
"$vtasim" run -c "$cfg" -w "$wl" -o run.json > /dev/null
"$vtasim" run -c "$cfg" -w "$wl" -o run.csv > /dev/null
[ "$(fields run.csv)" -eq 1 ] || fail "rows of different widths"
n=$(awk 'END { print NR - 2 }' run.csv)
[ "$n" -eq 5 ] || fail "$n layer rows, want 5"
[ "$(col run.csv 6 name)" = total ] || fail "the last row is not the total"
sum_c=0 sum_e=0 sum_pct=0
total_c=$(get run.json total.cycles)
i=0
while [ $i -lt $n ]; do
	r=$((i + 1))
	[ "$(col run.csv $r name)" = "$(get run.json layers.$i.name)" ] || fail "row $r name"
	for k in cycles macs dram.read_bytes.wgt dram.read_bytes.inp dram.read_bytes.uop dram.read_bytes.total dram.write_bytes.total bound gemm_utilization; do
		[ "$(col run.csv $r $k)" = "$(get run.json layers.$i.$k)" ] ||
			fail "row $r $k: csv $(col run.csv $r $k), json $(get run.json layers.$i.$k)"
	done
	near "$(col run.csv $r energy.total_pj)" "$(get run.json layers.$i.energy.total_pj)" 1e-9 ||
		fail "row $r energy"
	c=$(col run.csv $r cycles)
	near "$(col run.csv $r cycles_pct)" "$(awk -v c="$c" -v t="$total_c" 'BEGIN { print 100 * c / t }')" 1e-3 ||
		fail "row $r cycles_pct $(col run.csv $r cycles_pct)"
	sum_c=$((sum_c + c))
	sum_e=$(awk -v a="$sum_e" -v b="$(col run.csv $r energy.total_pj)" 'BEGIN { printf "%.17g", a + b }')
	sum_pct=$(awk -v a="$sum_pct" -v b="$(col run.csv $r energy_pct)" 'BEGIN { printf "%.17g", a + b }')
	i=$((i + 1))
done
[ "$sum_c" -eq "$total_c" ] && [ "$(col run.csv 6 cycles)" -eq "$total_c" ] || fail "total cycles"
near "$(col run.csv 6 energy.total_pj)" "$sum_e" 1e-9 || fail "total energy is not the rows' sum"
near "$(col run.csv 6 energy.total_pj)" "$(get run.json total.energy.total_pj)" 1e-9 || fail "total energy vs json"
near "$sum_pct" 100 1e-3 || fail "energy shares add to $sum_pct"

# a model: accelerated, host and its total
model=$src/tests/model/data/person_detect.tflite dcfg=$src/configs/default.yaml
"$vtasim" run -m "$model" -c "$dcfg" -o model.json > /dev/null
"$vtasim" run -m "$model" -c "$dcfg" -o model.csv > /dev/null
[ "$(fields model.csv)" -eq 1 ] || fail "model rows of different widths"
[ "$(col model.csv 1 name)" = "0 DEPTHWISE_CONV_2D" ] || fail "model row 1: $(col model.csv 1 name)"
[ "$(col model.csv 1 cycles)" = "$(get model.json ops.0.cycles)" ] || fail "op 0 cycles"
[ "$(col model.csv 1 dram.read_bytes.total)" = "$(get model.json ops.0.dram_read_bytes)" ] || fail "op 0 dram"
[ "$(col model.csv 28 where)" = host ] && [ -z "$(col model.csv 28 cycles)" ] || fail "op 27 host"
[ -n "$(col model.csv 28 host_seconds)" ] || fail "op 27 host seconds"
last=$(awk 'END { print NR - 1 }' model.csv)
[ "$(col model.csv $last cycles)" = "$(get model.json total.accel_cycles)" ] || fail "model total cycles"
near "$(col model.csv $last energy.total_pj)" "$(get model.json total.energy.total_pj)" 1e-9 || fail "model total energy"

# the text report's share column is the same number
"$vtasim" run -c "$cfg" -w "$wl" | grep -Eq "^  c17_stride2 +$(col run.csv 2 cycles) +$(printf '%.1f' "$(col run.csv 2 cycles_pct)")% " ||
	fail "text %total"

# an unwritable CSV: one line, exit 2
set +e
"$vtasim" run -c "$cfg" -w "$wl" -o "$work/no/such/dir/r.csv" > /dev/null 2> e.err; rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l < e.err)" -eq 1 ] && grep -q "^vtasim: error: .*r.csv: cannot write: No such file or directory$" e.err ||
	fail "unwritable: exit $rc: $(cat e.err)"
echo "table_csv: ok"
