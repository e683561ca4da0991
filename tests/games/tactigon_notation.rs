//! Tactigon notation (`docs/rules/tactigon.md` §9): position strings (TFN) and moves. Every TFN in
//! the document round-trips; an omitted ply reads as 0 and is then printed; random positions
//! written by the independent reference read back into the same pieces; malformed strings
//! (rank widths, letters, zero runs and leading zeros, too many pieces of a kind, no pentagon,
//! bad side or ply) are rejected by the engine and the reference alike. Moves: all 53 × 53
//! cell pairs print and parse back, and malformed moves are rejected.

use crate::common;

use crate::common::tactigon_helpers::{DOC_TFNS, base, cell, pos};
use crate::common::tactigon_reference::{
    BLUE, KINDS, Kind, Piece, RED, RefPos, RefRules, all_cells, name,
};
use ludus::game::Game;
use ludus::game::tactigon::board::cell_name;
use ludus::game::tactigon::{Tactigon, TactigonMove};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn engine_reads(s: &str) -> bool {
    Tactigon::from_fen(s, &base()).is_ok()
}

fn reference_reads(s: &str) -> bool {
    RefPos::from_tfn(s, RefRules::default()).is_ok()
}

#[test]
fn every_document_tfn_round_trips() {
    for &s in DOC_TFNS {
        let p = pos(s);
        assert_eq!(p.to_fen(), s, "serialize(parse(s)) == s");
        assert_eq!(pos(&p.to_fen()), p, "parse(serialize(p)) == p");
        assert_eq!(p.hash(), p.hash_from_scratch());
        let r = RefPos::from_tfn(s, RefRules::default()).unwrap();
        assert_eq!(r.to_tfn(), s, "reference round trip");
        for (i, c) in all_cells().into_iter().enumerate() {
            let expected = r.at(c).map(|pc| (pc.side, pc.kind.index()));
            assert_eq!(p.piece_at(i), expected, "{s}: {}", name(c));
        }
        let ply: u32 = s.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(p.ply(), ply);
    }
    assert_eq!(DOC_TFNS.len(), 28);
}

#[test]
fn omitted_ply_reads_as_zero_and_is_printed() {
    for &s in DOC_TFNS {
        let (without, _) = s.rsplit_once(' ').unwrap();
        let p = pos(without);
        assert_eq!(p.ply(), 0, "{without}");
        assert_eq!(p.to_fen(), format!("{without} 0"));
        let r = RefPos::from_tfn(without, RefRules::default()).unwrap();
        assert_eq!(r.to_tfn(), format!("{without} 0"));
    }
}

/// A random position: any material within the start counts, at least one pentagon.
fn random_position(rng: &mut SmallRng) -> RefPos {
    let side = if rng.random_range(0..2) == 0 {
        RED
    } else {
        BLUE
    };
    let mut r = RefPos::empty(side, rng.random_range(0..1000), RefRules::default());
    let mut free = all_cells();
    let pentagon_side = rng.random_range(0..2);
    for s in [RED, BLUE] {
        for kind in KINDS {
            let n = match kind {
                Kind::Pentagon if s == pentagon_side => 1,
                _ => rng.random_range(0..=kind.start_count()),
            };
            for _ in 0..n {
                let c = free.swap_remove(rng.random_range(0..free.len()));
                r.grid[c.0][c.1] = Some(Piece { side: s, kind });
            }
        }
    }
    r
}

#[test]
fn random_positions_round_trip() {
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..2000 {
        let r = random_position(&mut rng);
        let s = r.to_tfn();
        let p = pos(&s);
        assert_eq!(p.to_fen(), s);
        for (i, c) in all_cells().into_iter().enumerate() {
            let expected = r.at(c).map(|pc| (pc.side, pc.kind.index()));
            assert_eq!(p.piece_at(i), expected, "{s}: {}", name(c));
        }
        assert_eq!(p.side_to_move().index(), r.side);
        assert_eq!(p.ply(), r.ply);
        assert_eq!(p.hash(), p.hash_from_scratch());
    }
}

#[test]
fn malformed_positions_are_rejected() {
    let good = "2/9/10/2P5p2/10/9/2 r 0";
    assert!(engine_reads(good) && reference_reads(good));
    let bad = [
        // Rank widths (2 9 10 11 10 9 2).
        "3/9/10/2P5p2/10/9/2 r 0",
        "1/9/10/2P5p2/10/9/2 r 0",
        "2/8/10/2P5p2/10/9/2 r 0",
        "2/10/10/2P5p2/10/9/2 r 0",
        "2/9/9/2P5p2/10/9/2 r 0",
        "2/9/11/2P5p2/10/9/2 r 0",
        "2/9/10/2P5p1/10/9/2 r 0",
        "2/9/10/2P5p3/10/9/2 r 0",
        "2/9/10/2P5p2/10/9/C2 r 0",
        "2/9/10/2P5p2/10/9/CC1 r 0",
        "2/9/10/2P5p2/10/9/ r 0",
        // A run of digits is one number: "45" is forty-five, not 4 + 5.
        "2/45/10/2P5p2/10/9/2 r 0",
        "2/9/55/2P5p2/10/9/2 r 0",
        "2/9/10/2P5p11/10/9/2 r 0",
        "2/9/10/12/10/9/2 r 0",
        // Rank count.
        "2/9/10/2P5p2/10/9 r 0",
        "2/9/10/2P5p2/10/9/2/2 r 0",
        "2/9//10/2P5p2/10/9/2 r 0",
        // Letters.
        "2/9/10/2P5q2/10/9/2 r 0",
        "2/9/10/2P5x2/10/9/2 r 0",
        "2/9/10/2P5p2/10/9/2* r 0",
        "2/9/10/2P.4p2/10/9/2 r 0",
        "2/9/10/2P5p2/10/9/1K r 0",
        "2/9/10/2P5p2/1é8/9/2 r 0",
        // Zero runs and leading zeros (the widths would be right).
        "2/9/10/0P7p2/10/9/2 r 0",
        "2/9/10/2P05p2/10/9/2 r 0",
        "2/09/10/2P5p2/10/9/2 r 0",
        "2/9/010/2P5p2/10/9/2 r 0",
        "02/9/10/2P5p2/10/9/2 r 0",
        "2/9/10/2P5p2/10/9/02 r 0",
        // Too many pieces of a kind.
        "2/CCCCCCC2/10/2P5p2/10/9/2 r 0",
        "2/ccccccc2/10/2P5p2/10/9/2 r 0",
        "2/TTTT5/10/2P5p2/10/9/2 r 0",
        "2/tttt5/10/2P5p2/10/9/2 r 0",
        "2/SSSS5/10/2P5p2/10/9/2 r 0",
        "2/ssss5/10/2P5p2/10/9/2 r 0",
        "2/P8/10/2P5p2/10/9/2 r 0",
        "2/p8/10/2P5p2/10/9/2 r 0",
        // No pentagon at all.
        "2/9/10/11/10/9/2 r 0",
        "2/C1C3c1c/1ST4ts1/CT1SC1cs1tc/1ST4ts1/C1C3c1c/2 r 0",
        // Side.
        "2/9/10/2P5p2/10/9/2 w 0",
        "2/9/10/2P5p2/10/9/2 R 0",
        "2/9/10/2P5p2/10/9/2 B 0",
        "2/9/10/2P5p2/10/9/2 rb 0",
        "2/9/10/2P5p2/10/9/2 - 0",
        "2/9/10/2P5p2/10/9/2 0",
        "2/9/10/2P5p2/10/9/2",
        // Ply.
        "2/9/10/2P5p2/10/9/2 r -1",
        "2/9/10/2P5p2/10/9/2 r +1",
        "2/9/10/2P5p2/10/9/2 r x",
        "2/9/10/2P5p2/10/9/2 r 1.5",
        "2/9/10/2P5p2/10/9/2 r 1e3",
        "2/9/10/2P5p2/10/9/2 r 4294967296",
        "2/9/10/2P5p2/10/9/2 r 0 0",
        // Nothing.
        "",
        "r 0",
    ];
    for s in bad {
        assert!(!engine_reads(s), "engine accepted '{s}'");
        assert!(!reference_reads(s), "reference accepted '{s}'");
    }
    // At the limits: full material and one pentagon only are fine.
    for s in [
        "2/CCCCCC3/TTTSSS4/P10/cccccc4/tttsss3/p1 r 0",
        "2/9/10/2P8/10/9/2 b 12",
        "2/9/10/10p/10/9/2 r",
    ] {
        assert!(engine_reads(s) && reference_reads(s), "'{s}' rejected");
    }
    // Engine convention (§9.1), stricter than the independent reference: a ply with leading
    // zeros is rejected.
    assert!(!engine_reads("2/9/10/2P5p2/10/9/2 r 01"));
}

/// A run of digits longer than the rank is rejected as soon as it is too long (it once
/// overflowed: a panic in debug builds, and 2^64 + 2 wrapped to 2 and was accepted).
#[test]
fn very_long_digit_runs_are_rejected() {
    for s in [
        "18446744073709551618/9/10/2P5p2/10/9/2 r 0",
        "99999999999999999999999/9/10/2P5p2/10/9/2 r 0",
    ] {
        let read = std::panic::catch_unwind(|| engine_reads(s));
        assert_eq!(read.ok(), Some(false), "'{s}'");
        assert!(!reference_reads(s));
    }
}

#[test]
fn moves_print_and_parse_for_every_cell_pair() {
    let p = pos(common::tactigon_helpers::TV1);
    let re_ok = |s: &str| {
        let (a, b) = s.split_once('-').unwrap();
        [a, b].iter().all(|c| {
            let (row, num) = c.split_at(1);
            ("a"..="g").contains(&row)
                && (num == "0" || !num.starts_with('0'))
                && num.parse::<u32>().is_ok_and(|n| n <= 20)
        })
    };
    for from in 0..53u8 {
        for to in 0..53u8 {
            let m = TactigonMove { from, to };
            let text = p.move_to_string(m);
            assert_eq!(
                text,
                format!("{}-{}", cell_name(from as usize), cell_name(to as usize))
            );
            assert!(re_ok(&text), "{text}");
            assert_eq!(p.parse_move(&text), Ok(m), "{text}");
        }
    }
    let m = p.parse_move("d6-c13").unwrap();
    assert_eq!((m.from as usize, m.to as usize), (cell("d6"), cell("c13")));
    assert_eq!(p.move_to_string(m), "d6-c13");
    let m = p.parse_move("c11-d16").unwrap();
    assert_eq!((m.from as usize, m.to as usize), (16, 29));
}

#[test]
fn malformed_moves_are_rejected() {
    let p = pos(common::tactigon_helpers::TV1);
    for bad in [
        "", "d21", "h1", "d01", "d4d6", "d4-", "-d6", "-", "d4", "d4-d21", "h1-d4", "d01-d4",
        "d4-d06", "D4-D6", "d4-D6", "d4 -d6", "d4- d6", " d4-d6", "d4-d6 ", "d4--d6", "d4-d6-d8",
        "d4_d6", "d4–d6", "d4x d6", "a10-a9", "d4-b3", "pass", "0000", "d4-d6+", "d+4-d6",
    ] {
        assert!(p.parse_move(bad).is_err(), "'{bad}' accepted");
        let mut q = p.clone();
        assert!(q.try_play_str(bad).is_err());
        assert_eq!(q, p);
    }
}
