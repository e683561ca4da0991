//! An opening: the base position (the start or a position in the game's notation) and the
//! moves played from it before the engines take over, written as the arguments of the
//! protocol's `position` command (`startpos moves c3`, `fen … moves …`). The record's `Opening`
//! tag, the referee's openings files and `ludus analyse` read and write it so.

use crate::game::dynamic::{MoveError, RulePosition, RuleSet};

/// One opening: a base position and moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The base position, `None` for the start position.
    pub fen: Option<String>,
    /// Moves from the base position, in canonical notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The start position with no moves.
    pub fn start() -> Opening {
        Opening {
            fen: None,
            moves: Vec::new(),
        }
    }

    /// Reads one opening (the arguments of `position`) and checks it with `rules`.
    pub fn parse(line: &str, rules: &RuleSet) -> Result<Opening, String> {
        let line = line.trim();
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        let (head, moves) = match line.split_once(" moves") {
            Some((head, rest)) if rest.is_empty() || rest.starts_with(' ') => (head, rest),
            _ => (line, ""),
        };
        let fen = match head.trim() {
            "startpos" => None,
            other => match other.strip_prefix("fen ") {
                Some(fen) if !fen.trim().is_empty() => Some(fen.trim().to_string()),
                _ => {
                    return Err(format!(
                        "'{line}' is not an opening: write startpos or fen <position>, \
                         optionally followed by moves …"
                    ));
                }
            },
        };
        let mut opening = Opening {
            fen,
            moves: moves.split_whitespace().map(str::to_string).collect(),
        };
        let mut pos = opening.base(rules)?;
        for m in opening.moves.iter_mut() {
            *m = pos.play(m).map_err(|e| match e {
                MoveError::Unreadable(s) | MoveError::Illegal(s) => s,
            })?;
        }
        if pos.outcome().is_some() {
            return Err(format!("'{line}' ends the game"));
        }
        Ok(opening)
    }

    /// The base position.
    fn base(&self, rules: &RuleSet) -> Result<Box<dyn RulePosition>, String> {
        match &self.fen {
            None => Ok(rules.start()),
            Some(fen) => rules.from_fen(fen),
        }
    }

    /// The position the engines start from (the opening's moves played).
    pub fn position(&self, rules: &RuleSet) -> Result<Box<dyn RulePosition>, String> {
        let mut pos = self.base(rules)?;
        for m in &self.moves {
            pos.play(m)
                .map_err(|_| format!("opening move {m} is not legal"))?;
        }
        Ok(pos)
    }

    /// The opening as an openings-file line (`startpos moves c3`, `fen … moves …`).
    pub fn line(&self) -> String {
        let mut line = match &self.fen {
            None => "startpos".to_string(),
            Some(fen) => format!("fen {fen}"),
        };
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        line
    }

    /// The `position` command for the opening followed by the game's moves `played`.
    pub fn position_command(&self, played: &[String]) -> String {
        let mut cmd = format!("position {}", self.line());
        if !played.is_empty() {
            if self.moves.is_empty() {
                cmd.push_str(" moves");
            }
            for m in played {
                cmd.push(' ');
                cmd.push_str(m);
            }
        }
        cmd
    }
}
