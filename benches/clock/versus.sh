#!/usr/bin/env bash
# Time management A/B: two ludus binaries at a short clock with no time margin, so that a
# time manager pays both for the time it wastes and for every flag. A measurement, not a test.
#
#   bash benches/clock/versus.sh GAME NEW BASE [GAMES] [TC]     # default 400 games, 1+0.01
#
# Openings: benches/strength/openings/GAME.txt when it exists (Tactigon's balanced 2-ply
# lines, shuffled by the seed), else 2 random plies. Environment: OUT (default
# target/clock), CONCURRENCY (default 2), SEED (default 1), SPRT (e.g. "elo0=-10 elo1=5": stop
# early once the SPRT decides; GAMES stays the maximum). Writes
# OUT/versus-GAME-TC.{pgn,json,txt}; a rerun resumes. Prints the referee's table (Elo with its
# 95 % interval, the terminations: look for time-forfeit).
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
cd "$(dirname "$0")/../.."
game=$1
new=$(realpath "$2")
base=$(realpath "$3")
games=${4:-400}
tc=${5:-1+0.01}
out=${OUT:-target/clock}
mkdir -p "$out"
book=benches/strength/openings/$game.txt
if [ -s "$book" ]; then
    openings=(--openings "$book" --shuffle-openings)
else
    openings=(--random-openings 2)
fi
name="$out/versus-$game-${tc//[+\/]/_}"
sprt=()
if [ -n "${SPRT:-}" ]; then
    read -r -a bounds <<<"$SPRT"
    sprt=(--sprt "${bounds[@]}")
fi
resume=()
[ -s "$name.pgn" ] && resume=(--resume)
"$new" match --game "$game" --engine "cmd=$new" name=new --engine "cmd=$base" name=base \
    --each "tc=$tc" timemargin=0 --games "$games" "${openings[@]}" --seed "${SEED:-1}" \
    --concurrency "${CONCURRENCY:-2}" --pgnout "$name.pgn" --results "$name.json" --quiet \
    "${sprt[@]}" "${resume[@]}" | tee "$name.txt"
