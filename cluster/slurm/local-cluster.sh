#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for testing the job scripts beside this file
# (cluster/test.sh, .ci/run) and for trying them by hand. Needs root and Debian's slurm-wlm
# and munge (installed when missing). Debian 12's Slurm is 22.05.
#
#   bash cluster/slurm/local-cluster.sh start    # munged, slurmctld, slurmd; waits for the node to be idle
#   bash cluster/slurm/local-cluster.sh status   # the daemons and what sinfo/squeue say
#   bash cluster/slurm/local-cluster.sh stop     # cancels every job, stops the daemons, leaves nothing running
#
# Start it under `nice -n 19` to have the jobs run at that priority: slurmd's children inherit
# its niceness (PropagatePrioProcess=0). Everything the cluster writes is in $LUDUS_SLURM_STATE
# (default /var/lib/ludus-slurm: state, spool, logs, pid files), except its configuration,
# /etc/slurm/slurm.conf (where sbatch, sinfo and the others look for it), and a 1 KiB munge
# key /etc/munge/munge.key (written when the key there is not 1 KiB and munged is not
# running). A slurm.conf that this script did not write is never overwritten.
#
# The node talks to itself on 127.0.0.1 (ports 6817 and 6818): no traffic leaves the machine.
set -euo pipefail

state=${LUDUS_SLURM_STATE:-/var/lib/ludus-slurm}
conf=/etc/slurm/slurm.conf
marker="# written by ludus cluster/slurm/local-cluster.sh"
key=/etc/munge/munge.key
munge_pidfile=/run/munge/munged.pid
idle_timeout=${LUDUS_SLURM_TIMEOUT:-60}
host=$(hostname -s)

die() {
  echo "local-cluster: error: $*" >&2
  exit 1
}
say() { echo "local-cluster: $*"; }

# The pid in FILE if that process is alive, else nothing.
live_pid() {
  local pid
  [[ -r $1 ]] || return 0
  pid=$(<"$1")
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
  return 0
}

# Wait up to $2 seconds for process $1 to exit.
wait_gone() {
  local pid=$1 deadline=$((SECONDS + $2))
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

install_packages() {
  local missing=()
  command -v slurmctld >/dev/null || missing+=(slurm-wlm)
  command -v munged >/dev/null || missing+=(munge)
  ((${#missing[@]} == 0)) && return 0
  say "installing ${missing[*]} (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || die "apt-get update failed"
  apt-get install -y -qq slurm-wlm munge >/dev/null || die "apt-get install slurm-wlm munge failed"
}

start_munge() {
  if [[ -n $(live_pid "$munge_pidfile") ]]; then
    say "munged already running (pid $(live_pid "$munge_pidfile")): using it"
    rm -f "$state/munged.ours"
  else
    if [[ ! -f $key ]] || [[ $(stat -c %s "$key") != 1024 ]]; then
      say "writing a 1 KiB munge key to $key"
      install -d -o munge -g munge -m 0700 /etc/munge
      (umask 077 && head -c 1024 /dev/urandom >"$key.new")
      chown munge:munge "$key.new"
      chmod 0400 "$key.new"
      mv "$key.new" "$key"
    fi
    install -d -o munge -g munge -m 0755 /run/munge
    install -d -o munge -g munge -m 0700 /var/log/munge
    install -d -o munge -g munge -m 0711 /var/lib/munge
    runuser -u munge -- munged || die "munged did not start (see /var/log/munge/munged.log)"
    touch "$state/munged.ours"
  fi
  local deadline=$((SECONDS + 10))
  until munge -n </dev/null | unmunge >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "munge does not answer: 'munge -n | unmunge' fails (see /var/log/munge/munged.log)"
    sleep 0.2
  done
}

write_conf() {
  if [[ -f $conf ]] && ! grep -qxF "$marker" "$conf"; then
    die "$conf exists and was not written by this script: move it away to start the local cluster"
  fi
  local cpus mem
  cpus=$(nproc)
  # RealMemory in MiB, a little below what the kernel reports, so that slurmd (which measures
  # it too) never finds less than configured and drains the node.
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.95 }' /proc/meminfo)
  if ! [[ $mem =~ ^[0-9]+$ ]] || ((mem == 0)); then
    die "cannot read MemTotal from /proc/meminfo"
  fi
  install -d /etc/slurm
  cat >"$conf.new" <<EOF
$marker
# A one-node test cluster: $host, $cpus CPUs, $mem MiB. Rewritten by every 'start'.
ClusterName=ludus
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
# Job records stay visible to scontrol for 10 minutes after the end (tests read their state).
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.new" "$conf"
}

node_state() {
  sinfo -h -n "$host" -o %t 2>/dev/null | head -n 1
}

wait_idle() {
  local deadline=$((SECONDS + idle_timeout)) now=
  while :; do
    now=$(node_state || true)
    [[ $now == idle ]] && break
    if ((SECONDS >= deadline)); then
      echo "local-cluster: error: node $host is not idle after ${idle_timeout} s (sinfo says '${now:-nothing}')" >&2
      echo "--- last lines of $state/log/slurmctld.log" >&2
      tail -n 15 "$state/log/slurmctld.log" >&2 2>/dev/null || true
      echo "--- last lines of $state/log/slurmd.log" >&2
      tail -n 15 "$state/log/slurmd.log" >&2 2>/dev/null || true
      exit 1
    fi
    sleep 0.5
  done
  say "node $host idle after $SECONDS s ($(nproc) CPUs, nice $(nice))"
}

start() {
  ((EUID == 0)) || die "start needs root (slurmctld and slurmd run as root)"
  install_packages
  if [[ -n $(live_pid "$state/slurmctld.pid") ]]; then
    say "already running"
    wait_idle
    return
  fi
  if [[ -n $(live_pid "$state/slurmd.pid") ]]; then
    die "slurmd runs (pid $(live_pid "$state/slurmd.pid")) without slurmctld: run 'stop' first"
  fi
  # A fresh cluster every time: no jobs or node state from an earlier run.
  rm -rf "$state"
  install -d -m 0755 "$state" "$state/ctld" "$state/spool" "$state/log"
  start_munge
  write_conf
  slurmctld -c || die "slurmctld did not start (see $state/log/slurmctld.log)"
  slurmd -c || die "slurmd did not start (see $state/log/slurmd.log)"
  wait_idle
}

stop() {
  ((EUID == 0)) || die "stop needs root"
  local ctld slurmd_pid pid deadline
  ctld=$(live_pid "$state/slurmctld.pid")
  slurmd_pid=$(live_pid "$state/slurmd.pid")
  if [[ -n $ctld ]]; then
    local jobs
    jobs=$(squeue -h -o %A 2>/dev/null || true)
    if [[ -n $jobs ]]; then
      say "cancelling $(wc -w <<<"$jobs") job(s)"
      # shellcheck disable=SC2086 # one job id a word
      scancel $jobs 2>/dev/null || true
      deadline=$((SECONDS + 30))
      while [[ -n $(squeue -h -o %A 2>/dev/null || true) ]] && ((SECONDS < deadline)); do
        sleep 0.5
      done
    fi
    scontrol shutdown >/dev/null 2>&1 || kill "$ctld" 2>/dev/null || true
    wait_gone "$ctld" 30 || { say "slurmctld (pid $ctld) did not exit: killing it"; kill -9 "$ctld" 2>/dev/null || true; }
  fi
  if [[ -n $slurmd_pid ]]; then
    kill "$slurmd_pid" 2>/dev/null || true
    wait_gone "$slurmd_pid" 30 || { say "slurmd (pid $slurmd_pid) did not exit: killing it"; kill -9 "$slurmd_pid" 2>/dev/null || true; }
  fi
  # Job steps whose slurmd is gone (only this cluster's slurmd starts slurmstepd here).
  if [[ -n $ctld || -n $slurmd_pid ]]; then
    for pid in $(pgrep -x slurmstepd || true); do
      say "ending a leftover slurmstepd (pid $pid)"
      kill "$pid" 2>/dev/null || true
      wait_gone "$pid" 5 || kill -9 "$pid" 2>/dev/null || true
    done
  fi
  if [[ -f $state/munged.ours ]]; then
    pid=$(live_pid "$munge_pidfile")
    if [[ -n $pid ]]; then
      kill "$pid" 2>/dev/null || true
      wait_gone "$pid" 10 || kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$state/munged.ours"
  fi
  say "stopped"
}

# One line of 'status': NAME and whether it runs, given its pid or nothing.
show() {
  if [[ -n $2 ]]; then
    printf '%-10s running (pid %s)\n' "$1:" "$2"
  else
    printf '%-10s not running\n' "$1:"
  fi
}

status() {
  local ctld slurmd_pid munged_pid
  ctld=$(live_pid "$state/slurmctld.pid")
  slurmd_pid=$(live_pid "$state/slurmd.pid")
  munged_pid=$(live_pid "$munge_pidfile")
  show munged "$munged_pid"
  show slurmctld "$ctld"
  show slurmd "$slurmd_pid"
  if [[ -n $ctld ]]; then
    sinfo || true
    squeue || true
  fi
  [[ -n $ctld && -n $slurmd_pid ]]
}

case ${1:-} in
start) start ;;
stop) stop ;;
status) status ;;
*)
  echo "usage: $0 start|stop|status" >&2
  exit 2
  ;;
esac
