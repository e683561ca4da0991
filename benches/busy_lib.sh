# shellcheck shell=bash
# Sourced by the benchmarks that measure "with both cores busy" (benches/latency.sh,
# benches/solve/below_book.sh): `start_busy_searches N` starts N one-shot searches that run
# until they are killed (one core busy each), kills them when the script exits, and stops the
# script (exit 2) if one has ended at once, so that a figure said to be under load is.
# Tactigon, which has no book: a Sight search from the start position answers from the book
# and ends at once (before 27 Nov 2026 below_book.sh measured an idle machine that way).
busy_pids=()
stop_busy_searches() {
    for pid in "${busy_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
start_busy_searches() {
    trap stop_busy_searches EXIT
    for _ in $(seq 1 "$1"); do
        ./target/release/ludus go --game tactigon --movetime 100000000 >/dev/null 2>&1 &
        busy_pids+=($!)
    done
    sleep 1
    for pid in "${busy_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null || { echo "a busy search ended at once: no load" >&2; exit 2; }
    done
}
