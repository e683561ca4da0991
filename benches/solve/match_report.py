#!/usr/bin/env python3
"""Which side the solution says wins each game of benches/solve/match.sh, and whether it won.

usage: match_report.py LUDUS PGN...

The solution's winner of a game's opening position comes from ludus itself: the solved book
answers every position down to 2 plies with `score mate N`, N > 0 exactly when the side to
move wins (its certificate claims them all). RULES in the environment (e.g.
"Sight_StrictTallest=true") gives the rule options, as to match.sh. Prints, per engine, its
record on the winning side and on the losing side; the book-playing engine must never lose on
the winning side.
"""
import os
import re
import subprocess
import sys
from collections import Counter


def games(path):
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        if tags:
            yield tags


def side_to_move_wins(ludus, moves, cache):
    if moves not in cache:
        args = [ludus, "go", "--game", "sight", "--depth", "1", "--info"]
        for rule in os.environ.get("RULES", "").split():
            args += ["--option", rule]
        if moves:
            args += ["--moves", moves]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        mate = re.search(r" score mate (-?\d+) nodes 0 ", out)
        if not mate:
            sys.exit(f"the book does not answer the opening '{moves}': {out}")
        cache[moves] = int(mate.group(1)) > 0
    return cache[moves]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ludus, paths = sys.argv[1], sys.argv[2:]
    cache = {}
    record = Counter()
    for path in paths:
        for g in games(path):
            opening = g.get("Opening", "startpos")
            moves = opening.split(" moves ", 1)[1] if " moves " in opening else ""
            plies = len(moves.split())
            mover = "P1" if plies % 2 == 0 else "P2"
            other = "P2" if mover == "P1" else "P1"
            winner_seat = mover if side_to_move_wins(ludus, moves, cache) else other
            result = g["Result"]
            won_seat = {"1-0": "P1", "0-1": "P2"}.get(result)
            for seat in ("P1", "P2"):
                side = "winning" if seat == winner_seat else "losing"
                outcome = "win" if won_seat == seat else ("loss" if won_seat else "draw")
                record[(g[seat], side, outcome)] += 1
    for engine in sorted({k[0] for k in record}):
        for side in ("winning", "losing"):
            w, l, d = (record[(engine, side, o)] for o in ("win", "loss", "draw"))
            print(f"{engine:8} on the {side} side: {w + l + d:4} games, {w} won, {l} lost, {d} drawn")
    lost = record[("book", "winning", "loss")] + record[("book", "winning", "draw")]
    print("book never lost on the winning side" if lost == 0 else f"book LOST {lost} games on the winning side")
    sys.exit(1 if lost else 0)


main()
