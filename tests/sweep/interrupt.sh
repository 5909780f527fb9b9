#!/bin/sh
# interrupt.sh VTASIM CHECK SRC WORK: a sweep interrupted (SIGINT, as Ctrl-C sends it) once
# a point has finished: exit status 130, the finished points in the results and the others
# pending, no half-written record, no child left running; the same command then resumes,
# runs only what was left, and its results equal an uninterrupted sweep's.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "interrupt: $*"; exit 1; }
sweep="$src/tests/sweep/slow.yaml"

"$vtasim" sweep "$sweep" -o "$work/i" -j 1 > "$work/i.log" 2>&1 &
pid=$!
n=0
while [ "$(ls "$work/i/points" 2>/dev/null | grep -c '\.json$' || true)" -lt 1 ]; do
	n=$((n + 1))
	[ $n -lt 1200 ] || { kill -KILL $pid; fail "no point finished in 120 s"; }
	sleep 0.1
done
kill -INT $pid
status=0
wait $pid || status=$?
[ $status -eq 130 ] || fail "exit status $status, expected 130: $(cat "$work/i.log")"
grep -q "^vtasim: error: interrupted: the finished points are in " "$work/i.log" ||
	fail "$(cat "$work/i.log")"
rows=$("$check" rows "$work/i")
done_=$(echo "$rows" | grep -c " total ok " || true)
pending=$(echo "$rows" | grep -c " total pending " || true)
[ "$done_" -ge 1 ] && [ "$pending" -ge 1 ] && [ $((done_ + pending)) -eq 4 ] ||
	fail "after the interrupt: $rows"
[ "$(ls "$work/i/points" | grep -c '\.json$')" -eq "$done_" ] || fail "records and rows differ"
[ -z "$(ls "$work/i/points" "$work/i/golden" | grep -e '\.tmp\.' -e '\.stderr' || true)" ] ||
	fail "half-written files left: $(ls "$work/i/points" "$work/i/golden")"
# no child of the sweep survives it (they run "vtasim sweep ... -o WORK/i")
sleep 0.2
if ps -eo args | grep -v grep | grep -q -- "-o $work/i "; then
	fail "a child survived: $(ps -eo pid,args | grep -- "-o $work/i ")"
fi

out=$("$vtasim" sweep "$sweep" -o "$work/i" -j 1)
echo "$out" | grep -q "sweep slow: $pending points\{0,1\} to run, $done_ done before" ||
	fail "resume: $out"
echo "$out" | grep -q "^4 points: 4 ok, 0 failed, 0 not run" || fail "resume: $out"
"$vtasim" sweep "$sweep" -o "$work/whole" -j 2 > /dev/null || fail "the whole sweep failed"
"$check" same "$work/whole" "$work/i" || fail "resumed results differ from a whole run's"
exit 0
