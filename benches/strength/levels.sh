#!/usr/bin/env bash
# Calibrates one game's rating scale (`UCI_LimitStrength`, `UCI_Elo`; docs/strength.md,
# "Levels"): a `ludus match` between each pair of neighbours of the ladder, the stronger first,
# so each table's Elo is what that step gains:
#
#   benches/strength/levels.sh GAME GAMES ELO…
#
#   random-ELO1     the weakest rating vs `Level random` (the scale's 0)
#   ELO1-ELO2 …     each rating vs the one below it
#   full-ELO1       full strength vs the weakest rating (should win ≥ 95 %), by nodes as the
#                   ratings are: a million (Isaac's placement: 20,000 MCTS iterations), about
#                   half a second a move on this machine
#
# ELO… are `UCI_Elo` values, weakest first: the game's RATED_SETTINGS (src/game/GAME/search_hooks.rs)
# to calibrate them, any values to measure those. GAMES per step (even). A rating searches a
# node budget, so its strength does not depend on the clock or the machine's load (the steps
# may run niced beside other work); its clock (60+0.6) only keeps a stalled engine from
# holding the match. Environment: LUDUS (binary,
# default target/release/ludus), OUT (records, results and tables, default target/levels),
# CONCURRENCY (default 2), PLIES (random opening plies, default 2), SEED (default 1), OPENINGS
# (as in ladder.sh). Every step writes OUT/GAME-levels-STEP.{pgn,json,txt}; a rerun resumes an
# unfinished step.
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,22p' "$0" >&2
    exit 2
fi
game=$1
games=$2
shift 2
elos=("$@")
ludus=${LUDUS:-target/release/ludus}
out=${OUT:-target/levels}
mkdir -p "$out"
full_nodes=1000000
[ "$game" = isaac ] && full_nodes=20000
# shellcheck source=openings_lib.sh
. "$(dirname "$0")/openings_lib.sh"
match_openings "$game" "${PLIES:-2}"

engine() { # engine ELO|random|full: one --engine flag
    case $1 in
    random) printf '%s\n' --engine "cmd=$ludus" name=random option.Level=random tc=60+0.6 ;;
    full) printf '%s\n' --engine "cmd=$ludus" name=full "nodes=$full_nodes" ;;
    *) printf '%s\n' --engine "cmd=$ludus" "name=elo$1" option.UCI_LimitStrength=true \
        "option.UCI_Elo=$1" tc=60+0.6 ;;
    esac
}

steps=("${elos[0]} random")
for ((i = 1; i < ${#elos[@]}; i++)); do
    steps+=("${elos[i]} ${elos[i - 1]}")
done
steps+=("full ${elos[0]}")
for step in "${steps[@]}"; do
    read -r strong weak <<<"$step"
    mapfile -t pair < <(engine "$strong"; engine "$weak")
    base="$out/$game-levels-$weak-$strong"
    resume=()
    [ -s "$base.pgn" ] && resume=(--resume)
    "$ludus" match --game "$game" "${pair[@]}" --games "$games" \
        "${openings[@]}" --seed "${SEED:-1}" --concurrency "${CONCURRENCY:-2}" \
        --pgnout "$base.pgn" --results "$base.json" --event "levels $weak-$strong" --quiet --stall-timeout 300 \
        "${resume[@]}" | tee "$base.txt"
done
