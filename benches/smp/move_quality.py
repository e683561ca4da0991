#!/usr/bin/env python3
"""How good the moves are that each configuration plays under a clock, judged by a deeper
search (docs/strength.md, "Where the second thread loses"): a cheaper, lower-variance look
at what a match measures. One engine process per configuration plays through each game of
GAMES, searching every position from its first ply on with `go wtime T btime T winc I binc
I` (its table kept from move to move, as in a match); the reference engine searches the same
positions with `go depth D` (D the file's depth column) and, for every move a configuration
chose that is not the reference's, `go depth D searchmoves MOVE`. A move's loss is the
reference's best score less its score for that move (cp, at most --cap; 0 when it is the
reference's move).

Prints, per configuration: positions, how often its move lost nothing (the reference's
move, or one the reference scores as high), its mean loss; and against the first
configuration, the mean difference of the losses with its 95 % error bar (paired by
position) and how many positions each did better. With --play-only, no reference: only the
depth each configuration's searches reported last (their mean and how many of each), as the
depths in a match record's comments.

    benches/smp/move_quality.py [--games FILE] [--clock T] [--inc I] [--ref BINARY:THREADS]
                                [--play-only] CONFIG...

A CONFIG is `BINARY:THREADS` or `BINARY:THREADS:SCALE`, SCALE multiplying its clock and
increment (`ludus:1:2` is one thread with twice the time). The reference defaults to the
first configuration's binary with one thread. GAMES lines are those of game_ttd.py (default
benches/smp/games-late.txt). Run it alone on the machine: N threads need N free cores.
"""
import argparse
import math
import statistics
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ left in benches/smp
from game_ttd import Engine, read_games  # noqa: E402
from game_ttd import parse_config as game_ttd_config  # noqa: E402

MATE = 100_000


def parse_config(config):
    """`BINARY:THREADS[:SCALE]` as (binary, threads, scale); exits if it is not one."""
    scale = 1.0
    if config.count(":") >= 2:
        config, _, last = config.rpartition(":")
        try:
            scale = float(last)
        except ValueError:
            sys.exit(f"a config's SCALE is a number, got {last!r}")
        if not scale > 0:
            sys.exit(f"a config's SCALE is above 0, got {last!r}")
    binary, threads = game_ttd_config(config)
    return binary, threads, scale


def search(engine, moves, go):
    """(bestmove, the last reported score in cp with mates as ±MATE, the last reported depth)
    of one `go`."""
    engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    engine.send(go)
    score = None
    best = None
    depth = 0
    for line in engine.wait_for("bestmove"):
        words = line.split()
        if words[:1] == ["bestmove"] and len(words) >= 2:
            best = words[1]
        elif words[:2] == ["info", "depth"] and "score" in words:
            kind, value = words[words.index("score") + 1: words.index("score") + 3]
            value = int(value)
            score = value if kind == "cp" else (MATE if value > 0 else -MATE)
            depth = int(words[2])
    if best is None or score is None:
        sys.exit(f"no bestmove or score for `{go}` after {' '.join(moves[-4:])}")
    return best, score, depth


def play(config, games, clock, inc):
    """The move the configuration plays in every position, in the games' order, and the
    depth its search reported last."""
    binary, threads, scale = config
    go = f"go wtime {round(clock * scale)} btime {round(clock * scale)} " \
         f"winc {round(inc * scale)} binc {round(inc * scale)}"
    chosen = []
    depths = []
    for game, _depth, first, line in games:
        engine = Engine(binary, game, threads)
        for ply in range(first, len(line) + 1):
            move, _, depth = search(engine, line[:ply], go)
            chosen.append(move)
            depths.append(depth)
        engine.close()
    return chosen, depths


def losses(reference, games, choices, cap):
    """Per configuration, the loss of its move in every position (see the module's doc)."""
    binary, threads, _ = reference
    result = [[] for _ in choices]
    index = 0
    for game, depth, first, line in games:
        engine = Engine(binary, game, threads)
        for ply in range(first, len(line) + 1):
            best, score, _ = search(engine, line[:ply], f"go depth {depth}")
            known = {best: 0}
            for c, chosen in enumerate(choices):
                move = chosen[index]
                if move not in known:
                    _, its, _ = search(engine, line[:ply], f"go depth {depth} searchmoves {move}")
                    known[move] = min(cap, max(0, score - its))
                result[c].append(known[move])
            index += 1
        engine.close()
        print(f"judged: {index} positions", file=sys.stderr)
    return result


def depth_counts(depths):
    """How many searches reported each last depth, as `depth:count` words."""
    return " ".join(f"{d}:{depths.count(d)}" for d in sorted(set(depths)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=str(Path(__file__).with_name("games-late.txt")))
    parser.add_argument("--clock", type=int, default=1000, help="wtime and btime in ms")
    parser.add_argument("--inc", type=int, default=100, help="winc and binc in ms")
    parser.add_argument("--cap", type=int, default=1000, help="the most one move may lose, cp")
    parser.add_argument("--ref", help="BINARY:THREADS of the reference (default: the first "
                        "configuration's binary, one thread)")
    parser.add_argument("--play-only", action="store_true", help="print only the depths the "
                        "configurations reached: no reference, no judging")
    parser.add_argument("configs", nargs="+", metavar="BINARY:THREADS[:SCALE]")
    args = parser.parse_args()
    games = read_games(args.games)
    configs = [parse_config(c) for c in args.configs]
    reference = parse_config(args.ref) if args.ref else (configs[0][0], 1, 1.0)
    choices = []
    for name, config in zip(args.configs, configs):
        moves, depths = play(config, games, args.clock, args.inc)
        choices.append(moves)
        print(f"{name}: {len(depths)} positions, mean depth {statistics.fmean(depths):.2f}, "
              f"depths {depth_counts(depths)}", file=sys.stderr if not args.play_only else None)
    if args.play_only:
        return
    lost = losses(reference, games, choices, args.cap)
    base = lost[0]
    for name, mine in zip(args.configs, lost):
        n = len(mine)
        agree = sum(1 for x in mine if x == 0)
        row = f"{name}: {n} positions, moves losing nothing {100 * agree / n:.1f} %, " \
              f"mean loss {statistics.fmean(mine):.1f} cp"
        if mine is not base:
            diff = [a - b for a, b in zip(mine, base)]
            spread = 1.96 * statistics.stdev(diff) / math.sqrt(n) if n > 1 else float("nan")
            better = sum(1 for d in diff if d < 0)
            worse = sum(1 for d in diff if d > 0)
            row += f"; against the first {statistics.fmean(diff):+.1f} ± {spread:.1f} cp, " \
                   f"better in {better}, worse in {worse}"
        print(row)


if __name__ == "__main__":
    main()
