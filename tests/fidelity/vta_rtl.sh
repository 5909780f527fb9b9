#!/bin/sh
# vtasim's cycles against VTA's Chisel RTL (tests/fidelity/vta-rtl/README.md): every program
# of the set at every DRAM latency of cycles.csv, on configs/vta-chisel-rtl.yaml. Prints the
# error table (signed mean / mean |err| / max |err|, in %, per kind and latency) and fails
# unless the mean |error| is at most MEAN_MAX % and every run is within RUN_MAX %.
#   vta_rtl.sh VTASIM ROOT [DATA_DIR] [CONFIG]
set -eu
VTASIM=$1
ROOT=$2
DATA=${3:-$ROOT/tests/fidelity/vta-rtl}
CONFIG=${4:-$ROOT/configs/vta-chisel-rtl.yaml}
MEAN_MAX=${MEAN_MAX:-2}
RUN_MAX=${RUN_MAX:-5}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# program, kind, L, rtl cycles, vtasim cycles
tail -n +2 "$DATA/cycles.csv" | while IFS=, read -r prog kind lat rtl _; do
	cycles=$("$VTASIM" exec -c "$CONFIG" "$DATA/programs/$prog.s" \
		--set dram.latency_cycles="$lat" | awk '$1 == "cycles" { print $2; exit }')
	if [ -z "$cycles" ]; then
		echo "vta_rtl: $prog at latency $lat did not run" >&2
		exit 1
	fi
	echo "$prog $kind $lat $rtl $cycles"
done >"$tmp"

awk -v mean_max="$MEAN_MAX" -v run_max="$RUN_MAX" '
function abs(x) { return x < 0 ? -x : x }
{
	e = ($5 - $4) / $4 * 100
	k = $2 SUBSEP $3
	n[k]++; s[k] += e; a[k] += abs(e); if (abs(e) > m[k]) m[k] = abs(e)
	kinds[$2] = 1; lats[$3] = 1
	N++; A += abs(e); if (abs(e) > M) { M = abs(e); worst = $1 " at latency " $3 " (RTL " $4 ", vtasim " $5 ")" }
	if (abs(e) > run_max) { bad++; print "vta_rtl: " $1 " at latency " $3 ": RTL " $4 ", vtasim " $5 sprintf(" (%+.1f%%)", e) }
}
END {
	nl = 0; for (l in lats) ls[++nl] = l + 0
	for (i = 1; i <= nl; i++) for (j = i + 1; j <= nl; j++) if (ls[j] < ls[i]) { t = ls[i]; ls[i] = ls[j]; ls[j] = t }
	nk = 0; for (k in kinds) ks[++nk] = k
	for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++) if (ks[j] < ks[i]) { t = ks[i]; ks[i] = ks[j]; ks[j] = t }
	printf "%-10s", "kind"; for (i = 1; i <= nl; i++) printf " | %-19s", "L=" ls[i]; printf "\n"
	for (i = 1; i <= nk; i++) {
		printf "%-10s", ks[i]
		for (j = 1; j <= nl; j++) { k = ks[i] SUBSEP ls[j]; printf " | %5.1f / %4.1f / %4.1f", s[k] / n[k], a[k] / n[k], m[k] }
		printf "\n"
	}
	printf "all: %d runs, mean |error| %.2f%%, max %.1f%% (%s), %d beyond %s%%\n", N, A / N, M, worst, bad, run_max
	if (A / N > mean_max || bad > 0) { printf "vta_rtl: FAILED (limits: mean %s%%, every run %s%%)\n", mean_max, run_max; exit 1 }
}' "$tmp"
