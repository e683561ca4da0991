//! The `ludus` binary: the protocol loop by default, one-shot commands for scripts.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use ludus::exit_status;
use ludus::game::GameId;
use ludus::gui::terminal::{self, PlayArgs, Seat};
use ludus::protocol::oneshot::{self, Setup};
use ludus::protocol::output::Mode;
use ludus::protocol::{self, Config};
use ludus::referee::{self, cli::MatchCommand};
use ludus::solve::cli::SolveCommand;

/// `ludus --version`: the package version and the build's commit (build.rs), e.g.
/// `0.4.0 (c69de7d 2026-12-01)`.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("LUDUS_BUILD"), ")");

/// ludus: an engine for Isaac, Sight and Tactigon speaking the UGI/UCI protocol.
///
/// Without a subcommand, ludus reads protocol commands on stdin and answers on stdout
/// (see protocol.md). The subcommands run one job and exit, for scripts.
#[derive(Parser)]
#[command(version = VERSION, about, long_about, after_help = exit_status::TABLE)]
struct Cli {
    /// The game [default: sight]: the protocol loop starts with it; `go`, `perft`, `play`
    /// and `match` play it; `bench` runs only its positions (all games without it); `web`
    /// opens with it; `datagen`, `train`, `wdl` and `learn` work on its data.
    #[arg(long, global = true, value_parser = game_parser())]
    game: Option<GameId>,
    /// Quit with status 1 at the first protocol error instead of reporting it and going on.
    #[arg(long)]
    strict: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Reads `--game`: one of the games' names ([`GameId::ALL`]).
fn game_parser() -> impl clap::builder::TypedValueParser<Value = GameId> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    let names: Vec<&'static str> = GameId::ALL.iter().map(|g| g.name()).collect();
    PossibleValuesParser::new(names).try_map(|name: String| {
        GameId::from_name(&name).ok_or_else(|| format!("{name} is not a game"))
    })
}

#[derive(Clone, Copy, ValueEnum)]
enum SeatArg {
    Human,
    Engine,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Search one position and print the `bestmove` line.
    Go {
        #[command(flatten)]
        setup: SetupArgs,
        /// Search for this many milliseconds.
        #[arg(long, group = "limit")]
        movetime: Option<u64>,
        /// Search to this depth in plies.
        #[arg(long, group = "limit")]
        depth: Option<u32>,
        /// Search this many nodes.
        #[arg(long, group = "limit")]
        nodes: Option<u64>,
        /// Look for a win in at most this many moves (`go mate N`).
        #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..=64))]
        mate: Option<u32>,
        /// Also print the last `info` line of the search.
        #[arg(long)]
        info: bool,
    },
    /// Count the leaf nodes of the move tree, per root move.
    Perft {
        #[command(flatten)]
        setup: SetupArgs,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
    },
    /// Search the fixed bench positions of every game (or of `--game`): a deterministic
    /// node-count signature on stdout, the speed on stderr.
    Bench {
        /// Set an option first in every game benched, as NAME=VALUE (repeatable), e.g.
        /// Eval=hand to time the hand-written evaluation against the built-in net.
        #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
        options: Vec<(String, String)>,
    },
    /// Play in the terminal: people against the engine, each other, or watch two engines.
    Play {
        /// Who plays player one.
        #[arg(long, value_enum, default_value_t = SeatArg::Human)]
        p1: SeatArg,
        /// Who plays player two.
        #[arg(long, value_enum, default_value_t = SeatArg::Engine)]
        p2: SeatArg,
        /// The engine's Level option (random, greedy, full).
        #[arg(long)]
        level: Option<String>,
        /// Weaken the engine to this rating on the game's scale (UCI_LimitStrength and
        /// UCI_Elo; docs/strength.md, "Levels").
        #[arg(long, conflicts_with = "level")]
        elo: Option<i64>,
        /// Milliseconds the engine thinks per move (and per hint).
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// The engine to play against (default: this ludus).
        #[arg(long, value_name = "CMD")]
        engine: Option<std::path::PathBuf>,
        /// A rule option of the game, as NAME=VALUE (repeatable), e.g. Sight_BoardSize=7.
        #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
        options: Vec<(String, String)>,
        /// Colours: auto (when writing to a terminal and NO_COLOR is unset), always, never.
        #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
        color: ColorArg,
    },
    /// Play in a browser: serves the web GUI on 127.0.0.1.
    Web {
        /// The port (0 picks a free one and prints it).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The engine to play against (default: this ludus).
        #[arg(long, value_name = "CMD")]
        engine: Option<std::path::PathBuf>,
        /// Most games at once (one per browser tab, each with its own engine processes);
        /// more are refused until one ends.
        #[arg(long, value_name = "N", default_value_t = 8,
              value_parser = clap::value_parser!(u32).range(1..=1000))]
        max_sessions: u32,
        /// A game nothing uses for this long (no request, no tab open on it) is closed and
        /// its engines quit. Open pages ask at least once a minute, so the default ends the
        /// games of a crashed or killed browser within three minutes.
        #[arg(long, value_name = "SECS", default_value_t = 150.0, value_parser = parse_secs)]
        idle_timeout: f64,
    },
    /// Review a recorded game (a `ludus match` record or a game the web GUI exported): every
    /// position searched at fixed limits, every move scored against the engine's best and
    /// marked ?! ? ?? by what it lost; writes the annotated record.
    Analyse {
        /// The record file.
        file: std::path::PathBuf,
        /// Only the game with this number (its `Game` tag); all games by default.
        #[arg(long)]
        number: Option<u64>,
        /// Search each position to this depth.
        #[arg(long, conflicts_with_all = ["nodes", "movetime"])]
        depth: Option<u32>,
        /// Search each position this many nodes.
        #[arg(long, conflicts_with = "movetime")]
        nodes: Option<u64>,
        /// Search each position this many milliseconds (the default, 500, when no limit is
        /// given; depth or nodes give the same scores on every run).
        #[arg(long)]
        movetime: Option<u64>,
        /// The engine that analyses (default: this ludus).
        #[arg(long, value_name = "CMD")]
        engine: Option<std::path::PathBuf>,
        /// Seconds to wait at most for the engine's answer on one position.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
    },
    /// Play a match between engines (cutechess/fastchess style), or `match merge` results.
    Match(Box<MatchCommand>),
    /// Self-play training data: positions searched at fixed nodes with their scores and the
    /// games' results, in shards that resume (`datagen merge`, `datagen dump`).
    Datagen(Box<ludus::datagen::DatagenCommand>),
    /// Train a net for the game from datagen files (needs a build with `--features train`;
    /// see docs/training.md).
    Train(Box<ludus::train::TrainArgs>),
    /// The learning loop: generation after generation, self-play with the best net, a
    /// candidate trained on it, gates (an SPRT at fixed nodes, then a short clock), promotion,
    /// a ledger and a chart; resumes where it stopped (needs `--features train`; see
    /// docs/training.md).
    Learn(Box<ludus::learn::LearnCommand>),
    /// The win/draw/loss model of `UCI_ShowWDL`: `wdl fit` fits it to datagen files and
    /// prints the game's constants, `wdl check` compares the built-in one with held-out games
    /// (see docs/wdl.md).
    Wdl(Box<ludus::wdl::WdlCommand>),
    /// Prove who wins a Sight position (the empty 5×5 board by default), or `solve merge`
    /// the results of shards (see docs/solved.md).
    Solve(Box<SolveCommand>),
    /// Print a shell's completion script for ludus, e.g. `ludus completions bash >
    /// ~/.local/share/bash-completion/completions/ludus`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page ludus(1) in roff (`ludus man | man -l -`), or with `--out DIR`
    /// write it and one page per subcommand (ludus-go.1, ludus-match.1, …) into DIR.
    Man {
        /// The folder to write the pages into (made if missing).
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
}

#[derive(Args)]
struct SetupArgs {
    /// Start from this position (the game's notation) instead of the start position. Isaac's
    /// positions begin with `-`: `--fen "- 54321/54321 d P - 0/0 0/0"` works as it is.
    #[arg(long, allow_hyphen_values = true)]
    fen: Option<String>,
    /// Moves to play first (space-separated, or the flag repeated).
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
    /// Set an option first, as NAME=VALUE (repeatable), e.g. Sight_BoardSize=7.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    options: Vec<(String, String)>,
}

fn parse_option(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .filter(|(n, _)| !n.is_empty())
        .ok_or_else(|| format!("expected NAME=VALUE, got '{s}'"))
}

/// Seconds for `--idle-timeout`: a number above 0 and at most a week (fractions allowed).
fn parse_secs(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs <= 604_800.0 => Ok(secs),
        _ => Err(format!(
            "expected seconds, more than 0 and at most 604800, got '{s}'"
        )),
    }
}

impl From<SetupArgs> for Setup {
    fn from(a: SetupArgs) -> Setup {
        Setup {
            options: a.options,
            fen: a.fen,
            moves: a.moves.into_iter().filter(|m| !m.is_empty()).collect(),
        }
    }
}

/// `ludus man`: ludus(1) on stdout, or every page into `out`. Returns the exit status.
fn manual(out: Option<&std::path::Path>) -> i32 {
    // No `help` subcommands: a page for each of them (and theirs) would only repeat `--help`.
    fn without_help(command: clap::Command) -> clap::Command {
        command
            .disable_help_subcommand(true)
            .mut_subcommands(without_help)
    }
    let command = without_help(Cli::command().name("ludus"));
    let mut page = Vec::new();
    let written = match out {
        None => clap_mangen::Man::new(command).render(&mut page),
        Some(dir) => std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(command, dir))
            .map(|()| page = format!("wrote the manual pages into {}\n", dir.display()).into()),
    };
    match written {
        Ok(()) => print_bytes(&page, "man"),
        Err(e) => {
            eprintln!("error: ludus man: {e}");
            exit_status::FAILURE
        }
    }
}

/// Writes `bytes` to stdout; an error (a closed pipe) is reported, not a panic. Returns the
/// exit status.
fn print_bytes(bytes: &[u8], command: &str) -> i32 {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => exit_status::SUCCESS,
        Err(e) => {
            eprintln!("error: ludus {command}: {e}");
            exit_status::FAILURE
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let chosen = cli.game;
    let game = chosen.unwrap_or(GameId::DEFAULT);
    let status = match cli.command {
        None => protocol::run(
            Box::new(std::io::stdin()),
            Box::new(std::io::stdout()),
            Config {
                game,
                strict: cli.strict,
                mode: Mode::Protocol,
                options: Vec::new(),
            },
        ),
        Some(Command::Go {
            setup,
            movetime,
            depth,
            nodes,
            mate,
            info,
        }) => {
            let limit = match (movetime, depth, nodes, mate) {
                (Some(ms), ..) => format!("movetime {ms}"),
                (_, Some(d), ..) => format!("depth {d}"),
                (_, _, Some(n), _) => format!("nodes {n}"),
                (.., Some(n)) => format!("mate {n}"),
                _ => {
                    eprintln!(
                        "error: ludus go needs one of --movetime, --depth, --nodes or --mate"
                    );
                    return ExitCode::from(exit_status::USAGE as u8);
                }
            };
            oneshot::go(game, &setup.into(), &limit, info)
        }
        Some(Command::Perft { setup, depth }) => {
            let start = std::time::Instant::now();
            let status = oneshot::perft(game, &setup.into(), depth);
            if status == 0 {
                eprintln!("perft {depth}: {:.3} s", start.elapsed().as_secs_f64());
            }
            status
        }
        Some(Command::Bench { options }) => match chosen {
            Some(game) => oneshot::bench(&[game], &options),
            None => oneshot::bench(GameId::ALL, &options),
        },
        Some(Command::Play {
            p1,
            p2,
            level,
            elo,
            movetime,
            engine,
            options,
            color,
        }) => {
            let seat = |s: SeatArg| match s {
                SeatArg::Human => Seat::Human,
                SeatArg::Engine => Seat::Engine,
            };
            let args = PlayArgs {
                game,
                p1: seat(p1),
                p2: seat(p2),
                level,
                elo,
                movetime_ms: movetime,
                engine,
                options,
                color: match color {
                    ColorArg::Auto => terminal::default_color(std::io::stdout().is_terminal()),
                    ColorArg::Always => true,
                    ColorArg::Never => false,
                },
            };
            // Lines are edited key by key where both ends are a terminal; a pipe's are read
            // as they come.
            let input = if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
                terminal::Input::Terminal
            } else {
                terminal::Input::Lines(Box::new(std::io::BufReader::new(std::io::stdin())))
            };
            terminal::run(&args, input, &mut std::io::stdout())
        }
        Some(Command::Web {
            port,
            engine,
            max_sessions,
            idle_timeout,
        }) => {
            let config = ludus::gui::web::WebConfig {
                port,
                engine,
                game: chosen,
                max_sessions: max_sessions as usize,
                idle_timeout: std::time::Duration::from_secs_f64(idle_timeout),
            };
            ludus::gui::web::run(config, &mut std::io::stdout())
        }
        Some(Command::Analyse {
            file,
            number,
            depth,
            nodes,
            movetime,
            engine,
            timeout,
        }) => {
            let limit = match (depth, nodes, movetime) {
                (Some(d), _, _) => format!("depth {d}"),
                (_, Some(n), _) => format!("nodes {n}"),
                (_, _, m) => format!("movetime {}", m.unwrap_or(500)),
            };
            let args = ludus::analyse::AnalyseArgs {
                file,
                game_number: number,
                limit,
                engine,
                timeout: std::time::Duration::from_secs(timeout),
            };
            ludus::analyse::run(&args, &mut std::io::stdout())
        }
        Some(Command::Match(mut command)) => {
            if let Some(sub) = matches.subcommand_matches("match") {
                command.group_engines(sub);
            }
            referee::cli::run(*command, game, &mut std::io::stdout())
        }
        Some(Command::Datagen(command)) => {
            ludus::datagen::run(*command, game, &mut std::io::stdout())
        }
        Some(Command::Wdl(command)) => ludus::wdl::run(*command, game, &mut std::io::stdout()),
        Some(Command::Train(args)) => ludus::train::run(&args, game, &mut std::io::stdout()),
        Some(Command::Learn(args)) => ludus::learn::run(
            &args,
            chosen,
            std::io::stdout().is_terminal(),
            &mut std::io::stdout(),
        ),
        Some(Command::Solve(command)) => {
            ludus::solve::cli::run(*command, chosen, &mut std::io::stdout())
        }
        Some(Command::Completions { shell }) => {
            // Into memory first: clap_complete panics on a write error (a closed pipe).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "ludus", &mut script);
            print_bytes(&script, "completions")
        }
        Some(Command::Man { out }) => manual(out.as_deref()),
    };
    ExitCode::from(status.clamp(0, 255) as u8)
}
