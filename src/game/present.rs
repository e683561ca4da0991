//! How a game is shown to people: the names of its seats, why a game ended, what a move did,
//! examples of its move notation, how its moves name places on the board, and which tokens of
//! its text board belong to which player. The front ends (`src/gui/`) know no game: they ask
//! [`Present`], which each game implements in its own folder (`<game>/present.rs`), through the
//! [`GameId`] methods below, each of them one visit of [`GameId::visit`].
//!
//! Everything here is plain data (strings and the small types of this file), read from the
//! positions and from the text the engine printed; drawing it (HTML, SVG, terminal colours) is
//! the front ends' part.

use crate::game::dynamic::option_values;
use crate::game::{Evaluate, Game, GameId, GameVisitor, OptionValues};

/// How a game's moves name the places on its board: what a front end needs to turn pointing
/// into a move, and a move into marks on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// A move names squares: one to place on (`c3`), or a piece's square and its target
    /// (`b4-c4`), perhaps followed by `+` and more (`b4-c4+d3`), or `pass`.
    Squares,
    /// A move names a tile laid over a run of cells, `<size><h|v><anchor>` (`7h00`), or one to
    /// take away, `x<tile>+<advance>` (`x4h23+24`), or `pass`.
    Tiles,
}

impl Notation {
    /// The notation's name for the web page (`squares`, `tiles`).
    pub fn name(self) -> &'static str {
        match self {
            Notation::Squares => "squares",
            Notation::Tiles => "tiles",
        }
    }
}

/// How a front end words the engine's evaluations (`score cp N`) of a game: in the game's own
/// unit (Isaac's points), not chess's pawns. A proven result (`score mate N`) is a win or a loss
/// in N moves in every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreWords {
    /// The engine's units per unit shown (Isaac: 10 per point).
    pub per_unit: u32,
    /// How many decimals of the unit are shown.
    pub decimals: u8,
    /// The unit's name after the number (`points`), or empty for a plain number.
    pub unit: &'static str,
}

/// What a token of a board row (in the game's text rendering) shows, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// A piece, stack or tile of player one.
    PlayerOne,
    /// A piece, stack or tile of player two.
    PlayerTwo,
    /// A special place of the board (Tactigon's gold tiles).
    Special,
}

/// How a seat's pieces look where there are no pictures (the terminal's colours), after the
/// board picture of the web page: light or dark pieces and tiles, or red and blue ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Light pieces (Sight's White, Isaac's Light).
    Light,
    /// Dark pieces (Sight's Black, Isaac's Dark).
    Dark,
    /// Red pieces (Tactigon's Red).
    Red,
    /// Blue pieces (Tactigon's Blue).
    Blue,
}

/// What the final position of a game tells about its end, as the engine printed it (the
/// protocol does not say why a game ended).
#[derive(Clone, Copy, Debug)]
pub struct Ending<'a> {
    /// The final position in the game's notation.
    pub fen: &'a str,
    /// The answer to `query result`: `p1win`, `p2win` or `draw`.
    pub result: &'a str,
    /// Whether player one is to move in the final position.
    pub p1turn: bool,
    /// Whether the side to move has no legal move.
    pub no_moves: bool,
    /// The game's rule options in force, by name (any case) and value.
    pub options: &'a [(String, String)],
}

impl Ending<'_> {
    /// The value of rule option `name` in force (names compared ignoring case), if known.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The name of the side to move in the final position, of `seats`.
    pub fn mover<'s>(&self, seats: [&'s str; 2]) -> &'s str {
        seats[usize::from(!self.p1turn)]
    }
}

/// A game as people see it: what the front ends say and show of it besides the board picture.
pub trait Present: Game {
    /// The names of player one's and player two's seats (Sight: `White`, `Black`).
    const SEATS: [&'static str; 2];
    /// Moves in the game's notation, to show a person what to type (Sight: `c3`, `b4-c4`).
    const MOVE_EXAMPLES: &'static [&'static str];
    /// How the game's moves name the places on its board.
    const NOTATION: Notation;
    /// How player one's and player two's pieces look ([`Tone`]), as the board picture draws
    /// them.
    const TONES: [Tone; 2];
    /// Whether the notation writes every move in lower case only, so that case carries no
    /// meaning in a move and a front end may read a typed `C3` as `c3`.
    const MOVES_IN_LOWER_CASE: bool;
    /// How its evaluations are worded: by default a plain number, 100 engine units to 1
    /// (`+0.35`).
    const SCORE_WORDS: ScoreWords = ScoreWords {
        per_unit: 100,
        decimals: 2,
        unit: "",
    };

    /// Why the game ended, read from its final position's text (not parsed by the rules, so
    /// that any engine's position reads): `White has no legal move`; `None` where the position
    /// does not show it.
    fn end_reason(end: &Ending) -> Option<String>;

    /// The move `mv`, played from `before` to `after`, as a move list shows it (Tactigon: a
    /// capture with `×`; Sight: the piles that grew). As played by default.
    fn move_text(before: &Self, mv: &str, after: &Self) -> String {
        let _ = (before, after);
        mv.to_string()
    }

    /// The pieces each side has lost between `start` and `now`, by kind name, player one's
    /// first, for a game whose pieces are taken (Tactigon); `None` by default.
    fn lost_pieces(start: &Self, now: &Self) -> Option<[Vec<&'static str>; 2]> {
        let _ = (start, now);
        None
    }

    /// A warning for the side to move, if the position holds one (Tactigon: the opponent's
    /// gold pair, which wins unless broken now). None by default.
    fn alert(&self) -> Option<String> {
        None
    }

    /// Whether `line` of the game's text board ([`Game::render`]) is a row of the board (the
    /// labels and status lines are not).
    fn is_board_row(line: &str) -> bool;

    /// What `token` of a board row shows (a run of letters, digits, `*` and `.` after the row's
    /// label), if it is coloured.
    fn ink(token: &str) -> Option<Ink>;
}

/// Reads the position `fen` of `G` with the option values `values`.
fn read<G: Game>(values: &OptionValues, fen: &str) -> Option<G> {
    G::from_fen(fen, &G::settings(values)).ok()
}

impl GameId {
    /// The names of player one's and player two's seats (Sight's `White` and `Black`, …).
    pub fn seats(self) -> [&'static str; 2] {
        struct Seats;
        impl GameVisitor for Seats {
            type Output = [&'static str; 2];
            fn visit<G: Evaluate + Present>(self) -> Self::Output {
                G::SEATS
            }
        }
        self.visit(Seats)
    }

    /// Moves in the game's notation, to show a person what to type.
    pub fn move_examples(self) -> &'static [&'static str] {
        struct Examples;
        impl GameVisitor for Examples {
            type Output = &'static [&'static str];
            fn visit<G: Evaluate + Present>(self) -> Self::Output {
                G::MOVE_EXAMPLES
            }
        }
        self.visit(Examples)
    }

    /// How the game's moves name the places on its board.
    pub fn notation(self) -> Notation {
        struct Kind;
        impl GameVisitor for Kind {
            type Output = Notation;
            fn visit<G: Evaluate + Present>(self) -> Notation {
                G::NOTATION
            }
        }
        self.visit(Kind)
    }

    /// How player one's and player two's pieces look ([`Present::TONES`]).
    pub fn tones(self) -> [Tone; 2] {
        struct Tones;
        impl GameVisitor for Tones {
            type Output = [Tone; 2];
            fn visit<G: Evaluate + Present>(self) -> [Tone; 2] {
                G::TONES
            }
        }
        self.visit(Tones)
    }

    /// Whether every move of the game is written in lower case
    /// ([`Present::MOVES_IN_LOWER_CASE`]).
    pub fn moves_in_lower_case(self) -> bool {
        struct Lower;
        impl GameVisitor for Lower {
            type Output = bool;
            fn visit<G: Evaluate + Present>(self) -> bool {
                G::MOVES_IN_LOWER_CASE
            }
        }
        self.visit(Lower)
    }

    /// How the game's evaluations are worded ([`Present::SCORE_WORDS`]).
    pub fn score_words(self) -> ScoreWords {
        struct Words;
        impl GameVisitor for Words {
            type Output = ScoreWords;
            fn visit<G: Evaluate + Present>(self) -> ScoreWords {
                G::SCORE_WORDS
            }
        }
        self.visit(Words)
    }

    /// Why the game ended ([`Present::end_reason`]).
    pub fn end_reason(self, end: &Ending) -> Option<String> {
        struct Reason<'a, 'b>(&'a Ending<'b>);
        impl GameVisitor for Reason<'_, '_> {
            type Output = Option<String>;
            fn visit<G: Evaluate + Present>(self) -> Option<String> {
                G::end_reason(self.0)
            }
        }
        self.visit(Reason(end))
    }

    /// Whether `line` of the game's text board is a row of the board.
    pub fn is_board_row(self, line: &str) -> bool {
        struct Row<'a>(&'a str);
        impl GameVisitor for Row<'_> {
            type Output = bool;
            fn visit<G: Evaluate + Present>(self) -> bool {
                G::is_board_row(self.0)
            }
        }
        self.visit(Row(line))
    }

    /// What `token` of a board row shows, if it is coloured ([`Present::ink`]).
    pub fn ink(self, token: &str) -> Option<Ink> {
        struct Token<'a>(&'a str);
        impl GameVisitor for Token<'_> {
            type Output = Option<Ink>;
            fn visit<G: Evaluate + Present>(self) -> Option<Ink> {
                G::ink(self.0)
            }
        }
        self.visit(Token(token))
    }

    /// The move `mv`, played from `before` to `after` (positions read with the rule options
    /// `options`), as a move list shows it ([`Present::move_text`]); as played if an option or
    /// a position cannot be read.
    pub fn move_text(
        self,
        options: &[(String, String)],
        before: &str,
        mv: &str,
        after: &str,
    ) -> String {
        struct Text<'a>(OptionValues, &'a str, &'a str, &'a str);
        impl GameVisitor for Text<'_> {
            type Output = Option<String>;
            fn visit<G: Evaluate + Present>(self) -> Option<String> {
                let Text(values, before, mv, after) = self;
                let (before, after) = (read::<G>(&values, before)?, read::<G>(&values, after)?);
                Some(G::move_text(&before, mv, &after))
            }
        }
        option_values(self, options)
            .ok()
            .and_then(|values| self.visit(Text(values, before, mv, after)))
            .unwrap_or_else(|| mv.to_string())
    }

    /// The pieces each side has lost between the positions `start` and `now` (read with the
    /// rule options `options`), by kind name ([`Present::lost_pieces`]); `None` for a game
    /// whose pieces are not taken, or a position that cannot be read.
    pub fn lost_pieces(
        self,
        options: &[(String, String)],
        start: &str,
        now: &str,
    ) -> Option<[Vec<&'static str>; 2]> {
        struct Lost<'a>(OptionValues, &'a str, &'a str);
        impl GameVisitor for Lost<'_> {
            type Output = Option<[Vec<&'static str>; 2]>;
            fn visit<G: Evaluate + Present>(self) -> Self::Output {
                let Lost(values, start, now) = self;
                G::lost_pieces(&read::<G>(&values, start)?, &read::<G>(&values, now)?)
            }
        }
        let values = option_values(self, options).ok()?;
        self.visit(Lost(values, start, now))
    }

    /// A warning for the side to move in the position `fen` (read with the rule options
    /// `options`), if any ([`Present::alert`]).
    pub fn alert(self, options: &[(String, String)], fen: &str) -> Option<String> {
        struct Alert<'a>(OptionValues, &'a str);
        impl GameVisitor for Alert<'_> {
            type Output = Option<String>;
            fn visit<G: Evaluate + Present>(self) -> Option<String> {
                read::<G>(&self.0, self.1)?.alert()
            }
        }
        let values = option_values(self, options).ok()?;
        self.visit(Alert(values, fen))
    }
}
