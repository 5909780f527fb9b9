#!/bin/sh
# report_cmp.sh VTASIM BENCH_RESNET_TABLE SRC: two run reports of one workload that differ in
# threads and mode; bench_resnet_table A.json B.json names what differs and lines the layers
# up; reports of different workloads are refused in one line.
set -u
vtasim=$1 table=$2 src=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
wl=$src/tests/cli/workloads
"$vtasim" run -c "$src/configs/tiny.yaml" -w "$wl/add_odd.yaml" -o "$dir/a.json" >/dev/null &&
	"$vtasim" run -c "$src/configs/tiny.yaml" -w "$wl/add_odd.yaml" --threads 1 --mode vta16 \
		-o "$dir/b.json" >/dev/null &&
	"$vtasim" run -c "$src/configs/tiny.yaml" -w "$wl/conv_odd.yaml" -o "$dir/c.json" \
		>/dev/null || exit 1
out=$("$table" "$dir/a.json" "$dir/b.json")
status=$?
fail=0
for want in "^differs:$" "^  mode       tflite -> vta16$" "^  threads    2 -> 1$" "^total  *[0-9]"; do
	if ! printf '%s\n' "$out" | grep -q -- "$want"; then
		printf 'bench_resnet_table A B lacks /%s/:\n%s\n' "$want" "$out"
		fail=1
	fi
done
if printf '%s\n' "$out" | grep -q "^  config "; then
	printf 'the same config reported as differing:\n%s\n' "$out"
	fail=1
fi
[ "$status" -eq 0 ] || { echo "exit status $status"; fail=1; }
out=$("$table" "$dir/a.json" "$dir/a.json")
if ! printf '%s\n' "$out" | grep -q "^  nothing: the same settings"; then
	printf 'a report against itself:\n%s\n' "$out"
	fail=1
fi
out=$("$table" "$dir/a.json" "$dir/c.json" 2>&1)
status=$?
if [ "$status" -ne 2 ] || [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] ||
	! printf '%s\n' "$out" | grep -q "not the same workload"; then
	printf 'different workloads: exit status %s, want 2 and one line:\n%s\n' "$status" "$out"
	fail=1
fi
exit $fail
