#!/usr/bin/env bash
# An engine that leaves a child behind, for the referee's process-group tests.
#
#   forking.sh PIDFILE COMMAND [ARG]...
#
# Starts `sleep 987654` in the background with this script's stdin and stdout, so the child
# holds the engine's input and output open; appends "PID CHILD" to PIDFILE (this script's pid, which is the id of
# its process group when the referee starts it in a group of its own, and the sleep's pid);
# then execs COMMAND with its arguments (e.g. ludus, or faulty.sh crash ludus), which keeps
# the pid.

set -eu
[[ $# -ge 2 ]] || {
    echo "usage: forking.sh PIDFILE COMMAND [ARG]..." >&2
    exit 2
}
pidfile=$1
shift
sleep 987654 <&0 &
echo "$$ $!" >>"$pidfile"
exec "$@"
