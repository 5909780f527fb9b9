#!/bin/sh
# tflm_case.sh VTASIM NPY_DIR_CMP CONFIG MODEL CASE WORK: run MODEL on CASE/input.npy and
# hold every tensor the run computes to the tensors TFLM's interpreter computed
# (CASE/tflm_dump/tensor_N.npy) and its output to CASE/expected_output.npy, twice over:
# vtasim's own --expect and the independent npy_dir_cmp on the --dump folder. Exits 77
# (skipped) when MODEL is not there, 1 on any difference.
set -u
vtasim=$1 cmp=$2 config=$3 model=$4 case=$5 work=$6
die() { echo "tflm_case: $*"; exit 1; }
[ -f "$model" ] || { echo "skipped: $model is not there"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || die "cannot make $work"
"$vtasim" run -c "$config" -m "$model" --input "$case/input.npy" --dump "$work/dump" \
	--output "$work/output.npy" --expect "$case/tflm_dump" -o "$work/report.json" \
	>"$work/out.txt" 2>&1
status=$?
cat "$work/out.txt" | tail -4
[ $status -eq 0 ] || die "vtasim exited $status"
grep -q '^verdict: BIT-EXACT' "$work/out.txt" || die "no BIT-EXACT verdict"
grep -q 'host-op outputs not independently checked' "$work/out.txt" &&
	die "host-op outputs left unchecked"
"$cmp" "$work/dump" "$case/tflm_dump" || die "the dumped tensors differ from TFLM's"
"$cmp" "$work/output.npy" "$case/expected_output.npy" || die "the output differs from TFLM's"
echo "tflm_case: every tensor equals TFLM's"
