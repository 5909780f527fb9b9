#!/bin/sh
# expect.sh STATUS PATTERN [PATTERN...] -- COMMAND...: run COMMAND, require exit status STATUS
# and, for each PATTERN that is not empty, a line of its output (stdout+stderr) matching that
# grep pattern.
# Error messages must be exactly one line starting "vtasim: error:". Nothing else speaks:
# no SystemC banner (see sim/vtasim_api.h).
set -u
want_status=$1
shift
# the patterns, one per line (none holds a newline), up to "--"
patterns=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	patterns="$patterns$1
"
	shift
done
shift
out=$("$@" 2>&1)
status=$?
if [ "$status" -ne "$want_status" ]; then
	printf 'expected exit status %s, got %s from: %s\n%s\n' "$want_status" "$status" "$*" "$out"
	exit 1
fi
missing=0
while IFS= read -r pattern; do
	if [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
		printf 'output of "%s" lacks /%s/\n' "$*" "$pattern"
		missing=1
	fi
done <<END_OF_PATTERNS
$patterns
END_OF_PATTERNS
if [ "$missing" -ne 0 ]; then
	printf '%s\n' "$out"
	exit 1
fi
if printf '%s\n' "$out" | grep -q 'ALL RIGHTS RESERVED'; then
	printf 'output of "%s" holds the SystemC banner:\n%s\n' "$*" "$out"
	exit 1
fi
if [ "$want_status" -ne 0 ]; then
	errors=$(printf '%s\n' "$out" | grep -c '^vtasim: error:')
	if [ "$errors" -ne 1 ]; then
		printf 'expected exactly one "vtasim: error:" line, got %s:\n%s\n' "$errors" "$out"
		exit 1
	fi
fi
exit 0
