#!/bin/sh
# exec_diff.sh VTASIM CONFIG PROGRAM: run PROGRAM with the SystemC model and with the reference
# executor, dump the first 64 KiB of DRAM from each, and require them to be identical; also
# round-trip the program through asm and disasm.
set -eu
vtasim=$1
config=$2
program=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$vtasim" exec -c "$config" "$program" --engine sim --dump-dram "0:65536:$tmp/sim.bin" >"$tmp/sim.txt"
"$vtasim" exec -c "$config" "$program" --engine ref --dump-dram "0:65536:$tmp/ref.bin" >"$tmp/ref.txt"
if ! cmp -s "$tmp/sim.bin" "$tmp/ref.bin"; then
	echo "DRAM after $program differs between the SystemC model and the reference executor:"
	cmp -l "$tmp/sim.bin" "$tmp/ref.bin" | head -5
	exit 1
fi
grep -q '^  cycles ' "$tmp/sim.txt" || { echo "no cycles in the report"; cat "$tmp/sim.txt"; exit 1; }
"$vtasim" asm "$program" -c "$config" -o "$tmp/a.bin"
"$vtasim" disasm "$tmp/a.bin" -o "$tmp/a.s"
"$vtasim" asm "$tmp/a.s" -c "$config" -o "$tmp/b.bin"
cmp "$tmp/a.bin" "$tmp/b.bin"
echo "ok: $program"
