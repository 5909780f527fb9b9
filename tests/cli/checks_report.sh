#!/bin/sh
# checks_report.sh VTASIM SRC: the stream checks' keys in the JSON reports (docs/cli.md):
# exec's top-level "checks", run's per layer and in the total, and check_seconds in the host
# objects.
set -u
vtasim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAILED: $*"
	cat "$tmp/r.json" 2>/dev/null
	exit 1
}
# has KEY VALUE [COUNT]: the report has COUNT (default 1) lines "KEY": VALUE
has() {
	n=$(grep -c -E "^ *\"$1\": $2,?$" "$tmp/r.json")
	[ "$n" -eq "${3:-1}" ] || fail "\"$1\": $2 appears $n times, expected ${3:-1}"
}
"$vtasim" exec -c "$src/configs/default.yaml" "$src/docs/examples/warn_finish.s" \
	-o "$tmp/r.json" > /dev/null 2>&1 || fail "exec warn_finish.s"
grep -q '^  "checks": {$' "$tmp/r.json" || fail "no top-level checks object"
has checked true
has races 0
has uninit_reads 0
has warnings 2
has tokens_left 1
has insns_after_finish 1
grep -q '"check_seconds": ' "$tmp/r.json" || fail "no check_seconds"
"$vtasim" run -c "$src/configs/tiny.yaml" -w "$src/tests/cli/workloads/add_odd.yaml" \
	-o "$tmp/r.json" > /dev/null 2>&1 || fail "run add_odd.yaml"
# four layers and the total
has checked true 5
has races 0 5
has warnings 0 5
grep -q '"check_seconds": ' "$tmp/r.json" || fail "no check_seconds in run's host object"
"$vtasim" run --no-check-races -c "$src/configs/tiny.yaml" \
	-w "$src/tests/cli/workloads/add_odd.yaml" -o "$tmp/r.json" > /dev/null 2>&1 ||
	fail "run --no-check-races"
grep -q '"checks"' "$tmp/r.json" && fail "checks reported without the checks"
exit 0
