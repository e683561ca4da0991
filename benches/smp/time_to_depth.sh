#!/usr/bin/env bash
# Time to depth of alpha-beta with Threads 1 and Threads N (Lazy SMP, docs/benchmarks.md):
# each position is searched to its depth (`go depth D`) with each thread count, RUNS times
# alternating, and the time the engine reports for that depth is kept (the median of the
# runs). Prints per position the two times and their ratio, then the geometric mean of the
# ratios. Run it alone on the machine: N threads need N free cores.
#
#   benches/smp/time_to_depth.sh [RUNS]
#
# Environment: LUDUS (binary, default target/release/ludus), POSITIONS (file of
# `game|depth|position command` lines, default benches/smp/positions.txt), THREADS (N,
# default 2), LIMIT (seconds a search may take, default 60).
set -euo pipefail
runs=${1:-3}
limit=${LIMIT:-60}
ludus=${LUDUS:-target/release/ludus}
positions=${POSITIONS:-$(dirname "$0")/positions.txt}
threads=${THREADS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

search() { # search GAME DEPTH POSITION THREADS: the time (ms) reported for DEPTH
    printf 'uci\nsetoption name Threads value %s\nsetoption name Searcher value alphabeta\nsetoption name SolvedBook value false\nisready\n%s\ngo depth %s\n' \
        "$4" "$3" "$2" | timeout "$limit" "$ludus" --game "$1" 2>/dev/null |
        awk -v want="$2" '/^bestmove/ { exit } /^info depth/ && / pv / { for (i = 1; i < NF; i++) { if ($i == "depth") d = $(i+1); if ($i == "time") t = $(i+1) } if (d >= want && !done) { print t; done = 1 } }'
}

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

printf '%-44s %5s %10s %10s %7s\n' position depth "T1 ms" "T$threads ms" ratio
: >"$tmp/ratios"
while IFS='|' read -r game depth position; do
    [ -z "$game" ] || [ "${game:0:1}" = "#" ] && continue
    : >"$tmp/one"
    : >"$tmp/many"
    for _ in $(seq "$runs"); do
        search "$game" "$depth" "$position" 1 >>"$tmp/one"
        search "$game" "$depth" "$position" "$threads" >>"$tmp/many"
    done
    t1=$(median "$tmp/one") tn=$(median "$tmp/many")
    if [ "$(wc -l <"$tmp/one")" != "$runs" ] || [ "$(wc -l <"$tmp/many")" != "$runs" ]; then
        echo "$game $position: depth $depth not reached within ${limit} s" >&2
        continue
    fi
    ratio=$(awk -v a="$t1" -v b="$tn" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 1) }')
    printf '%-44s %5s %10s %10s %7s\n' "$(position_label "$game" "$position")" "$depth" "$t1" "$tn" "$ratio"
    echo "$ratio" >>"$tmp/ratios"
done <"$positions"
geometric_mean "$tmp/ratios"
