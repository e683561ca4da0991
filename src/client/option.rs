//! The one reader of an engine's `option` lines (protocol.md, "option"): the option's name,
//! type, default, range and choices, and the check of a value against them before it is sent.

use serde::Serialize;

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
