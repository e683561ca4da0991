"""The move comments of a match record's movetext, one per ply, as src/record/mod.rs writes
them: `{score/depth time of budget}`, the score the mover's (`+35`, `-M2`, `?` if none), the
depth `?` if none, ` of budget` left out when the move had no time limit. Every move has one,
so the ply of a comment is its index even where the score or depth is missing; the game's
closing comment (`{player one wins by the rules}`) matches nothing.

Shared by benches/smp/decided_by_ply.py and benches/smp/depth_by_ply.py.
"""
import re

COMMENT = re.compile(r"\{([+-]?M?\d+|\?)/(\d+|\?) ([\d.]+)s(?: of [\d.]+s)?\}")
# A mate score, in centipawns: above any evaluation.
MATE = 1_000_000


def moves(text):
    """(score in cp from the mover's side with mates as ±MATE or None, depth or None, seconds)
    of every move of `text`, in ply order."""
    for m in COMMENT.finditer(text):
        score, depth, seconds = m.groups()
        if score == "?":
            cp = None
        else:
            cp = MATE if "M" in score else int(score.lstrip("+-"))
            if score.startswith("-"):
                cp = -cp
        yield cp, None if depth == "?" else int(depth), float(seconds)
