//! Parsing of protocol input lines into typed commands. Pure: no state, no output.

use std::fmt;

/// The error codes of `info string error <code> <detail>` (protocol.md, "Errors").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// The first word is not a command.
    UnknownCommand,
    /// A command's arguments are missing, malformed or out of range.
    BadArgument,
    /// `setoption` names an option the engine does not have.
    UnknownOption,
    /// `setoption` gives a value the option does not take.
    BadOptionValue,
    /// A position text could not be read.
    InvalidPosition,
    /// A move is malformed or not legal in its position.
    IllegalMove,
    /// The command needs a position and there is none.
    NoPosition,
}

impl ErrorCode {
    /// The code as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "unknown-command",
            ErrorCode::BadArgument => "bad-argument",
            ErrorCode::UnknownOption => "unknown-option",
            ErrorCode::BadOptionValue => "bad-option-value",
            ErrorCode::InvalidPosition => "invalid-position",
            ErrorCode::IllegalMove => "illegal-move",
            ErrorCode::NoPosition => "no-position",
        }
    }
}

/// An error to report to the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// Its code.
    pub code: ErrorCode,
    /// What went wrong, for people.
    pub detail: String,
}

impl ProtocolError {
    /// An error with a code and a detail.
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        ProtocolError {
            code,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code.as_str(), self.detail)
    }
}

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    /// The game's start position.
    StartPos,
    /// A position in the game's notation.
    Fen(String),
}

/// The arguments of `go`, as given (clocks are still per seat).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    /// Player one's clock in ms (`p1time`, alias `wtime`).
    pub p1time: Option<i64>,
    /// Player two's clock in ms (`p2time`, alias `btime`).
    pub p2time: Option<i64>,
    /// Player one's increment in ms.
    pub p1inc: Option<i64>,
    /// Player two's increment in ms.
    pub p2inc: Option<i64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move in ms.
    pub movetime: Option<i64>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Look for a win in at most this many moves (`go mate N`).
    pub mate: Option<u32>,
    /// Think on the opponent's time (`go ponder`): the position is the one after the expected
    /// reply; the limits count from `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<String>,
}

/// The position queries of `query …`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `true` when the game is over.
    GameOver,
    /// `true` when player one is to move.
    P1Turn,
    /// `p1win`, `p2win`, `draw` or `none`.
    Result,
    /// The game's name.
    Game,
    /// The position in the game's notation.
    Fen,
    /// The legal moves in canonical order.
    LegalMoves,
}

/// One input line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` or `uci`: identify and list options.
    Hello {
        /// Whether the client said `uci` (answered with `uciok`).
        uci: bool,
    },
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// Option name as given.
        name: String,
        /// Value, if given.
        value: Option<String>,
    },
    /// `uginewgame` / `ucinewgame`.
    NewGame,
    /// `position startpos|fen <pos> [moves …]`.
    Position {
        /// Where to start.
        base: PositionBase,
        /// Moves to play from there.
        moves: Vec<String>,
    },
    /// `move <m> [<m> …]`: play moves on the current position.
    Move(Vec<String>),
    /// `go …`.
    Go(GoArgs),
    /// `perft N` / `go perft N`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `query …`.
    Query(Query),
    /// `d`: draw the position.
    Display,
    /// `eval`: explain the static evaluation.
    Eval,
    /// `bench`: the deterministic search signature.
    Bench,
    /// `help`.
    Help,
    /// `ponderhit`: the expected reply came; the ponder search under way becomes the real one.
    PonderHit,
}

fn bad(detail: impl Into<String>) -> ProtocolError {
    ProtocolError::new(ErrorCode::BadArgument, detail)
}

fn number<T: std::str::FromStr>(
    keyword: &str,
    value: Option<&&str>,
    valid: impl Fn(&T) -> bool,
    what: &str,
) -> Result<T, ProtocolError> {
    let Some(text) = value else {
        return Err(bad(format!("{keyword} needs {what}")));
    };
    text.parse::<T>()
        .ok()
        .filter(|v| valid(v))
        .ok_or_else(|| bad(format!("{keyword} needs {what}, not '{text}'")))
}

/// Keywords of `go` that start a new argument (and so end `searchmoves`).
const GO_KEYWORDS: &[&str] = &[
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "searchmoves",
    "perft",
    "ponder",
    "mate",
];

/// Largest `go mate` accepted: a win in N moves is searched 2N − 1 plies deep, and the
/// search's deepest ply is [`crate::search::ordering::MAX_PLY`].
pub const MAX_MATE_MOVES: u32 = 64;

/// Largest perft depth accepted (perft is stoppable, but a typo should not start forever).
pub const MAX_PERFT_DEPTH: u32 = 64;

fn parse_perft(tokens: &[&str], keyword: &str) -> Result<Command, ProtocolError> {
    let depth = number(
        keyword,
        tokens.first(),
        |d: &u32| (1..=MAX_PERFT_DEPTH).contains(d),
        &format!("a depth from 1 to {MAX_PERFT_DEPTH}"),
    )?;
    if tokens.len() > 1 {
        return Err(bad(format!("unexpected '{}' after the depth", tokens[1])));
    }
    Ok(Command::Perft(depth))
}

fn parse_go(tokens: &[&str]) -> Result<Command, ProtocolError> {
    if tokens.first() == Some(&"perft") {
        return parse_perft(&tokens[1..], "go perft");
    }
    let mut go = GoArgs::default();
    let mut i = 0;
    let time = |_: &i64| true;
    while i < tokens.len() {
        let keyword = tokens[i];
        let value = tokens.get(i + 1);
        i += 2;
        match keyword {
            "p1time" | "wtime" => go.p1time = Some(number(keyword, value, time, "milliseconds")?),
            "p2time" | "btime" => go.p2time = Some(number(keyword, value, time, "milliseconds")?),
            "p1inc" | "winc" => go.p1inc = Some(number(keyword, value, time, "milliseconds")?),
            "p2inc" | "binc" => go.p2inc = Some(number(keyword, value, time, "milliseconds")?),
            "movestogo" => {
                go.movestogo = Some(number(keyword, value, |m| *m > 0, "a positive count")?)
            }
            "movetime" => {
                go.movetime = Some(number(keyword, value, |m| *m >= 0, "milliseconds ≥ 0")?)
            }
            "depth" => go.depth = Some(number(keyword, value, |d| *d > 0, "a positive depth")?),
            "nodes" => go.nodes = Some(number(keyword, value, |n| *n > 0, "a positive count")?),
            "infinite" => {
                go.infinite = true;
                i -= 1;
            }
            "searchmoves" => {
                i -= 1;
                while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
                if go.searchmoves.is_empty() {
                    return Err(bad("searchmoves needs at least one move"));
                }
            }
            "mate" => {
                go.mate = Some(number(
                    keyword,
                    value,
                    |n| (1..=MAX_MATE_MOVES).contains(n),
                    &format!("a count of moves from 1 to {MAX_MATE_MOVES}"),
                )?)
            }
            "ponder" => {
                go.ponder = true;
                i -= 1;
            }
            other => return Err(bad(format!("unknown go argument '{other}'"))),
        }
    }
    Ok(Command::Go(go))
}

fn parse_position(tokens: &[&str]) -> Result<Command, ProtocolError> {
    let moves_at = tokens.iter().position(|t| *t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (tokens, &[][..]),
    };
    let base = match head.split_first() {
        Some((&"startpos", [])) => PositionBase::StartPos,
        Some((&"startpos", rest)) => {
            return Err(bad(format!("unexpected '{}' after startpos", rest[0])));
        }
        Some((&"fen", [])) => return Err(bad("fen needs a position")),
        Some((&"fen", fen)) => PositionBase::Fen(fen.join(" ")),
        _ => return Err(bad("position needs startpos or fen <position>")),
    };
    Ok(Command::Position {
        base,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, ProtocolError> {
    if tokens.first() != Some(&"name") {
        return Err(bad("setoption needs: name <name> [value <value>]"));
    }
    let rest = &tokens[1..];
    let value_at = rest.iter().position(|t| *t == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(bad("setoption needs an option name"));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_query(tokens: &[&str]) -> Result<Command, ProtocolError> {
    let query = match tokens {
        ["gameover"] => Query::GameOver,
        ["p1turn"] => Query::P1Turn,
        ["result"] => Query::Result,
        ["game"] => Query::Game,
        ["fen"] => Query::Fen,
        ["legalmoves"] => Query::LegalMoves,
        _ => {
            return Err(bad(
                "query takes one of gameover p1turn result game fen legalmoves",
            ));
        }
    };
    Ok(Command::Query(query))
}

fn no_arguments(command: Command, tokens: &[&str]) -> Result<Command, ProtocolError> {
    match tokens.first() {
        None => Ok(command),
        Some(extra) => Err(bad(format!("unexpected '{extra}'"))),
    }
}

/// Parses one input line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&word, args)) = tokens.split_first() else {
        return Ok(None);
    };
    let command = match word {
        "ugi" => no_arguments(Command::Hello { uci: false }, args),
        "uci" => no_arguments(Command::Hello { uci: true }, args),
        "isready" => no_arguments(Command::IsReady, args),
        "setoption" => parse_setoption(args),
        "uginewgame" | "ucinewgame" => no_arguments(Command::NewGame, args),
        "position" => parse_position(args),
        "move" if args.is_empty() => Err(bad("move needs at least one move")),
        "move" => Ok(Command::Move(args.iter().map(|m| m.to_string()).collect())),
        "go" => parse_go(args),
        "perft" => parse_perft(args, "perft"),
        "stop" => no_arguments(Command::Stop, args),
        "quit" => no_arguments(Command::Quit, args),
        "query" => parse_query(args),
        "d" => no_arguments(Command::Display, args),
        "eval" => no_arguments(Command::Eval, args),
        "bench" => no_arguments(Command::Bench, args),
        "help" => no_arguments(Command::Help, args),
        "ponderhit" => no_arguments(Command::PonderHit, args),
        _ => {
            let shown: String = word.chars().take(40).collect();
            Err(ProtocolError::new(
                ErrorCode::UnknownCommand,
                format!("'{shown}' (try help)"),
            ))
        }
    }?;
    Ok(Some(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_position_with_spaces_in_fen_and_moves() {
        let c = parse("position fen 5:x5/x5/x2,w,x2/x5/x5 b moves c4 a1").unwrap();
        assert_eq!(
            c,
            Some(Command::Position {
                base: PositionBase::Fen("5:x5/x5/x2,w,x2/x5/x5 b".into()),
                moves: vec!["c4".into(), "a1".into()],
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos junk").is_err());
    }

    #[test]
    fn parses_go_with_aliases_and_rejects_junk() {
        let Ok(Some(Command::Go(go))) = parse("go wtime 1000 btime -5 winc 10 p2inc 20 depth 3")
        else {
            panic!("go did not parse");
        };
        assert_eq!(
            (go.p1time, go.p2time, go.p1inc, go.p2inc, go.depth),
            (Some(1000), Some(-5), Some(10), Some(20), Some(3))
        );
        let Ok(Some(Command::Go(go))) = parse("go searchmoves a1 b2 infinite") else {
            panic!("go did not parse");
        };
        assert_eq!(go.searchmoves, vec!["a1", "b2"]);
        assert!(go.infinite);
        let Ok(Some(Command::Go(go))) = parse("go mate 3 movetime 500") else {
            panic!("go mate did not parse");
        };
        assert_eq!((go.mate, go.movetime), (Some(3), Some(500)));
        let Ok(Some(Command::Go(go))) = parse("go ponder wtime 900 btime 800") else {
            panic!("go ponder did not parse");
        };
        assert_eq!(
            (go.ponder, go.p1time, go.p2time),
            (true, Some(900), Some(800))
        );
        assert_eq!(parse("go perft 3"), Ok(Some(Command::Perft(3))));
        for junk in [
            "go depth",
            "go depth 0",
            "go depth x",
            "go nodes 99999999999999999999999",
            "go movetime -1",
            "go banana",
            "go mate",
            "go mate 0",
            "go mate 65",
            "go mate x",
            "go perft 0",
            "perft 65",
        ] {
            assert_eq!(
                parse(junk).map_err(|e| e.code),
                Err(ErrorCode::BadArgument),
                "{junk}"
            );
        }
    }

    #[test]
    fn parses_setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Debug Log File value /tmp/a b.log"),
            Ok(Some(Command::SetOption {
                name: "Debug Log File".into(),
                value: Some("/tmp/a b.log".into()),
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None,
            }))
        );
        assert!(parse("setoption value 3").is_err());
    }

    #[test]
    fn unknown_and_blank_lines() {
        assert_eq!(parse("   "), Ok(None));
        assert_eq!(
            parse("fly away").map_err(|e| e.code),
            Err(ErrorCode::UnknownCommand)
        );
        assert_eq!(
            parse("isready now").map_err(|e| e.code),
            Err(ErrorCode::BadArgument)
        );
    }
}
