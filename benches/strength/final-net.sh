#!/usr/bin/env bash
# Issue 58's strength must-show: a learning run's best net (data/learn/RUN/best.nnue, given to
# the engine as EvalFile) against the net built in (the one of c69de7d: data/nets/ has not
# changed since), two games at a time at the users' clock (Isaac and Tactigon 2+0.02, Sight 7x7
# 5+0.05), an SPRT elo0 0 elo1 30 of at most 800 games.
#
#   bash benches/strength/final-net.sh GAME [OUT]      # GAME: isaac, tactigon or sight7
#
# LUDUS: the binary (default target/release/ludus). OUT: where the record, results and table go
# (default target/final-net). The same command resumes a match cut short.
set -euo pipefail
cd "$(dirname "$0")/../.."
ludus=$(realpath "${LUDUS:-target/release/ludus}")
game=${1:?usage: final-net.sh isaac|tactigon|sight7 [OUT]}
out=${2:-target/final-net}
mkdir -p "$out"
case $game in
  isaac) flags=(--game isaac --random-openings 4) tc=2+0.02 run=data/learn/isaac ;;
  tactigon)
    flags=(--game tactigon --openings benches/strength/openings/tactigon.txt --shuffle-openings)
    tc=2+0.02 run=data/learn/tactigon ;;
  sight7) flags=(--game sight --option Sight_BoardSize=7 --random-openings 4) tc=5+0.05 run=data/learn/sight7 ;;
  *) echo "final-net.sh: unknown game '$game' (isaac, tactigon or sight7)" >&2; exit 2 ;;
esac
net=$(realpath "$run/best.nnue")
resume=()
[[ ! -s $out/$game.pgn ]] || resume=(--resume)
echo "== $game: $net against the built-in net at $tc, from $(date -Is), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$ludus" match "${flags[@]}" \
  --engine cmd="$ludus" name=learned option.EvalFile="$net" tc="$tc" timemargin=50 \
  --engine cmd="$ludus" name=builtin tc="$tc" timemargin=50 \
  --concurrency 2 --games 800 --seed 59 --sprt elo0=0 elo1=30 alpha=0.05 beta=0.05 \
  --pgnout "$out/$game.pgn" --results "$out/$game.json" --quiet "${resume[@]}" >"$out/$game.txt"
echo "== $game, to $(date -Is), load $(cut -d' ' -f1-3 /proc/loadavg)"
tail -n 5 "$out/$game.txt"
