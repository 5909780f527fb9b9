#!/bin/sh
# timeline.sh VTASIM SRC CASE: the timeline picture (--timeline) of `vtasim exec` and `run`.
#   exec      docs/examples/gemm.s as SVG: well-formed XML, the four module lanes, every
#             instruction of the log a box (the subtitle's count) with its tooltip
#   window    the same with --timeline-window 150:300: exactly the instructions whose
#             execution overlaps the window (from the log) have a tooltip
#   png       a PNG of 1400x780 pixels
#   deadlock  docs/examples/deadlock.s: exit 1, the picture still written, marking the stop
#   summary   a stream of 4200 loads: the summary (columns, no per-instruction tooltips),
#             and the file stays small
#   run       a two-thread CONV2D layer: every instruction of the report is a box
set -u
vtasim=$1
src=$2
case=$3
cfg=$src/configs/default.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

die() {
	echo "FAIL: $*"
	exit 1
}

# Well-formed XML: xmllint (Debian libxml2-utils) when installed, else the outline.
well_formed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" || die "$1 is not well-formed XML"
	else
		head -c 200 "$1" | grep -q '<svg' || die "$1 does not start an <svg>"
		tail -n 2 "$1" | grep -q '</svg>' || die "$1 does not end </svg>"
	fi
}

lanes() {
	for m in fetch load compute store; do
		grep -q "<text>$m</text>" "$1" || die "$1 has no lane $m"
	done
}

tooltips() {
	grep -c 'gnuplot_svg.showHypertext' "$1"
}

insn_lines() {
	grep -v '^#' "$1" | grep -v '^$'
}

case $case in
exec)
	"$vtasim" exec -c "$cfg" "$src/docs/examples/gemm.s" --timeline "$tmp/t.svg" \
		--log "$tmp/l.txt" >"$tmp/out" 2>&1 || die "exec failed: $(cat "$tmp/out")"
	well_formed "$tmp/t.svg"
	lanes "$tmp/t.svg"
	n=$(insn_lines "$tmp/l.txt" | wc -l)
	[ "$n" -eq 10 ] || die "gemm.s has 10 instructions, the log $n"
	grep -q "<text>cycles 0-406, $n of $n instructions executing, every one a box</text>" \
		"$tmp/t.svg" || die "the subtitle does not count $n of $n instructions"
	[ "$(tooltips "$tmp/t.svg")" -eq "$n" ] || die "$(tooltips "$tmp/t.svg") tooltips, want $n"
	for label in "0 load uop" "4 waits l2g" "8 store" "l2g token" "g2s token" "s2g token"; do
		grep -q "<text>$label</text>" "$tmp/t.svg" || die "no '$label' in the picture"
	done
	;;
window)
	"$vtasim" exec -c "$cfg" "$src/docs/examples/gemm.s" --timeline "$tmp/t.svg" \
		--timeline-window 150:300 --log "$tmp/l.txt" >"$tmp/out" 2>&1 ||
		die "exec failed: $(cat "$tmp/out")"
	well_formed "$tmp/t.svg"
	lanes "$tmp/t.svg"
	# columns: insn module stage dispatch wait start end retire ...
	want=$(insn_lines "$tmp/l.txt" |
		awk '$6 != "-" { e = ($7 == "-" ? 406 : $7); if ($6 < 300 && (e > 150 || ($6 == e && $6 >= 150))) n++ } END { print n + 0 }')
	got=$(tooltips "$tmp/t.svg")
	[ "$got" -eq "$want" ] || die "$got instructions drawn in cycles 150-300, the log has $want"
	[ "$want" -lt 10 ] || die "the window should leave instructions out"
	grep -q "<text>cycles 150-300, $want of 10 instructions executing" "$tmp/t.svg" ||
		die "the subtitle does not name the window"
	;;
png)
	"$vtasim" exec -c "$cfg" "$src/docs/examples/gemm.s" --timeline "$tmp/t.png" \
		>"$tmp/out" 2>&1 || die "exec failed: $(cat "$tmp/out")"
	# the signature, then IHDR: width and height, big-endian
	sig=$(od -An -tx1 -N8 "$tmp/t.png" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || die "not a PNG ($sig)"
	size=$(od -An -tu1 -j16 -N8 "$tmp/t.png" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }')
	[ "$size" = 1400x780 ] || die "the PNG is $size, want 1400x780"
	;;
deadlock)
	"$vtasim" exec -c "$cfg" "$src/docs/examples/deadlock.s" --timeline "$tmp/t.svg" \
		>"$tmp/out" 2>&1
	status=$?
	[ "$status" -eq 1 ] || die "deadlock: exit status $status, want 1"
	[ "$(grep -c '^vtasim: error: deadlock' "$tmp/out")" -eq 1 ] || die "no deadlock line"
	well_formed "$tmp/t.svg"
	grep -q '>stopped: deadlock: load idle; compute insn 3 (gemm ' "$tmp/t.svg" || die "the picture does not mark the stop"
	grep -q '<text>3 waits l2g</text>' "$tmp/t.svg" || die "the GEMM's wait on l2g is not shown"
	;;
summary)
	awk 'BEGIN { print ".text"
		for (i = 0; i < 4200; i++)
			printf "load mem=inp sram=%d dram=0x0 y=1 x=1 stride=1 deps=%s\n", i % 2048,
				i == 4199 ? "push_next" : "none"
		print "finish deps=pop_prev" }' >"$tmp/long.s"
	"$vtasim" exec -c "$cfg" "$tmp/long.s" --timeline "$tmp/t.svg" >"$tmp/out" 2>&1 ||
		die "exec failed: $(cat "$tmp/out")"
	well_formed "$tmp/t.svg"
	lanes "$tmp/t.svg"
	grep -q '4201 instructions executing: summary, each column [0-9]* cycles' "$tmp/t.svg" ||
		die "4201 instructions should be drawn as a summary"
	[ "$(tooltips "$tmp/t.svg")" -eq 0 ] || die "a summary has no per-instruction tooltips"
	bytes=$(wc -c <"$tmp/t.svg")
	[ "$bytes" -lt 2000000 ] || die "the summary takes $bytes bytes"
	;;
run)
	"$vtasim" run -c "$cfg" -w "$src/docs/examples/conv_threads.yaml" --threads 2 \
		-o "$tmp/r.json" --timeline "$tmp/t.svg" >"$tmp/out" 2>&1 ||
		die "run failed: $(cat "$tmp/out")"
	well_formed "$tmp/t.svg"
	lanes "$tmp/t.svg"
	# the first "insns" is FETCH's (every instruction of the layer), the second "threads" the plan's
	n=$(grep -o '"insns": *[0-9]*' "$tmp/r.json" | head -n 1 | grep -o '[0-9]*$')
	threads=$(grep -o '"threads": *[0-9]*' "$tmp/r.json" | sed -n 2p | grep -o '[0-9]*$')
	[ "$threads" = 2 ] || die "the layer's plan uses $threads threads, want 2"
	grep -q "$n of $n instructions executing, every one a box" "$tmp/t.svg" ||
		die "the picture does not draw the report's $n instructions"
	[ "$(tooltips "$tmp/t.svg")" -eq "$n" ] || die "$(tooltips "$tmp/t.svg") tooltips, want $n"
	;;
*) die "unknown case $case" ;;
esac
echo "timeline $case: ok"
