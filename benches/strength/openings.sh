#!/usr/bin/env bash
# A balanced openings file for `ludus match --openings`: every line of PLIES plies from the
# start (PLIES 1 or 2) whose score, by the engine's own search to DEPTH plies, is within
# ±MAXCP centipawns. Random openings in a crowded game (Tactigon) often hang a piece on the
# second ply; a pair of games from such an opening measures the opening, not the engines.
#
#   benches/strength/openings.sh GAME [PLIES] [DEPTH] [MAXCP] > openings.txt
#
# Defaults: 2 plies, depth 4, ±100. LUDUS names the binary (default target/release/ludus).
# Prints one `startpos moves …` line per kept opening, sorted (C locale), and a count
# of kept / all openings on stderr. Deterministic: the same binary gives the same file.
set -euo pipefail
if [ $# -lt 1 ]; then
    sed -n '2,11p' "$0" >&2
    exit 2
fi
game=$1 plies=${2:-2} depth=${3:-4} maxcp=${4:-100}
ludus=${LUDUS:-target/release/ludus}
case $plies in 1 | 2) ;; *) echo "PLIES must be 1 or 2" >&2; exit 2 ;; esac

moves_after() { # moves_after "m1 m2 …": the legal moves there, one per line
    "$ludus" perft --game "$game" --moves "$1" --depth 1 2>/dev/null | sed -n 's/^\([^ ]*\): .*/\1/p'
}
lines=()
for first in $(moves_after ""); do
    if [ "$plies" = 1 ]; then
        lines+=("$first")
    else
        for second in $(moves_after "$first"); do lines+=("$first $second"); done
    fi
done
# shellcheck source=openings_lib.sh
. "$(dirname "$0")/openings_lib.sh"
score_of() { # score_of "m1 m2": the depth-DEPTH score in cp for the side to move, or "mate"
    local score
    score=$(search_score "$ludus" "$game" "$depth" --moves "$1")
    case $score in
    cp:*) echo "${score#cp:}" ;;
    *) echo mate ;;
    esac
}
export -f score_of search_score
export game depth ludus
kept=0
while IFS=$'\t' read -r score line; do
    if [ "$score" != mate ] && [ "${score#-}" -le "$maxcp" ]; then
        echo "startpos moves $line"
        kept=$((kept + 1))
    fi
done < <(printf '%s\n' "${lines[@]}" | xargs -d '\n' -P "${JOBS:-2}" -I{} bash -c 'printf "%s\t%s\n" "$(score_of "$1")" "$1"' _ {} | LC_ALL=C sort -t$'\t' -k2)
echo "$game: kept $kept of ${#lines[@]} openings of $plies plies within ±$maxcp at depth $depth" >&2
