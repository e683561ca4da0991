//! `ludus play` with scripted input: complete games in every game (two people typing, with
//! bad input re-prompted), a person against the engine (undo, hint, moves), two engines.

use std::io::Write;
use std::process::{Command, Stdio};

use ludus::game::dynamic::RuleSet;
use ludus::game::{GameId, Outcome, Player};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

/// Runs `ludus play ARGS` with `input` on stdin; returns (status, stdout).
fn play(args: &[&str], input: &str) -> (i32, String) {
    let mut child = Command::new(LUDUS)
        .arg("play")
        .args(args)
        .args(["--color", "never"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A seeded random complete game: its moves and its outcome, by ludus's rules.
fn random_game(game: GameId, seed: u64) -> (Vec<String>, Outcome) {
    let rules = RuleSet::new(game, &[]).unwrap();
    let mut pos = rules.start();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    while pos.outcome().is_none() {
        let legal = pos.legal_moves();
        let m = legal[rng.random_range(0..legal.len())].clone();
        pos.play(&m).unwrap();
        moves.push(m);
    }
    (moves, pos.outcome().unwrap())
}

fn banner(game: GameId, outcome: Outcome) -> String {
    let (one, two) = match game {
        GameId::Sight => ("White", "Black"),
        GameId::Isaac => ("Dark", "Light"),
        GameId::Tactigon => ("Red", "Blue"),
    };
    let text = match outcome {
        Outcome::Win(Player::One) => format!("{one} (player one) wins"),
        Outcome::Win(Player::Two) => format!("{two} (player two) wins"),
        Outcome::Draw => "Draw".to_string(),
    };
    format!("*** {text}: ")
}

/// The end banner of `out` (wrapped lines joined): `*** WHO wins: WHY (N plies) ***`.
fn end_banner(out: &str) -> String {
    let from = out.rfind("*** ").unwrap_or(0);
    out[from..].trim_end().replace('\n', " ")
}

#[test]
fn two_people_play_complete_games_and_bad_input_is_reprompted() {
    for (game, bad, why) in [
        (GameId::Sight, "z9", "'z9' is not a move"),
        (GameId::Isaac, "9h99", "'9h99' is not a move"),
        (GameId::Tactigon, "a1-a2", "'a1-a2' is not a move"),
    ] {
        let (moves, outcome) = random_game(game, 5);
        // Bad input first, then a blank line, then every move; forced passes are applied by
        // the program itself, so they are not typed.
        let mut input = format!("{bad}\n\nhelp\n");
        for m in moves.iter().filter(|m| *m != "pass") {
            input.push_str(m);
            input.push('\n');
        }
        let (status, out) = play(
            &["--game", game.name(), "--p1", "human", "--p2", "human"],
            &input,
        );
        assert_eq!(status, 0, "{out}");
        assert!(out.contains(why), "{game:?}: {out}");
        assert!(out.contains("(type `moves` for the legal moves"), "{out}");
        // Who won and why, and after how many moves.
        let expected = banner(game, outcome);
        let end = end_banner(&out);
        assert!(
            end.starts_with(&expected) && end.ends_with(&format!(" ({} plies) ***", moves.len())),
            "{game:?}: {expected}\n{out}"
        );
        assert!(end.len() > expected.len() + 14, "a reason: {end}");
    }
}

#[test]
fn a_person_against_the_engine_with_undo_hint_and_moves() {
    let (status, out) = play(
        &["--game", "sight", "--movetime", "50"],
        "undo\nmoves\nc3\nc3\nhint\nundo\nquit\n",
    );
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("a1 b1 c1 d1 e1 a2"), "{out}");
    assert!(out.contains("Black (engine) plays "), "{out}");
    // The second c3 is refused: the point is taken.
    assert!(out.contains("c3: "), "{out}");
    assert!(out.contains("hint: "), "{out}");
    // After undo the board is empty again: the last board shows no stack.
    let last_board = out.rsplit("Fen: ").next().unwrap();
    assert!(last_board.starts_with("5:x5/x5/x5/x5/x5 w"), "{out}");
}

#[test]
fn two_engines_play_to_the_end() {
    let (status, out) = play(
        &[
            "--game",
            "sight",
            "--p1",
            "engine",
            "--p2",
            "engine",
            "--movetime",
            "20",
        ],
        "",
    );
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("White (engine) plays "), "{out}");
    let end = end_banner(&out);
    assert!(
        end.starts_with("*** White (player one) wins: Black has no legal move (")
            || end.starts_with("*** Black (player two) wins: White has no legal move ("),
        "{out}"
    );
}

#[test]
fn quit_ends_a_watched_game_between_moves() {
    // Tactigon at 50 ms a move lasts well over a hundred moves; `quit`, typed at once, ends
    // it before the next move.
    let (status, out) = play(
        &[
            "--game",
            "tactigon",
            "--p1",
            "engine",
            "--p2",
            "engine",
            "--movetime",
            "50",
        ],
        "quit\n",
    );
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains("type quit (and Enter) to stop watching"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("bye"), "{out}");
    let moves = out.matches(" (engine) plays ").count();
    assert!(moves <= 3, "{moves} moves before quitting: {out}");
    assert!(!out.contains("*** "), "no end banner: {out}");
}

#[test]
fn a_missing_engine_is_a_clear_error() {
    let (status, out) = play(&["--engine", "/no/such/engine"], "");
    assert_eq!(status, 1);
    assert!(out.contains("error: crash: could not start"), "{out}");
}

#[test]
fn a_rating_weakens_the_engine_and_a_bad_one_is_a_clear_error() {
    let (status, out) = play(
        &[
            "--game", "sight", "--p1", "engine", "--p2", "engine", "--elo", "400",
        ],
        "",
    );
    assert_eq!(status, 0, "{out}");
    assert!(end_banner(&out).starts_with("*** "), "{out}");
    // Refused values: a refused command line, status 2 (README, "Exit statuses").
    let (status, out) = play(&["--elo", "5"], "");
    assert_eq!(status, 2);
    assert!(out.contains("error: UCI_Elo runs from 392 to "), "{out}");
    let (status, out) = play(&["--level", "hard"], "");
    assert_eq!(status, 2);
    assert!(out.contains("error: Level is one of "), "{out}");
}
