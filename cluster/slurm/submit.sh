#!/usr/bin/env bash
# Submit a ludus long run to Slurm: a job array of N shards and the merge as a job that
# waits for it (--dependency=afterok), all outputs in one folder OUT that every node sees.
#
#   submit.sh match   OUT N [ludus match arguments...]
#   submit.sh datagen OUT N [ludus datagen arguments...]
#   submit.sh solve   OUT N [ludus solve arguments...]
#   submit.sh check   OUT N CERTIFICATE [ludus solve check arguments...]
#   submit.sh resume  OUT RUN [TASKS]
#   submit.sh learn   OUT [ludus learn flags...]    the learning loop: see learn.sh
#   submit.sh resume  OUT learn [--generations N] [--hours H] [--max-rejections K]
#
# A new run copies the ludus binary ($LUDUS, else `ludus` on PATH) to OUT/bin/ludus (match
# engines can be `cmd=bin/ludus`: the jobs run in OUT) and, for check, the certificate to
# OUT/check.cert; it keeps the plan in OUT/RUN.shards and the arguments in OUT/RUN.args, so
# `resume` resubmits the tasks that have not finished (or the TASKS given: task numbers K
# and ranges K-L from 1 to N, separated by commas, e.g. 3 or 2,5-7) with the very same
# command, and a new merge. Each task resumes from its own checkpoint. A task still pending
# or running is never submitted again: without TASKS it is left to run, and TASKS that name
# one are refused (nothing is submitted); the job scripts also lock each shard (flock), so
# that a shard never has two writers. Job ids are appended to OUT/RUN.jobs ("array ID
# TASKS", "merge ID"); logs go to OUT/logs/RUN-K.out and OUT/logs/RUN-merge.out.
#
# More sbatch options for every job: LUDUS_SBATCH="--partition=long --time=24:00:00", or
# sbatch's own SBATCH_* variables. CPUs and memory per task: LUDUS_CPUS (default 1; a
# match task plays that many games at once) and LUDUS_MEM (sbatch --mem, e.g. 6G for solve's
# --hash 4096; default 1 GiB a CPU, and solve's 2 GiB for one CPU).
#
# Everything is checked before anything is made or submitted; a refusal prints
# "submit.sh: error: ..." and exits 2. OUT's path (made absolute) may hold only ASCII
# letters, digits and . _ + - @ : ~ / (sbatch expands % in --output, splits --export at
# commas). The state files in OUT are read as data: a file that submit.sh would not have
# written is refused. See docs/cluster.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
  echo "submit.sh: error: $*" >&2
  exit 2
}

usage() {
  sed -n '5,11p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2
  exit 2
}

# A number of shards or a task number: 1 to 999999, no leading zero (never evaluated before
# it matched this).
count_re='^[1-9][0-9]{0,5}$'
# TASKS: K or K-L, separated by commas.
task_re='[1-9][0-9]{0,5}(-[1-9][0-9]{0,5})?'
tasks_re="^$task_re(,$task_re)*\$"

# ---------------------------------------------------------------- checks of the environment
command -v sbatch >/dev/null || die "no sbatch here: run this on a machine that submits Slurm jobs"

# Extra sbatch options, a word each; not those that submit.sh sets itself.
read -r -a extra <<<"${LUDUS_SBATCH:-}"
for word in "${extra[@]}"; do
  case $word in
  --array | --array=* | -a | -a?* | --export | --export=* | --chdir | --chdir=* | -D | -D?* | \
    --output | --output=* | -o | -o?* | --dependency | --dependency=* | -d | -d?* | \
    --kill-on-invalid-dep* | --parsable | --wrap | --wrap=*)
    die "LUDUS_SBATCH: $word: submit.sh sets --array, --export, --chdir, --output and --dependency itself"
    ;;
  esac
done
# CPUs and memory of each array task: LUDUS_CPUS (default 1) and LUDUS_MEM (default 1 GiB a
# CPU; the scripts' own default, without the wrapper, is 1 GiB, and 2 GiB for solve).
cpus=${LUDUS_CPUS:-1}
[[ $cpus =~ ^[1-9][0-9]{0,3}$ ]] || die "LUDUS_CPUS must be a positive integer: '$cpus'"
mem=${LUDUS_MEM:-}
[[ -z $mem || $mem =~ ^[0-9]{1,9}[KMGTkmgt]?$ ]] || die "LUDUS_MEM must be a size for sbatch --mem (a number, then K, M, G or T): '$mem'"
resources=(--cpus-per-task="$cpus")
if [[ -n $mem ]]; then
  resources+=(--mem="$mem")
elif ((cpus > 1)); then
  resources+=(--mem="${cpus}G")
fi
# The merge: one CPU; LUDUS_MEM too if given (solve certify allocates its --hash table).
merge_resources=()
[[ -z $mem ]] || merge_resources+=(--mem="$mem")

# ---------------------------------------------------------------- helpers

# The output folder $1 as an absolute path (symlinks resolved as far as it exists), in $out;
# refuse a path that sbatch or the job scripts would not take as it is.
resolve_out() {
  local given=$1
  [[ -n $given ]] || die "no output folder given"
  [[ $given != -* ]] || die "the output folder '$given' starts with '-': write it ./$given"
  out=$(realpath -m -- "$given") || die "cannot make an absolute path of the output folder '$given'"
  [[ $out =~ ^/[A-Za-z0-9._+@:~/-]*$ ]] ||
    die "the output folder's path may hold only ASCII letters, digits and . _ + - @ : ~ / (sbatch expands % in --output and splits --export at commas): '$out'"
}

# The largest array index this cluster takes (its MaxArraySize less one), or nothing when
# scontrol cannot tell.
max_index() {
  local size
  size=$(scontrol show config 2>/dev/null | sed -n 's/^MaxArraySize *= *\([0-9]*\).*/\1/p' | head -n 1 || true)
  if [[ $size =~ ^[1-9][0-9]{0,8}$ ]]; then echo $((size - 1)); fi
}

# The number of shards N in file $1, checked as text (the file is never evaluated).
read_count() {
  local text
  [[ -f $1 && -r $1 ]] || die "no $1"
  text=$(<"$1")
  [[ $text =~ $count_re ]] || die "$1 does not hold a number of shards (1 to 999999): a file submit.sh did not write"
  echo "$text"
}

# The tasks of TASKS $1 (K, K-L, comma-separated, each from 1 to N=$2), ascending and each
# once, in the array `task_list`; refuse anything else.
parse_tasks() {
  local spec=$1 n=$2 part a b k parts marks=()
  [[ $spec =~ $tasks_re ]] ||
    die "TASKS '$spec': give task numbers K and ranges K-L from 1 to $n, separated by commas (e.g. 3 or 2,5-7)"
  IFS=, read -r -a parts <<<"$spec"
  for part in "${parts[@]}"; do
    a=${part%%-*}
    b=${part##*-}
    ((10#$a <= 10#$b)) || die "TASKS '$spec': the range $part is empty (write the smaller number first)"
    ((10#$b <= n)) || die "TASKS '$spec': task $b is beyond the $n shards of this run"
    for ((k = 10#$a; k <= 10#$b; k++)); do marks[k]=1; done
  done
  task_list=()
  for k in "${!marks[@]}"; do task_list+=("$k"); done
}

# The shortest sbatch --array list of the ascending task numbers given ("1-3,5").
array_spec() {
  local spec="" first="" last="" k
  for k in "$@"; do
    if [[ -n $last ]] && ((k == last + 1)); then
      last=$k
      continue
    fi
    [[ -z $first ]] || spec+="${spec:+,}$first$([[ $last == "$first" ]] || echo "-$last")"
    first=$k
    last=$k
  done
  [[ -z $first ]] || spec+="${spec:+,}$first$([[ $last == "$first" ]] || echo "-$last")"
  echo "$spec"
}

# Write the words after the first argument as NUL-terminated strings to file $1.
save_words() {
  local file=$1
  shift
  : >"$file.new"
  if (($# > 0)); then printf '%s\0' "$@" >"$file.new"; fi
  mv "$file.new" "$file"
}

# Refuse, before anything is made, a file $2 that exists and is not file $1.
same_or_absent() {
  [[ ! -e $2 ]] || cmp -s "$1" "$2" ||
    die "$2 exists and differs from $1: a run finishes with the files it started with (use a new output folder)"
}

# Copy $1 to $2 (mode $3) unless $2 is that file already.
place() {
  [[ -e $2 ]] || install -D -m "$3" "$1" "$2"
}

# The job id in sbatch --parsable's answer ("ID" or "ID;CLUSTER").
submit() {
  local answer
  answer=$(sbatch --parsable "$@") || die "sbatch failed: sbatch $*"
  answer=${answer%%;*}
  [[ $answer =~ ^[0-9]{1,12}$ ]] || die "sbatch answered '$answer', not a job id: sbatch $*"
  echo "$answer"
}

# The certify options among a solve's arguments (--leaf-empties and --hash), for the merge.
certify_options() {
  local opts=() arg
  while (($# > 0)); do
    arg=$1
    shift
    case $arg in
    --leaf-empties | --hash)
      (($# > 0)) && opts+=("$arg" "$1") && shift
      ;;
    --leaf-empties=* | --hash=*) opts+=("$arg") ;;
    esac
  done
  if ((${#opts[@]} > 0)); then printf '%s\0' "${opts[@]}"; fi
}

# Submit tasks $4 (an --array list, or nothing) of run $1 of $3 shards in folder $2 and a
# merge after them (and after the still running arrays $5, a comma list); print the ids and
# record them in OUT/RUN.jobs.
submit_run() {
  local run=$1 out=$2 n=$3 tasks=$4 running=${5:-} array merge dependency=()
  local args=() merge_args=()
  mapfile -d '' args <"$out/$run.args"
  mapfile -d '' merge_args <"$out/$run.merge-args"
  local env=ALL,LUDUS=$out/bin/ludus,LUDUS_SHARDS=$n
  if [[ -n $tasks ]]; then
    array=$(submit --array="$tasks" --job-name="ludus-$run" --chdir="$out" \
      --output="$out/logs/$run-%a.out" --export="$env" "${resources[@]}" "${extra[@]}" \
      "$here/$run.sbatch" "$out" "${args[@]}")
    echo "array $array $tasks" >>"$out/$run.jobs"
    dependency=(--dependency="afterok:$array${running:+,afterany:${running//,/:}}" --kill-on-invalid-dep=yes)
  elif [[ -n $running ]]; then
    dependency=(--dependency="afterany:${running//,/:}")
  fi
  rm -f "$out/done/$run-merged"
  merge=$(submit --job-name="ludus-$run-merge" --chdir="$out" --output="$out/logs/$run-merge.out" \
    --export="$env" "${dependency[@]}" "${merge_resources[@]}" "${extra[@]}" \
    "$here/merge.sbatch" "$run" "$out" "${merge_args[@]}")
  echo "merge $merge" >>"$out/$run.jobs"
  if [[ -n $tasks ]]; then
    echo "$run: array job $array (tasks $tasks of $n), merge job $merge after it; outputs in $out"
  else
    echo "$run: no task to resubmit; merge job $merge${running:+ after the running array(s) $running}; outputs in $out"
  fi
}

# Refuse, before anything is submitted, the arguments that the array script of run $1 gives
# itself (it would refuse them too, in every task).
own_arguments() {
  local run=$1 arg own
  shift
  case $run in
  match) own="--shard --pgnout --results --resume" ;;
  datagen) own="--shard --out" ;;
  solve) own="--shard --results --strategy" ;;
  check) own="--shard --record --sample" ;;
  esac
  for arg in "$@"; do
    [[ " $own " != *" ${arg%%=*} "* ]] || die "$arg: the $run job script gives $own itself"
  done
}

# ---------------------------------------------------------------- a new run

new_run() {
  local run=$1 given=$2 n=$3 out max
  shift 3
  # Every check first: nothing is made or submitted before they all pass.
  [[ $n =~ $count_re ]] || die "the number of shards must be an integer from 1 to 999999: '$n'"
  max=$(max_index)
  [[ -z $max ]] || ((n <= max)) || die "$n shards: this cluster's job arrays go up to index $max (MaxArraySize)"
  own_arguments "$run" "$@"
  resolve_out "$given"
  local ludus=${LUDUS:-}
  [[ -n $ludus ]] || ludus=$(command -v ludus || true)
  [[ -n $ludus && -f $ludus && -x $ludus ]] || die "no ludus binary${ludus:+ at $ludus}: set LUDUS=/path/to/ludus (it is copied to $out/bin/ludus)"
  local args=("$@") merge_args=()
  case $run in
  check)
    (($# > 0)) || die "usage: submit.sh check OUT N CERTIFICATE [ludus solve check arguments...]"
    [[ -f $1 && -r $1 ]] || die "no certificate $1"
    args=(check.cert "${@:2}")
    merge_args=(check.cert "${@:2}")
    ;;
  solve)
    mapfile -d '' merge_args < <(certify_options "$@")
    ;;
  esac
  if [[ -e $out || -L $out ]]; then
    [[ -d $out ]] || die "$out exists and is not a folder"
    [[ ! -e $out/$run.shards ]] || die "$out already holds a $run run: resume it (submit.sh resume $out $run) or use a new folder"
    same_or_absent "$ludus" "$out/bin/ludus"
    [[ $run != check ]] || same_or_absent "$1" "$out/check.cert"
  fi

  mkdir -p -- "$out/logs" "$out/done" "$out/bin" || die "cannot make the output folder $out"
  place "$ludus" "$out/bin/ludus" 0755
  [[ $run != check ]] || place "$1" "$out/check.cert" 0644
  save_words "$out/$run.args" "${args[@]}"
  save_words "$out/$run.merge-args" "${merge_args[@]}"
  printf '%s\n' "$n" >"$out/$run.shards"
  submit_run "$run" "$out" "$n" "1-$n"
}

# ---------------------------------------------------------------- resume

resume() {
  (($# >= 2)) || usage
  [[ ${2-} == learn ]] || (($# <= 3)) || usage
  local given=$1 run=$2 spec=${3-} out n
  if [[ $run == learn ]]; then
    shift 2
    exec bash "$here/learn.sh" resume "$given" "$@"
  fi
  case $run in match | datagen | solve | check) ;; *) die "unknown run '$run': match, datagen, solve or check" ;; esac
  resolve_out "$given"
  [[ -d $out ]] || die "no output folder $out"
  local file
  for file in "$run.shards" "$run.args" "$run.merge-args"; do
    [[ -f $out/$file && -r $out/$file ]] || die "$out holds no $run run submitted by submit.sh (no $file)"
  done
  n=$(read_count "$out/$run.shards")
  local task_list=()
  if (($# == 3)); then parse_tasks "$spec" "$n"; fi

  # The run's jobs, from OUT/RUN.jobs, each line checked.
  local -A ours=() merges=()
  local line number=0
  if [[ -e $out/$run.jobs ]]; then
    while IFS= read -r line || [[ -n $line ]]; do
      number=$((number + 1))
      if [[ $line =~ ^array\ ([0-9]{1,12})\ [0-9,-]+$ ]]; then
        ours[${BASH_REMATCH[1]}]=1
      elif [[ $line =~ ^merge\ ([0-9]{1,12})$ ]]; then
        merges[${BASH_REMATCH[1]}]=1
      else
        die "$out/$run.jobs, line $number, is not 'array ID TASKS' nor 'merge ID': a file submit.sh did not write"
      fi
    done <"$out/$run.jobs"
  fi

  # Which of them are still pending or running: one squeue of every job, one line a task.
  local -A active=() running_arrays=()
  local pending_merges=() listing job array task state
  if ((${#ours[@]} + ${#merges[@]} > 0)); then
    listing=$(squeue -h -r -o '%A %F %K %T') ||
      die "squeue failed: cannot tell which tasks of $run are still pending or running (nothing was submitted)"
    while read -r job array task state; do
      [[ -n ${job:-} ]] || continue
      case ${state:-} in
      COMPLETED | CANCELLED | FAILED | TIMEOUT | NODE_FAIL | PREEMPTED | BOOT_FAIL | DEADLINE | OUT_OF_MEMORY) continue ;;
      esac
      if [[ $array =~ ^[0-9]{1,12}$ && -n ${ours[$array]:-} && $task =~ $count_re ]]; then
        active[$task]=$array
        running_arrays[$array]=1
      elif [[ $job =~ ^[0-9]{1,12}$ && -n ${merges[$job]:-} ]]; then
        [[ $state == PENDING ]] ||
          die "the merge job $job of $run is $state: let it end, then resume (nothing was submitted)"
        pending_merges+=("$job")
      fi
    done <<<"$listing"
  fi

  local todo=() k
  if (($# == 3)); then
    # TASKS given, in any form: every one of them must have ended.
    local busy=()
    for k in "${task_list[@]}"; do
      [[ -z ${active[$k]:-} ]] || busy+=("$k")
    done
    if ((${#busy[@]} == 1)); then
      die "task ${busy[0]} of $run is still pending or running (array job ${active[${busy[0]}]}): let it end or scancel it first (nothing was submitted)"
    elif ((${#busy[@]} > 1)); then
      die "tasks $(array_spec "${busy[@]}") of $run are still pending or running: let them end or scancel them first (nothing was submitted)"
    fi
    todo=("${task_list[@]}")
  else
    for ((k = 1; k <= n; k++)); do
      [[ -f $out/done/$run-$k ]] && continue
      [[ -n ${active[$k]:-} ]] && continue
      todo+=("$k")
    done
  fi

  # Every check passed: act.
  for job in "${pending_merges[@]}"; do
    scancel "$job" || die "cannot cancel the earlier merge job $job"
    echo "cancelled the earlier merge job $job"
  done
  local running
  running=$(
    IFS=,
    echo "${!running_arrays[*]}"
  )
  submit_run "$run" "$out" "$n" "$(array_spec "${todo[@]}")" "$running"
}

(($# >= 1)) || usage
case $1 in
match | datagen | solve | check)
  (($# >= 3)) || usage
  new_run "$@"
  ;;
resume)
  shift
  resume "$@"
  ;;
learn)
  (($# >= 2)) || usage
  shift
  exec bash "$here/learn.sh" new "$@"
  ;;
-h | --help) usage ;;
*) usage ;;
esac
