#!/usr/bin/env python3
"""The shape of one thread's searches along games (docs/strength.md, "Where the second thread
loses"): for each position of a games file of benches/smp/game_ttd.py, the root's legal moves
(`perft 1`) and the nodes of every iteration of `go depth D` with Threads 1, the table and
history kept from move to move as in a match. Node counts of one thread do not depend on the
machine's load, so this runs beside anything.

Prints the mean root moves, the median nodes to depth D, the median share of those nodes
spent in the last iteration, and the median growth of the last iteration over the one before.

    benches/smp/tree_stats.py BINARY GAMES DEPTH
"""
import statistics
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ left in benches/smp
sys.path.insert(0, str(Path(__file__).resolve().parent))
from game_ttd import Engine, read_games  # noqa: E402


def positions(binary, path, depth):
    """(root moves, {iteration depth: nodes so far}) for every position of the games file."""
    rows = []
    for game, _, first, moves in read_games(path):
        engine = Engine(binary, game, 1)
        for ply in range(first, len(moves) + 1):
            position = "position startpos moves " + " ".join(moves[:ply])
            engine.send(position)
            engine.send("perft 1")
            legal = int(engine.wait_for("Nodes")[-1].split()[-1])
            engine.send(position)
            engine.send(f"go depth {depth}")
            nodes = {}
            for line in engine.wait_for("bestmove"):
                words = line.split()
                if words[:2] == ["info", "depth"] and "pv" in words and "nodes" in words:
                    nodes[int(words[2])] = int(words[words.index("nodes") + 1])
            rows.append((legal, nodes))
        engine.close()
    return rows


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, path, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rows = positions(binary, path, depth)
    full = [n for _, n in rows if all(d in n for d in (depth, depth - 1, depth - 2))]
    if not full:
        sys.exit(f"no position reported iterations {depth - 2} to {depth}")
    last = [n[depth] - n[depth - 1] for n in full]
    before = [n[depth - 1] - n[depth - 2] for n in full]
    print(f"{path}, depth {depth}: {len(rows)} positions ({len(full)} with iterations "
          f"{depth - 2}-{depth}); root moves {statistics.mean(r[0] for r in rows):.1f}; "
          f"nodes to depth {depth} {statistics.median(n[depth] for n in full):.0f}; "
          f"last iteration's share {statistics.median(a / n[depth] for a, n in zip(last, full)):.2f}; "
          f"its growth over the one before {statistics.median(a / max(b, 1) for a, b in zip(last, before)):.1f}x")


if __name__ == "__main__":
    main()
