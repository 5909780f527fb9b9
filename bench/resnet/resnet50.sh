#!/bin/sh
# resnet50.sh - the 53 convolutions of ResNet-50 (configs/workloads/resnet50.yaml) in one
# `vtasim run` per config and thread count: wall and user host seconds, peak resident memory
# (/usr/bin/time -v), simulated cycles, their ratio to the roofline, and simulated cycles per
# wall and per user CPU host second of the whole run (data generation, planning, simulation
# and the bit-exact check included; on a loaded machine the CPU figure is the one to read). A run that fails or is not bit-exact stops the benchmark.
# Usage: bench/resnet/resnet50.sh [BUILD_DIR]
set -eu
build=${1:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-8s %3s %8s %8s %9s %12s %6s %13s %13s\n' config thr wall_s user_s peak_MiB cycles \
	x_roof cycles/wall_s cycles/user_s
for cfg in default tiny; do
	for t in 2 1; do
		/usr/bin/time -v "$build/vtasim" run -c configs/$cfg.yaml \
			-w configs/workloads/resnet50.yaml --threads $t >"$out/run.txt" 2>"$out/time.txt" ||
			{ echo "resnet50: the $cfg run failed" >&2; tail -3 "$out/run.txt" >&2; exit 1; }
		grep -q '^verdict: BIT-EXACT' "$out/run.txt" ||
			{ echo "resnet50: the $cfg run is not bit-exact" >&2; exit 1; }
		# the total's line: "  cycles            N (...), roofline R: X.XXx"
		sed -n '/^total/,$ s/^  cycles  *\([0-9]*\) .*roofline \([0-9]*\).*/\1 \2/p' \
			"$out/run.txt" | head -1 >"$out/cyc"
		wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time.txt" |
			awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
		user=$(sed -n 's/.*User time (seconds): //p' "$out/time.txt")
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/time.txt")
		read -r cyc roof <"$out/cyc"
		echo "$cfg $t $wall $user $rss $cyc $roof" | awk '{ printf "%-8s %3d %8.2f %8.2f %9.1f %12d %6.2f %13.3g %13.3g\n", $1, $2, $3, $4, $5 / 1024, $6, $6 / $7, $6 / $3, $6 / $4 }'
	done
done
