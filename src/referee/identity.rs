//! The identity of a match: everything that decides which games it schedules and how they
//! are played and judged: the game and its rule options, the time control, every engine (name,
//! command, arguments, protocol, options, limits, time margin), the openings, the seed, the
//! schedule and the adjudication settings. Every block of the record file carries it as tags
//! ([`MatchIdentity::record_tags`]) and the results file as its `match` object, so that
//! `--resume` and `ludus match merge` can refuse games of another match instead of mixing
//! them in.
//!
//! Left out, because they do not change a game: the event name, concurrency, the stall
//! timeout, the SPRT, output files, `--quiet`. The openings file is identified by its
//! content (the path is kept too, but only to be read by people).

use serde::{Deserialize, Serialize};

use crate::client::Proto;
use crate::files::fnv1a64;
use crate::record::game::GameSummary;
use crate::referee::config::{EngineSpec, MatchConfig, OpeningSource};
use crate::referee::schedule::{Tournament, pair_at, pair_count};
use crate::runs::ShardSet;

/// One engine of a match as its identity records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineIdentity {
    /// The engine's name.
    pub name: String,
    /// How it runs and plays, as words: `cmd=… [dir=…] [arg=…]… proto=… [option.N=V]…
    /// [ponder=on] limits=… timemargin=…` (values with spaces or quotes in single quotes, shell
    /// style).
    pub setup: String,
}

impl EngineIdentity {
    fn of(spec: &EngineSpec) -> EngineIdentity {
        let c = &spec.command;
        let mut words = vec![word("cmd", &c.cmd.to_string_lossy())];
        if let Some(dir) = &c.dir {
            words.push(word("dir", &dir.to_string_lossy()));
        }
        words.extend(c.args.iter().map(|a| word("arg", a)));
        let proto = match c.proto {
            Proto::Ugi => "ugi",
            Proto::Uci => "uci",
        };
        words.push(word("proto", proto));
        words.extend(
            spec.options
                .iter()
                .map(|(n, v)| word(&format!("option.{n}"), v)),
        );
        if spec.ponder {
            words.push(word("ponder", "on"));
        }
        words.push(word("limits", &spec.time.to_string()));
        words.push(word("timemargin", &spec.time.margin_ms.to_string()));
        EngineIdentity {
            name: spec.name().to_string(),
            setup: words.join(" "),
        }
    }

    /// The `EngineN` tag: `name=NAME` and the setup words.
    fn tag(&self) -> String {
        format!("{} {}", word("name", &self.name), self.setup)
    }
}

/// `key=value`, the value quoted shell style when it is empty or holds spaces, quotes or
/// backslashes, so that different word lists never read the same.
fn word(key: &str, value: &str) -> String {
    let plain = !value.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '\'' | '"' | '\\'));
    if plain {
        format!("{key}={value}")
    } else {
        format!("{key}='{}'", value.replace('\'', r"'\''"))
    }
}

/// What makes a match the match it is (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchIdentity {
    /// The game (`sight`, …).
    pub game: String,
    /// The rule options, `NAME=VALUE` sorted by name and joined by spaces; `none`.
    pub rules: String,
    /// The time control(s), as the `TimeControl` tag writes them.
    pub time_control: String,
    /// The engines, in the match's order.
    pub engines: Vec<EngineIdentity>,
    /// `start`, `random plies=N`, or `file openings=N fnv1a64=HEX [shuffled]` (the content
    /// of an openings file: its openings as the referee reads them).
    pub openings: String,
    /// Informative (never compared): the openings file's path.
    #[serde(default)]
    pub openings_file: Option<String>,
    /// The seed of random openings and shuffles.
    pub seed: u64,
    /// `round-robin` or `gauntlet`.
    pub tournament: String,
    /// Game pairs per encounter.
    pub rounds: u64,
    /// `none`, or the settings of `--maxplies`, `--resign` and `--draw`.
    pub adjudication: String,
}

impl MatchIdentity {
    /// The identity of a configured match; `Err` if its schedule is too large to count.
    pub fn of(config: &MatchConfig) -> Result<MatchIdentity, String> {
        let mut rules: Vec<String> = config
            .rules
            .options()
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        rules.sort();
        let (openings, openings_file) = match &config.openings {
            OpeningSource::Start => ("start".to_string(), None),
            OpeningSource::Random { plies } => (format!("random plies={plies}"), None),
            OpeningSource::List {
                openings,
                shuffle,
                file,
            } => {
                let text: String = openings.iter().map(|o| o.line() + "\n").collect();
                let shuffled = if *shuffle { " shuffled" } else { "" };
                let content = format!(
                    "file openings={} fnv1a64={:016x}{shuffled}",
                    openings.len(),
                    fnv1a64(text.as_bytes())
                );
                (content, Some(file.to_string_lossy().into_owned()))
            }
        };
        let a = &config.adjudication;
        let mut adjudication = Vec::new();
        if let Some(m) = a.max_plies {
            adjudication.push(format!("maxplies={m}"));
        }
        if let Some(r) = a.resign {
            adjudication.push(format!(
                "resign=movecount={},score={},twosided={}",
                r.movecount, r.score, r.twosided
            ));
        }
        if let Some(d) = a.draw {
            adjudication.push(format!(
                "draw=movenumber={},movecount={},score={}",
                d.movenumber, d.movecount, d.score
            ));
        }
        let none_if_empty = |words: Vec<String>| {
            if words.is_empty() {
                "none".to_string()
            } else {
                words.join(" ")
            }
        };
        let identity = MatchIdentity {
            game: config.rules.game().name().to_string(),
            rules: none_if_empty(rules),
            time_control: config.time_control_label(),
            engines: config.engines.iter().map(EngineIdentity::of).collect(),
            openings,
            openings_file,
            seed: config.seed,
            tournament: config.tournament.name().to_string(),
            rounds: config.rounds,
            adjudication: none_if_empty(adjudication),
        };
        identity.games()?;
        Ok(identity)
    }

    /// The tournament.
    pub fn tournament(&self) -> Result<Tournament, String> {
        self.tournament.parse()
    }

    /// Pairs in the whole schedule.
    pub fn pairs(&self) -> Result<u64, String> {
        let tournament = self.tournament()?;
        pair_count(self.engines.len(), tournament, self.rounds)
            .filter(|p| p.checked_mul(2).is_some())
            .ok_or_else(|| format!("a schedule of {} rounds is too large", self.rounds))
    }

    /// Games in the whole schedule.
    pub fn games(&self) -> Result<u64, String> {
        Ok(self.pairs()? * 2)
    }

    /// Games scheduled in `shards`.
    pub fn games_of(&self, shards: &ShardSet) -> Result<u64, String> {
        Ok(shards.pairs_of(self.pairs()?) * 2)
    }

    /// The engines' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// Every compared field as `(tag, value)`, in the order differences are reported; the
    /// tags are those of the record file (`Variant` and `TimeControl` are its usual tags).
    pub fn fields(&self) -> Vec<(String, String)> {
        let mut fields = vec![
            ("Variant".to_string(), self.game.clone()),
            ("Rules".to_string(), self.rules.clone()),
            ("TimeControl".to_string(), self.time_control.clone()),
        ];
        for (i, e) in self.engines.iter().enumerate() {
            fields.push((format!("Engine{}", i + 1), e.tag()));
        }
        let schedule = format!(
            "{} engines={} rounds={}",
            self.tournament,
            self.engines.len(),
            self.rounds
        );
        fields.extend([
            ("Openings".to_string(), self.openings.clone()),
            ("Seed".to_string(), self.seed.to_string()),
            ("Schedule".to_string(), schedule),
            ("Adjudication".to_string(), self.adjudication.clone()),
        ]);
        fields
    }

    /// The first field that differs: `(tag, ours, theirs)`, `theirs` being `None` when
    /// `theirs_of` has no such field.
    pub fn difference<'a>(
        &self,
        theirs_of: impl Fn(&str) -> Option<&'a str>,
    ) -> Option<(String, String, Option<&'a str>)> {
        self.fields().into_iter().find_map(|(tag, ours)| {
            let theirs = theirs_of(&tag);
            (theirs != Some(ours.as_str())).then_some((tag, ours, theirs))
        })
    }

    /// The first field in which `other` differs from this identity: `(tag, ours, theirs)`.
    /// `theirs` is `None` when `other` has no such field.
    pub fn difference_from(
        &self,
        other: &MatchIdentity,
    ) -> Option<(String, String, Option<String>)> {
        let fields = other.fields();
        let theirs = |tag: &str| {
            fields
                .iter()
                .find(|(t, _)| t == tag)
                .map(|(_, v)| v.as_str())
        };
        self.difference(theirs)
            .map(|(tag, ours, theirs)| (tag, ours, theirs.map(str::to_string)))
    }

    /// The tags a record block carries besides the usual ones (which hold `Variant` and
    /// `TimeControl`): the other fields, `OpeningsFile` when there is one, and `Shard`.
    pub fn record_tags(&self, shards: &ShardSet) -> Vec<(String, String)> {
        let mut tags: Vec<(String, String)> = self
            .fields()
            .into_iter()
            .filter(|(tag, _)| tag != "Variant" && tag != "TimeControl")
            .collect();
        if let Some(file) = &self.openings_file {
            tags.push(("OpeningsFile".into(), file.clone()));
        }
        tags.push(("Shard".into(), shards.tag()));
        tags
    }

    /// Checks that `game` is one this match schedules in `shards`: its number, round and
    /// players. The error starts with `game N`.
    pub fn check_game(&self, shards: &ShardSet, game: &GameSummary) -> Result<(), String> {
        let number = game.number;
        let games = self.games()?;
        let outside =
            || format!("game {number} is not in the schedule (games 1 to {games} of this match)");
        if number == 0 || number > games {
            return Err(outside());
        }
        let index = game.pair();
        let job = pair_at(self.engines.len(), self.tournament()?, self.rounds, index)
            .ok_or_else(outside)?;
        if !shards.contains(index) {
            return Err(format!(
                "game {number} belongs to shard {}/{}, not to {}",
                index % shards.count + 1,
                shards.count,
                shards.tag()
            ));
        }
        let (first, second) = (
            &self.engines[job.first].name,
            &self.engines[job.second].name,
        );
        let (p1, p2) = if number % 2 == 1 {
            (first, second)
        } else {
            (second, first)
        };
        if (&game.p1, &game.p2) != (p1, p2) {
            return Err(format!(
                "game {number} is {} vs {}, but the schedule has {p1} vs {p2}",
                game.p1, game.p2
            ));
        }
        if u64::from(game.round) != job.round + 1 {
            return Err(format!(
                "game {number} is in round {}, but the schedule has it in round {}",
                game.round,
                job.round + 1
            ));
        }
        Ok(())
    }
}

/// A round-robin Sight match of `names` over `rounds` rounds, for tests.
#[cfg(test)]
pub(crate) fn test_identity(names: &[&str], rounds: u64) -> MatchIdentity {
    MatchIdentity {
        game: "sight".into(),
        rules: "none".into(),
        time_control: "nodes=100".into(),
        engines: names
            .iter()
            .map(|n| EngineIdentity {
                name: n.to_string(),
                setup: "cmd=/x".into(),
            })
            .collect(),
        openings: "start".into(),
        openings_file: None,
        seed: 1,
        tournament: "round-robin".into(),
        rounds,
        adjudication: "none".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::{GameResult, Termination};

    fn identity() -> MatchIdentity {
        test_identity(&["a", "b", "c"], 2)
    }

    fn game(number: u64, round: u32, p1: &str, p2: &str) -> GameSummary {
        GameSummary {
            number,
            round,
            p1: p1.into(),
            p2: p2.into(),
            result: GameResult::Draw,
            termination: Termination::Rules,
            plies: 4,
        }
    }

    #[test]
    fn games_are_checked_against_the_schedule_and_the_shards() {
        let id = identity();
        let whole = ShardSet::of(None);
        assert_eq!(id.games(), Ok(12));
        assert_eq!(id.check_game(&whole, &game(1, 1, "a", "b")), Ok(()));
        assert_eq!(id.check_game(&whole, &game(12, 2, "c", "b")), Ok(()));
        for n in [0, 13, u64::MAX] {
            let err = id.check_game(&whole, &game(n, 1, "a", "b")).unwrap_err();
            assert_eq!(
                err,
                format!("game {n} is not in the schedule (games 1 to 12 of this match)")
            );
        }
        let err = id.check_game(&whole, &game(2, 1, "a", "b")).unwrap_err();
        assert_eq!(err, "game 2 is a vs b, but the schedule has b vs a");
        let err = id.check_game(&whole, &game(7, 1, "a", "b")).unwrap_err();
        assert_eq!(
            err,
            "game 7 is in round 1, but the schedule has it in round 2"
        );
        let second = ShardSet::of(Some("2/2".parse().unwrap()));
        let err = id.check_game(&second, &game(1, 1, "a", "b")).unwrap_err();
        assert_eq!(err, "game 1 belongs to shard 1/2, not to 2/2");
        assert_eq!(id.games_of(&second), Ok(6));
    }

    #[test]
    fn fields_name_what_differs() {
        let id = identity();
        let mut other = identity();
        other.seed = 5;
        other.engines[1].setup = "cmd='/my engine'".into();
        let (tag, ours, found) = id.difference_from(&other).unwrap();
        assert_eq!(tag, "Engine2");
        assert_eq!(ours, "name=b cmd=/x");
        assert_eq!(found.as_deref(), Some("name=b cmd='/my engine'"));
        assert_eq!(id.difference(|_| None).unwrap().0, "Variant");
        let tags = id.record_tags(&ShardSet::of(None));
        let names: Vec<&str> = tags.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            names,
            [
                "Rules",
                "Engine1",
                "Engine2",
                "Engine3",
                "Openings",
                "Seed",
                "Schedule",
                "Adjudication",
                "Shard"
            ]
        );
        assert_eq!(word("arg", "it's"), r"arg='it'\''s'");
        assert_eq!(word("arg", ""), "arg=''");
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
