//! `ludus play`: play in a terminal against an engine, or watch two engines, or let two
//! people play. A thin translator: the engine (ludus or any other engine speaking the
//! protocol, `--engine CMD`) is asked for the legal moves, the position and the result
//! through the protocol; ludus's own rules only draw the board and explain why a typed move
//! is not legal.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use crossbeam_channel::Receiver;

use crate::client::{EngineProcess, Snapshot};
use crate::exit_status;
use crate::game::dynamic::RuleSet;
use crate::game::present::Ink;
use crate::game::{GameId, GameVisitor, Searchable, options::OptionValues};
use crate::gui::{describe, rule_options};

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
  moves  list the legal moves      hint  ask the engine for a move
  undo   take back your last move  quit  leave the game",
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
    moves: Vec<String>,
}

const TIMEOUT: Duration = Duration::from_secs(10);

impl Session<'_> {
    fn position(&self) -> String {
        if self.moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", self.moves.join(" "))
        }
    }

    /// The position, legal moves and result, as the engine reports them.
    fn view(&mut self) -> Result<Snapshot, String> {
        let position = self.position();
        self.engine
            .snapshot(&position, TIMEOUT)
            .map_err(|e| e.to_string())
    }

    fn think(&mut self) -> Result<String, String> {
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

/// What the user types, read on a thread of its own so that a watched game (two engines,
/// nobody to prompt) can still be quit between moves.
struct Typed {
    lines: Receiver<String>,
}

impl Typed {
    fn spawn(mut input: Box<dyn BufRead + Send>) -> Typed {
        let (tx, rx) = crossbeam_channel::unbounded();
        // If the thread cannot start, the sender is gone and input reads as ended.
        let _ = std::thread::Builder::new()
            .name("play-input".into())
            .spawn(move || {
                loop {
                    let mut line = String::new();
                    match input.read_line(&mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) if tx.send(line).is_err() => break,
                        Ok(_) => {}
                    }
                }
            });
        Typed { lines: rx }
    }

    /// The next line, waiting for it; `None` at end of input.
    fn next(&self) -> Option<String> {
        self.lines.recv().ok()
    }

    /// Whether `quit` or `exit` was typed since the last look, without waiting; other lines
    /// are dropped (nobody is asked for a move).
    fn quit_typed(&self) -> bool {
        self.lines
            .try_iter()
            .any(|line| matches!(line.trim(), "quit" | "exit"))
    }
}

/// The board drawn by the game's own text renderer, without its `Key:` line (a hash for
/// debugging).
fn board(game: GameId, fen: &str, options: &OptionValues) -> String {
    struct Render<'a>(&'a str, &'a OptionValues);
    impl GameVisitor for Render<'_> {
        type Output = Option<String>;
        fn visit<G: Searchable>(self) -> Option<String> {
            G::from_fen(self.0, &G::settings(self.1))
                .ok()
                .map(|p| p.render())
        }
    }
    let text = game
        .visit(Render(fen, options))
        .unwrap_or_else(|| format!("Fen: {fen}"));
    text.lines()
        .filter(|line| !line.starts_with("Key: "))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The tokens of a board line after its row label: runs of letters, digits, `*` and `.`,
/// each with its column.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = line[at..].find(is_token_char).map(|s| s + at) {
        let len = line[start..]
            .find(|c: char| !is_token_char(c))
            .unwrap_or(line.len() - start);
        out.push((start, &line[start..start + len]));
        at = start + len;
    }
    out.into_iter().skip(1).collect()
}

/// Draws a rendered board for the terminal. With `color`, player one's pieces are red, player
/// two's blue, a special place (Tactigon's gold tiles) yellow, as the game's [`Ink`] says, and
/// every point or cell that differs from the board `before` (the last move: a tile placed, a
/// stack grown or moved, a piece moved or captured) is shown in reverse video.
fn draw(game: GameId, text: &str, before: Option<&str>, color: bool) -> String {
    const P1: &str = "\x1b[1;31m";
    const P2: &str = "\x1b[1;34m";
    const GOLD: &str = "\x1b[33m";
    const MARK: &str = "\x1b[7m";
    const RESET: &str = "\x1b[0m";
    if !color {
        return text.to_string();
    }
    let paint = |token: &str| -> Option<&'static str> {
        game.ink(token).map(|ink| match ink {
            Ink::PlayerOne => P1,
            Ink::PlayerTwo => P2,
            Ink::Special => GOLD,
        })
    };
    let before: Vec<&str> = before.map_or_else(Vec::new, |b| b.lines().collect());
    let mut out = String::new();
    for (row, line) in text.lines().enumerate() {
        if !game.is_board_row(line) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let old = before
            .get(row)
            .filter(|l| game.is_board_row(l))
            .map(|l| tokens(l));
        let mut written = 0;
        for (at, token) in tokens(line) {
            out.push_str(&line[written..at]);
            let changed = old.as_ref().is_some_and(|old| !old.contains(&(at, token)));
            if changed {
                out.push_str(MARK);
            }
            if let Some(colour) = paint(token) {
                out.push_str(colour);
            }
            out.push_str(token);
            if changed || paint(token).is_some() {
                out.push_str(RESET);
            }
            written = at + token.len();
        }
        out.push_str(&line[written..]);
        out.push('\n');
    }
    out
}

/// `text` broken at spaces into lines of at most [`COLUMNS`] characters (a word longer than
/// that stays whole).
fn wrap(text: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= COLUMNS => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
}

/// The moves of the game for one line of the terminal: the latest ones, numbered by ply,
/// with `…` for those left out.
fn recent_moves(moves: &[String]) -> String {
    let head = "Moves:";
    let mut kept: Vec<String> = Vec::new();
    let mut width = head.len();
    for (i, mv) in moves.iter().enumerate().rev() {
        let item = format!(" {}.{mv}", i + 1);
        // Room for the item and, if earlier moves are left out, for " …".
        let more = if i > 0 { 2 } else { 0 };
        if width + item.chars().count() + more > COLUMNS {
            kept.push(" …".to_string());
            break;
        }
        width += item.chars().count();
        kept.push(item);
    }
    kept.reverse();
    format!("{head}{}", kept.concat())
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '*' || c == '.'
}

/// Plays a game in the terminal: reads moves and commands from `input`, writes the board and
/// messages to `out`. When two engines play, typing `quit` ends the game after the move under
/// way. Returns the exit status ([`exit_status`]): 0 when the game ended or the player quit,
/// 1 when the engine could not start or failed, 2 when the rule options are refused.
pub fn run(args: &PlayArgs, input: Box<dyn BufRead + Send>, out: &mut dyn Write) -> i32 {
    match play(args, Typed::spawn(input), out) {
        Ok(()) => exit_status::SUCCESS,
        Err((status, message)) => {
            let _ = writeln!(out, "error: {message}");
            status
        }
    }
}

fn start_engine(args: &PlayArgs) -> Result<EngineProcess, String> {
    let mut engine =
        EngineProcess::start_for_game(args.engine.as_deref(), args.game, &args.options, TIMEOUT)?;
    if let Some(level) = &args.level {
        set_checked(&mut engine, "Level", level)?;
    }
    if let Some(elo) = args.elo {
        set_checked(&mut engine, "UCI_LimitStrength", "true")?;
        set_checked(&mut engine, "UCI_Elo", &elo.to_string())?;
    }
    let fail = |e: crate::client::EngineFailure| e.to_string();
    engine.new_game(TIMEOUT).map_err(fail)?;
    Ok(engine)
}

/// Sets option `name` to `value` once the engine's own option line accepts it: an engine
/// without the option, or a value outside it, is an error that says so.
fn set_checked(engine: &mut EngineProcess, name: &str, value: &str) -> Result<(), String> {
    let option = engine
        .option(name)
        .ok_or_else(|| format!("the engine has no option {name}"))?;
    let value = option.check(value)?;
    engine.set_option(name, &value).map_err(|e| e.to_string())
}

fn play(args: &PlayArgs, input: Typed, out: &mut dyn Write) -> Result<(), (i32, String)> {
    let rules = RuleSet::new(args.game, &args.options).map_err(|e| (exit_status::USAGE, e))?;
    let engine = start_engine(args).map_err(|e| (exit_status::FAILURE, e))?;
    let values = rules.values().clone();
    // Every rule option in force: those given and ludus's defaults of the others.
    let in_force = rule_options(args.game, &values);
    let mut s = Session {
        args,
        rules,
        engine,
        moves: Vec::new(),
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
    loop {
        let view = s.view().map_err(|e| (exit_status::FAILURE, e))?;
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
            let banner = format!("*** {ending} ({} moves) ***", s.moves.len());
            writeln!(out, "{}", wrap(&banner)).map_err(io)?;
            s.engine.quit();
            return Ok(());
        }
        let side = args.game.seats()[usize::from(!view.p1turn)];
        let seat = if view.p1turn { args.p1 } else { args.p2 };
        if seat == Seat::Engine {
            if watching && input.quit_typed() {
                writeln!(out, "bye").map_err(io)?;
                s.engine.quit();
                return Ok(());
            }
            let mv = s.think().map_err(|e| (exit_status::FAILURE, e))?;
            if !view.legal.contains(&mv) {
                return Err((
                    exit_status::FAILURE,
                    format!("the engine played {mv}, which is not legal"),
                ));
            }
            writeln!(out, "{side} (engine) plays {mv}").map_err(io)?;
            s.moves.push(mv);
            continue;
        }
        if view.legal == ["pass"] {
            writeln!(out, "{side} has no move but pass: passing.").map_err(io)?;
            s.moves.push("pass".into());
            continue;
        }
        loop {
            write!(out, "{side} to move> ").map_err(io)?;
            out.flush().map_err(io)?;
            let Some(line) = input.next() else {
                writeln!(out, "\nbye").map_err(io)?;
                s.engine.quit();
                return Ok(());
            };
            match line.trim() {
                "" => {}
                "quit" | "exit" => {
                    s.engine.quit();
                    return Ok(());
                }
                "help" | "?" => writeln!(out, "{}", help(args.game)).map_err(io)?,
                "moves" => writeln!(out, "{}", view.legal.join(" ")).map_err(io)?,
                "hint" => {
                    let mv = s.think().map_err(|e| (exit_status::FAILURE, e))?;
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
                    s.moves.push(text.to_string());
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
    fn colours_pieces_but_not_labels() {
        let red = |t: &str| format!("\x1b[1;31m{t}\x1b[0m");
        let blue = |t: &str| format!("\x1b[1;34m{t}\x1b[0m");
        let sight = " 3  .---w2--b---.\n    a   b   c\n";
        assert_eq!(
            draw(GameId::Sight, sight, None, true),
            format!(" 3  .---{}--{}---.\n    a   b   c\n", red("w2"), blue("b"))
        );
        assert_eq!(draw(GameId::Sight, sight, None, false), sight);
        let isaac = draw(GameId::Isaac, " r0  D7  L3   .   l9\n", None, true);
        assert_eq!(
            isaac,
            format!(" r0  {}  {}   .   l9\n", red("D7"), blue("L3"))
        );
        let tactigon = draw(GameId::Tactigon, "c  C  .  s  **  .\n", None, true);
        assert_eq!(
            tactigon,
            format!("c  {}  .  {}  \x1b[33m**\x1b[0m  .\n", red("C"), blue("s"))
        );
    }

    #[test]
    fn what_the_last_move_changed_is_marked() {
        let mark = |t: &str| format!("\x1b[7m{t}\x1b[0m");
        let red = |t: &str| format!("\x1b[1;31m{t}\x1b[0m");
        // A Tactigon circle steps from the second cell to the third: both are marked.
        let before = "c  C  .  s\nSide to move: Red (r)\n";
        let after = "c  .  C  s\nSide to move: Blue (b)\n";
        assert_eq!(
            draw(GameId::Tactigon, after, Some(before), true),
            format!(
                "c  {}  \x1b[7m\x1b[1;31mC\x1b[0m  \x1b[1;34ms\x1b[0m\nSide to move: Blue (b)\n",
                mark(".")
            )
        );
        // A Sight stack grows from w to w2: marked; the unchanged b is not.
        let grown = draw(GameId::Sight, " 3  w2--b\n", Some(" 3  w---b\n"), true);
        assert_eq!(
            grown,
            format!(" 3  \x1b[7m{}--\x1b[1;34mb\x1b[0m\n", red("w2"))
        );
    }

    #[test]
    fn long_messages_wrap_at_the_terminal_width() {
        let long = "word ".repeat(40);
        let wrapped = wrap(long.trim_end());
        assert_eq!(wrapped.lines().count(), 3, "{wrapped}");
        assert!(wrapped.lines().all(|l| l.chars().count() <= COLUMNS));
        assert_eq!(wrapped.lines().next().map(str::len), Some(79));
        assert_eq!(wrap("short one"), "short one");
    }

    #[test]
    fn recent_moves_fit_one_line_of_the_terminal() {
        let few: Vec<String> = ["c3", "b4-c4"].iter().map(|m| m.to_string()).collect();
        assert_eq!(recent_moves(&few), "Moves: 1.c3 2.b4-c4");
        let many: Vec<String> = (0..100)
            .map(|i| format!("e{}-e{}", i % 20, i % 7))
            .collect();
        let line = recent_moves(&many);
        assert!(line.chars().count() <= COLUMNS, "{line}");
        assert!(line.starts_with("Moves: … "), "{line}");
        assert!(line.ends_with(" 99.e18-e0 100.e19-e1"), "{line}");
        assert!(
            line.chars().count() > COLUMNS - 12,
            "the line is used: {line}"
        );
    }
}
