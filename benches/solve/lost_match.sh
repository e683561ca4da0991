#!/usr/bin/env bash
# Lost positions (issue 31, finding 11): ludus against `Level greedy` from every 2-ply opening
# of Sight 5×5 (OPENINGS, default benches/solve/openings2-all.txt: all 600;
# benches/solve/openings2.txt: one per class under the board's symmetries, 85), both colours,
# under both rule variants, once with the solved book (the default) and once
# with `SolvedBook false`, at a fixed node limit and a fixed greedy seed, so that the two
# runs play the same schedule game for game. Then benches/solve/lost_report.py compares them
# game by game. A measurement, not a test.
#
#   bash benches/solve/lost_match.sh [LUDUS] [NODES]   # default target/release/ludus, 5000
#
# Environment: OUT (default target/lost-match), CONCURRENCY (default 2). A rerun resumes.
# Results: docs/solved.md, "Lost positions".
set -euo pipefail
cd "$(dirname "$0")/../.."
ludus=$(realpath "${1:-target/release/ludus}")
nodes=${2:-5000}
out=${OUT:-target/lost-match}
openings=${OPENINGS:-benches/solve/openings2-all.txt}
games=$((2 * $(grep -c '^startpos' "$openings")))
mkdir -p "$out"
for strict in false true; do
    for book in true false; do
        name="strict-$strict-book-$book"
        resume=()
        [ -s "$out/$name.pgn" ] && resume=(--resume)
        "$ludus" match --game sight --option "Sight_StrictTallest=$strict" \
            --engine "cmd=$ludus" name=ludus "option.SolvedBook=$book" "nodes=$nodes" \
            --engine "cmd=$ludus" name=greedy option.Level=greedy option.Seed=7 depth=1 \
            --games "$games" --openings "$openings" --seed 1 --concurrency "${CONCURRENCY:-2}" \
            --pgnout "$out/$name.pgn" --results "$out/$name.json" --quiet "${resume[@]}" |
            tee "$out/$name.txt"
    done
done
python3 benches/solve/lost_report.py "$out"
