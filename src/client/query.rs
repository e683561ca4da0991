//! The state of a position, read through the protocol's `query` command (protocol.md,
//! "query"): what a front end shows and checks a move against, asked of the engine rather
//! than worked out by the front end.

use std::fmt;
use std::time::Duration;

use super::EngineProcess;

/// What the engine says about a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// `query fen`.
    pub fen: String,
    /// `query legalmoves` (empty for `(none)`).
    pub legal: Vec<String>,
    /// `query p1turn`.
    pub p1turn: bool,
    /// `query gameover`.
    pub gameover: bool,
    /// `query result`: `p1win`, `p2win`, `draw` or `none`.
    pub result: String,
}

/// Why a position's state could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// The engine refused the position (`query fen` answered `(none)`).
    Rejected,
    /// The engine did not answer or died; it should be restarted.
    Engine(String),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Rejected => f.write_str("the engine refused the position"),
            QueryError::Engine(e) => f.write_str(e),
        }
    }
}

impl EngineProcess {
    /// Sends `position_line` and reads the position's state with `query fen`, `legalmoves`,
    /// `p1turn`, `gameover` and `result`, each answered within `timeout`.
    pub fn snapshot(
        &mut self,
        position_line: &str,
        timeout: Duration,
    ) -> Result<Snapshot, QueryError> {
        self.send(position_line)
            .map_err(|e| QueryError::Engine(e.to_string()))?;
        let mut ask = |what: &str| {
            self.query_text(what, timeout)
                .ok_or_else(|| QueryError::Engine(format!("no answer to query {what}")))
        };
        let fen = ask("fen")?;
        if fen == "(none)" {
            return Err(QueryError::Rejected);
        }
        let legal = ask("legalmoves")?;
        let legal = if legal == "(none)" {
            Vec::new()
        } else {
            legal.split_whitespace().map(str::to_string).collect()
        };
        Ok(Snapshot {
            fen,
            legal,
            p1turn: ask("p1turn")? == "true",
            gameover: ask("gameover")? == "true",
            result: ask("result")?,
        })
    }
}
