//! Optional adjudication, as cutechess-cli does it: `--maxplies N` (a draw once the engines
//! have played N plies), `--resign movecount=N score=S [twosided=true]` (an engine whose
//! score stays at least S below zero for N consecutive moves of its own loses; two-sided: the
//! opponent's scores must agree) and `--draw movenumber=N movecount=C score=S` (a draw once
//! both engines' scores stayed within S of zero for C consecutive moves each, after at least
//! N moves each). Scores are the movers' last reported `score cp`; a mate score counts as
//! beyond every centipawn score, and a move without a score breaks every streak.

use crate::client::ReportedScore;
use crate::game::Player;
use crate::record::game::{GameResult, Termination};

/// `--resign` settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of the losing engine.
    pub movecount: u32,
    /// Centipawns below zero.
    pub score: i64,
    /// Whether the opponent must report the mirror score too.
    pub twosided: bool,
}

/// `--draw` settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Moves each engine must have played first.
    pub movenumber: u32,
    /// Consecutive moves of each engine.
    pub movecount: u32,
    /// Centipawns from zero.
    pub score: i64,
}

/// All adjudication settings of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `--maxplies`.
    pub max_plies: Option<u32>,
    /// `--resign`.
    pub resign: Option<ResignRule>,
    /// `--draw`.
    pub draw: Option<DrawRule>,
}

/// Reads `key=value` words into named numbers, checking every key is known.
fn settings<'a>(
    flag: &str,
    words: &'a [String],
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    words
        .iter()
        .map(|w| {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("--{flag}: expected key=value, got '{w}'"))?;
            if !known.contains(&k) {
                return Err(format!(
                    "--{flag}: unknown setting '{k}' (known: {})",
                    known.join(", ")
                ));
            }
            Ok((k, v))
        })
        .collect()
}

fn number<T: std::str::FromStr>(flag: &str, key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("--{flag}: {key}={value} is not a number"))
}

impl ResignRule {
    /// Reads `movecount=N score=S [twosided=true|false]`.
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        let mut rule = ResignRule {
            movecount: 3,
            score: 1000,
            twosided: false,
        };
        for (k, v) in settings("resign", words, &["movecount", "score", "twosided"])? {
            match k {
                "movecount" => rule.movecount = number("resign", k, v)?,
                "score" => rule.score = number("resign", k, v)?,
                _ => rule.twosided = number("resign", k, v)?,
            }
        }
        if rule.movecount == 0 || rule.score <= 0 {
            return Err("--resign: movecount and score must be positive".into());
        }
        Ok(rule)
    }
}

impl DrawRule {
    /// Reads `movenumber=N movecount=C score=S`.
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        let mut rule = DrawRule {
            movenumber: 0,
            movecount: 8,
            score: 10,
        };
        for (k, v) in settings("draw", words, &["movenumber", "movecount", "score"])? {
            match k {
                "movenumber" => rule.movenumber = number("draw", k, v)?,
                "movecount" => rule.movecount = number("draw", k, v)?,
                _ => rule.score = number("draw", k, v)?,
            }
        }
        if rule.movecount == 0 || rule.score < 0 {
            return Err("--draw: movecount must be positive and score not negative".into());
        }
        Ok(rule)
    }
}

/// "player one" or "player two", for messages.
pub fn seat_name(seat: Player) -> &'static str {
    match seat {
        Player::One => "player one",
        Player::Two => "player two",
    }
}

/// The adjudication state of one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    plies: u32,
    moves: [u32; 2],
    /// Consecutive own moves with a score at or below `-resign.score`, per seat.
    losing: [u32; 2],
    /// Consecutive own moves with a score at or above `resign.score`, per seat.
    winning: [u32; 2],
    /// Consecutive own moves within the draw score, per seat.
    level: [u32; 2],
}

impl Adjudicator {
    /// The state at the start of a game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            plies: 0,
            moves: [0; 2],
            losing: [0; 2],
            winning: [0; 2],
            level: [0; 2],
        }
    }

    /// Takes one move's report; returns the adjudicated result if the game ends here.
    pub fn after_move(
        &mut self,
        mover: Player,
        score: Option<ReportedScore>,
    ) -> Option<(GameResult, Termination, String)> {
        let me = mover.index();
        self.plies += 1;
        self.moves[me] += 1;
        let value = score.map(ReportedScore::adjudication_value);
        let streak = |count: &mut u32, holds: bool| *count = if holds { *count + 1 } else { 0 };
        if let Some(r) = self.rules.resign {
            streak(&mut self.losing[me], value.is_some_and(|v| v <= -r.score));
            streak(&mut self.winning[me], value.is_some_and(|v| v >= r.score));
            for seat in [mover, mover.opponent()] {
                let other = seat.opponent().index();
                let agreed = !r.twosided || self.winning[other] >= r.movecount;
                if self.losing[seat.index()] >= r.movecount && agreed {
                    return Some((
                        GameResult::win_for(seat.opponent()),
                        Termination::Resign,
                        format!(
                            "{}'s score stayed at or below -{} for {} moves",
                            seat_name(seat),
                            r.score,
                            r.movecount
                        ),
                    ));
                }
            }
        }
        if let Some(d) = self.rules.draw {
            streak(
                &mut self.level[me],
                value.is_some_and(|v| v.abs() <= d.score),
            );
            if self.level.iter().all(|&c| c >= d.movecount)
                && self.moves.iter().all(|&m| m >= d.movenumber)
            {
                return Some((
                    GameResult::Draw,
                    Termination::AdjudicatedDraw,
                    format!(
                        "both scores stayed within {} of zero for {} moves",
                        d.score, d.movecount
                    ),
                ));
            }
        }
        if self.rules.max_plies.is_some_and(|m| self.plies >= m) {
            return Some((
                GameResult::Draw,
                Termination::MaxPlies,
                format!("{} plies played", self.plies),
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn resign_after_movecount_low_scores_of_one_engine() {
        let rule = ResignRule::parse(&words("movecount=2 score=500")).unwrap();
        let mut a = Adjudicator::new(Adjudication {
            resign: Some(rule),
            ..Adjudication::default()
        });
        let cp = |n| Some(ReportedScore::Cp(n));
        assert_eq!(a.after_move(Player::One, cp(-600)), None);
        assert_eq!(a.after_move(Player::Two, cp(600)), None);
        // A move without a score breaks the streak.
        assert_eq!(a.after_move(Player::One, None), None);
        assert_eq!(a.after_move(Player::Two, cp(600)), None);
        assert_eq!(a.after_move(Player::One, cp(-500)), None);
        assert_eq!(a.after_move(Player::Two, cp(0)), None);
        let end = a
            .after_move(Player::One, Some(ReportedScore::Mate(-3)))
            .unwrap();
        assert_eq!((end.0, end.1), (GameResult::P2Win, Termination::Resign));
    }

    #[test]
    fn two_sided_resign_needs_the_opponent_to_agree() {
        let rule = ResignRule::parse(&words("movecount=1 score=300 twosided=true")).unwrap();
        let mut a = Adjudicator::new(Adjudication {
            resign: Some(rule),
            ..Adjudication::default()
        });
        let cp = |n| Some(ReportedScore::Cp(n));
        assert_eq!(a.after_move(Player::One, cp(-400)), None);
        assert_eq!(a.after_move(Player::Two, cp(100)), None);
        assert_eq!(a.after_move(Player::One, cp(-400)), None);
        let end = a.after_move(Player::Two, cp(400)).unwrap();
        assert_eq!(end.0, GameResult::P2Win);
    }

    #[test]
    fn draw_needs_both_streaks_and_the_move_number() {
        let rule = DrawRule::parse(&words("movenumber=3 movecount=2 score=20")).unwrap();
        let mut a = Adjudicator::new(Adjudication {
            draw: Some(rule),
            ..Adjudication::default()
        });
        let cp = |n| Some(ReportedScore::Cp(n));
        for (i, s) in [5, -5, 30, 0, 10, -20].into_iter().enumerate() {
            let mover = if i % 2 == 0 { Player::One } else { Player::Two };
            assert_eq!(a.after_move(mover, cp(s)), None, "ply {i}");
        }
        let end = a.after_move(Player::One, cp(0)).unwrap();
        assert_eq!(
            (end.0, end.1),
            (GameResult::Draw, Termination::AdjudicatedDraw)
        );
    }

    #[test]
    fn max_plies_and_bad_settings() {
        let mut a = Adjudicator::new(Adjudication {
            max_plies: Some(2),
            ..Adjudication::default()
        });
        assert_eq!(a.after_move(Player::One, None), None);
        assert_eq!(
            a.after_move(Player::Two, None).unwrap().1,
            Termination::MaxPlies
        );
        assert!(ResignRule::parse(&words("movecount=x")).is_err());
        assert!(
            ResignRule::parse(&words("moves=3"))
                .unwrap_err()
                .contains("unknown")
        );
        assert!(DrawRule::parse(&words("score")).is_err());
    }
}
