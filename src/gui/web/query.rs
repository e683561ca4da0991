//! The page's questions to the engine, all through the protocol: set the game and its rules,
//! check a pasted position, and the moves a pasted
//! `startpos moves …` / `fen … moves …` line names.

use std::time::Duration;

use crate::client::{EngineFailure, EngineProcess};
use crate::game::GameId;
use crate::record::parse_record_text;

/// How a level names a rating: `elo 600` plays `Level full` weakened to `UCI_Elo` 600.
pub const RATING_PREFIX: &str = "elo ";

/// How long one query or `isready` may take.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a pasted position's check (`go depth 1`) may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(10);

/// The engine settings of a game: `UCI_Variant` (when the engine has it), rule options, and
/// the `Level` (searching engine only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSetup {
    /// The `UCI_Variant` value, if the engine advertises the option.
    pub variant: Option<String>,
    /// Rule options, NAME and VALUE.
    pub options: Vec<(String, String)>,
    /// The `Level` value (or a rating, `elo N`: [`RATING_PREFIX`]), if any.
    pub level: Option<String>,
}

/// Sends the setup's options and `uginewgame`, and waits for `readyok`.
pub fn configure(engine: &mut EngineProcess, setup: &EngineSetup) -> Result<(), EngineFailure> {
    if let Some(variant) = &setup.variant {
        engine.set_option("UCI_Variant", variant)?;
    }
    for (name, value) in &setup.options {
        engine.set_option(name, value)?;
    }
    if let Some(level) = &setup.level {
        let rating = level.strip_prefix(RATING_PREFIX);
        if engine.advertises("Level") {
            engine.set_option("Level", if rating.is_some() { "full" } else { level })?;
        }
        if engine.advertises("UCI_LimitStrength") {
            let limit = if rating.is_some() { "true" } else { "false" };
            engine.set_option("UCI_LimitStrength", limit)?;
        }
        if let Some(elo) = rating {
            engine.set_option("UCI_Elo", elo)?;
        }
    }
    engine.new_game(QUERY_TIMEOUT)
}

/// Whether the engine takes `position_line`: it is sent with `go depth 1`, and the first
/// `info string error …` line the engine answers is the reason it is refused. `Ok(Err(…))`
/// is a refusal; `Err(…)` an engine that failed.
pub fn check_position(
    engine: &mut EngineProcess,
    position_line: &str,
) -> Result<Result<(), String>, EngineFailure> {
    let mut errors = Vec::new();
    let answer = engine.go_watching(position_line, "depth 1", None, CHECK_TIMEOUT, &mut |info| {
        if let Some(rest) = info
            .string
            .as_deref()
            .and_then(|t| t.strip_prefix("error "))
        {
            errors.push(rest.to_string());
        }
    });
    if let Some(first) = errors.into_iter().next() {
        return Ok(Err(first));
    }
    match answer {
        // A finished game answers `bestmove (none)`: the position itself is fine.
        Ok(_) | Err(EngineFailure::BadOutput(_)) => Ok(Ok(())),
        Err(failure) => Err(failure),
    }
}

/// An engine's refusal of a pasted position (the detail of its `info string error …` line:
/// `invalid-position '<text>': <why>`, `illegal-move move <n> <move>: <why>`, or another
/// code) in plain words for the person who pasted it, without the protocol's codes: `Not a
/// Sight position: <why>`, `Move 2, c3, cannot be played: <why>`.
pub fn plain_refusal(game: &str, refusal: &str) -> String {
    let (code, detail) = refusal.split_once(' ').unwrap_or((refusal, ""));
    // `'<text>': <why>`: the text quoted (it may hold `: ` itself), then the reason.
    let why = |text: &str| {
        let after = if text.starts_with('\'') {
            text.find("': ").map(|at| &text[at + 3..])
        } else {
            text.split_once(": ").map(|(_, why)| why)
        };
        after.unwrap_or(text).to_string()
    };
    let mut name = game.to_string();
    if let Some(first) = name.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    match code {
        "invalid-position" => format!("Not a {name} position: {}", why(detail)),
        "illegal-move" => {
            // `move <n> <move>: <why>`
            let words: Vec<&str> = detail.splitn(3, ' ').collect();
            match words.as_slice() {
                ["move", n, rest] => {
                    let (mv, reason) = rest.split_once(": ").unwrap_or((rest, ""));
                    if reason.is_empty() {
                        format!("Move {n}, {mv}, cannot be played")
                    } else {
                        format!("Move {n}, {mv}, cannot be played: {reason}")
                    }
                }
                _ => format!("A move cannot be played: {detail}"),
            }
        }
        _ if code.contains('-') && !detail.is_empty() => {
            format!("The engine does not take this position: {detail}")
        }
        _ => format!("The engine does not take this position: {refusal}"),
    }
}

/// Reads a pasted text of a game of `game`: a game record (it starts with a tag, `[Event …`:
/// the page's own export, a referee's game), whose first game's start and moves are taken,
/// or a position as [`parse_position_text`] reads it. Returns the start and the moves.
pub fn parse_loaded_text(text: &str, game: GameId) -> Result<(String, Vec<String>), String> {
    if !text.trim_start().starts_with('[') {
        return parse_position_text(text);
    }
    let games = parse_record_text(text).map_err(|e| format!("not a game record: {e}"))?;
    let Some(first) = games.first() else {
        return Err("the record holds no complete game (tags, a blank line, the moves)".into());
    };
    let variant = first.tag("Variant").unwrap_or_default();
    if !variant.eq_ignore_ascii_case(game.name()) {
        return Err(format!(
            "the record is a game of {variant}, not {}: start a game of {variant} (New game), then load it",
            game.name()
        ));
    }
    let start = match (first.tag("Opening"), first.tag("OpeningFEN")) {
        (Some("startpos"), _) => "startpos".to_string(),
        (_, Some(fen)) if !fen.trim().is_empty() => format!("fen {}", fen.trim()),
        _ => "startpos".to_string(),
    };
    Ok((start, first.moves()))
}

/// Reads a pasted position: `[position] startpos [moves …]`, `[position] fen <F> [moves …]`,
/// or a bare position `<F> [moves …]`. Returns the start (`startpos` or `fen <F>`) and the
/// moves.
pub fn parse_position_text(text: &str) -> Result<(String, Vec<String>), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let words = match words.first() {
        Some(&"position") => &words[1..],
        _ => &words[..],
    };
    let (head, moves) = match words.iter().position(|&w| w == "moves") {
        Some(at) => (&words[..at], &words[at + 1..]),
        None => (words, &[][..]),
    };
    let start = match head {
        [] => {
            return Err("paste a position: startpos [moves …] or fen <position> [moves …]".into());
        }
        ["startpos"] => "startpos".to_string(),
        ["startpos", ..] => return Err("startpos takes no position text; use fen".into()),
        ["fen"] => return Err("fen needs a position".into()),
        ["fen", fen @ ..] => format!("fen {}", fen.join(" ")),
        fen => format!("fen {}", fen.join(" ")),
    };
    Ok((start, moves.iter().map(|m| m.to_string()).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's own export (a game in progress, a person's moves timed only) and a
    /// referee's record from a position: each loads as its start and moves.
    #[test]
    fn a_game_record_loads_as_its_start_and_moves() {
        let export = "[Event \"ludus web\"]\n[Date \"2026.12.02\"]\n[Round \"1\"]\n[Game \"1\"]\n\
            [Variant \"sight\"]\n[P1 \"human\"]\n[P2 \"ludus\"]\n[Opening \"startpos\"]\n\
            [OpeningFEN \"5:x5/x5/x5/x5/x5 w\"]\n[TimeControl \"st=1\"]\n[Result \"*\"]\n\
            [Termination \"unterminated\"]\n[PlyCount \"2\"]\n\n1. b2 {1.100s} c3 {-35/9 0.998s} *";
        let loaded = parse_loaded_text(export, GameId::Sight);
        let moves = vec!["b2".to_string(), "c3".to_string()];
        assert_eq!(loaded, Ok(("startpos".to_string(), moves.clone())));
        let from_fen = export
            .replace(
                "[Opening \"startpos\"]",
                "[Opening \"fen 5:x5/x5/x2,w,x2/x5/x5 b\"]",
            )
            .replace("5:x5/x5/x5/x5/x5 w", "5:x5/x5/x2,w,x2/x5/x5 b");
        assert_eq!(
            parse_loaded_text(&from_fen, GameId::Sight),
            Ok(("fen 5:x5/x5/x2,w,x2/x5/x5 b".to_string(), moves))
        );
        let refused = parse_loaded_text(export, GameId::Tactigon);
        assert_eq!(
            refused,
            Err("the record is a game of sight, not tactigon: start a game of sight (New game), then load it".into())
        );
        let cut = parse_loaded_text("[Event \"ludus web\"]\n[Variant \"sight\"]", GameId::Sight);
        assert_eq!(
            cut,
            Err("the record holds no complete game (tags, a blank line, the moves)".into())
        );
        let bad = parse_loaded_text(
            "[Event \"ludus web\"]\n[Game \"x\"]\n\n1. c3 *",
            GameId::Sight,
        );
        assert!(bad.is_err_and(|e| e.starts_with("not a game record: line 1: ")));
        // A position is read as before.
        assert_eq!(
            parse_loaded_text("startpos moves c3", GameId::Sight),
            Ok(("startpos".to_string(), vec!["c3".to_string()]))
        );
    }

    #[test]
    fn refusals_are_said_in_plain_words() {
        assert_eq!(
            plain_refusal(
                "sight",
                "invalid-position 'hello world': side to move must be w or b, not 'world'"
            ),
            "Not a Sight position: side to move must be w or b, not 'world'"
        );
        assert_eq!(
            plain_refusal("sight", "invalid-position 'a: b': the board is missing"),
            "Not a Sight position: the board is missing"
        );
        assert_eq!(
            plain_refusal(
                "sight",
                "illegal-move move 2 c3: c3 is occupied: a piece is placed on an empty point"
            ),
            "Move 2, c3, cannot be played: c3 is occupied: a piece is placed on an empty point"
        );
        assert_eq!(
            plain_refusal("tactigon", "illegal-move move 1 zz"),
            "Move 1, zz, cannot be played"
        );
        assert_eq!(
            plain_refusal("isaac", "bad-argument depth must be a number"),
            "The engine does not take this position: depth must be a number"
        );
    }

    #[test]
    fn pasted_positions_are_read_in_every_form() {
        let moves = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            parse_position_text("position startpos moves c3 c4"),
            Ok(("startpos".into(), moves(&["c3", "c4"])))
        );
        assert_eq!(
            parse_position_text(" fen 5:x5/x5/x5/x5/x5 w\n"),
            Ok(("fen 5:x5/x5/x5/x5/x5 w".into(), vec![]))
        );
        assert_eq!(
            parse_position_text("- 54321/54321 d P - 0/0 0/0 moves 7h00"),
            Ok(("fen - 54321/54321 d P - 0/0 0/0".into(), moves(&["7h00"])))
        );
        assert!(parse_position_text("  ").is_err());
        assert!(parse_position_text("fen moves c3").is_err());
        assert!(parse_position_text("startpos x moves c3").is_err());
    }
}
