#!/usr/bin/env python3
"""Time to depth along whole games (docs/strength.md, "Time to depth along games"): one
engine process per configuration plays through each game of GAMES, searching every
position from its first ply on with `go depth D`, its table and history kept from move to
move as in a real game. The sum
of the times the engine reports for depth D is that configuration's figure; runs alternate
between configurations and the median of RUNS is kept. Prints each configuration's median
and its ratio to the first one's, and the geometric mean over positions of the ratio of
their times (each position's time the median of its runs), which the few longest searches
do not dominate.

Where benches/smp/time_to_depth.sh times one deep search of a fresh engine, this times the
short searches of a game at a fast time control (a Tactigon move at 10+0.1 gets about 0.2 s).
Run it alone on the machine: N threads need N free cores.

    benches/smp/game_ttd.py [--runs R] [--games FILE] CONFIG...

A CONFIG is `BINARY:THREADS`, e.g. `target/release/ludus:1 target/release/ludus:2`.
GAMES lines are `game|depth|first ply|position startpos moves …` (default
benches/smp/games.txt).
"""
import argparse
import math
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


def read_games(path):
    games = []
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        game, depth, first, position = line.split("|", 3)
        words = position.split()
        if words[:3] != ["position", "startpos", "moves"]:
            sys.exit(f"{path}: expected 'position startpos moves …', got {position[:40]!r}")
        games.append((game, int(depth), int(first), words[3:]))
    return games


class Engine:
    def __init__(self, binary, game, threads):
        self.proc = subprocess.Popen(
            [binary, "--game", game], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in [("Threads", threads), ("Searcher", "alphabeta"),
                            ("SolvedBook", "false")]:
            self.send(f"setoption name {name} value {value}")
        self.send("uginewgame")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word):
        lines = []
        for line in self.proc.stdout:
            lines.append(line)
            if line.split()[:1] == [word]:
                return lines
        sys.exit(f"the engine ended (or was killed after --limit seconds) before '{word}'")

    def time_to(self, moves, depth, limit):
        """The time (ms) the engine reports for `depth` from the position after `moves`."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go depth {depth}")
        started = time.monotonic()
        # A search past the limit is killed: the bench then ends with the reason, not a hang.
        watchdog = threading.Timer(limit, self.proc.kill)
        watchdog.start()
        try:
            lines = self.wait_for("bestmove")
        finally:
            watchdog.cancel()
        found = None
        for line in lines:
            words = line.split()
            if words[:2] != ["info", "depth"] or "pv" not in words:
                continue
            d = int(words[2])
            if d >= depth and found is None and "time" in words:
                found = int(words[words.index("time") + 1])
        # A proven or forced position may end below `depth`: the wall time to its bestmove counts.
        return found if found is not None else int((time.monotonic() - started) * 1000)

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def parse_config(config):
    """`BINARY:THREADS` as (binary, threads); exits with the reason if it is not one."""
    binary, _, threads = config.rpartition(":")
    if not binary or not threads.isdigit():
        sys.exit(f"a config is BINARY:THREADS, got {config!r}")
    return binary, int(threads)


def one_run(binary, threads, games, limit):
    """The time to depth (ms) of every position, in the games' order."""
    times = []
    for game, depth, first, moves in games:
        engine = Engine(binary, game, threads)
        for ply in range(first, len(moves) + 1):
            times.append(engine.time_to(moves[:ply], depth, limit))
        engine.close()
    return times


def geometric_mean_ratio(base, times):
    """The geometric mean over positions of `base`'s time over `times`' (each a list of runs,
    each run a list of times per position; a position's time is the median of its runs, at
    least 1 ms so that a search answered at once does not divide by zero)."""
    per_base = [statistics.median(runs) for runs in zip(*base)]
    per_mine = [statistics.median(runs) for runs in zip(*times)]
    logs = [math.log(max(1, b) / max(1, m)) for b, m in zip(per_base, per_mine)]
    return math.exp(statistics.fmean(logs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default=str(Path(__file__).with_name("games.txt")))
    parser.add_argument("--limit", type=float, default=60.0, help="seconds a search may take before the engine is killed")
    parser.add_argument("configs", nargs="+", metavar="BINARY:THREADS")
    args = parser.parse_args()
    games = read_games(args.games)
    configs = [parse_config(c) for c in args.configs]
    times = {c: [] for c in configs}
    for run in range(args.runs):
        for c in configs:
            times[c].append(one_run(c[0], c[1], games, args.limit))
            print(f"run {run + 1}: {c[0]} Threads {c[1]}: {sum(times[c][-1])} ms",
                  file=sys.stderr)
    sums = {c: [sum(run) for run in times[c]] for c in configs}
    base = statistics.median(sums[configs[0]])
    for c in configs:
        m = statistics.median(sums[c])
        ratio = geometric_mean_ratio(times[configs[0]], times[c])
        print(f"{c[0]} Threads {c[1]}: {m:.0f} ms (runs {sums[c]}), {base / m:.2f}x the first; "
              f"position by position {ratio:.2f}x (geometric mean)")


if __name__ == "__main__":
    main()
