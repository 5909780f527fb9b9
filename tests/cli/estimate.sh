#!/bin/sh
# estimate.sh PERCENT -- COMMAND...: run `vtasim run ...` and require every CONV2D layer's
# plan estimate ("est N cycles") to be within PERCENT of its simulated cycles.
set -u
tol=$1
shift 2
out=$("$@" 2>&1) || {
	printf 'failed: %s\n%s\n' "$*" "$out"
	exit 1
}
printf '%s\n' "$out" | awk -v tol="$tol" '
	/^layer / { name = $2 }
	/^  plan .* est [0-9]+ cycles/ {
		for (i = 1; i < NF; i++)
			if ($i == "est")
				est = $(i + 1)
	}
	/^  cycles / && est != "" {
		sim = $2
		err = (est - sim) * 100 / sim
		printf "%s: estimate %d, simulated %d cycles (%+.2f%%)\n", name, est, sim, err
		if (err > tol || err < -tol)
			bad = 1
		n++
		est = ""
	}
	END {
		if (n == 0) {
			print "no CONV2D estimate in the output"
			exit 1
		}
		exit bad
	}'
