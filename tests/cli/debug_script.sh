#!/bin/sh
# debug_script.sh [--update] VTASIM EXPECTED STATUS [--stdin FILE] -- ARGS...: run
# `VTASIM debug ARGS...` (standard input from FILE, else nothing) in the current directory
# (the source tree, so file names in the transcript are relative), require exit status
# STATUS and its output (stdout and stderr, in order) to equal the file EXPECTED.
# --update writes EXPECTED from the run instead (review the diff before committing it).
set -u
update=0
if [ "$1" = --update ]; then
	update=1
	shift
fi
vtasim=$1
expected=$2
want_status=$3
shift 3
input=/dev/null
if [ "$1" = --stdin ]; then
	input=$2
	shift 2
fi
shift # --
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$vtasim" debug "$@" <"$input" >"$out" 2>&1
status=$?
if [ "$status" -ne "$want_status" ]; then
	printf 'expected exit status %s, got %s from: vtasim debug %s\n' "$want_status" "$status" "$*"
	cat "$out"
	exit 1
fi
if [ "$update" -eq 1 ]; then
	cp "$out" "$expected"
	echo "wrote $expected"
	exit 0
fi
if ! diff -u "$expected" "$out"; then
	printf 'the transcript of "vtasim debug %s" differs from %s (above; --update rewrites it)\n' "$*" "$expected"
	exit 1
fi
