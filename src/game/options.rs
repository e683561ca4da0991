//! Option descriptions and values, shared by the games (rule switches) and the protocol
//! (engine options). An [`OptionSpec`] is data: the protocol prints it as an `option` line and
//! checks every `setoption` against it, so a value that reaches a game is always valid.

use std::collections::BTreeMap;

/// The type and range of one option, as UCI defines them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A boolean.
    Check {
        /// The value at start.
        default: bool,
    },
    /// An integer within `min..=max`.
    Spin {
        /// The value at start.
        default: i64,
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// One of a fixed list of words.
    Combo {
        /// The value at start.
        default: &'static str,
        /// The allowed values.
        vars: Vec<&'static str>,
    },
    /// Free text (empty allowed).
    Text {
        /// The value at start.
        default: &'static str,
    },
    /// An action without a value.
    Button,
}

/// One named option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name as advertised, e.g. `Sight_BoardSize` or `Move Overhead`.
    pub name: &'static str,
    /// Its type, default and range.
    pub kind: OptionKind,
}

impl OptionSpec {
    /// A boolean option.
    pub fn check(name: &'static str, default: bool) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Check { default },
        }
    }

    /// An integer option.
    pub fn spin(name: &'static str, default: i64, min: i64, max: i64) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Spin { default, min, max },
        }
    }

    /// A choice among words.
    pub fn combo(name: &'static str, default: &'static str, vars: &[&'static str]) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Combo {
                default,
                vars: vars.to_vec(),
            },
        }
    }

    /// A free-text option.
    pub fn text(name: &'static str, default: &'static str) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Text { default },
        }
    }

    /// An action.
    pub fn button(name: &'static str) -> Self {
        OptionSpec {
            name,
            kind: OptionKind::Button,
        }
    }

    /// The default value in canonical text (`""` for a button).
    pub fn default_value(&self) -> String {
        match &self.kind {
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default.to_string(),
            OptionKind::Text { default } => default.to_string(),
            OptionKind::Button => String::new(),
        }
    }

    /// Checks a value given by a user and returns it in canonical form, or says what is wrong.
    pub fn validate(&self, value: &str) -> Result<String, String> {
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok("true".into()),
                "false" => Ok("false".into()),
                _ => Err(format!("{} takes true or false, not '{value}'", self.name)),
            },
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => Ok(v.to_string()),
                _ => Err(format!(
                    "{} takes a whole number from {min} to {max}, not '{value}'",
                    self.name
                )),
            },
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .map(|v| v.to_string())
                .ok_or_else(|| {
                    format!(
                        "{} takes one of {}, not '{value}'",
                        self.name,
                        vars.join(" ")
                    )
                }),
            OptionKind::Text { .. } => Ok(if value == "<empty>" {
                String::new()
            } else {
                value.to_string()
            }),
            OptionKind::Button => Ok(String::new()),
        }
    }

    /// The `option name … type …` line that advertises this option.
    pub fn uci_line(&self) -> String {
        match &self.kind {
            OptionKind::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            OptionKind::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
            OptionKind::Combo { default, vars } => {
                let mut line = format!("option name {} type combo default {default}", self.name);
                for v in vars {
                    line.push_str(" var ");
                    line.push_str(v);
                }
                line
            }
            OptionKind::Text { default } => {
                let shown = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {} type string default {shown}", self.name)
            }
            OptionKind::Button => format!("option name {} type button", self.name),
        }
    }
}

/// Current option values by name, canonical text, filled from the specs' defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionValues {
    values: BTreeMap<String, String>,
}

impl OptionValues {
    /// Values holding every spec's default.
    pub fn from_specs(specs: &[OptionSpec]) -> Self {
        let values = specs
            .iter()
            .map(|s| (s.name.to_string(), s.default_value()))
            .collect();
        OptionValues { values }
    }

    /// Sets a value (the caller has validated it).
    pub fn set(&mut self, name: &str, value: String) {
        self.values.insert(name.to_string(), value);
    }

    /// The value of an option, if it is known.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// A spin option's value, or `default` when missing or unreadable.
    pub fn get_i64(&self, name: &str, default: i64) -> i64 {
        self.get(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    /// A check option's value, or `default` when missing.
    pub fn get_bool(&self, name: &str, default: bool) -> bool {
        self.get(name).map(|v| v == "true").unwrap_or(default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_rejects_out_of_range_and_garbage() {
        let spec = OptionSpec::spin("Hash", 16, 1, 1024);
        assert_eq!(spec.validate("64"), Ok("64".to_string()));
        assert!(spec.validate("0").is_err());
        assert!(spec.validate("99999999999999999999999").is_err());
        assert!(spec.validate("abc").is_err());
    }

    #[test]
    fn combo_and_check_are_case_insensitive_and_canonical() {
        let combo = OptionSpec::combo("Level", "full", &["random", "greedy", "full"]);
        assert_eq!(combo.validate("GREEDY"), Ok("greedy".to_string()));
        assert!(combo.validate("hard").is_err());
        let check = OptionSpec::check("X", false);
        assert_eq!(check.validate("TRUE"), Ok("true".to_string()));
        assert!(check.validate("yes").is_err());
    }

    #[test]
    fn uci_lines_follow_the_uci_grammar() {
        assert_eq!(
            OptionSpec::combo("UCI_Variant", "sight", &["sight"]).uci_line(),
            "option name UCI_Variant type combo default sight var sight"
        );
        assert_eq!(
            OptionSpec::text("Debug Log File", "").uci_line(),
            "option name Debug Log File type string default <empty>"
        );
        assert_eq!(
            OptionSpec::button("Clear Hash").uci_line(),
            "option name Clear Hash type button"
        );
    }
}
