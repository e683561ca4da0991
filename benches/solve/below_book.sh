#!/usr/bin/env bash
# Below the book (issue 31, finding 10): from positions sampled along the 5×5 certificates'
# winning lines (the defender playing at random) with the winner to move at 14–20 empty
# points, under both rule variants, the engine answers `go movetime M` and the certificate
# checker's exhaustive minimax judges whether its move keeps the win
# (examples/below_book.rs). By default both cores are kept busy by two other searches.
#
#   benches/solve/below_book.sh [POSITIONS_PER_VARIANT] [SEED] [MOVETIME_MS]
#
# Defaults: 1000 positions per variant, seed 31, movetime 50. LOAD=N starts N busy searches
# (default 2; LOAD=0: an idle machine). Exit status 1 if any win was lost. Results:
# docs/solved.md, "Below the book".
set -euo pipefail
cd "$(dirname "$0")/../.."
positions=${1:-1000}
seed=${2:-31}
movetime=${3:-50}
load=${LOAD:-2}

cargo build --release --locked --quiet
cargo build --release --locked --quiet --example below_book
# shellcheck source=benches/busy_lib.sh
. benches/busy_lib.sh
start_busy_searches "$load"
echo "== $positions positions per variant, seed $seed, go movetime $movetime, $load busy searches beside"
./target/release/examples/below_book --engine target/release/ludus \
    --positions "$positions" --seed "$seed" --movetime "$movetime"
