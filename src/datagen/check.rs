//! What a datagen file must be to be resumed, merged, dumped or trained on: the games of its
//! run and of nothing else. The identity names the run (its game, rule options and number of
//! games); every game must be one of the run's (its index below `games=`, in the shard being
//! resumed), each at most once, and every position a position of the run's game under its
//! rules, not yet finished. Record checksums ([`super::format`]) catch damaged bytes; these
//! checks catch a game of another run or shard, a copied game, and a position the rules do not
//! read (also in files of the first format, which have no checksums). Errors name the game.

use std::collections::HashSet;
use std::path::Path;

use super::format::{self, DataFile};
use crate::game::GameId;
use crate::game::dynamic::RuleSet;
use crate::runs::Shard;

/// The largest datagen file read (a few hundred bytes a position: millions of positions).
const MAX_DATA_FILE_BYTES: u64 = 16 << 30;

/// The run a datagen identity names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOf {
    /// The game.
    pub game: GameId,
    /// The rule options (`options=A=1,B=2`; none for `options=none`).
    pub options: Vec<(String, String)>,
    /// How many games the whole run plays (indices `0..games`).
    pub games: u32,
}

impl RunOf {
    /// Reads `game=…`, `options=…` and `games=…` of an identity.
    pub fn parse(identity: &str) -> Result<RunOf, String> {
        let field = |name: &str| {
            identity
                .split(' ')
                .find_map(|w| w.strip_prefix(name))
                .ok_or_else(|| format!("the identity '{identity}' has no {name}"))
        };
        let game = field("game=")?;
        let game = GameId::from_name(game).ok_or_else(|| format!("unknown game '{game}'"))?;
        let options = match field("options=")? {
            "none" => Vec::new(),
            list => list
                .split(',')
                .map(|kv| {
                    kv.split_once('=')
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .ok_or_else(|| format!("options '{list}': '{kv}' is not NAME=VALUE"))
                })
                .collect::<Result<_, _>>()?,
        };
        let games = field("games=")?;
        let games = games
            .parse()
            .map_err(|_| format!("games={games} is not a number of games"))?;
        Ok(RunOf {
            game,
            options,
            games,
        })
    }
}

/// Checks every game of `data` against its run (and, when resuming, against `shard`).
pub fn check_games(data: &DataFile, shard: Option<Shard>) -> Result<(), String> {
    let run = RunOf::parse(&data.identity)?;
    let rules = RuleSet::new(run.game, &run.options).map_err(|e| format!("the identity: {e}"))?;
    let mut seen = HashSet::new();
    for game in &data.games {
        let at = format!("game {}", game.index);
        if game.index >= run.games {
            return Err(format!(
                "{at} is not a game of this run (it plays games 0 to {})",
                run.games.saturating_sub(1)
            ));
        }
        if let Some(shard) = shard.filter(|s| !s.contains(u64::from(game.index))) {
            return Err(format!("{at} is not a game of shard {shard}"));
        }
        if !seen.insert(game.index) {
            return Err(format!("{at} is in the file twice"));
        }
        for (k, sample) in game.samples.iter().enumerate() {
            let pos = rules
                .from_fen(&sample.fen)
                .map_err(|e| format!("{at}, position {}: {e}", k + 1))?;
            if pos.outcome().is_some() {
                return Err(format!(
                    "{at}, position {}: '{}' is a finished game, not a searched position",
                    k + 1,
                    sample.fen
                ));
            }
        }
    }
    Ok(())
}

/// Reads the datagen file at `path` (a regular file) and decodes it, without the checks of
/// [`check_games`]; errors name the file.
pub fn read_decoded(path: &Path) -> Result<DataFile, String> {
    let bytes = crate::files::read_regular(path, MAX_DATA_FILE_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    format::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// [`read_decoded`], then [`check_games`]; errors name the file.
pub fn read_checked(path: &Path, shard: Option<Shard>) -> Result<DataFile, String> {
    let data = read_decoded(path)?;
    check_games(&data, shard).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::{GameData, GameResult, Recorded, Sample};

    fn data(indices: &[u32], fen: &str) -> DataFile {
        DataFile {
            identity: "game=sight options=Sight_BoardSize=5 nodes=10 random-plies=0 \
                       max-plies=300 seed=1 games=4"
                .into(),
            games: indices
                .iter()
                .map(|&index| GameData {
                    index,
                    result: GameResult::Draw,
                    samples: vec![Sample {
                        fen: fen.into(),
                        score: Recorded::Score(3),
                    }],
                })
                .collect(),
            complete_len: 0,
        }
    }

    const START: &str = "5:x5/x5/x5/x5/x5 w";

    #[test]
    fn identities_name_their_run() {
        let run = RunOf::parse(&data(&[], START).identity).unwrap();
        assert_eq!(run.game, GameId::Sight);
        assert_eq!(run.options, [("Sight_BoardSize".into(), "5".into())]);
        assert_eq!(run.games, 4);
        assert!(RunOf::parse("game=chess options=none games=1").is_err());
        assert!(RunOf::parse("game=sight options=none").is_err());
    }

    #[test]
    fn games_of_the_run_pass_and_every_other_is_named() {
        assert_eq!(check_games(&data(&[0, 3, 1], START), None), Ok(()));
        let shard = Shard { index: 2, count: 2 };
        assert_eq!(check_games(&data(&[1, 3], START), Some(shard)), Ok(()));
        let fails = |d: DataFile, shard: Option<Shard>, want: &str| {
            let err = check_games(&d, shard).unwrap_err();
            assert!(err.contains(want), "{err}");
        };
        fails(
            data(&[0, 4], START),
            None,
            "game 4 is not a game of this run",
        );
        fails(
            data(&[0, 2], START),
            Some(shard),
            "game 0 is not a game of shard 2/2",
        );
        fails(data(&[1, 2, 1], START), None, "game 1 is in the file twice");
        fails(
            data(&[0], "5:x5/x5/x9/x5/x5 w"),
            None,
            "game 0, position 1: ",
        );
        let full = "5:b,b,b,b,b/b,b,b,b,b/b,b,b,b,b/b,b,b,b,b/b,b,b,b,b w";
        fails(data(&[2], full), None, "is a finished game");
    }
}
