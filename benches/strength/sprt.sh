#!/usr/bin/env bash
# SPRT of a search change: NEW against BASE (two ludus binaries) in one game, at a fixed node
# count per move, so the result does not depend on how busy the machine is and a rerun with
# the same arguments plays the same games.
#
#   benches/strength/sprt.sh GAME NEW BASE [NODES] [extra `ludus match` flags…]
#
# NODES defaults to 100000 per move; PLIES (environment, default 4) sets the random opening
# plies. Prints the referee's table; the line to record in the commit is the one starting
# with "SPRT". Example:
#   cp target/release/ludus /tmp/ludus-base   # before the change
#   cargo build --release                     # after it
#   benches/strength/sprt.sh sight target/release/ludus /tmp/ludus-base
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
game=$1 new=$2 base=$3
nodes=${4:-100000}
shift $(( $# >= 4 ? 4 : 3 ))
exec "$new" match --game "$game" \
    --engine cmd="$new" name=new \
    --engine cmd="$base" name=base \
    --each nodes="$nodes" \
    --games 4000 --random-openings "${PLIES:-4}" --seed 7 --concurrency 2 \
    --sprt elo0=0 elo1=20 alpha=0.05 beta=0.05 \
    "$@"
