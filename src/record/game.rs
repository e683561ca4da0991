//! What the referee keeps of one game: its result, why it ended, and every move with the
//! mover's reported score, depth and time. The record file writes it as text
//! ([`crate::record`]); the results file keeps a summary ([`GameSummary`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::client::ReportedScore;
use crate::game::{Outcome, Player};

/// How a game ended. The labels are the `Termination` tag of the record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The game's rules ended it (a win or a draw by the rules).
    Rules,
    /// `--maxplies` reached: a draw.
    MaxPlies,
    /// Resign adjudication (`--resign`): a loss for the engine whose score stayed low.
    Resign,
    /// Draw adjudication (`--draw`): both scores stayed near zero.
    AdjudicatedDraw,
    /// The engine's move is not legal in the position.
    IllegalMove,
    /// The engine answered after its time and the margin.
    TimeForfeit,
    /// The engine's process exited or closed its output.
    Crash,
    /// The engine did not answer (`bestmove` or `readyok`) in time plus the stall timeout.
    Stall,
    /// The engine's answer is not readable (no move, not the game's notation, a line too long).
    BadOutput,
}

impl Termination {
    /// Every termination, in a fixed order (tables list them so).
    pub const ALL: [Termination; 9] = [
        Termination::Rules,
        Termination::MaxPlies,
        Termination::Resign,
        Termination::AdjudicatedDraw,
        Termination::IllegalMove,
        Termination::TimeForfeit,
        Termination::Crash,
        Termination::Stall,
        Termination::BadOutput,
    ];

    /// The label written in records and tables (`illegal-move`, `time-forfeit`, …).
    pub fn label(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::MaxPlies => "max-plies",
            Termination::Resign => "resign",
            Termination::AdjudicatedDraw => "adjudicated-draw",
            Termination::IllegalMove => "illegal-move",
            Termination::TimeForfeit => "time-forfeit",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::BadOutput => "bad-output",
        }
    }

    /// Reads a label written by [`Termination::label`].
    pub fn from_label(label: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.label() == label)
    }

    /// Whether the game was lost by an engine failing (not by play or adjudication).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove
                | Termination::TimeForfeit
                | Termination::Crash
                | Termination::Stall
                | Termination::BadOutput
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The result of a game by seats, written as in PGN: `1-0` (player one wins), `0-1`, `1/2-1/2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Player one won.
    #[serde(rename = "1-0")]
    P1Win,
    /// Player two won.
    #[serde(rename = "0-1")]
    P2Win,
    /// A draw.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// The result in which `player` wins.
    pub fn win_for(player: Player) -> GameResult {
        match player {
            Player::One => GameResult::P1Win,
            Player::Two => GameResult::P2Win,
        }
    }

    /// The PGN token.
    pub fn token(self) -> &'static str {
        match self {
            GameResult::P1Win => "1-0",
            GameResult::P2Win => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN token.
    pub fn from_token(token: &str) -> Option<GameResult> {
        [GameResult::P1Win, GameResult::P2Win, GameResult::Draw]
            .into_iter()
            .find(|r| r.token() == token)
    }

    /// Points for `player`: 1, ½ or 0.
    pub fn points(self, player: Player) -> f64 {
        match (self, player) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::P1Win, Player::One) | (GameResult::P2Win, Player::Two) => 1.0,
            _ => 0.0,
        }
    }

    /// The word the protocol's `query result` answers for this result.
    pub fn query_word(self) -> &'static str {
        match self {
            GameResult::P1Win => "p1win",
            GameResult::P2Win => "p2win",
            GameResult::Draw => "draw",
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Win(p) => GameResult::win_for(p),
            Outcome::Draw => GameResult::Draw,
        }
    }
}

/// One move of a game as the referee saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move in canonical notation.
    pub text: String,
    /// The mover's last reported score.
    pub score: Option<ReportedScore>,
    /// The depth of that report.
    pub depth: Option<u32>,
    /// Milliseconds from `go` to `bestmove`, measured by the referee.
    pub time_ms: u64,
    /// The time the mover had for this move in milliseconds, margin excluded (its clock, or
    /// the fixed time per move); `None` when the move had no time limit.
    pub budget_ms: Option<u64>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The `Event` tag.
    pub event: String,
    /// The `Date` tag, `YYYY.MM.DD`.
    pub date: String,
    /// The game's name (`UCI_Variant`), the `Variant` tag.
    pub variant: String,
    /// Round number (1-based): the index of the opening.
    pub round: u32,
    /// Game number in the whole match schedule (1-based); the same in every shard.
    pub number: u64,
    /// Player one's engine name.
    pub p1: String,
    /// Player two's engine name.
    pub p2: String,
    /// The opening as written in the openings file (`startpos`, `startpos moves …`, `fen …`).
    pub opening: String,
    /// The position the engines started from (after the opening's moves).
    pub opening_fen: String,
    /// The time control(s): one, or `p1 / p2` when they differ.
    pub time_control: String,
    /// The engines' moves.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// A sentence saying what happened (e.g. the illegal move and why it is illegal).
    pub detail: String,
}

impl GameRecord {
    /// The summary the results file keeps.
    pub fn summary(&self) -> GameSummary {
        GameSummary {
            number: self.number,
            round: self.round,
            p1: self.p1.clone(),
            p2: self.p2.clone(),
            result: self.result,
            termination: self.termination,
            plies: self.moves.len() as u32,
        }
    }
}

/// A game as the results file and the tables need it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Game number in the match schedule (1-based). Games `2k+1` and `2k+2` form pair `k`.
    pub number: u64,
    /// Round number (1-based).
    pub round: u32,
    /// Player one's engine name.
    pub p1: String,
    /// Player two's engine name.
    pub p2: String,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// Plies played by the engines.
    pub plies: u32,
}

impl GameSummary {
    /// The index of the pair the game belongs to (0-based).
    pub fn pair(&self) -> u64 {
        (self.number - 1) / 2
    }
}

/// Today's date as the `Date` tag writes it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Days to civil date (H. Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
