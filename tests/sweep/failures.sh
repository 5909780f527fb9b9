#!/bin/sh
# failures.sh VTASIM CHECK SRC WORK: a point past its timeout, and a point whose process dies
# (killed by SIGKILL here, as the kernel's out-of-memory killer would; a SIGSEGV would be
# caught by a sanitizer's handler in an ASan build), are rows with their one-line error; the
# sweep goes on, and the next run retries them (a timeout or a crash is the machine's, not
# the point's).
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "failures: $*"; exit 1; }
sweep="$src/tests/sweep/slow.yaml"

# every point (and golden) past a 20 ms deadline
"$vtasim" sweep "$sweep" -o "$work/t" -j 2 --timeout 0.02 > "$work/t.log" ||
	fail "the sweep stopped: $(cat "$work/t.log")"
grep -q "^4 points: 0 ok, 4 failed, 0 not run" "$work/t.log" || fail "$(cat "$work/t.log")"
for p in 0 1 2 3; do
	[ "$("$check" get "$work/t" $p total status)" = timeout ] || fail "point $p not a timeout"
	[ "$("$check" get "$work/t" $p total error)" = "timed out after 0.02 s" ] ||
		fail "point $p: $("$check" get "$work/t" $p total error)"
done

# kill the first point's process once the points run
"$vtasim" sweep "$sweep" -o "$work/c" -j 1 > "$work/c.log" 2>&1 &
pid=$!
n=0
child=
while [ -z "$child" ]; do
	n=$((n + 1))
	[ $n -lt 6000 ] || { kill -KILL $pid; fail "no point started in 120 s"; }
	if grep -q "points to run" "$work/c.log"; then
		child=$(ps -o pid= --ppid $pid | head -1 | tr -d ' ')
	fi
	[ -n "$child" ] || sleep 0.02
done
kill -KILL "$child"
wait $pid || fail "the sweep stopped: $(cat "$work/c.log")"
grep -q "^\[1/4\] crash .*: killed by signal 9 (Killed) (" "$work/c.log" ||
	fail "$(cat "$work/c.log")"
grep -q "^4 points: 3 ok, 1 failed, 0 not run" "$work/c.log" || fail "$(cat "$work/c.log")"
[ "$("$check" get "$work/c" 0 total status)" = crash ] || fail "point 0 is not a crash"

# rerun: the crashed point runs again, the others are done
out=$("$vtasim" sweep "$sweep" -o "$work/c" -j 1)
echo "$out" | grep -q "sweep slow: 1 point to run, 3 done before" || fail "rerun: $out"
echo "$out" | grep -q "^4 points: 4 ok, 0 failed, 0 not run" || fail "rerun: $out"
exit 0
