#!/usr/bin/env bash
# A misbehaving engine for the referee's integration tests.
#
#   faulty.sh MODE ENGINE [N]
#
# Starts the real engine ENGINE (e.g. target/debug/ludus) and passes every line through
# unchanged: the referee's lines go to the engine, the engine's output goes straight to stdout.
# From the N-th `go` line on (default 2; only lines whose first word is `go` count) it fails
# according to MODE:
#
#   crash    at the N-th go: kills the engine and exits with status 3, without answering.
#   hang     swallows the N-th and every later go and never answers them; everything else is
#            still forwarded (isready -> readyok works, stop reaches an idle engine).
#   illegal  at the N-th go: answers `bestmove M` itself, M being the first move of the
#            `moves` list of the last `position` line (a move already played, so illegal now).
#            If that position had no moves, the go is forwarded and the next go tries again.
#   garbage  at the N-th go: prints three junk lines and `bestmove #!garbage!#` itself.
#   slow     forwards the N-th go as `go movetime $SLOW_MS` (default 1500) and drops every
#            later `stop`: a late answer.
#
# When its input ends it sends `quit` to the engine, waits up to 2 s for it, kills it if needed
# and exits 0. It prints nothing of its own on stdout but the answers above; diagnostics go to
# stderr. Needs bash 4.4 or later.

set -u
trap "" PIPE

usage() {
    echo "usage: faulty.sh crash|hang|illegal|garbage|slow ENGINE [N]" >&2
    exit 2
}

[[ $# -ge 2 && $# -le 3 ]] || usage
mode=$1
engine=$2
nth=${3:-2}
case $mode in
crash | hang | illegal | garbage | slow) ;;
*) usage ;;
esac
[[ $nth =~ ^[1-9][0-9]*$ ]] || usage
if ! command -v -- "$engine" >/dev/null; then
    echo "faulty.sh: cannot run '$engine'" >&2
    exit 127
fi

# The engine reads from a pipe we write to ($to_engine) and writes to our own stdout.
exec {to_engine}> >(exec "$engine")
engine_pid=$!

say() { echo "faulty.sh ($mode): $*" >&2; }

forward() { printf '%s\n' "$1" >&"$to_engine" 2>/dev/null || say "engine input closed"; }

# Waits up to $1 hundredths of a second for the engine to exit; kills it if it has not.
finish_engine() {
    local ticks=$1
    while ((ticks-- > 0)) && kill -0 "$engine_pid" 2>/dev/null; do
        sleep 0.01
    done
    kill -9 "$engine_pid" 2>/dev/null
    wait "$engine_pid" 2>/dev/null
}

junk_line() {
    local chars='abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!?#$%&*+-=<>~^|'
    local s='' i
    for ((i = 0; i < 300; i++)); do
        s+=${chars:RANDOM % ${#chars}:1}
    done
    printf '%s\n' "$s"
}

gos=0
done_once=0
first_move=''
while IFS= read -r line || [[ -n $line ]]; do
    read -r -a words <<<"$line"
    first=${words[0]-}
    if [[ $first == position ]]; then
        first_move=''
        for ((i = 1; i < ${#words[@]} - 1; i++)); do
            if [[ ${words[i]} == moves ]]; then
                first_move=${words[i + 1]}
                break
            fi
        done
    fi
    if [[ $mode == slow && $done_once == 1 && $first == stop ]]; then
        say "ignoring stop"
        continue
    fi
    if [[ $first != go ]]; then
        forward "$line"
        continue
    fi
    gos=$((gos + 1))
    if ((gos < nth)); then
        forward "$line"
        continue
    fi
    case $mode in
    crash)
        say "crashing at go $gos"
        kill -9 "$engine_pid" 2>/dev/null
        wait "$engine_pid" 2>/dev/null
        exit 3
        ;;
    hang)
        say "swallowing go $gos"
        ;;
    illegal)
        if ((done_once == 0)) && [[ -n $first_move ]]; then
            done_once=1
            say "answering go $gos with the played move $first_move"
            printf 'bestmove %s\n' "$first_move"
        else
            forward "$line"
        fi
        ;;
    garbage)
        if ((done_once == 0)); then
            done_once=1
            say "answering go $gos with garbage"
            printf '%s\n' '@@@ %%% ###'
            junk_line
            printf '%s\n' 'bestmoveXYZ' 'bestmove #!garbage!#'
        else
            forward "$line"
        fi
        ;;
    slow)
        if ((done_once == 0)); then
            done_once=1
            say "slowing go $gos down to ${SLOW_MS:-1500} ms"
            forward "go movetime ${SLOW_MS:-1500}"
        else
            forward "$line"
        fi
        ;;
    esac
done

forward quit
exec {to_engine}>&-
finish_engine 200
exit 0
