//! What a datagen file must be to be resumed, merged, dumped or trained on: the games of its
//! run and of nothing else. The identity names the run (its game, rule options and number of
//! games); every game must be one of the run's (its index below `games=`, in the shard being
//! resumed), each at most once, and every position a position of the run's game under its
//! rules, not yet finished. Record checksums ([`super::format`]) catch damaged bytes; these
//! checks catch a game of another run or shard, a copied game, and a position the rules do not
//! read (also in files of the first format, which have no checksums). Errors name the game.
//!
//! A file is read as a stream ([`DataReader`]): its header first, then one game at a time,
//! each checked as it is read; a file that is not a datagen file is refused at its header,
//! a damaged one at its first bad record, without reading (or holding) the rest.

use std::collections::HashSet;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::format::{DataFile, Decoder, GameData};
use crate::files::Bounded;
use crate::game::GameId;
use crate::game::dynamic::RuleSet;
use crate::runs::Shard;

/// The largest datagen file read (a few hundred bytes a position: millions of positions). A
/// file is streamed, so the bound is on the file, not on memory.
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

/// The checks of the games of one file, one game at a time: each of the run its identity
/// names (and of `shard` when resuming), at most once, every position one of the run's game
/// under its rules and not finished.
pub struct GameChecks {
    run: RunOf,
    rules: RuleSet,
    shard: Option<Shard>,
    seen: HashSet<u32>,
}

impl GameChecks {
    /// The checks of the run `identity` names; an error if it names none.
    pub fn new(identity: &str, shard: Option<Shard>) -> Result<GameChecks, String> {
        let run = RunOf::parse(identity)?;
        let rules =
            RuleSet::new(run.game, &run.options).map_err(|e| format!("the identity: {e}"))?;
        Ok(GameChecks {
            run,
            rules,
            shard,
            seen: HashSet::new(),
        })
    }

    /// Checks the next game of the file.
    pub fn check(&mut self, game: &GameData) -> Result<(), String> {
        let at = format!("game {}", game.index);
        if game.index >= self.run.games {
            return Err(format!(
                "{at} is not a game of this run (it plays games 0 to {})",
                self.run.games.saturating_sub(1)
            ));
        }
        if let Some(shard) = self.shard.filter(|s| !s.contains(u64::from(game.index))) {
            return Err(format!("{at} is not a game of shard {shard}"));
        }
        if !self.seen.insert(game.index) {
            return Err(format!("{at} is in the file twice"));
        }
        for (k, sample) in game.samples.iter().enumerate() {
            let pos = self
                .rules
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
        Ok(())
    }
}

/// Checks every game of `data` against its run (and, when resuming, against `shard`).
pub fn check_games(data: &DataFile, shard: Option<Shard>) -> Result<(), String> {
    let mut checks = GameChecks::new(&data.identity, shard)?;
    data.games.iter().try_for_each(|game| checks.check(game))
}

/// A datagen file being read: a regular file of at most 16 GiB, its header read and checked
/// first, then one game at a time ([`Decoder`]), each checked as it is read once
/// [`DataReader::checked`] asked for it. Only the game being read is held, so a file of any
/// size within the bound streams, and a file that is not a datagen file (or is damaged) is
/// refused at its header (or its first bad record) without reading the rest. Errors name the
/// file.
pub struct DataReader {
    path: PathBuf,
    decoder: Decoder<BufReader<Bounded>>,
    checks: Option<GameChecks>,
}

impl DataReader {
    /// Opens the datagen file at `path` and reads its header; its games are not checked.
    pub fn open(path: &Path) -> Result<DataReader, String> {
        let named = |e: String| format!("{}: {e}", path.display());
        let file = crate::files::open_bounded(path, MAX_DATA_FILE_BYTES)
            .map_err(|e| named(e.to_string()))?;
        let decoder = Decoder::new(BufReader::new(file)).map_err(named)?;
        Ok(DataReader {
            path: path.to_path_buf(),
            decoder,
            checks: None,
        })
    }

    /// The reader with every game checked against the file's run (and `shard`) as it is read
    /// ([`GameChecks`]); an error if the identity names no run.
    pub fn checked(mut self, shard: Option<Shard>) -> Result<DataReader, String> {
        let checks = GameChecks::new(self.decoder.identity(), shard)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.checks = Some(checks);
        Ok(self)
    }

    /// The run's identity from the header.
    pub fn identity(&self) -> &str {
        self.decoder.identity()
    }

    /// Whether the file's records carry checksums (the current format).
    pub fn has_checksums(&self) -> bool {
        self.decoder.checked()
    }

    /// Bytes up to the end of the last complete game read: where the next game's record
    /// starts, and after the last game the length a file cut short is cut back to.
    pub fn complete_len(&self) -> u64 {
        self.decoder.complete_len()
    }

    /// The next game, checked if asked for; `None` at the end of the file (or at a game cut
    /// short there).
    pub fn next_game(&mut self) -> Result<Option<GameData>, String> {
        let named = |e: String| format!("{}: {e}", self.path.display());
        let Some(game) = self.decoder.next_game().map_err(named)? else {
            return Ok(None);
        };
        if let Some(checks) = &mut self.checks {
            checks.check(&game).map_err(named)?;
        }
        Ok(Some(game))
    }
}

/// Reads the datagen file at `path` with every game checked ([`DataReader::checked`]) and
/// keeps them all; errors name the file.
pub fn read_checked(path: &Path, shard: Option<Shard>) -> Result<DataFile, String> {
    let mut reader = DataReader::open(path)?.checked(shard)?;
    let mut games = Vec::new();
    while let Some(game) = reader.next_game()? {
        games.push(game);
    }
    Ok(DataFile {
        identity: reader.identity().to_string(),
        complete_len: reader.complete_len(),
        games,
    })
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
