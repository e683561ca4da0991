//! Invariant battery: seeded random games checked ply by ply.
//!
//! The generic checks live in `common/battery.rs`. For Sight, every ply is also compared with
//! the independent reference implementation in `common/sight_reference.rs` (legal moves, their
//! canonical order, and the position after each legal move), and the Sight-specific invariants
//! of docs/rules/sight.md §4 are checked: after t plies exactly t points are occupied, White owns
//! ⌈t/2⌉ of them, White is to move iff the occupied count is even, a game lasts at most N² plies,
//! and the side to move when the moves run out loses.

use crate::common::battery::{BatteryStats, Hooks, NoHooks, random_games};
use crate::common::sight_reference::{Colour, RefMove, RefSight};
use ludus::game::sight::{Sight, SightMove, SightSettings};
use ludus::game::{Game, Outcome, Player};

/// Random games per board size and rule variant.
const GAMES: u64 = 1000;

/// Sight checks against the reference implementation, kept in step with the engine's game.
struct SightHooks {
    reference: RefSight,
    /// Positions in which the other rule variant would give other legal moves.
    variant_differs: u64,
    /// Movement turns seen.
    movement_turns: u64,
}

impl SightHooks {
    fn new(settings: &SightSettings) -> Self {
        SightHooks {
            reference: RefSight::new(settings.size, settings.strict_tallest),
            variant_differs: 0,
            movement_turns: 0,
        }
    }
}

fn colour_of(p: Player) -> Colour {
    match p {
        Player::One => Colour::White,
        Player::Two => Colour::Black,
    }
}

/// The engine's move for a reference move.
fn engine_move(n: usize, m: RefMove) -> SightMove {
    match m {
        RefMove::Place((x, y)) => SightMove::place(y * n + x),
        RefMove::Step((fx, fy), (tx, ty)) => SightMove::step(fy * n + fx, ty * n + tx),
    }
}

impl Hooks<Sight> for SightHooks {
    fn on_start(&mut self, pos: &Sight) {
        self.reference = RefSight::new(pos.size(), pos.strict_tallest());
        assert_eq!(
            pos.to_fen(),
            self.reference.to_spn(),
            "start positions differ"
        );
    }

    fn on_position(&mut self, pos: &Sight, moves: &[SightMove], ply: usize) {
        let n = pos.size();
        let fen = pos.to_fen();
        let r = &self.reference;
        assert_eq!(fen, r.to_spn(), "engine and reference positions differ");

        // docs/rules/sight.md §4: one new point per ply, ownership split, side from parity.
        let occupied = (0..n * n).filter(|&p| pos.pile(p).is_some()).count();
        let white = (0..n * n)
            .filter(|&p| matches!(pos.pile(p), Some((Player::One, _))))
            .count();
        assert_eq!(occupied, ply, "{fen}: occupied points after {ply} plies");
        assert_eq!(
            white,
            ply.div_ceil(2),
            "{fen}: White's points after {ply} plies"
        );
        assert_eq!(r.occupied(), ply);
        assert_eq!(r.owned_by(Colour::White), ply.div_ceil(2));
        assert_eq!(
            pos.side_to_move() == Player::One,
            occupied % 2 == 0,
            "{fen}: side to move vs parity"
        );
        assert_eq!(colour_of(pos.side_to_move()), r.to_move);
        assert!(ply <= n * n, "{fen}: game longer than N² plies");
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{fen}: hash");

        // Same legal moves, in the same canonical (from, to) order.
        let ref_moves = r.legal_moves();
        let engine_names: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
        let ref_names: Vec<String> = ref_moves.iter().map(|&m| r.move_name(m)).collect();
        assert_eq!(
            engine_names, ref_names,
            "{fen}: legal moves (engine vs reference)"
        );
        let expected: Vec<SightMove> = ref_moves.iter().map(|&m| engine_move(n, m)).collect();
        assert_eq!(moves, &expected[..], "{fen}: move encoding");

        // Same position after every legal move.
        for (&m, &rm) in moves.iter().zip(&ref_moves) {
            let mut child = pos.clone();
            child.play(m);
            let mut ref_child = r.clone();
            ref_child.play(rm);
            assert_eq!(
                child.to_fen(),
                ref_child.to_spn(),
                "{fen}: position after {} (engine vs reference)",
                r.move_name(rm)
            );
        }

        // Statistics: how often the two variants would disagree here (the official fallback
        // applies, or strict rules end the game), to show that the runs exercise it.
        if moves.first().is_some_and(|m| !m.is_placement()) {
            self.movement_turns += 1;
        }
        let mut other = r.clone();
        other.strict = !other.strict;
        if other.legal_moves() != ref_moves {
            self.variant_differs += 1;
        }
    }

    fn on_move(&mut self, before: &Sight, m: SightMove, _after: &Sight) {
        let name = before.move_to_string(m);
        let rm = self
            .reference
            .legal_moves()
            .into_iter()
            .find(|&rm| self.reference.move_name(rm) == name)
            .unwrap_or_else(|| panic!("reference has no move {name}"));
        self.reference.play(rm);
    }

    fn on_end(&mut self, pos: &Sight, outcome: Outcome, plies: usize) {
        // docs/rules/sight.md §4: the side to move with no legal move loses; no draws.
        assert_eq!(
            outcome,
            Outcome::Win(pos.side_to_move().opponent()),
            "{}: wrong outcome",
            pos.to_fen()
        );
        assert!(self.reference.legal_moves().is_empty());
        assert!(plies >= 4, "no game can end before ply 4 (rules §4)");
        if plies == pos.size() * pos.size() {
            // A full board: the player to move has nowhere to go.
            assert!((0..plies).all(|p| pos.pile(p).is_some()));
        }
    }
}

/// Runs [`GAMES`] checked random games and returns the battery statistics and the number of
/// positions in which the two rule variants differ.
fn run_sight(size: usize, strict: bool) -> (BatteryStats, u64) {
    let settings = SightSettings {
        size,
        strict_tallest: strict,
    };
    let mut hooks = SightHooks::new(&settings);
    let stats = random_games::<Sight>(&settings, 0..GAMES, size * size, &mut hooks);
    eprintln!(
        "sight {size}x{size} {}: {} games, {} plies, lengths {}..={}, wins {:?}, \
         {} movement turns, {} positions where the variants differ",
        if strict { "strict" } else { "official" },
        stats.games,
        stats.plies,
        stats.min_length,
        stats.max_length,
        stats.wins,
        hooks.movement_turns,
        hooks.variant_differs,
    );
    assert_eq!(stats.games, GAMES);
    assert_eq!(stats.draws, 0, "Sight has no draws");
    assert!(stats.min_length >= 4);
    assert!(stats.max_length <= size * size);
    assert!(
        stats.wins[0] > 0 && stats.wins[1] > 0,
        "both sides should win some games"
    );
    (stats, hooks.variant_differs)
}

#[test]
fn sight_3x3_official() {
    let (_, differs) = run_sight(3, false);
    assert!(differs > 0, "the fallback rule was never exercised");
}

#[test]
fn sight_3x3_strict() {
    let (_, differs) = run_sight(3, true);
    assert!(differs > 0, "strict rules never ended a game early");
}

#[test]
fn sight_5x5_official() {
    let (stats, differs) = run_sight(5, false);
    assert!(differs > 0, "the fallback rule was never exercised");
    // docs/rules/sight.md §7: mean length about 17.9 plies in random play; a loose sanity window.
    let mean = stats.plies as f64 / stats.games as f64;
    assert!((15.0..21.0).contains(&mean), "mean game length {mean}");
}

#[test]
fn sight_5x5_strict() {
    let (stats, differs) = run_sight(5, true);
    assert!(differs > 0, "strict rules never ended a game early");
    // docs/rules/sight.md §7: mean length about 17.0 plies in random play.
    let mean = stats.plies as f64 / stats.games as f64;
    assert!((14.0..20.0).contains(&mean), "mean game length {mean}");
}

#[test]
fn sight_7x7_official() {
    let (_, differs) = run_sight(7, false);
    assert!(differs > 0, "the fallback rule was never exercised");
}

#[test]
fn sight_7x7_strict() {
    let (_, differs) = run_sight(7, true);
    assert!(differs > 0, "strict rules never ended a game early");
}

/// The generic battery alone, on sizes the reference runs do not cover (even boards and the
/// largest supported board), with no game-specific hooks.
#[test]
fn sight_generic_battery_other_sizes() {
    for (size, games) in [(2, 50), (4, 300), (6, 100), (9, 30)] {
        for strict in [false, true] {
            let settings = SightSettings {
                size,
                strict_tallest: strict,
            };
            let stats = random_games::<Sight>(&settings, 0..games, size * size, &mut NoHooks);
            assert_eq!(stats.games, games);
            assert!(stats.max_length <= size * size);
        }
    }
}

/// Counts leaves of the reference's move tree, as [`Game::perft`] does.
fn reference_perft(r: &RefSight, depth: u32) -> u64 {
    let moves = r.legal_moves();
    if depth <= 1 {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = r.clone();
            child.play(m);
            reference_perft(&child, depth - 1)
        })
        .sum()
}

/// The reference itself is checked against the rules document, so that agreement with the
/// engine means agreement with the rules: 3×3 perft (docs/rules/sight.md §7) and the TV11/TV12
/// games (§9).
#[test]
fn reference_matches_rules_document() {
    let official = [9, 72, 504, 3024, 9920, 26960, 53824, 70496, 53576];
    let strict_9 = 52376;
    for strict in [false, true] {
        let r = RefSight::new(3, strict);
        for (d, &expected) in official.iter().enumerate() {
            let depth = d as u32 + 1;
            let expected = if strict && depth == 9 {
                strict_9
            } else {
                expected
            };
            assert_eq!(
                reference_perft(&r, depth),
                expected,
                "3x3 strict={strict} d{depth}"
            );
        }
    }
    let play = |r: &mut RefSight, name: &str| {
        let m = r
            .legal_moves()
            .into_iter()
            .find(|&m| r.move_name(m) == name)
            .unwrap_or_else(|| panic!("{name} not legal in {}", r.to_spn()));
        r.play(m);
    };
    // TV12.
    let mut r = RefSight::new(5, false);
    for m in ["a1", "a2", "b1", "b2"] {
        play(&mut r, m);
    }
    assert_eq!(r.to_spn(), "5:x5/x5/x5/b2,b,x3/w2,w,x3 w");
    assert!(r.legal_moves().is_empty());
    // TV11, both variants.
    for strict in [false, true] {
        let mut r = RefSight::new(5, strict);
        for m in ["b4", "e2", "d3", "a3", "d4", "e3", "b4-c3", "e2-d2"] {
            play(&mut r, m);
        }
        assert_eq!(r.to_spn(), "5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w");
        let names: Vec<String> = r.legal_moves().iter().map(|&m| r.move_name(m)).collect();
        if strict {
            assert!(names.is_empty());
        } else {
            assert_eq!(names, ["d4-c4", "d4-e4", "d4-c5", "d4-d5", "d4-e5"]);
            play(&mut r, "d4-c5");
            assert_eq!(r.to_spn(), "5:x2,w,x2/x,w2,x,w,x/b,x,w2,w3,b2/x3,b,b/x5 b");
        }
    }
}
