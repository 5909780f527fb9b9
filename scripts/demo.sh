#!/bin/sh
# `make demo`: simulate the demo workload (a CONV2D with 4-bit LUT weights and an ADD with a
# LUT-compressed constant) on the default config and print the report.
set -eu
build=${1:-build}
cd "$(dirname "$0")/.."
if [ -f configs/workloads/demo.yaml ]; then
	exec "$build/vtasim" run -c configs/default.yaml -w configs/workloads/demo.yaml \
		-o "$build/demo-report.json"
fi
# Without the workload emitters, show the instruction-level flow on an example program.
"$build/vtasim" asm docs/examples/gemm.s -c configs/default.yaml -o "$build/gemm.bin"
"$build/vtasim" exec -c configs/default.yaml "$build/gemm.bin" -o "$build/demo-report.json"
