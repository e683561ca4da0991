#!/usr/bin/env bash
# What cluster/slurm/submit.sh refuses, and the job scripts' shard locks, without a cluster
# (.ci/run runs it in its Slurm stage, before the one-node cluster starts):
#
#   bash cluster/test-inputs.sh
#
# submit.sh runs with a fake sbatch, squeue, scancel and scontrol first on PATH, which record
# every call (squeue answers what a case sets). Each refusal must exit 2 with
# "submit.sh: error: ...", submit and cancel nothing, and make no folder:
#
#   new runs   an output folder with % or a comma, one starting with '-', a number of shards
#              that is not 1..MaxArraySize-1, a bad LUDUS_CPUS, LUDUS_MEM or LUDUS_SBATCH, no
#              ludus binary, no certificate (and ./-x is taken as a folder)
#   resume     TASKS that are not K or K-L lists within 1..N (0, 9 of 4, 1-1000000, 1;2, 3-2,
#              ...), an unknown run, a crafted RUN.shards (a command in an arithmetic
#              subscript, a comma that would reach --export), a crafted RUN.jobs, squeue failing
#   running    a task still pending or running named by TASKS in any form (3, 2-4, 1-4, 2,3,
#              1-2,3-4) is refused, the earlier merge left alone; TASKS around it are taken,
#              and resume without TASKS leaves it out; a running merge refuses the resume
#
# The array scripts (match, datagen, solve, check) run outside Slurm with a fake ludus: while
# a first job holds shard 2, a second job on shard 2 exits 2 with "being written by another
# job" without running ludus, and the merge refuses to run; once the first has ended, the
# second runs. Also: the scripts in cluster/ are executable (submit.sh is run directly here,
# as the docs write it). Every check runs (no set -e); exits 1 if any failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
submit=$here/slurm/submit.sh
work=$(mktemp -d /tmp/ludus-cluster-inputs.XXXXXX)
work=$(cd "$work" && pwd -P)
trap 'rm -rf "$work"' EXIT
unset LUDUS_SBATCH LUDUS_CPUS LUDUS_MEM LUDUS

passed=0
failed=0
pass() {
  passed=$((passed + 1))
  echo "ok: $*"
}
fail() {
  failed=$((failed + 1))
  echo "FAIL: $*" >&2
}

# ---------------------------------------------------------------- fakes
fake=$work/fake
calls=$work/calls
mkdir -p "$fake"
: >"$calls"
cat >"$fake/sbatch" <<'EOF'
#!/usr/bin/env bash
[[ ${1:-} == --parsable ]] || { echo "fake sbatch: called without --parsable" >&2; exit 1; }
shift
printf 'sbatch' >>"$FAKE_CALLS"; printf ' %s' "$@" >>"$FAKE_CALLS"; echo >>"$FAKE_CALLS"
id=$(cat "$FAKE_DIR/next-id" 2>/dev/null || echo 1001)
echo $((id + 1)) >"$FAKE_DIR/next-id"
echo "$id"
EOF
cat >"$fake/squeue" <<'EOF'
#!/usr/bin/env bash
printf 'squeue' >>"$FAKE_CALLS"; printf ' %s' "$@" >>"$FAKE_CALLS"; echo >>"$FAKE_CALLS"
[[ ! -e $FAKE_DIR/squeue.fail ]] || { echo "squeue: error: Unable to contact slurm controller" >&2; exit 1; }
cat "$FAKE_DIR/squeue.out" 2>/dev/null || true
EOF
cat >"$fake/scancel" <<'EOF'
#!/usr/bin/env bash
printf 'scancel' >>"$FAKE_CALLS"; printf ' %s' "$@" >>"$FAKE_CALLS"; echo >>"$FAKE_CALLS"
EOF
cat >"$fake/scontrol" <<'EOF'
#!/usr/bin/env bash
echo "MaxArraySize            = 1001"
EOF
# A ludus that records its arguments in the folder it runs in (the job's OUT) and, when
# FAKE_HOLD is set, says it started and waits (20 s at most) until that file exists.
cat >"$fake/ludus" <<'EOF'
#!/usr/bin/env bash
echo "$*" >>ludus.calls
if [[ -n ${FAKE_HOLD:-} ]]; then
  touch ludus.started
  for ((i = 0; i < 200; i++)); do [[ -e $FAKE_HOLD ]] && break; sleep 0.1; done
fi
EOF
chmod +x "$fake"/*
export FAKE_CALLS=$calls FAKE_DIR=$fake PATH=$fake:$PATH
export LUDUS=$fake/ludus

# The sbatch and scancel calls so far.
acts() { grep -cE '^(sbatch|scancel)' "$calls" || true; }

# refused NAME TEXT COMMAND...: COMMAND exits 2 (within 20 s) with "submit.sh: error: ..."
# holding TEXT, and submits and cancels nothing.
refused() {
  local name=$1 text=$2 before status=0
  shift 2
  before=$(acts)
  timeout 20 "$@" >"$work/out" 2>"$work/err" || status=$?
  if ((status != 2)); then
    fail "$name: exit $status, not 2 ($(head -c 300 "$work/err"))"
  elif ! grep -q '^submit.sh: error: ' "$work/err"; then
    fail "$name: no 'submit.sh: error:' message ($(head -c 300 "$work/err"))"
  elif ! grep -qF -- "$text" "$work/err"; then
    fail "$name: the message does not say '$text': $(head -c 300 "$work/err")"
  elif (($(acts) != before)); then
    fail "$name: refused, but sbatch or scancel was called: $(tail -n 2 "$calls")"
  else
    pass "$name: refused ($(head -n 1 "$work/err" | cut -c 1-150))"
    return 0
  fi
  return 1
}

# absent NAME PATH: the refused command made no folder PATH.
absent() {
  if [[ -e $2 ]]; then fail "$1: refused, but ${2@Q} was made"; else pass "$1: ${2@Q} not made"; fi
}

# accepted NAME COMMAND...: COMMAND exits 0 (within 20 s).
accepted() {
  local name=$1 status=0
  shift
  timeout 20 "$@" >"$work/out" 2>"$work/err" || status=$?
  if ((status != 0)); then
    fail "$name: exit $status ($(head -c 300 "$work/err"))"
    return 1
  fi
}

# last_call PATTERN: the last recorded call matching PATTERN (grep -E).
last_call() { grep -E "$1" "$calls" | tail -n 1; }

# ---------------------------------------------------------------- the scripts are executable
for file in "$here"/test*.sh "$here"/throughput.sh "$here"/slurm/*.sh "$here"/slurm/*.sbatch; do
  [[ -x $file ]] || fail "${file#"$here"/} is not executable (git update-index --chmod=+x)"
done
[[ -x $submit ]] && pass "the scripts in cluster/ and cluster/slurm/ are executable"

# ---------------------------------------------------------------- new runs
cd "$work" || exit 1
refused "an output folder with %" "may hold only" "$submit" match "$work/out%j" 4 --game tactigon &&
  absent "an output folder with %" "$work/out%j"
refused "an output folder with a comma" "may hold only" "$submit" match "$work/a,b" 4 --game tactigon &&
  absent "an output folder with a comma" "$work/a,b"
refused "an output folder with a newline" "may hold only" "$submit" match "$work/a
b" 4 --game tactigon && absent "an output folder with a newline" "$work/a"$'\n'"b"
refused "an output folder starting with -" "starts with '-'" "$submit" match -x 4 --game tactigon &&
  absent "an output folder starting with -" "$work/-x"
for n in 0 x 1001 0x10 1e3 007 -1 '4;1' ''; do
  refused "$n shards" "shards" "$submit" datagen "$work/n" "$n" --game tactigon && absent "$n shards" "$work/n"
done
refused "LUDUS_CPUS=0" "LUDUS_CPUS" env LUDUS_CPUS=0 "$submit" datagen "$work/e" 4 && absent "LUDUS_CPUS=0" "$work/e"
refused "LUDUS_MEM with a comma" "LUDUS_MEM" env LUDUS_MEM=1G,LUDUS=/x "$submit" datagen "$work/e" 4 &&
  absent "LUDUS_MEM with a comma" "$work/e"
refused "LUDUS_SBATCH with --array" "LUDUS_SBATCH" env LUDUS_SBATCH="--time=1:00 --array=1-9" "$submit" datagen "$work/e" 4 &&
  absent "LUDUS_SBATCH with --array" "$work/e"
refused "no ludus binary" "no ludus binary" env LUDUS="$work/none" "$submit" datagen "$work/e" 4 &&
  absent "no ludus binary" "$work/e"
refused "no certificate" "no certificate" "$submit" check "$work/e" 4 "$work/none.cert" && absent "no certificate" "$work/e"
refused "an argument the job script gives" "--shard" "$submit" datagen "$work/e" 4 --shard 1/2 && absent "an argument the job script gives" "$work/e"

if accepted "./-x as the output folder" "$submit" datagen ./-x 4 --game tactigon; then
  if last_call '^sbatch --array=1-4 ' | grep -qF -- "--chdir=$work/-x " && [[ -d $work/-x/logs ]]; then
    pass "./-x: submitted in $work/-x"
  else
    fail "./-x: not submitted in $work/-x: $(last_call '^sbatch --array')"
  fi
fi

# A run to resume: array job 1003 (tasks 1-4), merge 1004.
echo 1003 >"$fake/next-id"
run=$work/run
accepted "a new match run" "$submit" match "$run" 4 --game tactigon --games 8
if [[ $(last_call '^sbatch --array') == "sbatch --array=1-4 "* && $(last_call '^sbatch') == *--dependency=afterok:1003* ]]; then
  pass "a new match run: array 1003 of tasks 1-4, merge 1004 after it"
else
  fail "a new match run: not submitted as expected: $(tail -n 2 "$calls")"
fi

# ---------------------------------------------------------------- resume: TASKS and state files
# shellcheck disable=SC2016 # '$((1))' is a TASKS given as it is
for tasks in 0 9 5-6 1-1000000 '1;2' '1;touch x' 3-2 '1,,2' ',1' '1,' '2:1' '1-4%2' ' 1' '' 01 1- '1 2' '$((1))'; do
  refused "resume TASKS '$tasks'" "TASKS" "$submit" resume "$run" match "$tasks"
done
refused "resume of an unknown run" "unknown run" "$submit" resume "$run" ../x
refused "resume of a folder with %" "may hold only" "$submit" resume "$work/run%j" match

evil=$work/evil
cp -r "$run" "$evil"
printf '%s\n' "k[\$(touch $work/pwned)]" >"$evil/match.shards"
refused "a RUN.shards holding a command" "does not hold a number of shards" "$submit" resume "$evil" match
if [[ -e $work/pwned ]]; then fail "a RUN.shards holding a command: the command ran"; else pass "a RUN.shards holding a command: not run"; fi
refused "a RUN.shards holding a command, with TASKS" "does not hold a number of shards" "$submit" resume "$evil" match 1
[[ ! -e $work/pwned ]] || fail "a RUN.shards holding a command, with TASKS: the command ran"
printf '4,LUDUS=/tmp/evil\n' >"$evil/match.shards"
refused "a RUN.shards with a comma" "does not hold a number of shards" "$submit" resume "$evil" match
printf '4\n5\n' >"$evil/match.shards"
refused "a RUN.shards of two lines" "does not hold a number of shards" "$submit" resume "$evil" match
cp "$run/match.shards" "$evil/match.shards"
printf 'array 1003;touch %s 1-4\n' "$work/pwned" >"$evil/match.jobs"
refused "a crafted RUN.jobs" "is not 'array ID TASKS'" "$submit" resume "$evil" match
[[ ! -e $work/pwned ]] || fail "a crafted RUN.jobs: the command ran"
rm "$evil/match.merge-args"
refused "a run without its merge arguments" "holds no match run" "$submit" resume "$evil" match

touch "$fake/squeue.fail"
refused "resume when squeue fails" "squeue failed" "$submit" resume "$run" match
refused "resume of a task when squeue fails" "squeue failed" "$submit" resume "$run" match 2
rm "$fake/squeue.fail"

# ---------------------------------------------------------------- resume: running tasks (F3)
printf '1003 1003 3 RUNNING\n1004 1004 N/A PENDING\n' >"$fake/squeue.out"
for tasks in 3 3-3 2-4 1-4 2,3 1-2,3-4 4,3,1; do
  refused "resume TASKS $tasks with task 3 running" "task 3 of match is still pending or running" \
    "$submit" resume "$run" match "$tasks"
done
printf '1003 1003 3 RUNNING\n1003 1003 4 PENDING\n1004 1004 N/A PENDING\n' >"$fake/squeue.out"
refused "resume TASKS 2-4 with task 3 running and 4 pending" "tasks 3-4 of match are still pending or running" \
  "$submit" resume "$run" match 2-4
printf '1003 1003 3 RUNNING\n1003 1003 4 COMPLETED\n1004 1004 N/A PENDING\n' >"$fake/squeue.out"
echo 1005 >"$fake/next-id"
if accepted "resume TASKS 1-2,4 beside running task 3" "$submit" resume "$run" match 1-2,4; then
  if [[ $(last_call '^scancel') == "scancel 1004" && $(last_call '^sbatch --array') == "sbatch --array=1-2,4 "* &&
    $(last_call '^sbatch') == *--dependency=afterok:1005,afterany:1003\ * ]]; then
    pass "resume TASKS 1-2,4 beside running task 3: the pending merge cancelled, tasks 1-2,4 submitted, the merge after them and after array 1003"
  else
    fail "resume TASKS 1-2,4 beside running task 3: $(tail -n 3 "$calls")"
  fi
fi
mkdir -p "$run/done" && touch "$run/done/match-1"
printf '1003 1003 3 RUNNING\n1003 1003 4 PENDING\n' >"$fake/squeue.out"
if accepted "resume without TASKS, task 1 done, 3 running, 4 pending" "$submit" resume "$run" match; then
  if [[ $(last_call '^sbatch --array') == "sbatch --array=2 "* ]]; then
    pass "resume without TASKS: task 2 alone resubmitted (1 done, 3 and 4 left to run)"
  else
    fail "resume without TASKS: $(last_call '^sbatch --array')"
  fi
fi
printf '1004 1004 N/A RUNNING\n' >"$fake/squeue.out"
refused "resume while the merge runs" "the merge job 1004 of match is RUNNING" "$submit" resume "$run" match 2
rm -f "$fake/squeue.out"

# ---------------------------------------------------------------- the shard locks (F3)
# lock_case RUN ARGS...: two jobs of shard 2 of RUN in a folder of its own, outside Slurm.
lock_case() {
  local run=$1 dir=$work/lock-$1 status=0 first
  shift
  mkdir -p "$dir/done"
  echo 2 >"$dir/$run.shards"
  touch "$dir/check.cert" "$dir/done/$run-1"
  job() { # job JOB_ID [FAKE_HOLD]: shard 2 of RUN as an array task of array 500
    env SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_JOB_ID=500 SLURM_JOB_ID="$1" FAKE_HOLD="${2:-}" \
      bash "$here/slurm/$run.sbatch" "$dir" "${@:3}"
  }
  job 501 "$dir/release" "$@" >"$dir/first.log" 2>&1 &
  first=$!
  for ((i = 0; i < 100; i++)); do [[ -e $dir/ludus.started ]] && break; sleep 0.1; done
  if [[ ! -e $dir/ludus.started ]]; then
    fail "$run lock: the first job did not start ludus ($(tail -n 3 "$dir/first.log"))"
    touch "$dir/release"
    wait "$first" || true
    return
  fi
  job 502 "" "$@" >"$dir/second.log" 2>&1 || status=$?
  if ((status == 2)) && grep -q "shard 2/2 of $run is being written by another job (job 500_2 (501)" "$dir/second.log" &&
    (($(wc -l <"$dir/ludus.calls") == 1)); then
    pass "$run lock: a second job on shard 2 exits 2 without running ludus ($(grep -o 'error: .*' "$dir/second.log" | cut -c 8-120)...)"
  else
    fail "$run lock: the second job on shard 2 exited $status, ludus ran $(wc -l <"$dir/ludus.calls") time(s): $(tail -n 2 "$dir/second.log")"
  fi
  status=0
  env LUDUS="$LUDUS" bash "$here/slurm/merge.sbatch" "$run" "$dir" >"$dir/merge.log" 2>&1 || status=$?
  if ((status == 2)) && grep -q "a $run task is still running" "$dir/merge.log"; then
    pass "$run lock: the merge refuses while a task runs"
  else
    fail "$run lock: the merge during a task exited $status: $(tail -n 2 "$dir/merge.log")"
  fi
  touch "$dir/release"
  status=0
  wait "$first" || status=$?
  if ((status == 0)) && [[ -f $dir/done/$run-2 ]]; then
    pass "$run lock: the first job finished shard 2"
  else
    fail "$run lock: the first job exited $status: $(tail -n 2 "$dir/first.log")"
  fi
  status=0
  job 503 "" "$@" >"$dir/third.log" 2>&1 || status=$?
  if ((status == 0)) && (($(wc -l <"$dir/ludus.calls") == 2)); then
    pass "$run lock: once the first job has ended, a job on shard 2 runs"
  else
    fail "$run lock: a job after the first exited $status: $(tail -n 2 "$dir/third.log")"
  fi
}
lock_case match --game tactigon --games 4
lock_case datagen --game tactigon --games 4
lock_case solve --size 4
lock_case check check.cert

echo "test-inputs: $passed passed, $failed failed"
((failed == 0))
