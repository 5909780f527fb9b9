#!/bin/sh
# index_page.sh VTASIM CHECK SRC WORK: index.html reads on a laptop: the sweep's files named
# from the sweep folder (no machine's folders), whole numbers with thousands separators, byte
# counts in KiB with the exact count in a tooltip, the page at most 1280 px wide and its tables
# scrolling inside it.
set -eu
vtasim=$1 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work/a/b" "$work/configs"
fail() { echo "index_page: $*"; exit 1; }
cp "$src/tests/sweep/plots.yaml" "$src/tests/sweep/two_layers.yaml" "$work/a/b/"
cp "$src/configs/tiny.yaml" "$work/configs/"
sed -i 's|^config: .*|config: ../../configs/tiny.yaml|' "$work/a/b/plots.yaml"
"$vtasim" sweep "$work/a/b/plots.yaml" -o "$work/a/out" -j 2 --no-plots > "$work/log" ||
	fail "the sweep failed: $(cat "$work/log")"
page=$work/a/out/index.html
grep -q '^<p>sweep: <code>\.\./b/plots\.yaml</code>' "$page" || fail "sweep path: $(grep '^sweep:' "$page")"
grep -q '^config: <code>\.\./\.\./configs/tiny\.yaml</code>' "$page" || fail "config path: $(grep '^config:' "$page")"
grep -q '^workload: <code>\.\./b/two_layers\.yaml</code>' "$page" || fail "workload path: $(grep '^workload:' "$page")"
grep -q "$work" "$page" && fail "a machine path in the page: $(grep -o "$work[^<]*" "$page" | head -1)"
grep -Eq '<td>[0-9]{1,3}(,[0-9]{3})+</td>' "$page" || fail "no number with thousands separators"
grep -Eq '<td title="[0-9]+">[0-9.]+ KiB</td>' "$page" || fail "no byte count in KiB with its exact value"
grep -Eq '<td>[0-9]{5,}</td>' "$page" && fail "a raw number of 5 digits or more: $(grep -Eo '<td>[0-9]{5,}</td>' "$page" | head -1)"
grep -q 'max-width:1280px' "$page" || fail "the page has no maximum width"
[ "$(grep -c '<div class="scroll"><table>' "$page")" -eq 2 ] || fail "the tables do not scroll"
exit 0
