#!/usr/bin/env bash
# The whole test suite with both cores busy: two spinning processes (one per core of the
# machine this was written for) run beside `cargo test --no-fail-fast`, RUNS times in a row
# (default 3). Each run's wall time, load and result are printed, and the logs kept in OUT
# (default target/suite-under-load). Exits 1 if any run fails. docs/benchmarks.md, "The suite
# under load", has the figures.
#
#   bash benches/suite/under_load.sh [RUNS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-3}
out=${2:-target/suite-under-load}
spinners=${SPINNERS:-2}
mkdir -p "$out"
pids=()
# shellcheck disable=SC2317 # called by the EXIT trap
stop_spinners() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_spinners EXIT
for _ in $(seq "$spinners"); do
  (while :; do :; done) &
  pids+=($!)
done
# Built once first, so that every run measures the tests, not the build.
cargo test --no-run --locked >"$out/build.log" 2>&1
failed=0
for run in $(seq "$runs"); do
  start=$SECONDS
  if cargo test --no-fail-fast --locked >"$out/run-$run.log" 2>&1; then
    verdict=green
  else
    verdict=RED
    failed=1
  fi
  passed=$(grep -Eo '[0-9]+ passed' "$out/run-$run.log" | awk '{s += $1} END {print s + 0}')
  echo "run $run of $runs: $verdict, $passed tests passed, $((SECONDS - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg), $spinners spinners"
  grep -E '^test .* FAILED$' "$out/run-$run.log" || true
done
exit "$failed"
