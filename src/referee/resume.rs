//! `--resume`: reads the record file back and checks every game in it against this match
//! before anything is played or written. A game of another match (any field of the match's
//! identity differs, or another shard), a game number the schedule does not have, the wrong
//! engines or round, a block of an older ludus without the identity tags, or two different
//! blocks of one game: each is refused with an error naming the file, the line and the game,
//! and the file is left as it is. Only once every game is accepted is the file repaired: a
//! cut-short last block is dropped, and so are exact repeats of a block (they count once).

use std::collections::BTreeMap;
use std::path::Path;

use crate::record::{RecordedGame, read_records, replace, truncate};
use crate::referee::config::MatchConfig;
use crate::referee::identity::MatchIdentity;
use crate::referee::tally::Tally;
use crate::runs::ShardSet;

/// Reads the record file for `--resume` into `tally` and repairs it (see the module
/// documentation); without `--resume` an existing non-empty record is an error, so no earlier
/// games are ever mixed in or overwritten by accident.
pub fn recover(
    config: &MatchConfig,
    identity: &MatchIdentity,
    shards: &ShardSet,
    tally: &mut Tally,
) -> Result<(), String> {
    let Some(path) = &config.record else {
        return if config.resume {
            Err("--resume needs the record file (--pgnout FILE)".into())
        } else {
            Ok(())
        };
    };
    let recovered = read_records(path)?;
    if !config.resume {
        if !recovered.games.is_empty() || path.metadata().is_ok_and(|m| m.len() > 0) {
            return Err(format!(
                "record file {} already exists: add --resume to continue that match, or \
                 choose another file",
                path.display()
            ));
        }
        return Ok(());
    }
    let mut kept: BTreeMap<u64, &RecordedGame> = BTreeMap::new();
    let mut repeats: Vec<u64> = Vec::new();
    for game in &recovered.games {
        check(path, identity, shards, game)?;
        let number = game.summary.number;
        if let Some(earlier) = kept.get(&number) {
            if earlier.text != game.text {
                return Err(format!(
                    "{}: lines {} and {}: game {number} appears twice, differently; remove the \
                     block that should not count",
                    path.display(),
                    earlier.line,
                    game.line
                ));
            }
            repeats.push(number);
            continue;
        }
        tally.add(game.summary.clone())?;
        kept.insert(number, game);
    }
    if repeats.is_empty() {
        return truncate(path, recovered.complete_len)
            .map_err(|e| format!("cannot repair {}: {e}", path.display()));
    }
    let text: String = recovered
        .games
        .iter()
        .filter(|g| {
            kept.get(&g.summary.number)
                .is_some_and(|k| k.line == g.line)
        })
        .map(|g| g.text.as_str())
        .collect();
    replace(path, &text).map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
    let numbers: Vec<String> = repeats.iter().map(u64::to_string).collect();
    log::warn!(
        "{}: dropped {} exact repeat(s) of game(s) {}; each counts once",
        path.display(),
        repeats.len(),
        numbers.join(", ")
    );
    Ok(())
}

/// Checks one recorded game against the match: its identity tags, its shard, its place in
/// the schedule.
fn check(
    path: &Path,
    identity: &MatchIdentity,
    shards: &ShardSet,
    game: &RecordedGame,
) -> Result<(), String> {
    let at = format!("{}: line {}", path.display(), game.line);
    let number = game.summary.number;
    if game.tag("Schedule").is_none() {
        return Err(format!(
            "{at}: game {number} has no Schedule tag: the record was written by an older ludus \
             and does not say which match it belongs to, so it cannot be resumed; finish it \
             with the ludus that started it, or start a new record file"
        ));
    }
    if let Some((tag, ours, theirs)) = identity.difference(|tag| game.tag(tag)) {
        return Err(format!(
            "{at}: game {number} belongs to another match: its {tag} is {:?}, this match's is \
             {ours:?}",
            theirs.unwrap_or("missing")
        ));
    }
    let shard = shards.tag();
    if game.tag("Shard") != Some(shard.as_str()) {
        return Err(format!(
            "{at}: game {number} was played as shard {}, this run is shard {shard}",
            game.tag("Shard").unwrap_or("missing")
        ));
    }
    identity
        .check_game(shards, &game.summary)
        .map_err(|e| format!("{at}: {e}"))
}
