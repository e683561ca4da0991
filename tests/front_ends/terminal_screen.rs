//! `ludus play` on a real 80×24 terminal (tmux): for every game the whole board, the recent
//! moves and the prompt fit the screen, no line is wider than 80 columns, the last move is
//! marked on the board (between brackets), an illegal move is explained, and the end of a game
//! says why it ended. The helpers here serve `terminal_items.rs` too.
//!
//! Needs tmux (`.ci/run` installs it). Without tmux the tests say so and pass, unless
//! `LUDUS_REQUIRE_TMUX=1` (set by CI) makes that a failure.

use std::process::Command;
use std::time::{Duration, Instant};

use ludus::game::GameId;
use ludus::game::dynamic::RuleSet;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

/// One tmux server of its own (so that nothing else's sessions are touched) with an 80×24
/// window running `ludus play`.
pub struct Screen {
    socket: String,
}

/// Whether tmux can be used; panics when it is required and missing.
pub fn tmux_available() -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("LUDUS_REQUIRE_TMUX").is_none(),
            "tmux is required (LUDUS_REQUIRE_TMUX) but not installed"
        );
        eprintln!("tmux is not installed: the 80x24 terminal tests are skipped");
    }
    found
}

impl Screen {
    pub fn start(name: &str, play_args: &[&str]) -> Screen {
        Screen::start_command(name, &format!("{LUDUS} play {}", play_args.join(" ")))
    }

    /// An 80×24 window running `command` (with `NO_COLOR` unset).
    pub fn start_command(name: &str, command: &str) -> Screen {
        let socket = format!("ludus-{name}-{}", std::process::id());
        let command = format!("env -u NO_COLOR {command}");
        let screen = Screen { socket };
        let status = screen
            .tmux(&[
                "new-session",
                "-d",
                "-s",
                "play",
                "-x",
                "80",
                "-y",
                "24",
                &command,
                ";",
                "set-option",
                "-t",
                "play",
                "remain-on-exit",
                "on",
            ])
            .status;
        assert!(status.success(), "tmux new-session failed");
        screen
    }

    fn tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// What the 24 lines of the window show now, without attributes.
    pub fn visible(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-t", "play"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The window's whole history with wrapped lines joined: a line wider than the terminal
    /// shows here as one long line.
    pub fn history(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-J", "-S", "-", "-t", "play"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The visible lines with their attributes (escape sequences).
    pub fn visible_with_attributes(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-e", "-t", "play"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `line` and Enter.
    pub fn type_line(&self, line: &str) {
        assert!(
            self.tmux(&["send-keys", "-t", "play", "-l", line])
                .status
                .success()
        );
        assert!(
            self.tmux(&["send-keys", "-t", "play", "Enter"])
                .status
                .success()
        );
    }

    /// Types `moves` one by one, each once the board after the one before is drawn (one
    /// `Moves:` line a move) and the prompt is back.
    pub fn type_moves<M: AsRef<str>>(&self, moves: &[M]) {
        for (i, m) in moves.iter().enumerate() {
            self.wait_for("a prompt", |s| {
                let boards = self
                    .history()
                    .lines()
                    .filter(|l| l.starts_with("Moves:"))
                    .count();
                last_line(s).ends_with("to move>") && boards == i
            });
            self.type_line(m.as_ref());
        }
    }

    /// Presses `keys`, tmux's names of keys (`Up`, `Left`, `BSpace`, `Enter`) or text.
    pub fn press(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success());
    }

    /// Waits until the visible screen satisfies `done`; panics with the screen after 20 s.
    pub fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.visible();
            if done(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// The non-blank lines of a screen, last first.
pub fn last_line(screen: &str) -> &str {
    screen
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
}

/// Every line of the history fits 80 columns.
pub fn assert_fits_80_columns(screen: &Screen) {
    let history = screen.history();
    for line in history.lines() {
        assert!(
            line.trim_end().chars().count() <= 80,
            "a line wider than 80 columns: '{line}'\n{history}"
        );
    }
}

/// Plays `first` (one move) and `illegal` (refused) in `game` between two people on 80×24,
/// and checks the screen: the first and last lines of the board on it with the moves line and
/// the prompt, the board's lines with what the move changed between brackets (`marked`, and no
/// other line with a bracket), the reason for the refusal.
fn check_game(
    game: &str,
    first: &str,
    board_top: &str,
    board_bottom: &str,
    marked: &[&str],
    illegal: &str,
    reason: &str,
) {
    let screen = Screen::start(game, &["--game", game, "--p1", "human", "--p2", "human"]);
    screen.wait_for("the first prompt", |s| last_line(s).ends_with("to move>"));
    screen.type_line(first);
    let moves = format!("Moves: 1. {first}");
    let shown = screen.wait_for("the board after the first move", |s| {
        s.contains(&moves) && last_line(s).ends_with("to move>")
    });
    let lines: Vec<&str> = shown.lines().collect();
    let top = lines.iter().position(|l| l.starts_with(board_top));
    let bottom = lines.iter().rposition(|l| l.starts_with(board_bottom));
    assert!(
        top.is_some() && bottom > top,
        "{game}: the whole board is on the screen:\n{shown}"
    );
    let bracketed: Vec<&str> = lines[top.unwrap_or(0)..=bottom.unwrap_or(0)]
        .iter()
        .copied()
        .filter(|l| l.contains('['))
        .collect();
    assert_eq!(
        bracketed, marked,
        "{game}: the last move is marked\n{shown}"
    );
    screen.type_line(illegal);
    let refused = screen.wait_for("the refusal", |s| s.contains(reason));
    assert!(
        refused.contains("(type `moves` for the legal moves, `help` for help)"),
        "{refused}"
    );
    assert_fits_80_columns(&screen);
    screen.type_line("quit");
}

#[test]
fn sight_fits_80_by_24_marks_the_move_and_explains_a_refusal() {
    if tmux_available() {
        check_game(
            "sight",
            "c3",
            " 5  ",
            "    a   b",
            &[" 3  .---.--[w]--.---."],
            "c3",
            "c3 is occupied",
        );
    }
}

#[test]
fn isaac_fits_80_by_24_marks_the_move_and_explains_a_refusal() {
    if tmux_available() {
        check_game(
            "isaac",
            "7h41",
            "     l9",
            "     c0",
            &[" r4   .  [D7---D7---D7---D7---D7---D7---D7]   .    .    l5"],
            "7h41",
            "the tile would cover an occupied cell",
        );
    }
}

#[test]
fn tactigon_fits_80_by_24_marks_the_move_and_explains_a_refusal() {
    if tmux_available() {
        check_game(
            "tactigon",
            "d0-c1",
            "   0  1  2",
            "   0  1  2",
            &[
                "c    [C]    S     T     .     .     .     .     t     s     .",
                "d [.]    T     P     S     C     .     c     s     p     t     c",
            ],
            "d10-d12",
            "no Blue piece on d10",
        );
    }
}

/// A seeded random 3×3 Sight game typed to its end: the screen says who won and why.
#[test]
fn the_end_of_a_game_says_why_on_80_by_24() {
    if !tmux_available() {
        return;
    }
    let options = [("Sight_BoardSize".to_string(), "3".to_string())];
    let rules = RuleSet::new(GameId::Sight, &options).expect("3x3 Sight");
    let mut pos = rules.start();
    let mut rng = SmallRng::seed_from_u64(3);
    let mut moves = Vec::new();
    while pos.outcome().is_none() {
        let legal = pos.legal_moves();
        let m = legal[rng.random_range(0..legal.len())].clone();
        pos.play(&m).expect("a legal move");
        moves.push(m);
    }
    let screen = Screen::start(
        "end",
        &[
            "--game",
            "sight",
            "--option",
            "Sight_BoardSize=3",
            "--p1",
            "human",
            "--p2",
            "human",
        ],
    );
    screen.type_moves(&moves);
    let ended = screen.wait_for("the end", |s| s.contains("***"));
    let loser = if moves.len() % 2 == 1 {
        "Black"
    } else {
        "White"
    };
    let banner = format!("has no legal move ({} plies) ***", moves.len());
    assert!(
        ended.contains(&format!("wins: {loser} {banner}")),
        "{ended}"
    );
    assert_fits_80_columns(&screen);
}
