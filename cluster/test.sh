#!/usr/bin/env bash
# End-to-end test of the Slurm job scripts (cluster/slurm/) on a running Slurm cluster, such as
# the one-node cluster of cluster/slurm/local-cluster.sh (.ci/run starts it, runs this, stops it):
#
#   bash cluster/test.sh target/release/ludus
#
# Through cluster/slurm/submit.sh, as a user would, each run is a 4-task array plus its merge
# job (--dependency=afterok), and its merged outputs must equal one process's:
#
#   match    Tactigon, node-limited engines: the merged results equal the one-process run's
#            game for game (number, seats, opening, moves, result, termination, plies) and in
#            every statistic
#   datagen  Tactigon, 16 games at 1,000 nodes: the merged file is byte for byte the one
#            process's file
#   solve    Sight 4x4: the same result and first moves (with the proof's plies) as one
#            process, the same node counts, frontier position by position, as the same shards
#            run outside Slurm, and its certificate holds
#   check    the one-process certificate in 4 shards: the same claims verified as one process,
#            the same verdict
#   cancel   a longer match whose array task 2 is cancelled (scancel) after its first game,
#            resubmitted (submit.sh resume): it keeps the games it had and the merged result
#            still equals the one-process run's. While the resubmitted task is pending or
#            running, `resume` with TASKS 2-2 or 1-4 is refused (exit 2, "still pending or
#            running"): nothing is submitted, the new merge is not cancelled
#   lock     then two jobs of shard 2 submitted by hand (sbatch --array=2): while the first
#            holds the shard, the second fails (exit 2, "being written by another job") and
#            leaves it alone; the first ends, and the merge by hand still equals one process
#
# cluster/test-inputs.sh checks what submit.sh refuses, without a cluster.
#
# Node-limited searches are deterministic whatever the load. Exits 1 with a message naming the
# difference; the work folder is then kept (LUDUS_CLUSTER_TEST_DIR, default a new /tmp folder).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=cluster/lib.sh
source "$here/lib.sh"
submit=$here/slurm/submit.sh
timeout=${LUDUS_CLUSTER_TEST_TIMEOUT:-600}

fail() {
  echo "cluster test: FAIL: $*" >&2
  exit 1
}
step() { echo "== cluster: $*"; }
passed=0
pass() {
  passed=$((passed + 1))
  echo "ok: $*"
}

ludus_binary "$@"
for tool in sbatch squeue scontrol scancel sinfo jq; do
  command -v "$tool" >/dev/null || fail "needs $tool on PATH (slurm-wlm, jq)"
done
node=$(sinfo -h -o %t 2>/dev/null | head -n 1 || true)
[[ $node == idle || $node == mix* || $node == alloc* ]] ||
  fail "no Slurm node ready (sinfo says '${node:-nothing}'): start one with cluster/slurm/local-cluster.sh start"

work=${LUDUS_CLUSTER_TEST_DIR:-$(mktemp -d /tmp/ludus-cluster-test.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd -P)
ok=0
cleanup() {
  # Cancel this test's jobs still queued or running (ids from the runs' job files).
  cancel_jobs "$work"/*/*.jobs
  if ((ok)); then
    rm -rf "$work"
  else
    echo "cluster test: the work folder is kept for inspection: $work" >&2
  fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- the runs
match=(--game tactigon --engine cmd=bin/ludus name=a nodes=3000 --engine cmd=bin/ludus name=b
  nodes=1500 --games 24 --random-openings 2 --seed 7)
datagen=(--game tactigon --games 16 --nodes 1000 --seed 3)
solve=(--size 4 --hash 64 --leaf-empties 10)
# Long enough (8 games a shard, about a second each on a busy core) to cancel a task mid-run.
cancel=(--game tactigon --engine cmd=bin/ludus name=a nodes=20000 --engine cmd=bin/ludus name=b
  nodes=10000 --games 32 --random-openings 2 --seed 11)
shards=4
per_shard_cancel=8

# The one-process runs happen in $work/ref, laid out like an output folder (bin/ludus), so that
# the engines' commands read the same.
ref=$work/ref
mkdir -p "$ref/bin"
cp "$ludus" "$ref/bin/ludus"
L=$ref/bin/ludus

# Every complete game of PGN records, one line each, by game number: the game, its seats,
# opening and result tags, and its moves without the comments (which hold times).
games() {
  awk '
    /^\[Game "/ { g = $0; sub(/^\[Game "/, "", g); sub(/"\]$/, "", g); tags = ""; moves = ""; next }
    /^\[(Round|P1|P2|Opening|OpeningFEN|Result|Termination|PlyCount) / { tags = tags " " $0; next }
    /^\[/ || /^$/ { next }
    {
      moves = moves " " $0
      if ($0 ~ /(^| )(1-0|0-1|1\/2-1\/2)$/) {
        m = moves; gsub(/\{[^}]*\}/, "", m); gsub(/ +/, " ", m)
        print g "\t" tags "\t" m
        moves = ""
      }
    }' "$@" | sort -n
}

# Compare the merged match in folder $1 (match.pgn, match.json) with the one-process run
# ($3.pgn, $3.json); $2 names the comparison's files in $work.
same_match() {
  local out=$1 label=$2 one=$3 a b field
  games "$out/match.pgn" >"$work/$label.games"
  games "$one.pgn" >"$work/$label.ref-games"
  diff "$work/$label.ref-games" "$work/$label.games" >"$work/$label.diff" ||
    fail "$label: the merged records differ from the one-process run's ($work/$label.diff)"
  for field in games encounters scheduled_games; do
    a=$(jq -S ".$field | if type == \"array\" then sort_by(.number) else . end" "$one.json")
    b=$(jq -S ".$field | if type == \"array\" then sort_by(.number) else . end" "$out/match.json")
    [[ $a == "$b" ]] || fail "$label: the merged results' $field differ from the one-process run's"
  done
  b=$(jq '.games | length' "$out/match.json")
  a=$(jq '.scheduled_games' "$one.json")
  [[ $a == "$b" ]] || fail "$label: $b games merged, $a scheduled"
  echo "$b games"
}

start=$SECONDS
step "the one-process solve and its certificate (the check's input)"
(cd "$ref" && "$L" solve "${solve[@]}" --results solve.txt --strategy strategy.txt >solve.log)
(cd "$ref" && "$L" solve certify solve.txt --strategy strategy.txt --leaf-empties 10 --hash 64 \
  --out solve.cert >>solve.log)

step "submit match, datagen, solve and check as $shards-task arrays with their merge jobs"
export LUDUS=$ludus
bash "$submit" match "$work/match" "$shards" "${match[@]}"
bash "$submit" datagen "$work/datagen" "$shards" "${datagen[@]}"
bash "$submit" solve "$work/solve" "$shards" "${solve[@]}"
bash "$submit" check "$work/check" "$shards" "$ref/solve.cert"

step "the same runs in one process each (while the arrays run)"
(cd "$ref" && "$L" match "${match[@]}" --pgnout match.pgn --results match.json --quiet >match.txt)
(cd "$ref" && "$L" datagen "${datagen[@]}" --out datagen.bin --progress 600 >datagen.txt)
(cd "$ref" && "$L" solve merge solve.txt >solve-merge.txt)
status=0
(cd "$ref" && "$L" solve check solve.cert --record check.txt >check.log) || status=$?
((status == 0)) || fail "the one-process check of $ref/solve.cert exited $status"
for ((k = 1; k <= shards; k++)); do # the solve's shards outside Slurm: their node counts
  (cd "$ref" && "$L" solve "${solve[@]}" --shard "$k/$shards" --results "solve-$k.txt" >/dev/null)
done
(cd "$ref" && "$L" match "${cancel[@]}" --pgnout cancel.pgn --results cancel.json --quiet >cancel.txt)

step "wait for the merge jobs"
for run in match datagen solve check; do
  wait_job "$(last_job "$work/$run/$run.jobs" merge)" "the $run merge" "$work/$run/logs/$run-merge.out" "$timeout"
done

step "compare"
what=$(same_match "$work/match" match "$ref/match")
pass "match: $shards shards merged by the afterok job equal the one-process run ($what, game for game)"

cmp "$ref/datagen.bin" "$work/datagen/datagen.bin" ||
  fail "datagen: the merged file differs from the one-process file"
pass "datagen: the merged file is the one-process file byte for byte ($(cat "$work/datagen/datagen.txt"))"

# The result, the proof's length, the frontier and every first move; nodes and time vary
# with the plan (each process's table keeps transpositions between frontier positions).
strip() { sed 's/, [0-9]* nodes, [0-9.]* s of proofs$//' "$1"; }
diff <(strip "$ref/solve-merge.txt") <(strip "$work/solve/solve.txt") >"$work/solve.diff" ||
  fail "solve: the merged result differs from the one-process result ($work/solve.diff)"
for ((k = 1; k <= shards; k++)); do
  diff <(grep -v '^#' "$ref/solve-$k.txt" | cut -f1-5) <(grep -v '^#' "$work/solve/solve-$k.txt" | cut -f1-5) \
    >"$work/solve-$k.diff" ||
    fail "solve: shard $k's results (position, result, plies, move, nodes) differ from the same shard outside Slurm ($work/solve-$k.diff)"
done
nodes_one=$(sed -n '1s/.*, \([0-9]*\) nodes, .*/\1/p' "$ref/solve-merge.txt")
nodes_shards=$(sed -n '1s/.*, \([0-9]*\) nodes, .*/\1/p' "$work/solve/solve.txt")
status=0
"$L" solve check "$work/solve/solve.cert" >"$work/solve-cert-check.txt" || status=$?
((status == 0)) || fail "solve: the certificate of the merged shards does not check (exit $status, $work/solve-cert-check.txt)"
pass "solve: $(head -n 1 "$work/solve/solve.txt" | cut -d';' -f1), the same first moves as one process; node counts those of the same shards outside Slurm ($nodes_shards in 4 shards, $nodes_one in one process); its certificate checks"

claims() { grep -h '^verified ' "$@" | sort; }
diff <(claims "$ref/check.txt") <(claims "$work"/check/check-[0-9]*.txt) >"$work/check.diff" ||
  fail "check: the shards' records verify other claims than the one-process check ($work/check.diff)"
one=$(tail -n 1 "$ref/check.log" | sed -n 's/^proven: \(.*\); all .*/\1/p')
merged=$(tail -n 1 "$work/check/check.txt" | sed -n 's/^not proven by this run alone: \(.*\) holds if .*/\1/p')
[[ -n $one && $one == "$merged" ]] ||
  fail "check: the merged verdict '$(tail -n 1 "$work/check/check.txt")' is not the one-process '$(tail -n 1 "$ref/check.log")'"
pass "check: the shards verified the one-process check's $(claims "$ref/check.txt" | wc -l) claims; verdict: $merged"

step "cancel a task mid-run, resubmit it, merge"
out=$work/cancel
bash "$submit" match "$out" "$shards" "${cancel[@]}" >/dev/null
array=$(last_job "$out/match.jobs" array)
first_merge=$(last_job "$out/match.jobs" merge)
deadline=$((SECONDS + timeout))
while :; do
  state=$(squeue -h -j "${array}_2" -o %T 2>/dev/null || true)
  played=$(grep -c '^\[Game ' "$out/match-2.pgn" 2>/dev/null || true)
  [[ $state == RUNNING ]] && ((played >= 1)) && break
  [[ -f $out/done/match-2 ]] && fail "cancel: task 2 ended before it could be cancelled (make the cancel match longer)"
  ((SECONDS < deadline)) || fail "cancel: task 2 did not start playing within $timeout s"
  sleep 0.1
done
scancel "${array}_2"
while [[ -n $(squeue -h -j "${array}_2" -o %i 2>/dev/null || true) ]]; do sleep 0.2; done
state=$(job_state "${array}_2")
[[ ${state%% *} == CANCELLED ]] || fail "cancel: task 2 ended $state, not CANCELLED"
before=$(games "$out/match-2.pgn" | wc -l)
((before < per_shard_cancel)) || fail "cancel: task 2 had finished its $per_shard_cancel games when it was cancelled"
games "$out/match-2.pgn" >"$work/cancelled.games"
echo "task ${array}_2 cancelled after $before of its $per_shard_cancel games"
bash "$submit" resume "$out" match
resubmitted=$(awk '$1 == "array" { t = $3 } END { print t }' "$out/match.jobs")
[[ $resubmitted == 2 ]] || fail "cancel: resume resubmitted tasks '$resubmitted', not task 2 alone"
# A resume whose TASKS hold the resubmitted task while it is pending or running is refused,
# whatever their form, and changes nothing.
new_array=$(last_job "$out/match.jobs" array)
new_merge=$(last_job "$out/match.jobs" merge)
new_state=$(squeue -h -r -j "$new_array" -o %T 2>/dev/null | head -n 1 || true)
[[ -n $new_state ]] ||
  fail "range: the resubmitted task 2 ended before the test could resume it again (make the cancel match longer)"
cp "$out/match.jobs" "$work/jobs.before"
for tasks in 2-2 1-4; do
  status=0
  bash "$submit" resume "$out" match "$tasks" >"$work/range.out" 2>"$work/range.err" || status=$?
  if ((status != 2)) || ! grep -q 'still pending or running' "$work/range.err"; then
    fail "range: resume $out match $tasks while task 2 runs exited $status: $(cat "$work/range.err" "$work/range.out")"
  fi
  [[ $tasks != 2-2 ]] || grep -q '^submit.sh: error: task 2 of match is still pending or running' "$work/range.err" ||
    fail "range: resume … 2-2 does not name task 2: $(cat "$work/range.err")"
done
cmp -s "$work/jobs.before" "$out/match.jobs" || fail "range: a refused resume recorded new jobs in $out/match.jobs"
[[ -n $(squeue -h -j "$new_merge" -o %i 2>/dev/null || true) ]] || fail "range: a refused resume cancelled the merge job $new_merge"
pass "range: resume with TASKS 2-2 and 1-4 while task 2 is ${new_state,,} is refused; nothing submitted or cancelled"
wait_job "$(last_job "$out/match.jobs" merge)" "the merge after the resubmission" "$out/logs/match-merge.out" "$timeout"
state=$(job_state "$first_merge")
[[ ${state%% *} != COMPLETED ]] || fail "cancel: the first merge job ($first_merge) ran although task 2 was cancelled"
comm -23 <(sort "$work/cancelled.games") <(games "$out/match-2.pgn" | sort) >"$work/lost.games"
[[ ! -s $work/lost.games ]] || fail "cancel: games played before the cancel were replaced ($work/lost.games)"
runs=$(grep -c '^.* match shard 2/4 on ' "$out/logs/match-2.out")
((runs == 2)) || fail "cancel: task 2's log shows $runs runs, not 2"
what=$(same_match "$out" cancel "$ref/cancel")
pass "cancel: task 2 cancelled after $before games and resubmitted kept them; the merged match equals the one-process run ($what)"

step "two jobs on one shard: the second leaves it alone"
# Two array jobs of shard 2 by hand (as "Without the wrapper" in docs/cluster.md does): the
# first runs a ludus that waits for $out/release, so it holds the shard while the second runs.
games "$out/match-2.pgn" >"$work/shard2.games"
cat >"$out/bin/held-ludus" <<HELD
#!/usr/bin/env bash
touch "$out/held.started"
for ((i = 0; i < 1200; i++)); do [[ -e "$out/release" ]] && break; sleep 0.1; done
exec "$out/bin/ludus" "\$@"
HELD
chmod +x "$out/bin/held-ludus"
mapfile -d '' args <"$out/match.args"
by_hand() { # by_hand LOG LUDUS: shard 2 as an array of one task; prints the job id
  sbatch --parsable --array=2 --job-name=ludus-match --chdir="$out" --output="$out/logs/$1" \
    --export="ALL,LUDUS=$2" "$here/slurm/match.sbatch" "$out" "${args[@]}"
}
first=$(by_hand lock-first.out "$out/bin/held-ludus")
echo "array $first 2" >>"$out/lock.jobs" # for the clean-up
deadline=$((SECONDS + timeout))
until [[ -e $out/held.started ]] && grep -q "job ${first}_2 " "$out/locks/match-2.lock.holder" 2>/dev/null; do
  ((SECONDS < deadline)) || fail "lock: the first job ($first) did not take shard 2 within $timeout s"
  sleep 0.2
done
second=$(by_hand lock-second.out "$out/bin/ludus")
echo "array $second 2" >>"$out/lock.jobs"
deadline=$((SECONDS + 120))
while [[ -n $(squeue -h -r -j "$second" -o %i 2>/dev/null || true) ]]; do
  if ((SECONDS >= deadline)); then
    touch "$out/release"
    fail "lock: the second job ($second) did not run while the first held shard 2 (it needs a second free CPU)"
  fi
  sleep 0.2
done
state=$(job_state "${second}_2")
[[ $state == "FAILED 2:0" ]] || fail "lock: the second job on shard 2 ended '$state', not 'FAILED 2:0'"
grep -q "error: shard 2/4 of match is being written by another job (job ${first}_2 " "$out/logs/lock-second.out" ||
  fail "lock: the second job's log does not say that shard 2 is being written by job ${first}_2: $(tail -n 3 "$out/logs/lock-second.out")"
if grep -q ' match shard 2/4 on ' "$out/logs/lock-second.out"; then fail "lock: the second job started ludus on shard 2"; fi
touch "$out/release"
wait_job "${first}_2" "the first job on shard 2" "$out/logs/lock-first.out" "$timeout"
[[ -f $out/done/match-2 ]] || fail "lock: shard 2 is not done after the first job"
cmp -s "$work/shard2.games" <(games "$out/match-2.pgn") || fail "lock: shard 2's games changed"
rm -f "$out/match.json" "$out/match.pgn"
LUDUS=$out/bin/ludus bash "$here/slurm/merge.sbatch" match "$out" >"$work/lock-merge.out" 2>&1 ||
  fail "lock: the merge by hand failed: $(tail -n 3 "$work/lock-merge.out")"
what=$(same_match "$out" lock "$ref/cancel")
pass "lock: a second job on shard 2 failed at once (being written by another job) while the first held it; the first ended, the merge by hand still equals one process ($what)"

leftover=$(pgrep -f "$work/" || true)
[[ -z $leftover ]] || fail "processes of the test still run: $(echo "$leftover" | tr '\n' ' ')"
ok=1
echo "cluster test: $passed passed, 0 failed ($((SECONDS - start)) s)"
