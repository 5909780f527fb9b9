#!/bin/sh
# host_phases.sh VTASIM SRC: the host's time per phase in the reports (docs/cli.md "Report
# keys"): a model run's text line and total.host_phases, every phase a number, none negative,
# the phases inside the run no more than its wall time; a workload run's plan chooser in its
# host line and per layer.
set -u
vtasim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAILED: $*"
	cat "$tmp/out.txt" "$tmp/r.json" 2>/dev/null
	exit 1
}
"$vtasim" run -c "$src/configs/default.yaml" -m "$src/tests/model/data/person_detect.tflite" \
	-o "$tmp/r.json" > "$tmp/out.txt" 2>&1 || fail "run -m person_detect"
n='[0-9]+\.[0-9]+ s'
grep -q -E "^  host phases        simulation $n, golden $n, checks $n, emit $n, plan $n, host ops $n, reference $n, staging $n, one-thread streams $n, rest $n; reading $n before the run$" \
	"$tmp/out.txt" || fail "no host phases line"
# the object's keys, one per line, each a number >= 0
sed -n '/"host_phases": {/,/}/p' "$tmp/r.json" > "$tmp/ph.txt"
for k in simulation golden check emit plan host_ops reference staging threads rest read; do
	grep -q -E "^ *\"${k}_seconds\": [0-9.e+-]+,?$" "$tmp/ph.txt" || fail "no host_phases.${k}_seconds"
done
grep -E '^ *"[a-z_]+_seconds": -' "$tmp/ph.txt" && fail "a negative phase"
wall=$(sed -n 's/^ *"run_wall_seconds": \([0-9.e+-]*\),*$/\1/p' "$tmp/r.json")
awk -v wall="$wall" '
	/_seconds/ && !/rest_seconds/ && !/read_seconds/ { gsub(/[",]/, ""); s += $2 }
	/simulation_seconds/ { gsub(/[",]/, ""); sim = $2 }
	END { exit !(sim > 0 && s <= wall * 1.001 + 1e-6) }' "$tmp/ph.txt" ||
	fail "the phases ($tmp/ph.txt) do not fit the run's $wall s"
"$vtasim" run -c "$src/configs/tiny.yaml" -w "$src/tests/cli/workloads/repeated.yaml" \
	-o "$tmp/r.json" > "$tmp/out.txt" 2>&1 || fail "run repeated.yaml"
grep -q -E "^  host              simulation .*, emit $n, plan chooser $n, stream checks $n" "$tmp/out.txt" ||
	fail "no plan chooser in the host line"
[ "$(grep -c '"plan_seconds": ' "$tmp/r.json")" -eq 4 ] || fail "plan_seconds not per layer and total"
exit 0
