#!/usr/bin/env bash
# The clock benchmark: full-strength self-play with no time margin, then a report of time
# forfeits and of (answer time - budget) per game and control. A measurement, not a test.
#
#   bash benches/clock/run.sh [GAMES] [OUT]        # default: 200 games each, target/clock
#
# Environment: LUDUS (the binary, default target/release/ludus), CONTROLS (default
# "tc=1+0.01 st=0.1"), GAMES_LIST (default "isaac sight tactigon"), CONCURRENCY (games at
# once, default 2: both cores busy), SEED (default 1), OVERHEAD (a `Move Overhead` in ms for
# both engines; default: the engine's own).
#
# Every match writes OUT/GAME-CONTROL.pgn (the record: each move's time and budget) and
# .json; a rerun resumes unfinished matches (`ludus match --resume`) and skips finished
# ones, so an interrupted run loses at most the games in progress. The report is
# benches/clock/report.py over the records; rerun it alone on any set of records.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-200}
out=${2:-target/clock}
ludus=$(realpath "${LUDUS:-target/release/ludus}")
controls=${CONTROLS:-"tc=1+0.01 st=0.1"}
game_list=${GAMES_LIST:-"isaac sight tactigon"}
concurrency=${CONCURRENCY:-2}
seed=${SEED:-1}
mkdir -p "$out"
each=(timemargin=0)
if [ -n "${OVERHEAD:-}" ]; then
  each+=("option.Move Overhead=$OVERHEAD")
fi
for control in $controls; do
  for game in $game_list; do
    name="$game-${control//[=+\/]/_}"
    pgn="$out/$name.pgn"
    resume=()
    if [ -s "$pgn" ]; then resume=(--resume); fi
    echo "== $game $control ($games games, $concurrency at once)" >&2
    "$ludus" match --game "$game" \
      --engine "cmd=$ludus" name=ludus-a --engine "cmd=$ludus" name=ludus-b \
      --each "$control" "${each[@]}" --games "$games" --concurrency "$concurrency" \
      --random-openings 2 --seed "$seed" --pgnout "$pgn" --results "$out/$name.json" \
      "${resume[@]}" --quiet >"$out/$name.txt"
  done
done
python3 benches/clock/report.py "$out"/*.pgn
