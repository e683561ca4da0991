#!/usr/bin/env bash
# The ceiling of a strength must-show (docs/training.md, "The ceiling"): the same engine at
# twice the time against itself, two games at a time, at the clocks of issue 58's must-shows
# (Isaac and Tactigon 2+0.02, Sight 7x7 5+0.05), each an SPRT elo0 0 elo1 30 of at most 800
# games. What twice the time buys bounds what a better net can be expected to show there.
#
#   bash benches/strength/ceiling.sh [OUT]
#
# LUDUS: the binary (default target/release/ludus). OUT: where the records, results and
# tables go (default target/ceiling). Rerun the same command to resume a match cut short.
set -euo pipefail
cd "$(dirname "$0")/../.."
ludus=$(realpath "${LUDUS:-target/release/ludus}")
out=${1:-target/ceiling}
mkdir -p "$out"
book=benches/strength/openings/tactigon.txt

run() { # NAME GAME TC TC2 [opening flags...]
  local name=$1 game=$2 base=$3 double=$4 resume=()
  shift 4
  [[ ! -s $out/$name.pgn ]] || resume=(--resume)
  echo "== $name, from $(date -Is), load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$ludus" match --game "$game" "$@" \
    --engine cmd="$ludus" name=double tc="$double" timemargin=50 \
    --engine cmd="$ludus" name=base tc="$base" timemargin=50 \
    --concurrency 2 --games 800 --seed 58 --sprt elo0=0 elo1=30 alpha=0.05 beta=0.05 \
    --pgnout "$out/$name.pgn" --results "$out/$name.json" --quiet "${resume[@]}" >"$out/$name.txt"
  echo "== $name, to $(date -Is), load $(cut -d' ' -f1-3 /proc/loadavg)"
  tail -n 5 "$out/$name.txt"
}

run isaac-2x isaac 2+0.02 4+0.04 --random-openings 4
run tactigon-2x tactigon 2+0.02 4+0.04 --openings "$book" --shuffle-openings
run sight7-2x sight 5+0.05 10+0.1 --option Sight_BoardSize=7 --random-openings 4
