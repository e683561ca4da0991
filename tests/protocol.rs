//! The protocol loop of the `ludus` binary, driven through pipes: handshake, searches that run
//! while the engine keeps answering, `stop`, errors, reproducibility, end of input, the debug
//! log, `--strict`, and a long stream of seeded garbage.

mod process;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use process::{Engine, bestmove_of, mask_timing};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The `option` line that advertises the game option.
const VARIANT_LINE: &str = "option name UCI_Variant type combo default sight var sight";

/// The answer to `go` without a position.
const NO_POSITION_GO: &str = "info string error no-position go needs a position: send position \
                              startpos or position fen <pos>";

/// Whether a line is a `bestmove` line.
fn is_bestmove(line: &str) -> bool {
    bestmove_of(line).is_some()
}

/// Sends `query legalmoves` and returns the moves of the `response` line.
fn legal_moves(engine: &mut Engine) -> Vec<String> {
    engine.send("query legalmoves");
    let line = engine.read_line();
    let moves = line
        .strip_prefix("response ")
        .unwrap_or_else(|| panic!("expected a response line, got '{line}'"));
    moves.split(' ').map(str::to_string).collect()
}

#[test]
fn handshake_lists_options_and_ends_with_ok() {
    let mut engine = Engine::spawn();
    engine.send("ugi");
    let ugi = engine.read_until(|l| l == "ugiok");
    assert!(
        ugi[0].starts_with("id name ludus "),
        "first line of ugi: {:?}",
        ugi[0]
    );
    assert_eq!(ugi[1], "id author the ludus developers");
    assert!(
        ugi.iter().any(|l| l == VARIANT_LINE),
        "ugi does not list '{VARIANT_LINE}': {ugi:#?}"
    );
    let options = &ugi[2..ugi.len() - 1];
    assert!(!options.is_empty());
    for line in options {
        assert!(
            line.starts_with("option name "),
            "not an option line: {line:?}"
        );
    }

    engine.send("uci");
    let uci = engine.read_until(|l| l == "uciok");
    assert_eq!(uci.last().map(String::as_str), Some("uciok"));
    // uci is the same as ugi but for the last line.
    assert_eq!(uci[..uci.len() - 1], ugi[..ugi.len() - 1]);
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn isready_is_answered_during_go_infinite_and_stop_gives_one_legal_bestmove() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    let legal = legal_moves(&mut engine);
    assert_eq!(legal.len(), 25, "start position moves: {legal:?}");

    engine.send("go infinite");
    let mut during = Vec::new();
    for round in 0..20 {
        std::thread::sleep(Duration::from_millis(15));
        let lines = engine.sync();
        assert!(
            !lines.iter().any(|l| is_bestmove(l)),
            "bestmove before stop (isready round {round}): {lines:#?}"
        );
        for line in &lines[..lines.len() - 1] {
            assert!(line.starts_with("info depth "), "unexpected line {line:?}");
        }
        during.extend(lines);
    }

    engine.send("stop");
    let after = engine.read_until_within(Duration::from_secs(5), "bestmove after stop", |l| {
        is_bestmove(l)
    });
    // `isready` is answered at once, also before a pending bestmove, so it cannot tell when
    // the bestmove is due; give a stray second bestmove time to show, then require that the
    // very next line after isready is readyok.
    std::thread::sleep(Duration::from_millis(200));
    engine.assert_ready();

    let bestmoves: Vec<&String> = during
        .iter()
        .chain(&after)
        .filter(|l| is_bestmove(l))
        .collect();
    assert_eq!(bestmoves.len(), 1, "bestmove lines: {bestmoves:?}");
    let best = bestmove_of(bestmoves[0]).expect("a bestmove line");
    assert!(
        legal.iter().any(|m| m == best),
        "bestmove {best} is not among the legal moves {legal:?}"
    );
    // The position is untouched by the search.
    assert_eq!(legal_moves(&mut engine), legal);
    engine.quit(Duration::from_secs(10));
}

#[test]
fn stop_without_a_search_prints_nothing() {
    let mut engine = Engine::spawn();
    engine.send("stop");
    engine.assert_ready();
    engine.send("position startpos");
    engine.send("stop");
    engine.send("stop");
    engine.assert_ready();
    // After a finished search, too.
    engine.send("go depth 1");
    let lines = engine.read_until(is_bestmove);
    assert_eq!(lines.len(), 2, "go depth 1: {lines:#?}");
    engine.send("stop");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn second_go_infinite_stops_the_first_two_bestmoves_in_all() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.send("go infinite");
    // The second go stops the first: its bestmove comes without any stop.
    let first = engine.read_until(is_bestmove);
    assert_eq!(first.iter().filter(|l| is_bestmove(l)).count(), 1);
    // The second search runs on: no bestmove until stop.
    std::thread::sleep(Duration::from_millis(50));
    let lines = engine.sync();
    assert!(
        !lines.iter().any(|l| is_bestmove(l)),
        "second go infinite ended without stop: {lines:#?}"
    );
    engine.send("stop");
    let second = engine.read_until_within(Duration::from_secs(5), "the second bestmove", |l| {
        is_bestmove(l)
    });
    std::thread::sleep(Duration::from_millis(200));
    engine.assert_ready();
    let total = first
        .iter()
        .chain(&lines)
        .chain(&second)
        .filter(|l| is_bestmove(l))
        .count();
    assert_eq!(total, 2);
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_on_a_finished_game_answers_bestmove_none_only() {
    let mut engine = Engine::spawn();
    engine.send("position startpos moves a1 a2 b1 b2");
    engine.send("query gameover");
    engine.expect_line("response true");
    engine.send("go depth 3");
    engine.expect_line("bestmove (none)");
    engine.assert_ready();
    // `go infinite` too answers at once, and there is nothing left for stop to end.
    engine.send("go infinite");
    engine.expect_line("bestmove (none)");
    engine.send("stop");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn illegal_move_in_position_leaves_no_position() {
    let mut engine = Engine::spawn();
    engine.send("position startpos moves c3 c3");
    engine.expect_line("info string error illegal-move move 2 c3: not a legal move here");
    engine.send("go depth 3");
    let error = engine.read_line();
    assert!(
        error.starts_with("info string error no-position "),
        "after a failed position: {error:?}"
    );
    assert_eq!(error, NO_POSITION_GO);
    engine.expect_line("bestmove (none)");
    engine.assert_ready();
    // A good position brings the engine back.
    engine.send("position startpos");
    engine.send("go depth 1");
    let lines = engine.read_until(is_bestmove);
    assert_ne!(lines.last().map(String::as_str), Some("bestmove (none)"));
    engine.quit(Duration::from_secs(10));
}

/// Starts a new game at the start position and returns the output of `go nodes 20000`, up to
/// and including `bestmove`, with the `nps` and `time` values masked.
fn reproducible_search(engine: &mut Engine) -> Vec<String> {
    engine.send("uginewgame");
    engine.send("position startpos");
    engine.send("go nodes 20000");
    let lines = engine.read_until_within(Duration::from_secs(30), "bestmove", is_bestmove);
    lines.iter().map(|l| mask_timing(l)).collect()
}

#[test]
fn go_nodes_is_reproducible_in_one_process_and_across_processes() {
    let mut first = Engine::spawn();
    let a = reproducible_search(&mut first);
    let b = reproducible_search(&mut first);
    first.quit(Duration::from_secs(10));
    let mut second = Engine::spawn();
    let c = reproducible_search(&mut second);
    second.quit(Duration::from_secs(10));

    assert!(a.len() >= 2, "expected info lines and a bestmove: {a:#?}");
    for line in &a[..a.len() - 1] {
        assert!(line.starts_with("info depth "), "unexpected line {line:?}");
        assert!(
            line.contains(" nps * time * "),
            "timing not masked: {line:?}"
        );
    }
    assert_eq!(a, b, "two searches in one process differ");
    assert_eq!(a, c, "searches in two processes differ");
}

/// Command words, option names and values for the garbage stream. `quit` is left out (it
/// would end the test early), and so are the words of `Debug Log File` (it would write files).
const WORDS: &[&str] = &[
    "ugi",
    "uci",
    "isready",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "move",
    "go",
    "perft",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "p1time",
    "p2time",
    "wtime",
    "btime",
    "p1inc",
    "p2inc",
    "winc",
    "binc",
    "movestogo",
    "searchmoves",
    "ponder",
    "mate",
    "stop",
    "query",
    "gameover",
    "p1turn",
    "result",
    "game",
    "legalmoves",
    "d",
    "eval",
    "bench",
    "help",
    "uginewgame",
    "ucinewgame",
    "ponderhit",
    "Hash",
    "MultiPV",
    "Level",
    "Seed",
    "Threads",
    "Move",
    "Overhead",
    "Clear",
    "UCI_Variant",
    "Sight_BoardSize",
    "Sight_StrictTallest",
    "random",
    "greedy",
    "full",
    "sight",
    "true",
    "false",
    "<empty>",
    "GO",
    "Isready",
];

/// Commands that start a line of the garbage stream more often than chance would.
const COMMANDS: &[&str] = &[
    "ugi",
    "uci",
    "isready",
    "setoption",
    "position",
    "move",
    "go",
    "perft",
    "stop",
    "query",
    "d",
    "eval",
    "bench",
    "help",
    "uginewgame",
    "ponderhit",
];

/// Options the garbage stream sets (never `Debug Log File`; `Hash` only up to 64 MiB).
const OPTIONS: &[&str] = &[
    "Hash",
    "MultiPV",
    "Level",
    "Seed",
    "Threads",
    "Move Overhead",
    "Clear Hash",
    "UCI_Variant",
    "Sight_BoardSize",
    "Sight_StrictTallest",
    "hash",
    "sight_boardsize",
    "Nope",
];

/// Well-formed positions (rules §9) mixed into the stream.
const SPNS: &[&str] = &[
    "5:x5/x5/x5/x5/x5 w",
    "5:x5/x2,b,x2/x2,w,x2/x5/x5 w",
    "5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w",
    "5:x,w2,x2,b3/x,w2,x3/x,w3,w,x2/x2,b,b,x/x,b3,x3 b",
    "5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w",
    "5:w,b,w,b,w/b,x3,b/w,x3,w/b,x3,b/w,b,w,b,w w",
    "3:w,b,w/b,w,b/w,b,w b",
    "3:x3/x3/x3 w",
    "7:x7/x7/x7/x7/x7/x7/x7 w",
    "9:x9/x9/x9/x9/x9/x9/x9/x9/x9 b",
];

/// Awkward numbers: huge, negative, zero, limits, not quite numbers.
const NUMBERS: &[&str] = &[
    "99999999999999999999999",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "1e3",
    "0x10",
    "+5",
    "3.5",
    "-0",
    "00010",
    "",
];

/// Picks one element of a non-empty slice.
fn pick<'a>(rng: &mut SmallRng, items: &[&'a str]) -> &'a str {
    items[rng.random_range(0..items.len())]
}

/// A random number as text: one of [`NUMBERS`] or a random small or large value.
fn random_number(rng: &mut SmallRng) -> String {
    match rng.random_range(0..4) {
        0 => pick(rng, NUMBERS).to_string(),
        1 => rng.random_range(0..100u32).to_string(),
        2 => rng.random_range(-1_000_000i64..1_000_000).to_string(),
        _ => rng.random_range(0..u64::MAX).to_string(),
    }
}

/// A random square-like or move-like token: `a1`, `c3-c4`, `z99`, a long form, fragments.
fn random_move(rng: &mut SmallRng) -> String {
    let square = |rng: &mut SmallRng| {
        let file = char::from(b'a' + rng.random_range(0..26u8));
        let rank = if rng.random_range(0..4) == 0 {
            rng.random_range(0..100u32)
        } else {
            rng.random_range(1..6u32)
        };
        format!("{file}{rank}")
    };
    match rng.random_range(0..8) {
        0..=2 => square(rng),
        3 | 4 => format!("{}-{}", square(rng), square(rng)),
        5 => format!(
            "{}-{}+{}+{}",
            square(rng),
            square(rng),
            square(rng),
            square(rng)
        ),
        6 => pick(
            rng,
            &["a1", "c3", "e5", "b4-c4", "a1-a1", "-", "a", "a1-", "z99"],
        )
        .to_string(),
        _ => format!(
            "{}{}",
            square(rng),
            pick(rng, &["+", "-", "--", "++", "x", "#"])
        ),
    }
}

/// A random SPN-like text: a well-formed position, or ranks of random tokens.
fn random_spn(rng: &mut SmallRng) -> String {
    if rng.random_range(0..3) == 0 {
        return pick(rng, SPNS).to_string();
    }
    let size = rng.random_range(0..12u32);
    let ranks: Vec<String> = (0..rng.random_range(0..11))
        .map(|_| {
            let tokens: Vec<String> = (0..rng.random_range(0..7))
                .map(|_| {
                    let base = pick(rng, &["x", "w", "b", "x", "w", "b", "y", ""]);
                    if rng.random_range(0..2) == 0 {
                        base.to_string()
                    } else {
                        format!("{base}{}", rng.random_range(0..15u32))
                    }
                })
                .collect();
            tokens.join(pick(rng, &[",", ",", ",", "", ";"]))
        })
        .collect();
    let side = pick(rng, &["w", "b", "", "x", "w b", "w w1,b1"]);
    format!(
        "{size}{}{} {side}",
        pick(rng, &[":", ":", ""]),
        ranks.join("/")
    )
}

/// A random token of any kind.
fn random_token(rng: &mut SmallRng) -> String {
    match rng.random_range(0..10) {
        0..=3 => pick(rng, WORDS).to_string(),
        4 | 5 => random_number(rng),
        6 | 7 => random_move(rng),
        8 => random_spn(rng),
        _ => pick(rng, OPTIONS).to_string(),
    }
}

/// A random `go` command with random arguments.
fn random_go(rng: &mut SmallRng) -> String {
    let mut line = String::from("go");
    for _ in 0..rng.random_range(0..4) {
        let keyword = pick(
            rng,
            &[
                "depth",
                "nodes",
                "movetime",
                "infinite",
                "p1time",
                "p2time",
                "wtime",
                "btime",
                "p1inc",
                "binc",
                "movestogo",
                "searchmoves",
                "perft",
                "ponder",
            ],
        );
        line.push(' ');
        line.push_str(keyword);
        if keyword == "searchmoves" {
            for _ in 0..rng.random_range(0..4) {
                line.push(' ');
                line.push_str(&random_move(rng));
            }
        } else if keyword != "infinite" {
            line.push(' ');
            let small = rng.random_range(1..30u32).to_string();
            let value = if rng.random_range(0..2) == 0 {
                small
            } else {
                random_number(rng)
            };
            line.push_str(&value);
        }
    }
    line
}

/// A random `setoption` command (the sanitiser removes dangerous ones).
fn random_setoption(rng: &mut SmallRng) -> String {
    let name = pick(rng, OPTIONS);
    let value = match rng.random_range(0..6) {
        0 => rng.random_range(1..=64u32).to_string(),
        1 => random_number(rng),
        2 => pick(
            rng,
            &[
                "random", "greedy", "full", "true", "false", "sight", "3", "9",
            ],
        )
        .to_string(),
        3 => random_token(rng),
        4 => return format!("setoption name {name}"),
        _ => pick(rng, &["2", "3", "5", "7", "1", "0"]).to_string(),
    };
    format!("setoption name {name} value {value}")
}

/// Random bytes, including NUL, 0xFF, `\r`, `\n` and invalid UTF-8 sequences.
fn random_bytes(rng: &mut SmallRng) -> Vec<u8> {
    let len = rng.random_range(0..200);
    (0..len)
        .map(|_| match rng.random_range(0..8) {
            0 => 0x00,
            1 => 0xff,
            2 => pick_byte(rng, &[b'\r', b'\n', b'\t', b' ', 0xc3, 0x80, 0xe2, 0xf0]),
            3 | 4 => rng.random_range(b' '..=b'~'),
            _ => rng.random_range(0..=255u8),
        })
        .collect()
}

/// Picks one byte of a non-empty slice.
fn pick_byte(rng: &mut SmallRng, items: &[u8]) -> u8 {
    items[rng.random_range(0..items.len())]
}

/// A line of random tokens about `target` bytes long.
fn long_line(rng: &mut SmallRng, target: usize) -> Vec<u8> {
    let mut line = String::from(pick(rng, COMMANDS));
    while line.len() < target {
        line.push(' ');
        line.push_str(&random_token(rng));
    }
    line.into_bytes()
}

/// One item of the garbage stream (it may hold `\n` bytes of its own), without the final
/// newline.
fn random_item(rng: &mut SmallRng) -> Vec<u8> {
    let text = match rng.random_range(0..20) {
        0..=4 => {
            // Word salad, usually starting with a command.
            let mut tokens = Vec::new();
            if rng.random_range(0..4) != 0 {
                tokens.push(pick(rng, COMMANDS).to_string());
            }
            for _ in 0..rng.random_range(0..12) {
                tokens.push(random_token(rng));
            }
            let separator = pick(rng, &[" ", " ", " ", "\t", "  ", " \t "]);
            tokens.join(separator)
        }
        5 | 6 => random_go(rng),
        7 | 8 => random_setoption(rng),
        9 => {
            let moves: Vec<String> = (0..rng.random_range(0..10))
                .map(|_| random_move(rng))
                .collect();
            format!("position startpos moves {}", moves.join(" "))
        }
        10 | 11 => {
            let moves: Vec<String> = (0..rng.random_range(0..4))
                .map(|_| random_move(rng))
                .collect();
            let moves = if moves.is_empty() {
                String::new()
            } else {
                format!(" moves {}", moves.join(" "))
            };
            format!("position fen {}{moves}", random_spn(rng))
        }
        12 => format!("move {}", random_move(rng)),
        13 => format!("perft {}", random_number(rng)),
        14 => format!("query {}", random_token(rng)),
        15 => pick(
            rng,
            &[
                "",
                " ",
                "\t",
                "\r",
                "isready",
                "stop",
                "d",
                "eval",
                "uginewgame",
                "query legalmoves",
                "go infinite",
                "ugi",
            ],
        )
        .to_string(),
        _ => return random_bytes(rng),
    };
    text.into_bytes()
}

/// Whether one input line could end the test early or reach outside it: `quit`, a `Hash`
/// over 64 MiB, or the debug log file. Mirrors the engine's own line splitting.
fn is_forbidden(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    match tokens.first() {
        Some(&"quit") => true,
        Some(&"setoption") => {
            let rest = &tokens[1.min(tokens.len())..];
            let rest = rest.strip_prefix(&["name"]).unwrap_or(rest);
            let value_at = rest.iter().position(|t| *t == "value");
            let (name, value) = match value_at {
                Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            };
            let name = name.to_ascii_lowercase();
            let too_much_hash = name == "hash" && value.parse::<i64>().is_ok_and(|v| v > 64);
            too_much_hash || name.contains("debug") || name.contains("log")
        }
        _ => false,
    }
}

/// The garbage stream: `count` seeded lines, a few of them about 100 KB long and one of
/// 2 MiB; returns the bytes and the length of the 2 MiB line.
fn garbage(seed: u64, count: usize) -> (Vec<u8>, usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let huge_at = rng.random_range(0..count);
    let mut huge_len = 0;
    let mut stream = Vec::new();
    for i in 0..count {
        let item = if i == huge_at {
            let line = long_line(&mut rng, 2 << 20);
            huge_len = line.len();
            line
        } else if rng.random_range(0..1500) == 0 {
            long_line(&mut rng, 100_000)
        } else {
            random_item(&mut rng)
        };
        if item.split(|&b| b == b'\n').any(is_forbidden) {
            stream.extend_from_slice(b"help\n");
            continue;
        }
        stream.extend_from_slice(&item);
        stream.push(b'\n');
    }
    (stream, huge_len)
}

#[test]
fn garbage_generator_is_seeded_and_safe() {
    assert_eq!(garbage(7, 500), garbage(7, 500));
    assert!(is_forbidden(b"quit"));
    assert!(is_forbidden(b"  quit now"));
    assert!(is_forbidden(b"setoption name HASH value 65"));
    assert!(is_forbidden(b"setoption name Debug Log File value x"));
    assert!(!is_forbidden(b"setoption name Hash value 64"));
    assert!(!is_forbidden(
        b"setoption name Hash value 99999999999999999999999"
    ));
    let (stream, _) = garbage(11, 3000);
    assert!(!stream.split(|&b| b == b'\n').any(is_forbidden));
}

#[test]
fn ten_thousand_garbage_lines_leave_the_engine_responsive() {
    let started = Instant::now();
    // LUDUS_GARBAGE_SEED=<n> replays another stream (to hunt for bugs with other seeds).
    let seed = std::env::var("LUDUS_GARBAGE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x1d05);
    let (stream, huge_len) = garbage(seed, 10_000);
    assert!(huge_len >= 2 << 20, "the long line has {huge_len} bytes");
    let too_long =
        format!("info string error bad-argument line of {huge_len} bytes ignored: too long");

    let mut engine = Engine::spawn();
    let mut stdin = engine.take_stdin();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let result = stdin.write_all(&stream).and_then(|_| stdin.flush());
        (stdin, result)
    });
    // Drain stdout while the writer runs (the reader thread of `Engine` drains the pipe; this
    // keeps the channel short and looks for the over-long line's error).
    let mut seen_too_long = false;
    let mut lines_read = 0usize;
    while !writer.is_finished() {
        if started.elapsed() > Duration::from_secs(50) {
            panic!(
                "writing the garbage (seed {seed}) took over 50 s{}",
                engine.context()
            );
        }
        match engine.try_read_line(Duration::from_millis(50)) {
            Ok(line) => {
                lines_read += 1;
                seen_too_long |= line == too_long;
            }
            Err(process::ReadError::Timeout) => {}
            Err(process::ReadError::Closed) => {
                panic!("ludus closed its output mid-stream{}", engine.context())
            }
        }
    }
    let (stdin, result) = writer.join().expect("the writer thread panicked");
    result.unwrap_or_else(|e| panic!("writing the garbage failed: {e}{}", engine.context()));
    engine.restore_stdin(stdin);

    // The garbage holds `isready` lines of its own, so first send a command whose answer it
    // cannot contain, then isready: that readyok is ours.
    let marker = "ludus-garbage-end-3f9c1a";
    let marker_error = format!("info string error unknown-command '{marker}' (try help)");
    engine.send(marker);
    engine.send("isready");
    let rest = engine.read_until_within(Duration::from_secs(30), "the end marker", |l| {
        l == marker_error
    });
    lines_read += rest.len();
    seen_too_long |= rest.contains(&too_long);
    let tail = engine.read_until_within(Duration::from_secs(30), "readyok", |l| l == "readyok");
    lines_read += tail.len();
    assert!(
        seen_too_long,
        "no '{too_long}' among {lines_read} lines of output"
    );
    engine.quit(Duration::from_secs(10));
    let elapsed = started.elapsed();
    eprintln!("garbage (seed {seed}): {lines_read} output lines in {elapsed:?}");
    // A worker that panicked is papered over by the loop ("answering for it") but must not
    // happen.
    let stderr = engine.stderr();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("did not finish"),
        "ludus logged a failure on stderr (garbage seed {seed}):\n{stderr}"
    );
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
}

#[test]
fn end_of_input_during_a_search_prints_one_bestmove_and_exits_zero() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    engine.send("go infinite");
    let first = engine.read_line();
    assert!(first.starts_with("info depth 1 "), "first line: {first:?}");
    let closed = Instant::now();
    engine.close_stdin();
    let rest = engine.read_to_end_within(Duration::from_secs(5));
    let status = engine.wait_exit(Duration::from_secs(5).saturating_sub(closed.elapsed()));
    assert_eq!(status.code(), Some(0), "{}", engine.context());
    let bestmoves: Vec<&String> = rest.iter().filter(|l| is_bestmove(l)).collect();
    assert_eq!(bestmoves.len(), 1, "output after end of input: {rest:#?}");
    assert_eq!(
        rest.last(),
        Some(bestmoves[0]),
        "bestmove is not the last line"
    );
    assert!(closed.elapsed() < Duration::from_secs(5));
}

/// A path in the temporary directory that no other test or run uses.
fn unique_temp_path(stem: &str) -> std::path::PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    std::env::temp_dir().join(format!("{stem}-{}-{nanos}.log", std::process::id()))
}

#[test]
fn debug_log_file_copies_input_and_output() {
    let path = unique_temp_path("ludus-debug-log");
    let path_text = path.to_str().expect("temp path is UTF-8");
    let mut engine = Engine::spawn();
    engine.send(&format!("setoption name Debug Log File value {path_text}"));
    engine.assert_ready();
    let log = std::fs::read_to_string(&path);
    // Stop logging before looking, then clean up whatever happened.
    engine.send("setoption name Debug Log File value <empty>");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
    let after_stop = std::fs::read_to_string(&path);
    let _ = std::fs::remove_file(&path);

    let log = log.unwrap_or_else(|e| panic!("cannot read the debug log {path_text}: {e}"));
    let lines: Vec<&str> = log.lines().collect();
    assert!(lines.contains(&">> isready"), "debug log: {log:?}");
    assert!(lines.contains(&"<< readyok"), "debug log: {log:?}");
    let after_stop = after_stop.expect("the debug log is still there");
    assert!(
        !after_stop.contains("quit"),
        "logging went on after <empty>: {after_stop:?}"
    );
}

#[test]
fn strict_mode_exits_with_status_one_on_the_first_error() {
    let mut engine = Engine::spawn_with_args(&["--strict"]);
    engine.send("fly");
    // stdin stays open: the engine must quit by itself.
    let status = engine.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(1), "{}", engine.context());
    let output = engine.read_to_end_within(Duration::from_secs(5));
    assert_eq!(
        output,
        ["info string error unknown-command 'fly' (try help)"]
    );
}

#[test]
fn strict_mode_without_errors_exits_zero() {
    let mut engine = Engine::spawn_with_args(&["--strict"]);
    engine.assert_ready();
    engine.close_stdin();
    let status = engine.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(0), "{}", engine.context());
}

#[test]
fn perft_is_stoppable() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    engine.send("perft 30");
    std::thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    engine.send("stop");
    let line = engine.read_line_within(Duration::from_secs(5), "perft stopped");
    assert!(sent.elapsed() < Duration::from_secs(5));
    let nodes = line
        .strip_prefix("info string perft stopped after ")
        .and_then(|rest| rest.strip_suffix(" nodes"))
        .unwrap_or_else(|| panic!("expected 'info string perft stopped after N nodes': {line:?}"));
    assert!(nodes.parse::<u64>().is_ok(), "node count {nodes:?}");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn bad_option_values_are_reported_and_the_engine_goes_on() {
    let mut engine = Engine::spawn();
    let cases = [
        (
            "setoption name Hash value 0",
            "info string error bad-option-value Hash takes a whole number from 1 to 16384, not '0'",
        ),
        (
            "setoption name Hash value 99999999999999999999999",
            "info string error bad-option-value Hash takes a whole number from 1 to 16384, not \
             '99999999999999999999999'",
        ),
        (
            "setoption name Sight_BoardSize value 10",
            "info string error bad-option-value Sight_BoardSize takes a whole number from 2 to 9, \
             not '10'",
        ),
        (
            "setoption name Sight_StrictTallest value maybe",
            "info string error bad-option-value Sight_StrictTallest takes true or false, not \
             'maybe'",
        ),
        (
            "setoption name UCI_Variant value chess",
            "info string error bad-option-value UCI_Variant takes one of sight, not 'chess'",
        ),
    ];
    for (input, expected) in cases {
        engine.send(input);
        engine.expect_line(expected);
    }
    engine.assert_ready();
    // Nothing changed: still the 5×5 start position.
    engine.send("query fen");
    engine.expect_line("response 5:x5/x5/x5/x5/x5 w");
    engine.quit(Duration::from_secs(10));
}

/// TV11's final position (rules §9): White to move mates at once with d4-e4.
const MATE_IN_ONE: &str = "position fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w";

/// The only `info` line of a search of [`MATE_IN_ONE`], with its timing masked.
const MATE_IN_ONE_INFO: &str =
    "info depth 1 seldepth 2 score mate 1 nodes 7 nps * time * hashfull 0 pv d4-e4";

#[test]
fn go_without_limits_answers_at_once_when_the_result_is_proven() {
    let mut engine = Engine::spawn();
    engine.send(MATE_IN_ONE);
    engine.send("go");
    let lines = engine.read_until_within(Duration::from_secs(5), "bestmove", is_bestmove);
    let masked: Vec<String> = lines.iter().map(|l| mask_timing(l)).collect();
    assert_eq!(masked, [MATE_IN_ONE_INFO, "bestmove d4-e4"]);
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_infinite_holds_a_proven_bestmove_until_stop() {
    let mut engine = Engine::spawn();
    engine.send(MATE_IN_ONE);
    engine.send("go infinite");
    let info = engine.read_line();
    assert_eq!(mask_timing(&info), MATE_IN_ONE_INFO);
    // The search is over, but the bestmove waits for stop.
    std::thread::sleep(Duration::from_millis(300));
    engine.assert_ready();
    engine.send("stop");
    engine.expect_line("bestmove d4-e4");
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_movetime_zero_still_completes_depth_one() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    let legal = legal_moves(&mut engine);
    engine.send("go movetime 0");
    let lines = engine.read_until_within(Duration::from_secs(5), "bestmove", is_bestmove);
    assert!(
        lines[0].starts_with("info depth 1 "),
        "first line: {:?}",
        lines[0]
    );
    let best = bestmove_of(lines.last().expect("a bestmove")).expect("a bestmove");
    assert!(legal.iter().any(|m| m == best), "bestmove {best}");
    engine.quit(Duration::from_secs(10));
}

#[test]
fn go_searchmoves_restricts_the_root_and_checks_its_moves() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    engine.send("go depth 2 searchmoves e5");
    let lines = engine.read_until(is_bestmove);
    assert_eq!(bestmove_of(lines.last().expect("a bestmove")), Some("e5"));
    for line in &lines[..lines.len() - 1] {
        assert!(
            line.ends_with(" pv e5") || line.contains(" pv e5 "),
            "{line:?}"
        );
    }
    engine.send("go depth 1 searchmoves z9");
    engine.expect_line("info string error illegal-move searchmoves: z9 is not a legal move here");
    engine.expect_line("bestmove (none)");
    engine.send("go searchmoves");
    engine.expect_line("info string error bad-argument searchmoves needs at least one move");
    engine.expect_line("bestmove (none)");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn input_conventions_cr_blank_tabs_case_and_invalid_utf8() {
    let mut engine = Engine::spawn();
    // `\r` before `\n` is dropped, blank lines are ignored, tabs separate words.
    engine.send_bytes(b"isready\r\n\n   \n\t isready \t\n");
    engine.expect_line("readyok");
    engine.expect_line("readyok");
    // Commands are case-sensitive.
    engine.send("ISREADY");
    engine.expect_line("info string error unknown-command 'ISREADY' (try help)");
    // Bytes that are not UTF-8 become U+FFFD.
    engine.send_bytes(b"\xff\xfe\n");
    engine.expect_line("info string error unknown-command '\u{FFFD}\u{FFFD}' (try help)");
    // A NUL byte is just a character of an unknown command.
    engine.send_bytes(b"\x00\n");
    engine.expect_line("info string error unknown-command '\u{0}' (try help)");
    // `ponderhit` is accepted and ignored.
    engine.send("ponderhit");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn lines_over_one_mib_are_skipped_with_an_error() {
    const MAX_LINE: usize = 1 << 20;
    let mut engine = Engine::spawn();
    let mut line = b"isready".to_vec();
    line.resize(MAX_LINE, b' ');
    line.push(b'\n');
    engine.send_bytes(&line);
    engine.expect_line("readyok");
    line.truncate(MAX_LINE);
    line.extend_from_slice(b" \n");
    engine.send_bytes(&line);
    engine.expect_line(&format!(
        "info string error bad-argument line of {} bytes ignored: too long",
        MAX_LINE + 1
    ));
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn queries_without_a_position_answer_none_but_game() {
    let mut engine = Engine::spawn();
    engine.send("position fen 5:x5 w");
    engine.expect_line(
        "info string error invalid-position '5:x5 w': a 5×5 board needs 5 ranks, found 1",
    );
    let no_position = "info string error no-position query needs a position: send position \
                       startpos or position fen <pos>";
    for what in ["gameover", "p1turn", "result", "fen", "legalmoves"] {
        engine.send(&format!("query {what}"));
        engine.expect_line(no_position);
        engine.expect_line("response (none)");
    }
    engine.send("query game");
    engine.expect_line("response sight");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn changing_a_rule_switch_starts_a_new_game() {
    let mut engine = Engine::spawn();
    engine.send("position startpos moves c3");
    // Setting a rule switch to its current value changes nothing.
    engine.send("setoption name Sight_BoardSize value 5");
    engine.send("query fen");
    engine.expect_line("response 5:x5/x5/x2,w,x2/x5/x5 b");
    // A new value starts a new game under the new rules.
    engine.send("setoption name sight_boardsize value 3");
    engine.send("query fen");
    engine.expect_line("response 3:x3/x3/x3 w");
    engine.send("position startpos moves b2");
    engine.send("setoption name Sight_StrictTallest value TRUE");
    engine.send("query fen");
    engine.expect_line("response 3:x3/x3/x3 w");
    engine.assert_ready();
    engine.quit(Duration::from_secs(10));
}

#[test]
fn setoption_during_a_search_stops_it_first() {
    let mut engine = Engine::spawn();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.read_line_within(Duration::from_secs(5), "the first info line");
    engine.send("setoption name MultiPV value 2");
    // protocol.md: "`setoption` during a search first stops the search (its `bestmove` is
    // printed)". No stop is sent here.
    engine.send("isready");
    let lines = engine.read_until_within(Duration::from_secs(5), "readyok", |l| l == "readyok");
    let bestmoves = lines.iter().filter(|l| is_bestmove(l)).count();
    assert_eq!(
        bestmoves, 1,
        "setoption did not stop the search before readyok: {lines:#?}"
    );
    engine.quit(Duration::from_secs(10));
}
