#!/usr/bin/env bash
# Submit a ludus long run to Slurm: a job array of N shards and the merge as a job that
# waits for it (--dependency=afterok), all outputs in one folder OUT that every node sees.
#
#   submit.sh match   OUT N [ludus match arguments...]
#   submit.sh datagen OUT N [ludus datagen arguments...]
#   submit.sh solve   OUT N [ludus solve arguments...]
#   submit.sh check   OUT N CERTIFICATE [ludus solve check arguments...]
#   submit.sh resume  OUT RUN [TASKS]
#
# A new run copies the ludus binary ($LUDUS, else `ludus` on PATH) to OUT/bin/ludus (match
# engines can be `cmd=bin/ludus`: the jobs run in OUT) and, for check, the certificate to
# OUT/check.cert; it keeps the plan in OUT/RUN.shards and the arguments in OUT/RUN.args, so
# `resume` resubmits the tasks that have not finished (or the TASKS given, e.g. 3 or 2,5-7)
# with the very same command, and a new merge. Each task resumes from its own checkpoint.
# Job ids are appended to OUT/RUN.jobs ("array ID TASKS", "merge ID"); logs go to
# OUT/logs/RUN-K.out and OUT/logs/RUN-merge.out.
#
# More sbatch options for every job: LUDUS_SBATCH="--partition=long --time=24:00:00", or
# sbatch's own SBATCH_* variables. CPUs and memory per task: LUDUS_CPUS (default 1; a
# match task plays that many games at once) and LUDUS_MEM (sbatch --mem, e.g. 6G for solve's
# --hash 4096; default 1 GiB a CPU, and solve's 2 GiB for one CPU).
# See docs/cluster.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
  echo "submit.sh: error: $*" >&2
  exit 2
}

usage() {
  sed -n '5,9p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2
  exit 2
}

command -v sbatch >/dev/null || die "no sbatch here: run this on a machine that submits Slurm jobs"

# Extra sbatch options, a word each.
read -r -a extra <<<"${LUDUS_SBATCH:-}"
# CPUs and memory of each array task: LUDUS_CPUS (default 1) and LUDUS_MEM (default 1 GiB a
# CPU; the scripts' own default, without the wrapper, is 1 GiB, and 2 GiB for solve).
cpus=${LUDUS_CPUS:-1}
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "LUDUS_CPUS must be a positive integer: '$cpus'"
resources=(--cpus-per-task="$cpus")
if [[ -n ${LUDUS_MEM:-} ]]; then
  resources+=(--mem="$LUDUS_MEM")
elif ((cpus > 1)); then
  resources+=(--mem="${cpus}G")
fi
# The merge: one CPU; LUDUS_MEM too if given (solve certify allocates its --hash table).
merge_resources=()
[[ -z ${LUDUS_MEM:-} ]] || merge_resources+=(--mem="$LUDUS_MEM")

# Write the words after the first argument as NUL-terminated strings to file $1.
save_words() {
  local file=$1
  shift
  : >"$file.new"
  if (($# > 0)); then printf '%s\0' "$@" >"$file.new"; fi
  mv "$file.new" "$file"
}

# Copy $1 to $2 unless $2 is that file already; refuse another file there.
place() {
  if [[ -e $2 ]]; then
    cmp -s "$1" "$2" || die "$2 exists and differs from $1: a run finishes with the files it started with (use a new output folder)"
  else
    install -D -m "$3" "$1" "$2"
  fi
}

# The job id in sbatch --parsable's answer ("ID" or "ID;CLUSTER").
submit() {
  local answer
  answer=$(sbatch --parsable "$@") || die "sbatch failed: sbatch $*"
  echo "${answer%%;*}"
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

# Submit tasks $3 of run $1 in folder $2 and a merge after them (and after the still
# running arrays $4, a comma list); print the ids and record them in OUT/RUN.jobs.
submit_run() {
  local run=$1 out=$2 tasks=$3 running=${4:-} n array merge dependency=()
  local args=() merge_args=()
  n=$(<"$out/$run.shards")
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

new_run() {
  local run=$1 out=$2 n=$3
  shift 3
  [[ $n =~ ^[1-9][0-9]*$ ]] || die "the number of shards must be a positive integer: '$n'"
  own_arguments "$run" "$@"
  mkdir -p "$out"
  out=$(cd "$out" && pwd -P)
  [[ $out != *,* ]] || die "the output folder's path may not hold a comma (sbatch --export): $out"
  [[ ! -e $out/$run.shards ]] || die "$out already holds a $run run: resume it (submit.sh resume $out $run) or use a new folder"
  mkdir -p "$out/logs" "$out/done" "$out/bin"
  local ludus=${LUDUS:-}
  [[ -n $ludus ]] || ludus=$(command -v ludus || true)
  [[ -n $ludus && -x $ludus ]] || die "no ludus binary: set LUDUS=/path/to/ludus (it is copied to $out/bin/ludus)"
  place "$ludus" "$out/bin/ludus" 0755
  local args=("$@") merge_args=()
  case $run in
  check)
    (($# > 0)) || die "usage: submit.sh check OUT N CERTIFICATE [ludus solve check arguments...]"
    [[ -f $1 ]] || die "no certificate $1"
    place "$1" "$out/check.cert" 0644
    args=(check.cert "${@:2}")
    merge_args=(check.cert "${@:2}")
    ;;
  solve)
    mapfile -d '' merge_args < <(certify_options "$@")
    ;;
  esac
  save_words "$out/$run.args" "${args[@]}"
  save_words "$out/$run.merge-args" "${merge_args[@]}"
  printf '%s\n' "$n" >"$out/$run.shards"
  submit_run "$run" "$out" "1-$n"
}

resume() {
  local out=${1:-} run=${2:-} tasks=${3:-}
  [[ -n $out && -n $run ]] || usage
  [[ -d $out ]] || die "no output folder $out"
  out=$(cd "$out" && pwd -P)
  [[ -f $out/$run.shards && -f $out/$run.args ]] || die "$out holds no $run run submitted by submit.sh"
  local n kind id rest running=() active=() state
  n=$(<"$out/$run.shards")
  # Arrays of this run with tasks still pending or running, and those tasks; pending merges.
  if [[ -f $out/$run.jobs ]]; then
    while read -r kind id rest; do
      case $kind in
      array)
        mapfile -t now < <(squeue -h -r -j "$id" -o %K 2>/dev/null || true)
        if ((${#now[@]} > 0)); then
          running+=("$id")
          active+=("${now[@]}")
        fi
        ;;
      merge)
        state=$(squeue -h -j "$id" -o %T 2>/dev/null || true)
        if [[ $state == PENDING ]]; then
          scancel "$id" || die "cannot cancel the earlier merge job $id"
          echo "cancelled the earlier merge job $id"
        fi
        ;;
      esac
    done <"$out/$run.jobs"
  fi
  if [[ -z $tasks ]]; then
    local todo=() k
    for ((k = 1; k <= n; k++)); do
      [[ -f $out/done/$run-$k ]] && continue
      [[ " ${active[*]} " == *" $k "* ]] && continue
      todo+=("$k")
    done
    tasks=$(
      IFS=,
      echo "${todo[*]}"
    )
  elif ((${#active[@]} > 0)); then
    local k
    for k in ${tasks//,/ }; do
      [[ " ${active[*]} " != *" $k "* ]] || die "task $k of $run is still pending or running: let it end or scancel it first"
    done
  fi
  submit_run "$run" "$out" "$tasks" "$(
    IFS=,
    echo "${running[*]}"
  )"
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
-h | --help) usage ;;
*) usage ;;
esac
