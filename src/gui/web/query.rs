//! The page's questions to the engine, all through the protocol: set the game and its rules,
//! check a pasted position, and the moves a pasted
//! `startpos moves …` / `fen … moves …` line names.

use std::time::Duration;

use crate::client::{EngineFailure, EngineProcess};

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
