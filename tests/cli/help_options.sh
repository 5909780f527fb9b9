#!/bin/sh
# help_options.sh VTASIM SRC: --help and the parsers agree. Every option that a command's
# --help lists (long and short form) is one its parser accepts: given on a command line that
# then fails for another reason (a missing argument, a file that does not exist), it is
# never "unrecognized". And the other way: no command parses from a table of its own; every
# getopt call in cli/ reads the tables made from the one the help prints (cli_getopt_make).
set -u
vtasim=$1
src=$2
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail=0
checked=0

# An option line's head ("-c, --config CONFIG", "--strict", "-o REPORT.json": the text before
# the two spaces ahead of its help) as SHORT|LONG|ARG
forms() {
	awk '/^  -|^      --/ {
		line = $0; sub(/^ +/, "", line); head = substr(line, 1, index(line, "  ") - 1)
		short = ""; long = ""; arg = ""
		n = split(head, w, " ")
		for (i = 1; i <= n; i++) {
			if (w[i] ~ /^-[a-zA-Z],?$/) short = substr(w[i], 1, 2)
			else if (w[i] ~ /^--/) long = w[i]
			else arg = w[i]
		}
		print short "|" long "|" arg
	}'
}

# check CMD-WORDS FIXED-ARGS...: every option in the help of `vtasim CMD-WORDS --help`
check() {
	words=$1
	shift
	# shellcheck disable=SC2086
	"$vtasim" $words --help >"$out" 2>&1
	# the options block of this form only (run has two)
	opts=$(awk -v form="$FORM" '
		/^options/ { on = (form == "" || index($0, form) > 0); next }
		/^$/ { on = 0 }
		on' "$out" | forms)
	[ -n "$opts" ] || { echo "vtasim $words --help: no option lines"; fail=1; return; }
	for o in $opts; do
		short=${o%%|*}
		rest=${o#*|}
		long=${rest%%|*}
		arg=${rest#*|}
		for flag in $short $long; do
			[ "$flag" = -h ] || [ "$flag" = --help ] && continue
			# shellcheck disable=SC2086
			if [ -n "$arg" ]; then
				"$vtasim" $words "$@" "$flag" x >"$out" 2>"$err"
			else
				"$vtasim" $words "$@" "$flag" >"$out" 2>"$err"
			fi
			checked=$((checked + 1))
			if grep -q "unrecognized option" "$err"; then
				echo "vtasim $words: --help lists $flag, the parser refuses it: $(cat "$err")"
				fail=1
			fi
		done
	done
}

FORM="-w WORKLOAD" check run
FORM="-m MODEL" check run -m /nonexistent.tflite
FORM="" check exec
FORM="" check debug
FORM="" check config
FORM="" check asm
FORM="" check disasm
FORM="" check regress /nonexistent-dir
FORM="" check inspect
FORM="" check compress
FORM="" check sweep
[ "$checked" -gt 100 ] || { echo "only $checked options checked"; fail=1; }

# every getopt pass in cli/ reads the tables cli_getopt_make made from a command's cli_opt
# table (main.c's help pass takes the command's tables as arguments)
if grep -n 'struct option [a-z_]*\[\]' "$src"/cli/*.c; then
	echo "an option table of getopt's own, outside the cli_opt tables"
	fail=1
fi
if grep -n 'getopt_long(' "$src"/cli/*.c | grep -v 'g\.shortopts, g\.longopts' |
	grep -v '^[^:]*/main\.c:'; then
	echo "a getopt_long call that does not read cli_getopt_make's tables"
	fail=1
fi
echo "$checked option forms checked"
exit $fail
