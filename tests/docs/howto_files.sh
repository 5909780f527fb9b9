#!/bin/sh
# howto_files.sh SRC: the "How to add ..." sections of docs/architecture.md name the files a
# new operator, memory or ALU op touches; every file they name must exist (from the top of
# the tree, or from runtime/ for the operator's), so a recipe cannot point at a file that
# moved or was split.
set -u
src=$1
awk '/^#+ How to add/ { on = 1; next } /^#/ { on = 0 } on' "$src/docs/architecture.md" |
	grep -o '`[a-z_]*/[a-zA-Z0-9_./]*\.[a-z]*`' | tr -d '`' | sort -u > "${TMPDIR:-/tmp}/howto.$$"
n=$(wc -l < "${TMPDIR:-/tmp}/howto.$$")
missing=0
while read -r f; do
	# a path in runtime/ may be named from there (`ops/op_list.h`)
	[ -e "$src/$f" ] || [ -e "$src/runtime/$f" ] || { echo "docs/architecture.md names $f, which does not exist"; missing=$((missing + 1)); }
done < "${TMPDIR:-/tmp}/howto.$$"
rm -f "${TMPDIR:-/tmp}/howto.$$"
[ "$n" -ge 10 ] || { echo "the how-to sections name only $n files"; exit 1; }
echo "$n files named by the how-to sections, $missing missing"
[ $missing -eq 0 ]
