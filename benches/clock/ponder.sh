#!/usr/bin/env bash
# Pondering at equal clock: one ludus binary with `ponder=on` (it thinks on its opponent's
# time) against the same binary with pondering off, no time margin (a runner like cutegames
# flags at a clock of zero), one game at a time so that each engine has its own core while
# the ponderer thinks on the other's time. A measurement, not a test.
#
#   bash benches/clock/ponder.sh [GAMES] [OUT]     # default 200 games a game, target/clock-ponder
#
# Environment: LUDUS (the binary, default target/release/ludus), TC (default 2+0.02),
# GAMES_LIST (default "isaac sight tactigon"), SEED (default 1), SIGHT_EACH (extra settings for
# Sight's engines, default "option.SolvedBook=false": with the solved book both sides play the
# solved game perfectly and pondering changes nothing).
#
# Openings: benches/strength/openings/GAME.txt when it exists (Tactigon's balanced 2-ply
# lines, shuffled by the seed), else 2 random plies. Writes OUT/ponder-GAME.{pgn,json,txt}; a
# rerun resumes unfinished matches (`--resume`) and skips finished ones. Then prints the
# clock report (benches/clock/report.py: time forfeits, answer time minus budget; a move after
# a ponder hit is timed from the `ponderhit`) over the records; each match's Elo (ponder side
# first) with its 95 % interval is in its .txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-200}
out=${2:-target/clock-ponder}
ludus=$(realpath "${LUDUS:-target/release/ludus}")
tc=${TC:-2+0.02}
game_list=${GAMES_LIST:-"isaac sight tactigon"}
seed=${SEED:-1}
read -r -a sight_each <<<"${SIGHT_EACH-option.SolvedBook=false}"
mkdir -p "$out"
for game in $game_list; do
    name="$out/ponder-$game"
    book=benches/strength/openings/$game.txt
    if [ -s "$book" ]; then
        openings=(--openings "$book" --shuffle-openings)
    else
        openings=(--random-openings 2)
    fi
    each=("tc=$tc" timemargin=0)
    if [ "$game" = sight ]; then
        each+=("${sight_each[@]}")
    fi
    played=0
    [ -s "$name.pgn" ] && played=$(grep -c '^\[Result' "$name.pgn" || true)
    if [ "${played:-0}" -ge "$games" ]; then
        echo "== $game: done ($games games)" >&2
        continue
    fi
    resume=()
    [ -s "$name.pgn" ] && resume=(--resume)
    echo "== $game $tc, ponder on vs off ($games games, one at a time)" >&2
    "$ludus" match --game "$game" \
        --engine "cmd=$ludus" name=ponder ponder=on --engine "cmd=$ludus" name=noponder \
        --each "${each[@]}" --games "$games" "${openings[@]}" --seed "$seed" \
        --concurrency 1 --pgnout "$name.pgn" --results "$name.json" --quiet \
        "${resume[@]}" | tee "$name.txt"
done
python3 benches/clock/report.py "$out"/ponder-*.pgn
