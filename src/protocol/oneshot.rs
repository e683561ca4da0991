//! One-shot commands for scripts (`ludus go`, `ludus perft`, `ludus bench`): each runs a short
//! script through the same protocol loop as an interactive session, under `--strict`, so its
//! behaviour and checks are exactly the protocol's; errors go to stderr with status 2 (the
//! command line was refused: every line of the script comes from it), and a refused command
//! prints nothing on stdout.

use std::io::Write;
use std::sync::{Arc, Mutex};

use super::command::MAX_PERFT_DEPTH;
use super::output::{Mode, Output};
use super::{Config, run_events};
use crate::engine::Event;
use crate::exit_status;
use crate::game::GameId;

/// The position a one-shot command works on.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// Options to set first, as (name, value).
    pub options: Vec<(String, String)>,
    /// Start from this position instead of the start position.
    pub fen: Option<String>,
    /// Moves to play first.
    pub moves: Vec<String>,
}

impl Setup {
    fn position_line(&self) -> String {
        let mut line = match &self.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        line
    }
}

fn run_script(
    game: GameId,
    setup: &Setup,
    lines: &[String],
    mode: Mode,
    out: Box<dyn Write + Send>,
) -> i32 {
    let (tx, rx) = crossbeam_channel::unbounded();
    for line in std::iter::once(setup.position_line()).chain(lines.iter().cloned()) {
        // The receiver is alive: it is returned to `run_events` below.
        let _ = tx.send(Event::Input(line));
    }
    let _ = tx.send(Event::InputDone);
    let config = Config {
        game,
        strict: true,
        mode,
        options: setup.options.clone(),
    };
    // Every line of the script comes from the command line: an error is a refused argument.
    match run_events(tx, rx, out, config) {
        exit_status::SUCCESS => exit_status::SUCCESS,
        _ => exit_status::USAGE,
    }
}

/// [`run_script`] with its output kept until the end: standard output gets it only when the
/// script succeeded, so a refused command prints nothing there (its error is on stderr).
fn run_script_to_stdout(game: GameId, setup: &Setup, lines: &[String], mode: Mode) -> i32 {
    let buffer = SharedBuffer::default();
    let status = run_script(game, setup, lines, mode, Box::new(buffer.clone()));
    if status == exit_status::SUCCESS {
        let mut stdout = std::io::stdout().lock();
        if stdout
            .write_all(buffer.text().as_bytes())
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return exit_status::FAILURE;
        }
    }
    status
}

/// `ludus go`: searches with the given `go` arguments (e.g. `movetime 200`) and prints the
/// `bestmove` line, preceded by the last `info` line when `show_info` is set.
///
/// An `isready` comes first, as a GUI sends it: the set-up (the solved books where
/// `SolvedBook` is on, the `Hash` table) is done before the search's clock starts.
pub fn go(game: GameId, setup: &Setup, go_args: &str, show_info: bool) -> i32 {
    let lines = ["isready".to_string(), format!("go {go_args}")];
    let mode = Mode::OneShot { show_info };
    run_script_to_stdout(game, setup, &lines, mode)
}

/// `ludus perft`: prints `move: count` per root move, then `Nodes searched: N`.
pub fn perft(game: GameId, setup: &Setup, depth: u32) -> i32 {
    if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
        eprintln!("error: perft depth must be from 1 to {MAX_PERFT_DEPTH}");
        return exit_status::USAGE;
    }
    let line = format!("perft {depth}");
    let mode = Mode::OneShot { show_info: false };
    run_script_to_stdout(game, setup, &[line], mode)
}

/// `ludus bench`: the bench of each game (its positions and a per-game total as
/// `info string bench <game> nodes <n>`), then `Nodes searched: <sum>`, the signature of all
/// games together. `options` are set first in every game. The speed goes to stderr, one line
/// per game and one for the sum (`bench <what>: <n> nodes, <s> s, <nps> nodes/s`), so stdout
/// stays the same from run to run.
pub fn bench(games: &[GameId], options: &[(String, String)]) -> i32 {
    let mode = Mode::OneShot { show_info: false };
    let mut out = Output::new(Box::new(std::io::stdout()), Mode::Protocol);
    let setup = Setup {
        options: options.to_vec(),
        ..Setup::default()
    };
    let mut total = 0u64;
    let mut total_secs = 0.0;
    for &game in games {
        let buffer = SharedBuffer::default();
        let script = ["bench".to_string()];
        let status = run_script(game, &setup, &script, mode, Box::new(buffer.clone()));
        if status != exit_status::SUCCESS {
            return status;
        }
        let mut game_nodes = None;
        for line in buffer.text().lines() {
            if let Some(nodes) = line.strip_prefix("Nodes searched: ") {
                game_nodes = nodes.parse::<u64>().ok();
                total += game_nodes.unwrap_or(0);
                out.line(&format!("info string bench {game} nodes {nodes}"));
            } else if let Some(nps) = line.strip_prefix("Nodes/second: ") {
                let nps = nps.parse::<u64>().unwrap_or(0);
                if let Some(nodes) = game_nodes.filter(|_| nps > 0) {
                    let secs = nodes as f64 / nps as f64;
                    total_secs += secs;
                    eprintln!("{}", speed_line(&game.to_string(), nodes, secs));
                }
            } else {
                out.line(line);
            }
        }
    }
    out.line(&format!("Nodes searched: {total}"));
    if games.len() > 1 && total_secs > 0.0 {
        eprintln!("{}", speed_line("total", total, total_secs));
    }
    0
}

/// `bench <what>: <n> nodes, <s> s, <nps> nodes/s`.
fn speed_line(what: &str, nodes: u64, secs: f64) -> String {
    let nps = (nodes as f64 / secs).round() as u64;
    format!("bench {what}: {nodes} nodes, {secs:.3} s, {nps} nodes/s")
}

/// A writer that keeps what it is given, for reading back after a script has run.
#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    fn text(&self) -> String {
        let bytes = self.0.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut b) => {
                b.extend_from_slice(data);
                Ok(data.len())
            }
            Err(_) => Err(std::io::Error::other("bench output buffer poisoned")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
