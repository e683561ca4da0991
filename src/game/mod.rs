//! Rules of the games and what the engine knows of them: the rules ([`Game`]), the search
//! knowledge kept apart from them (the hand evaluation [`Evaluate`], the net's inputs
//! [`NetFeatures`], the search's hooks [`SearchHooks`], the door to the solved book
//! [`SolvedBook`], the win/draw/loss model [`WinChances`]; all of them together:
//! [`Searchable`]),
//! shared vocabulary ([`Player`], [`Outcome`], [`ParseError`]) and the one runtime dispatch
//! over [`GameId`].
//!
//! Layering: nothing in this module imports from `search`, `protocol` or `engine`.

pub mod bitboard;
pub mod dynamic;
pub mod isaac;
pub mod options;
pub mod present;
pub mod rated;
pub mod sight;
pub mod tactigon;
pub mod wdl;
pub mod zobrist;

use std::fmt::{self, Debug, Display};
use std::hash::Hash;

pub use options::{OptionKind, OptionSpec, OptionValues};
pub use rated::RatedSetting;
pub use wdl::WinChances;

/// A seat at the table. Player one moves first (Isaac Dark, Sight White, Tactigon Red).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first.
    One,
    /// The player who moves second.
    Two,
}

impl Player {
    /// The other seat.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player one, 1 for player two: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended, in absolute terms (not relative to the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// A position or move text that could not be read, with a message that says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl ParseError {
    /// Builds an error from anything printable.
    pub fn new(msg: impl Into<String>) -> Self {
        ParseError(msg.into())
    }
}

impl Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// A move that is well formed but not legal in the position it was offered to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub String);

impl Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The rules of one game. Implementations hold a complete position, cheap to clone:
/// search uses copy-make (clone, then [`Game::play`]).
///
/// Contracts every implementation keeps (the invariant battery in `tests/` checks them):
/// - [`Game::generate_moves`] yields exactly the legal moves, each once, in the game's
///   canonical order; a forced pass is a move.
/// - [`Game::outcome`] is `Some` exactly when the game is over; a position with no legal move
///   is over.
/// - `from_fen(to_fen(p)) == p` and `parse_move(move_to_string(m)) == m`.
/// - [`Game::hash`] after any sequence of [`Game::play`] equals the hash of the same position
///   parsed from scratch.
pub trait Game: Clone + Debug + PartialEq + Send + 'static {
    /// One move, small and copyable.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + PackedMove + 'static;
    /// Rule switches that hold for a whole game (board size, rule variants).
    type Settings: Clone + Debug + Send + Sync + 'static;

    /// The game's name as used by `UCI_Variant` and `--game` (lower case).
    const NAME: &'static str;

    /// The rule switches this game offers, named `<Game>_<Switch>`.
    fn options() -> Vec<OptionSpec>;
    /// Reads the settings from option values (every value already checked against its spec).
    fn settings(values: &OptionValues) -> Self::Settings;

    /// The start position under the given settings.
    fn start(settings: &Self::Settings) -> Self;
    /// Reads a position in the game's notation.
    fn from_fen(s: &str, settings: &Self::Settings) -> Result<Self, ParseError>;
    /// Writes the position in canonical notation.
    fn to_fen(&self) -> String;
    /// Reads a move in the game's notation. The move need not be legal.
    fn parse_move(&self, s: &str) -> Result<Self::Move, ParseError>;
    /// Writes a move in canonical notation.
    fn move_to_string(&self, m: Self::Move) -> String;

    /// Whose turn it is.
    fn side_to_move(&self) -> Player;
    /// Clears `out` and fills it with every legal move, in canonical order.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a legal move (legality is checked only by debug assertions).
    fn play(&mut self, m: Self::Move);
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The Zobrist hash of the position, kept incrementally by [`Game::play`].
    fn hash(&self) -> u64;
    /// The board drawn in text for people, several lines (used by the `d` command).
    fn render(&self) -> String;

    /// Whether `m` is one of the legal moves.
    fn is_legal(&self, m: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.contains(&m)
    }

    /// Why `m` is not legal here, for error messages (called only for illegal moves).
    fn why_illegal(&self, _m: Self::Move) -> String {
        "not a legal move here".to_string()
    }

    /// The moves of `line`, played one after another from this position (each legal where it
    /// is played), in canonical notation: a principal variation as text.
    fn line_notation(&self, line: &[Self::Move]) -> Vec<String> {
        let mut pos = self.clone();
        line.iter()
            .map(|&m| {
                let text = pos.move_to_string(m);
                pos.play(m);
                text
            })
            .collect()
    }

    /// Parses and plays a move, or says why it cannot be played; `self` is unchanged on error.
    fn try_play_str(&mut self, s: &str) -> Result<Self::Move, IllegalMove> {
        let m = self
            .parse_move(s)
            .map_err(|e| IllegalMove(format!("{s}: {e}")))?;
        if self.outcome().is_some() {
            return Err(IllegalMove(format!("{s}: the game is over")));
        }
        if !self.is_legal(m) {
            return Err(IllegalMove(format!("{s}: {}", self.why_illegal(m))));
        }
        self.play(m);
        Ok(m)
    }

    /// Counts the leaf nodes of the legal-move tree `depth` plies deep (bulk-counted at the
    /// last ply). Finished positions count as leaves only at depth 0.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// A move packed into 32 bits, for the transposition table that search threads share.
pub trait PackedMove: Sized {
    /// The move's bits.
    fn pack(self) -> u32;
    /// The move back from [`PackedMove::pack`]'s bits; `None` for bits no move packs to.
    fn unpack(bits: u32) -> Option<Self>;
}

/// The hand-written evaluation of a game's positions: what the search scores a position it
/// stops at, and what a learned evaluation ([`NetFeatures`]) is added to.
pub trait Evaluate: Game {
    /// Static evaluation from the side to move's view, in the game's documented unit
    /// (centipawn-like: 100 is a clear advantage). Never called on finished positions.
    fn evaluate(&self) -> i32;
    /// Human-readable terms of the evaluation (used by the `eval` command).
    fn explain_eval(&self) -> String {
        format!("total {}", self.evaluate())
    }
    /// What a position works out once so that [`Evaluate::evaluate_child`] of each of its
    /// moves is faster (a search that evaluates every move of a position, MCTS's expansion);
    /// `()` in a game without such a shortcut.
    type Prepared: Default + std::fmt::Debug + Send;
    /// Works out into `prepared` what [`Evaluate::evaluate_child`] of this position's moves
    /// needs. Nothing by default.
    fn prepare_children(&self, _prepared: &mut Self::Prepared) {}
    /// [`Evaluate::evaluate`] of `child`, the position after legal move `mv` in this position,
    /// with `prepared` from [`Evaluate::prepare_children`] of this position: always the same
    /// value, found faster where the game knows how. By default `child.evaluate()`.
    fn evaluate_child(&self, _prepared: &Self::Prepared, _mv: Self::Move, child: &Self) -> i32 {
        child.evaluate()
    }
}

/// The inputs a learned evaluation (`src/net`) sees a game's positions through. A game without
/// them keeps the defaults: no feature set, no inputs.
pub trait NetFeatures: Game {
    /// The name and version of the game's input features; a net file names the set it was
    /// trained on. Empty where the game has none.
    const NET_FEATURES: &'static str = "";
    /// How many inputs [`NetFeatures::net_features`] chooses from.
    const NET_INPUTS: usize = 0;
    /// The most inputs [`NetFeatures::net_features`] sets in any position from one view: a
    /// bound on a hidden sum's size, which lets a net sum in narrower integers where it can
    /// (`src/net`). All of them by default.
    const NET_MAX_ACTIVE: usize = Self::NET_INPUTS;
    /// Pushes onto `out` the active inputs (each below [`NetFeatures::NET_INPUTS`], no input
    /// twice) of the position seen by player `view` (0: player one, 1: player two), written
    /// relative to the viewer, so that both views share one set of weights. Nothing by
    /// default.
    fn net_features(&self, _view: usize, _out: &mut Vec<u16>) {}
    /// How legal move `mv` changes the inputs seen by player `view`: pushes onto `added` the
    /// inputs [`NetFeatures::net_features`] of the position after `mv` has and this position's
    /// has not, onto `removed` the reverse, and returns true. Returns false where the game
    /// cannot tell cheaply (the caller then lists the new position's inputs from scratch);
    /// what it pushed then means nothing. Never tells by default.
    fn net_feature_delta(
        &self,
        _mv: Self::Move,
        _view: usize,
        _added: &mut Vec<u16>,
        _removed: &mut Vec<u16>,
    ) -> bool {
        false
    }
    /// The inputs positions of this game's variant can have: all by default; a game whose
    /// variants have separate input ranges (Sight's board sizes) names its variant's range, so
    /// that a net never trained on that variant (all its weights there zero) is not used on it.
    fn net_inputs_in_play(&self) -> std::ops::Range<usize> {
        0..Self::NET_INPUTS
    }
}

/// What the generic searches ask a game beyond its rules and evaluation: the moves worth
/// searching and in what order, where the game ends, how to spend the clock, which searcher
/// and which search features suit it, and the positions `bench` times the search on.
pub trait SearchHooks: Game {
    /// Number of slots in the history table; [`SearchHooks::history_index`] is below it.
    const HISTORY_SIZE: usize;
    /// Positions (in the game's notation) searched by `bench`, with the default settings.
    const BENCH_FENS: &'static [&'static str];
    /// The fixed depth `bench` searches each of [`SearchHooks::BENCH_FENS`] to.
    const BENCH_DEPTH: u32;

    /// Half-width of the search's first aspiration window around the previous iteration's
    /// score, in the evaluation's unit; `None` searches every iteration with an infinite
    /// window. Set per game only where a referee SPRT showed a gain (docs/strength.md).
    const ASPIRATION_WINDOW: Option<i32> = None;
    /// Whether option `Searcher auto` (the default) searches this game with MCTS (in the
    /// positions [`SearchHooks::exact_search_preferred`] does not keep for alpha-beta). Set per
    /// game only where MCTS won a referee SPRT against alpha-beta (docs/strength.md).
    const MCTS_BY_DEFAULT: bool = false;
    /// The calibrated settings of limited strength (`UCI_Elo`), weakest first, each with the
    /// rating matches measured (docs/strength.md, "Levels"); empty: the game has no levels
    /// below full strength.
    const RATED_SETTINGS: &'static [RatedSetting] = &[];
    /// A game review's levels `fast`, `normal` and `deep` as `go` limits of this game, each
    /// with the seconds one position takes at it (docs/benchmarks.md, "Review levels"): set per
    /// game so that a level means about the same wait in every game.
    const REVIEW_LEVELS: [(&'static str, f64); 3] = [
        ("depth 4", 0.2),
        ("nodes 200000", 0.35),
        ("nodes 2000000", 1.9),
    ];
    /// With several search threads (Lazy SMP), whether helpers search the iteration the main
    /// thread is on, splitting its tree with it by deferring moves, rather than going a ply
    /// ahead of it (`search::iterations`). Set per game where time to depth and a threads SPRT
    /// showed a gain (docs/strength.md, "Threads").
    const SMP_HELPERS_SHARE_DEPTH: bool = false;
    /// With several search threads, the least remaining depth at which a node defers moves into
    /// positions another thread is searching (`search::inflight`); below it subtrees are too
    /// small to be worth splitting. Set per game where time to depth showed a gain
    /// (docs/strength.md, "Threads").
    const SMP_DEFER_MIN_DEPTH: u32 = 3;
    /// Whether the search reduces late quiet moves (late-move reductions). Set per game only
    /// where a referee SPRT showed a gain (docs/strength.md).
    const LATE_MOVE_REDUCTIONS: bool = false;

    /// A slot for the move in the history table, used for move ordering.
    fn history_index(&self, m: Self::Move) -> usize;
    /// The moves the search considers: the legal moves less any that are provably equivalent
    /// to one kept (each game justifies what it drops). All legal moves by default.
    fn search_moves(&self, out: &mut Vec<Self::Move>) {
        self.generate_moves(out);
    }
    /// Moves worth searching beyond the horizon (captures and the like). None by default.
    fn noisy_moves(&self, out: &mut Vec<Self::Move>) {
        out.clear();
    }
    /// Whether `m` is one of [`SearchHooks::noisy_moves`]: such moves are never reduced by the
    /// search. False by default.
    fn is_noisy(&self, _m: Self::Move) -> bool {
        false
    }
    /// Whether the side to move must answer a threat this move (like check in chess), so that
    /// quiescence may not stand pat and searches every move. False by default.
    fn must_respond(&self) -> bool {
        false
    }
    /// A rough count of the moves the side to move still has to spend time on, for time
    /// management: the moves left in the game, less those a game plays in a moment anyway
    /// (Sight leaves out the moves after its exact search reaches the end).
    fn moves_left_estimate(&self) -> u32 {
        30
    }
    /// An upper bound on the plies left before the game must end, if the game has one that
    /// shrinks by at least one every ply (Sight: the empty points). A search deeper than this
    /// bound is exact, so iterative deepening can stop.
    fn plies_left_bound(&self) -> Option<u32> {
        None
    }
    /// A key of the board and the side to move alone (no move counter), in games where a
    /// position can come back (Tactigon); `None` (the default) where it never can. The
    /// alpha-beta search scores a position that recurs within its own line as a draw: the
    /// moves in between made no progress, and anything the side to move could win from the
    /// repeat it could have won the first time, with more plies to spare under a ply cap.
    fn repetition_key(&self) -> Option<u64> {
        None
    }
    /// Whether this position is better searched by the exact alpha-beta search even when the
    /// `Searcher` option asks for MCTS: positions whose result a full-width search settles
    /// better than sampling does (Isaac's scoring phase). False by default: MCTS searches
    /// every position of a game when asked to.
    fn exact_search_preferred(&self) -> bool {
        false
    }
}

/// Whether a game's positions may be in the solved book (the certificates of `ludus solve`,
/// embedded in the binary, docs/solved.md) and the position as the book reads it. Only Sight
/// has books; the other games keep the defaults: no book.
pub trait SolvedBook: Game {
    /// Whether the game has solved books at all (the engine reads them when it starts).
    const HAS_SOLVED_BOOK: bool = false;
    /// This position as the books read it: a Sight position, the only kind they hold. `None`
    /// (the default) in a game without books.
    fn solved_book_position(&self) -> Option<&sight::Sight> {
        None
    }
}

/// Everything the engine needs of a game to search and play it: its rules, its hand
/// evaluation, its net inputs, its search hooks, its solved book and its win/draw/loss model
/// ([`WinChances`]). Every type with all of them is one (a blanket implementation); it is the
/// bound of [`GameVisitor::visit`], so generic engine code names this one trait.
pub trait Searchable:
    Game + Evaluate + NetFeatures + SearchHooks + SolvedBook + WinChances
{
}

impl<G: Game + Evaluate + NetFeatures + SearchHooks + SolvedBook + WinChances> Searchable for G {}

/// The games ludus plays. Runtime choice of game happens only in [`GameId::visit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    /// Isaac: 10×10 tile placement, then scoring.
    Isaac,
    /// Sight: 5×5 Alquerque grid, stacks grow by line of sight.
    Sight,
    /// Tactigon: hex board, shaped pieces, capture combat.
    Tactigon,
}

/// Code that is generic over the game, run for a game chosen at runtime by [`GameId::visit`].
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs the generic code for game `G`.
    fn visit<G: Searchable + present::Present>(self) -> Self::Output;
}

impl GameId {
    /// Every game that can be selected, in the order options list them.
    pub const ALL: &'static [GameId] = &[GameId::Isaac, GameId::Sight, GameId::Tactigon];
    /// The game an engine starts with.
    pub const DEFAULT: GameId = GameId::Sight;

    /// The single dispatch point from a runtime game id to generic code.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            GameId::Isaac => visitor.visit::<isaac::Isaac>(),
            GameId::Sight => visitor.visit::<sight::Sight>(),
            GameId::Tactigon => visitor.visit::<tactigon::Tactigon>(),
        }
    }

    /// The game's lower-case name (`UCI_Variant` value).
    pub fn name(self) -> &'static str {
        struct Name;
        impl GameVisitor for Name {
            type Output = &'static str;
            fn visit<G: Searchable>(self) -> &'static str {
                G::NAME
            }
        }
        self.visit(Name)
    }

    /// The game's [`SearchHooks::REVIEW_LEVELS`].
    pub fn review_levels(self) -> [(&'static str, f64); 3] {
        struct Levels;
        impl GameVisitor for Levels {
            type Output = [(&'static str, f64); 3];
            fn visit<G: Searchable>(self) -> [(&'static str, f64); 3] {
                G::REVIEW_LEVELS
            }
        }
        self.visit(Levels)
    }

    /// The game's [`SearchHooks::RATED_SETTINGS`].
    pub fn rated_settings(self) -> &'static [RatedSetting] {
        struct Rated;
        impl GameVisitor for Rated {
            type Output = &'static [RatedSetting];
            fn visit<G: Searchable>(self) -> &'static [RatedSetting] {
                G::RATED_SETTINGS
            }
        }
        self.visit(Rated)
    }

    /// Finds a game by name, ignoring case.
    pub fn from_name(name: &str) -> Option<GameId> {
        GameId::ALL
            .iter()
            .copied()
            .find(|g| g.name().eq_ignore_ascii_case(name))
    }

    /// The rule switches of this game.
    pub fn options(self) -> Vec<OptionSpec> {
        struct Options;
        impl GameVisitor for Options {
            type Output = Vec<OptionSpec>;
            fn visit<G: Searchable>(self) -> Vec<OptionSpec> {
                G::options()
            }
        }
        self.visit(Options)
    }
}

impl Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
