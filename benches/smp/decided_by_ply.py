#!/usr/bin/env python3
"""Where a match's games were decided: for each won game, the first ply from which every
move's score, as the engines reported it in the record's comments (`{score/depth T of B}`),
stays at or above THRESHOLD centipawns for the winner to the end; counted by winner and by
stretch of plies, as in docs/strength.md ("Where the games are decided"). Drawn games are
counted by their length. Plies are counted from the first move after the opening; the two
engines are taken to alternate, P1 first (as in Tactigon's records), each score being the
mover's (benches/smp/move_comments.py); a move without a score neither holds nor breaks the
run. Mate scores count as won. Reads the records with benches/clock/report.py's `blocks`.

    python3 benches/smp/decided_by_ply.py RECORD.pgn [THRESHOLD [PLIES_PER_STRETCH]]
    (defaults: 150 centipawns, 40 plies)
"""
import collections
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ left in benches/clock or benches/smp
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clock"))
from report import blocks  # noqa: E402
from move_comments import moves  # noqa: E402


def p1_scores(text):
    """Every move's score from P1's side (None where the mover reported none), in ply order."""
    return [None if cp is None else (cp if ply % 2 == 0 else -cp)
            for ply, (cp, _, _) in enumerate(moves(text))]


def decided_at(scores, threshold):
    """The first ply from which every score is at least `threshold`, missing ones skipped
    (the game's length if the last one is below it)."""
    ply = len(scores)
    while ply > 0 and (scores[ply - 1] is None or scores[ply - 1] >= threshold):
        ply -= 1
    return ply


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    try:
        threshold = int(sys.argv[2]) if len(sys.argv) > 2 else 150
        stretch = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    except ValueError:
        sys.exit("THRESHOLD and PLIES_PER_STRETCH are whole numbers\n" + __doc__)
    if stretch < 1:
        sys.exit("PLIES_PER_STRETCH must be at least 1")
    if not Path(sys.argv[1]).is_file():
        sys.exit(f"{sys.argv[1]}: not a file")
    tally = collections.Counter()
    for tags, text in blocks(sys.argv[1]):
        scores = p1_scores(text)
        result = tags.get("Result")
        if result == "1-0":
            who, ply = tags.get("P1", "?"), decided_at(scores, threshold)
        elif result == "0-1":
            who = tags.get("P2", "?")
            ply = decided_at([None if s is None else -s for s in scores], threshold)
        elif result == "1/2-1/2":
            who, ply = "drawn", len(scores)
        else:
            continue
        tally[(who, ply // stretch)] += 1
    names = sorted({who for who, _ in tally})
    for part in sorted({p for _, p in tally}):
        counts = "  ".join(f"{who} {tally[(who, part)]:4d}" for who in names)
        print(f"plies {part * stretch:3d}-{part * stretch + stretch - 1:3d}  {counts}")
    totals = "  ".join(
        f"{who} {sum(n for (w, _), n in tally.items() if w == who):4d}" for who in names
    )
    print(f"all           {totals}")


if __name__ == "__main__":
    main()
