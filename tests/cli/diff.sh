#!/bin/sh
# diff.sh VTASIM CHECK SRC WORK (CHECK: tests/sweep's sweep_check, to read the reports): `vtasim diff` on real reports. The same layer workload on two
# bus widths: the rows match by name, the change is B against A, --threshold gates (exit 1
# beyond it, 0 within), a report against itself moves nothing; two model runs match by
# operator; a layer run against a model run, a JSON that is no report and a missing file
# are one error line each, exit status 2.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "diff: $*"; exit 1; }
cfg=$src/configs/default.yaml
wl=$src/tests/cli/workloads/conv_odd.yaml
"$vtasim" run -c "$cfg" -w "$wl" -o a.json > /dev/null
"$vtasim" run -c "$cfg" --set dram.bus_bits=128 -w "$wl" -o b.json > /dev/null

out=$("$vtasim" diff a.json b.json) || fail "no --threshold must exit 0: $out"
echo "$out" | grep -q "^diff: a.json -> b.json (layer run reports, 5 rows and the total)$" || fail "$out"
# the total's cycles, A and B as the reports hold them, and the signed change between them
ca=$("$check" json a.json total.cycles)
cb=$("$check" json b.json total.cycles)
want=$(awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%+.2f%%", (b - a) / a * 100 }')
echo "$out" | grep -Eq "^total +cycles +$ca +$cb +$want$" || fail "want total $ca -> $cb ($want): $out"
echo "$out" | grep -Eq "^c17_stride2 +cycles " || fail "$out"
set +e
"$vtasim" diff a.json b.json --threshold 1 > t1.out; rc=$?
set -e
[ $rc -eq 1 ] || fail "a 128-bit bus moves cycles by more than 1%: exit $rc"
grep -q "^[0-9]* of [0-9]* values moved by more than 1%$" t1.out || fail "$(cat t1.out)"
"$vtasim" diff a.json b.json --threshold 1000 > /dev/null || fail "within 1000% must exit 0"
out=$("$vtasim" diff a.json a.json --threshold 0) || fail "a report against itself: $out"
echo "$out" | grep -q "^no value moved by more than 0% (30 compared)$" || fail "$out"

pd=$src/tests/model/data/person_detect.tflite
"$vtasim" run -c "$cfg" -m "$pd" -o ma.json > /dev/null
"$vtasim" run -c "$cfg" --set dram.latency_cycles=128 -m "$pd" -o mb.json > /dev/null
out=$("$vtasim" diff ma.json mb.json) || fail "$out"
echo "$out" | grep -q "(model run reports, 31 rows and the total)$" || fail "$out"
echo "$out" | grep -Eq "^op 2 CONV_2D +cycles " || fail "$out"
echo "$out" | grep -Eq "^ +inferences_per_second " || fail "$out"

expect() { # expect PATTERN ARGS...: exit status 2 and one error line matching
	pattern=$1; shift
	set +e
	"$vtasim" diff "$@" > e.out 2> e.err; rc=$?
	set -e
	[ $rc -eq 2 ] && [ "$(wc -l < e.err)" -eq 1 ] && grep -q "$pattern" e.err ||
		fail "diff $*: exit $rc, $(cat e.err)"
}
expect "^vtasim: error: a.json is a layer run report and ma.json a model run report: compare reports of the same kind$" a.json ma.json
echo '{"layers": 3}' > x.json
expect "^vtasim: error: x.json: not a run report of vtasim run -o" x.json a.json
expect "^vtasim: error: nope.json: " a.json nope.json
expect "^vtasim: error: --threshold '-1': expected a percentage >= 0$" a.json b.json --threshold -1
expect "^vtasim: error: diff: no report: give A.json B.json" a.json
exit 0
