//! Tactigon, exactly per `docs/rules/tactigon.md`: circles, triangles, squares and a pentagon per
//! side on a 53-cell hex board; moves of up to 1/3/4/5 steps along any path through empty
//! cells, an attack only as the last step; the combat table; the end by pentagon capture, by
//! holding both gold tiles at the end of the opponent's turn, by having no move, by
//! repetition (option) or by the ply cap.
//!
//! Representation: one `u64` bitboard per side and piece kind. A move is (from, to).

pub mod board;
mod eval;
mod features;
mod notation;
pub mod present;
mod search_hooks;
mod wdl;

use crate::game::{
    Game, OptionSpec, OptionValues, Outcome, PackedMove, ParseError, Player, SolvedBook, zobrist,
};
use board::{CELLS, board, neighbours_of};

/// Piece kinds, indexed 0..4: circle, triangle, square, pentagon.
pub const CIRCLE: usize = 0;
/// See [`CIRCLE`].
pub const TRIANGLE: usize = 1;
/// See [`CIRCLE`].
pub const SQUARE: usize = 2;
/// See [`CIRCLE`].
pub const PENTAGON: usize = 3;
/// Steps each kind may take (docs/rules/tactigon.md §3, M2).
pub const RANGE: [u32; 4] = [1, 3, 4, 5];
/// How many of each kind a side has at most (docs/rules/tactigon.md §2).
pub const MAX_COUNT: [u32; 4] = [6, 3, 3, 1];

/// The result of an attack (docs/rules/tactigon.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combat {
    /// The defender is removed; the attacker takes its cell.
    Defender,
    /// Both pieces are removed.
    Both,
    /// The attack is not allowed.
    Forbidden,
}

/// `COMBAT[attacker][defender]`, kinds in the order circle, triangle, square, pentagon.
pub const COMBAT: [[Combat; 4]; 4] = {
    use Combat::{Both as B, Defender as D, Forbidden as X};
    [[D, D, D, D], [B, D, D, D], [X, B, D, D], [X, X, X, D]]
};

/// Tactigon's rule switches (docs/rules/tactigon.md §5.5 and §6.1); the default is the base game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TactigonRules {
    /// Plies after which the game is a draw; 0 = no cap.
    pub ply_cap: u32,
    /// A player with no legal move draws instead of losing.
    pub no_move_draw: bool,
    /// The third occurrence of a position (board and side to move) is a draw.
    pub repetition: bool,
    /// Advanced rule A1: squares may pass through any piece but an enemy square.
    pub jumping_squares: bool,
    /// Advanced rule A2: a piece starting its move on a gold tile has one more step.
    pub gold_bonus: bool,
}

impl Default for TactigonRules {
    fn default() -> Self {
        TactigonRules {
            ply_cap: 300,
            no_move_draw: false,
            repetition: false,
            jumping_squares: false,
            gold_bonus: false,
        }
    }
}

/// A move: the piece on `from` goes to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TactigonMove {
    /// Origin cell (0..53).
    pub from: u8,
    /// Destination cell.
    pub to: u8,
}

/// A Tactigon position with its rule switches.
#[derive(Clone, Debug)]
pub struct Tactigon {
    /// `[side][kind]` bitboards; side 0 = Red (player one).
    pieces: [[u64; 4]; 2],
    side: Player,
    ply: u32,
    rules: TactigonRules,
    /// Zobrist key of the board and side to move (what repetition compares).
    hash: u64,
    /// Board keys of the earlier positions of the game (kept only under the repetition rule).
    history: Vec<u64>,
}

impl PartialEq for Tactigon {
    /// Positions are equal when board, side, ply and rules are; the repetition history is
    /// not part of the position's notation, so it is left out.
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces
            && self.side == other.side
            && self.ply == other.ply
            && self.rules == other.rules
    }
}

const Z_PIECE: u64 = 0x2_0001;
const Z_SIDE: u64 = 0x2_0002;
const Z_PLY: u64 = 0x2_0003;

fn piece_key(side: usize, kind: usize, cell: usize) -> u64 {
    zobrist::feature(
        Z_PIECE,
        (side as u64) << 12 | (kind as u64) << 8 | cell as u64,
    )
}

/// The start position (docs/rules/tactigon.md §2).
pub const START_FEN: &str = "2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0";

impl Tactigon {
    /// Cells holding pieces of `side`.
    #[inline]
    pub fn occupied_by(&self, side: usize) -> u64 {
        let p = &self.pieces[side];
        p[0] | p[1] | p[2] | p[3]
    }

    /// All occupied cells.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.occupied_by(0) | self.occupied_by(1)
    }

    /// The side and kind of the piece on `cell`.
    pub fn piece_at(&self, cell: usize) -> Option<(usize, usize)> {
        (0..2)
            .flat_map(|s| (0..4).map(move |k| (s, k)))
            .find(|&(s, k)| self.pieces[s][k] >> cell & 1 == 1)
    }

    /// The bitboard of `side`'s pieces of `kind`.
    pub fn pieces(&self, side: usize, kind: usize) -> u64 {
        self.pieces[side][kind]
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The rule switches.
    pub fn rules(&self) -> TactigonRules {
        self.rules
    }

    /// Every cell the piece of `kind` of `side` on `from` may move to
    /// (docs/rules/tactigon.md §3 M7, §6.1 A1 and A2).
    pub fn destinations(&self, side: usize, kind: usize, from: usize) -> u64 {
        let all = self.occupied();
        let empty = !all & ((1u64 << CELLS) - 1);
        let enemy = &self.pieces[1 - side];
        let attackable = (0..4)
            .filter(|&d| COMBAT[kind][d] != Combat::Forbidden)
            .fold(0, |m, d| m | enemy[d]);
        let pass_through = if self.rules.jumping_squares && kind == SQUARE {
            all & !enemy[SQUARE]
        } else {
            0
        };
        let start = 1u64 << from;
        let bonus = u32::from(self.rules.gold_bonus && board().gold & start != 0);
        let (mut visited, mut frontier, mut dests, mut targets) = (start, start, 0, 0);
        for _ in 0..RANGE[kind] + bonus {
            let next = neighbours_of(frontier);
            targets |= next & attackable;
            frontier = next & !visited & (empty | pass_through);
            visited |= frontier;
            dests |= frontier & empty;
            if frontier == 0 {
                break;
            }
        }
        dests | targets
    }

    /// The kind of `side`'s piece on `cell` (a circle if there is none: callers pass own cells).
    #[inline]
    fn kind_at(&self, side: usize, cell: usize) -> usize {
        (0..4)
            .find(|&k| self.pieces[side][k] >> cell & 1 == 1)
            .unwrap_or(CIRCLE)
    }

    /// Each piece of `side`, by cell, with the cells it may move to.
    fn reach(&self, side: usize) -> impl Iterator<Item = (usize, u64)> + '_ {
        bits(self.occupied_by(side)).map(move |from| {
            (
                from,
                self.destinations(side, self.kind_at(side, from), from),
            )
        })
    }

    /// Appends `side`'s moves in canonical order: by origin cell, then destination.
    fn moves_of(&self, side: usize, out: &mut Vec<TactigonMove>) {
        for (from, dests) in self.reach(side) {
            out.extend(bits(dests).map(|to| TactigonMove {
                from: from as u8,
                to: to as u8,
            }));
        }
    }

    /// The number of legal moves of `side` (as if it were to move).
    pub fn mobility(&self, side: usize) -> u32 {
        self.reach(side).map(|(_, d)| d.count_ones()).sum()
    }

    fn has_move(&self, side: usize) -> bool {
        self.reach(side).any(|(_, d)| d != 0)
    }

    /// The end conditions that need no move generation, in the order of docs/rules/tactigon.md
    /// §5.4: a missing pentagon, then the side to move holding both gold tiles.
    fn decided(&self) -> Option<Outcome> {
        let me = self.side.index();
        let them = 1 - me;
        let player = |i: usize| if i == 0 { Player::One } else { Player::Two };
        if self.pieces[me][PENTAGON] == 0 {
            return Some(Outcome::Win(player(them)));
        }
        if self.pieces[them][PENTAGON] == 0 {
            return Some(Outcome::Win(player(me)));
        }
        let gold = board().gold;
        (self.occupied_by(me) & gold == gold).then_some(Outcome::Win(player(me)))
    }

    /// Draws by repetition (option) and by the ply cap, checked after "no legal move".
    fn drawn(&self) -> bool {
        let repeated =
            self.rules.repetition && self.history.iter().filter(|&&h| h == self.hash).count() >= 2;
        repeated || (self.rules.ply_cap > 0 && self.ply >= self.rules.ply_cap)
    }

    /// The ply's share of [`Game::hash`]: under a ply cap the same board at another ply can
    /// have another result, so the search must not confuse the two.
    fn ply_key(&self) -> u64 {
        if self.rules.ply_cap > 0 {
            zobrist::feature(Z_PLY, self.ply as u64)
        } else {
            0
        }
    }

    /// The hash computed from the whole position (equal to [`Game::hash`]).
    pub fn hash_from_scratch(&self) -> u64 {
        self.board_hash_from_scratch() ^ self.ply_key()
    }

    /// The key of board and side to move (kept up to date by `play`; what repetition
    /// compares).
    pub(super) fn board_key(&self) -> u64 {
        self.hash
    }

    /// The key of board and side to move, computed from scratch.
    pub(super) fn board_hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Player::Two {
            zobrist::feature(Z_SIDE, 1)
        } else {
            0
        };
        for side in 0..2 {
            for kind in 0..4 {
                for cell in bits(self.pieces[side][kind]) {
                    h ^= piece_key(side, kind, cell);
                }
            }
        }
        h
    }

    fn toggle(&mut self, side: usize, kind: usize, cell: usize) {
        self.pieces[side][kind] ^= 1 << cell;
        self.hash ^= piece_key(side, kind, cell);
    }
}

pub use crate::game::bitboard::bits;

/// Option names of Tactigon's rule switches.
pub const OPTION_PLY_CAP: &str = "Tactigon_PlyCap";
/// See [`TactigonRules::no_move_draw`].
pub const OPTION_NO_MOVE_RESULT: &str = "Tactigon_NoMoveResult";
/// See [`TactigonRules::repetition`].
pub const OPTION_REPETITION: &str = "Tactigon_Repetition";
/// See [`TactigonRules::jumping_squares`].
pub const OPTION_JUMPING_SQUARES: &str = "Tactigon_JumpingSquares";
/// See [`TactigonRules::gold_bonus`].
pub const OPTION_GOLD_BONUS: &str = "Tactigon_GoldBonus";

impl PackedMove for TactigonMove {
    fn pack(self) -> u32 {
        (self.from as u32) << 8 | self.to as u32
    }

    fn unpack(bits: u32) -> Option<Self> {
        (bits >> 16 == 0).then_some(TactigonMove {
            from: (bits >> 8) as u8,
            to: bits as u8,
        })
    }
}

impl Game for Tactigon {
    type Move = TactigonMove;
    type Settings = TactigonRules;
    const NAME: &'static str = "tactigon";

    fn options() -> Vec<OptionSpec> {
        vec![
            OptionSpec::spin(OPTION_PLY_CAP, 300, 0, 100_000),
            OptionSpec::combo(OPTION_NO_MOVE_RESULT, "loss", &["loss", "draw"]),
            OptionSpec::check(OPTION_REPETITION, false),
            OptionSpec::check(OPTION_JUMPING_SQUARES, false),
            OptionSpec::check(OPTION_GOLD_BONUS, false),
        ]
    }

    fn settings(values: &OptionValues) -> TactigonRules {
        TactigonRules {
            ply_cap: values
                .get_i64(OPTION_PLY_CAP, 300)
                .clamp(0, u32::MAX as i64) as u32,
            no_move_draw: values.get(OPTION_NO_MOVE_RESULT) == Some("draw"),
            repetition: values.get_bool(OPTION_REPETITION, false),
            jumping_squares: values.get_bool(OPTION_JUMPING_SQUARES, false),
            gold_bonus: values.get_bool(OPTION_GOLD_BONUS, false),
        }
    }

    fn start(rules: &TactigonRules) -> Self {
        notation::parse_position(START_FEN, *rules)
            .unwrap_or_else(|e| unreachable!("the start position parses: {e}"))
    }

    fn from_fen(s: &str, rules: &TactigonRules) -> Result<Self, ParseError> {
        notation::parse_position(s, *rules)
    }

    fn to_fen(&self) -> String {
        notation::write_position(self)
    }

    fn parse_move(&self, s: &str) -> Result<TactigonMove, ParseError> {
        notation::parse_move(s)
    }

    fn move_to_string(&self, m: TactigonMove) -> String {
        notation::write_move(m)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn generate_moves(&self, out: &mut Vec<TactigonMove>) {
        out.clear();
        if self.decided().is_none() && !self.drawn() {
            self.moves_of(self.side.index(), out);
        }
    }

    fn play(&mut self, m: TactigonMove) {
        debug_assert!(self.is_legal(m), "illegal {m:?} in {}", self.to_fen());
        let me = self.side.index();
        let (from, to) = (m.from as usize, m.to as usize);
        let kind = (0..4).find(|&k| self.pieces[me][k] >> from & 1 == 1);
        let Some(kind) = kind else { return };
        if self.rules.repetition {
            self.history.push(self.hash);
        }
        self.toggle(me, kind, from);
        let defender = (0..4).find(|&k| self.pieces[1 - me][k] >> to & 1 == 1);
        match defender.map(|d| (d, COMBAT[kind][d])) {
            Some((d, Combat::Both)) => self.toggle(1 - me, d, to),
            Some((d, _)) => {
                self.toggle(1 - me, d, to);
                self.toggle(me, kind, to);
            }
            None => self.toggle(me, kind, to),
        }
        self.ply = self.ply.saturating_add(1);
        self.side = self.side.opponent();
        self.hash ^= zobrist::feature(Z_SIDE, 1);
    }

    fn why_illegal(&self, m: TactigonMove) -> String {
        const KINDS: [&str; 4] = ["circle", "triangle", "square", "pentagon"];
        let me = self.side.index();
        let (from, to) = (m.from as usize, m.to as usize);
        let side_name = if me == 0 { "Red" } else { "Blue" };
        let (from_name, to_name) = (board::cell_name(from), board::cell_name(to));
        match (self.piece_at(from), self.piece_at(to)) {
            (Some((s, kind)), target) if s == me => match target {
                Some((t, _)) if t == me => format!("{to_name} holds a {side_name} piece"),
                Some((_, d)) if COMBAT[kind][d] == Combat::Forbidden => {
                    format!("a {} may not attack a {}", KINDS[kind], KINDS[d])
                }
                _ => format!(
                    "the {} on {from_name} cannot reach {to_name} (range {}; the path is \
                     blocked or too long)",
                    KINDS[kind], RANGE[kind]
                ),
            },
            _ => format!("no {side_name} piece on {from_name}"),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(decided) = self.decided() {
            return Some(decided);
        }
        if !self.has_move(self.side.index()) {
            return Some(if self.rules.no_move_draw {
                Outcome::Draw
            } else {
                Outcome::Win(self.side.opponent())
            });
        }
        self.drawn().then_some(Outcome::Draw)
    }

    fn hash(&self) -> u64 {
        self.hash ^ self.ply_key()
    }

    fn render(&self) -> String {
        notation::render(self)
    }
}

/// Tactigon has no solved book.
impl SolvedBook for Tactigon {}
