//! Conformance with the strictest kind of consumer: a UGI match runner that reads only the
//! exact line shapes it expects and keeps no time margin.
//!
//! The runner here does what the cutegames runner (github.com/kz04px/cutegames, generic UGI
//! mode with `"askturn": true`, see gui-adapters/README.md) does, message for message, with
//! two ludus processes at default strength (`Level full`, default options):
//!
//! - handshake: `ugi` … `ugiok`, `setoption name UCI_Variant value GAME`, `isready` …
//!   `readyok`; then `isready` to both, `uginewgame` to both;
//! - before every move: `position startpos [moves …]` and `query p1turn` to engine one (whose
//!   turn it is: Isaac's placement phase lets one player move several times in a row), then
//!   `isready`, `position …` and `query gameover` to the engine to move, then
//!   `go p1time T1 p2time T2 p1inc I p2inc I` and its answer;
//! - at the end: `isready`, `position …`, `query gameover`, `query result` to both engines,
//!   which must agree.
//!
//! The real runner takes a line as `bestmove` only when it has exactly two words, and as a
//! query's answer only when it is exactly `response <word>`; any other line is skipped, so a
//! `bestmove <m> ponder <m>` makes it wait forever. Here every line is checked: during `go`
//! only `info …` lines and one two-word `bestmove <move>`; a query gets exactly one
//! `response <word>` with the word it allows; `isready` gets exactly `readyok`. Anything else
//! fails the test, naming the line.
//!
//! The clock is the runner's own wall clock from writing `go` to reading `bestmove`, charged
//! with **no margin**: a move that takes as long as the time left loses (the real runner also
//! flags at zero, and truncates to milliseconds, which only makes it more lenient). The games
//! run one at a time, each with two engines, as a runner with concurrency 1 would.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::common::process::Engine;

/// The clock of each side at the start (ms) …
const TIME_MS: u64 = 1000;
/// … and its increment per move (ms): the short control strict runners play.
const INC_MS: u64 = 10;
/// How long a reply that the runner does not time may take (handshake, `readyok`, queries).
const REPLY: Duration = Duration::from_secs(10);
/// How long past its flag an engine may stay silent before the test stops waiting (the real
/// runner would wait forever; the game is lost on time either way).
const STALL: Duration = Duration::from_secs(10);
/// A game longer than this many plies is a runaway (Tactigon's default ply cap is 300).
const MAX_PLIES: usize = 1000;

/// Games run one at a time, like a runner with concurrency 1 (the test harness would run the
/// three tests at once, three searching engines on a two-core machine).
static ONE_GAME_AT_A_TIME: Mutex<()> = Mutex::new(());

/// One engine as the runner sees it.
struct Seat {
    engine: Engine,
    label: &'static str,
}

impl Seat {
    /// Starts the engine and does the runner's handshake for `game`.
    fn start(game: &str, label: &'static str) -> Seat {
        let mut seat = Seat {
            engine: Engine::spawn(),
            label,
        };
        seat.engine.send("ugi");
        let mut names = Vec::new();
        loop {
            let line = seat.read("the handshake (ugiok)");
            if line == "ugiok" {
                break;
            }
            names.push(seat.check_handshake_line(&line));
        }
        assert!(
            names.iter().any(|n| n == "UCI_Variant"),
            "{label}: no UCI_Variant option"
        );
        seat.engine
            .send(&format!("setoption name UCI_Variant value {game}"));
        seat.isready();
        seat
    }

    /// The words of `line`, which must be separated by single spaces with none at its edges.
    fn words<'l>(&self, line: &'l str) -> Vec<&'l str> {
        let words: Vec<&str> = line.split(' ').collect();
        assert!(
            words.iter().all(|w| !w.is_empty()),
            "{}: empty word (double or edge space) in {line:?}",
            self.label
        );
        words
    }

    /// Checks one line between `ugi` and `ugiok`; returns the option's name (empty for `id`).
    fn check_handshake_line(&self, line: &str) -> String {
        let words = self.words(line);
        match words.as_slice() {
            ["id", "name" | "author", _, ..] => String::new(),
            ["option", "name", rest @ ..] => {
                let at = rest.iter().position(|w| *w == "type").unwrap_or_else(|| {
                    panic!("{}: option line without type: {line:?}", self.label)
                });
                assert!(at > 0, "{}: option without a name: {line:?}", self.label);
                let kind = rest.get(at + 1).copied().unwrap_or("");
                assert!(
                    ["check", "spin", "combo", "button", "string"].contains(&kind),
                    "{}: option of unknown type {kind:?}: {line:?}",
                    self.label
                );
                rest[..at].join(" ")
            }
            _ => panic!("{}: unexpected line in the handshake: {line:?}", self.label),
        }
    }

    /// Reads a line the runner waits for without timing it.
    fn read(&mut self, what: &str) -> String {
        let what = format!("{}: {what}", self.label);
        self.engine.read_line_within(REPLY, &what)
    }

    /// `isready`, answered by exactly `readyok` and nothing before it.
    fn isready(&mut self) {
        self.engine.send("isready");
        let line = self.read("readyok");
        assert_eq!(line, "readyok", "{}: answer to isready", self.label);
    }

    /// `query WHAT`, answered by exactly `response <word>` with a word in `allowed`.
    fn query(&mut self, what: &str, allowed: &[&str]) -> String {
        self.engine.send(&format!("query {what}"));
        let line = self.read(&format!("response to query {what}"));
        let words: Vec<&str> = line.split(' ').collect();
        match words.as_slice() {
            ["response", word] if allowed.contains(word) => word.to_string(),
            _ => panic!(
                "{}: query {what} must be answered by exactly `response <{}>`, got {line:?}",
                self.label,
                allowed.join("|")
            ),
        }
    }

    /// Sends the position the way the runner builds it.
    fn position(&mut self, moves: &[String]) {
        if moves.is_empty() {
            self.engine.send("position startpos");
        } else {
            self.engine
                .send(&format!("position startpos moves {}", moves.join(" ")));
        }
    }

    /// Sends `go` and reads up to the two-word `bestmove`; returns the move, the time from
    /// writing `go` to reading `bestmove`, and the last `info` line before it (for messages).
    /// Panics past `flag` + [`STALL`].
    fn go(&mut self, go: &str, flag: Duration) -> (String, Duration, String) {
        let start = Instant::now();
        self.engine.send(go);
        let mut last_info = String::new();
        loop {
            let waited = start.elapsed();
            let left = (flag + STALL).saturating_sub(waited);
            let line = self
                .engine
                .read_line_within(left, &format!("{}: bestmove after `{go}`", self.label));
            let elapsed = start.elapsed();
            let words = self.words(&line);
            match words.as_slice() {
                ["info", _, ..] => last_info = line,
                ["bestmove", mv] if !mv.is_empty() => return (mv.to_string(), elapsed, last_info),
                ["bestmove", ..] => panic!(
                    "{}: a strict runner reads only `bestmove <move>` (two words) and would \
                     wait forever after {line:?}",
                    self.label
                ),
                _ => panic!("{}: unexpected line during go: {line:?}", self.label),
            }
        }
    }
}

/// What one game showed.
struct Played {
    /// The plies played.
    plies: usize,
    /// The agreed result.
    result: String,
    /// The least time a side had left on its clock after a move (before the increment), ms.
    least_left_ms: u128,
    /// The longest answer, ms.
    longest_ms: u128,
}

/// Plays one complete game of `game` from the start between two fresh ludus processes.
fn play(game: &str) -> Played {
    let _one = ONE_GAME_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut seats = [Seat::start(game, "engine 1"), Seat::start(game, "engine 2")];
    for seat in seats.iter_mut() {
        seat.isready();
    }
    for seat in seats.iter_mut() {
        seat.engine.send("uginewgame");
    }
    let mut clocks = [Duration::from_millis(TIME_MS); 2];
    let inc = Duration::from_millis(INC_MS);
    let mut moves: Vec<String> = Vec::new();
    let mut least_left = Duration::from_millis(TIME_MS);
    let mut longest = Duration::ZERO;
    loop {
        assert!(moves.len() <= MAX_PLIES, "{game}: runaway game");
        seats[0].position(&moves);
        let p1 = seats[0].query("p1turn", &["true", "false"]) == "true";
        let us = if p1 { 0 } else { 1 };
        seats[us].isready();
        seats[us].position(&moves);
        if seats[us].query("gameover", &["true", "false"]) == "true" {
            break;
        }
        let go = format!(
            "go p1time {} p2time {} p1inc {INC_MS} p2inc {INC_MS}",
            clocks[0].as_millis(),
            clocks[1].as_millis()
        );
        let (mv, took, info) = seats[us].go(&go, clocks[us]);
        assert!(
            took < clocks[us],
            "{game}: {} lost on time at ply {}: answered {mv} after {took:?} with {:?} on \
             its clock (`{go}`; its last info: `{info}`)",
            seats[us].label,
            moves.len() + 1,
            clocks[us]
        );
        clocks[us] -= took;
        least_left = least_left.min(clocks[us]);
        longest = longest.max(took);
        clocks[us] += inc;
        moves.push(mv);
    }
    let mut results = Vec::new();
    for seat in seats.iter_mut() {
        seat.isready();
        seat.position(&moves);
        let over = seat.query("gameover", &["true", "false"]);
        assert_eq!(
            over, "true",
            "{game}: {} disagrees: game not over",
            seat.label
        );
        results.push(seat.query("result", &["p1win", "p2win", "draw", "none"]));
    }
    assert_eq!(results[0], results[1], "{game}: the engines disagree");
    assert_ne!(results[0], "none", "{game}: a finished game has a result");
    for seat in seats.iter_mut() {
        seat.engine.send("quit");
        let status = seat.engine.wait_exit(REPLY);
        assert_eq!(status.code(), Some(0), "{game}: {} exit status", seat.label);
    }
    let played = Played {
        plies: moves.len(),
        result: results.remove(0),
        least_left_ms: least_left.as_millis(),
        longest_ms: longest.as_millis(),
    };
    eprintln!(
        "{game}: {} plies, {}, least time left after a move {} ms, longest answer {} ms",
        played.plies, played.result, played.least_left_ms, played.longest_ms
    );
    played
}

#[test]
fn a_strict_runner_plays_a_complete_sight_game() {
    let played = play("sight");
    // Every ply fills one of the 25 points.
    assert!((1..=25).contains(&played.plies), "{} plies", played.plies);
}

#[test]
fn a_strict_runner_plays_a_complete_isaac_game() {
    let played = play("isaac");
    // The placement phase alone ends with two passes after the tiles are placed.
    assert!(played.plies >= 20, "{} plies", played.plies);
}

#[test]
fn a_strict_runner_plays_a_complete_tactigon_game() {
    let played = play("tactigon");
    // The default ply cap ends every game by ply 300.
    assert!((1..=300).contains(&played.plies), "{} plies", played.plies);
}
