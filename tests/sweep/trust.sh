#!/bin/sh
# trust.sh VTASIM CHECK SRC WORK: what a sweep reads back is trusted only when it checks.
# A point's record copied over another's, or edited, is run again on resume (with a note);
# a golden cache entry changed on disk is discarded and computed again (with a note), not
# taken for the simulator's mismatch; --merge refuses a record that is not its shard's
# point's; control bytes of the sweep's own values reach results.csv and index.html only
# escaped.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "trust: $*"; exit 1; }
esc=$(printf '\033')
csi=$(printf '\302\233') # U+009B, the C1 CSI
cat > "$work/s.yaml" <<EOF
name: "trust\\e[2J\\u009b"
config: $src/configs/tiny.yaml
workload: $src/tests/cli/workloads/conv_odd.yaml
timeout: 120
axes:
  threads: [1, 2]
let:
  tag: "'a\\e[31mb\\u009bc'"
EOF

out=$("$vtasim" sweep "$work/s.yaml" -o "$work/s" -j 2 --no-plots 2>&1) || fail "$out"
echo "$out" | grep -q "^2 points: 2 ok, 0 failed, 0 not run" || fail "first run: $out"
for f in results.csv index.html; do
	! grep -q "$esc" "$work/s/$f" || fail "$f holds an ESC byte"
	! grep -q "$csi" "$work/s/$f" || fail "$f holds a C1 CSI"
done
grep -q 'a\\x1b\[31mb\\xc2\\x9bc' "$work/s/results.csv" || fail "the let's text: $(cat "$work/s/results.csv")"
cp "$work/s/results.json" "$work/first.json"

# another point's record copied over a record: that point runs again
set -- $(ls "$work/s/points")
[ $# -eq 2 ] || fail "records: $*"
cp "$work/s/points/$1" "$work/s/points/$2"
out=$("$vtasim" sweep "$work/s.yaml" -o "$work/s" -j 2 --no-plots 2>&1) || fail "$out"
echo "$out" | grep -q "^vtasim: note: .*$2: the record of another point; the point runs again$" ||
	fail "copied record: $out"
echo "$out" | grep -q "1 point to run, 1 done before" || fail "copied record: $out"
echo "$out" | grep -q "^2 points: 2 ok" || fail "copied record: $out"

# an edited record (its numbers, or its layers emptied): runs again
sed 's/"cycles": [0-9]*/"cycles": 1/' "$work/s/points/$1" > "$work/edited" && mv "$work/edited" "$work/s/points/$1"
sed 's/"layers": \[/"layers": null, "x": [/' "$work/s/points/$2" > "$work/edited" && mv "$work/edited" "$work/s/points/$2"
out=$("$vtasim" sweep "$work/s.yaml" -o "$work/s" -j 2 --no-plots 2>&1) || fail "$out"
[ "$(echo "$out" | grep -c "^vtasim: note: .*: its contents do not match its digest (changed since it was written); the point runs again$")" -eq 2 ] ||
	fail "edited records: $out"
echo "$out" | grep -q "2 points to run, 0 done before" || fail "edited records: $out"
"$check" same "$work/s" "$work/s" > /dev/null
mkdir -p "$work/first" && cp "$work/first.json" "$work/first/results.json"
"$check" same "$work/first" "$work/s" || fail "the rerun's results differ from the first run's"

# a golden entry changed on disk: discarded and computed again, the points ok
g=$(ls "$work/s/golden"/*.golden | head -n 1)
printf 'X' | dd of="$g" bs=1 seek=100 conv=notrunc 2> /dev/null
out=$("$vtasim" sweep "$work/s.yaml" -o "$work/s2" --golden "$work/s/golden" -j 2 --no-plots 2>&1) ||
	fail "$out"
echo "$out" | grep -q "^vtasim: note: golden cache .*: 1 entry did not check (.*\.golden) and is discarded; computed again$" ||
	fail "golden entry: $out"
echo "$out" | grep -q "^2 points: 2 ok, 0 failed" || fail "golden entry: $out"

# --merge: a shard's record copied over another's, and one of no point of the sweep
sed 's/^name: .*/name: merged/' "$work/s.yaml" > "$work/m.yaml"
"$vtasim" sweep "$work/m.yaml" --emit parallel --shards 2 -o "$work/m" > /dev/null
grep -v '^#' "$work/m/jobs.txt" | while IFS= read -r line; do sh -c "$line" > /dev/null; done
a=$(ls "$work/m/shards/0/points") b=$(ls "$work/m/shards/1/points")
cp "$work/m/shards/0/points/$a" "$work/m/shards/1/points/$b"
cp "$work/m/shards/0/points/$a" "$work/m/shards/1/points/$(echo "$a" | tr 0-9a-f a-f0-9)"
out=$("$vtasim" sweep --merge "$work/m" 2>&1) || fail "$out"
echo "$out" | grep -q "^vtasim: note: --merge: .*$b: the record of another point; not merged$" ||
	fail "merge: $out"
echo "$out" | grep -q "^vtasim: note: --merge: .*: not a point of this sweep; not merged$" ||
	fail "merge: $out"
echo "$out" | grep -q "^merge: 1 record from 2 shards, 2 refused (they do not check)$" || fail "merge: $out"
echo "$out" | grep -q "^2 points: 1 ok, 0 failed, 1 not run" || fail "merge: $out"
exit 0
