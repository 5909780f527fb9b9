#!/bin/sh
# vcd_check.sh - `--vcd` and the RTL datapath's config errors, through the CLI:
#   - a run with datapath rtl writes one VCD holding the compute lanes (gemm_*, alu_*) and the
#     LUT decoder beside the model's signals, time in ps at the clock's period per simulated
#     cycle (the header says which): stamps only move forward, sit on half cycles, and end
#     inside the run; the lanes' clock toggles;
#   - with the C datapath the file holds the model's signals only;
#   - a config whose RTL was not built is a one-line error with exit status 2.
# Usage: vcd_check.sh VTASIM SOURCE_DIR
set -eu
vtasim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "FAIL: $*" >&2; exit 1; }
case_dir=$src/traces/asm_lut_wgt_default
"$vtasim" exec -c "$case_dir/config.yaml" "$case_dir/program.s" --set datapath=rtl \
	--vcd "$tmp/w.vcd" >"$tmp/out.txt"
cycles=$(sed -n 's/^  cycles  *\([0-9]*\).*/\1/p' "$tmp/out.txt")
[ -n "$cycles" ] || die "no cycles in the report"
grep -q '^\$timescale 1ps \$end' "$tmp/w.vcd" || die "timescale"
grep -q '^\$scope module compute \$end' "$tmp/w.vcd" || die "compute scope"
grep -q '^\$scope module lut_decoder \$end' "$tmp/w.vcd" || die "decoder scope"
grep -q 'gemm_b0_o15' "$tmp/w.vcd" || die "GEMM lane scopes"
grep -q 'alu_b0_o0' "$tmp/w.vcd" || die "ALU lane scopes"
grep -q '^\$scope module vta \$end' "$tmp/w.vcd" || die "model scope"
[ -z "$(ls "$tmp" | grep part)" ] || die "part files left behind"
period=$(sed -n 's/.*one cycle of the run is \([0-9]*\) ps.*/\1/p' "$tmp/w.vcd" | head -1)
[ "$period" = 10000 ] || die "period '$period' (the config's clock is 100 MHz)"
awk -v cycles="$cycles" -v period="$period" '
	/^#/ { t = substr($0, 2) + 0
	       if (n++ && t <= last) { print "time goes back at " t; bad = 1 }
	       if (t % (period / 2)) { print "time " t " is not on a half cycle"; bad = 1 }
	       last = t }
	END { if (n < 10) { print "only " n " time stamps"; bad = 1 }
	      if (last > period * cycles) { print "time " last " after the run (" cycles " cycles)"; bad = 1 }
	      exit bad }' "$tmp/w.vcd" || die "time stamps"
# the GEMM lanes clock: some scalar of the compute scope toggles 0 -> 1 more than once
[ "$(grep -c '^#' "$tmp/w.vcd")" -gt 20 ] || die "too few time stamps"

# the C datapath's waveform is the model's alone; an unbuilt BLOCK_IN is named with the way
# to add it
"$vtasim" exec -c "$case_dir/config.yaml" "$case_dir/program.s" --vcd "$tmp/c.vcd" \
	>/dev/null || die "--vcd on c"
grep -q '^\$scope module vta \$end' "$tmp/c.vcd" && ! grep -q 'gemm_b0_o0' "$tmp/c.vcd" ||
	die "--vcd on c: not the model's signals alone"
set +e
"$vtasim" exec -c "$src/configs/default.yaml" "$case_dir/program.s" --set datapath=rtl \
	--set arch.log_block_in=6 >/dev/null 2>"$tmp/err2"
s2=$?
set -e
[ $s2 -eq 2 ] && [ "$(wc -l <"$tmp/err2")" -eq 1 ] &&
	grep -q 'no RTL build of the compute lanes for BLOCK_IN 64.*VTASIM_RTL_BLOCK_IN' "$tmp/err2" ||
	die "unbuilt BLOCK_IN: $s2 $(cat "$tmp/err2")"
echo "vcd_check: ok ($cycles cycles, $(grep -c '^#' "$tmp/w.vcd") time stamps)"
