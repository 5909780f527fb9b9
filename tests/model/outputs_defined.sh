#!/bin/sh
# outputs_defined.sh VTASIM CONFIG MODEL... - every model run under valgrind's memcheck (the
# untimed reference engine: the SystemC model's coroutine stacks confuse memcheck), every
# tensor dumped and the output written: an operator leaving some element of its output
# unwritten (their buffers are not cleared, op_env.h) fails here, as memcheck sees the
# undefined bytes reach the files.
set -eu
vtasim=$1
cfg=$2
shift 2
command -v valgrind >/dev/null || {
	echo "outputs_defined.sh: valgrind is not installed (scripts/setup-debian.sh installs it)" >&2
	exit 1
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for m in "$@"; do
	rm -rf "$dir/dump"
	if ! valgrind -q --error-exitcode=9 --exit-on-first-error=yes "$vtasim" run -c "$cfg" \
		--engine ref -m "$m" --dump "$dir/dump" --output "$dir/out.npy" \
		-o "$dir/report.json" >"$dir/log" 2>&1; then
		echo "outputs_defined.sh: $m:" >&2
		cat "$dir/log" >&2
		exit 1
	fi
	echo "$m: every output defined"
done
