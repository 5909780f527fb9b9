#!/bin/sh
# help.sh VTASIM: every subcommand answers --help and -h (also `vtasim help CMD`) with its
# usage on stdout, nothing on stderr and exit status 0; an unknown option or a missing value
# is exactly one line, "vtasim: error: ...", exit status 2 (getopt's own message silenced).
set -u
vtasim=$1
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail=0
bad() {
	printf '%s\n  stdout: %s\n  stderr: %s\n' "$1" "$(cat "$out")" "$(cat "$err")"
	fail=1
}
for cmd in run exec debug config asm disasm regress inspect compress sweep; do
	for how in "$cmd --help" "$cmd -h" "help $cmd" "$cmd -c x.yaml --help"; do
		# shellcheck disable=SC2086
		"$vtasim" $how >"$out" 2>"$err"
		status=$?
		if [ "$status" -ne 0 ] || [ -s "$err" ] ||
			! head -n 1 "$out" | grep -q "^usage: vtasim $cmd "; then
			bad "vtasim $how: exit status $status, want 0 and its usage on stdout only"
		fi
	done
	for opt in --frobnicate -Z; do
		"$vtasim" "$cmd" "$opt" >"$out" 2>"$err"
		status=$?
		if [ "$status" -ne 2 ] || [ -s "$out" ] || [ "$(wc -l <"$err")" -ne 1 ] ||
			! grep -q "^vtasim: error: unrecognized option '$opt' (see 'vtasim $cmd --help')$" "$err"; then
			# inspect takes no options: any leading "-" argument is a usage error
			if [ "$cmd" != inspect ] || [ "$status" -ne 2 ] || [ "$(wc -l <"$err")" -ne 1 ]; then
				bad "vtasim $cmd $opt: exit status $status, want 2 and one error line"
			fi
		fi
	done
done
# a value missing at the end of the line, short and long
for args in "exec -c" "run --config" "asm x.s -o"; do
	# shellcheck disable=SC2086
	"$vtasim" $args >"$out" 2>"$err"
	status=$?
	if [ "$status" -ne 2 ] || [ "$(wc -l <"$err")" -ne 1 ] || ! grep -q "needs a value" "$err"; then
		bad "vtasim $args: exit status $status, want 2 and one 'needs a value' line"
	fi
done
"$vtasim" --help >"$out" 2>"$err"
if [ $? -ne 0 ] || [ -s "$err" ] || ! grep -q "^  vtasim --version$" "$out"; then
	bad "vtasim --help: want exit status 0, the command list and --version on stdout"
fi
exit $fail
