//! Sight, exactly per `docs/rules/sight.md`: placement and movement on an N×N Alquerque grid,
//! growth of friendly piles in line of sight, tallest-stack-first movement (with the official
//! fallback, or `strict_tallest` as in the seed program), and a loss for a player with no move.
//!
//! Representation: one occupancy bitboard per colour, a bitboard of piles of height ≥ 2, and a
//! height per point. Every turn fills exactly one point (docs/rules/sight.md §4), so games last at
//! most N² plies and never repeat.

mod eval;
mod features;
pub mod geometry;
mod illegal;
mod notation;
pub mod present;
mod search_hooks;
mod wdl;

use crate::game::{
    Game, OptionSpec, OptionValues, Outcome, PackedMove, ParseError, Player, SolvedBook, zobrist,
};
use geometry::{Geometry, MAX_POINTS, geometry, nearest};

/// Sight's rule switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SightSettings {
    /// Board side N (odd 3–9 recommended; even sizes allowed, see docs/rules/sight.md §6.2).
    pub size: usize,
    /// The seed's rule: only the overall tallest stacks may move, no fallback
    /// (docs/rules/sight.md §6.1).
    pub strict_tallest: bool,
}

impl Default for SightSettings {
    fn default() -> Self {
        SightSettings {
            size: 5,
            strict_tallest: false,
        }
    }
}

/// A Sight move: a placement on `to`, or a step from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SightMove {
    /// Origin point of a movement, [`SightMove::PLACE`] for a placement.
    pub from: u8,
    /// The point that gets the new piece.
    pub to: u8,
}

impl SightMove {
    /// The `from` value of a placement.
    pub const PLACE: u8 = u8::MAX;

    /// A placement on point `to`.
    pub fn place(to: usize) -> Self {
        SightMove {
            from: Self::PLACE,
            to: to as u8,
        }
    }

    /// A step from `from` to `to`.
    pub fn step(from: usize, to: usize) -> Self {
        SightMove {
            from: from as u8,
            to: to as u8,
        }
    }

    /// Whether this is a placement.
    pub fn is_placement(self) -> bool {
        self.from == Self::PLACE
    }
}

/// A Sight position with its rule switches.
#[derive(Clone, Debug)]
pub struct Sight {
    geo: &'static Geometry,
    /// Occupied points per player (White = player one).
    occupied: [u128; 2],
    /// Points holding a pile of height ≥ 2, either colour.
    stacks: u128,
    /// Height of the pile on each point, 0 where empty.
    height: [u8; MAX_POINTS],
    side: Player,
    strict_tallest: bool,
    hash: u64,
}

impl PartialEq for Sight {
    fn eq(&self, other: &Self) -> bool {
        self.geo.n == other.geo.n
            && self.occupied == other.occupied
            && self.height == other.height
            && self.side == other.side
            && self.strict_tallest == other.strict_tallest
    }
}

/// Option names of Sight's rule switches.
pub const OPTION_BOARD_SIZE: &str = "Sight_BoardSize";
/// See [`SightSettings::strict_tallest`].
pub const OPTION_STRICT_TALLEST: &str = "Sight_StrictTallest";

/// The greatest pile height a position may be given with (growth stays below `u8::MAX`).
pub const MAX_GIVEN_HEIGHT: u8 = 127;

impl Sight {
    /// An empty board of side `settings.size`; `None` for unsupported sizes.
    fn empty(settings: &SightSettings, side: Player) -> Option<Sight> {
        let geo = geometry(settings.size)?;
        let mut s = Sight {
            geo,
            occupied: [0; 2],
            stacks: 0,
            height: [0; MAX_POINTS],
            side,
            strict_tallest: settings.strict_tallest,
            hash: 0,
        };
        s.hash = s.hash_from_scratch();
        Some(s)
    }

    /// The board geometry.
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// Board side N.
    pub fn size(&self) -> usize {
        self.geo.n
    }

    /// Owner and height of the pile on point `p`, if any.
    pub fn pile(&self, p: usize) -> Option<(Player, u8)> {
        if self.occupied[0] >> p & 1 == 1 {
            Some((Player::One, self.height[p]))
        } else if self.occupied[1] >> p & 1 == 1 {
            Some((Player::Two, self.height[p]))
        } else {
            None
        }
    }

    /// Empty points of the board.
    #[inline]
    pub fn empty_points(&self) -> u128 {
        self.geo.board & !(self.occupied[0] | self.occupied[1])
    }

    /// Whether the strict-tallest rule variant is on.
    pub fn strict_tallest(&self) -> bool {
        self.strict_tallest
    }

    /// The stacks of `side` that may move now (docs/rules/sight.md §3.3), or `None` when `side` has
    /// no stack and so must place. An empty set means `side` has stacks but cannot move.
    pub fn movable_stacks(&self, side: Player) -> Option<u128> {
        let own = self.stacks & self.occupied[side.index()];
        if own == 0 {
            return None;
        }
        let empty = self.empty_points();
        let mut best = 0u8;
        let mut movable = 0u128;
        for p in bits(own) {
            let h = self.height[p];
            let free = self.geo.neighbours[p] & empty != 0;
            // Strict: the overall tallest stacks decide, blocked or not. Official: only stacks
            // with a free neighbour count, so a blocked taller stack hands over to the next.
            if !(free || self.strict_tallest) || h < best {
                continue;
            }
            if h > best {
                best = h;
                movable = 0;
            }
            if free {
                movable |= 1 << p;
            }
        }
        Some(movable)
    }

    /// Appends every legal move of `side` (as if `side` were to move) to `out`, in order.
    pub fn moves_for(&self, side: Player, out: &mut Vec<SightMove>) {
        let empty = self.empty_points();
        match self.movable_stacks(side) {
            None => out.extend(bits(empty).map(SightMove::place)),
            Some(movable) => {
                for p in bits(movable) {
                    out.extend(bits(self.geo.neighbours[p] & empty).map(|q| SightMove::step(p, q)));
                }
            }
        }
    }

    /// The number of legal moves `side` would have if it were to move.
    pub fn count_moves_for(&self, side: Player) -> u32 {
        let empty = self.empty_points();
        match self.movable_stacks(side) {
            None => empty.count_ones(),
            Some(movable) => bits(movable)
                .map(|p| (self.geo.neighbours[p] & empty).count_ones())
                .sum(),
        }
    }

    /// Puts one piece of the side to move on empty point `q` and grows the friendly piles in
    /// sight of it, except `origin` (docs/rules/sight.md §3.2–3.3).
    fn place_and_grow(&mut self, q: usize, origin: Option<usize>) {
        let me = self.side.index();
        self.occupied[me] |= 1 << q;
        self.height[q] = 1;
        self.hash ^= zobrist_pile(q, me, 1);
        let all = self.occupied[0] | self.occupied[1];
        for d in 0..8 {
            let hits = self.geo.rays[q][d] & all;
            if hits == 0 {
                continue;
            }
            let r = nearest(hits, d);
            if Some(r) == origin || self.occupied[me] >> r & 1 == 0 {
                continue;
            }
            let h = self.height[r];
            self.hash ^= zobrist_pile(r, me, h) ^ zobrist_pile(r, me, h + 1);
            self.height[r] = h + 1;
            self.stacks |= 1 << r;
        }
    }

    /// The hash computed from the whole position (the incremental one must equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = zobrist_size(self.geo.n);
        if self.side == Player::Two {
            h ^= ZOBRIST_SIDE;
        }
        for p in 0..self.geo.points {
            if let Some((owner, height)) = self.pile(p) {
                h ^= zobrist_pile(p, owner.index(), height);
            }
        }
        h
    }

    /// Builds a position from piles; used by the notation reader.
    fn from_piles(
        settings: &SightSettings,
        piles: &[(usize, Player, u8)],
        side: Player,
    ) -> Option<Sight> {
        let mut s = Sight::empty(settings, side)?;
        for &(p, owner, h) in piles {
            s.occupied[owner.index()] |= 1 << p;
            s.height[p] = h;
            if h >= 2 {
                s.stacks |= 1 << p;
            }
        }
        s.hash = s.hash_from_scratch();
        Some(s)
    }
}

impl PackedMove for SightMove {
    fn pack(self) -> u32 {
        (self.from as u32) << 8 | self.to as u32
    }

    fn unpack(bits: u32) -> Option<Self> {
        (bits >> 16 == 0).then_some(SightMove {
            from: (bits >> 8) as u8,
            to: bits as u8,
        })
    }
}

impl Game for Sight {
    type Move = SightMove;
    type Settings = SightSettings;
    const NAME: &'static str = "sight";

    fn options() -> Vec<OptionSpec> {
        vec![
            OptionSpec::spin(
                OPTION_BOARD_SIZE,
                5,
                geometry::MIN_SIZE as i64,
                geometry::MAX_SIZE as i64,
            ),
            OptionSpec::check(OPTION_STRICT_TALLEST, false),
        ]
    }

    fn settings(values: &OptionValues) -> SightSettings {
        let default = SightSettings::default();
        SightSettings {
            size: values.get_i64(OPTION_BOARD_SIZE, default.size as i64) as usize,
            strict_tallest: values.get_bool(OPTION_STRICT_TALLEST, default.strict_tallest),
        }
    }

    fn start(settings: &SightSettings) -> Self {
        Sight::empty(settings, Player::One)
            .or_else(|| Sight::empty(&SightSettings::default(), Player::One))
            .unwrap_or_else(|| unreachable!("size 5 is always supported"))
    }

    fn from_fen(s: &str, settings: &SightSettings) -> Result<Self, ParseError> {
        notation::parse_position(s, settings)
    }

    fn to_fen(&self) -> String {
        notation::write_position(self)
    }

    fn parse_move(&self, s: &str) -> Result<SightMove, ParseError> {
        notation::parse_move(self.geo, s)
    }

    fn move_to_string(&self, m: SightMove) -> String {
        notation::write_move(self.geo, m)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate_moves(&self, out: &mut Vec<SightMove>) {
        out.clear();
        self.moves_for(self.side, out);
    }

    fn play(&mut self, m: SightMove) {
        debug_assert!(self.is_legal(m), "illegal move {m:?} in {}", self.to_fen());
        let me = self.side.index();
        let origin = if m.is_placement() {
            None
        } else {
            let p = m.from as usize;
            let h = self.height[p];
            self.hash ^= zobrist_pile(p, me, h) ^ zobrist_pile(p, me, h - 1);
            self.height[p] = h - 1;
            if h == 2 {
                self.stacks &= !(1 << p);
            }
            Some(p)
        };
        self.place_and_grow(m.to as usize, origin);
        self.side = self.side.opponent();
        self.hash ^= ZOBRIST_SIDE;
    }

    fn why_illegal(&self, m: SightMove) -> String {
        self.explain_illegal(m)
    }

    fn outcome(&self) -> Option<Outcome> {
        let can_move = match self.movable_stacks(self.side) {
            None => self.empty_points() != 0,
            Some(movable) => movable != 0,
        };
        (!can_move).then_some(Outcome::Win(self.side.opponent()))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn render(&self) -> String {
        notation::render(self)
    }
}

/// The solved books hold Sight positions (3×3, 4×4 and 5×5, under both tallest-stack rules).
impl SolvedBook for Sight {
    const HAS_SOLVED_BOOK: bool = true;

    fn solved_book_position(&self) -> Option<&Sight> {
        Some(self)
    }
}

pub use crate::game::bitboard::bits;

const ZOBRIST_SIDE: u64 = 0x9E37_79B9_7F4A_7C15;

/// Zobrist key of a pile of `height` owned by player `owner` (0 or 1) on point `p`.
#[inline]
fn zobrist_pile(p: usize, owner: usize, height: u8) -> u64 {
    zobrist::key(((p as u64) << 16) | ((owner as u64) << 8) | height as u64)
}

/// Zobrist key of the board size, so that boards of different sizes never share keys.
fn zobrist_size(n: usize) -> u64 {
    zobrist::key(0x5157_0000 | n as u64)
}
