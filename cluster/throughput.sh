#!/usr/bin/env bash
# Throughput of the Slurm job arrays on a running cluster (the one node of
# cluster/slurm/local-cluster.sh, or any): a fixed match and a fixed datagen run, each in
# one process without Slurm, then as arrays of 1, 2 and 4 tasks (one CPU each) submitted with
# cluster/slurm/submit.sh, timed from submission to the end of the merge job. Prints the table
# of docs/cluster.md ("Throughput").
#
#   bash cluster/throughput.sh target/release/ludus              # the measurement (about 15 min
#                                                                 # of two idle cores)
#   GAMES=8 POSITIONS_GAMES=8 bash cluster/throughput.sh target/release/ludus   # a quick try
#
# GAMES: match games (default 200; a multiple of 2 x the largest task count), TASKS (default
# "1 2 4"), POSITIONS_GAMES: datagen games (default 400). The runs: Tactigon, node-limited
# engines (20,000 against 10,000 nodes a move, random 2-ply openings), and datagen at 5,000
# nodes a position; node limits make the work the same whatever the load, so the figures
# measure the machine and the scheduling. Run it on an otherwise idle machine.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
submit=$here/slurm/submit.sh
fail() {
  echo "throughput: error: $*" >&2
  exit 1
}
# shellcheck source=cluster/lib.sh
source "$here/lib.sh"

ludus_binary "$@"
games=${GAMES:-200}
datagen_games=${POSITIONS_GAMES:-400}
read -r -a tasks <<<"${TASKS:-1 2 4}"
timeout=${LUDUS_THROUGHPUT_TIMEOUT:-7200}
for tool in sbatch squeue scontrol sinfo; do
  command -v "$tool" >/dev/null || fail "needs $tool on PATH (slurm-wlm)"
done
[[ -n $(sinfo -h -o %t 2>/dev/null || true) ]] || fail "no Slurm cluster answers: cluster/slurm/local-cluster.sh start"

match=(--game tactigon --engine cmd=bin/ludus name=a nodes=20000 --engine cmd=bin/ludus name=b
  nodes=10000 --games "$games" --random-openings 2 --seed 3 --quiet)
datagen=(--game tactigon --games "$datagen_games" --nodes 5000 --seed 3 --progress 3600)

work=$(mktemp -d /tmp/ludus-throughput.XXXXXX)
cleanup() {
  cancel_jobs "$work"/*/*.jobs
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/one/bin"
cp "$ludus" "$work/one/bin/ludus"

now() { date +%s.%N; }
per_hour() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n * 3600 / s }'; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Submit RUN with T tasks, wait for its merge; print the wall seconds.
timed_array() {
  local run=$1 t=$2 out=$work/$1-$2 t0
  shift 2
  t0=$(now)
  LUDUS=$ludus bash "$submit" "$run" "$out" "$t" "$@" >/dev/null
  wait_job "$(last_job "$out/$run.jobs" merge)" "$run with $t tasks" "$out/logs/$run-merge.out" "$timeout"
  seconds "$t0" "$(now)"
}

# The positions of datagen's last line ("16 games, 625 positions written in …" or the merge's
# "datagen.bin: 16 games, 625 positions from 4 files").
positions_of() { grep -o '[0-9]* positions' "$1" | tail -n 1 | cut -d' ' -f1; }

echo "# $(date -Is), $(nproc) CPUs, $(uptime | sed 's/.*load average/load average/') at the start"
echo "# match: ${match[*]}"
echo "# datagen: ${datagen[*]}"
echo
echo "| tasks | match: $games games, wall s | games/hour | datagen: positions | wall s | positions/hour |"
echo "|---|---|---|---|---|---|"

t0=$(now)
(cd "$work/one" && bin/ludus match "${match[@]}" >match.txt)
match_s=$(seconds "$t0" "$(now)")
t0=$(now)
(cd "$work/one" && bin/ludus datagen "${datagen[@]}" --out datagen.bin >datagen.txt)
datagen_s=$(seconds "$t0" "$(now)")
positions=$(positions_of "$work/one/datagen.txt")
[[ -n $positions ]] || fail "no position count in the datagen output ($work/one/datagen.txt)"
echo "| one process, no Slurm | $match_s | $(per_hour "$games" "$match_s") | $positions | $datagen_s | $(per_hour "$positions" "$datagen_s") |"

for t in "${tasks[@]}"; do
  match_s=$(timed_array match "$t" "${match[@]}")
  datagen_s=$(timed_array datagen "$t" "${datagen[@]}")
  merged=$(positions_of "$work/datagen-$t/datagen.txt")
  [[ $merged == "$positions" ]] || fail "datagen with $t tasks merged $merged positions, one process wrote $positions"
  echo "| $t | $match_s | $(per_hour "$games" "$match_s") | $positions | $datagen_s | $(per_hour "$positions" "$datagen_s") |"
done
echo
echo "# $(uptime | sed 's/.*load average/load average/') at the end"
