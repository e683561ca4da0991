//! What the Isaac test vectors TV1–TV11 of `docs/rules/isaac.md` §8 share: the vectors' positions
//! as FEN, reading and playing positions under any rule switches, and exact checks of legal
//! move lists (with their canonical order), of the FEN after a move and of the points each
//! removable tile earns.

use std::collections::BTreeMap;

use ludus::game::Game;
use ludus::game::isaac::{Isaac, IsaacMove, IsaacRules, Phase};

use super::isaac_reference::{RefIsaac, RefRules};

/// Scoring-phase endgames small enough to brute-force: TV4, TV5 (and its Light-side variant),
/// TV6, TV7, TV8 and TV8 after Light's pass. In the last two Light is out and Dark removes
/// alone, so the same side moves again and again.
pub const SCORING_ENDGAMES: [&str; 7] = [
    "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0",
    "D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0",
    "D3h13,D3v39,L3h55,L3v58 00000/00000 l S - 12/85 5/0",
    "D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0",
    "D5v00,D5h11,D7v28,D4h54,D6h94 00000/00000 d S - 0/0 5/0",
    "L3h11,D3h30,D3v34,D4h50 00000/00000 l S - 12/0 0/0",
    "L3h11,D3h30,D3v34,D4h50 00000/00000 d S l 12/0 0/0",
];

/// TV1: the start position.
pub const TV1: &str = "- 54321/54321 d P - 0/0 0/0";
/// TV2: after `7h00`.
pub const TV2: &str = "D7h00 54320/54321 l P - 0/0 0/0";
/// TV3's tiles (every row filled horizontally; 97, 98, 99 empty).
pub const TV3_TILES: &str = "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93";
/// TV3: Light to place, with only `pass`.
pub const TV3: &str = "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93 10201/00011 l P - 0/0 0/0";
/// TV3 step 2: after Light's pass (the document abbreviates the tiles).
pub const TV3_PASSED: &str = "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93 10201/00011 d P l 0/0 0/0";
/// TV3 step 3: after `3h97`, Dark to move again.
pub const TV3_PLACED: &str = "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93,D3h97 00201/00011 d P l 0/0 0/0";
/// TV3 step 4: the scoring phase, Light (the first passer) to move.
pub const TV3_SCORING: &str = "D6h00,D4h06,D6h10,L4h16,L6h20,D4h26,L5h30,L5h35,L5h40,D5h45,D3h50,D3h53,L4h56,D3h60,D3h63,D4h66,L3h70,L3h73,L4h76,L3h80,L3h83,L4h86,L3h90,D4h93,D3h97 00201/00011 l S - 0/0 0/0";
/// TV4: horizontal removal, ×4.
pub const TV4: &str = "L3v07,L3v09,L3h20,D4h23,D3v31,D5h60,D3h70 00000/00000 d S - 28/79 3/0";
/// TV4 after `x4h23+24`.
pub const TV4_AFTER: &str = "L3v07,L3v09,L3h20,D3v31,D5h60,D3h70 00000/00000 l S - 52/79 4/0";
/// TV5: collision with the other counter.
pub const TV5: &str = "D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0";
/// TV5 after `x5h50+9`.
pub const TV5_AFTER: &str = "D3h13,D3v39,L3h55,L3v58 00000/00000 l S - 19/85 5/0";
/// TV5's Light-side variant.
pub const TV5_LIGHT: &str = "D3h13,D3v39,L3h55,L3v58 00000/00000 l S - 12/85 5/0";
/// TV6: reaching 100.
pub const TV6: &str = "D4h60,L3v64,L3h65,L3v68,D3v69 00000/00000 d S - 95/1 0/0";
/// TV6 after `x4h60+5`.
pub const TV6_END: &str = "L3v64,L3h65,L3v68,D3v69 00000/00000 - E - 100/1 4/0";
/// TV7: size floor and locks.
pub const TV7: &str = "D5v00,D5h11,D7v28,D4h54,D6h94 00000/00000 d S - 0/0 5/0";
/// TV8: going out is final.
pub const TV8: &str = "L3h11,D3h30,D3v34,D4h50 00000/00000 l S - 12/0 0/0";
/// TV8 step 1: after Light's pass (the document abbreviates the tiles).
pub const TV8_OUT: &str = "L3h11,D3h30,D3v34,D4h50 00000/00000 d S l 12/0 0/0";
/// TV8 step 3: after `x4h50+2`, Dark to move again.
pub const TV8_REMOVED: &str = "L3h11,D3h30,D3v34 00000/00000 d S l 14/0 4/0";
/// TV8 step 5: the end.
pub const TV8_END: &str = "L3h11,D3h30,D3v34 00000/00000 - E dl 14/0 4/0";
/// TV9's three rows (Dark to move, Light out, Dark passes).
pub const TV9: [&str; 3] = [
    "- 10100/00001 d S l 30/30 3/3",
    "- 11000/00001 d S l 30/30 3/3",
    "- 00000/00000 d S l 30/30 3/3",
];
/// TV10: nobody can do anything.
pub const TV10: &str = "- 00000/00000 d P - 0/0 0/0";
/// TV10 after two passes.
pub const TV10_SCORING: &str = "- 00000/00000 d S - 0/0 0/0";
/// TV10 at the end.
pub const TV10_END: &str = "- 00000/00000 - E dl 0/0 0/0";

/// Every FEN printed in the document (TV11 asks for a byte-for-byte round trip of each); the
/// abbreviated ones are written out in full.
pub const DOCUMENT_FENS: [&str; 23] = [
    TV1,
    TV2,
    TV3,
    TV3_PASSED,
    TV3_SCORING,
    TV4,
    TV4_AFTER,
    TV5,
    TV5_AFTER,
    TV5_LIGHT,
    TV6,
    TV6_END,
    TV7,
    TV8,
    TV8_OUT,
    TV8_END,
    TV9[0],
    TV9[1],
    TV9[2],
    TV10,
    TV10_SCORING,
    TV10_END,
    TV3_PLACED,
];

/// The official rules.
pub fn official() -> IsaacRules {
    IsaacRules::default()
}

/// The official rules with the collision rule off (the seed's).
pub fn no_collision() -> IsaacRules {
    IsaacRules {
        collision: false,
        ..IsaacRules::default()
    }
}

/// The official rules plus the seed's early finish.
pub fn early_finish() -> IsaacRules {
    IsaacRules {
        early_finish: true,
        ..IsaacRules::default()
    }
}

/// The reference's switches for the engine's.
pub fn ref_rules(r: IsaacRules) -> RefRules {
    RefRules {
        cells_only: r.cells_only_tiebreak,
        dark_starts_scoring: r.scoring_starter_dark,
        collision: r.collision,
        early_finish: r.early_finish,
    }
}

/// Parses a FEN under `rules`, panicking with the reason if it is rejected.
pub fn pos_with(fen: &str, rules: IsaacRules) -> Isaac {
    Isaac::from_fen(fen, &rules).unwrap_or_else(|e| panic!("'{fen}' rejected: {e}"))
}

/// Parses a FEN under the official rules.
pub fn pos(fen: &str) -> Isaac {
    pos_with(fen, official())
}

/// The legal moves in generation order, as text.
pub fn move_names(p: &Isaac) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves.iter().map(|&m| p.move_to_string(m)).collect()
}

/// The legal moves of the reference implementation for the same position and rules.
pub fn reference_names(p: &Isaac) -> Vec<String> {
    let r = RefIsaac::from_fen(&p.to_fen(), ref_rules(p.rules()))
        .unwrap_or_else(|e| panic!("reference rejects '{}': {e}", p.to_fen()));
    r.legal_moves().iter().map(|m| m.name()).collect()
}

/// Asserts the exact legal-move list in canonical order, and that the reference agrees.
pub fn assert_moves_exact(p: &Isaac, expected: &[&str]) {
    let got = move_names(p);
    assert_eq!(got, expected, "{}: legal moves", p.to_fen());
    assert_eq!(
        reference_names(p),
        expected,
        "{}: reference legal moves",
        p.to_fen()
    );
}

/// Asserts the number of legal moves, and that the reference gives the same list.
pub fn assert_move_count(p: &Isaac, expected: usize) -> Vec<String> {
    let got = move_names(p);
    assert_eq!(got.len(), expected, "{}: number of legal moves", p.to_fen());
    assert_eq!(
        reference_names(p),
        got,
        "{}: engine vs reference",
        p.to_fen()
    );
    got
}

/// Plays `mv` (which must be legal), checks the hash and, when given, the FEN after it.
pub fn play(p: &mut Isaac, mv: &str, after: Option<&str>) {
    let before = p.to_fen();
    p.try_play_str(mv)
        .unwrap_or_else(|e| panic!("{before}: {e}"));
    if let Some(after) = after {
        assert_eq!(p.to_fen(), after, "{before} after {mv}");
    }
    assert_eq!(p.hash(), p.hash_from_scratch(), "{before} after {mv}: hash");
    let reread = Isaac::from_fen(&p.to_fen(), &p.rules());
    assert_eq!(
        reread.as_ref().ok(),
        Some(&*p),
        "{before} after {mv}: reread"
    );
}

/// Plays `mv` from `fen` under `rules`, checks the FEN after it, and returns the position.
pub fn assert_play(fen: &str, rules: IsaacRules, mv: &str, after: &str) -> Isaac {
    let mut p = pos_with(fen, rules);
    play(&mut p, mv, Some(after));
    p
}

/// The legal placements per size 3..=7.
pub fn placements_per_size(p: &Isaac) -> [usize; 5] {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut out = [0; 5];
    for m in moves {
        match m {
            IsaacMove::Place { size, .. } => out[size as usize - 3] += 1,
            other => panic!("{}: {other:?} is not a placement", p.to_fen()),
        }
    }
    out
}

/// The legal placements of one size and orientation.
pub fn placements_of(p: &Isaac, size: u8, vertical: bool) -> usize {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves
        .iter()
        .filter(|m| {
            matches!(m, IsaacMove::Place { size: s, vertical: v, .. } if *s == size && *v == vertical)
        })
        .count()
}

/// Per removable tile (`4h23`), in anchor order: the number of legal choices of `k` and the
/// largest legal `k`, read from the generated moves.
pub fn removal_table(p: &Isaac) -> BTreeMap<u8, (String, usize, u8)> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut table: BTreeMap<u8, (String, usize, u8)> = BTreeMap::new();
    for m in moves {
        let IsaacMove::Remove {
            size,
            vertical,
            anchor,
            k,
        } = m
        else {
            panic!("{}: {m:?} is not a removal", p.to_fen());
        };
        let name = format!("{size}{}{anchor:02}", if vertical { 'v' } else { 'h' });
        let e = table.entry(anchor).or_insert((name, 0, 0));
        e.1 += 1;
        e.2 = e.2.max(k);
    }
    table
}

/// The points `Isaac::earned` gives for the tile with this anchor.
pub fn earned_at(p: &Isaac, anchor: u8) -> u32 {
    let t = p
        .tiles()
        .iter()
        .find(|t| t.anchor == anchor)
        .unwrap_or_else(|| panic!("{}: no tile at {anchor:02}", p.to_fen()));
    p.earned(*t)
}

/// Asserts that the game is over with this winner.
pub fn assert_ended(p: &Isaac, winner: ludus::game::Player) {
    assert_eq!(p.phase(), Phase::Ended, "{}", p.to_fen());
    assert_eq!(
        p.outcome(),
        Some(ludus::game::Outcome::Win(winner)),
        "{}",
        p.to_fen()
    );
    assert!(
        move_names(p).is_empty(),
        "{}: moves after the end",
        p.to_fen()
    );
}
