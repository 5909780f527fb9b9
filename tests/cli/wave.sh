#!/bin/sh
# wave.sh VTASIM MODEL_VCD_CHECK TRACE_CHECK SRC CASE: the model's waveform (--vcd), the
# timeline's flows and counters (--trace) and the log's ALU wraps (--log).
#   exec      docs/examples/gemm.s, C datapath: the waveform passes model_vcd_check against
#             the run's log and report; the report (host time aside) and the JSON report are
#             the same with and without --vcd; the trace has a flow per token and the
#             counters of the SRAMs and the DRAM port
#   rtl       docs/examples/alu.s on the RTL datapath: one file holding the model's signals
#             and the RTL units' at the same clock period, no part file left; same checks
#   run       a five-layer workload: one waveform per layer, each checked against its log
#             section and report layer; the trace draws the DRAM port waits and a flow for
#             every token pushed
#   deadlock  docs/examples/deadlock.s: exit 1, and the waveform ends at the stall with the
#             GEMM waiting for its token
#   wraps     vta16: the log's wrapped lane-ops of an ADD workload equal the golden's count
#             (0), those of the demo's CONV2D are the stream's own (docs/cli.md explains
#             why they differ from the golden's)
set -u
vtasim=$1
check=$2
trace_check=$3
src=$4
case=$5
cfg=$src/configs/default.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

die() {
	echo "FAIL: $*"
	exit 1
}

# The report of a run with and without the waveform: the same but for host time.
same_report() {
	grep -v '^  host' "$tmp/on.txt" >"$tmp/on.cmp"
	grep -v '^  host' "$tmp/off.txt" >"$tmp/off.cmp"
	cmp -s "$tmp/on.cmp" "$tmp/off.cmp" || die "the report changes with --vcd"
	for f in on off; do # the host object: its lines up to its closing brace
		awk '/"host": \{/ { skip = 1 } !skip { print } skip && /^ *\}/ { skip = 0 }' \
			"$tmp/$f.json" >"$tmp/$f.jcmp"
	done
	cmp -s "$tmp/on.jcmp" "$tmp/off.jcmp" || die "the JSON report changes with --vcd"
}

case $case in
exec | rtl)
	if [ "$case" = exec ]; then prog=$src/docs/examples/gemm.s; dp=c; else prog=$src/docs/examples/alu.s; dp=rtl; fi
	"$vtasim" exec -c "$cfg" "$prog" --set datapath=$dp --vcd "$tmp/w.vcd" --log "$tmp/l.txt" \
		--trace "$tmp/t.json" -o "$tmp/on.json" >"$tmp/on.txt" || die "exec with --vcd failed"
	"$vtasim" exec -c "$cfg" "$prog" --set datapath=$dp -o "$tmp/off.json" >"$tmp/off.txt" ||
		die "exec failed"
	same_report
	"$check" "$tmp/w.vcd" "$tmp/l.txt" "$tmp/on.json" || die "waveform"
	grep -q '^\$comment one cycle of the run is 10000 ps ' "$tmp/w.vcd" || die "period"
	"$trace_check" "$tmp/t.json" --processes 1 --flows 2 --counter "SRAM live bytes" \
		--counter "DRAM read bytes per cycle" --counter "DRAM write bytes per cycle" --counter tokens \
		--counter "instruction queues" || die "trace"
	if [ "$case" = rtl ]; then
		grep -q '^\$scope module vta \$end' "$tmp/w.vcd" || die "no model scope"
		grep -q '^\$scope module lut_decoder \$end' "$tmp/w.vcd" || die "no RTL decoder scope"
		grep -q 'alu_b0_o0' "$tmp/w.vcd" || die "no ALU lane"
		# the RTL's clock on half periods of the model's cycle
		awk '/^#/ { t = substr($0, 2) + 0; if (t % 5000) { print "time " t; exit 1 } }' \
			"$tmp/w.vcd" || die "RTL time stamps off the clock's half periods"
		[ -z "$(ls "$tmp" | grep part)" ] || die "part files left behind"
	else
		! grep -q 'gemm_b0_o0' "$tmp/w.vcd" || die "RTL lanes on the C datapath"
		# the GEMM waits 100 cycles for LOAD's l2g token, which it pops in the cycle it
		# is pushed: the count shows 1 for that half cycle, then 0 again
		id=$(awk '/^\$scope module tokens/ { s = 1 } s && $5 == "l2g" { print $4; exit }' "$tmp/w.vcd")
		[ -n "$id" ] || die "no tokens.l2g signal"
		awk -v id="$id" '/^#/ { t = substr($0, 2) + 0 }
			$2 == id { v = $1; if (v == "b1") up = t; else if (v == "b0" && up && !down) down = t }
			END { if (!up || !down || down - up != 5000) { print "l2g up at " up ", down at " down; exit 1 } }' \
			"$tmp/w.vcd" || die "the l2g count does not rise to 1 and fall back half a cycle later"
	fi
	;;
run)
	wl=$src/tests/cli/workloads/conv_odd.yaml
	"$vtasim" run -c "$src/configs/tiny.yaml" -w "$wl" --vcd "$tmp/w.vcd" --log "$tmp/l.txt" \
		--trace "$tmp/t.json" -o "$tmp/r.json" >"$tmp/out.txt" || die "run failed"
	layers=$(grep -c '^# run [0-9]*: layer ' "$tmp/l.txt")
	[ "$layers" -eq 5 ] || die "expected 5 layers, got $layers"
	# LOADs and STOREs that wait for the port; a flow per token pushed
	pushes=$(grep -c '^ .*deps=[a-z_,]*push' "$tmp/l.txt")
	"$trace_check" "$tmp/t.json" --processes 5 --flows "$pushes" \
		--slice "waiting on the DRAM port" || die "trace"
	k=0
	while [ $k -lt "$layers" ]; do
		"$check" "$tmp/w.$k.vcd" "$tmp/l.txt" "$tmp/r.json" --run $((k + 1)) \
			--dep-depth 8 --insn-depth 512 || die "layer $k"
		k=$((k + 1))
	done
	[ ! -e "$tmp/w.vcd" ] || die "w.vcd written beside the per-layer files"
	;;
deadlock)
	"$vtasim" exec -c "$cfg" "$src/docs/examples/deadlock.s" --vcd "$tmp/w.vcd" >"$tmp/out.txt" 2>&1
	status=$?
	[ "$status" -eq 1 ] || die "exit status $status, expected 1"
	# it stops at cycle 255: the last stamp; the GEMM (insn 3) waits on l2g up to there
	[ "$(grep '^#' "$tmp/w.vcd" | tail -1)" = "#2550000" ] || die "the waveform does not end at the stall"
	awk '/^\$var/ && $5 == "state" { id[$4] = 1 }
	     /^\$scope module compute/ { c = 1 } /^\$upscope/ { c = 0 }
	     c && /^\$var/ && $5 == "state" { cs = $4 } c && /^\$var/ && $5 == "insn" { ci = $4 }
	     /^b/ && $2 == cs { state = $1 } /^b/ && $2 == ci { insn = $1 }
	     END { if (state != "b10" || insn != "b11") { print "compute ends " state " " insn; exit 1 } }' \
		"$tmp/w.vcd" || die "compute does not end waiting on insn 3"
	;;
wraps)
	"$vtasim" run -c "$cfg" -w "$src/tests/cli/workloads/add_odd.yaml" --mode vta16 \
		--log "$tmp/a.txt" -o "$tmp/a.json" >/dev/null || die "add run"
	got=$(grep -o '; wrapped [0-9]*' "$tmp/a.txt" | awk '{ s += $3 } END { print s + 0 }')
	want=$(sed -n 's/.*"alu_overflows": \([0-9]*\).*/\1/p' "$tmp/a.json" | tail -1)
	[ "$got" = "$want" ] || die "ADD: the log wraps $got lane-ops, the golden $want"
	"$vtasim" run -c "$cfg" -w "$src/configs/workloads/demo.yaml" --mode vta16 \
		--log "$tmp/d.txt" -o "$tmp/d.json" >"$tmp/d.out" || die "demo run"
	grep -q '^  alu_overflows     22272 ' "$tmp/d.out" || die "the golden's count moved"
	sed -n '/# run 1:/,/# run 2:/p' "$tmp/d.txt" | grep -o 'alu .*; wrapped [0-9]*' |
		awk '{ n = $NF; if ($2 == "op=mul") m += n; else a += n }
		     END { if (m != 20802 || a != 9292) { print "mul " m " add " a; exit 1 } }' ||
		die "the CONV2D's wraps moved"
	grep -q '; wrapped [0-9]* in lanes 0(x[0-9]*),1(x' "$tmp/d.txt" || die "lane list"
	;;
*)
	die "unknown case $case"
	;;
esac
echo "ok: $case"
