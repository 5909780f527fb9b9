#!/bin/sh
# docs_timings.sh VTASIM [SRC]: measure the host times the docs quote and write them into
# the pages. A quoted time is marked in the page source as
#
#     <!-- timed: ID -->7.9 s<!-- /timed -->
#
# (the comments do not show when the page is rendered), and ID names one command below:
# each is run (best of two, wall time, from SRC with a fresh output folder) and every
# marked text of that ID is replaced by the measured time. Run it on an idle machine after
# a change that moves host time, and commit the pages it rewrote.
#
# docs_timings.sh --check [SRC]: no measuring; fail when a page marks an ID this script
# does not measure, or the script measures an ID no page marks (`make test` runs this).
set -eu

# ID and the vtasim arguments it times; @OUT is a fresh folder
COMMANDS='sweep_sram_block|sweep configs/sweeps/sram_block.yaml -o @OUT -j 2 --no-plots
sweep_sram_wide|sweep configs/sweeps/sram_wide.yaml -o @OUT -j 2 --no-plots
sweep_dram_bus_latency|sweep configs/sweeps/dram_bus_latency.yaml -o @OUT -j 2 --no-plots
sweep_lut_fc|sweep configs/sweeps/lut_fc.yaml -o @OUT -j 2 --no-plots
sweep_person_detect|sweep configs/sweeps/person_detect.yaml -o @OUT -j 2 --no-plots
sweep_energy_resnet|sweep configs/sweeps/energy_resnet.yaml -o @OUT -j 2 --no-plots
sweep_decoder_modes|sweep configs/sweeps/decoder_modes.yaml -o @OUT -j 2 --no-plots
run_person_detect|run -c configs/default.yaml -m tests/model/data/person_detect.tflite -o @OUT.json
run_mobilenet_v2|run -c configs/default.yaml -m tests/model/data/mobilenet_v2_quantized_1x3x224x224.tflite -o @OUT.json'

ids_measured() { printf '%s\n' "$COMMANDS" | cut -d'|' -f1 | sort -u; }
ids_marked() {
	grep -oh '<!-- timed: [a-z0-9_]* -->' "$1"/README.md "$1"/docs/*.md |
		sed 's/<!-- timed: \([a-z0-9_]*\) -->/\1/' | sort -u
}

if [ "${1:-}" = --check ]; then
	src=$(cd "${2:-.}" && pwd)
	ids_measured > "${TMPDIR:-/tmp}/docs_timings.$$.a"
	ids_marked "$src" > "${TMPDIR:-/tmp}/docs_timings.$$.b"
	status=0
	comm -23 "${TMPDIR:-/tmp}/docs_timings.$$.a" "${TMPDIR:-/tmp}/docs_timings.$$.b" |
		while read -r id; do echo "docs_timings: $id is measured but no page marks it"; done
	comm -13 "${TMPDIR:-/tmp}/docs_timings.$$.a" "${TMPDIR:-/tmp}/docs_timings.$$.b" |
		while read -r id; do echo "docs_timings: a page marks $id, which is not measured"; done
	cmp -s "${TMPDIR:-/tmp}/docs_timings.$$.a" "${TMPDIR:-/tmp}/docs_timings.$$.b" || status=1
	# every marker is closed on its line
	if grep -n '<!-- timed: [a-z0-9_]* -->' "$src"/README.md "$src"/docs/*.md | grep -v '<!-- timed: [a-z0-9_]* -->[^<]*<!-- /timed -->'; then
		echo "docs_timings: a marker above is not closed by <!-- /timed --> on its line"
		status=1
	fi
	rm -f "${TMPDIR:-/tmp}/docs_timings.$$.a" "${TMPDIR:-/tmp}/docs_timings.$$.b"
	[ $status -eq 0 ] && echo "docs_timings: $(ids_measured | wc -l) timed figures, each marked"
	exit $status
fi

vtasim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "${2:-.}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/vtasim-timings.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$src"
now() { date +%s.%N; }
printf '%s\n' "$COMMANDS" | while IFS='|' read -r id args; do
	best=
	for try in 1 2; do
		out=$work/$id.$try
		# shellcheck disable=SC2086 # the arguments are words of the table above
		set -- $(printf '%s' "$args" | sed "s|@OUT|$out|g")
		t0=$(now)
		"$vtasim" "$@" > "$work/$id.log" 2>&1 || { echo "docs_timings: $id failed: $(tail -2 "$work/$id.log")"; exit 1; }
		t=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
		best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
	done
	shown=$(awk -v t="$best" 'BEGIN { printf (t < 1 ? "%.2f s" : "%.1f s"), t }')
	echo "$id: $shown"
	for page in README.md docs/*.md; do
		grep -q "<!-- timed: $id -->" "$page" || continue
		perl -pi -e "s|(<!-- timed: $id -->)[^<]*(<!-- /timed -->)|\${1}$shown\${2}|g" "$page"
	done
done
