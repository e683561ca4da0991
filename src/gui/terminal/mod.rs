//! `ludus play`: play in a terminal against an engine, or watch two engines, or let two
//! people play. A thin translator: the engine (ludus or any other engine speaking the
//! protocol, `--engine CMD`) is asked for the legal moves, the position and the result
//! through the protocol; ludus's own rules only draw the board and explain why a typed move
//! is not legal.
//!
//! The screen is made for an 80×24 terminal ([`COLUMNS`]): the board ([`screen`]), the latest
//! moves on one line, numbered by turn ([`moves`]), and the prompt, whose line can be edited on
//! a terminal ([`line_edit`]).

mod input;
mod line_edit;
mod moves;
mod screen;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use crate::client::{EngineProcess, Snapshot};
use crate::exit_status;
use crate::game::GameId;
use crate::game::dynamic::RuleSet;
use crate::gui::{describe, rule_options};

pub use input::Input;
use input::{Typed, has_control_keys};
use moves::{Played, last_numbered, recent_moves};
use screen::{board, draw, wrap};

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person typing moves.
    Human,
    /// The engine.
    Engine,
}

/// The settings of `ludus play`.
#[derive(Clone, Debug)]
pub struct PlayArgs {
    /// The game.
    pub game: GameId,
    /// Player one's seat.
    pub p1: Seat,
    /// Player two's seat.
    pub p2: Seat,
    /// The engine's `Level` option, if set.
    pub level: Option<String>,
    /// The rating to weaken the engine to (`UCI_LimitStrength`, `UCI_Elo`), if set.
    pub elo: Option<i64>,
    /// Milliseconds the engine thinks per move (and per hint).
    pub movetime_ms: u64,
    /// The engine command; `None` = this program.
    pub engine: Option<PathBuf>,
    /// Rule options of the game, NAME=VALUE.
    pub options: Vec<(String, String)>,
    /// Whether to colour the board with ANSI escapes.
    pub color: bool,
}

/// Whether colours suit the output by default: it is a terminal, and `NO_COLOR` is not set.
pub fn default_color(output_is_terminal: bool) -> bool {
    output_is_terminal && std::env::var_os("NO_COLOR").is_none()
}

/// What `help` says: the game's notation by example, and the commands.
fn help(game: GameId) -> String {
    format!(
        "Type a move in the protocol notation ({} …), or:
  moves  list the legal moves      hint  the engine's best move here
  undo   take back your last move  quit  leave the game
  fen    the position in full      ↑ ↓   earlier lines (on a terminal)",
        game.move_examples().join(", ")
    )
}

/// The terminal's width the output is made for: no line is longer.
pub const COLUMNS: usize = 80;

/// The engine and what the session needs from it.
struct Session<'a> {
    args: &'a PlayArgs,
    rules: RuleSet,
    engine: EngineProcess,
    moves: Vec<Played>,
    /// Whether the engine is set to the game's level (`--level`, `--elo`) rather than to full
    /// strength, which hints get.
    weakened: bool,
}

/// Who a search is for: the engine's own move (at the game's level) or a hint (full strength,
/// as on the web: a hint is the best move the engine finds).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Search {
    Move,
    Hint,
}

const TIMEOUT: Duration = Duration::from_secs(10);

impl Session<'_> {
    fn position(&self) -> String {
        if self.moves.is_empty() {
            "position startpos".to_string()
        } else {
            let played: Vec<&str> = self.moves.iter().map(|m| m.text.as_str()).collect();
            format!("position startpos moves {}", played.join(" "))
        }
    }

    /// The position, legal moves and result, as the engine reports them.
    fn view(&mut self) -> Result<Snapshot, String> {
        let position = self.position();
        self.engine
            .snapshot(&position, TIMEOUT)
            .map_err(|e| e.to_string())
    }

    /// Sets the engine to the game's level for its moves, to full strength for a hint; only
    /// options the game's level set are changed, and only when they must be.
    fn set_strength(&mut self, search: Search) -> Result<(), String> {
        let weakened = search == Search::Move && weakens(self.args);
        if weakened == self.weakened {
            return Ok(());
        }
        if let Some(level) = &self.args.level {
            let level = if weakened { level.as_str() } else { "full" };
            set_checked(&mut self.engine, "Level", level).map_err(|(_, e)| e)?;
        }
        if self.args.elo.is_some() {
            let limit = if weakened { "true" } else { "false" };
            set_checked(&mut self.engine, "UCI_LimitStrength", limit).map_err(|(_, e)| e)?;
        }
        self.weakened = weakened;
        Ok(())
    }

    fn think(&mut self, search: Search) -> Result<String, String> {
        self.set_strength(search)?;
        let position = self.position();
        let movetime = self.args.movetime_ms;
        let deadline = Duration::from_millis(movetime.saturating_mul(2) + 1000);
        self.engine
            .go(
                &position,
                &format!("movetime {movetime}"),
                Some(deadline),
                TIMEOUT,
            )
            .map(|a| a.mv)
            .map_err(|e| format!("the engine failed: {e}"))
    }
}

/// Plays a game in the terminal: reads moves and commands from `input` (a stream's lines, or
/// the terminal's keys, [`Input`]), writes the board, messages and the prompt's line to `out`. When two engines play, typing `quit` ends the game after the move under
/// way. Returns the exit status ([`exit_status`]): 0 when the game ended or the player quit,
/// 1 when the engine could not start or failed, 2 when the rule options, the level or the
/// rating are refused.
pub fn run(args: &PlayArgs, input: Input, out: &mut dyn Write) -> i32 {
    let watching = args.p1 == Seat::Engine && args.p2 == Seat::Engine;
    match play(args, Typed::new(input, watching), out) {
        Ok(()) => exit_status::SUCCESS,
        Err((status, message)) => {
            let _ = writeln!(out, "error: {message}");
            status
        }
    }
}

/// Whether `args` set the engine's moves weaker than full strength (`--level` other than
/// `full`, `--elo`).
fn weakens(args: &PlayArgs) -> bool {
    args.elo.is_some() || args.level.as_deref().is_some_and(|l| l != "full")
}

/// Starts the engine with `--level` or `--elo` set. The error's status: [`exit_status::USAGE`]
/// for a level or rating the engine's option refuses (the command line asked for what the
/// engine does not offer), [`exit_status::FAILURE`] for an engine that cannot start or fails.
fn start_engine(args: &PlayArgs) -> Result<EngineProcess, (i32, String)> {
    let failed = |e: String| (exit_status::FAILURE, e);
    let mut engine =
        EngineProcess::start_for_game(args.engine.as_deref(), args.game, &args.options, TIMEOUT)
            .map_err(failed)?;
    if let Some(level) = &args.level {
        set_checked(&mut engine, "Level", level)?;
    }
    if let Some(elo) = args.elo {
        set_checked(&mut engine, "UCI_LimitStrength", "true")?;
        set_checked(&mut engine, "UCI_Elo", &elo.to_string())?;
    }
    engine
        .new_game(TIMEOUT)
        .map_err(|e| failed(e.to_string()))?;
    Ok(engine)
}

/// Sets option `name` to `value` once the engine's own option line accepts it: an engine
/// without the option, or a value outside it, is refused ([`exit_status::USAGE`]); an engine
/// that fails while it is set, a failure.
fn set_checked(engine: &mut EngineProcess, name: &str, value: &str) -> Result<(), (i32, String)> {
    let refused = |e: String| (exit_status::USAGE, e);
    let option = engine
        .option(name)
        .ok_or_else(|| refused(format!("the engine has no option {name}")))?;
    let value = option.check(value).map_err(refused)?;
    engine
        .set_option(name, &value)
        .map_err(|e| (exit_status::FAILURE, e.to_string()))
}

/// What a typed line asks for, read in the game's notation: a move's case folded where the
/// notation has no upper case ([`GameId::moves_in_lower_case`]), so that `C3` is `c3`.
fn read_typed(game: GameId, line: &str) -> String {
    let line = line.trim();
    if game.moves_in_lower_case() {
        line.to_lowercase()
    } else {
        line.to_string()
    }
}

fn play(args: &PlayArgs, mut input: Typed, out: &mut dyn Write) -> Result<(), (i32, String)> {
    let rules = RuleSet::new(args.game, &args.options).map_err(|e| (exit_status::USAGE, e))?;
    let engine = start_engine(args)?;
    let values = rules.values().clone();
    // Every rule option in force: those given and ludus's defaults of the others.
    let in_force = rule_options(args.game, &values);
    let mut s = Session {
        args,
        rules,
        engine,
        moves: Vec::new(),
        weakened: weakens(args),
    };
    let io = |e: std::io::Error| (exit_status::FAILURE, format!("cannot write: {e}"));
    let watching = args.p1 == Seat::Engine && args.p2 == Seat::Engine;
    if watching {
        writeln!(
            out,
            "{} — two engines play; type quit (and Enter) to stop watching.",
            args.game.name()
        )
        .map_err(io)?;
    } else {
        writeln!(out, "{}\n{}", args.game.name(), help(args.game)).map_err(io)?;
    }
    // The board last drawn and the moves it showed, to mark what the next move changed.
    let mut shown: Option<(String, usize)> = None;
    // Whether the last move is the engine's, still to be said.
    let mut engine_moved = false;
    loop {
        let view = s.view().map_err(|e| (exit_status::FAILURE, e))?;
        if let Some(last) = s.moves.last_mut().filter(|m| m.shown.is_empty()) {
            last.shown = args
                .game
                .move_text(&in_force, &last.fen_before, &last.text, &view.fen);
        }
        if std::mem::take(&mut engine_moved)
            && let Some(last) = s.moves.last()
        {
            let side = args.game.seats()[usize::from(!last.by_p1)];
            writeln!(out, "{side} (engine) plays {}", last_numbered(&s.moves)).map_err(io)?;
        }
        let text = board(args.game, &view.fen, &values);
        // Marked only when the board before is the one just before the last move (not
        // after an undo).
        let before = shown
            .as_ref()
            .filter(|(_, n)| n + 1 == s.moves.len())
            .map(|(b, _)| b.as_str());
        writeln!(out).map_err(io)?;
        write!(out, "{}", draw(args.game, &text, before, args.color)).map_err(io)?;
        shown = Some((text, s.moves.len()));
        if !s.moves.is_empty() {
            writeln!(out, "{}", recent_moves(&s.moves)).map_err(io)?;
        }
        if view.result != "none" {
            let ending = describe(args.game, &view, &in_force);
            // Counted in plies (each player's moves), not in numbered turns.
            let plies = s.moves.len();
            let unit = if plies == 1 { "ply" } else { "plies" };
            let banner = format!("*** {ending} ({plies} {unit}) ***");
            writeln!(out, "{}", wrap(&banner)).map_err(io)?;
            s.engine.quit();
            return Ok(());
        }
        let side = args.game.seats()[usize::from(!view.p1turn)];
        let seat = if view.p1turn { args.p1 } else { args.p2 };
        let play = |mv: String| Played {
            text: mv,
            shown: String::new(),
            by_p1: view.p1turn,
            fen_before: view.fen.clone(),
        };
        if seat == Seat::Engine {
            if watching && input.quit_typed() {
                writeln!(out, "bye").map_err(io)?;
                s.engine.quit();
                return Ok(());
            }
            let mv = s
                .think(Search::Move)
                .map_err(|e| (exit_status::FAILURE, e))?;
            if !view.legal.contains(&mv) {
                return Err((
                    exit_status::FAILURE,
                    format!("the engine played {mv}, which is not legal"),
                ));
            }
            s.moves.push(play(mv));
            engine_moved = true;
            continue;
        }
        if view.legal == ["pass"] {
            writeln!(out, "{side} has no move but pass: passing.").map_err(io)?;
            s.moves.push(play("pass".into()));
            continue;
        }
        loop {
            let prompt = format!("{side} to move> ");
            let Some(line) = input.next(&prompt, out).map_err(io)? else {
                writeln!(out, "bye").map_err(io)?;
                s.engine.quit();
                return Ok(());
            };
            if has_control_keys(&line) {
                let why = "The line holds control keys (an arrow key?), which do not edit a line \
                           read from a pipe or a file: type it again without them.";
                writeln!(out, "{}", wrap(why)).map_err(io)?;
                continue;
            }
            match read_typed(args.game, &line).as_str() {
                "" => {}
                "quit" | "exit" => {
                    s.engine.quit();
                    return Ok(());
                }
                "help" | "?" => writeln!(out, "{}", help(args.game)).map_err(io)?,
                "moves" => writeln!(out, "{}", view.legal.join(" ")).map_err(io)?,
                "fen" => writeln!(out, "{}", view.fen).map_err(io)?,
                "hint" => {
                    let mv = s
                        .think(Search::Hint)
                        .map_err(|e| (exit_status::FAILURE, e))?;
                    writeln!(out, "hint: {mv}").map_err(io)?;
                }
                "undo" => {
                    // Take back to this player's previous turn (past the engine's reply).
                    let steps = if args.p1 == args.p2 { 1 } else { 2 };
                    if s.moves.len() < steps {
                        writeln!(out, "nothing to undo").map_err(io)?;
                        continue;
                    }
                    s.moves.truncate(s.moves.len() - steps);
                    break;
                }
                text if view.legal.iter().any(|m| m == text) => {
                    s.moves.push(play(text.to_string()));
                    break;
                }
                text => {
                    let why = s.rules.why_not_legal(&view.fen, text);
                    writeln!(out, "{}", wrap(&why)).map_err(io)?;
                    writeln!(out, "(type `moves` for the legal moves, `help` for help)")
                        .map_err(io)?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_typed_in_upper_case_is_read_in_lower_case() {
        assert_eq!(read_typed(GameId::Sight, " C3\n"), "c3");
        assert_eq!(read_typed(GameId::Tactigon, "D14-D10"), "d14-d10");
        assert_eq!(read_typed(GameId::Isaac, "X4H23+24"), "x4h23+24");
        assert_eq!(read_typed(GameId::Isaac, "QUIT"), "quit");
    }
}
