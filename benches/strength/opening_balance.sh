#!/usr/bin/env bash
# How balanced a match's openings were: every distinct `Opening` of a record file (`ludus
# match --pgnout`) searched to DEPTH plies, and the spread of the scores (side to move's
# view). A match from random openings has no openings file to check beforehand; this checks
# the openings it played, by the same measure `openings.sh` keeps Tactigon's lines by.
#
#   benches/strength/opening_balance.sh GAME RECORD [DEPTH] [NAME=VALUE …] > scores.tsv
#
# DEPTH defaults to 4; NAME=VALUE are options set first (e.g. Eval=hand, Sight_BoardSize=7).
# LUDUS names the binary (default target/release/ludus), JOBS the searches at once (default 2).
# Prints `score<TAB>opening moves` per opening (score `cp:N` or `mate:N`), sorted by opening,
# and on stderr the count, the mates, and the median, 90th percentile and largest |cp|.
# Deterministic for one binary (one search thread, tables fresh per opening).
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
game=$1 record=$2 depth=${3:-4}
shift $(($# < 3 ? $# : 3))
ludus=${LUDUS:-target/release/ludus}
[ -f "$record" ] || { echo "no record file $record" >&2; exit 2; }
option_flags=""
for o in "$@"; do option_flags+=" --option $o"; done

openings=$(sed -n 's/^\[Opening "\(.*\)"\]$/\1/p' "$record" | LC_ALL=C sort -u)
[ -n "$openings" ] || { echo "no [Opening] tags in $record" >&2; exit 2; }

# shellcheck source=openings_lib.sh
. "$(dirname "$0")/openings_lib.sh"
score_of() { # score_of "startpos [moves …]" or "fen … [moves …]": cp:N or mate:N
    local line=$1 rest pos=() options
    case $line in
    startpos) ;;
    "startpos moves "*) pos=(--moves "${line#startpos moves }") ;;
    "fen "*)
        rest=${line#fen }
        if [[ $rest == *" moves "* ]]; then
            pos=(--fen "${rest%% moves *}" --moves "${rest#* moves }")
        else
            pos=(--fen "$rest")
        fi
        ;;
    *) echo "cannot read the opening '$line'" >&2; return 1 ;;
    esac
    read -r -a options <<<"$option_flags"
    search_score "$ludus" "$game" "$depth" "${options[@]}" "${pos[@]}"
}
export -f score_of search_score
export game depth ludus option_flags

# One line per opening, each written whole (parallel jobs must not interleave parts of lines).
# shellcheck disable=SC2016
scores=$(printf '%s\n' "$openings" |
    xargs -d '\n' -P "${JOBS:-2}" -I{} bash -c 's=$(score_of "$1") && [ -n "$s" ] || exit 255
        printf "%s\t%s\n" "$s" "$1"' _ {} |
    LC_ALL=C sort -t$'\t' -k2)
printf '%s\n' "$scores"

# The summary: |cp| sorted, then its median, 90th percentile, largest and counts.
sed -n 's/^cp:-\{0,1\}\([0-9]*\)\t.*/\1/p' <<<"$scores" | sort -n |
    awk -v game="$game" -v depth="$depth" -v count="$(wc -l <<<"$scores")" '
        { a[n++] = $1; w50 += $1 <= 50; w100 += $1 <= 100 }
        END {
            if (n == 0) { printf "%s: %d openings, all with a mate score\n", game, count; exit }
            printf "%s: %d openings, %d with a mate score; |cp| at depth %d: median %d, " \
                "90th percentile %d, largest %d, within 50: %d, within 100: %d\n",
                game, count, count - n, depth, a[int((n - 1) / 2)], a[int(n * 9 / 10)],
                a[n - 1], w50, w100
        }' >&2
