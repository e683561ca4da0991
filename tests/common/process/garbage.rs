//! A seeded stream of garbage protocol input for the protocol tests: word salad of commands,
//! option names, numbers, move-like and SPN-like tokens, random `go` and `setoption` commands,
//! raw bytes, and a few very long lines, with every line that could end a test early or reach
//! outside it (`quit`, a large `Hash`, the debug log file) replaced.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

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
    "Searcher",
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
    "alphabeta",
    "mcts",
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

/// Options the garbage stream sets (never `Debug Log File`; `Hash` only up to
/// [`MAX_GARBAGE_HASH_MIB`]).
const OPTIONS: &[&str] = &[
    "Hash",
    "MultiPV",
    "Level",
    "Searcher",
    "Seed",
    "Threads",
    "Move Overhead",
    "Clear Hash",
    "UCI_Variant",
    "Sight_BoardSize",
    "Sight_StrictTallest",
    "Tactigon_JumpingSquares",
    "Tactigon_GoldBonus",
    "Isaac_EarlyFinish",
    "hash",
    "sight_boardsize",
    "Nope",
];

/// Well-formed positions (docs/rules/sight.md §9) mixed into the stream.
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
                "random",
                "greedy",
                "full",
                "true",
                "false",
                "sight",
                "isaac",
                "tactigon",
                "mcts",
                "alphabeta",
                "256",
                "255",
                "128",
                "3",
                "9",
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

/// The largest `Hash` the garbage stream may set: the bound of the fuzz runs' memory check.
pub const MAX_GARBAGE_HASH_MIB: i64 = 256;

/// Whether one input line could end the test early or reach outside it: `quit`, a `Hash`
/// over [`MAX_GARBAGE_HASH_MIB`], or the debug log file. Mirrors the engine's own line
/// splitting.
pub fn is_forbidden(line: &[u8]) -> bool {
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
            let too_much_hash =
                name == "hash" && value.parse::<i64>().is_ok_and(|v| v > MAX_GARBAGE_HASH_MIB);
            too_much_hash || name.contains("debug") || name.contains("log")
        }
        _ => false,
    }
}

/// The garbage stream: `count` seeded lines, a few of them about 100 KB long and one of
/// 2 MiB; returns the bytes and the length of the 2 MiB line.
pub fn garbage(seed: u64, count: usize) -> (Vec<u8>, usize) {
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
