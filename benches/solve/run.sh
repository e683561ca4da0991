#!/usr/bin/env bash
# Solver speed: the time to prove each position of benches/solve/positions.txt (Sight 5×5,
# 21 and 19 empty points), by the engine's exact alpha-beta search (`ludus go --depth 25`:
# iterative deepening stops once an iteration reaches the end of every line, so its score is
# exact; default Hash 16 MiB) and by the solver (`ludus solve --frontier 0`, table 256 MiB,
# its allocation included). A measurement, not a test: keep the machine as you want it
# measured (say in the write-up whether anything ran beside).
#
#   bash benches/solve/run.sh [LUDUS]        # default target/release/ludus
set -euo pipefail
cd "$(dirname "$0")/../.."
ludus=${1:-target/release/ludus}
now() { date +%s.%N; }
printf '%-6s %-44s %-12s %9s %-6s %9s %s\n' empty position exact-score exact-s solve solve-s speedup
grep -v '^#' benches/solve/positions.txt | while read -r empty board side; do
    fen="$board $side"
    t0=$(now)
    info=$("$ludus" go --game sight --fen "$fen" --depth 25 --info | grep '^info')
    t1=$(now)
    score=$(sed -E 's/.* score ([a-z]+ -?[0-9]+) .*/\1/' <<<"$info")
    result=$("$ludus" solve --fen "$fen" --frontier 0 --hash 256 | sed -n 's/^result .*: \(White\|Black\) wins.*/\1/p')
    t2=$(now)
    awk -v e="$empty" -v f="$fen" -v s="$score" -v r="$result" -v a="$t0" -v b="$t1" -v c="$t2" \
        'BEGIN { printf "%-6s %-44s %-12s %9.2f %-6s %9.2f %6.1fx\n", e, f, s, b - a, r, c - b, (b - a) / (c - b) }'
done
