#!/usr/bin/env python3
"""Where a move's time goes under a clock (docs/strength.md, "Cut iterations"): one engine
process per configuration plays through each game of GAMES, searching every position from
its first ply on with `go wtime T btime T winc I binc I`, its table kept from move to move
as in a real game. For each move it reads the `info` lines with a score and counts:

- *cut*: the last line repeats the depth of the line before it (a limit cut an iteration
  and the search answered with the last finished iteration's line again);
- *after*: the time from the first line of the last reported depth to `bestmove`, summed
  (the time spent in an iteration that was cut and whose work was not played).

Builds since 26dbb91 answer a cut iteration that found a better move with that move's line
(one ply deeper), which this counts as a finished iteration: for them *cut* and *after*
count only the cuts that found nothing better.

    benches/smp/cut_time.py [--games FILE] [--clock T] [--inc I] CONFIG...

A CONFIG is `BINARY:THREADS`. GAMES lines are those of game_ttd.py (default
benches/smp/games-late.txt); the depth column is not used.
"""
import argparse
import time
from pathlib import Path

from game_ttd import Engine, parse_config, read_games


def one_move(engine, moves, clock, inc):
    """(cut, ms after the last reported depth's first line, ms in all) of one search."""
    engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    started = time.monotonic()
    engine.send(f"go wtime {clock} btime {clock} winc {inc} binc {inc}")
    lines = engine.wait_for("bestmove")
    spent = (time.monotonic() - started) * 1000
    scored = [line.split() for line in lines if line.startswith("info ") and " score " in line]
    if not scored:
        return False, spent, spent
    depths = [int(w[w.index("depth") + 1]) for w in scored]
    first_at = next(
        int(w[w.index("time") + 1]) for w, d in zip(scored, depths) if d == depths[-1])
    cut = len(depths) >= 2 and depths[-1] == depths[-2]
    return cut, max(0.0, spent - first_at), spent


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=str(Path(__file__).with_name("games-late.txt")))
    parser.add_argument("--clock", type=int, default=1000, help="wtime and btime in ms")
    parser.add_argument("--inc", type=int, default=100, help="winc and binc in ms")
    parser.add_argument("configs", nargs="+", metavar="BINARY:THREADS")
    args = parser.parse_args()
    games = read_games(args.games)
    for binary, threads in map(parse_config, args.configs):
        moves = cuts = 0
        after = spent = 0.0
        for game, _depth, first, line in games:
            engine = Engine(binary, game, threads)
            for ply in range(first, len(line) + 1):
                cut, lost, total = one_move(engine, line[:ply], args.clock, args.inc)
                moves += 1
                cuts += cut
                after += lost
                spent += total
            engine.close()
        print(f"{binary} Threads {threads}: {moves} moves, cut {cuts} ({100 * cuts / moves:.0f} %), "
              f"{spent / moves:.0f} ms a move, {after / moves:.0f} ms of it after the last "
              f"reported depth's first line ({100 * after / spent:.0f} %)")


if __name__ == "__main__":
    main()
