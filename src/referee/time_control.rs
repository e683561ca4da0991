//! Time controls for matches, written as cutechess-cli and fastchess write them, and the
//! clocks the referee keeps: `tc=40/60+0.6` (40 moves in 60 s, then again, plus 0.6 s a move),
//! `tc=10+0.1`, `tc=1:30+1`, `tc=inf`, `st=0.5` (fixed time a move), with `nodes=`, `depth=`
//! and `timemargin=` (milliseconds an engine may overstep before it forfeits).

use std::fmt;

/// How much time a side gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A clock: `base_ms` for every `moves` moves (or the whole game), plus `inc_ms` a move.
    Clock {
        /// Moves per period, `None` for the whole game.
        moves: Option<u32>,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// A fixed time for every move (`st=`).
    PerMove(u64),
    /// No time limit (`tc=inf`).
    Infinite,
}

/// Everything an `--each` or `--engine` line can say about limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time budget.
    pub budget: Budget,
    /// A node limit sent with every `go`.
    pub nodes: Option<u64>,
    /// A depth limit sent with every `go`.
    pub depth: Option<u32>,
    /// Milliseconds an engine may exceed its time before it loses on time.
    pub margin_ms: u64,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            budget: Budget::Infinite,
            nodes: None,
            depth: None,
            margin_ms: 0,
        }
    }
}

/// Seconds (`60`, `0.6`, `1:30`) to milliseconds.
fn seconds(text: &str) -> Result<u64, String> {
    let (minutes, secs) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<u64>().map_err(|_| bad(text))?, s),
        None => (0, text),
    };
    let secs: f64 = secs.parse().map_err(|_| bad(text))?;
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return Err(bad(text));
    }
    let ms = minutes
        .checked_mul(60_000)
        .and_then(|m| m.checked_add((secs * 1000.0).round() as u64))
        .ok_or_else(|| bad(text))?;
    Ok(ms)
}

fn bad(text: &str) -> String {
    format!("'{text}' is not a time in seconds (e.g. 60, 0.5, 1:30)")
}

impl TimeControl {
    /// Applies one `key=value` setting (`tc`, `st`, `nodes`, `depth`, `timemargin`).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "tc" => self.budget = parse_tc(value)?,
            "st" => self.budget = Budget::PerMove(seconds(value)?),
            "nodes" => {
                self.nodes =
                    Some(
                        value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                            format!("nodes takes a positive count, not '{value}'")
                        })?,
                    )
            }
            "depth" => {
                self.depth = Some(value.parse().ok().filter(|&d| d > 0).ok_or_else(|| {
                    format!("depth takes a positive number of plies, not '{value}'")
                })?)
            }
            "timemargin" => {
                self.margin_ms = value
                    .parse()
                    .map_err(|_| format!("timemargin takes milliseconds, not '{value}'"))?
            }
            other => return Err(format!("unknown time setting '{other}'")),
        }
        Ok(())
    }
}

/// Reads the value of `tc=`: `[moves/]time[+increment]` or `inf`.
pub fn parse_tc(value: &str) -> Result<Budget, String> {
    if value == "inf" || value == "infinite" {
        return Ok(Budget::Infinite);
    }
    let (moves, rest) = match value.split_once('/') {
        Some((m, rest)) => {
            let m: u32 = m
                .parse()
                .ok()
                .filter(|&m| m > 0)
                .ok_or_else(|| format!("'{m}' in tc={value} is not a positive move count"))?;
            (Some(m), rest)
        }
        None => (None, value),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (seconds(b)?, seconds(i)?),
        None => (seconds(rest)?, 0),
    };
    if base == 0 && inc == 0 {
        return Err(format!("tc={value} gives no time at all"));
    }
    Ok(Budget::Clock {
        moves,
        base_ms: base,
        inc_ms: inc,
    })
}

impl TimeControl {
    /// Whether every search under this control ends by itself (a clock, a fixed move time, a
    /// node or a depth limit); a match refuses controls that are not.
    pub fn is_bounded(&self) -> bool {
        self.budget != Budget::Infinite || self.nodes.is_some() || self.depth.is_some()
    }
}

impl fmt::Display for TimeControl {
    /// The `TimeControl` tag of a game record, in the same grammar (`40/60+0.6`, `st=0.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        match self.budget {
            Budget::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", secs(base_ms))?;
                if inc_ms > 0 {
                    write!(f, "+{}", secs(inc_ms))?;
                }
            }
            Budget::PerMove(ms) => write!(f, "st={}", secs(ms))?,
            // Without a time limit, the node or depth limit alone says it (`nodes=3000`).
            Budget::Infinite if self.nodes.is_some() || self.depth.is_some() => {}
            Budget::Infinite => write!(f, "inf")?,
        }
        let mut sep = if self.budget == Budget::Infinite {
            ""
        } else {
            " "
        };
        if let Some(n) = self.nodes {
            write!(f, "{sep}nodes={n}")?;
            sep = " ";
        }
        if let Some(d) = self.depth {
            write!(f, "{sep}depth={d}")?;
        }
        Ok(())
    }
}

/// One side's clock during a game, measured by the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Milliseconds left (may go below zero within the margin).
    left_ms: i64,
    /// Moves made in the current period.
    moves_in_period: u32,
}

/// The engine used more than its time and margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeForfeit {
    /// How far past its time (without the margin) the engine answered, in ms.
    pub over_ms: i64,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let left_ms = match control.budget {
            Budget::Clock { base_ms, .. } => base_ms as i64,
            _ => 0,
        };
        Clock {
            control,
            left_ms,
            moves_in_period: 0,
        }
    }

    /// Time left in ms (for a clock budget).
    pub fn left_ms(&self) -> i64 {
        self.left_ms
    }

    /// How long the referee waits for this move before it declares a forfeit, in ms; `None`
    /// when the move has no time limit (depth or node limits, `tc=inf`).
    pub fn deadline_ms(&self) -> Option<i64> {
        let margin = self.control.margin_ms as i64;
        match self.control.budget {
            Budget::Clock { .. } => Some(self.left_ms.max(0) + margin),
            Budget::PerMove(ms) => Some(ms as i64 + margin),
            Budget::Infinite => None,
        }
    }

    /// The time the engine has for this move, margin excluded, in ms (its clock, or the
    /// fixed time per move); `None` when the move has no time limit.
    pub fn budget_ms(&self) -> Option<i64> {
        match self.control.budget {
            Budget::Clock { .. } => Some(self.left_ms.max(0)),
            Budget::PerMove(ms) => Some(ms as i64),
            Budget::Infinite => None,
        }
    }

    /// Moves to the next time control, if the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control.budget {
            Budget::Clock { moves: Some(m), .. } => Some(m - self.moves_in_period),
            _ => None,
        }
    }

    /// Charges a move that took `elapsed_ms`: the time is taken, the increment added, and at
    /// the end of a period its base time again. Over the time and the margin: a forfeit.
    pub fn charge(&mut self, elapsed_ms: u64) -> Result<(), TimeForfeit> {
        let elapsed = elapsed_ms as i64;
        match self.control.budget {
            Budget::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                self.left_ms -= elapsed;
                if self.left_ms < -(self.control.margin_ms as i64) {
                    return Err(TimeForfeit {
                        over_ms: -self.left_ms,
                    });
                }
                self.left_ms = self.left_ms.max(0) + inc_ms as i64;
                self.moves_in_period += 1;
                if moves.is_some_and(|m| self.moves_in_period >= m) {
                    self.moves_in_period = 0;
                    self.left_ms += base_ms as i64;
                }
                Ok(())
            }
            Budget::PerMove(ms) => {
                let over = elapsed - ms as i64;
                if over > self.control.margin_ms as i64 {
                    Err(TimeForfeit { over_ms: over })
                } else {
                    Ok(())
                }
            }
            Budget::Infinite => Ok(()),
        }
    }
}

/// The arguments of `go` for the side to move (`p1` is player one), given both clocks;
/// `None` when the mover's control sets no limit at all (see [`TimeControl::is_bounded`]).
pub fn go_arguments(p1: &Clock, p2: &Clock, mover_is_p1: bool) -> Option<String> {
    let mover = if mover_is_p1 { p1 } else { p2 };
    let control = mover.control;
    let mut args = Vec::new();
    match control.budget {
        Budget::Clock { inc_ms, .. } => {
            let inc = |c: &Clock| match c.control.budget {
                Budget::Clock { inc_ms, .. } => inc_ms,
                _ => inc_ms,
            };
            args.push(format!("p1time {}", p1.left_ms.max(0)));
            args.push(format!("p2time {}", p2.left_ms.max(0)));
            args.push(format!("p1inc {}", inc(p1)));
            args.push(format!("p2inc {}", inc(p2)));
            if let Some(mtg) = mover.moves_to_go() {
                args.push(format!("movestogo {mtg}"));
            }
        }
        Budget::PerMove(ms) => args.push(format!("movetime {ms}")),
        Budget::Infinite => {}
    }
    if let Some(n) = control.nodes {
        args.push(format!("nodes {n}"));
    }
    if let Some(d) = control.depth {
        args.push(format!("depth {d}"));
    }
    // A limitless `go` would never end: the referee never sends one.
    (!args.is_empty()).then(|| args.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(settings: &[(&str, &str)]) -> TimeControl {
        let mut t = TimeControl::default();
        for (k, v) in settings {
            t.set(k, v).expect("valid setting");
        }
        t
    }

    #[test]
    fn parses_the_cutechess_grammar() {
        assert_eq!(
            parse_tc("40/60+0.6"),
            Ok(Budget::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600
            })
        );
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(Budget::Clock {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            parse_tc("1:30"),
            Ok(Budget::Clock {
                moves: None,
                base_ms: 90_000,
                inc_ms: 0
            })
        );
        assert_eq!(parse_tc("inf"), Ok(Budget::Infinite));
        for bad in [
            "", "0", "0/10", "x+1", "10+y", "-5", "1e99", "40/", "/10", "nan",
        ] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
        let t = tc(&[("st", "0.5"), ("timemargin", "50"), ("nodes", "1000")]);
        assert_eq!(t.budget, Budget::PerMove(500));
        assert_eq!((t.margin_ms, t.nodes), (50, Some(1000)));
        assert!(TimeControl::default().set("depth", "0").is_err());
        assert!(TimeControl::default().set("speed", "1").is_err());
    }

    #[test]
    fn prints_what_it_reads() {
        for text in ["40/60+0.6", "10+0.1", "2+0.02", "90", "inf"] {
            assert_eq!(tc(&[("tc", text)]).to_string(), text);
        }
        assert_eq!(
            tc(&[("st", "0.25"), ("depth", "6")]).to_string(),
            "st=0.25 depth=6"
        );
        assert_eq!(
            tc(&[("nodes", "3000"), ("depth", "9")]).to_string(),
            "nodes=3000 depth=9"
        );
    }

    #[test]
    fn clocks_charge_increment_and_renew_periods() {
        let mut c = Clock::new(tc(&[("tc", "2/10+1")]));
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(4_000).expect("in time");
        assert_eq!(c.left_ms(), 7_000);
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(3_000).expect("in time");
        // 7 − 3 + 1 = 5, then a new period of 10 s.
        assert_eq!(c.left_ms(), 15_000);
        assert_eq!(c.moves_to_go(), Some(2));
        assert_eq!(c.charge(15_001), Err(TimeForfeit { over_ms: 1 }));
    }

    #[test]
    fn the_margin_tolerates_small_overruns_only() {
        let mut c = Clock::new(tc(&[("tc", "1+0"), ("timemargin", "100")]));
        c.charge(1_050).expect("within the margin");
        assert_eq!(c.left_ms(), 0);
        let mut m = Clock::new(tc(&[("st", "0.1"), ("timemargin", "20")]));
        assert_eq!(m.deadline_ms(), Some(120));
        m.charge(119).expect("within the margin");
        assert_eq!(m.charge(125), Err(TimeForfeit { over_ms: 25 }));
    }

    #[test]
    fn go_arguments_carry_both_clocks_and_limits() {
        let control = tc(&[("tc", "40/60+0.6")]);
        let (mut p1, p2) = (Clock::new(control), Clock::new(control));
        p1.charge(1_000).expect("in time");
        assert_eq!(
            go_arguments(&p1, &p2, false).as_deref(),
            Some("p1time 59600 p2time 60000 p1inc 600 p2inc 600 movestogo 40")
        );
        let fixed = Clock::new(tc(&[("st", "0.2"), ("nodes", "5000")]));
        assert_eq!(
            go_arguments(&fixed, &fixed, true).as_deref(),
            Some("movetime 200 nodes 5000")
        );
        let depth = tc(&[("depth", "3")]);
        assert!(depth.is_bounded());
        let depth = Clock::new(depth);
        assert_eq!(
            go_arguments(&depth, &depth, true).as_deref(),
            Some("depth 3")
        );
        assert!(!TimeControl::default().is_bounded());
        let none = Clock::new(TimeControl::default());
        assert_eq!(go_arguments(&none, &none, true), None);
    }
}
