# Shared by the strength and training scripts (source it; it runs nothing by itself):
# which openings a match plays, and one position's score by a fixed-depth search.

# match_openings GAME PLIES: sets the array `openings` to the `ludus match` flags of GAME's
# openings: the file OPENINGS names, else benches/strength/openings/GAME.txt when it exists
# (Tactigon's balanced 2-ply lines), played in an order shuffled by the match's seed, else
# PLIES random plies. An OPENINGS that names no file is an error, not a silent fallback.
match_openings() {
    local book=${OPENINGS:-$(dirname "${BASH_SOURCE[0]}")/openings/$1.txt}
    if [ -n "${OPENINGS:-}" ] && [ ! -s "$book" ]; then
        echo "OPENINGS: no openings file $book" >&2
        return 2
    fi
    if [ -s "$book" ]; then
        openings=(--openings "$book" --shuffle-openings)
    else
        openings=(--random-openings "$2")
    fi
}

# search_score LUDUS GAME DEPTH [ludus go flags…]: the side to move's score after a search to
# DEPTH plies from the position the flags give (--moves, --fen, --option), as `cp:N` or
# `mate:N`; nothing if the search printed no score.
search_score() {
    local ludus=$1 game=$2 depth=$3
    shift 3
    "$ludus" go --game "$game" "$@" --depth "$depth" --info 2>/dev/null |
        sed -n 's/^info .* score \(cp\|mate\) \(-\?[0-9]*\) .*/\1:\2/p' | tail -1
}
