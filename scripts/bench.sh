#!/bin/sh
# `make bench`: the benchmarks, each printing its figures as ratios against a baseline measured
# in the same run (machines are shared and noisy):
#   1. LUT decode throughput (fast paths vs a plain per-element loop), golden CONV2D MAC/s and
#      the plan chooser's CPU time for ResNet-18 C2-C11;
#   2. simulator host cost per instruction and per GEMM uop, and at DRAM latency x100;
#   3. ResNet-18 C2-C11 on the default config: cycles vs roofline, 2 vs 1 virtual threads,
#      simulation vs golden host time, peak memory (the table of docs/performance.md);
#   4. ResNet-18 C2-C11 with the C datapath and with the RTL units inside the model: host
#      seconds of each and their ratio, and the same cycles;
#   5. LUT-compressed weights: ResNet-18 C2-C11, an FC and a MobileNet pointwise layer, plain
#      vs LUT widths 2-7, host vs hardware decoding, on the default and a 16-bit-port config;
#   6. `vtasim sweep`: a ResNet-18 point inside a sweep vs a lone `vtasim run`, and points per
#      minute with -j 1 and -j 2;
#   7. ResNet-18 C2-C11: a whole `vtasim run` (2 threads) and the simulation inside it against
#      the host's dense int8 convolution of the same layers (bench_dense_conv, built with
#      -march=native: a benchmark only), interleaved in one run;
#   8. whole models (MobileNet v2, person_detect, micro_speech) against the dense s8 x s8
#      convolution of their MACs, and ResNet-18 C2-C11 against the golden CONV2D's best path,
#      interleaved in one run (bench/dense/models.sh);
#   9. ResNet-50's 53 convolutions in one `vtasim run` on the default and tiny configs: host
#      seconds, peak memory, simulated cycles per host second.
#  10. person_detect, micro_speech, MobileNet v2 and ResNet-18 C2-C11 with 1 and 2 virtual
#      threads: every layer slower with two threads (the target: none);
#  11. the timing model against VTA's Chisel RTL: the error table per program kind and DRAM
#      latency (tests/fidelity/vta_rtl.sh, docs/fidelity.md).
# A missed target is reported and the run goes on; a run that fails or is not bit-exact stops
# `make bench` (bench_decomp's exit status 2).
set -eu
build=${1:-build}
cd "$(dirname "$0")/.."

echo "== LUT decoding, golden CONV2D and the plan chooser =="
"$build/bench/runtime/bench_lut"
"$build/bench/runtime/bench_conv2d"
"$build/bench/runtime/bench_conv2d_paths"
"$build/bench/runtime/bench_plan"

echo
echo "== SystemC model host cost =="
sh bench/sim/run.sh "$build"

echo
echo "== ResNet-18 C2-C11 on configs/default.yaml (tflite mode) =="
"$build/bench/resnet/bench_resnet_table" configs/default.yaml configs/workloads/resnet18.yaml || true

echo
echo "== ResNet-18 C2-C11: C datapath vs RTL datapath (host seconds, same run) =="
sh bench/sim/resnet_datapath.sh "$build"

echo
echo "== LUT-compressed weights: plain vs LUT, host vs hardware decoding =="
"$build/bench/decomp/bench_decomp" . || [ $? -eq 1 ]

echo
echo "== vtasim sweep: a point's cost, points per minute =="
sh bench/sweep/cost.sh "$build"

echo
echo "== ResNet-18 C2-C11: whole run and simulation vs the dense int8 convolution =="
sh bench/dense/ratio.sh "$build"

echo
echo "== Whole models vs the dense convolution of their MACs, ResNet-18 vs the golden CONV2D =="
sh bench/dense/models.sh "$build"

echo
echo "== ResNet-50, 53 convolutions in one run =="
sh bench/resnet/resnet50.sh "$build"

echo
echo "== Two virtual threads against one, per layer of real models =="
sh bench/threads/compare.sh "$build" || [ $? -eq 1 ]

echo
echo "== Cycles against VTA's Chisel RTL (configs/vta-chisel-rtl.yaml) =="
sh tests/fidelity/vta_rtl.sh "$build/vtasim" . || true
