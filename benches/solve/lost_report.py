#!/usr/bin/env python3
"""Compares the two runs of benches/solve/lost_match.sh game by game: per rule variant and
ludus's colour, ludus's score against greedy with the solved book and without it, and the
games the book lost that the bookless engine won (issue 31 asks for none).

    python3 benches/solve/lost_report.py target/lost-match
"""
import re
import sys
from pathlib import Path


def games(path):
    """Game number -> (ludus's colour, ludus's points, opening) from a match's PGN."""
    out = {}
    for block in path.read_text().split('[Event ')[1:]:
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        colour = 'White' if tags['P1'] == 'ludus' else 'Black'
        points = {'1-0': (1, 0), '0-1': (0, 1), '1/2-1/2': (0.5, 0.5)}[tags['Result']]
        out[int(tags['Game'])] = (colour, points[0 if colour == 'White' else 1], tags['Opening'])
    return out


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else 'target/lost-match')
    print('| rules | ludus plays | games | with the book | with `SolvedBook false` | '
          'book lost, bookless won | book won, bookless lost |')
    print('|---|---|---|---|---|---|---|')
    for strict in ['false', 'true']:
        book = games(out / f'strict-{strict}-book-true.pgn')
        plain = games(out / f'strict-{strict}-book-false.pgn')
        rules = 'strict_tallest' if strict == 'true' else 'official'
        worse = []
        for colour in ['White', 'Black']:
            ids = sorted(g for g in book if g in plain and book[g][0] == colour)
            b = sum(book[g][1] for g in ids)
            p = sum(plain[g][1] for g in ids)
            lost = [g for g in ids if book[g][1] < plain[g][1]]
            won = [g for g in ids if book[g][1] > plain[g][1]]
            worse += [(g, book[g][2]) for g in lost]
            print(f'| {rules} | {colour} | {len(ids)} | {b:g} | {p:g} | {len(lost)} | {len(won)} |')
        for g, opening in worse:
            print(f'  {rules}: game {g} ({opening}) lost with the book, won without', file=sys.stderr)


if __name__ == '__main__':
    main()
