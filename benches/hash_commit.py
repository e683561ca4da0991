#!/usr/bin/env python3
"""How long a new `Hash` table takes to be in place, and how fast `quit`, `stop` and a `go`
answer around it (issue 57 F2; the figures are in protocol.md, `Hash` and `isready`).

    python3 benches/hash_commit.py [LUDUS] [--sizes 1024,4096] [--runs 5]

For each size and run, a fresh engine (Tactigon: no solved book to wait for) is made ready,
then timed from `setoption name Hash value N` + `isready` to `readyok` (the table written),
`go movetime 100` after it to `bestmove`, `stop` during the next commit of that size (with a
`go infinite` sent during it) to `bestmove`, and `quit` during a third commit to the exit.
Write the machine's load beside the figures: they are wall times.
"""

import argparse
import subprocess
import time


def engine(binary):
    p = subprocess.Popen([binary, "--game", "tactigon"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
    send(p, "isready")
    wait(p, "readyok")
    return p


def send(p, *lines):
    p.stdin.write("".join(line + "\n" for line in lines))
    p.stdin.flush()


def wait(p, prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit(f"the engine closed its output before '{prefix}'")
        if line.startswith(prefix):
            return


def one_run(binary, mib):
    p = engine(binary)
    t = time.monotonic()
    send(p, f"setoption name Hash value {mib}", "isready")
    wait(p, "readyok")
    ready = time.monotonic() - t
    t = time.monotonic()
    send(p, "position startpos", "go movetime 100")
    wait(p, "bestmove")
    go = time.monotonic() - t
    send(p, "setoption name Hash value 1", f"setoption name Hash value {mib}", "go infinite")
    time.sleep(0.05)
    t = time.monotonic()
    send(p, "stop")
    wait(p, "bestmove")
    stop = time.monotonic() - t
    send(p, "setoption name Hash value 1", f"setoption name Hash value {mib}", "isready")
    t = time.monotonic()
    send(p, "quit")
    p.wait()
    quit_ = time.monotonic() - t
    return ready, go, stop, quit_


def main():
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("ludus", nargs="?", default="target/release/ludus")
    args.add_argument("--sizes", default="1024,4096")
    args.add_argument("--runs", type=int, default=5)
    a = args.parse_args()
    for mib in (int(s) for s in a.sizes.split(",")):
        runs = [one_run(a.ludus, mib) for _ in range(a.runs)]
        ready = sorted(r[0] for r in runs)
        median = ready[len(ready) // 2]
        print(f"Hash {mib} MiB: readyok after {', '.join(f'{r:.2f}' for r in ready)} s "
              f"(median {median:.2f} s, {median * 1024 / mib:.2f} s/GiB); "
              f"go movetime 100 after it: {max(r[1] for r in runs) * 1000:.0f} ms at most; "
              f"stop during a commit: {max(r[2] for r in runs) * 1000:.0f} ms at most; "
              f"quit during a commit: {max(r[3] for r in runs) * 1000:.0f} ms at most")


if __name__ == "__main__":
    main()
