#!/bin/sh
# cost.sh - what a point of `vtasim sweep` costs: ResNet-18 C2-C11 on configs/default.yaml as
# one point inside a sweep (its own forked process, golden outputs read from the sweep's
# cache) against a lone `vtasim run` of the same config, alternated REPEATS times (the
# machine may be shared: medians, in the same run); then a 12-point sweep of the same
# workload (INP x WGT x ACC sizes) with -j 1 and -j 2, in points per minute.
# Usage: bench/sweep/cost.sh [BUILD_DIR] [REPEATS]
set -eu
build=${1:-build}
repeats=${2:-5}
cd "$(dirname "$0")/../.."
src=$(pwd)
vtasim="$build/vtasim"
[ -x "$vtasim" ] || { echo "cost.sh: $vtasim not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

cat > "$tmp/one.yaml" << EOF
config: $src/configs/default.yaml
workload: $src/configs/workloads/resnet18.yaml
EOF
cat > "$tmp/twelve.yaml" << EOF
config: $src/configs/default.yaml
workload: $src/configs/workloads/resnet18.yaml
axes:
  sram_kib.inp: [16, 32]
  sram_kib.wgt: [64, 128, 256]
  sram_kib.acc: [64, 128]
EOF
# the goldens once, as a sweep computes them before its points
"$vtasim" sweep "$tmp/one.yaml" -o "$tmp/warm" -j 2 --no-plots > /dev/null

for i in $(seq "$repeats"); do
	t0=$(now)
	"$vtasim" run -c configs/default.yaml -w configs/workloads/resnet18.yaml > /dev/null
	t1=$(now)
	"$vtasim" sweep "$tmp/one.yaml" -o "$tmp/s$i" -j 1 --golden "$tmp/warm/golden" \
		--no-plots > /dev/null
	t2=$(now)
	echo "$t0 $t1" | awk '{ print $2 - $1 }' >> "$tmp/lone"
	echo "$t1 $t2" | awk '{ print $2 - $1 }' >> "$tmp/sweep"
	# the point's own process, from its fork to its record: the record's "seconds"
	sed -n 's/^ *"seconds": \([0-9.e+-]*\),*$/\1/p' "$tmp/s$i"/points/*.json >> "$tmp/point"
done
lone=$(median < "$tmp/lone")
point=$(median < "$tmp/point")
whole=$(median < "$tmp/sweep")
printf 'ResNet-18 C2-C11, default config, median of %s (host seconds)\n' "$repeats"
printf '  lone vtasim run                 %.2f\n' "$lone"
printf '  the point inside a sweep        %.2f  (%.2fx of the lone run)\n' "$point" \
	"$(echo "$point $lone" | awk '{ print $1 / $2 }')"
printf '  a whole one-point sweep command %.2f  (%.2fx)\n' "$whole" \
	"$(echo "$whole $lone" | awk '{ print $1 / $2 }')"

for j in 1 2; do
	rm -rf "$tmp/t$j"
	t0=$(now)
	"$vtasim" sweep "$tmp/twelve.yaml" -o "$tmp/t$j" -j $j --golden "$tmp/warm/golden" \
		--no-plots > /dev/null
	t1=$(now)
	echo "$t0 $t1" | awk -v j=$j '{ s = $2 - $1; printf "12 points, -j %d: %.1f s, %.1f points per minute\n", j, s, 12 * 60 / s }'
done
