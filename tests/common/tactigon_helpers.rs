//! What the Tactigon tests share: the positions of the test vectors TV1–TV20
//! (`docs/rules/tactigon.md` §8) as TFN, reading and playing positions under any rule switches, and
//! exact checks of legal-move lists, per-piece destinations and played lines. Every check that
//! involves move generation or play is made on the engine and, in step, on the independent
//! reference (`tactigon_reference.rs`), so a vector passes only if both agree with the document.

use std::collections::BTreeSet;

use ludus::game::Game;
use ludus::game::tactigon::board::{cell_name, parse_cell};
use ludus::game::tactigon::{Tactigon, TactigonRules};

use super::tactigon_reference::{RefPos, RefRules, name, parse_name};

/// TV1: the start, Red to move.
pub const TV1: &str = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0";
/// TV2: the start, Blue to move.
pub const TV2: &str = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 b 0";
/// TV4: after `d6-c13`.
pub const TV4_AFTER: &str = "2/C1C3c1c/1ST3Sts1/CTP1C1csptc/1ST4ts1/C1C3c1c/2 b 1";
/// TV5: circle × square.
pub const TV5: &str = "2/9/10/2P2Cs1p2/10/9/2 r 0";
/// TV5 after `d10-d12`.
pub const TV5_AFTER: &str = "2/9/10/2P3C1p2/10/9/2 b 1";
/// TV6: triangle × circle.
pub const TV6: &str = "2/9/4Tc4/2P5p2/10/9/2 r 0";
/// TV7: square × triangle.
pub const TV7: &str = "2/9/10/2PS4p2/5t4/9/2 r 0";
/// TV6 and TV7 after the mutual destruction: the two pentagons alone.
pub const TWO_PENTAGONS_B1: &str = "2/9/10/2P5p2/10/9/2 b 1";
/// TV8: a square may not attack a circle.
pub const TV8: &str = "2/9/10/2PSc3p2/10/9/2 r 0";
/// TV9: pentagon attacks.
pub const TV9: &str = "2/9/5s4/5Pcp3/10/9/2 r 0";
/// TV10: no passing through pieces.
pub const TV10: &str = "2/9/C9/Sc3P4p/C9/9/2 r 0";
/// TV11: combat ends the move.
pub const TV11: &str = "2/9/C9/Ts3P4p/C9/9/2 r 0";
/// TV12: open board.
pub const TV12: &str = "2/9/10/5P4p/10/9/2 r 0";
/// TV13: gold tiles.
pub const TV13: &str = "2/4C4/10/2P5p1c/4C5/9/2 r 0";
/// TV13 after `e9-f10`.
pub const TV13_AFTER: &str = "2/4C4/10/2P5p1c/10/4C4/2 b 1";
/// TV13 after `d20-d18`: Red has won by gold.
pub const TV13_END: &str = "2/4C4/10/2P5pc1/10/4C4/2 r 2";
/// TV14: the gold pair broken by mutual destruction (Blue to move).
pub const TV14: &str = "2/4C4/10/2P5p2/10/4C1t2/2 b 0";
/// TV15: the same board with Red to move: already over.
pub const TV15: &str = "2/4C4/10/2P5p2/10/4C1t2/2 r 0";
/// TV16: pentagon capture beats a pending gold pair.
pub const TV16: &str = "2/4C4/10/4Pc2p2/10/4C4/2 b 0";
/// TV17: no legal move.
pub const TV17: &str = "Pc/3cc4/10/10p/10/9/2 r 0";
/// TV18: detour longer than the distance.
pub const TV18: &str = "2/4cs3/4Tc4/2P2c2p2/10/9/2 r 0";
/// TV19 after `d6-c11`.
pub const TV19_1: &str = "2/C1C3c1c/1ST2S1ts1/CTP1C1csptc/1ST4ts1/C1C3c1c/2 b 1";
/// TV19 after `d14-b12`.
pub const TV19_2: &str = "2/C1C2sc1c/1ST2S1ts1/CTP1C1c1ptc/1ST4ts1/C1C3c1c/2 r 2";
/// TV19 after `c11-d16`: Red has won.
pub const TV19_END: &str = "2/C1C2sc1c/1ST4ts1/CTP1C1c1Stc/1ST4ts1/C1C3c1c/2 b 3";
/// TV20: a square on `a9` next to three enemy squares.
pub const TV20_SQUARES: &str = "Ss/3ss4/10/2P5p2/10/9/2 r 0";
/// TV20: a square on `a9` next to three enemy circles.
pub const TV20_CIRCLES: &str = "Sc/3cc4/10/2P5p2/10/9/2 r 0";
/// TV20: a circle on the gold tile `b10`.
pub const TV20_GOLD: &str = "2/4C4/10/2P5p2/10/9/2 r 0";
/// §7.2: a position with 219 legal moves.
pub const MAX_MOVES: &str = "2/C2P5/5S2C1/1C1ST2T2C/5S2Cp/C5T2/2 r 0";

/// Every position string in the rules document (§2, §7, §8), all canonical.
pub const DOC_TFNS: &[&str] = &[
    TV1,
    TV2,
    TV4_AFTER,
    TV5,
    TV5_AFTER,
    TV6,
    TV7,
    TWO_PENTAGONS_B1,
    TV8,
    TV9,
    TV10,
    TV11,
    TV12,
    TV13,
    TV13_AFTER,
    TV13_END,
    TV14,
    TV15,
    TV16,
    TV17,
    TV18,
    TV19_1,
    TV19_2,
    TV19_END,
    TV20_SQUARES,
    TV20_CIRCLES,
    TV20_GOLD,
    MAX_MOVES,
];

/// The base rules (all defaults).
pub fn base() -> TactigonRules {
    TactigonRules::default()
}

/// Base rules with A1 (jumping squares).
pub fn a1() -> TactigonRules {
    TactigonRules {
        jumping_squares: true,
        ..base()
    }
}

/// Base rules with A2 (gold bonus).
pub fn a2() -> TactigonRules {
    TactigonRules {
        gold_bonus: true,
        ..base()
    }
}

/// Base rules with A1 and A2.
pub fn a1_a2() -> TactigonRules {
    TactigonRules {
        jumping_squares: true,
        gold_bonus: true,
        ..base()
    }
}

/// The same switches in the reference's words.
pub fn ref_rules(r: TactigonRules) -> RefRules {
    RefRules {
        ply_cap: r.ply_cap,
        no_move_draw: r.no_move_draw,
        repetition: r.repetition,
        jumping_squares: r.jumping_squares,
        gold_bonus: r.gold_bonus,
    }
}

/// Reads a position (panics with the error).
pub fn pos_with(tfn: &str, rules: TactigonRules) -> Tactigon {
    Tactigon::from_fen(tfn, &rules).unwrap_or_else(|e| panic!("'{tfn}': {e}"))
}

/// Reads a position under the base rules.
pub fn pos(tfn: &str) -> Tactigon {
    pos_with(tfn, base())
}

/// The reference's reading of a position.
pub fn reference(tfn: &str, rules: TactigonRules) -> RefPos {
    RefPos::from_tfn(tfn, ref_rules(rules)).unwrap_or_else(|e| panic!("reference '{tfn}': {e}"))
}

/// The cell index of a name (panics if it is not a cell).
pub fn cell(name: &str) -> usize {
    parse_cell(name).unwrap_or_else(|| panic!("no cell {name}"))
}

/// The legal moves as text, in generation order; checked against the reference (same list,
/// same order).
pub fn move_names(p: &Tactigon) -> Vec<String> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|&m| p.move_to_string(m)).collect();
    let r = reference(&p.to_fen(), p.rules());
    let ref_names: Vec<String> = r.legal_moves().iter().map(|m| m.name()).collect();
    assert_eq!(names, ref_names, "{}: engine vs reference", p.to_fen());
    names
}

/// Asserts the number of legal moves (engine and reference).
pub fn assert_move_count(p: &Tactigon, n: usize) {
    assert_eq!(move_names(p).len(), n, "{}: legal moves", p.to_fen());
}

/// The destinations of the piece on `from` in the legal move list, as a set of names; also
/// checked against [`Tactigon::destinations`] and the reference.
pub fn dests(p: &Tactigon, from: &str) -> BTreeSet<String> {
    let prefix = format!("{from}-");
    let listed: BTreeSet<String> = move_names(p)
        .into_iter()
        .filter_map(|n| n.strip_prefix(&prefix).map(str::to_string))
        .collect();
    let c = cell(from);
    let (side, kind) = p
        .piece_at(c)
        .unwrap_or_else(|| panic!("no piece on {from}"));
    let mut bitboard = BTreeSet::new();
    let mut b = p.destinations(side, kind, c);
    while b != 0 {
        bitboard.insert(cell_name(b.trailing_zeros() as usize));
        b &= b - 1;
    }
    if side == p.side_to_move().index() && p.outcome().is_none() {
        assert_eq!(listed, bitboard, "{from}: move list vs destinations()");
    }
    let r = reference(&p.to_fen(), p.rules());
    let ref_set: BTreeSet<String> = r
        .destinations(parse_name(from).unwrap())
        .into_iter()
        .map(name)
        .collect();
    assert_eq!(
        bitboard, ref_set,
        "{from}: destinations engine vs reference"
    );
    bitboard
}

/// A set of cell names from a space-separated list.
pub fn names(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_string).collect()
}

/// Plays `moves` from `tfn` on the engine and the reference, comparing the positions after
/// every move; returns the engine's position.
pub fn play_line(tfn: &str, rules: TactigonRules, moves: &[&str]) -> Tactigon {
    let mut p = pos_with(tfn, rules);
    let mut r = reference(tfn, rules);
    for m in moves {
        let before = p.to_fen();
        p.try_play_str(m)
            .unwrap_or_else(|e| panic!("{before}: {m} rejected: {e:?}"));
        let rm = r
            .find(m)
            .unwrap_or_else(|| panic!("reference: no {m} in {before}"));
        r.play(rm);
        assert_eq!(p.to_fen(), r.to_tfn(), "after {m} (engine vs reference)");
        assert_eq!(p.hash(), p.hash_from_scratch(), "hash after {m}");
    }
    p
}

/// Plays one move and checks the resulting position string.
pub fn assert_play(tfn: &str, rules: TactigonRules, m: &str, expected: &str) -> Tactigon {
    let p = play_line(tfn, rules, &[m]);
    assert_eq!(p.to_fen(), expected, "{tfn} after {m}");
    p
}

/// Asserts that `m` is well formed but illegal (engine and reference), and that trying it
/// leaves the position unchanged.
pub fn assert_illegal(p: &Tactigon, m: &str) {
    let mut q = p.clone();
    assert!(p.parse_move(m).is_ok(), "{m} should parse");
    assert!(q.try_play_str(m).is_err(), "{}: {m} accepted", p.to_fen());
    assert_eq!(&q, p, "a rejected move changed the position");
    assert!(!move_names(p).iter().any(|n| n == m), "{m} listed");
}
