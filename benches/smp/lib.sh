# Shared by benches/smp/time_to_depth.sh and speed.sh (sourced).

median() { # median FILE: the median of its numbers
    sort -n "$1" | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'
}

geometric_mean() { # geometric_mean FILE: "geometric mean of N ratios: G" for its numbers
    awk '$1 > 0 { s += log($1); n++ } END { if (n) printf "geometric mean of %d ratios: %.2f\n", n, exp(s / n) }' "$1"
}

position_label() { # position_label GAME POSITION: "GAME moves…", or "GAME fen <its start>..."
    local label="$1 ${2#position startpos moves }"
    [ "${label#"$1 position fen "}" = "$label" ] || label="$1 fen ${2:13:18}..."
    printf '%s' "$label"
}
