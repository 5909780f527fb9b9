#!/bin/sh
# robust.sh CASE VTASIM SRC: one hostile input, built here in a scratch folder, through the
# real command line. Every case requires its exit status and message, and that the command
# ends within LIMIT seconds (default 20) with its whole output one line, of printable text
# (no control bytes, valid UTF-8) no longer than 700 characters. docs/robustness.md lists
# the holes these cases close.
set -u
export LC_ALL=C
case_name=$1
vtasim=$2
src=$3
limit=20
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# npy FILE DESCR SHAPE DATA_BYTES: a .npy file of version 1.0 whose data are zeros.
npy() {
	dict="{'descr': '$2', 'fortran_order': False, 'shape': ($3), }"
	total=$((10 + ${#dict} + 1))
	pad=$(((64 - total % 64) % 64))
	hlen=$((${#dict} + pad + 1))
	printf '\223NUMPY\001\000' >"$1"
	printf "\\$(printf %03o $((hlen % 256)))\\$(printf %03o $((hlen / 256)))" >>"$1"
	printf "%s%${pad}s\n" "$dict" "" >>"$1"
	head -c "$4" /dev/zero >>"$1"
}

# add_workload NPY: an ADD of two [1,2,2,4] tensors, the first read from NPY.
add_workload() {
	cat >wl.yaml <<WL
layers:
  - name: a
    op: add
    inputs:
      - {shape: [1, 2, 2, 4], scale: 0.1, zero_point: 0, data: {npy: $1}}
      - {shape: [1, 2, 2, 4], scale: 0.1, zero_point: 0, data: {random: {seed: 1}}}
    output: {scale: 0.2, zero_point: 0}
    activation: none
WL
}

# gemms N ITER_OUT ITER_IN: a legal stream of N GEMMs of 4 x ITER_OUT x ITER_IN uops each
# (after a reset), on the default config.
gemms() {
	{
		echo ".text"
		echo "load mem=uop sram=0 dram=0x400 y=1 x=4 stride=4 deps=none"
		echo "load mem=inp sram=0 dram=0x200 y=1 x=4 stride=4 deps=none"
		echo "load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next"
		echo "gemm reset=1 uop=0,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev"
		i=0
		while [ "$i" -lt "$1" ]; do
			echo "gemm reset=0 uop=0,4 iter=$2,$3 dst=0,0 src=0,0 wgt=0,0 deps=none"
			i=$((i + 1))
		done
		echo "finish deps=none"
		echo ".uops 0x1000"
		for k in 0 1 2 3; do echo "uop dst=$k src=$k wgt=0"; done
		echo ".data 0x2000"
		for k in 0 1 2 3; do echo ".byte 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8"; done
		echo ".data 0x3000"
		k=0
		while [ "$k" -lt 16 ]; do
			echo ".byte 1, -1, 2, -2, 3, -3, 4, -4, 1, -1, 2, -2, 3, -3, 4, -4"
			k=$((k + 1))
		done
	} >gemms.s
}

cfg=$src/configs/default.yaml
case $case_name in
# 1. quoted input is escaped and cut
key_folded) # an unknown key: a plain scalar folded over blank lines
	{ echo "arch:"; echo "  log_batch: 0"; printf '? word0\n'; i=1
	  while [ $i -lt 18 ]; do echo; echo "  word$i"; i=$((i + 1)); done
	  echo ": 1"; } >c.yaml
	status=2 pattern="c.yaml:3:3: unknown key 'word0\\\\nword1\\\\n.*\\.\\.\\.'"
	set -- config c.yaml ;;
key_long) # a 20000-character key
	{ printf '? '; printf 'k%.0s' $(seq 20000); printf '\n: 1\n'; } >c.yaml
	status=2 pattern="unknown key 'kkkk*\\.\\.\\.' (expected one of"
	set -- config c.yaml ;;
config_value) # a scalar value with a newline and a terminal escape in it
	printf 'dram: {bus_bits: "64\\n\\e[2J"}\n' >c.yaml
	status=2 pattern="dram.bus_bits: expected an integer, got '64\\\\n\\\\x1b\\[2J'"
	set -- config c.yaml ;;
config_bytes) # C1 controls (CSI, NEL) in a key: UTF-8, but a terminal acts on them
	printf 'arch:\n  "log_\\x9b2J\\x85": 1\n' >c.yaml
	status=2 pattern="unknown key 'arch.log_\\\\xc2\\\\x9b2J\\\\xc2\\\\x85'"
	set -- config c.yaml ;;
set_value) # the same through --set
	status=2 pattern="expected an integer, got '1\\\\n2'"
	set -- config "$cfg" --set "dram.bus_bits=$(printf '1\n2')" ;;
workload_key) # a workload's unknown key folded over lines
	printf 'layers:\n  - name: a\n    op: add\n    ? bad\n\n      key\n    : 1\n' >wl.yaml
	status=2 pattern="wl.yaml:4:7: .*unknown key 'bad\\\\nkey'"
	set -- run -c "$cfg" -w wl.yaml ;;
lutspec_value) # a LUT spec's bad scalar with a newline
	printf 'tensors:\n  - subgraph: 0\n    tensor: "8\\n9"\n    compression:\n      - lut:\n          index_bitwidth: 4\n' >spec.yaml
	status=2 pattern="expected an integer, got '8\\\\n9'"
	set -- compress "$src/tests/model/data/person_detect.tflite" spec.yaml -o out.tflite ;;
npy_dtype) # the dtype of a .npy: header bytes, escaped
	npy in.npy "$(printf '\033[2J\n\001\377')" "1, 2, 2, 4" 16
	add_workload in.npy
	status=2 pattern="in.npy: unsupported dtype '\\\\x1b\\[2J\\\\n\\\\x01\\\\xff' (expected"
	set -- run -c "$cfg" -w wl.yaml ;;
asm_token) # an assembler token with escape bytes
	printf '.text\n\033[31mfinish\033[0m\007 deps=none\n' >p.s
	status=2 pattern="p.s:2:1: unknown mnemonic '\\\\x1b\\[31mfinish\\\\x1b\\[0m\\\\x07'"
	set -- asm p.s -c "$cfg" -o p.bin ;;
option_value) # an option's value: escaped and cut like any quoted input
	status=2 pattern="--engine '\\\\x1b\[2Jxxxxxxxxx*\.\.\.': expected sim, ref or both$"
	set -- exec -c "$cfg" --engine "$(printf '\033[2J'; printf 'x%.0s' $(seq 300))" p.s ;;
sweep_value) # a sweep's value, folded over lines and long
	{ echo "config: $src/configs/tiny.yaml"; echo "workload: $src/tests/sweep/two_layers.yaml"
	  printf 'axes:\n  mode: ["tfl\\nite%s"]\n' "$(printf 'e%.0s' $(seq 200))"; } >s.yaml
	status=2 pattern="s.yaml:4:10: mode: expected tflite or vta16, got 'tfl\\\\nitee*\.\.\.'$"
	set -- sweep s.yaml --list ;;
sweep_expr) # a name in a sweep's expression
	{ echo "config: $src/configs/tiny.yaml"; echo "workload: $src/tests/sweep/two_layers.yaml"
	  echo "axes:"; echo "  threads: [1, 2]"
	  printf 'constraint: "%s > 1"\n' "$(printf 'n%.0s' $(seq 200))"; } >s.yaml
	status=2 pattern="unknown name 'nnnnn*\.\.\.'"
	set -- sweep s.yaml --list ;;
debug_word) # a debugger command's word (the script's echo goes to stdout)
	printf 'break insn \033[2J%s\n' "$(printf '9%.0s' $(seq 100))" >x.txt
	stdout=0 status=2 pattern="^vtasim: error: x.txt:1: bad instruction '\\\\x1b\[2J999*\.\.\.': expected a number$"
	set -- debug -c "$cfg" "$src/docs/examples/gemm.s" -x x.txt ;;
debug_long_line) # a line beyond the debugger's 1024 bytes is an error, not cut silently
	{ printf 'step '; printf '#%.0s' $(seq 2000); echo; } >x.txt
	stdout=0 status=2 pattern="^vtasim: error: x.txt:1: a line longer than 1024 bytes$"
	set -- debug -c "$cfg" "$src/docs/examples/gemm.s" -x x.txt ;;
debug_pipe_big) # a script from a pipe stops at the script's limit
	stdout=0 limit=30 status=2
	pattern="^vtasim: error: /dev/stdin: larger than a debugger script may be (1 MiB)$"
	set -- debug -c "$cfg" "$src/docs/examples/gemm.s" -x /dev/stdin ;;
debug_nul) # a NUL in a script line would cut the command short: the line is refused
	printf 'quit\000 after the NUL\n' >x.txt
	stdout=0 status=2 pattern="^vtasim: error: x.txt:1: a NUL byte in the line (a command is text)$"
	set -- debug -c "$cfg" "$src/docs/examples/gemm.s" -x x.txt ;;
debug_dram_wrap) # a DRAM range whose end wraps past 2^64 is named by its start and length
	printf 'print dram 0xfffffffffffffff8 16\n' >x.txt
	stdout=0 status=2 pattern="^vtasim: error: x.txt:1: DRAM: 16 bytes at 0xfffffffffffffff8 are beyond the DRAM's [0-9]* bytes$"
	set -- debug -c "$cfg" "$src/docs/examples/gemm.s" -x x.txt ;;
debug_rows_wrap) # SRAM rows whose end wraps past 2^64
	printf 'print acc 5 18446744073709551615\n' >x.txt
	stdout=0 status=2 pattern="^vtasim: error: x.txt:1: 18446744073709551615 ACC rows from row 5 are beyond the ACC SRAM's [0-9]* rows$"
	set -- debug -c "$cfg" "$src/docs/examples/gemm.s" -x x.txt ;;
inspect_c1) # a tensor name with a C1 control (U+009B, CSI) and C0 ones: shown escaped
	perl -0777 -pe 's{Conv2d_0/weights}{Conv2d_0/\xc2\x9b[2J\x1b\x07}g' \
		"$src/tests/model/data/person_detect.tflite" >m.tflite
	status=0 pattern="^    0 'MobilenetV1/Conv2d_0/\\\\xc2\\\\x9b\\[2J\\\\x1b\\\\x07/read' int8"
	set -- inspect m.tflite ;;
compress_c1) # the same name in compress's report
	perl -0777 -pe 's{Conv2d_0/weights}{Conv2d_0/\xc2\x9b[2J\x1b\x07}g' \
		"$src/tests/model/data/person_detect.tflite" >m.tflite
	printf 'tensors:\n  - subgraph: 0\n    tensor: 0\n    compression:\n      - lut:\n          index_bitwidth: 4\n' >spec.yaml
	status=0 pattern="^  tensor 0 'MobilenetV1/Conv2d_0/\\\\xc2\\\\x9b\\[2J\\\\x1b\\\\x07/read' int8: 4-bit"
	set -- compress m.tflite spec.yaml -o out.tflite ;;
sweep_expr_chain) # 40 KB of 1+1+...: refused by its length, no deep recursion
	{ echo "config: $src/configs/tiny.yaml"; echo "workload: $src/tests/sweep/two_layers.yaml"
	  echo "axes:"; echo "  threads: [1, 2]"
	  printf 'constraint: 1'; head -c 20000 /dev/zero | tr '\0' '+' | sed 's/+/+1/g'; echo; } >s.yaml
	status=2 pattern="^vtasim: error: s.yaml:5:13: constraint: longer than 4096 characters$"
	set -- sweep s.yaml --list ;;
sweep_expr_deep_*) # a chain of one operator 1000 long: too deep, at the operator that makes it
	op=${case_name#sweep_expr_deep_}
	case $op in
	add) op='+' ;; mul) op='*' ;; and) op='\&\&' ;; or) op='||' ;; neg) op='-' ;; not) op='!' ;;
	esac
	{ echo "config: $src/configs/tiny.yaml"; echo "workload: $src/tests/sweep/two_layers.yaml"
	  echo "axes:"; echo "  threads: [1, 2]"
	  case $case_name in
	  *_neg|*_not) printf "constraint: '%s1'\n" "$(head -c 1000 /dev/zero | tr '\0' 'x' | sed "s/x/$op/g")" ;;
	  *) printf "constraint: '1%s'\n" "$(head -c 1000 /dev/zero | tr '\0' 'x' | sed "s/x/${op}1/g")" ;;
	  esac; } >s.yaml
	status=2 pattern="^vtasim: error: s.yaml:5:[0-9]*: constraint: nested too deeply (more than 200 levels of parentheses or operators)$"
	set -- sweep s.yaml --list ;;
regress_key) # a regression case's statistic key
	cp -r "$src/traces/asm_gemm_default" case
	printf '"\\e]0;t\\a%s": 1\n' "$(printf 'k%.0s' $(seq 100))" >>case/stats.yaml
	status=2 pattern="'\\\\x1b]0;t\\\\x07kkkk*\.\.\.' is not a statistic key"
	set -- regress case ;;
regress_filter) # the filter, quoted back
	status=2 pattern="no case matches --filter 'a\\\\nbzzzz*\.\.\.'$"
	set -- regress "$src/traces" --filter "$(printf 'a\nb'; printf 'z%.0s' $(seq 100))" ;;
path_long) # a long file name keeps its end
	d=$(printf 'd%.0s' $(seq 200)); mkdir -p "$d/$d"
	printf 'arch: [\n' >"$d/$d/c.yaml"
	status=2 pattern="^vtasim: error: \.\.\.d*/c\.yaml:2:1: "
	set -- config "$d/$d/c.yaml" ;;
command_name) # an unknown command is command-line input too
	status=2 pattern="unknown command 'a\\\\nb'"
	set -- "$(printf 'a\nb')" ;;
# -h and --help ask for help only in option position
help_as_value) # "-h" as the value of --filter is a filter, not a request for help
	status=2 pattern="no case matches --filter '-h'$"
	set -- regress "$src/traces" --filter -h ;;
help_option)
	status=0 pattern="^usage: vtasim regress"
	set -- regress "$src/traces" --filter x -h ;;
# 2. YAML size and depth
yaml_deep) # 200 KB of [[[[
	head -c 204800 /dev/zero | tr '\0' '[' >c.yaml
	limit=5 status=2 pattern="c.yaml:1:65: collections nested more than 64 deep"
	set -- config c.yaml ;;
yaml_deep_block) # nesting in block style counts too
	i=0; ind=""; : >c.yaml
	while [ $i -lt 70 ]; do echo "${ind}k$i:" >>c.yaml; ind="$ind "; i=$((i + 1)); done
	echo "${ind}v" >>c.yaml
	status=2 pattern="c.yaml:65:65: collections nested more than 64 deep"
	set -- config c.yaml ;;
yaml_big) # a config beyond the 4 MiB of a YAML file
	{ echo "arch:"; head -c 5000000 /dev/zero | tr '\0' '#'; echo; } >c.yaml
	status=2 pattern="c.yaml: larger than a YAML file may be (4 MiB)"
	set -- config c.yaml ;;
yaml_device) # a config that is a device
	status=2 pattern="/dev/zero: a character device: a YAML file must be a regular file or a pipe"
	set -- config /dev/zero ;;
# 3. .npy sizes
npy_claims_tib) # a 128-byte file whose header claims 1 TiB
	npy in.npy "|i1" "1099511627776," 0
	add_workload in.npy
	limit=5 status=2
	pattern="in.npy: the shape needs 1099511627776 bytes of data, the file holds 0$"
	set -- run -c "$cfg" -w wl.yaml ;;
npy_short) # a file shorter than its shape
	npy in.npy "|i1" "1, 2, 2, 4" 15
	add_workload in.npy
	status=2 pattern="in.npy: the shape needs 16 bytes of data, the file holds 15$"
	set -- run -c "$cfg" -w wl.yaml ;;
# 4. non-regular files and sizes
exec_dev_zero)
	limit=5 status=2 pattern="^vtasim: error: /dev/zero: a character device: a program must be a regular file or a pipe"
	set -- exec -c "$cfg" /dev/zero ;;
asm_dev_zero)
	limit=5 status=2 pattern="^vtasim: error: /dev/zero: a character device: a program must be a regular file or a pipe"
	set -- asm /dev/zero -c "$cfg" -o p.bin ;;
disasm_dev_zero)
	limit=5 status=2 pattern="^vtasim: error: /dev/zero: a character device: a program must be a regular file or a pipe"
	set -- disasm /dev/zero ;;
exec_dir)
	mkdir d
	status=2 pattern="^vtasim: error: d: a directory: a program must be a regular file or a pipe"
	set -- exec -c "$cfg" d ;;
exec_pipe_big) # a pipe is read up to the limit of a program, not beyond
	limit=30 status=2 pattern="^vtasim: error: /dev/stdin: larger than a program may be (64 MiB)$"
	set -- exec -c "$cfg" /dev/stdin ;;
exec_big) # a regular file beyond the limit is refused before it is read
	truncate -s 100G big.s
	limit=5 status=2 pattern="^vtasim: error: big.s: larger than a program may be (64 MiB)$"
	set -- exec -c "$cfg" big.s ;;
regress_expected_dir) # a case's expected output must be a regular file
	cp -r "$src/traces/asm_gemm_default" case
	rm case/out0.bin; mkdir case/out0.bin
	status=2 pattern="out0.bin: a directory: a file of expected bytes must be a regular file or a pipe$"
	set -- regress case ;;
regress_expected_dev)
	cp -r "$src/traces/asm_gemm_default" case
	sed -i "s|file: out0.bin|file: /dev/zero|" case/case.yaml
	status=2 pattern="/dev/zero: a character device: a file of expected bytes must be"
	set -- regress case ;;
merge_dir) # JSON read back has a limit and must be a regular file or a pipe too
	mkdir -p m/sweep.json
	status=2 pattern="m/sweep.json: a directory: a JSON file must be a regular file or a pipe)$"
	set -- sweep --merge m ;;
dram_dev_zero)
	limit=5 status=2 pattern="/dev/zero: a character device: a DRAM image must be"
	set -- exec -c "$cfg" "$src/docs/examples/gemm.s" --dram /dev/zero ;;
npy_dev_zero)
	add_workload /dev/zero
	limit=5 status=2 pattern="/dev/zero: a character device: a .npy file must be"
	set -- run -c "$cfg" -w wl.yaml ;;
tflite_dev_zero)
	limit=5 status=2 pattern="/dev/zero: a character device: a .tflite model must be"
	set -- inspect /dev/zero ;;
# 5. .npy shape and trailing bytes
npy_shape) # (1,4,4,1) for [1,2,2,4]: the count matches, the shape does not
	npy in.npy "|i1" "1, 4, 4, 1" 16
	add_workload in.npy
	status=2 pattern="in.npy: inputs\\[0\\]: shape \\[1,4,4,1\\], the tensor's is \\[1,2,2,4\\]$"
	set -- run -c "$cfg" -w wl.yaml ;;
npy_trailing) # one byte after the data
	npy in.npy "|i1" "1, 2, 2, 4" 17
	add_workload in.npy
	status=2 pattern="in.npy: the shape needs 16 bytes of data, the file holds 17 (trailing bytes)$"
	set -- run -c "$cfg" -w wl.yaml ;;
npy_leading_ones) # leading 1s are accepted, either way
	npy in.npy "|i1" "1, 1, 2, 2, 4" 16
	add_workload in.npy
	status=0 pattern="verdict: BIT-EXACT"
	set -- run -c "$cfg" -w wl.yaml ;;
npy_fewer_ones)
	npy in.npy "|i1" "2, 2, 4" 16
	add_workload in.npy
	status=0 pattern="verdict: BIT-EXACT"
	set -- run -c "$cfg" -w wl.yaml ;;
# 6. the uop budget
budget_default_*) # one GEMM of 2^30 uops: beyond the default budget, refused before it runs
	gemms 1 16383 16383
	engine=${case_name#budget_default_}
	limit=10 status=1
	pattern="^vtasim: error: insn 4 (gemm .*): the uop budget of 50000000 (timing.uop_budget) runs out: 1073610756 uops after 4$"
	set -- exec --engine "$engine" -c "$cfg" gemms.s ;;
budget_low_*) # 30 GEMMs of 360000 uops, a budget of a million: the third is refused
	gemms 30 300 300
	engine=${case_name#budget_low_}
	status=1
	pattern="^vtasim: error: insn 6 (gemm .*): the uop budget of 1000000 (timing.uop_budget) runs out: 360000 uops after 720004$"
	set -- exec --engine "$engine" --no-check-races -c "$cfg" --set timing.uop_budget=1000000 gemms.s ;;
budget_checks) # the stream checks apply the budget too, before anything runs
	gemms 30 300 300
	status=1
	pattern="^vtasim: error: insn 6 (gemm .*): the uop budget of 1000000 (timing.uop_budget) runs out"
	set -- exec -c "$cfg" --set timing.uop_budget=1000000 gemms.s ;;
budget_config) # the key in a config file
	grep -v uop_budget "$cfg" | sed 's/^timing:/timing:\n  uop_budget: 1000000/' >c.yaml
	grep -q uop_budget c.yaml || { echo "no timing section in $cfg"; exit 1; }
	gemms 30 300 300
	status=1
	pattern="the uop budget of 1000000 (timing.uop_budget) runs out: 360000 uops after 720004$"
	set -- exec --engine ref -c c.yaml gemms.s ;;
budget_enough) # a budget the stream fits passes
	gemms 2 100 100
	status=0 pattern="uops"
	set -- exec --engine both -c "$cfg" --set timing.uop_budget=80004 gemms.s ;;
insn_budget_*) # 40 GEMMs, a budget of 10 instructions: the one at index 10 is refused
	gemms 40 1 1
	engine=${case_name#insn_budget_}
	status=1
	pattern="^vtasim: error: insn 10 (gemm .*): beyond the instruction budget of 10 (timing.insn_budget): a run executes instructions 0 to 9 only$"
	if [ "$engine" = checks ]; then # the stream checks refuse it before anything runs
		set -- exec -c "$cfg" --set timing.insn_budget=10 gemms.s
	else
		set -- exec --engine "$engine" --no-check-races -c "$cfg" \
			--set timing.insn_budget=10 gemms.s
	fi ;;
host_budget_*) # 600 GEMMs of 4 million uops (minutes, hours on ref), 1 host second
	gemms 600 1000 1000
	engine=${case_name#host_budget_}
	limit=15 status=1
	pattern="^vtasim: error: insn [0-9]* (gemm .*): the host-time budget of 1 s (timing.host_seconds) runs out: [0-9.]* s since the run began$"
	set -- exec --engine "$engine" --no-check-races -c "$cfg" --set timing.uop_budget=1000000000000 --set timing.host_seconds=1 gemms.s ;;
*)
	echo "unknown case $case_name"
	exit 1 ;;
esac

# stdout=0: only the error stream counts (a debugger script's commands echo on stdout)
if [ "$case_name" = exec_pipe_big ]; then
	out=$(head -c 70000000 /dev/zero | timeout "$limit" "$vtasim" "$@" 2>&1)
elif [ "$case_name" = debug_pipe_big ]; then
	out=$(yes '# a comment' | head -c 2000000 | timeout "$limit" "$vtasim" "$@" 2>&1 >/dev/null)
elif [ "${stdout:-1}" = 0 ]; then
	out=$(timeout "$limit" "$vtasim" "$@" 2>&1 >/dev/null)
else
	out=$(timeout "$limit" "$vtasim" "$@" 2>&1)
fi
got=$?
fail() {
	printf '%s: %s\n--- output of vtasim %s:\n%s\n' "$case_name" "$1" "$*" "$out" | head -c 4000
	exit 1
}
[ "$got" -eq 124 ] && fail "did not end within $limit seconds"
[ "$got" -eq "$status" ] || fail "exit status $got, expected $status"
printf '%s\n' "$out" | grep -q -- "$pattern" || fail "no line matches /$pattern/"
# nothing a terminal acts on, on success too: no C0 control but the line ends, no C1
printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" &&
	fail "control bytes in the output"
printf '%s' "$out" | LC_ALL=C grep -q "$(printf '\302[\200-\237]')" && fail "C1 controls in the output"
[ "$status" -eq 0 ] && exit 0
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "the output is not one line"
printf '%s\n' "$out" | grep -q '^vtasim: error: ' || fail "no 'vtasim: error:' line"
[ "${#out}" -le 700 ] || fail "the line has ${#out} characters"
printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\001-\037\177]')" && fail "control bytes"
printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 || fail "not UTF-8"
exit 0
