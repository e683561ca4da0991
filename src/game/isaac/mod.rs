//! Isaac, exactly per `docs/rules/isaac.md`: a placement phase (tiles along rows and columns,
//! forced passes, the other player placing alone after a pass) and a scoring phase (removing
//! own tiles at or above the size floor and not under a counter, earning `N · v · 2^c`,
//! advancing the counter 0..=P steps without landing on the other counter, going out by
//! passing, winning at 100 or by the tie-break order).
//!
//! Representation: the tiles on the board sorted by anchor, an occupancy bitboard, hands as
//! counts per size, and the scores, floors and pass flags. Cells are numbered in Dark's frame.

mod eval;
mod features;
mod notation;
pub mod present;
mod removal;
mod rules;
mod search_hooks;
pub mod tables;
mod wdl;

use crate::game::{
    Game, OptionSpec, OptionValues, Outcome, PackedMove, ParseError, Player, SolvedBook, zobrist,
};
pub use removal::RemovalPreview;
pub use rules::IsaacRules;
use tables::{SIZES, START_COUNTS, run_mask};

/// Most tiles that can be on the board (15 per player).
pub const MAX_TILES: usize = 30;

/// The two phases of play, and the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Tiles are placed.
    Placement,
    /// Tiles are removed for points.
    Scoring,
    /// The game is over.
    Ended,
}

/// A tile on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tile {
    /// 0 for Dark, 1 for Light.
    pub owner: u8,
    /// Length in cells, 3..=7.
    pub size: u8,
    /// Along a column (true) or a row.
    pub vertical: bool,
    /// The lowest covered cell in Dark's frame.
    pub anchor: u8,
}

impl Tile {
    /// The covered cells.
    #[inline]
    pub fn mask(self) -> u128 {
        run_mask(self.size, self.vertical, self.anchor as usize)
    }
}

/// An Isaac move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IsaacMove {
    /// Place a tile of the side to move.
    Place {
        /// Tile size.
        size: u8,
        /// Orientation.
        vertical: bool,
        /// Lowest covered cell.
        anchor: u8,
    },
    /// Remove the side to move's tile at `anchor` and advance the counter `k` steps.
    Remove {
        /// Tile size (repeated so the move can be checked).
        size: u8,
        /// Orientation (repeated so the move can be checked).
        vertical: bool,
        /// The tile's anchor.
        anchor: u8,
        /// Steps the counter advances, 0..=P.
        k: u8,
    },
    /// The forced pass.
    Pass,
}

/// An Isaac position with its rule switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isaac {
    tiles: [Tile; MAX_TILES],
    count: u8,
    occupied: u128,
    /// Unplaced tiles per player and size index.
    hands: [[u8; 5]; 2],
    side: Player,
    phase: Phase,
    /// In placement: who has passed. In scoring: who is out.
    passed: [bool; 2],
    /// Scores in each owner's own frame.
    scores: [u8; 2],
    /// Largest size each player has removed, 0 before the first removal.
    floors: [u8; 2],
    rules: IsaacRules,
    hash: u64,
}

// Zobrist feature families.
const Z_TILE: u64 = 0x1_0001;
const Z_HAND: u64 = 0x1_0002;
const Z_SIDE: u64 = 0x1_0003;
const Z_PHASE: u64 = 0x1_0004;
const Z_PASSED: u64 = 0x1_0005;
const Z_SCORE: u64 = 0x1_0006;
const Z_FLOOR: u64 = 0x1_0007;

fn tile_key(t: Tile) -> u64 {
    let index = (t.owner as u64) << 16 | (t.size as u64) << 12 | (t.vertical as u64) << 8;
    zobrist::feature(Z_TILE, index | t.anchor as u64)
}

fn hand_key(player: usize, size_index: usize, count: u8) -> u64 {
    zobrist::feature(
        Z_HAND,
        (player as u64) << 16 | (size_index as u64) << 8 | count as u64,
    )
}

fn phase_key(phase: Phase) -> u64 {
    zobrist::feature(Z_PHASE, phase as u64)
}

impl Isaac {
    /// An empty board, full hands, Dark to place.
    pub fn new(rules: IsaacRules) -> Isaac {
        let mut s = Isaac {
            tiles: [Tile::default(); MAX_TILES],
            count: 0,
            occupied: 0,
            hands: [START_COUNTS; 2],
            side: Player::One,
            phase: Phase::Placement,
            passed: [false; 2],
            scores: [0; 2],
            floors: [0; 2],
            rules,
            hash: 0,
        };
        s.hash = s.hash_from_scratch();
        s
    }

    /// The tiles on the board, sorted by anchor.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.count as usize]
    }

    /// Occupied cells.
    pub fn occupied(&self) -> u128 {
        self.occupied
    }

    /// Unplaced tiles of `player` per size index (sizes 3..=7).
    pub fn hand(&self, player: Player) -> [u8; 5] {
        self.hands[player.index()]
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// In placement, whether `player` has passed; in scoring, whether it is out.
    pub fn has_passed(&self, player: Player) -> bool {
        self.passed[player.index()]
    }

    /// `player`'s score in its own frame.
    pub fn score(&self, player: Player) -> u8 {
        self.scores[player.index()]
    }

    /// `player`'s size floor (0 before its first removal).
    pub fn floor(&self, player: Player) -> u8 {
        self.floors[player.index()]
    }

    /// The rule switches.
    pub fn rules(&self) -> IsaacRules {
        self.rules
    }

    /// The Dark-frame cell of `player`'s counter in the scoring phase (`None` at 100 or more).
    pub fn counter_cell(&self, player: Player) -> Option<usize> {
        Isaac::score_cell(player, self.scores[player.index()] as u32)
    }

    /// Cells holding a counter (scoring phase only; empty in placement).
    pub fn counter_mask(&self) -> u128 {
        if self.phase == Phase::Placement {
            return 0;
        }
        [Player::One, Player::Two]
            .iter()
            .filter_map(|&p| self.counter_cell(p))
            .fold(0, |m, c| m | 1u128 << c)
    }

    /// Total cells of `player`'s unplaced tiles (the tie-break's line length).
    pub fn unplaced_cells(&self, player: Player) -> u32 {
        let hand = self.hands[player.index()];
        SIZES
            .iter()
            .zip(hand)
            .map(|(&s, n)| s as u32 * n as u32)
            .sum()
    }

    /// Number of `player`'s unplaced tiles.
    pub fn unplaced_tiles(&self, player: Player) -> u32 {
        self.hands[player.index()].iter().map(|&n| n as u32).sum()
    }

    /// The hash computed from the whole position.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = phase_key(self.phase);
        if self.phase != Phase::Ended && self.side == Player::Two {
            h ^= zobrist::feature(Z_SIDE, 1);
        }
        for t in self.tiles() {
            h ^= tile_key(*t);
        }
        for p in 0..2 {
            for si in 0..5 {
                h ^= hand_key(p, si, self.hands[p][si]);
            }
            if self.passed[p] {
                h ^= zobrist::feature(Z_PASSED, p as u64);
            }
            h ^= zobrist::feature(Z_SCORE, (p as u64) << 8 | self.scores[p] as u64);
            h ^= zobrist::feature(Z_FLOOR, (p as u64) << 8 | self.floors[p] as u64);
        }
        h
    }

    fn add_tile(&mut self, t: Tile) {
        let n = self.count as usize;
        let at = self.tiles[..n].partition_point(|u| u.anchor < t.anchor);
        self.tiles.copy_within(at..n, at + 1);
        self.tiles[at] = t;
        self.count += 1;
        self.occupied |= t.mask();
        self.hash ^= tile_key(t);
    }

    fn remove_tile_at(&mut self, index: usize) -> Tile {
        let n = self.count as usize;
        let t = self.tiles[index];
        self.tiles.copy_within(index + 1..n, index);
        self.tiles[n - 1] = Tile::default();
        self.count -= 1;
        self.occupied &= !t.mask();
        self.hash ^= tile_key(t);
        t
    }

    fn set_hand(&mut self, p: usize, si: usize, count: u8) {
        self.hash ^= hand_key(p, si, self.hands[p][si]) ^ hand_key(p, si, count);
        self.hands[p][si] = count;
    }

    fn set_passed(&mut self, p: usize, value: bool) {
        if self.passed[p] != value {
            self.hash ^= zobrist::feature(Z_PASSED, p as u64);
            self.passed[p] = value;
        }
    }

    fn set_score(&mut self, p: usize, score: u8) {
        let old = zobrist::feature(Z_SCORE, (p as u64) << 8 | self.scores[p] as u64);
        self.hash ^= old ^ zobrist::feature(Z_SCORE, (p as u64) << 8 | score as u64);
        self.scores[p] = score;
    }

    fn set_floor(&mut self, p: usize, floor: u8) {
        let old = zobrist::feature(Z_FLOOR, (p as u64) << 8 | self.floors[p] as u64);
        self.hash ^= old ^ zobrist::feature(Z_FLOOR, (p as u64) << 8 | floor as u64);
        self.floors[p] = floor;
    }

    fn set_phase(&mut self, phase: Phase) {
        self.hash ^= phase_key(self.phase) ^ phase_key(phase);
        if self.phase != Phase::Ended && self.side == Player::Two {
            self.hash ^= zobrist::feature(Z_SIDE, 1);
        }
        self.phase = phase;
        if phase == Phase::Ended {
            // Nobody moves in a finished game; a fixed side keeps positions comparable.
            self.side = Player::One;
        } else if self.side == Player::Two {
            self.hash ^= zobrist::feature(Z_SIDE, 1);
        }
    }

    fn set_side(&mut self, side: Player) {
        if self.phase != Phase::Ended && side != self.side {
            self.hash ^= zobrist::feature(Z_SIDE, 1);
        }
        self.side = side;
    }
}

/// Option names of Isaac's rule switches.
pub const OPTION_LINE_TIEBREAK: &str = "Isaac_LineTiebreak";
/// See [`IsaacRules::scoring_starter_dark`].
pub const OPTION_SCORING_STARTER: &str = "Isaac_ScoringStarter";
/// See [`IsaacRules::collision`].
pub const OPTION_COLLISION: &str = "Isaac_Collision";
/// See [`IsaacRules::early_finish`].
pub const OPTION_EARLY_FINISH: &str = "Isaac_EarlyFinish";

/// Bytes, low to high: kind (1 place, 2 remove, 3 pass), size with the orientation in bit 7,
/// anchor, steps.
impl PackedMove for IsaacMove {
    fn pack(self) -> u32 {
        let bytes = match self {
            IsaacMove::Place {
                size,
                vertical,
                anchor,
            } => [1, size | (vertical as u8) << 7, anchor, 0],
            IsaacMove::Remove {
                size,
                vertical,
                anchor,
                k,
            } => [2, size | (vertical as u8) << 7, anchor, k],
            IsaacMove::Pass => [3, 0, 0, 0],
        };
        u32::from_le_bytes(bytes)
    }

    fn unpack(bits: u32) -> Option<Self> {
        let [kind, size, anchor, k] = bits.to_le_bytes();
        let (vertical, size) = (size >> 7 == 1, size & 0x7f);
        match kind {
            1 => Some(IsaacMove::Place {
                size,
                vertical,
                anchor,
            }),
            2 => Some(IsaacMove::Remove {
                size,
                vertical,
                anchor,
                k,
            }),
            3 => Some(IsaacMove::Pass),
            _ => None,
        }
    }
}

impl Game for Isaac {
    type Move = IsaacMove;
    type Settings = IsaacRules;
    const NAME: &'static str = "isaac";

    fn options() -> Vec<OptionSpec> {
        vec![
            OptionSpec::combo(
                OPTION_LINE_TIEBREAK,
                "cells-then-tiles",
                &["cells-then-tiles", "cells-only"],
            ),
            OptionSpec::combo(
                OPTION_SCORING_STARTER,
                "first-passer",
                &["first-passer", "dark"],
            ),
            OptionSpec::check(OPTION_COLLISION, true),
            OptionSpec::check(OPTION_EARLY_FINISH, false),
        ]
    }

    fn settings(values: &OptionValues) -> IsaacRules {
        IsaacRules {
            cells_only_tiebreak: values.get(OPTION_LINE_TIEBREAK) == Some("cells-only"),
            scoring_starter_dark: values.get(OPTION_SCORING_STARTER) == Some("dark"),
            collision: values.get_bool(OPTION_COLLISION, true),
            early_finish: values.get_bool(OPTION_EARLY_FINISH, false),
        }
    }

    fn start(rules: &IsaacRules) -> Self {
        Isaac::new(*rules)
    }

    fn from_fen(s: &str, rules: &IsaacRules) -> Result<Self, ParseError> {
        notation::parse_position(s, *rules)
    }

    fn to_fen(&self) -> String {
        notation::write_position(self)
    }

    fn parse_move(&self, s: &str) -> Result<IsaacMove, ParseError> {
        notation::parse_move(s)
    }

    fn move_to_string(&self, m: IsaacMove) -> String {
        notation::write_move(m)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate_moves(&self, out: &mut Vec<IsaacMove>) {
        out.clear();
        match self.phase {
            Phase::Placement => self.placements(out),
            Phase::Scoring => self.removals(out, false),
            Phase::Ended => return,
        }
        if out.is_empty() {
            out.push(IsaacMove::Pass);
        }
    }

    fn play(&mut self, m: IsaacMove) {
        debug_assert!(self.is_legal(m), "illegal {m:?} in {}", self.to_fen());
        self.apply(m);
    }

    fn why_illegal(&self, m: IsaacMove) -> String {
        self.explain_illegal(m)
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Ended).then(|| Outcome::Win(self.winner()))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn render(&self) -> String {
        notation::render(self)
    }
}

/// Isaac has no solved book.
impl SolvedBook for Isaac {}

/// Every move of `pos` with the position it leads to, but for the moves that end the game: the
/// children a search evaluates, for the tests of evaluations found from the parent.
#[cfg(test)]
pub(crate) fn unfinished_children(pos: &Isaac) -> Vec<(IsaacMove, Isaac)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            (mv, child)
        })
        .filter(|(_, child)| child.outcome().is_none())
        .collect()
}

/// Positions of seeded random games (seeds `0..games`), every ply of both phases: what the
/// tests of the features and of the net's updates walk through.
#[cfg(test)]
pub(crate) fn random_positions(games: u64) -> Vec<Isaac> {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = Isaac::start(&Default::default());
        while pos.outcome().is_none() {
            positions.push(pos.clone());
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    positions
}
