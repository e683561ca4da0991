#!/usr/bin/env bash
# The strength ladder of one game (docs/strength.md): each rung is a `ludus match` between two
# neighbours of the ladder, the stronger one first, so the Elo printed is what the step gains.
#
#   benches/strength/ladder.sh GAME [GAMES] [RUNG…]
#
# GAMES per rung (even, default 100). RUNGs (default: the first five, in this order):
#   random-greedy   greedy (one-ply evaluation) vs random moves
#   greedy-depth2   alpha-beta limited to depth 2 (the strongest older bots) vs greedy
#   depth2-full10   full at 10+0.1 vs depth 2
#   full10-full20   full at 20+0.2 vs full at 10+0.1 (doubling the time)
#   full10-full40   full at 40+0.4 vs full at 10+0.1
#   fast-double     full at 2+0.02 vs full at 1+0.01 (doubling at a short time control)
#   half-double     full at 1+0.01 vs full at 0.5+0.005 (doubling at a shorter one still:
#                   how Sight's gain depends on the time control)
#   threads         alpha-beta with Threads 2 vs Threads 1, both at 2+0.02 (run it alone
#                   with CONCURRENCY=1 on a machine with at least 2 free cores)
#   default-threads the game's default searcher (Isaac: MCTS in placement) with Threads 2
#                   vs Threads 1, both at 2+0.02 (alone, CONCURRENCY=1, as `threads`)
#   threads10, default-threads10  the same two at 10+0.1
# Environment: LUDUS (binary, default target/release/ludus), OUT (directory for the records,
# results and tables, default target/strength), CONCURRENCY (default 2), PLIES (random opening
# plies, default 2), SEED (default 1), MARGIN (time margin in ms, default 50), OPENINGS (an
# openings file; default benches/strength/openings/GAME.txt when it exists, played in an order
# shuffled by SEED, else PLIES random plies). Tactigon has such a file: a third of its random
# 2-ply openings hang a piece (benches/strength/openings.sh makes the file).
# SPRT (e.g. "elo0=0 elo1=50") stops a rung early by the referee's SPRT (GAMES is then the
# most); EACH (e.g. "option.SolvedBook=false") adds settings to both engines of every rung.
# Every rung writes OUT/GAME-RUNG.{pgn,json,txt}; a rerun resumes an unfinished rung.
set -euo pipefail
if [ $# -lt 1 ]; then
    sed -n '2,29p' "$0" >&2
    exit 2
fi
game=$1
games=${2:-100}
shift $(( $# >= 2 ? 2 : 1 ))
rungs=("$@")
[ ${#rungs[@]} -gt 0 ] || rungs=(random-greedy greedy-depth2 depth2-full10 full10-full20 full10-full40)
ludus=${LUDUS:-target/release/ludus}
out=${OUT:-target/strength}
margin=${MARGIN:-50}
mkdir -p "$out"
# shellcheck source=openings_lib.sh
. "$(dirname "$0")/openings_lib.sh"
match_openings "$game" "${PLIES:-2}"

engine() { # engine NAME SETTINGS…: one --engine flag
    local name=$1
    shift
    printf '%s\n' --engine "cmd=$ludus" "name=$name" "timemargin=$margin" "$@"
}

for rung in "${rungs[@]}"; do
    case $rung in
    random-greedy) mapfile -t pair < <(engine greedy option.Level=greedy tc=10+0.1; engine random option.Level=random tc=10+0.1) ;;
    greedy-depth2) mapfile -t pair < <(engine depth2 option.Searcher=alphabeta depth=2; engine greedy option.Level=greedy tc=10+0.1) ;;
    depth2-full10) mapfile -t pair < <(engine full10 tc=10+0.1; engine depth2 option.Searcher=alphabeta depth=2) ;;
    full10-full20) mapfile -t pair < <(engine full20 tc=20+0.2; engine full10 tc=10+0.1) ;;
    full10-full40) mapfile -t pair < <(engine full40 tc=40+0.4; engine full10 tc=10+0.1) ;;
    half-double) mapfile -t pair < <(engine full1 tc=1+0.01; engine full05 tc=0.5+0.005) ;;
    fast-double) mapfile -t pair < <(engine full2 tc=2+0.02; engine full1 tc=1+0.01) ;;
    default-threads) mapfile -t pair < <(engine threads2 option.Threads=2 tc=2+0.02; engine threads1 tc=2+0.02) ;;
    default-threads10) mapfile -t pair < <(engine threads2 option.Threads=2 tc=10+0.1; engine threads1 tc=10+0.1) ;;
    threads10) mapfile -t pair < <(engine threads2 option.Threads=2 option.Searcher=alphabeta tc=10+0.1; engine threads1 option.Searcher=alphabeta tc=10+0.1) ;;
    threads) mapfile -t pair < <(engine threads2 option.Threads=2 option.Searcher=alphabeta tc=2+0.02; engine threads1 option.Searcher=alphabeta tc=2+0.02) ;;
    *)
        echo "unknown rung $rung" >&2
        exit 2
        ;;
    esac
    base="$out/$game-$rung"
    extra=()
    if [ -n "${SPRT:-}" ]; then
        read -r -a sprt <<<"$SPRT"
        extra+=(--sprt "${sprt[@]}")
    fi
    if [ -n "${EACH:-}" ]; then
        read -r -a each <<<"$EACH"
        extra+=(--each "${each[@]}")
    fi
    resume=()
    [ -s "$base.pgn" ] && resume=(--resume)
    "$ludus" match --game "$game" "${pair[@]}" --games "$games" \
        "${openings[@]}" --seed "${SEED:-1}" --concurrency "${CONCURRENCY:-2}" \
        --pgnout "$base.pgn" --results "$base.json" --event "ladder $rung" --quiet \
        "${extra[@]}" "${resume[@]}" | tee "$base.txt"
done
