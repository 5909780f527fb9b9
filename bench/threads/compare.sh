#!/bin/sh
# compare.sh - two virtual threads against one on real models: person_detect, micro_speech and
# MobileNet v2 (`vtasim run -m`) and ResNet-18 C2-C11 (configs/workloads/resnet18.yaml), each
# run with --threads 1 and --threads 2 on configs/default.yaml. Per workload: the layers run,
# those slower with two threads (cycles with one and with two), and the summed cycles; then the
# totals. Exit status 1 when a layer is slower with two threads (docs/runtime.md "Two threads
# never worse than one"); a model that is not there is skipped.
# Usage: bench/threads/compare.sh [BUILD_DIR [MODELS_DIR]]
set -eu
build=${1:-build}
models=${2:-/work/shared/models}
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# cycles NAME TEXT: one "layer cycles" line per accelerated layer of a run's text report
cycles() {
	awk '
		/^  op  name / { ops = 1; next }
		ops && $3 == "accel" { print $1 "_" $2, $4; next }
		ops && /^$/ && n++ { ops = 0 }
		/^roofline \(/ { roof = 1; next }
		roof && $1 == "name" { next }
		roof && $1 == "sum" { roof = 0; next }
		roof && NF == 6 { print $1, $2 }
	' "$1"
}

slower=0
runs=0
for w in person_detect:m:$models/person_detect.tflite \
	 micro_speech:m:$models/micro_speech_quantized.tflite \
	 mobilenet_v2:m:$models/mobilenet_v2_quantized_1x3x224x224.tflite \
	 resnet18:w:configs/workloads/resnet18.yaml; do
	name=${w%%:*}
	rest=${w#*:}
	form=${rest%%:*}
	file=${rest#*:}
	if [ ! -f "$file" ]; then
		echo "$name: skipped ($file is not there)"
		continue
	fi
	for t in 1 2; do
		"$build/vtasim" run -c configs/default.yaml -$form "$file" --threads $t \
			>"$out/$name.$t" 2>&1 ||
			{ echo "compare: $name with $t thread(s) failed" >&2; tail -3 "$out/$name.$t" >&2
			  exit 2; }
		cycles "$out/$name.$t" >"$out/$name.$t.cyc"
	done
	sort "$out/$name.1.cyc" >"$out/1" && sort "$out/$name.2.cyc" >"$out/2"
	join "$out/1" "$out/2" >"$out/$name.cmp"
	awk -v name="$name" '
		{ n++; s1 += $2; s2 += $3 }
		$3 > $2 { bad++; printf "  %s %s: %d cycles with one thread, %d with two (%+.2f%%)\n",
			  name, $1, $2, $3, 100 * ($3 - $2) / $2 }
		END { printf "%s: %d layers, %d slower with two threads; cycles %d with one, %d with two\n",
		      name, n, bad, s1, s2 }
	' "$out/$name.cmp"
	runs=$((runs + $(wc -l <"$out/$name.cmp")))
	slower=$((slower + $(awk '$3 > $2' "$out/$name.cmp" | wc -l)))
done
echo "total: $runs layer runs, $slower slower with two threads"
[ "$slower" -eq 0 ]
