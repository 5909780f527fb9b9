#!/bin/sh
# emit.sh VTASIM CHECK SRC WORK: --emit parallel writes one command per shard; run them (as
# GNU parallel would, here one after the other) and --merge gives the rows of the same sweep
# run locally; --emit slurm writes an array job of the same commands.
set -eu
vtasim=$1 check=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "emit: $*"; exit 1; }
sweep="$src/tests/sweep/small.yaml"

out=$("$vtasim" sweep "$sweep" --emit parallel --shards 3 -o "$work/par")
echo "$out" | grep -q "jobs.txt: 8 points in 3 shards; when they are done: vtasim sweep --merge $work/par" ||
	fail "$out"
[ "$(grep -vc '^#' "$work/par/jobs.txt")" -eq 3 ] || fail "$(cat "$work/par/jobs.txt")"
sh "$work/par/jobs.txt" > "$work/par.log" 2>&1 || fail "a shard failed: $(cat "$work/par.log")"
grep -q "goldens" "$work/par.log" && grep "goldens" "$work/par.log" | grep -qv ", 0 computed" &&
	fail "a shard computed goldens the emit should have: $(cat "$work/par.log")"
out=$("$vtasim" sweep --merge "$work/par")
echo "$out" | grep -q "^merge: 8 records from 3 shards" || fail "$out"
echo "$out" | grep -q "^8 points: 8 ok, 0 failed, 0 not run" || fail "$out"
"$vtasim" sweep "$sweep" -o "$work/local" -j 2 > /dev/null || fail "the local sweep failed"
"$check" same "$work/local" "$work/par" || fail "merged rows differ from the local run's"

"$vtasim" sweep "$sweep" --emit slurm --shards 2 -o "$work/slurm" > /dev/null
s="$work/slurm/sweep.sbatch"
grep -q "^#SBATCH --array=0-1$" "$s" || fail "$(cat "$s")"
grep -q "^#SBATCH --output=$work/slurm/shards/%a/slurm.out$" "$s" || fail "$(cat "$s")"
grep -q -- "--shard \"\$SLURM_ARRAY_TASK_ID/2\" -j 1 .*--golden '$work/slurm/golden' --no-plots -o '$work/slurm/shards/'\"\$SLURM_ARRAY_TASK_ID\"$" "$s" ||
	fail "$(cat "$s")"
[ -d "$work/slurm/shards/1" ] || fail "the shard folders are not made for Slurm's output"
grep -q "^#SBATCH --job-name=vtasim-merge-small$" "$work/slurm/merge.sbatch" ||
	fail "$(cat "$work/slurm/merge.sbatch")"
grep -q "sweep --merge '$work/slurm'$" "$work/slurm/merge.sbatch" || fail "$(cat "$work/slurm/merge.sbatch")"
grep -q "^sbatch --dependency=afterany:\"\$job\" '$work/slurm/merge.sbatch'$" "$work/slurm/submit.sh" ||
	fail "$(cat "$work/slurm/submit.sh")"
# a merge before any shard ran: every point pending
out=$("$vtasim" sweep --merge "$work/slurm")
echo "$out" | grep -q "^8 points: 0 ok, 0 failed, 8 not run" || fail "$out"

# without --shards, shards are sized from points sampled here: 8 short points make one
# shard of the default ten minutes, and one each when a shard should take a moment
out=$("$vtasim" sweep "$sweep" --emit parallel -o "$work/sized")
echo "$out" | grep -q "^3 points sampled here: [0-9.e-]* s each; 1 shard of about 0:0[0-9] (-j 1)$" || fail "$out"
echo "$out" | grep -q "jobs.txt: 8 points in 1 shard;" || fail "$out"
[ ! -e "$work/sized/sample" ] || fail "the sampled points' folder is left"
out=$("$vtasim" sweep "$sweep" --emit parallel --shard-minutes 0.00001 -o "$work/tiny")
echo "$out" | grep -q "jobs.txt: 8 points in 8 shards;" || fail "$out"
sh "$work/sized/jobs.txt" > "$work/sized.log" 2>&1 || fail "$(cat "$work/sized.log")"
out=$("$vtasim" sweep --merge "$work/sized")
echo "$out" | grep -q "^8 points: 8 ok, 0 failed, 0 not run" || fail "$out"

# --sbatch-arg: an #SBATCH line each, in every job
"$vtasim" sweep "$sweep" --emit slurm --shards 2 --sbatch-arg=--partition=fast \
	--sbatch-arg --mem=2G -o "$work/args" > /dev/null
for f in sweep.sbatch merge.sbatch; do
	grep -q "^#SBATCH --partition=fast$" "$work/args/$f" && grep -q "^#SBATCH --mem=2G$" "$work/args/$f" ||
		fail "$(cat "$work/args/$f")"
done
exit 0
