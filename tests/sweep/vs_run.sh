#!/bin/sh
# vs_run.sh VTASIM CHECK SRC WORK: every point of the small sweep against a lone `vtasim run`
# of the same config and options: each layer's cycles, plan and counts and the total's cycles
# are identical, and so are the pinned sweep's points against a workload that pins the same
# plan (a pin that does not fit is the point's error row).
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "vs_run: $*"; exit 1; }

"$vtasim" sweep "$src/tests/sweep/small.yaml" -o "$work/s" -j 2 > "$work/s.log" ||
	fail "the sweep failed: $(cat "$work/s.log")"
for p in 0 1 2 3 4 5 6 7; do
	# shellcheck disable=SC2046
	"$vtasim" run -c "$src/configs/tiny.yaml" -w "$src/tests/cli/workloads/conv_odd.yaml" \
		$("$check" args "$work/s" $p) -o "$work/run$p.json" > /dev/null ||
		fail "vtasim run of point $p failed"
	"$check" match "$work/s" $p "$work/run$p.json" || fail "point $p differs"
done

# pinned plans: rows 1 fit everywhere, rows 2 overflow the wide layer's SRAMs
"$vtasim" sweep "$src/tests/sweep/pinned.yaml" -o "$work/p" -j 2 > "$work/p.log" ||
	fail "the pinned sweep failed: $(cat "$work/p.log")"
sed 's/^    activation: relu$/    activation: relu\n    plan: {rows: 1, order: rows}/;
     s/^    output: {scale: 0.05, zero_point: -1}$/&\n    plan: {rows: 1, order: rows}/' \
	"$src/tests/sweep/two_layers.yaml" > "$work/pinned_workload.yaml"
grep -c "plan: {rows: 1" "$work/pinned_workload.yaml" | grep -qx 2 || fail "could not pin the copy"
for p in 0 1; do
	# shellcheck disable=SC2046
	"$vtasim" run -c "$src/configs/tiny.yaml" -w "$work/pinned_workload.yaml" \
		$("$check" args "$work/p" $p) -o "$work/pin$p.json" > /dev/null ||
		fail "vtasim run of pinned point $p failed"
	"$check" match "$work/p" $p "$work/pin$p.json" || fail "pinned point $p differs"
	[ "$("$check" get "$work/p" $p wide tiling.rows)" = 1 ] || fail "point $p: rows not pinned"
done
for p in 2 3; do
	[ "$("$check" get "$work/p" $p wide status)" = error ] || fail "point $p: the pin fits?"
	"$check" get "$work/p" $p wide error | grep -q "^layer wide: the pinned plan (rows 2, order rows) does not fit: " ||
		fail "point $p: $("$check" get "$work/p" $p wide error)"
	[ "$("$check" get "$work/p" $p narrow status)" = ok ] || fail "point $p: narrow failed"
done
exit 0
