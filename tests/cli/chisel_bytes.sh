#!/bin/sh
# chisel_bytes.sh VTASIM SRC PROGRAM: configs/vta-chisel-rtl.yaml (isa.uop_field_depth 8192
# over a 2048-entry UOP SRAM) assembles PROGRAM to the very bytes the default config does,
# as VTA's Chisel RTL decodes them; the same config without isa.uop_field_depth does not.
set -eu
VTASIM=$1
SRC=$2
PROG=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/vtasim-chisel-XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
"$VTASIM" asm "$PROG" -c "$SRC/configs/default.yaml" -o "$T/default.bin"
"$VTASIM" asm "$PROG" -c "$SRC/configs/vta-chisel-rtl.yaml" -o "$T/chisel.bin"
cmp "$T/default.bin" "$T/chisel.bin"
grep -v 'uop_field_depth' "$SRC/configs/vta-chisel-rtl.yaml" > "$T/sram_widths.yaml"
"$VTASIM" asm "$PROG" -c "$T/sram_widths.yaml" -o "$T/sram_widths.bin"
if cmp -s "$T/default.bin" "$T/sram_widths.bin"; then
	echo "chisel_bytes.sh: fields sized by the 2048-entry UOP SRAM gave the default's bytes" >&2
	exit 1
fi
echo "identical to the default config's $(wc -c < "$T/default.bin") bytes; 11/12-bit fields differ"
