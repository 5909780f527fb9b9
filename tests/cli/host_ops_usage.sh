#!/bin/sh
# host_ops_usage.sh VTASIM CONFIG MODEL: the --host-ops classes `vtasim run --help` shows are
# the ones the run accepts: all of them together move every accelerated op of MODEL to the
# host, each alone is accepted, and a name the usage does not show is refused.
set -u
vtasim=$1 config=$2 model=$3
list=$("$vtasim" run --help | sed -n 's/.*\[--host-ops \([^]]*\)\].*/\1/p')
if [ -z "$list" ]; then
	echo "vtasim run --help shows no --host-ops list"
	exit 1
fi
out=$("$vtasim" run -c "$config" -m "$model" --host-ops "$list" 2>&1)
status=$?
if [ "$status" -ne 0 ] || ! printf '%s\n' "$out" | grep -q "^total: 0 ops on the accelerator"; then
	printf 'vtasim run --host-ops %s: want every op on the host, exit status 0\n%s\n' \
		"$list" "$out"
	exit 1
fi
for class in $(echo "$list" | tr ',' ' '); do
	if ! "$vtasim" run -c "$config" -m "$model" --host-ops "$class" >/dev/null 2>&1; then
		echo "vtasim run --host-ops $class: refused"
		exit 1
	fi
done
out=$("$vtasim" run -c "$config" -m "$model" --host-ops "$list,bogus" 2>&1)
status=$?
if [ "$status" -ne 2 ] || ! printf '%s\n' "$out" | grep -q "host op class 'bogus': expected"; then
	printf 'vtasim run --host-ops %s,bogus: want exit status 2 and one line\n%s\n' "$list" "$out"
	exit 1
fi
exit 0
