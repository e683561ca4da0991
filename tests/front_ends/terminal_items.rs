//! `ludus play` on a real 80×24 terminal (tmux), issue 34 item 9: captures written with `×`
//! and moves numbered by turn as on the web, the last move between brackets with or without
//! colours, the prompt's line edited with the arrow keys (and arrow keys from a pipe refused
//! with a reason, never read as a square), moves typed in upper case, Isaac's tiles of one
//! owner drawn apart and its long `Fen:` line cut to the screen, Sight's White drawn light.

use super::terminal_screen::{Screen, assert_fits_80_columns, last_line, tmux_available};

const LUDUS: &str = env!("CARGO_BIN_EXE_ludus");

/// Two people playing `game` (with `more` arguments) on 80×24, at the first prompt.
fn people(name: &str, game: &str, more: &[&str]) -> Screen {
    let mut args = vec!["--game", game, "--p1", "human", "--p2", "human"];
    args.extend_from_slice(more);
    let screen = Screen::start(name, &args);
    screen.wait_for("the first prompt", |s| last_line(s).ends_with("to move>"));
    screen
}

/// The screen once the moves line is `moves` and the prompt is back.
fn after(screen: &Screen, moves: &str) -> String {
    screen.wait_for(moves, |s| {
        s.lines().any(|l| l == moves) && last_line(s).ends_with("to move>")
    })
}

/// The last line of `screen` that starts with `start` (the screen's top may show the end of
/// the board before).
fn line<'a>(screen: &'a str, start: &str) -> &'a str {
    screen
        .lines()
        .rev()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line '{start}…' on the screen:\n{screen}"))
}

#[test]
fn a_capture_has_its_cross_and_moves_are_numbered_by_turn() {
    if !tmux_available() {
        return;
    }
    let screen = people("capture", "tactigon", &[]);
    // Blue takes the circle on d10 (typed in upper case); then Red moves again.
    screen.type_moves(&["e5-d10", "D14-D10", "d0-c1"]);
    let shown = after(&screen, "Moves: 1. e5-d10 d14×d10 2. d0-c1");
    assert_eq!(
        line(&shown, "c "),
        "c    [C]    S     T     .     .     .     .     t     s     ."
    );
    assert_fits_80_columns(&screen);
}

#[test]
fn the_last_move_is_between_brackets_without_colours() {
    if !tmux_available() {
        return;
    }
    let screen = people("brackets", "sight", &["--color", "never"]);
    // Typed in upper case: read as c3.
    screen.type_moves(&["C3", "d3"]);
    let shown = after(&screen, "Moves: 1. c3 d3");
    assert_eq!(line(&shown, " 3 "), " 3  .---.---w--[b]--.");
    let attributes = screen.visible_with_attributes();
    assert!(!attributes.contains("\x1b[3"), "no colour: {attributes:?}");
}

#[test]
fn arrow_keys_edit_the_line_and_recall_the_lines_before() {
    if !tmux_available() {
        return;
    }
    let screen = people("keys", "sight", &[]);
    screen.type_line("c3");
    after(&screen, "Moves: 1. c3");
    screen.press(&["Up"]);
    screen.wait_for("c3 recalled", |s| last_line(s) == "Black to move> c3");
    // ← to between c and 3, Backspace erases c, d is put in: d3.
    screen.press(&["Left", "BSpace", "d"]);
    screen.wait_for("the line edited", |s| last_line(s) == "Black to move> d3");
    screen.press(&["Enter"]);
    after(&screen, "Moves: 1. c3 d3");
    // ↑ twice: the line before the last; ↓: the last.
    screen.press(&["Up", "Up", "Down"]);
    screen.wait_for("d3 recalled", |s| last_line(s) == "White to move> d3");
}

#[test]
fn arrow_keys_from_a_pipe_are_refused_with_a_reason() {
    if !tmux_available() {
        return;
    }
    // Standard input is a pipe: lines are read as they come, an arrow key's bytes with them.
    let command = format!("sh -c 'cat | {LUDUS} play --game sight --p1 human --p2 human'");
    let screen = Screen::start_command("pipe", &command);
    screen.wait_for("the first prompt", |s| last_line(s).ends_with("to move>"));
    screen.press(&["Up", "Enter"]);
    let refused = screen.wait_for("the refusal", |s| s.contains("control keys"));
    let lines: Vec<&str> = refused.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("The line holds"))
        .expect("the reason");
    assert_eq!(
        lines[at..at + 2],
        [
            "The line holds control keys (an arrow key?), which do not edit a line read from",
            "a pipe or a file: type it again without them."
        ]
    );
    assert!(!refused.contains("square"), "{refused}");
    screen.type_line("c3");
    after(&screen, "Moves: 1. c3");
}

/// Dark's and Light's tiles on Isaac's board: two of one owner side by side in a row
/// (3h00, 3h03), one on top of another in a column (3v06, 3v36), a pair of Light's (3h50,
/// 3h53); eleven tiles, so that the position's notation is wider than the screen.
const ISAAC: [&str; 11] = [
    "3h00", "5h90", "3h03", "5h80", "3v06", "4h70", "3v36", "3h50", "4h20", "3h53", "4h40",
];

/// Two people's Isaac game on 80×24 (tmux session `name`) after [`ISAAC`]'s moves, and the
/// screen then.
fn isaac_after_the_tiles(name: &str) -> (Screen, String) {
    let screen = people(name, "isaac", &[]);
    screen.type_moves(&ISAAC);
    let shown = after(
        &screen,
        "Moves: 1. 3h00 5h90 2. 3h03 5h80 3. 3v06 4h70 4. 3v36 3h50 5. 4h20 3h53 6. 4h40",
    );
    (screen, shown)
}

#[test]
fn isaac_tiles_of_one_owner_are_drawn_apart() {
    if !tmux_available() {
        return;
    }
    let (_screen, shown) = isaac_after_the_tiles("tiles");
    let rows: Vec<&str> = ["r5", "r4", "r3", "r2", "r1", "r0"]
        .iter()
        .map(|r| line(&shown, &format!(" {r} ")))
        .collect();
    assert_eq!(
        rows,
        [
            " r5  L3---L3---L3   L3---L3---L3   D3|   .    .    .    l4",
            " r4 [D4---D4---D4---D4]   .    .   D3|   .    .    .    l5",
            " r3   .    .    .    .    .    .   D3    .    .    .    l6",
            " r2  D4---D4---D4---D4    .    .   D3|   .    .    .    l7",
            " r1   .    .    .    .    .    .   D3|   .    .    .    l8",
            " r0  D3---D3---D3   D3---D3---D3   D3    .    .    .    l9",
        ]
    );
    assert!(shown.contains("Tiles: cells joined by --- (across) or by | (to the cell below)"));
}

#[test]
fn isaac_long_fen_line_is_cut_and_fen_shows_it_whole() {
    if !tmux_available() {
        return;
    }
    let (screen, shown) = isaac_after_the_tiles("fen");
    assert_eq!(
        line(&shown, "Fen: "),
        "Fen: D3h00,D3h03,D3v06,D4h20,D3v36,D4h40,L3h50,L3h53,L4h70,L5h80,… (type fen)"
    );
    assert_fits_80_columns(&screen);
    screen.type_line("fen");
    let whole = "D3h00,D3h03,D3v06,D4h20,D3v36,D4h40,L3h50,L3h53,L4h70,L5h80,L5h90 \
                 12321/33121 l P - 0/0 0/0";
    screen.wait_for("the whole position", |_| {
        screen.history().lines().any(|l| l == whole)
    });
}

/// The colours in force at each character of a captured line (`capture-pane -e`): its
/// foreground and background SGR codes (0: the terminal's own).
fn colours(captured: &str) -> Vec<(char, u32, u32)> {
    let (mut fg, mut bg) = (0, 0);
    let mut out = Vec::new();
    let mut chars = captured.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push((c, fg, bg));
            continue;
        }
        chars.next();
        let mut params = String::new();
        for p in chars.by_ref() {
            if p.is_ascii_alphabetic() {
                break;
            }
            params.push(p);
        }
        for n in params.split(';').map(|n| n.parse::<u32>().unwrap_or(0)) {
            match n {
                0 => (fg, bg) = (0, 0),
                30..=37 | 90..=97 => fg = n,
                39 => fg = 0,
                40..=47 | 100..=107 => bg = n,
                49 => bg = 0,
                _ => {}
            }
        }
    }
    out
}

#[test]
fn sight_white_is_drawn_light_and_black_dark() {
    if !tmux_available() {
        return;
    }
    let screen = people("colours", "sight", &[]);
    screen.type_moves(&["c3", "d3"]);
    after(&screen, "Moves: 1. c3 d3");
    let captured = screen.visible_with_attributes();
    let row = captured
        .lines()
        .rev()
        .find(|l| {
            colours(l)
                .iter()
                .map(|c| c.0)
                .collect::<String>()
                .starts_with(" 3 ")
        })
        .expect("rank 3");
    let pieces: Vec<(char, u32, u32)> = colours(row)
        .into_iter()
        .filter(|c| c.0 == 'w' || c.0 == 'b')
        .collect();
    // White black on light grey, Black bright white on dark grey; nothing red.
    assert_eq!(pieces, [('w', 30, 47), ('b', 97, 100)], "{row:?}");
    assert!(
        colours(&captured).iter().all(|c| c.1 != 31 && c.1 != 91),
        "{captured:?}"
    );
}

/// The move a full-strength one-shot search plays in `game`'s start position.
fn full_strength_move(game: &str) -> String {
    let out = std::process::Command::new(LUDUS)
        .args(["go", "--game", game, "--movetime", "200"])
        .output()
        .expect("ludus go runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or_default().to_string();
    line.strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("a bestmove line, not {text}"))
        .to_string()
}

/// Issue 59 item 3: at `--elo 400` the engine's moves are weak, but `hint` is its full-strength
/// move (Sight 5×5's start is in the solved book: always d4, where rating 400 said c3, b4,
/// c5 …).
#[test]
fn a_hint_is_full_strength_at_a_low_rating() {
    if !tmux_available() {
        return;
    }
    let best = full_strength_move("sight");
    let screen = Screen::start("hint", &["--game", "sight", "--elo", "400"]);
    screen.wait_for("the first prompt", |s| last_line(s).ends_with("to move>"));
    for asked in 1..=4 {
        screen.type_line("hint");
        // Counted in the whole history: the first hints scroll off an 80×24 screen.
        let hints = || -> Vec<String> {
            let history = screen.history();
            let lines = history.lines().filter(|l| l.starts_with("hint: "));
            lines.map(str::to_string).collect()
        };
        screen.wait_for("the hint", |s| {
            hints().len() == asked && last_line(s).ends_with("to move>")
        });
        assert_eq!(hints().last(), Some(&format!("hint: {best}")));
    }
    // The engine's own move is still at the rating: a game goes on after the hints.
    screen.type_line(&best);
    screen.wait_for("the engine's reply", |s| {
        s.lines().any(|l| l.contains("(engine) plays")) && last_line(s).ends_with("to move>")
    });
}

/// Issue 59 items 2 and 12: a Tactigon draw by the ply cap is announced as such (not "Red
/// has no legal move"), and the banner counts plies as plies.
#[test]
fn a_draw_by_the_ply_cap_says_so() {
    if !tmux_available() {
        return;
    }
    let screen = people("cap", "tactigon", &["--option", "Tactigon_PlyCap=4"]);
    screen.type_moves(&["f6-f8", "f14-f12", "b6-b8", "b14-b12"]);
    let ended = screen.wait_for("the end", |s| s.contains("***"));
    let banner = ended.replace('\n', " ");
    assert!(
        banner.contains("*** Draw: the ply cap (4 plies) is reached (4 plies) ***"),
        "{ended}"
    );
}
