#!/bin/sh
# resume.sh VTASIM CHECK SRC WORK: the small sweep run twice into one folder: the second run
# finds every point done and runs none, and writes the same results.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "resume: $*"; exit 1; }

out=$("$vtasim" sweep "$src/tests/sweep/small.yaml" -o "$work/s" -j 2)
echo "$out" | grep -q "sweep small: 8 points to run, 0 done before" || fail "first run: $out"
echo "$out" | grep -q "^8 points: 8 ok, 0 failed, 0 not run" || fail "first run: $out"
mkdir "$work/first" && cp "$work/s/results.json" "$work/first/"
records=$(ls "$work/s/points" | wc -l)
[ "$records" -eq 8 ] || fail "$records records, expected 8"

out=$("$vtasim" sweep "$src/tests/sweep/small.yaml" -o "$work/s" -j 2)
echo "$out" | grep -q "sweep small: 0 points to run, 8 done before" || fail "second run: $out"
echo "$out" | grep -q "goldens" && fail "second run computed goldens: $out"
"$check" same "$work/first" "$work/s" || fail "the second run's results differ"
# the results hold exactly the records: nothing half written, no stray files
[ -z "$(ls "$work/s/points" | grep -v '\.json$' || true)" ] || fail "stray files in points/"
exit 0
