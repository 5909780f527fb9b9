#!/bin/sh
# models_table.sh [VTASIM [MODELS_DIR [CONFIG]]]: the models table of docs/models.md, measured.
# For every MODELS_DIR/*.tflite and MODELS_DIR/mlperf_tiny/*.tflite (default
# /work/shared/models; build/vtasim; configs/default.yaml): the operators on the accelerator
# and on the host (`vtasim inspect`), then `vtasim run -m` plain and with every accelerated
# filter 4-bit LUT-compressed (scripts/filter_spec.sh, `vtasim compress`, decode container)
# through the hardware decoder: accelerator cycles, DRAM bytes read + written, inferences
# per second (accelerator time only), and host seconds per inference (the host kernels plus
# the host's staging and relayouts, from the JSON report; a shared machine makes these
# noisy). Every run must be BIT-EXACT or the script stops. Prints a Markdown table.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
vtasim=${1:-$here/build/vtasim}
dir=${2:-/work/shared/models}
config=${3:-$here/configs/default.yaml}
work=$(mktemp -d "${TMPDIR:-/tmp}/vtasim-models.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# total_key JSON KEY: the number KEY holds in the report's "total" object
total_key() {
	sed -n '/"total": *{/,$p' "$1" |
		sed -n "s/^ *\"$2\": *\\([-0-9.eE+]*\\).*/\\1/p" | head -n 1
}

# run MODEL NAME: run it, leave the JSON report in $work/NAME.json
run() {
	if ! "$vtasim" run -c "$config" -m "$1" --decompress hw -o "$work/$2.json" \
		>"$work/$2.txt" 2>&1 || ! grep -q 'verdict: BIT-EXACT' "$work/$2.txt"; then
		echo "models_table.sh: $1 did not run BIT-EXACT:" >&2
		tail -n 3 "$work/$2.txt" >&2
		exit 1
	fi
}

# the operator types of a placement, "CONV_2D x14, ..." from `vtasim inspect`
ops_at() {
	awk -v where="$2" '
		/^operators$/ { on = 1; next }
		/^placement:/ { on = 0 }
		on && $1 ~ /^[0-9]+$/ && $NF == where { n[$2]++; if (!(($2) in seen)) { seen[$2] = 1; order[++k] = $2 } }
		END { for (i = 1; i <= k; i++) printf "%s%s%s", (i > 1 ? ", " : ""), order[i], (n[order[i]] > 1 ? " x" n[order[i]] : "") }
	' "$1"
}

echo "| model | accelerator ops | host ops | cycles | cycles, LUT4 hw | DRAM B | DRAM B, LUT4 hw | inferences/s | inferences/s, LUT4 hw | host s/inference |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for model in "$dir"/*.tflite "$dir"/mlperf_tiny/*.tflite; do
	[ -f "$model" ] || continue
	name=$(basename "$model" .tflite)
	"$vtasim" inspect "$model" >"$work/$name.inspect"
	if grep -q '| unsupported' "$work/$name.inspect"; then
		echo "| $name | unsupported operators: see \`vtasim inspect\` | | | | | | | | |"
		continue
	fi
	run "$model" "$name"
	lut="-" lut_dram="-" lut_ips="-"
	"$here/scripts/filter_spec.sh" "$vtasim" "$model" 4 >"$work/$name.yaml"
	if grep -q 'tensor:' "$work/$name.yaml"; then
		"$vtasim" compress "$model" "$work/$name.yaml" -o "$work/${name}_lut4.tflite" >/dev/null
		run "$work/${name}_lut4.tflite" "${name}_lut4"
		j=$work/${name}_lut4.json
		lut=$(total_key "$j" accel_cycles)
		lut_dram=$(($(total_key "$j" dram_read_bytes) + $(total_key "$j" dram_write_bytes)))
		lut_ips=$(printf '%.1f' "$(total_key "$j" inferences_per_second)")
	fi
	j=$work/$name.json
	host=$(awk -v a="$(total_key "$j" host_seconds)" -v b="$(total_key "$j" staging_seconds)" \
		-v c="$(total_key "$j" relayout_seconds)" 'BEGIN { printf "%.6f", a + b + c }')
	printf '| %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s |\n' "$name" \
		"$(ops_at "$work/$name.inspect" accelerator)" "$(ops_at "$work/$name.inspect" host)" \
		"$(total_key "$j" accel_cycles)" "$lut" \
		"$(($(total_key "$j" dram_read_bytes) + $(total_key "$j" dram_write_bytes)))" \
		"$lut_dram" "$(total_key "$j" inferences_per_second)" "$lut_ips" "$host"
done
