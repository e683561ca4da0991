//! The UGI/UCI text protocol (contract: `protocol.md`). A reader thread turns input into
//! events; the loop in [`run`] handles them one at a time and is the only writer of stdout.
//! When the game or one of its rule switches changes, the loop starts a new session for it
//! through the single game dispatch, [`GameId::visit`].

pub mod command;
pub mod oneshot;
pub mod options;
pub mod output;
mod session;

use std::collections::VecDeque;
use std::io::{Read, Write};

use crossbeam_channel::{Receiver, Sender};

use crate::engine::Event;
use crate::game::{GameId, OptionValues};
use crate::lines::{BoundedLine, read_bounded_lines};
use output::{Mode, Output};
use session::{RunSession, SessionEnd, Shared};

/// Longest input line accepted, in bytes; longer lines are reported and skipped.
pub const MAX_LINE: usize = 1 << 20;

/// The text of the `help` command.
pub const HELP: &str = "\
ludus speaks UGI (UCI with game-neutral seats). Commands:
  ugi | uci                      identify, list options, end with ugiok | uciok
  isready                        answer readyok (also during a search)
  setoption name <N> [value <V>] set an option (see the option lines of ugi)
  uginewgame | ucinewgame        forget the search tables, back to the start position
  position startpos|fen <pos> [moves <m>...]
  move <m> [<m>...]              play moves on the current position
  go [p1time T] [p2time T] [p1inc I] [p2inc I] [movestogo N] [movetime T]
     [depth D] [nodes N] [mate N] [infinite] [ponder] [searchmoves <m>...]
  ponderhit                      the expected reply came: the ponder search becomes the real one
  stop | quit                    end the search | leave
  query gameover|p1turn|result|game|fen|legalmoves
  d | eval                       draw the position | explain its evaluation
  perft N | go perft N           count leaf nodes N plies deep, per move
  bench                          search fixed positions: a deterministic node count
  help                           this text
Full contract: protocol.md";

/// How a protocol loop is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game at start.
    pub game: GameId,
    /// Quit with status 1 after the first error.
    pub strict: bool,
    /// How output is routed.
    pub mode: Mode,
    /// Options set before the first session starts (name, value), checked like `setoption`.
    pub options: Vec<(String, String)>,
}

/// Runs the protocol loop on `input` and `output` until `quit` or end of input; returns the
/// process exit status (0, or 1 after an error under `--strict`).
pub fn run(input: Box<dyn Read + Send>, output: Box<dyn Write + Send>, config: Config) -> i32 {
    let (tx, rx) = crossbeam_channel::unbounded();
    spawn_reader(input, tx.clone());
    run_events(tx, rx, output, config)
}

/// Runs the loop on events that are already queued (the one-shot commands' scripts).
pub(crate) fn run_events(
    tx: Sender<Event>,
    rx: Receiver<Event>,
    output: Box<dyn Write + Send>,
    config: Config,
) -> i32 {
    let specs = options::all_specs(config.game);
    let mut values = OptionValues::from_specs(&specs);
    values.set(options::VARIANT, config.game.name().to_string());
    let mut pending = VecDeque::new();
    for (name, value) in &config.options {
        pending.push_back(Event::Input(format!("setoption name {name} value {value}")));
    }
    let mut shared = Shared {
        out: Output::new(output, config.mode),
        events: rx,
        events_tx: tx,
        pending,
        specs,
        options: values,
        game: config.game,
        strict: config.strict,
        quit_when_idle: false,
        failed: false,
        eval_file_net: None,
        announced_eval: None,
    };
    loop {
        let game = shared.game;
        if game.visit(RunSession(&mut shared)) == SessionEnd::Quit {
            break;
        }
    }
    i32::from(shared.strict && shared.failed)
}

/// Reads lines on a thread of its own and sends them as events; end of input (or a read
/// error) sends [`Event::InputClosed`]. Bytes that are not UTF-8 are replaced, `\r` before
/// the newline is dropped, and lines over [`MAX_LINE`] bytes become [`Event::InputTooLong`].
fn spawn_reader(input: Box<dyn Read + Send>, tx: Sender<Event>) {
    let spawned = std::thread::Builder::new()
        .name("input-reader".into())
        .spawn(move || read_lines(input, &tx));
    if spawned.is_err() {
        log::error!("cannot start the input reader thread");
    }
}

fn read_lines(input: Box<dyn Read + Send>, tx: &Sender<Event>) {
    let ended = read_bounded_lines(input, MAX_LINE, |line| {
        let event = match line {
            BoundedLine::Text(text) => Event::Input(text),
            BoundedLine::TooLong(length) => Event::InputTooLong(length),
        };
        tx.send(event).is_ok()
    });
    if ended {
        let _ = tx.send(Event::InputClosed);
    }
}
