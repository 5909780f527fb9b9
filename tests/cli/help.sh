#!/bin/sh
# help.sh VTASIM: every subcommand answers --help and -h (also `vtasim help CMD`) with its
# usage on stdout, nothing on stderr and exit status 0; an unknown option, a missing value, a
# missing or extra argument is exactly one line, "vtasim: error: ...", exit status 2 (getopt's
# own message silenced); -h as an option's value is not a request for help.
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
# a usage error names what is missing or extra: one line on stderr, nothing on stdout, exit 2
for args in run exec debug config asm disasm "regress a b" inspect compress sweep; do
	cmd=${args%% *}
	# shellcheck disable=SC2086
	"$vtasim" $args >"$out" 2>"$err"
	status=$?
	if [ "$status" -ne 2 ] || [ -s "$out" ] || [ "$(wc -l <"$err")" -ne 1 ] ||
		! grep -Eq "^vtasim: error: $cmd: (no|unexpected argument) .*\(see 'vtasim $cmd --help'\)$" "$err"; then
		bad "vtasim $args: exit status $status, want 2 and one line naming what is missing"
	fi
done
# -h as an option's value is that value, not a request for help
for args in "run -c nothing.yaml -w x.yaml -o -h" "exec -c nothing.yaml -o -h x.s" \
	"sweep nothing.yaml -o -h" "asm x.s -c nothing.yaml -o -h"; do
	# shellcheck disable=SC2086
	"$vtasim" $args >"$out" 2>"$err"
	status=$?
	if [ "$status" -ne 2 ] || [ -s "$out" ] || ! grep -q "nothing.yaml" "$err"; then
		bad "vtasim $args: exit status $status, want 2 and the config's error, not help"
	fi
done
"$vtasim" --help >"$out" 2>"$err"
if [ $? -ne 0 ] || [ -s "$err" ] || ! grep -q "^  vtasim --version$" "$out"; then
	bad "vtasim --help: want exit status 0, the command list and --version on stdout"
fi
exit $fail
