#!/bin/sh
# examples_claims.sh VTASIM SRC: the table of docs/examples in docs/isa.md says what each
# example does; hold every row to it, so the page cannot drift from the tools:
#   "refused by `asm`" ..... `asm` exits 2 with the message the row quotes, `exec` exits 1
#   "assembles, but deadlocks" `asm` exits 0, `exec` exits 1 with a deadlock
#   "refused" .............. `asm` exits 0, `exec` exits 1 (the stream checks refuse it)
#   "runs, with N warnings" . `exec` exits 0 and reports N warnings, 1 under --strict
#   anything else ........... `asm` and `exec` both exit 0
# Rows name their config in the text when it is not configs/default.yaml ("on configs/X").
set -u
vtasim=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/vtasim-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failed=0 rows=0
bad() { echo "docs/isa.md: \`$file\`: $*"; failed=$((failed + 1)); }
run() { # run NAME CMD...: status in $rc, output in $work/NAME
	name=$1; shift
	"$@" > "$work/$name" 2>&1; rc=$?
}
grep -E '^\| `[a-z_/]+\.s` \|' "$src/docs/isa.md" > "$work/rows"
while IFS= read -r row; do
	file=$(printf '%s\n' "$row" | sed -E 's/^\| `([^`]*)`.*/\1/')
	text=$(printf '%s\n' "$row" | sed -E 's/^\| `[^`]*` \| //')
	cfg=$src/configs/default.yaml
	case "$file" in wide/*) cfg=$src/configs/wide.yaml ;; esac
	s=$src/docs/examples/$file
	[ -f "$s" ] || { bad "no such example"; continue; }
	rows=$((rows + 1))
	run asm "$vtasim" asm "$s" -c "$cfg" -o "$work/out.bin"; asm=$rc
	run exec "$vtasim" exec -c "$cfg" "$s"; ex=$rc
	case "$text" in
	"refused by \`asm\`"*)
		msg=$(printf '%s\n' "$text" | sed -E 's/^[^(]*\(`([^`]*)`.*/\1/')
		[ $asm -eq 2 ] || bad "said refused by asm, asm exits $asm"
		grep -qF -- "$msg" "$work/asm" || bad "asm does not say '$msg': $(cat "$work/asm")"
		[ $ex -eq 1 ] || bad "said to fail under exec, exec exits $ex" ;;
	"assembles, but deadlocks"*)
		[ $asm -eq 0 ] || bad "said to assemble, asm exits $asm: $(cat "$work/asm")"
		[ $ex -eq 1 ] && grep -q "deadlock" "$work/exec" || bad "said to deadlock: exec exits $ex" ;;
	refused*)
		[ $asm -eq 0 ] || bad "said to assemble, asm exits $asm: $(cat "$work/asm")"
		[ $ex -eq 1 ] || bad "said refused by the checks, exec exits $ex" ;;
	"runs, with "*" warnings"*)
		n=$(printf '%s\n' "$text" | sed -E 's/^runs, with ([a-z0-9]+) warnings.*/\1/')
		case $n in two) n=2 ;; three) n=3 ;; one) n=1 ;; esac
		[ $ex -eq 0 ] || bad "said to run, exec exits $ex"
		grep -q "stream checks *$n warnings" "$work/exec" || bad "said $n warnings: $(grep 'stream checks' "$work/exec")"
		run strict "$vtasim" exec --strict -c "$cfg" "$s"
		[ $rc -eq 1 ] || bad "said to fail under --strict, exits $rc" ;;
	*)
		[ $asm -eq 0 ] || bad "said to assemble, asm exits $asm: $(cat "$work/asm")"
		[ $ex -eq 0 ] || bad "said to run, exec exits $ex: $(tail -2 "$work/exec")" ;;
	esac
done < "$work/rows"
[ $rows -ge 10 ] || { echo "docs/isa.md: only $rows example rows found"; exit 1; }
echo "$rows examples, $failed claims broken"
[ $failed -eq 0 ]
