#!/bin/sh
# emit_hostile.sh VTASIM CHECK SRC WORK: the job scripts of --emit carry hostile values (a
# sweep name and an output folder with $(...), backticks, ';', quotes, spaces, '%', '#')
# as data: the scripts run, as GNU parallel and a Slurm task would run them, and nothing
# but the sweep runs (a marker file the injected commands would create never appears); a
# control byte in either value is refused with one line, exit status 2, before any work.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "emit_hostile: $*"; exit 1; }
mark="$work/INJ"
cd "$work" # the injected commands would touch ./INJ
injected() { [ ! -e "$mark" ] || fail "an injected command ran: $1"; }

# every trick in one name and one folder; each would create the marker if run
evil="a \$(touch INJ)\`touch INJ\`; touch INJ '\" %a%% #x"
cat > "$work/s.yaml" <<EOF
name: '$(printf '%s' "$evil" | sed "s/'/''/g")'
config: $src/configs/tiny.yaml
workload: $src/tests/cli/workloads/conv_odd.yaml
timeout: 120
axes:
  threads: [1, 2]
EOF
dir="$work/out $(printf '%s' "$evil" | tr -d '\n')"

# GNU parallel runs each line of jobs.txt through a shell
"$vtasim" sweep "$work/s.yaml" --emit parallel --shards 2 -o "$dir/par" > "$work/par.out" 2>&1 ||
	fail "emit parallel: $(cat "$work/par.out")"
[ "$(grep -vc '^#' "$dir/par/jobs.txt")" -eq 2 ] || fail "$(cat "$dir/par/jobs.txt")"
while IFS= read -r line; do
	sh -c "$line" >> "$work/par.log" 2>&1 || fail "a shard failed: $(cat "$work/par.log")"
done < "$dir/par/jobs.txt"
injected "jobs.txt: $(cat "$dir/par/jobs.txt")"
out=$("$vtasim" sweep --merge "$dir/par")
echo "$out" | grep -q "^2 points: 2 ok, 0 failed, 0 not run" || fail "$out"
injected "merge"

# Slurm: sbatch reads the #SBATCH lines (blanks split, backslash escapes, '#' comments),
# then each task runs the script with sh. The lines are read here by sh's own word
# splitting, which treats backslash escapes as sbatch does (an injection would run).
"$vtasim" sweep "$work/s.yaml" --emit slurm --shards 2 -o "$dir/slurm" \
	--sbatch-arg "--comment=$evil" > "$work/slurm.out" 2>&1 ||
	fail "emit slurm: $(cat "$work/slurm.out")"
s="$dir/slurm/sweep.sbatch"
sh -n "$s" || fail "the script does not parse: $(cat "$s")"
grep '^#SBATCH ' "$s" | sed 's/^#SBATCH //' > "$work/sbatch.args"
while IFS= read -r args; do
	( eval "set -- $args"; [ $# -eq 1 ] || exit 1; printf '%s\n' "$1" ) >> "$work/sbatch.words" ||
		fail "#SBATCH $args is not one word: $(cat "$s")"
done < "$work/sbatch.args"
injected "#SBATCH lines: $(cat "$s")"
want_out="--output=$(printf '%s' "$dir/slurm" | sed 's/%/%%/g')/shards/%a/slurm.out"
grep -qxF -- "$want_out" "$work/sbatch.words" || fail "want $want_out in: $(cat "$work/sbatch.words")"
grep -qxF -- "--job-name=vtasim-sweep-$evil" "$work/sbatch.words" ||
	fail "job name: $(cat "$work/sbatch.words")"
grep -qxF -- "--comment=$evil" "$work/sbatch.words" || fail "--sbatch-arg: $(cat "$work/sbatch.words")"
for k in 0 1; do
	SLURM_ARRAY_TASK_ID=$k sh "$s" >> "$work/slurm.log" 2>&1 ||
		fail "task $k failed: $(cat "$work/slurm.log")"
done
injected "sweep.sbatch: $(cat "$s")"
out=$("$vtasim" sweep --merge "$dir/slurm")
echo "$out" | grep -q "^2 points: 2 ok, 0 failed, 0 not run" || fail "$out"

# submit.sh through an sbatch that records its arguments, one per line, then the merge job
# as its task would run it
mkdir -p "$work/bin"
cat > "$work/bin/sbatch" <<'EOF2'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done >> "$SBATCH_LOG"
echo "4242;cluster"
EOF2
chmod +x "$work/bin/sbatch"
SBATCH_LOG="$work/submit.args" PATH="$work/bin:$PATH" sh "$dir/slurm/submit.sh" > /dev/null ||
	fail "submit.sh: $(cat "$dir/slurm/submit.sh")"
injected "submit.sh: $(cat "$dir/slurm/submit.sh")"
printf '%s\n' --parsable "$dir/slurm/sweep.sbatch" --dependency=afterany:4242 \
	"$dir/slurm/merge.sbatch" | cmp -s - "$work/submit.args" ||
	fail "submit.sh passed: $(cat "$work/submit.args")"
sh -n "$dir/slurm/merge.sbatch" || fail "merge.sbatch does not parse"
sh "$dir/slurm/merge.sbatch" > "$work/merge.log" 2>&1 || fail "merge job: $(cat "$work/merge.log")"
grep -q "^2 points: 2 ok, 0 failed, 0 not run" "$work/merge.log" || fail "$(cat "$work/merge.log")"
injected "merge.sbatch: $(cat "$dir/slurm/merge.sbatch")"

# a newline cannot be quoted for every reader: refused, one line, nothing made
{ printf 'name: "x\\ntouch INJ"\n'; grep -v '^name:' "$work/s.yaml"; } > "$work/nl.yaml"
for kind in parallel slurm; do
	sh "$src/tests/cli/expect.sh" 2 "^vtasim: error: --emit $kind: the sweep's name 'x\\\\ntouch .*' holds a control character, which a job script cannot carry$" -- \
		"$vtasim" sweep "$work/nl.yaml" --emit $kind -o "$work/nl_$kind" || fail "newline in the name, $kind"
	[ ! -e "$work/nl_$kind" ] || fail "--emit $kind made its folder for a name it refuses"
	nl_dir="$work/x
touch $mark"
	sh "$src/tests/cli/expect.sh" 2 "^vtasim: error: --emit $kind: the output folder '.*' holds a control character" -- \
		"$vtasim" sweep "$work/s.yaml" --emit $kind -o "$nl_dir" || fail "newline in the folder, $kind"
	[ ! -e "$nl_dir" ] || fail "--emit $kind made a folder it refuses"
done
injected "refusals"
exit 0
