#!/usr/bin/env bash
# The learning loop (`ludus learn`) on Slurm: each generation a chain of jobs, each after the
# one before (--dependency=afterok, --kill-on-invalid-dep=yes):
#
#   [start] -> datagen array (S tasks) -> train -> gate-nodes array (M) -> [gate-clock array (M)] -> finish
#
# and `finish` submits the next generation's chain until a stop rule holds. Usually reached
# through submit.sh:
#
#   submit.sh learn OUT [--game G] [--option N=V]... [--config FILE] [--generations N] [--hours H] [--max-rejections K]
#   submit.sh resume OUT learn [--generations N] [--hours H] [--max-rejections K]
#
# `learn` sets the run up (`ludus learn --setup`: OUT/learn.json, the run's identity), copies the
# ludus binary ($LUDUS, built with --features train) and these scripts to OUT/bin, and submits
# the first chain; `resume` submits the current generation's chain again (pieces already
# finished do nothing), refused while a job of the run is pending or running, and with stop
# rules given it keeps those instead (a stopped run goes on with higher limits). While a stop
# rule holds, no chain is submitted. S is the run's
# datagen.shards; M, the gates' shards, is LUDUS_GATE_SHARDS (default 2), kept in
# OUT/learn.gate-shards. Each gate task plays gate.concurrency games at once on as many CPUs;
# train gets LUDUS_TRAIN_CPUS (default 2). Job ids go to OUT/learn.jobs, logs to OUT/logs/.
# More sbatch options for every job: LUDUS_SBATCH. Refusals print "learn.sh: error: ..." and
# exit 2, before anything is submitted.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
  echo "learn.sh: error: $*" >&2
  exit 2
}

command -v sbatch >/dev/null || die "no sbatch here: run this on a machine that submits Slurm jobs"
read -r -a extra <<<"${LUDUS_SBATCH:-}"

resolve_out() {
  [[ -n $1 ]] || die "no output folder given"
  [[ $1 != -* ]] || die "the output folder '$1' starts with '-': write it ./$1"
  out=$(realpath -m -- "$1") || die "cannot make an absolute path of '$1'"
  [[ $out =~ ^/[A-Za-z0-9._+@:~/-]*$ ]] ||
    die "the output folder's path may hold only ASCII letters, digits and . _ + - @ : ~ / : '$out'"
}

# The job id in sbatch --parsable's answer.
submit() {
  local answer
  answer=$(sbatch --parsable "$@") || die "sbatch failed: sbatch $*"
  answer=${answer%%;*}
  [[ $answer =~ ^[0-9]{1,12}$ ]] || die "sbatch answered '$answer', not a job id"
  echo "$answer"
}

# Submit one piece: job NAME STEP GENERATION N DEPENDENCY CPUS [ARRAY]; prints the job id.
job() {
  local name=$1 step=$2 g=$3 n=$4 dep=$5 cpus=$6 array=${7:-} opts=()
  [[ -z $dep ]] || opts+=(--dependency="afterok:$dep" --kill-on-invalid-dep=yes)
  if [[ -n $array ]]; then
    opts+=(--array="$array" --output="$out/logs/learn-$g-$name-%a.out")
  else
    opts+=(--output="$out/logs/learn-$g-$name.out")
  fi
  local id
  id=$(submit --job-name="ludus-learn-$name" --chdir="$out" --cpus-per-task="$cpus" \
    "${opts[@]}" "${extra[@]}" "$out/bin/learn.sbatch" "$out" "$step" "$g" "$n")
  echo "$g $name $id" >>"$out/learn.jobs"
  echo "$id"
}

# Submit the chain of the run's next generation.
chain() {
  local status g s confirm stop_rule m dep="" id stop=()
  if [[ -s $out/learn.stop ]]; then mapfile -d '' stop <"$out/learn.stop"; fi
  status=$("$out/bin/ludus" learn step status --out "$out" "${stop[@]}") || die "cannot read the run's status"
  [[ $status =~ ^generation=([0-9]+)\ datagen_shards=([0-9]+)\ confirm=(yes|no)\ stop=([a-z]+)$ ]] ||
    die "unexpected status from ludus: '$status'"
  g=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]} confirm=${BASH_REMATCH[3]} stop_rule=${BASH_REMATCH[4]}
  if [[ $stop_rule != no ]] && ((g > 0)); then
    echo "learn: the run's stop rule '$stop_rule' holds (OUT/learn.stop: ${stop[*]}): nothing submitted; resume with other limits: submit.sh resume $out learn --generations N"
    return 0
  fi
  m=$(<"$out/learn.gate-shards")
  [[ $m =~ ^[1-9][0-9]{0,5}$ ]] || die "$out/learn.gate-shards does not hold a number of shards"
  local cpus
  cpus=$(sed -n 's/.*"concurrency": *\([0-9]*\).*/\1/p' "$out/learn.json" | head -n 1)
  [[ $cpus =~ ^[1-9][0-9]*$ ]] || cpus=1
  if ((g == 0)); then
    dep=$(job start start 0 1 "" "$cpus")
    g=1
  fi
  dep=$(job datagen datagen "$g" "$s" "$dep" 1 "1-$s")
  dep=$(job train train "$g" 1 "$dep" "${LUDUS_TRAIN_CPUS:-2}")
  dep=$(job gate-nodes gate-nodes "$g" "$m" "$dep" "$cpus" "1-$m")
  if [[ $confirm == yes ]]; then
    dep=$(job gate-clock gate-clock "$g" "$m" "$dep" "$cpus" "1-$m")
  fi
  id=$(job finish finish "$g" 1 "$dep" "$cpus")
  echo "learn: generation $g submitted: $s datagen tasks, train, $m gate tasks$([[ $confirm == yes ]] && echo " (twice)"), finish (job $id); outputs in $out"
}

# Refuse while a job of the run is pending or running.
idle_or_die() {
  [[ -f $out/learn.jobs ]] || return 0
  local ids line
  ids=$(awk '$3 ~ /^[0-9]+$/ { print $3 }' "$out/learn.jobs" | sort -u | paste -sd, -)
  [[ -n $ids ]] || return 0
  line=$(squeue -h -j "$ids" -o '%A %T' 2>/dev/null | head -n 1 || true)
  [[ -z $line ]] || die "a job of the run is still pending or running ($line): let it end or scancel it first (nothing was submitted)"
}

# Split flags $@ into the arrays identity (run flags) and stop (stop rules), refusing others.
split_flags() {
  identity=() stop=()
  while (($# > 0)); do
    case $1 in
    --generations | --hours | --max-rejections)
      (($# >= 2)) || die "$1 needs a value"
      stop+=("$1" "$2")
      shift 2
      ;;
    --game | --option | --config)
      (($# >= 2)) || die "$1 needs a value"
      if [[ $1 == --config ]]; then
        identity+=("$1" "$(realpath -- "$2")")
      else
        identity+=("$1" "$2")
      fi
      shift 2
      ;;
    *) die "$1: submit.sh learn takes --game, --option, --config, --generations, --hours and --max-rejections" ;;
    esac
  done
}

# Keep the stop rules of array `stop` in OUT/learn.stop.
save_stop() {
  : >"$out/learn.stop"
  if ((${#stop[@]} > 0)); then printf '%s\0' "${stop[@]}" >"$out/learn.stop"; fi
}

case ${1:-} in
new)
  (($# >= 2)) || die "usage: learn.sh new OUT [ludus learn flags...]"
  resolve_out "$2"
  shift 2
  split_flags "$@"
  ludus=${LUDUS:-$(command -v ludus || true)}
  [[ -n $ludus && -x $ludus ]] || die "no ludus binary${ludus:+ at $ludus}: set LUDUS=/path/to/ludus (built with --features train)"
  m=${LUDUS_GATE_SHARDS:-2}
  [[ $m =~ ^[1-9][0-9]{0,5}$ ]] || die "LUDUS_GATE_SHARDS must be a positive integer: '$m'"
  [[ ! -e $out/learn.jobs ]] || die "$out already holds a learning run on Slurm: resume it (submit.sh resume $out learn)"
  mkdir -p -- "$out/bin" "$out/logs" || die "cannot make $out"
  install -m 0755 "$ludus" "$out/bin/ludus"
  install -m 0755 "$here/learn.sh" "$out/bin/learn.sh"
  install -m 0755 "$here/learn.sbatch" "$out/bin/learn.sbatch"
  "$out/bin/ludus" learn --out "$out" "${identity[@]}" --setup || die "ludus learn --setup refused the run (above)"
  save_stop
  echo "$m" >"$out/learn.gate-shards"
  chain
  ;;
next)
  (($# == 2)) || die "usage: learn.sh next OUT"
  resolve_out "$2"
  chain
  ;;
resume)
  (($# >= 2)) || die "usage: learn.sh resume OUT [--generations N] [--hours H] [--max-rejections K]"
  resolve_out "$2"
  shift 2
  split_flags "$@"
  ((${#identity[@]} == 0)) || die "resume takes only stop rules: the run's configuration is OUT/learn.json"
  [[ -f $out/learn.json && -f $out/learn.gate-shards ]] || die "$out holds no learning run submitted by submit.sh"
  idle_or_die
  if (($# > 0)); then save_stop; fi
  chain
  ;;
*) die "usage: learn.sh new|next|resume OUT ..." ;;
esac
