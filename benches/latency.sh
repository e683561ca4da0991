#!/usr/bin/env bash
# Latency of `readyok`, of `stop` -> `bestmove` and of `stop` -> the end of a perft over
# random interleavings of go / perft / stop /
# isready / setoption / position in all three games (the checker of
# tests/protocol/protocol_interleavings.rs: one legal bestmove per go, inside searchmoves, one
# readyok per isready, no hang), with random options (MultiPV up to 256, Threads at the machine's
# maximum) and, by default, both cores kept busy by two other searches.
#
#   benches/latency.sh [SEQUENCES_PER_GAME] [SEED]
#
# SEQUENCES_PER_GAME defaults to 3400 (10,200 interleavings in all); SEED to 19. LOAD=0 runs
# on an idle machine; LOAD=N starts N busy searches (default 2). Prints, per game and for all,
# n / median / p99 / max in milliseconds. Results: docs/benchmarks.md, "Protocol latency".
set -euo pipefail
cd "$(dirname "$0")/.."
sequences=${1:-3400}
seed=${2:-19}
load=${LOAD:-2}

cargo build --release --locked --quiet
# shellcheck source=benches/busy_lib.sh
. benches/busy_lib.sh
start_busy_searches "$load"
echo "== $sequences sequences per game, seed $seed, $load busy searches beside"
LUDUS_INTERLEAVINGS=$sequences LUDUS_INTERLEAVING_SEED=$seed \
    cargo test --release --locked --quiet --test protocol protocol_interleavings:: \
        -- --nocapture 2>&1 |
    grep -E '^(sight|isaac|tactigon|all):|^  (readyok|stop)|^test result'
