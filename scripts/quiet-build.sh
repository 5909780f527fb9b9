#!/bin/sh
# quiet-build.sh BUILD_DIR JOBS: configure and build like `make build`, but show one line of
# progress instead of CMake's line per file (`make demo` puts its report on the first screen).
# The whole output goes to BUILD_DIR/build.log; when the build fails, its last lines and the
# log's path are printed and the exit status is the build's.
set -u
build=$1
jobs=$2
mkdir -p "$build"
log=$build/build.log
start=$(date +%s)
if [ -t 1 ]; then tty=1; else tty=0; fi
status_file=$build/build.status
{
	cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
		cmake --build "$build" -j "$jobs"
	echo $? >"$status_file"
} 2>&1 | tee "$log" | while IFS= read -r line; do
	# CMake's "[ 42%] Building ..." lines: one line rewritten in place on a terminal
	case $line in
	"["*"%]"*)
		[ "$tty" -eq 1 ] && printf '\rvtasim: building %s' "$(printf '%s' "$line" | cut -c1-6)"
		;;
	esac
done
status=$(cat "$status_file" 2>/dev/null || echo 1)
rm -f "$status_file"
[ "$tty" -eq 1 ] && printf '\r\033[K'
if [ "$status" -ne 0 ]; then
	tail -n 40 "$log"
	echo "vtasim: the build failed (exit status $status); the whole output is in $log" >&2
	exit "$status"
fi
echo "vtasim: built in $(($(date +%s) - start)) s (output in $log)"
