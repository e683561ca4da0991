//! The Tactigon checks that the invariant battery (`tests/games/tactigon_invariants.rs`) plugs into
//! the generic battery (`battery.rs`) through [`Hooks`]. At every ply the engine is compared
//! with the independent reference (`tactigon_reference.rs`), kept in step with the game: the
//! position (TFN), the legal moves as text in the same order (origins, then destinations, row
//! by row), optionally the position after every legal move, and the status of §5.4 (who won
//! and how, computed by the reference). Tactigon invariants of `docs/rules/tactigon.md` are checked
//! too: piece counts never increase, a side never has more than its 13 start pieces (6 C, 3 T,
//! 3 S, 1 P), a move removes at most one enemy piece and loses the mover's piece only in a
//! mutual destruction (§4), the incremental hash equals the hash from scratch, the ply counter
//! counts the plies, and a game never outlasts the ply cap.

use std::collections::BTreeMap;

use ludus::game::tactigon::{Tactigon, TactigonMove};
use ludus::game::{Game, Outcome, Player};

use super::battery::Hooks;
use super::tactigon_helpers::ref_rules;
use super::tactigon_reference::{BLUE, KINDS, RED, RefMove, RefPos, RefResult, all_cells};

/// Piece counts `[side][kind]`, kinds in the order C T S P.
pub type Counts = [[usize; 4]; 2];

/// Piece counts of an engine position.
pub fn counts(pos: &Tactigon) -> Counts {
    let mut out = [[0; 4]; 2];
    for (side, row) in out.iter_mut().enumerate() {
        for (kind, n) in row.iter_mut().enumerate() {
            *n = pos.pieces(side, kind).count_ones() as usize;
        }
    }
    out
}

/// The reference's board as bitboards `[side][kind]`, with the cells numbered 0..52 in
/// row-major order (§1.4), the same layout as [`Tactigon::pieces`].
pub fn ref_bitboards(r: &RefPos) -> [[u64; 4]; 2] {
    let mut out = [[0; 4]; 2];
    for (i, c) in all_cells().into_iter().enumerate() {
        if let Some(p) = r.at(c) {
            out[p.side][p.kind.index()] |= 1 << i;
        }
    }
    out
}

/// An engine position's bitboards `[side][kind]`.
pub fn bitboards(pos: &Tactigon) -> [[u64; 4]; 2] {
    let mut out = [[0; 4]; 2];
    for (side, row) in out.iter_mut().enumerate() {
        for (kind, b) in row.iter_mut().enumerate() {
            *b = pos.pieces(side, kind);
        }
    }
    out
}

/// The engine's outcome for a reference result.
pub fn outcome_of(result: RefResult) -> Outcome {
    match result {
        RefResult::Win(RED, _) => Outcome::Win(Player::One),
        RefResult::Win(_, _) => Outcome::Win(Player::Two),
        RefResult::Draw(_) => Outcome::Draw,
    }
}

/// Tactigon checks against the reference.
pub struct TactigonHooks {
    reference: RefPos,
    ref_moves: Vec<RefMove>,
    /// Compare the position after every legal move, not only after the one played.
    children: bool,
    previous: Counts,
    /// How games ended, by the reference's reason ("Red pentagon", "draw ply cap", ...).
    pub endings: BTreeMap<String, u64>,
    /// Moves played that removed one piece (D) and two pieces (B).
    pub captures: [u64; 2],
    /// Children compared with the reference.
    pub children_checked: u64,
}

impl TactigonHooks {
    /// Hooks for games under the rules of the positions they are given; `children` also
    /// compares the position after every legal move.
    pub fn new(children: bool) -> Self {
        TactigonHooks {
            reference: RefPos::empty(RED, 0, Default::default()),
            ref_moves: Vec::new(),
            children,
            previous: [[0; 4]; 2],
            endings: BTreeMap::new(),
            captures: [0; 2],
            children_checked: 0,
        }
    }

    /// The reference, in step with the game.
    pub fn reference(&self) -> &RefPos {
        &self.reference
    }

    /// The number of games that ended for `reason` (summed over winners).
    pub fn ended_by(&self, reason: &str) -> u64 {
        self.endings
            .iter()
            .filter(|(k, _)| k.ends_with(reason))
            .map(|(_, v)| v)
            .sum()
    }
}

impl Hooks<Tactigon> for TactigonHooks {
    fn on_start(&mut self, pos: &Tactigon) {
        let fen = pos.to_fen();
        self.reference = RefPos::from_tfn(&fen, ref_rules(pos.rules())).unwrap();
        assert_eq!(fen, self.reference.to_tfn(), "start positions differ");
        self.previous = counts(pos);
    }

    fn on_position(&mut self, pos: &Tactigon, moves: &[TactigonMove], ply: usize) {
        let fen = pos.to_fen();
        let r = &self.reference;
        assert_eq!(fen, r.to_tfn(), "engine and reference positions differ");
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{fen}: hash");
        assert_eq!(pos.ply() as usize, ply, "{fen}: ply counter");
        let cap = pos.rules().ply_cap as usize;
        assert!(cap == 0 || ply <= cap, "{fen}: beyond the ply cap {cap}");

        // Same legal moves in the same order, and the same status (§5.4).
        self.ref_moves = r.legal_moves();
        let names: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
        let ref_names: Vec<String> = self.ref_moves.iter().map(|m| m.name()).collect();
        assert_eq!(names, ref_names, "{fen}: legal moves (engine vs reference)");
        assert_eq!(
            pos.outcome(),
            r.status().map(outcome_of),
            "{fen}: status (engine vs reference {:?})",
            r.status()
        );

        // Material: within the start set, and never growing.
        let now = counts(pos);
        for side in [RED, BLUE] {
            assert!(now[side].iter().sum::<usize>() <= 13, "{fen}: > 13 pieces");
            for kind in KINDS {
                let k = kind.index();
                assert!(
                    now[side][k] <= kind.start_count(),
                    "{fen}: too many {kind:?}"
                );
                assert!(
                    now[side][k] <= self.previous[side][k],
                    "{fen}: {kind:?} grew"
                );
            }
        }
        self.previous = now;

        // Same position after every legal move (compared as bitboards, side and ply, which
        // is what the position string says; the string itself is compared on the line played).
        if self.children {
            for (&m, &rm) in moves.iter().zip(&self.ref_moves) {
                let mut child = pos.clone();
                child.play(m);
                let mut ref_child = r.clone();
                ref_child.apply(rm);
                let same = bitboards(&child) == ref_bitboards(&ref_child)
                    && child.side_to_move().index() == ref_child.side
                    && child.ply() == ref_child.ply;
                assert!(
                    same,
                    "{fen}: position after {}: engine {}, reference {}",
                    rm.name(),
                    child.to_fen(),
                    ref_child.to_tfn()
                );
                assert_eq!(child.hash(), child.hash_from_scratch(), "{fen}: hash");
                self.children_checked += 1;
            }
        }
    }

    fn on_move(&mut self, before: &Tactigon, m: TactigonMove, after: &Tactigon) {
        let name = before.move_to_string(m);
        let rm = *self
            .ref_moves
            .iter()
            .find(|rm| rm.name() == name)
            .unwrap_or_else(|| panic!("reference has no move {name} in {}", before.to_fen()));
        self.reference.play(rm);
        let mover = before.side_to_move().index();
        let (b, a) = (counts(before), counts(after));
        let lost = |side: usize| b[side].iter().sum::<usize>() - a[side].iter().sum::<usize>();
        assert!(
            lost(1 - mover) <= 1,
            "{name}: more than one enemy piece removed"
        );
        assert!(
            lost(mover) <= lost(1 - mover),
            "{name}: own piece lost without combat"
        );
        match (lost(1 - mover), lost(mover)) {
            (1, 0) => self.captures[0] += 1,
            (1, 1) => self.captures[1] += 1,
            _ => {}
        }
        assert_eq!(after.ply(), before.ply() + 1, "{name}: ply");
        assert_eq!(after.side_to_move(), before.side_to_move().opponent());
    }

    fn on_end(&mut self, pos: &Tactigon, outcome: Outcome, plies: usize) {
        let fen = pos.to_fen();
        let status = self.reference.status().expect("reference: game over");
        assert_eq!(outcome, outcome_of(status), "{fen}: outcome (§5.4)");
        let cap = pos.rules().ply_cap as usize;
        assert!(cap == 0 || plies <= cap, "{fen}: {plies} plies, cap {cap}");
        if status == RefResult::Draw("ply cap") {
            assert_eq!(pos.ply() as usize, cap, "{fen}: drawn by the cap before it");
        }
        let key = match status {
            RefResult::Win(RED, why) => format!("Red {why}"),
            RefResult::Win(_, why) => format!("Blue {why}"),
            RefResult::Draw(why) => format!("draw {why}"),
        };
        *self.endings.entry(key).or_default() += 1;
    }
}
