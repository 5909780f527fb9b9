#!/bin/sh
# regress_neg.sh VTASIM SRC_ROOT CHECK: negative and --update tests of `vtasim regress` itself,
# each on a private copy of a golden case from traces/ (the tree itself is never touched).
#   output     a corrupted expected byte fails naming the DRAM address, expected and got
#   stat       a changed expected cycle count fails naming the statistic
#   missing    an expected statistic the report lacks fails
#   nostats    a case without stats.yaml fails, asking for --update
#   status     an unexpected exit status fails with the diagnosis
#   diagnosis  a diagnosis not containing the expected text fails
#   timeout    a case running past --timeout is killed and fails
#   update     --update rewrites the statistics, prints what moved, and leaves outputs alone
#   malformed  malformed case and stats files exit 2 with FILE:LINE:COL
#   usage      bad options and empty selections exit 2
#   set        --set reaches every case: a slower DRAM moves its cycles; bad sets exit 2
#   strict     a case whose stream draws a warning passes saying so, and fails with --strict
set -u
vtasim=$1
src=$2
check=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAILED ($check): $*"
	[ ! -f "$tmp/out.txt" ] || { echo "--- output:"; cat "$tmp/out.txt"; }
	exit 1
}

# run STATUS ARGS...: vtasim regress ARGS, output in $tmp/out.txt, exit status must be STATUS
run() {
	want=$1
	shift
	"$vtasim" regress "$@" > "$tmp/out.txt" 2>&1
	got=$?
	[ "$got" -eq "$want" ] || fail "exit status $got, expected $want from: vtasim regress $*"
}

# has TEXT: the output contains the fixed string TEXT
has() {
	grep -F -q -- "$1" "$tmp/out.txt" || fail "output lacks: $1"
}

copy_case() {
	mkdir -p "$tmp/cases"
	cp -R "$src/traces/$1" "$tmp/cases/$1"
}

case $check in
output)
	copy_case asm_gemm_default
	c=$tmp/cases/asm_gemm_default
	run 0 "$tmp/cases"
	has "PASS asm_gemm_default (cycles "
	# flip byte 18 of the 64 expected bytes at 0x4000: the failure names DRAM 0x4012
	orig=$(od -An -tx1 -j18 -N1 "$c/out0.bin" | tr -d ' ')
	new=$(printf '%02x' $(((0x$orig + 1) % 256)))
	{ head -c 18 "$c/out0.bin"; printf "\\$(printf '%03o' 0x$new)"; tail -c 45 "$c/out0.bin"; } \
		> "$tmp/o.bin"
	mv "$tmp/o.bin" "$c/out0.bin"
	run 1 "$tmp/cases"
	has "FAIL asm_gemm_default: output 0x4000+64: first difference at DRAM 0x4012: expected 0x$new, got 0x$orig (1 byte differs)"
	has "0 passed, 1 failed"
	;;
stat)
	copy_case asm_gemm_default
	c=$tmp/cases/asm_gemm_default
	cycles=$(sed -n 's/^cycles: //p' "$c/stats.yaml")
	busy=$(sed -n 's/^modules.load.busy_cycles: //p' "$c/stats.yaml")
	sed -i "s/^cycles: .*/cycles: $((cycles + 10))/; s/^modules.load.busy_cycles: .*/modules.load.busy_cycles: $((busy * 2))/" "$c/stats.yaml"
	run 1 "$tmp/cases"
	has "FAIL asm_gemm_default: cycles: expected $((cycles + 10)), got $cycles ("
	has "modules.load.busy_cycles: expected $((busy * 2)), got $busy (-50.0%)"
	has "0 passed, 1 failed"
	;;
missing)
	copy_case asm_gemm_default
	echo "modules.load.frobs: 3" >> "$tmp/cases/asm_gemm_default/stats.yaml"
	run 1 "$tmp/cases"
	has "modules.load.frobs: expected 3, missing from the report"
	;;
nostats)
	copy_case asm_gemm_default
	rm "$tmp/cases/asm_gemm_default/stats.yaml"
	run 1 "$tmp/cases"
	has "FAIL asm_gemm_default: no expected statistics (record them with vtasim regress --update)"
	;;
status)
	copy_case fail_deadlock_default
	sed -i 's/^  status: 1/  status: 2/' "$tmp/cases/fail_deadlock_default/case.yaml"
	run 1 "$tmp/cases"
	has "FAIL fail_deadlock_default: exit status 1, expected 2: deadlock: "
	;;
diagnosis)
	copy_case fail_deadlock_default
	sed -i 's/^  error: .*/  error: "waits on g2l"/' "$tmp/cases/fail_deadlock_default/case.yaml"
	run 1 "$tmp/cases"
	has "FAIL fail_deadlock_default: diagnosis \"deadlock: "
	has "does not contain \"waits on g2l\""
	;;
timeout)
	# three micro-ops in a 16383 x 16383 loop: about 8e8 GEMM micro-ops, far beyond 1 s
	# (and beyond the default uop budget, raised here)
	copy_case asm_gemm_default
	c=$tmp/cases/asm_gemm_default
	sed -i 's/^  cycle_budget: .*/&\n  uop_budget: 1000000000000/' "$c/config.yaml"
	cat > "$c/program.s" <<'EOS'
.text
load   mem=uop sram=0 dram=0x400 y=1 x=3 stride=3
load   mem=inp sram=0 dram=0x200 y=1 x=3 stride=3
load   mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next
gemm   reset=1 uop=0,3 iter=1,1 dst=0,0 src=0,0 wgt=0,0
gemm   reset=0 uop=0,3 iter=16383,16383 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_next
store  mem=out sram=0 dram=0x400 y=1 x=3 stride=3 deps=pop_prev,push_prev
finish deps=pop_next
.uops 0x1000
uop dst=0 src=0 wgt=0
uop dst=1 src=1 wgt=0
uop dst=2 src=2 wgt=0
EOS
	start=$(date +%s)
	run 1 "$tmp/cases" --timeout 1
	has "FAIL asm_gemm_default: timed out after 1 s (killed)"
	[ $(($(date +%s) - start)) -lt 30 ] || fail "the timeout did not stop the case"
	;;
update)
	copy_case asm_gemm_default
	copy_case fail_oob_sram_default
	c=$tmp/cases/asm_gemm_default
	cp "$c/stats.yaml" "$tmp/stats.orig"
	cp "$c/out0.bin" "$tmp/out.orig"
	cycles=$(sed -n 's/^cycles: //p' "$c/stats.yaml")
	# one statistic moved, one dropped from the file, one the report does not have
	sed -i "s/^cycles: .*/cycles: $((cycles * 2))/; /^modules.store.insns: /d" "$c/stats.yaml"
	echo "modules.load.frobs: 3" >> "$c/stats.yaml"
	run 0 "$tmp/cases" --update
	has "UPDATED asm_gemm_default (cycles $((cycles * 2)) -> $cycles, 3 statistics moved)"
	has "PASS fail_oob_sram_default (exit status 1, expected diagnosis)"
	has "statistics that moved (old -> new):"
	grep -E -q "^    cycles +$((cycles * 2)) -> $cycles \(-50\.0%\)$" "$tmp/out.txt" ||
		fail "no 'cycles old -> new (-50.0%)' line"
	grep -E -q "^    modules.store.insns +new: 1$" "$tmp/out.txt" || fail "no 'new' line"
	grep -E -q "^    modules.load.frobs +dropped \(was 3\)$" "$tmp/out.txt" || fail "no 'dropped' line"
	has "expected statistics rewritten in 1 case(s)"
	has "2 passed, 0 failed"
	cmp -s "$c/stats.yaml" "$tmp/stats.orig" || fail "stats.yaml not restored by --update"
	head -1 "$c/stats.yaml" | grep -q "^# generated by vtasim regress --update" ||
		fail "stats.yaml does not say it is generated"
	# nothing moved: nothing rewritten
	run 0 "$tmp/cases" --update
	has "no statistic moved; nothing rewritten"
	# a wrong output is never "updated": the case fails and its statistics stay as they are
	printf 'x' | dd of="$c/out0.bin" bs=1 seek=3 conv=notrunc 2>/dev/null
	sed -i "s/^cycles: .*/cycles: 7/" "$c/stats.yaml"
	run 1 "$tmp/cases" --update
	has "FAIL asm_gemm_default: output 0x4000+64: first difference at DRAM 0x4003"
	has "asm_gemm_default: out0.bin (output 0x4000+64) differs from the run's output; statistics not rewritten"
	has "nothing rewritten"
	grep -q "no statistic moved" "$tmp/out.txt" && fail "--update said nothing moved for a case it refused"
	grep -q "^cycles: 7$" "$c/stats.yaml" || fail "--update rewrote a failing case's statistics"
	cmp -s "$c/out0.bin" "$tmp/out.orig" && fail "--update touched the expected output"
	;;
strict)
	# a load NOP after FINISH: a warning of the stream checks, not a failure
	copy_case asm_gemm_default
	c=$tmp/cases/asm_gemm_default
	printf '.text\nload mem=inp sram=0 dram=0x0 y=0 x=0 stride=0\n' >> "$c/program.s"
	run 0 "$tmp/cases" --update
	run 0 "$tmp/cases"
	has "PASS asm_gemm_default (cycles "
	has ", 1 warning)"
	run 1 "$tmp/cases" --strict
	has "FAIL asm_gemm_default: exit status 1, expected 0: --strict: insn 10 (load   mem=inp "
	has ") comes after FINISH (insn 9): the run ends at FINISH, so it may never execute (1 warning)"
	;;
set)
	copy_case asm_gemm_default
	cycles=$(sed -n 's/^cycles: //p' "$tmp/cases/asm_gemm_default/stats.yaml")
	run 0 "$tmp/cases" --set dram.latency_cycles=64
	has "PASS asm_gemm_default (cycles $cycles)"
	run 1 "$tmp/cases" --set dram.latency_cycles=1000
	has "FAIL asm_gemm_default: cycles: expected $cycles, got "
	run 2 "$tmp/cases" --set dram.latency_cycles=abc
	has "vtasim: error: --set: dram.latency_cycles: expected an integer, got 'abc'"
	run 2 "$tmp/cases" --set dram.latency=1
	has "vtasim: error: --set: unknown key 'dram.latency' (expected one of: bus_bits, "
	run 2 "$tmp/cases" --update --set dram.latency_cycles=1000
	has "vtasim: error: --update with --set would record the statistics of another config"
	;;
malformed)
	copy_case asm_gemm_default
	c=$tmp/cases/asm_gemm_default
	cp "$c/case.yaml" "$tmp/case.orig"
	# unknown key (line 6, column 47)
	cat > "$c/case.yaml" <<'EOY'
intent: "a malformed case"
config: config.yaml
program: program.s
expect:
  outputs:
    - {addr: 0x4000, len: 64, file: out0.bin, colour: red}
EOY
	run 2 "$tmp/cases"
	has "vtasim: error: $tmp/cases/asm_gemm_default/case.yaml:6:47: unknown key 'expect.outputs[0].colour'"
	# a length that is not a number
	sed -i 's/, colour: red//; s/len: 64/len: sixty/' "$c/case.yaml"
	run 2 "$tmp/cases"
	has "case.yaml:6:27: expect.outputs[0].len: expected an integer, got 'sixty'"
	# an expected output file whose size disagrees with len
	sed -i 's/len: sixty/len: 65/' "$c/case.yaml"
	run 2 "$tmp/cases"
	has "case.yaml:6:37: expect.outputs[0].file: the file holds 64 bytes, len says 65"
	# a missing program
	sed -i 's/len: 65/len: 64/; s/^program: program.s/program: nothing.s/' "$c/case.yaml"
	run 2 "$tmp/cases"
	has "case.yaml:3:10: program: cannot read 'nothing.s'"
	# a missing required key
	sed -i '/^program:/d' "$c/case.yaml"
	run 2 "$tmp/cases"
	has "case.yaml:1:1: missing required key 'program'"
	# a diagnosis for a passing case, and a failing case without one
	cp "$tmp/case.orig" "$c/case.yaml"
	sed -i 's/^expect:/expect:\n  error: "x"/' "$c/case.yaml"
	run 2 "$tmp/cases"
	has "expect.error: only a case expecting a non-zero status has a diagnosis"
	sed -i 's/^  error: "x"/  status: 1/' "$c/case.yaml"
	run 2 "$tmp/cases"
	has "expect.outputs: a case expecting status 1 writes no outputs"
	# YAML syntax
	printf 'intent: [unclosed\n' > "$c/case.yaml"
	run 2 "$tmp/cases"
	has "case.yaml:2:1: "
	# a stats file with a value that is not an integer
	cp "$tmp/case.orig" "$c/case.yaml"
	sed -i 's/^cycles: .*/cycles: fast/' "$c/stats.yaml"
	run 2 "$tmp/cases"
	has "stats.yaml:3:9: cycles: expected an integer, got 'fast'"
	;;
usage)
	copy_case asm_gemm_default
	run 2 "$tmp/cases" -j 0
	has "vtasim: error: -j '0': expected a number of jobs 1..256"
	run 2 "$tmp/cases" --timeout -3
	has "--timeout '-3'"
	run 2 "$tmp/cases" --filter no_such_case
	has "no case matches --filter 'no_such_case'"
	run 2 "$tmp/nothing_here"
	has "nothing_here: not a folder of regression cases"
	mkdir "$tmp/empty"
	run 2 "$tmp/empty"
	has "no regression cases (folders holding a case.yaml)"
	run 2 "$tmp/cases" extra
	has "regress: unexpected argument 'extra' (see 'vtasim regress --help')"
	# a single case folder is a valid DIR, and --filter selects
	run 0 "$tmp/cases/asm_gemm_default"
	has "1 passed, 0 failed"
	copy_case fail_deadlock_default
	run 0 "$tmp/cases" --filter deadlock -j 1
	has "PASS fail_deadlock_default"
	grep -q asm_gemm "$tmp/out.txt" && fail "--filter ran a case it does not match"
	;;
*)
	echo "unknown check '$check'"
	exit 2
	;;
esac
echo "ok: $check"
