#!/usr/bin/env bash
# The solved book at play (issue 16): ludus with `SolvedBook` (the default) against the same
# binary without it (`option.SolvedBook=false`, the engine as it was before the book) at
# 10+0.1, colours alternating, from random 2-ply openings and from the empty board. Then
# benches/solve/match_report.py says, game by game, which side the solution says wins and
# whether that side won. A measurement, not a test.
#
#   bash benches/solve/match.sh [LUDUS] [GAMES] [START_GAMES]   # default 200 and 20
#
# Environment: OUT (default target/solve-match), CONCURRENCY (default 2), SEED (default 1),
# TC (default 10+0.1), RULES (rule options, e.g. "Sight_StrictTallest=true" for the other
# variant). A rerun resumes both matches.
set -euo pipefail
cd "$(dirname "$0")/../.."
ludus=$(realpath "${1:-target/release/ludus}")
games=${2:-200}
start_games=${3:-20}
out=${OUT:-target/solve-match}
tc=${TC:-10+0.1}
mkdir -p "$out"
rules=()
for r in ${RULES:-}; do rules+=(--option "$r"); done
run() {
    local name=$1 count=$2
    shift 2
    local resume=()
    [ -s "$out/$name.pgn" ] && resume=(--resume)
    "$ludus" match --game sight --engine "cmd=$ludus" name=book \
        --engine "cmd=$ludus" name=nobook option.SolvedBook=false \
        --each "tc=$tc" --games "$count" --seed "${SEED:-1}" --concurrency "${CONCURRENCY:-2}" \
        --pgnout "$out/$name.pgn" --results "$out/$name.json" --quiet "${rules[@]}" "$@" "${resume[@]}" |
        tee "$out/$name.txt"
}
run openings "$games" --random-openings 2
run start "$start_games"
RULES="${RULES:-}" python3 benches/solve/match_report.py "$ludus" "$out/openings.pgn" "$out/start.pgn"
