#!/usr/bin/env python3
"""Time forfeits and (answer time - budget) of `ludus match` records.

    python3 benches/clock/report.py RECORD.pgn...

Reads the PGN-like records of `ludus match` (each move's comment `{score/depth T of B}`:
T the time from `go` to `bestmove`, B what the mover had: its clock or the move time) and
prints one Markdown table row per record: games, time forfeits, moves timed, moves on the
flag (T >= B: a runner without margin that flags at a clock of zero, like cutegames, would
have ended the game), and the distribution of T - B in ms (negative: time to spare),
plus the worst answer time (forfeited moves included) and the lowest clock a move started
with. Standard library only.
"""
import re
import sys

COMMENT = re.compile(r"\{[^}]*? (\d+)\.(\d{3})s of (\d+)\.(\d{3})s\}")
TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def blocks(path):
    """Yields (tags, movetext) per complete game block of a record file."""
    tags, text, in_moves = {}, [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = TAG.match(line)
            if m and not in_moves:
                tags[m.group(1)] = m.group(2)
            elif line == "" and tags and not in_moves:
                in_moves = True
            elif line == "" and in_moves:
                yield tags, " ".join(text)
                tags, text, in_moves = {}, [], False
            elif in_moves:
                text.append(line)


def quantile(sorted_values, q):
    if not sorted_values:
        return None
    i = min(len(sorted_values) - 1, int(q * len(sorted_values)))
    return sorted_values[i]


def row(path):
    games = forfeits = 0
    over = []  # T - B per move, ms
    worst_time = 0
    lowest_budget = None
    name = variant = control = "?"
    details = []
    for tags, text in blocks(path):
        games += 1
        variant = tags.get("Variant", variant)
        control = tags.get("TimeControl", control)
        if tags.get("Termination") == "time-forfeit":
            forfeits += 1
            m = re.search(r"\{([^}]*answered[^}]*)\}", text)
            details.append(m.group(1) if m else "?")
            # The forfeited move is not in the movetext: its time is in the closing comment.
            after = re.search(r"after (\d+) ms", m.group(1) if m else "")
            if after:
                worst_time = max(worst_time, int(after.group(1)))
        for m in COMMENT.finditer(text):
            t = int(m.group(1)) * 1000 + int(m.group(2))
            b = int(m.group(3)) * 1000 + int(m.group(4))
            over.append(t - b)
            worst_time = max(worst_time, t)
            lowest_budget = b if lowest_budget is None else min(lowest_budget, b)
    over.sort()
    on_flag = sum(1 for d in over if d >= 0)
    cells = [quantile(over, q) for q in (0.5, 0.99, 0.999)] + [over[-1] if over else None]
    fmt = lambda v: "-" if v is None else f"{v:+d}"
    print(
        f"| {variant} | {control} | {games} | {forfeits} | {len(over)} | {on_flag} | "
        + " | ".join(fmt(c) for c in cells)
        + f" | {worst_time} | {lowest_budget if lowest_budget is not None else '-'} |"
    )
    for d in details:
        print(f"|   forfeit: {d} |", file=sys.stderr)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(
        "| game | control | games | time forfeits | moves timed | moves on the flag "
        "| T-B p50 ms | p99 | p99.9 | max | worst answer ms | lowest budget ms |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in sys.argv[1:]:
        row(path)


if __name__ == "__main__":
    main()
