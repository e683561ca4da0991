//! `ludus datagen`: training data from self-play (issue 17's first step). Each game opens with
//! a few random legal moves (seeded by the run's seed and the game's index, so every game is
//! reproducible on any machine), then the alpha-beta search plays both sides at a fixed node
//! budget with fresh tables; every position it searched is recorded with its score, and the
//! game with its result, in the binary layout of [`format`].
//!
//! A long run is many processes: `--shard K/N` plays the games whose index is K−1 modulo N;
//! each game is appended to the output as soon as it ends, and the same command after an
//! interruption resumes after the last complete game (a record cut short is cut off);
//! `ludus datagen merge` puts the shards' files together, `ludus datagen dump` prints one as
//! text.

pub mod check;
pub mod format;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::files::fnv1a64;
use crate::game::dynamic::RuleSet;
use crate::game::{GameId, GameVisitor, OptionValues, Outcome, Player, Searchable};
use crate::net::{GameNet, Net, embedded};
use crate::progress::Progress;
use crate::runs::{self, RunError, Shard, write_line};
use crate::search::{Limits, Score, SearchParams, SearchTables, search};
use format::{GameData, GameResult, Recorded, Sample};

/// `ludus datagen`: self-play data, or `merge`/`dump` of data files.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DatagenCommand {
    #[command(subcommand)]
    sub: Option<DatagenSub>,
    #[command(flatten)]
    args: DatagenArgs,
}

#[derive(Subcommand, Debug)]
enum DatagenSub {
    /// Put the files of a run's shards together (same run, no game twice), ordered by game.
    Merge {
        /// The merged file.
        #[arg(long)]
        out: PathBuf,
        /// The shards' files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print a data file as text: its identity, then per game its index and result and per
    /// position `score<TAB>position`.
    Dump {
        /// The data file.
        file: PathBuf,
    },
}

/// What to generate.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The data file (appended to; a rerun resumes it).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Games in the whole run (all shards).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random legal moves that open each game.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only shard K of N of the games (those whose index is K−1 modulo N).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// A rule option of the game, as NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    options: Vec<(String, String)>,
    /// A game still running after this many plies is stopped and recorded as a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Transposition table size in MiB (cleared before every game).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Seconds between progress lines on stderr where it is not a terminal (a terminal
    /// shows a bar with the ETA; `LUDUS_PROGRESS` overrides, see `ludus --help`).
    #[arg(long, default_value_t = 10)]
    progress: u64,
    /// The evaluation both sides search with: `net` (the `--eval-file` net, else the net
    /// built in, else the hand-written evaluation where the game has no net) or `hand`.
    #[arg(long, default_value = "net", value_parser = ["net", "hand"])]
    eval: String,
    /// A net file (docs/training.md) to search with instead of the built-in net.
    #[arg(long, value_name = "FILE")]
    eval_file: Option<PathBuf>,
}

/// The net the run searches with (`None`: the hand-written evaluation), checked against the
/// game, and its part of the run's identity.
fn run_net(args: &DatagenArgs, game: GameId) -> Result<(Option<Arc<Net>>, String), RunError> {
    if args.eval == "hand" {
        if args.eval_file.is_some() {
            return Err(RunError::refused("--eval-file needs --eval net"));
        }
        return Ok((None, String::new()));
    }
    struct Pick<'a>(Option<&'a Path>);
    impl GameVisitor for Pick<'_> {
        type Output = Result<Option<Arc<Net>>, String>;
        fn visit<G: Searchable>(self) -> Self::Output {
            let Some(path) = self.0 else {
                return Ok(embedded::net_for::<G>());
            };
            GameNet::<G>::from_file(path)
                .map(|n| Some(n.net_arc()))
                .map_err(|e| format!("{}: {e}", path.display()))
        }
    }
    let net = game
        .visit(Pick(args.eval_file.as_deref()))
        .map_err(RunError::Refused)?;
    let tag = net.as_ref().map_or(String::new(), |n| {
        format!(" eval=net-{:016x}", fnv1a64(&n.to_bytes()))
    });
    Ok((net, tag))
}

fn parse_option(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .filter(|(n, _)| !n.is_empty())
        .ok_or_else(|| format!("expected NAME=VALUE, got '{s}'"))
}

/// Runs `ludus datagen` for `game`; returns the exit status. Progress and results go to `out`.
pub fn run(command: DatagenCommand, game: GameId, out: &mut dyn Write) -> i32 {
    let outcome = match command.sub {
        Some(DatagenSub::Merge { out: path, files }) => merge(&path, &files, out),
        Some(DatagenSub::Dump { file }) => dump(&file, out),
        None => generate(&command.args, game, out),
    };
    runs::report(outcome)
}

/// The run's identity: what must agree for a resume or a merge.
fn identity(args: &DatagenArgs, game: GameId) -> String {
    let mut options: Vec<String> = args
        .options
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    options.sort();
    let options = if options.is_empty() {
        "none".to_string()
    } else {
        options.join(",")
    };
    format!(
        "game={} options={options} nodes={} random-plies={} max-plies={} seed={} games={}",
        game.name(),
        args.nodes,
        args.random_plies,
        args.max_plies,
        args.seed,
        args.games
    )
}

fn generate(args: &DatagenArgs, game: GameId, out: &mut dyn Write) -> Result<(), RunError> {
    let path = args
        .out
        .as_ref()
        .ok_or_else(|| RunError::refused("datagen needs --out FILE"))?;
    let rules = RuleSet::new(game, &args.options).map_err(RunError::Refused)?;
    let (net, eval_tag) = run_net(args, game)?;
    let identity = identity(args, game) + &eval_tag;
    let shard = args.shard.unwrap_or(Shard { index: 1, count: 1 });
    let (mut file, done) = open_output(path, &identity, shard)?;
    let mine: Vec<u32> = (0..args.games)
        .filter(|&i| shard.contains(u64::from(i)))
        .collect();
    let todo: Vec<u32> = mine.iter().copied().filter(|i| !done.contains(i)).collect();
    write_line(
        out,
        &format!(
            "datagen {identity}, shard {shard}: {} games, {} already in {}, {} to play",
            mine.len(),
            mine.len() - todo.len(),
            path.display(),
            todo.len()
        ),
    )?;
    struct Play<'a> {
        args: &'a DatagenArgs,
        values: &'a OptionValues,
        todo: &'a [u32],
        file: &'a mut std::fs::File,
        out: &'a mut dyn Write,
        net: Option<Arc<Net>>,
    }
    impl GameVisitor for Play<'_> {
        type Output = Result<(), RunError>;
        fn visit<G: Searchable>(self) -> Result<(), RunError> {
            // `run_net` checked the net against this game.
            let run = Run {
                args: self.args,
                values: self.values,
                net: self.net,
            };
            play_games::<G>(&run, self.todo, self.file, self.out)
        }
    }
    game.visit(Play {
        args,
        values: rules.values(),
        todo: &todo,
        file: &mut file,
        out,
        net,
    })
}

/// Opens the output for appending: a new file gets the header; an existing one must be of
/// this run, and a game cut short at its end is cut off. Returns the games it holds.
fn open_output(
    path: &Path,
    identity: &str,
    shard: Shard,
) -> Result<(std::fs::File, std::collections::HashSet<u32>), RunError> {
    let shown = |e: std::io::Error| RunError::Failed(format!("{}: {e}", path.display()));
    let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    let done = match exists {
        true => {
            // The header first: another run's file is refused before any of its games is read.
            let reader = check::DataReader::open(path).map_err(RunError::Refused)?;
            if reader.identity() != identity {
                return Err(RunError::Refused(format!(
                    "{} holds another run ({}); this one is {identity}",
                    path.display(),
                    reader.identity()
                )));
            }
            let mut reader = reader.checked(Some(shard)).map_err(RunError::Refused)?;
            let mut done = std::collections::HashSet::new();
            while let Some(game) = reader.next_game().map_err(RunError::Refused)? {
                done.insert(game.index);
            }
            let complete_len = reader.complete_len();
            let len = std::fs::metadata(path).map_err(shown)?.len();
            if complete_len < len {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|f| f.set_len(complete_len))
                    .map_err(shown)?;
            }
            Some(done)
        }
        false => None,
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(shown)?;
    match done {
        Some(done) => Ok((file, done)),
        None => {
            format::write_header(&mut file, identity).map_err(shown)?;
            Ok((file, Default::default()))
        }
    }
}

/// What every game of a run shares.
struct Run<'a> {
    args: &'a DatagenArgs,
    values: &'a OptionValues,
    /// The net both sides search with (`None`: the hand-written evaluation).
    net: Option<Arc<Net>>,
}

fn play_games<G: Searchable>(
    run: &Run<'_>,
    todo: &[u32],
    file: &mut std::fs::File,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let (args, values) = (run.args, run.values);
    let settings = G::settings(values);
    let mut tables = SearchTables::<G::Move>::new(args.hash.max(1), G::HISTORY_SIZE)
        .map_err(|_| RunError::Refused(format!("cannot allocate a {} MiB table", args.hash)))?;
    let started = Instant::now();
    let every = Duration::from_secs(args.progress);
    let mut progress = Progress::stderr_every("datagen", "games", Some(todo.len() as u64), every);
    let (mut games, mut positions) = (0u64, 0u64);
    for &index in todo {
        let data = play_one::<G>(run, &settings, index, &mut tables);
        positions += data.samples.len() as u64;
        games += 1;
        let record = format::encode(&data).map_err(RunError::Failed)?;
        file.write_all(&record)
            .and_then(|()| file.flush())
            .map_err(|e| RunError::Failed(format!("cannot write the data file: {e}")))?;
        let secs = started.elapsed().as_secs_f64().max(0.001);
        let note = format!(
            "{positions} positions, {:.0} positions/s",
            positions as f64 / secs
        );
        progress.update(games, &note);
    }
    progress.finish();
    write_line(
        out,
        &format!(
            "{games} games, {positions} positions written in {:.1} s",
            started.elapsed().as_secs_f64()
        ),
    )
}

/// Plays game `index` of the run: its random opening, then the search on both sides.
fn play_one<G: Searchable>(
    run: &Run<'_>,
    settings: &G::Settings,
    index: u32,
    tables: &mut SearchTables<G::Move>,
) -> GameData {
    let args = run.args;
    let mut rng = SmallRng::seed_from_u64(
        args.seed ^ (u64::from(index) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut pos = G::start(settings);
    let mut moves = Vec::new();
    let mut earlier = Vec::new();
    let mut plies = 0;
    // The opening: random legal moves (fewer if the game would end).
    while plies < args.random_plies && pos.outcome().is_none() {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        earlier.extend(pos.repetition_key());
        pos.play(moves[rng.random_range(0..moves.len())]);
        plies += 1;
    }
    tables.clear();
    let stop = AtomicBool::new(false);
    let mut samples = Vec::new();
    while pos.outcome().is_none() && plies < args.max_plies {
        let params = SearchParams {
            earlier_positions: earlier.clone(),
            net: run.net.clone(),
            ..SearchParams::new(Limits {
                nodes: Some(args.nodes),
                ..Limits::default()
            })
        };
        let mut result = search(&pos, &params, tables, &stop, &mut |_| {});
        if result.score.is_none() {
            // The node budget ran out inside depth 1 (Tactigon's capture searches can be
            // long): depth 1 in full, so that every position gets a score.
            let depth_one = SearchParams {
                limits: Limits {
                    depth: Some(1),
                    ..Limits::default()
                },
                ..params
            };
            result = search(&pos, &depth_one, tables, &stop, &mut |_| {});
        }
        let Some(best) = result.best else {
            break;
        };
        if let Some(score) = result.score {
            let score = match score {
                Score::Cp(v) => Recorded::Score(v.clamp(-i16::MAX as i32, i16::MAX as i32) as i16),
                Score::Mate(n) => Recorded::Mate(n.clamp(-i16::MAX as i32, i16::MAX as i32) as i16),
            };
            samples.push(Sample {
                fen: pos.to_fen(),
                score,
            });
        }
        earlier.extend(pos.repetition_key());
        pos.play(best);
        plies += 1;
    }
    let result = match pos.outcome() {
        Some(Outcome::Win(Player::One)) => GameResult::P1Win,
        Some(Outcome::Win(Player::Two)) => GameResult::P2Win,
        _ => GameResult::Draw,
    };
    GameData {
        index,
        result,
        samples,
    }
}

/// A data file opened with every game checked as it is read.
fn open_checked(path: &Path) -> Result<check::DataReader, RunError> {
    check::DataReader::open(path)
        .and_then(|r| r.checked(None))
        .map_err(RunError::Refused)
}

/// Merges the files in two passes, holding only where each game's record is: the first reads
/// and checks every file (same run, no game twice), the second copies the records in the
/// order of their games into `FILE.partial`, which then replaces `path`.
fn merge(path: &Path, files: &[PathBuf], out: &mut dyn Write) -> Result<(), RunError> {
    let mut identity: Option<String> = None;
    // Per game: its index, its file and where its record starts there.
    let mut places: Vec<(u32, usize, u64)> = Vec::new();
    let mut with_checksums = Vec::with_capacity(files.len());
    for (k, file) in files.iter().enumerate() {
        let mut reader = open_checked(file)?;
        match &identity {
            Some(id) if id != reader.identity() => {
                return Err(RunError::Refused(format!(
                    "{} is of another run ({}) than {} ({id})",
                    file.display(),
                    reader.identity(),
                    files[0].display()
                )));
            }
            _ => identity = Some(reader.identity().to_string()),
        }
        with_checksums.push(reader.has_checksums());
        loop {
            let start = reader.complete_len();
            let Some(game) = reader.next_game().map_err(RunError::Refused)? else {
                break;
            };
            places.push((game.index, k, start));
        }
    }
    places.sort_by_key(|&(index, _, _)| index);
    if let Some(pair) = places.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(RunError::Refused(format!(
            "game {} is in two files",
            pair[0].0
        )));
    }
    let partial = path.with_extension("partial");
    let same_file = |a: &Path, b: &Path| {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    };
    if let Some(file) = files.iter().find(|f| same_file(f, &partial)) {
        return Err(RunError::Refused(format!(
            "{} is one of the files merged: the merge writes {} first",
            file.display(),
            partial.display()
        )));
    }
    let written = write_merged(
        &partial,
        identity.as_deref().unwrap_or_default(),
        files,
        &with_checksums,
        &places,
    );
    let positions = match written {
        Ok(positions) => positions,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, path)
        .map_err(|e| RunError::Failed(format!("{}: {e}", path.display())))?;
    write_line(
        out,
        &format!(
            "{}: {} games, {positions} positions from {} files",
            path.display(),
            places.len(),
            files.len()
        ),
    )
}

/// The second pass of [`merge`]: writes the header and the record of every game of `places`
/// (in their order), read again from its file, to `partial`; returns the positions written.
fn write_merged(
    partial: &Path,
    identity: &str,
    files: &[PathBuf],
    with_checksums: &[bool],
    places: &[(u32, usize, u64)],
) -> Result<usize, RunError> {
    let failed = |what: &Path, e: String| RunError::Failed(format!("{}: {e}", what.display()));
    let mut inputs = files
        .iter()
        .map(|f| {
            crate::files::open_regular(f)
                .map(|file| (std::io::BufReader::new(file), 0u64))
                .map_err(|e| failed(f, e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let write_err = |e: std::io::Error| failed(partial, e.to_string());
    let mut merged = std::io::BufWriter::new(std::fs::File::create(partial).map_err(write_err)?);
    format::write_header(&mut merged, identity).map_err(write_err)?;
    let mut positions = 0;
    for &(index, k, start) in places {
        let (reader, at) = &mut inputs[k];
        let file = &files[k];
        // Within the buffer when the games of a file are in order, as datagen writes them.
        reader
            .seek_relative(start as i64 - *at as i64)
            .map_err(|e| failed(file, e.to_string()))?;
        let mut decoder = format::Decoder::records(&mut *reader, with_checksums[k], start);
        let game = decoder.next_game().map_err(|e| failed(file, e))?;
        let Some(game) = game.filter(|g| g.index == index) else {
            return Err(failed(file, "changed while it was merged".into()));
        };
        *at = decoder.complete_len();
        positions += game.samples.len();
        let record = format::encode(&game).map_err(RunError::Failed)?;
        merged.write_all(&record).map_err(write_err)?;
    }
    merged.flush().map_err(write_err)?;
    Ok(positions)
}

/// Prints the file in two passes: every game is read and checked first, so that a file that
/// is refused prints nothing; then the games are printed as they are read again.
fn dump(path: &Path, out: &mut dyn Write) -> Result<(), RunError> {
    let mut reader = open_checked(path)?;
    while reader.next_game().map_err(RunError::Refused)?.is_some() {}
    let mut reader = open_checked(path)?;
    write_line(out, &format!("# {}", reader.identity()))?;
    while let Some(g) = reader.next_game().map_err(RunError::Refused)? {
        write_line(out, &format!("game {} {}", g.index, g.result.token()))?;
        for s in &g.samples {
            let score = match s.score {
                Recorded::Score(v) => format!("{v:+}"),
                Recorded::Mate(n) if n > 0 => format!("+M{n}"),
                Recorded::Mate(n) => format!("-M{}", -n),
            };
            write_line(out, &format!("{score}\t{}", s.fen))?;
        }
    }
    Ok(())
}
