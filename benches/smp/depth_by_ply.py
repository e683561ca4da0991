#!/usr/bin/env python3
"""Average search depth and time per move, by engine and by stretch of plies, from a match
record's move comments (`{score/depth time of clock}`), as in docs/strength.md, "Where the
second thread loses". Moves of depth above 11 (proven ends) are left out.

    benches/smp/depth_by_ply.py RECORD.pgn [PLIES_PER_STRETCH]   (default 40)
"""
import collections
import re
import sys

COMMENT = re.compile(r"(\S+)/(\d+) ([\d.]+)s of ([\d.]+)s")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    stretch = int(sys.argv[2]) if len(sys.argv) == 3 else 40
    text = open(sys.argv[1], encoding="utf-8").read()
    totals = collections.defaultdict(lambda: [0, 0.0, 0])
    for game in text.split("[Event ")[1:]:
        first = re.search(r'\[P1 "([^"]+)"', game).group(1)
        second = re.search(r'\[P2 "([^"]+)"', game).group(1)
        body = game.split("\n\n", 1)[1]
        for ply, comment in enumerate(re.findall(r"\{([^}]*)\}", body)):
            m = COMMENT.match(comment)
            if not m or int(m.group(2)) > 11:
                continue
            who = first if ply % 2 == 0 else second
            t = totals[(who, ply // stretch)]
            t[0] += 1
            t[1] += float(m.group(3))
            t[2] += int(m.group(2))
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
