#!/usr/bin/env bash
# Nodes per second of each game's default searcher (`Searcher auto`: Isaac's placement is
# MCTS, whose nodes are iterations) with Threads 1 and Threads N (docs/benchmarks.md): each
# position of benches/smp/positions.txt is searched for MOVETIME ms, RUNS times alternating;
# prints the medians and their ratio, then the geometric mean of the ratios. Run it alone on
# the machine: N threads need N free cores.
#
#   benches/smp/speed.sh [RUNS] [MOVETIME]   (MOVETIME default 1000: MCTS's tree, within the
# default `Hash`, fills in 1-3 s, and the iterations of a full tree expand nothing)
#
# Environment: LUDUS (binary, default target/release/ludus), POSITIONS (file of
# `game|depth|position command` lines; the depth is not used here), THREADS (N, default 2).
set -euo pipefail
runs=${1:-3}
movetime=${2:-1000}
ludus=${LUDUS:-target/release/ludus}
positions=${POSITIONS:-$(dirname "$0")/speed_positions.txt}
threads=${THREADS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nps() { # nps GAME POSITION THREADS: the last nodes-per-second the search reported
    printf 'uci\nsetoption name Threads value %s\nsetoption name SolvedBook value false\nisready\n%s\ngo movetime %s\n' \
        "$3" "$2" "$movetime" | timeout $((movetime / 1000 + 30)) "$ludus" --game "$1" 2>/dev/null |
        awk '/^info/ && / nps / { for (i = 1; i < NF; i++) if ($i == "nps") n = $(i+1) } END { print n }'
}

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

printf '%-44s %10s %10s %7s\n' position "T1 nps" "T$threads nps" ratio
: >"$tmp/ratios"
while IFS='|' read -r game _ position; do
    [ -z "$game" ] || [ "${game:0:1}" = "#" ] && continue
    : >"$tmp/one"
    : >"$tmp/many"
    for _ in $(seq "$runs"); do
        nps "$game" "$position" 1 >>"$tmp/one"
        nps "$game" "$position" "$threads" >>"$tmp/many"
    done
    n1=$(median "$tmp/one") nn=$(median "$tmp/many")
    ratio=$(awk -v a="$n1" -v b="$nn" 'BEGIN { printf "%.2f", b / (a > 0 ? a : 1) }')
    printf '%-44s %10s %10s %7s\n' "$(position_label "$game" "$position")" "$n1" "$nn" "$ratio"
    echo "$ratio" >>"$tmp/ratios"
done <"$positions"
geometric_mean "$tmp/ratios"
