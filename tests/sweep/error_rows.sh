#!/bin/sh
# error_rows.sh VTASIM CHECK SRC WORK: each way a point fails is a row with its one-line error,
# never the end of the sweep (tests/sweep/errors.yaml says which point is which).
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "error_rows: $*"; exit 1; }

"$vtasim" sweep "$src/tests/sweep/errors.yaml" -o "$work/e" -j 2 > "$work/e.log" ||
	fail "the sweep stopped: $(cat "$work/e.log")"
grep -q "^5 points: 1 ok, 4 failed, 0 not run" "$work/e.log" || fail "$(cat "$work/e.log")"
expect() { # POINT LAYER STATUS ERROR-PATTERN
	got=$("$check" get "$work/e" "$1" "$2" status)
	[ "$got" = "$3" ] || fail "point $1 $2: status $got, expected $3"
	err=$("$check" get "$work/e" "$1" "$2" error)
	[ -z "$4" ] || printf '%s\n' "$err" | grep -q -- "$4" || fail "point $1 $2: error '$err'"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "point $1 $2: the error is not one line"
}
expect 0 total ok ""
expect 1 narrow ok ""
expect 1 wide error "^layer wide: CONV2D does not fit the INP SRAM: one output row reads 3 input rows of 162 padded columns (486 INP rows at one channel block), one output column at all 32 input blocks 288, the INP SRAM has 256 rows$"
expect 1 total error "^layer wide: CONV2D does not fit the INP SRAM"
expect 2 narrow error "^no FINISH within the cycle budget of 500 cycles: "
expect 2 total error "^no FINISH within the cycle budget of 500 cycles: "
expect 3 total error "^config refused: sram_kib.acc: 65536 KiB gives 4194304 rows, more than the 16-bit sram_base field can address (65536)$"
expect 4 narrow error "^layer narrow: the pinned plan (chunk_blocks 3) does not fit: chunk_blocks 3 does not divide the 2 input-channel blocks$"
# a failed layer has no metrics; a layer that ran has them
[ "$("$check" get "$work/e" 1 wide cycles)" = - ] || fail "a failed layer has cycles"
[ "$("$check" get "$work/e" 1 narrow cycles)" != - ] || fail "a layer that ran has no cycles"
[ "$("$check" get "$work/e" 1 total cycles)" = - ] || fail "a partial total has cycles"
exit 0
