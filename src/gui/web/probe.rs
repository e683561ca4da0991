//! What the engine offers, asked once at start-up: its `id name` and its `option` lines with
//! their types, defaults, ranges and choices (the handshake of [`EngineProcess`] keeps only
//! the names). The new-game dialog is built from them, and the values a page sends are
//! checked against them before they reach an engine.
//!
//! [`EngineProcess`]: crate::referee::engine_process::EngineProcess

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::lines::{BoundedLine, read_bounded_lines};

/// Longest line read from the engine during the probe.
const MAX_LINE: usize = 1 << 16;

/// One `option name … type …` line of the engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineOption {
    /// The option's name, e.g. `Sight_BoardSize`.
    pub name: String,
    /// `check`, `spin`, `combo`, `string` or `button`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The default value as the engine wrote it (empty if none).
    pub default: String,
    /// The smallest value of a `spin`.
    pub min: Option<i64>,
    /// The largest value of a `spin`.
    pub max: Option<i64>,
    /// The choices of a `combo`.
    pub vars: Vec<String>,
}

impl EngineOption {
    /// Reads an `option name <name> type <t> [default …] [min …] [max …] [var …]…` line.
    pub fn parse(line: &str) -> Option<EngineOption> {
        let mut words = line.split_whitespace();
        if words.next() != Some("option") || words.next() != Some("name") {
            return None;
        }
        let words: Vec<&str> = words.collect();
        let keyword = |w: &str| matches!(w, "type" | "default" | "min" | "max" | "var");
        let type_at = words.iter().position(|&w| w == "type")?;
        if type_at == 0 {
            return None;
        }
        let mut option = EngineOption {
            name: words[..type_at].join(" "),
            kind: String::new(),
            default: String::new(),
            min: None,
            max: None,
            vars: Vec::new(),
        };
        let mut i = type_at;
        while i < words.len() {
            let key = words[i];
            let mut j = i + 1;
            while j < words.len() && !keyword(words[j]) {
                j += 1;
            }
            let value = words[i + 1..j].join(" ");
            match key {
                "type" => option.kind = value,
                "default" => option.default = value,
                "min" => option.min = value.parse().ok(),
                "max" => option.max = value.parse().ok(),
                "var" => option.vars.push(value),
                _ => {}
            }
            i = j;
        }
        (!option.kind.is_empty()).then_some(option)
    }

    /// The value in the form the engine takes, or why `value` does not fit this option.
    pub fn check(&self, value: &str) -> Result<String, String> {
        let value = value.trim();
        match self.kind.as_str() {
            "check" => match value.to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => Ok(v.to_string()),
                _ => Err(format!("{} is true or false, not '{value}'", self.name)),
            },
            "spin" => {
                let n: i64 = value
                    .parse()
                    .map_err(|_| format!("{} takes a whole number, not '{value}'", self.name))?;
                let low = self.min.unwrap_or(i64::MIN);
                let high = self.max.unwrap_or(i64::MAX);
                if (low..=high).contains(&n) {
                    Ok(n.to_string())
                } else {
                    Err(format!("{} runs from {low} to {high}, not {n}", self.name))
                }
            }
            "combo" => self
                .vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .cloned()
                .ok_or_else(|| format!("{} is one of {}", self.name, self.vars.join(", "))),
            "string" if !value.contains('\n') => Ok(value.to_string()),
            _ => Err(format!("{} cannot be set from the page", self.name)),
        }
    }
}

/// What the engine said about itself in its handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EngineInfo {
    /// The `id name` (the program's file name if it sent none).
    pub name: String,
    /// Every option it advertised.
    pub options: Vec<EngineOption>,
}

impl EngineInfo {
    /// The option called `name` (ASCII case-insensitive).
    pub fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// Starts `cmd`, sends `ugi`, reads the `id name` and `option` lines until `ugiok`, then sends
/// `quit` and ends the process. No `ugiok` within `timeout` is an error.
pub fn probe(cmd: &Path, timeout: Duration) -> Result<EngineInfo, String> {
    let mut child = Command::new(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start the engine '{}': {e}", cmd.display()))?;
    let (tx, rx) = crossbeam_channel::unbounded();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            read_bounded_lines(stdout, MAX_LINE, |line| match line {
                BoundedLine::Text(text) => tx.send(text).is_ok(),
                BoundedLine::TooLong(_) => true,
            });
        });
    }
    let mut stdin = child.stdin.take();
    let said_hello = stdin
        .as_mut()
        .is_some_and(|s| s.write_all(b"ugi\n").and_then(|()| s.flush()).is_ok());
    let mut info = EngineInfo {
        name: cmd.file_name().map_or_else(
            || "engine".to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        options: Vec::new(),
    };
    let until = Instant::now() + timeout;
    let mut done = false;
    while said_hello && !done {
        let Ok(line) = rx.recv_deadline(until) else {
            break;
        };
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("ugiok"), _) => done = true,
            (Some("id"), Some("name")) => {
                let name = words.collect::<Vec<_>>().join(" ");
                if !name.is_empty() {
                    info.name = name;
                }
            }
            (Some("option"), _) => info.options.extend(EngineOption::parse(&line)),
            _ => {}
        }
    }
    if let Some(mut s) = stdin.take() {
        let _ = s.write_all(b"quit\n");
    }
    let stop_by = Instant::now() + Duration::from_secs(1);
    while Instant::now() < stop_by && matches!(child.try_wait(), Ok(None)) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    if done {
        Ok(info)
    } else {
        Err(format!(
            "the engine '{}' did not finish its ugi handshake",
            cmd.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_read_with_every_field() {
        let spin =
            EngineOption::parse("option name Move Overhead type spin default 10 min 0 max 5000");
        let spin = spin.expect("a spin option");
        assert_eq!(spin.name, "Move Overhead");
        assert_eq!((spin.min, spin.max), (Some(0), Some(5000)));
        let combo = EngineOption::parse(
            "option name Level type combo default full var random var greedy var full",
        )
        .expect("a combo option");
        assert_eq!(combo.vars, ["random", "greedy", "full"]);
        assert_eq!(combo.check("Greedy"), Ok("greedy".to_string()));
        assert!(combo.check("hard").is_err());
        assert_eq!(spin.check("50"), Ok("50".to_string()));
        assert!(spin.check("-1").is_err());
        assert!(spin.check("x").is_err());
        let check = EngineOption::parse("option name Isaac_Collision type check default true");
        let check = check.expect("a check option");
        assert_eq!(check.default, "true");
        assert_eq!(check.check("FALSE"), Ok("false".to_string()));
        assert_eq!(EngineOption::parse("option name type spin"), None);
        assert_eq!(EngineOption::parse("id name x"), None);
    }
}
