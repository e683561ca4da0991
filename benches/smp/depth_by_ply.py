#!/usr/bin/env python3
"""Average search depth and time per move, by engine and by stretch of plies, from a match
record's move comments (`{score/depth T of B}`), as in docs/strength.md, "Where the second
thread loses". Plies are counted from the first move after the opening; the two engines are
taken to alternate, P1 first (as in Tactigon's records; benches/smp/move_comments.py). Moves
of depth above 11 (proven ends) or without a depth are left out. Reads the records with benches/clock/report.py's `blocks`.

    python3 benches/smp/depth_by_ply.py RECORD.pgn [PLIES_PER_STRETCH]   (default 40)
"""
import collections
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ left in benches/clock or benches/smp
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clock"))
from report import blocks  # noqa: E402
from move_comments import moves  # noqa: E402


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    stretch = int(sys.argv[2]) if len(sys.argv) == 3 else 40
    totals = collections.defaultdict(lambda: [0, 0.0, 0])
    for tags, text in blocks(sys.argv[1]):
        players = (tags.get("P1", "?"), tags.get("P2", "?"))
        for ply, (_, depth, seconds) in enumerate(moves(text)):
            if depth is None or depth > 11:
                continue
            t = totals[(players[ply % 2], ply // stretch)]
            t[0] += 1
            t[1] += seconds
            t[2] += depth
    engines = sorted({who for who, _ in totals})
    for part in sorted({p for _, p in totals}):
        row = [f"plies {part * stretch:3d}-{part * stretch + stretch - 1:3d}"]
        for who in engines:
            n, time, depth = totals.get((who, part), (0, 0.0, 0))
            if n:
                row.append(f"{who}: moves {n:5d} time {time / n:.3f}s depth {depth / n:.2f}")
        print("  ".join(row))


if __name__ == "__main__":
    main()
