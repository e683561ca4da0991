#!/usr/bin/env bash
# One generation of the learning loop (docs/training.md): self-play data with the current
# evaluation, a net trained on it (and on earlier generations' data), then an SPRT of the new
# net against the current evaluation at fixed nodes. Every step resumes: rerun the same
# command after an interruption.
#
#   bash benches/training/generation.sh GAME NAME [GAMES] [NODES]
#
# GAME: isaac, sight or tactigon. NAME: the generation's name (files go to $OUT/NAME*).
# GAMES (default 20000) self-play games at NODES (default 5000) nodes a move.
# Environment:
#   LUDUS    a ludus built with `--features train` (default target/release/ludus)
#   OUT      working folder (default target/training)
#   CURRENT  the current generation's net file; empty (the default): the hand evaluation
#            (the first generation)
#   DATA     earlier data files to train on as well (space-separated)
#   OPTIONS  rule options, e.g. "Sight_BoardSize=7"
#   SHARDS   datagen processes (default 2; on many machines run each shard's datagen there
#            with --shard K/N and copy the files back before the train step)
#   TRAIN    extra `ludus train` flags, e.g. "--hidden 128 --epochs 20 --lambda 0.5"
#   SPRT_NODES  nodes a move in the SPRT (default 5000); SPRT_GAMES at most (default 2000)
#   OPENINGS the SPRT's openings file; default benches/strength/openings/GAME.txt when it
#            exists (Tactigon's balanced 2-ply lines), shuffled by the seed; else 4 random plies
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 2 ]; then
    sed -n '2,23p' "$0" >&2
    exit 2
fi
game=$1 name=$2 games=${3:-20000} nodes=${4:-5000}
ludus=$(realpath "${LUDUS:-target/release/ludus}")
out=${OUT:-target/training}
mkdir -p "$out"
shards=${SHARDS:-2}
options=()
for o in ${OPTIONS:-}; do options+=(--option "$o"); done
eval_args=(--eval hand)
engine_eval=(option.Eval=hand)
if [ -n "${CURRENT:-}" ]; then
    eval_args=(--eval net --eval-file "$(realpath "$CURRENT")")
    engine_eval=(option.EvalFile="$(realpath "$CURRENT")")
fi

echo "== $name: datagen, $games games at $nodes nodes, $shards shards"
pids=()
for k in $(seq 1 "$shards"); do
    "$ludus" datagen --game "$game" "${options[@]}" "${eval_args[@]}" --games "$games" \
        --nodes "$nodes" --seed "$(printf '%s' "$name" | cksum | cut -d' ' -f1)" \
        --shard "$k/$shards" --out "$out/$name-$k.bin" --progress 300 \
        > "$out/$name-datagen-$k.log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
tail -qn 1 "$out/$name"-datagen-*.log

echo "== $name: train"
# shellcheck disable=SC2086
"$ludus" train --game "$game" --data ${DATA:-} "$out/$name"-[0-9]*.bin --out "$out/$name.nnue" \
    ${TRAIN:-} | tee "$out/$name-train.log"

# shellcheck source=../strength/openings_lib.sh
. benches/strength/openings_lib.sh
match_openings "$game" 4

echo "== $name: SPRT against the current evaluation at ${SPRT_NODES:-5000} nodes"
"$ludus" match --game "$game" "${options[@]}" \
    --engine cmd="$ludus" name="$name" option.EvalFile="$(realpath "$out/$name.nnue")" \
    --engine cmd="$ludus" name=current "${engine_eval[@]}" \
    --each nodes="${SPRT_NODES:-5000}" --games "${SPRT_GAMES:-2000}" "${openings[@]}" \
    --seed 11 --concurrency 2 --sprt elo0=0 elo1=20 alpha=0.05 beta=0.05 \
    --pgnout "$out/$name-sprt.pgn" --results "$out/$name-sprt.json" --quiet \
    $( [ -s "$out/$name-sprt.pgn" ] && echo --resume ) | tee "$out/$name-sprt.txt"
