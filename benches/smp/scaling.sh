#!/usr/bin/env bash
# What more threads cost, measured on any machine (docs/benchmarks.md, "Threads: scaling"):
# each position of benches/smp/positions.txt is searched to its depth by alpha-beta with
# 1, 2, 4, 8 and 16 threads (THREADS_LIST), RUNS times; prints per thread count the median
# nodes to reach the depth (the work Lazy SMP adds: nodes searched twice, by two threads or
# by a thread that was overtaken), the CPU seconds, and the nodes per CPU second (what the
# shared table and the in-flight marks cost each thread: contention, false sharing, memory
# traffic). On a machine with fewer cores than threads the wall time says nothing; the CPU
# figures still do. Then the same for MCTS, Isaac's placement searcher (`go nodes MCTS_NODES`
# from the start, default 30000: iterations per CPU second, what the shared tree's atomics
# and virtual loss cost).
#
#   benches/smp/scaling.sh [RUNS]
#
# Environment: LUDUS (binary), POSITIONS, THREADS_LIST (default "1 2 4 8 16").
set -euo pipefail
runs=${1:-3}
ludus=${LUDUS:-target/release/ludus}
positions=${POSITIONS:-$(dirname "$0")/positions.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

search() { # search GAME DEPTH POSITION THREADS [GO]: "nodes cpu_seconds"
    printf 'uci\nsetoption name Threads value %s\nsetoption name Searcher value %s\nsetoption name SolvedBook value false\nisready\n%s\ngo %s\n' \
        "$4" "${5:-alphabeta}" "$3" "${6:-depth $2}" >"$tmp/in"
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$ludus" --game "$1" <"$tmp/in" 2>/dev/null >"$tmp/out"
    nodes=$(awk '/^info depth/ && / pv / { for (i = 1; i < NF; i++) if ($i == "nodes") n = $(i+1) } END { print n }' "$tmp/out")
    cpu=$(awk '{ print $1 + $2 }' "$tmp/cpu")
    echo "$nodes $cpu"
}

printf '%-30s %7s %12s %9s %14s\n' position threads nodes "CPU s" "nodes/CPU s"
while IFS='|' read -r game depth position; do
    [ -z "$game" ] || [ "${game:0:1}" = "#" ] && continue
    label="$game ${position#position startpos moves }"
    for threads in ${THREADS_LIST:-1 2 4 8 16}; do
        : >"$tmp/runs"
        for _ in $(seq "$runs"); do search "$game" "$depth" "$position" "$threads" >>"$tmp/runs"; done
        sort -n "$tmp/runs" | awk -v l="${label:0:30}" -v t="$threads" '{ n[NR] = $1; c[NR] = $2 } END {
            m = int((NR + 1) / 2); printf "%-30s %7d %12d %9.2f %14.0f\n", l, t, n[m], c[m], n[m] / (c[m] > 0 ? c[m] : 1) }'
    done
done <"$positions"
mcts_nodes=${MCTS_NODES:-30000}
for threads in ${THREADS_LIST:-1 2 4 8 16}; do
    : >"$tmp/runs"
    for _ in $(seq "$runs"); do
        search isaac - "position startpos" "$threads" mcts "nodes $mcts_nodes" >>"$tmp/runs"
    done
    sort -n -k2 "$tmp/runs" | awk -v t="$threads" '{ n[NR] = $1; c[NR] = $2 } END {
        m = int((NR + 1) / 2); printf "%-30s %7d %12d %9.2f %14.0f\n", "isaac MCTS startpos", t, n[m], c[m], n[m] / (c[m] > 0 ? c[m] : 1) }'
done
