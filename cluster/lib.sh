# Helpers shared by cluster/test.sh and cluster/throughput.sh (sourced; they run where jobs
# are submitted, not in the jobs). The sourcing script defines fail MESSAGE.
# shellcheck shell=bash

# ludus_binary ARGS...: the scripts' one argument, a ludus binary, as an absolute path in
# $ludus; usage (exit 2) or fail when it is missing.
ludus_binary() {
  (($# == 1)) || {
    echo "usage: $0 path/to/release/ludus" >&2
    exit 2
  }
  [[ -x $1 ]] || fail "no ludus binary at $1"
  # shellcheck disable=SC2034 # read by the sourcing script
  ludus=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
}

# "STATE EXITCODE" of job ID, e.g. "COMPLETED 0:0" (scontrol keeps a finished job's record for
# the cluster's MinJobAge: 10 minutes on the local cluster).
job_state() {
  scontrol show job -o "$1" 2>/dev/null |
    sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2/p' | head -n 1
}

# wait_job ID WHAT LOG TIMEOUT: wait until job ID has ended; fail (showing the end of LOG)
# unless it COMPLETED with exit code 0.
wait_job() {
  local id=$1 what=$2 log=$3 deadline=$((SECONDS + $4)) state
  while :; do
    state=$(job_state "$id")
    case ${state%% *} in
    COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE) break ;;
    esac
    ((SECONDS < deadline)) || fail "$what (job $id) has not ended after $4 s (state: ${state:-unknown})"
    sleep 0.5
  done
  if [[ $state != "COMPLETED 0:0" ]]; then
    echo "--- $log" >&2
    tail -n 20 "$log" >&2 || true
    fail "$what (job $id) ended $state"
  fi
}

# last_job JOBS_FILE KIND: the last job id of KIND (array or merge) that submit.sh recorded.
last_job() {
  awk -v kind="$2" '$1 == kind { id = $2 } END { print id }' "$1"
}

# cancel_jobs FILE...: cancel the jobs of submit.sh's job files that are still queued or running.
cancel_jobs() {
  local id
  for id in $(awk '{ print $2 }' "$@" 2>/dev/null || true); do
    if [[ -n $(squeue -h -j "$id" -o %i 2>/dev/null || true) ]]; then scancel "$id" 2>/dev/null || true; fi
  done
}
