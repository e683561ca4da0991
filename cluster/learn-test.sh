#!/usr/bin/env bash
# End-to-end test of the learning loop on a running Slurm cluster (the one-node cluster of
# cluster/slurm/local-cluster.sh; .ci/run starts it, runs this, stops it):
#
#   bash cluster/learn-test.sh target/debug/ludus     # a ludus built with --features train
#
# Through cluster/slurm/submit.sh learn, as a user would: two generations of Sight 4x4 with
# tiny budgets (2 datagen tasks, 2 gate tasks a gate, the clock gate at 1+0.01). Each
# generation is a chain of jobs that the previous generation's finish job submits; the test
# waits for the run's stop line and checks the ledger: generations 0, 1 and 2 in order, each
# gate's games split over its two shards and played to the end (no early stop in shards),
# W+L+D = games, promotion consistent with the gates, best.nnue the last promoted net, the
# chart drawn, the stop rule `generations`. Then `submit.sh resume OUT learn` on the stopped
# run submits nothing (the rule holds), `resume OUT learn --generations 3` runs generation 3
# and stops again (3 of 3), and a second `submit.sh learn` into the same folder is refused
# (exit 2).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=cluster/lib.sh
source "$here/lib.sh"
submit=$here/slurm/submit.sh
timeout=${LUDUS_CLUSTER_TEST_TIMEOUT:-900}

fail() {
  echo "learn cluster test: FAIL: $*" >&2
  exit 1
}
pass() { echo "ok: $*"; }

ludus_binary "$@"
for tool in sbatch squeue scontrol scancel sinfo jq; do
  command -v "$tool" >/dev/null || fail "needs $tool on PATH (slurm-wlm, jq)"
done
work=${LUDUS_CLUSTER_TEST_DIR:-$(mktemp -d /tmp/ludus-learn-test.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd -P)
ok=0
cleanup() {
  if [[ -f $work/run/learn.jobs ]]; then
    while read -r _ _ id; do
      if [[ -n $(squeue -h -j "$id" -o %i 2>/dev/null || true) ]]; then scancel "$id" 2>/dev/null || true; fi
    done <"$work/run/learn.jobs"
  fi
  if ((ok)); then rm -rf "$work"; else echo "learn cluster test: the work folder is kept: $work" >&2; fi
}
trap cleanup EXIT

cat >"$work/tiny.json" <<'EOF'
{
  "seed": 3,
  "datagen": {"games": 24, "nodes": 300, "shards": 2},
  "train": {"epochs": 2, "hidden": 8, "batch": 256},
  "gate": {"nodes": 300, "max_games": 12, "concurrency": 1, "elo0": -600, "elo1": -500},
  "confirm": {"tc": "1+0.01", "max_games": 4, "concurrency": 1},
  "anchor_games": 4
}
EOF
run=$work/run
LUDUS=$ludus LUDUS_GATE_SHARDS=2 LUDUS_TRAIN_CPUS=1 bash "$submit" learn "$run" --game sight \
  --option Sight_BoardSize=4 --config "$work/tiny.json" --generations 2 >"$work/submit.out"
grep -q '^learn: generation 1 submitted: 2 datagen tasks' "$work/submit.out" ||
  fail "submit.sh learn said: $(cat "$work/submit.out")"
pass "submit.sh learn: generation 0 and 1's chain submitted"

# Wait for the stop line (the finish of generation 2 writes it).
deadline=$((SECONDS + timeout))
until [[ -f $run/ledger.jsonl ]] && jq -e 'select(.kind == "stop")' "$run/ledger.jsonl" >/dev/null 2>&1; do
  if ((SECONDS > deadline)); then
    tail -n 5 "$run"/logs/*.out >&2 || true
    fail "no stop line in the ledger within $timeout s"
  fi
  # A failed job stops the chain: say which.
  for f in "$run"/logs/*.out; do
    [[ -e $f ]] || continue
    if grep -q '^error: ' "$f"; then
      tail -n 5 "$f" >&2
      fail "a job failed: $f"
    fi
  done
  sleep 2
done
pass "the run stopped by itself"

ledger=$run/ledger.jsonl
[[ $(jq -c 'select(.kind == "generation") | .generation' "$ledger" | paste -sd, -) == 0,1,2 ]] ||
  fail "generations in the ledger: $(jq -c 'select(.kind == "generation") | .generation' "$ledger" | paste -sd, -)"
[[ $(jq -r 'select(.kind == "stop") | .rule' "$ledger") == generations ]] || fail "the stop rule is not 'generations'"
for g in 1 2; do
  line=$(jq -c "select(.kind == \"generation\" and .generation == $g)" "$ledger")
  [[ $(jq '.gate_nodes.games' <<<"$line") == 12 ]] || fail "generation $g's nodes gate played $(jq '.gate_nodes.games' <<<"$line") games, not 12 (two shards of 6)"
  [[ $(jq '.gate_nodes.wins + .gate_nodes.losses + .gate_nodes.draws' <<<"$line") == 12 ]] || fail "generation $g: W+L+D is not the games"
  [[ $(jq '.data.games' <<<"$line") == 24 ]] || fail "generation $g: $(jq '.data.games' <<<"$line") self-play games, not 24"
  passed=$(jq '.gate_nodes.passed and (.gate_clock.passed // false)' <<<"$line")
  [[ $(jq '.promoted' <<<"$line") == "$passed" ]] || fail "generation $g: promoted is not the gates' verdict"
  if [[ $(jq '.gate_nodes.passed' <<<"$line") == true ]]; then
    [[ $(jq '.gate_clock.games' <<<"$line") == 4 ]] || fail "generation $g: the clock gate played $(jq '.gate_clock.games' <<<"$line") games, not 4"
  else
    [[ $(jq '.gate_clock' <<<"$line") == null ]] || fail "generation $g: a clock gate after a failed nodes gate"
  fi
done
# The nodes gate's bounds (elo0 -600, elo1 -500) pass any candidate that is not hopeless, so
# the clock gate and the anchor match of a new best are exercised too.
[[ $(jq -s '[.[] | select(.kind == "generation" and .gate_nodes.passed)] | length' "$ledger") -ge 1 ]] ||
  fail "no candidate passed the nodes gate: the clock gate was never played"
best=$(jq -r 'select(.kind == "generation" and .promoted) | .net' "$ledger" | tail -n 1)
if [[ $best == hand ]]; then
  [[ ! -e $run/best.nnue ]] || fail "best.nnue exists while the best is the hand evaluation"
else
  cmp -s "$run/$best" "$run/best.nnue" || fail "best.nnue is not the last promoted net ($best)"
fi
grep -q 'best vs generation 0' "$run/elo.svg" || fail "no chart"
pass "the ledger: generations 0, 1, 2, gates in two shards each, promotions as the gates say, the chart"

# Resume of the stopped run: nothing while the rule holds; one more generation with a higher
# limit.
jobs_before=$(wc -l <"$run/learn.jobs")
bash "$submit" resume "$run" learn >"$work/resume.out" || fail "resume refused: $(cat "$work/resume.out")"
grep -q "stop rule 'generations' holds" "$work/resume.out" || fail "resume of a stopped run said: $(cat "$work/resume.out")"
(($(wc -l <"$run/learn.jobs") == jobs_before)) || fail "resume of a stopped run submitted jobs"
bash "$submit" resume "$run" learn --generations 3 >"$work/resume.out" || fail "resume refused: $(cat "$work/resume.out")"
finish=$(awk '$2 == "finish" { id = $3 } END { print id }' "$run/learn.jobs")
wait_job "$finish" "generation 3's finish" "$run/logs/learn-3-finish.out" "$timeout"
[[ $(jq -c 'select(.kind == "generation") | .generation' "$ledger" | paste -sd, -) == 0,1,2,3 ]] ||
  fail "after the resume, generations: $(jq -c 'select(.kind == "generation") | .generation' "$ledger" | paste -sd, -)"
[[ $(jq -r 'select(.kind == "stop") | .reason' "$ledger" | tail -n 1) == "3 of 3 generations done" ]] ||
  fail "after the resume, the last stop: $(jq -r 'select(.kind == "stop") | .reason' "$ledger" | tail -n 1)"
status=0
LUDUS=$ludus bash "$submit" learn "$run" --game sight >/dev/null 2>"$work/again.err" || status=$?
if ((status != 2)) || ! grep -q 'already holds a learning run' "$work/again.err"; then
  fail "a second submit.sh learn into the folder: exit $status, $(cat "$work/again.err")"
fi
pass "resume: nothing while the stop rule holds, generation 3 with --generations 3; a second run into the same folder refused"
ok=1
echo "learn cluster test: all passed"
