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
options=()
for o in "$@"; do options+=(--option "$o"); done

openings=$(sed -n 's/^\[Opening "\(.*\)"\]$/\1/p' "$record" | LC_ALL=C sort -u)
[ -n "$openings" ] || { echo "no [Opening] tags in $record" >&2; exit 2; }

score_of() { # score_of "startpos moves …" or "fen … [moves …]": cp:N or mate:N
    local line=$1 rest pos=() info
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
    read -r -a options <<<"$OPTION_ARGS"
    info=$("$ludus" go --game "$game" "${options[@]}" "${pos[@]}" --depth "$depth" --info)
    sed -n 's/^info .* score \(cp\|mate\) \(-\?[0-9]*\) .*/\1:\2/p' <<<"$info" | tail -1
}
export -f score_of
export game depth ludus OPTION_ARGS="${options[*]:-}"

# One line per opening, each written whole (parallel jobs must not interleave parts of lines).
# shellcheck disable=SC2016
scores=$(printf '%s\n' "$openings" |
    xargs -d '\n' -P "${JOBS:-2}" -I{} bash -c 's=$(score_of "$1") && [ -n "$s" ] || exit 255
        printf "%s\t%s\n" "$s" "$1"' _ {} |
    LC_ALL=C sort -t$'\t' -k2)
printf '%s\n' "$scores"

count=$(wc -l <<<"$scores")
mates=$(grep -c '^mate:' <<<"$scores" || true)
mapfile -t cps < <(sed -n 's/^cp:-\{0,1\}\([0-9]*\)\t.*/\1/p' <<<"$scores" | sort -n)
n=${#cps[@]}
if [ "$n" -gt 0 ]; then
    echo "$game: $count openings, $mates with a mate score; |cp| at depth $depth:" \
        "median ${cps[$(((n - 1) / 2))]}, 90th percentile ${cps[$((n * 9 / 10 < n ? n * 9 / 10 : n - 1))]}," \
        "largest ${cps[$((n - 1))]}, within 50: $(awk '$1 <= 50' <<<"$(printf '%s\n' "${cps[@]}")" | wc -l)," \
        "within 100: $(awk '$1 <= 100' <<<"$(printf '%s\n' "${cps[@]}")" | wc -l)" >&2
else
    echo "$game: $count openings, all with a mate score" >&2
fi
