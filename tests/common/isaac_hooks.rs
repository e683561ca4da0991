//! The Isaac checks that the invariant battery (`tests/games/isaac_invariants.rs`) plugs into the
//! generic battery (`battery.rs`) through [`Hooks`]: at every ply the engine is compared with
//! the independent reference implementation (`isaac_reference.rs`): the legal moves as text in
//! the canonical order (placements by size, h before v, anchor; removals by anchor, then k)
//! and the position (FEN) after every legal move. The Isaac-specific invariants of
//! `docs/rules/isaac.md` are checked as well: exactly two passes in the placement phase, at most 54
//! plies (§7), 15 tiles per player on the board, in hand or removed, scores and floors that
//! never go down, counters on different cells (with the collision rule), the scoring starter
//! (§3), how the game ended (§4.6) and the winner, by the §4.7 order computed here from the
//! scores and hands alone.

use ludus::game::isaac::{Isaac, IsaacMove, IsaacRules, Phase};
use ludus::game::{Game, Outcome, Player};

use super::battery::Hooks;
use super::isaac_helpers::ref_rules;
use super::isaac_reference::{DARK, RefIsaac, RefMove, RefPhase};

/// The hard bound on game length (§7): 25 placements and 25 removals, plus 4 passes.
pub const MAX_PLIES: usize = 54;

/// The winner by §4.7, from the scores and the hands only: higher score; then more unplaced
/// cells; then (unless cells-only) fewer unplaced tiles; then Dark, who started.
pub fn tie_break_winner(pos: &Isaac) -> Player {
    let cells = |p: Player| -> u32 {
        let h = pos.hand(p);
        3 * h[0] as u32 + 4 * h[1] as u32 + 5 * h[2] as u32 + 6 * h[3] as u32 + 7 * h[4] as u32
    };
    let tiles = |p: Player| -> u32 { pos.hand(p).iter().map(|&n| n as u32).sum() };
    let (d, l) = (Player::One, Player::Two);
    let keys = [
        (pos.score(d) as i64, pos.score(l) as i64),
        (cells(d) as i64, cells(l) as i64),
        if pos.rules().cells_only_tiebreak {
            (0, 0)
        } else {
            (-(tiles(d) as i64), -(tiles(l) as i64))
        },
    ];
    for (a, b) in keys {
        if a != b {
            return if a > b { d } else { l };
        }
    }
    d
}

/// Statistics of what the runs exercised.
#[derive(Debug, Default)]
pub struct Seen {
    pub placement_plies: u64,
    pub scoring_plies: u64,
    /// Positions where a landing on the other counter was excluded (or, without the rule,
    /// allowed).
    pub collisions: u64,
    /// Games ended by a score of 100 or more.
    pub hundreds: u64,
    /// Games ended by the early finish.
    pub early_finishes: u64,
    /// Finished games whose winner the cells-only tie-break would change.
    pub tiebreak_differs: u64,
    /// Games where Dark would not have started the scoring phase under the official rules.
    pub starter_differs: u64,
}

/// Isaac checks against the reference, kept in step with the engine's game.
pub struct IsaacHooks {
    reference: RefIsaac,
    /// The reference's legal moves in the current position, by name.
    ref_moves: Vec<(String, RefMove)>,
    /// Compare the position after every legal move, not only after the one played.
    children: bool,
    placement_passes: u32,
    scoring_passes: u32,
    removed: [u32; 2],
    first_passer: Option<Player>,
    /// What the checks saw so far.
    pub seen: Seen,
}

impl IsaacHooks {
    /// Hooks for games under `rules`; `children` also compares the position after every
    /// legal move.
    pub fn new(rules: IsaacRules, children: bool) -> Self {
        IsaacHooks {
            reference: RefIsaac::new(ref_rules(rules)),
            ref_moves: Vec::new(),
            children,
            placement_passes: 0,
            scoring_passes: 0,
            removed: [0; 2],
            first_passer: None,
            seen: Seen::default(),
        }
    }
}

/// The canonical order key of a move (§9.2 and the engine's documented generation order).
fn order_key(m: &IsaacMove) -> (u32, u32, u32, u32) {
    match *m {
        IsaacMove::Place {
            size,
            vertical,
            anchor,
        } => (size as u32, vertical as u32, anchor as u32, 0),
        IsaacMove::Remove { anchor, k, .. } => (anchor as u32, k as u32, 0, 0),
        IsaacMove::Pass => (0, 0, 0, 0),
    }
}

impl Hooks<Isaac> for IsaacHooks {
    fn on_start(&mut self, pos: &Isaac) {
        self.reference = RefIsaac::new(ref_rules(pos.rules()));
        self.placement_passes = 0;
        self.scoring_passes = 0;
        self.removed = [0; 2];
        self.first_passer = None;
        assert_eq!(
            pos.to_fen(),
            self.reference.to_fen(),
            "start positions differ"
        );
    }

    fn on_position(&mut self, pos: &Isaac, moves: &[IsaacMove], ply: usize) {
        let fen = pos.to_fen();
        let r = &self.reference;
        assert_eq!(fen, r.to_fen(), "engine and reference positions differ");
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{fen}: hash");
        assert!(ply <= MAX_PLIES, "{fen}: more than {MAX_PLIES} plies");

        // Same legal moves, in the same canonical order.
        let ref_moves = r.legal_moves();
        let names: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
        let ref_names: Vec<String> = ref_moves.iter().map(|m| m.name()).collect();
        self.ref_moves = ref_names
            .iter()
            .cloned()
            .zip(ref_moves.iter().copied())
            .collect();
        assert_eq!(names, ref_names, "{fen}: legal moves (engine vs reference)");
        assert!(
            moves
                .windows(2)
                .all(|w| order_key(&w[0]) < order_key(&w[1])),
            "{fen}: moves not in canonical order"
        );

        // Same position after every legal move.
        if self.children {
            for (&m, rm) in moves.iter().zip(&ref_moves) {
                let mut child = pos.clone();
                child.play(m);
                let mut ref_child = r.clone();
                ref_child.play(*rm);
                assert_eq!(
                    child.to_fen(),
                    ref_child.to_fen(),
                    "{fen}: position after {} (engine vs reference)",
                    rm.name()
                );
            }
        }

        // Tile conservation: on the board + in hand + removed = 15 per player.
        for p in [Player::One, Player::Two] {
            let on_board = pos
                .tiles()
                .iter()
                .filter(|t| t.owner as usize == p.index())
                .count() as u32;
            assert_eq!(
                on_board + pos.unplaced_tiles(p) + self.removed[p.index()],
                15,
                "{fen}: {p:?}'s tiles"
            );
        }
        match pos.phase() {
            Phase::Placement => {
                self.seen.placement_plies += 1;
                assert_eq!((pos.score(Player::One), pos.score(Player::Two)), (0, 0));
                assert_eq!((pos.floor(Player::One), pos.floor(Player::Two)), (0, 0));
                assert!(self.removed == [0, 0]);
            }
            Phase::Scoring => {
                self.seen.scoring_plies += 1;
                assert!(
                    self.placement_passes == 2,
                    "{fen}: scoring before two passes"
                );
                let (d, l) = (pos.score(Player::One), pos.score(Player::Two));
                assert!(d < 100 && l < 100, "{fen}");
                if pos.rules().collision {
                    assert_ne!(d as u32 + l as u32, 99, "{fen}: counters on one cell");
                }
                assert!(!pos.has_passed(pos.side_to_move()), "{fen}: mover is out");
                // Does the collision rule change this position's moves?
                let mut other = r.clone();
                other.rules.collision = !other.rules.collision;
                if other.legal_moves() != ref_moves {
                    self.seen.collisions += 1;
                }
            }
            Phase::Ended => {}
        }
    }

    fn on_move(&mut self, before: &Isaac, m: IsaacMove, after: &Isaac) {
        let name = before.move_to_string(m);
        let rm = self
            .ref_moves
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("reference has no move {name} in {}", before.to_fen()))
            .1;
        self.reference.play(rm);
        let mover = before.side_to_move();
        match (before.phase(), m) {
            (Phase::Placement, IsaacMove::Pass) => {
                self.placement_passes += 1;
                self.first_passer.get_or_insert(mover);
            }
            (Phase::Scoring, IsaacMove::Pass) => self.scoring_passes += 1,
            (Phase::Scoring, IsaacMove::Remove { .. }) => self.removed[mover.index()] += 1,
            _ => {}
        }
        if before.phase() == Phase::Placement && after.phase() == Phase::Scoring {
            let starter = if after.rules().scoring_starter_dark {
                Player::One
            } else {
                self.first_passer.unwrap()
            };
            assert_eq!(after.side_to_move(), starter, "scoring starter");
            if self.first_passer != Some(Player::One) {
                self.seen.starter_differs += 1;
            }
        }
        // Scores and floors never go down; the phase only moves forward.
        for p in [Player::One, Player::Two] {
            assert!(after.score(p) >= before.score(p), "{name}: score went down");
            assert!(after.floor(p) >= before.floor(p), "{name}: floor went down");
        }
        assert!(after.phase() as u8 >= before.phase() as u8, "{name}: phase");
    }

    fn on_end(&mut self, pos: &Isaac, outcome: Outcome, plies: usize) {
        let fen = pos.to_fen();
        let winner = tie_break_winner(pos);
        assert_eq!(outcome, Outcome::Win(winner), "{fen}: winner (§4.7)");
        let ref_winner = if self.reference.winner() == DARK {
            Player::One
        } else {
            Player::Two
        };
        assert_eq!(winner, ref_winner, "{fen}: reference winner");
        assert_eq!(self.placement_passes, 2, "{fen}: placement passes");
        assert!(plies <= MAX_PLIES);
        let (d, l) = (pos.score(Player::One), pos.score(Player::Two));
        let both_out = pos.has_passed(Player::One) && pos.has_passed(Player::Two);
        if d >= 100 || l >= 100 {
            self.seen.hundreds += 1;
            assert!(d < 100 || l < 100, "{fen}: both at 100");
        } else if !both_out {
            // Only the early finish ends a game with a player still in.
            assert!(
                pos.rules().early_finish,
                "{fen}: ended with a player still in"
            );
            let ahead = if d > l { Player::One } else { Player::Two };
            assert!(d != l && !pos.has_passed(ahead), "{fen}: early finish");
            self.seen.early_finishes += 1;
        } else {
            assert_eq!(self.scoring_passes, 2, "{fen}: scoring passes");
        }
        let mut other = pos.rules();
        other.cells_only_tiebreak = !other.cells_only_tiebreak;
        let flipped = Isaac::from_fen(&fen, &other).unwrap();
        if flipped.outcome() != Some(outcome) {
            self.seen.tiebreak_differs += 1;
        }
        assert_eq!(self.reference.phase, RefPhase::Ended);
    }
}
