#!/bin/sh
# regen_fresh.sh VTASIM_DIR SRC_ROOT: regenerate every case from its sources into a new folder
# and require the result to equal the tree in traces/, so the committed expectations are what
# the sources (configs, programs, workloads, the reference executor, the golden kernels) give.
# Statistics are compared too: they must be what `vtasim regress --update` records today.
set -u
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! sh "$src/traces/regen.sh" "$build" "$tmp/traces" > "$tmp/log" 2>&1; then
	echo "traces/regen.sh failed:"
	cat "$tmp/log"
	exit 1
fi
if ! diff -r -x src -x regen.sh -x README.md "$src/traces" "$tmp/traces" > "$tmp/diff"; then
	echo "traces/ differs from what traces/regen.sh generates (rerun it and review git diff):"
	head -40 "$tmp/diff"
	exit 1
fi
echo "ok: traces/ is what traces/regen.sh generates"
