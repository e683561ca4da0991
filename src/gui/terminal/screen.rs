//! The board on the terminal: the game's own text board ([`crate::game::Game::render`]) with
//! its `Fen:` line kept within [`COLUMNS`], the pieces in their seats' colours
//! ([`GameId::tones`]) and what the last move changed between brackets (`[w]`), which read with
//! or without colours.

use super::COLUMNS;
use crate::game::present::{Ink, Tone};
use crate::game::{GameId, GameVisitor, Searchable, options::OptionValues};

/// What a `Fen:` line too long for the terminal ends with, after as much of it as fits.
pub const FEN_CUT: &str = "… (type fen)";

/// The board drawn by the game's own text renderer, without its `Key:` line (a hash for
/// debugging), and with its `Fen:` line cut to the terminal's width ([`fen_line`]).
pub fn board(game: GameId, fen: &str, options: &OptionValues) -> String {
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
        .map(|line| match line.strip_prefix("Fen: ") {
            Some(fen) => format!("{}\n", fen_line(fen)),
            None => format!("{line}\n"),
        })
        .collect()
}

/// `Fen: <fen>`, or, when that is wider than the terminal, as much of it as fits (up to the
/// end of a field or of an item of a list) followed by [`FEN_CUT`]: the command `fen` shows
/// it whole.
pub fn fen_line(fen: &str) -> String {
    let whole = format!("Fen: {fen}");
    if whole.chars().count() <= COLUMNS {
        return whole;
    }
    let room = COLUMNS - FEN_CUT.chars().count();
    let kept: String = whole.chars().take(room).collect();
    // Cut after a whole field or list item where there is one.
    let end = kept
        .rfind([',', ' ', '/'])
        .filter(|&i| i >= "Fen: ".len())
        .map_or(kept.len(), |i| i + 1);
    format!("{}{FEN_CUT}", &kept[..end])
}

/// `text` broken at spaces into lines of at most [`COLUMNS`] characters (a word longer than
/// that stays whole).
pub fn wrap(text: &str) -> String {
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

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '*' || c == '.'
}

/// The tokens of a board line after its row label: runs of letters, digits, `*` and `.`, each
/// as its first and past-the-end character positions.
fn tokens(line: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < line.len() {
        if !is_token_char(line[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < line.len() && is_token_char(line[at]) {
            at += 1;
        }
        out.push((start, at));
    }
    out.into_iter().skip(1).collect()
}

/// The terminal's colour of each kind of piece, and of the last move's brackets: light pieces
/// black on light grey, dark ones white on dark grey (as the web page's pictures draw them, and
/// readable on a light or a dark terminal), red and blue ones in bold, gold tiles yellow.
fn sgr(tone: Tone) -> &'static str {
    match tone {
        Tone::Light => "\x1b[30;47m",
        Tone::Dark => "\x1b[97;100m",
        Tone::Red => "\x1b[1;31m",
        Tone::Blue => "\x1b[1;34m",
    }
}
const GOLD: &str = "\x1b[33m";
const BRACKET: &str = "\x1b[1;32m";
const RESET: &str = "\x1b[0m";

/// Draws a rendered board for the terminal. Every point or cell that differs from the board
/// `before` (the last move: a tile placed or taken away, a stack grown or moved, a piece moved
/// or captured) is put between brackets, `[w]`, in the room beside it (a run of marked tokens
/// side by side shares one pair: `[D7---D7---D7]`). With `color`, each player's
/// pieces take the colour of their seat's [`Tone`], a special place (Tactigon's gold tiles)
/// is yellow and the brackets green.
pub fn draw(game: GameId, text: &str, before: Option<&str>, color: bool) -> String {
    let tones = game.tones();
    let paint = |token: &str| -> Option<&'static str> {
        game.ink(token).map(|ink| match ink {
            Ink::PlayerOne => sgr(tones[0]),
            Ink::PlayerTwo => sgr(tones[1]),
            Ink::Special => GOLD,
        })
    };
    let before: Vec<Vec<char>> = before.map_or_else(Vec::new, |b| {
        b.lines().map(|l| l.chars().collect()).collect()
    });
    let mut out = String::new();
    for (row, line) in text.lines().enumerate() {
        if !game.is_board_row(line) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let old: Option<Vec<(usize, &[char])>> = before
            .get(row)
            .filter(|l| game.is_board_row(&l.iter().collect::<String>()))
            .map(|l| tokens(l).into_iter().map(|(s, e)| (s, &l[s..e])).collect());
        // What each character of the line becomes.
        let mut pieces: Vec<String> = chars.iter().map(char::to_string).collect();
        // The runs of marked tokens, each as its first token's start and its last one's end.
        let mut marked: Vec<(usize, usize)> = Vec::new();
        let mut last_marked = false;
        for (start, end) in tokens(&chars) {
            let token = &chars[start..end];
            let text: String = token.iter().collect();
            if let Some(colour) = color.then(|| paint(&text)).flatten() {
                pieces[start].insert_str(0, colour);
                pieces[end - 1].push_str(RESET);
            }
            let changed = old
                .as_ref()
                .is_some_and(|old| !old.contains(&(start, token)));
            match marked.last_mut() {
                Some(run) if changed && last_marked => run.1 = end,
                _ if changed => marked.push((start, end)),
                _ => {}
            }
            last_marked = changed;
        }
        let (open, close) = if color {
            (format!("{BRACKET}[{RESET}"), format!("{BRACKET}]{RESET}"))
        } else {
            ("[".to_string(), "]".to_string())
        };
        for &(start, end) in &marked {
            // The bracket takes the place of a space or a line of the board beside the run, or
            // is put in when there is none.
            match start.checked_sub(1) {
                Some(left) if !is_token_char(chars[left]) => pieces[left] = open.clone(),
                _ => pieces[start].insert_str(0, &open),
            }
            match chars.get(end) {
                Some(&c) if !is_token_char(c) => pieces[end] = close.clone(),
                Some(_) => pieces[end].insert_str(0, &close),
                None => pieces.push(close.clone()),
            }
        }
        out.push_str(&pieces.concat());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_take_their_seats_colours_and_labels_none() {
        let light = |t: &str| format!("\x1b[30;47m{t}\x1b[0m");
        let dark = |t: &str| format!("\x1b[97;100m{t}\x1b[0m");
        let sight = " 3  .---w2--b---.\n    a   b   c\n";
        assert_eq!(
            draw(GameId::Sight, sight, None, true),
            format!(
                " 3  .---{}--{}---.\n    a   b   c\n",
                light("w2"),
                dark("b")
            )
        );
        assert_eq!(draw(GameId::Sight, sight, None, false), sight);
        let isaac = draw(GameId::Isaac, " r0  D7   L3|   .    l9\n", None, true);
        assert_eq!(
            isaac,
            format!(" r0  {}   {}|   .    l9\n", dark("D7"), light("L3"))
        );
        let tactigon = draw(GameId::Tactigon, "c  C  .  s  **  .\n", None, true);
        assert_eq!(
            tactigon,
            "c  \x1b[1;31mC\x1b[0m  .  \x1b[1;34ms\x1b[0m  \x1b[33m**\x1b[0m  .\n"
        );
    }

    #[test]
    fn what_the_last_move_changed_is_bracketed_with_or_without_colour() {
        // A Tactigon circle steps from the second cell to the third: one pair for both.
        let before = "c  C  .  s\nSide to move: Red (r)\n";
        let after = "c  .  C  s\nSide to move: Blue (b)\n";
        assert_eq!(
            draw(GameId::Tactigon, after, Some(before), false),
            "c [.  C] s\nSide to move: Blue (b)\n"
        );
        let green = |b: &str| format!("\x1b[1;32m{b}\x1b[0m");
        assert_eq!(
            draw(GameId::Tactigon, after, Some(before), true),
            format!(
                "c {}.  \x1b[1;31mC\x1b[0m{} \x1b[1;34ms\x1b[0m\nSide to move: Blue (b)\n",
                green("["),
                green("]")
            )
        );
        // A Sight stack grows from w to w2 at the end of its line; b, unchanged, is not marked.
        let grown = draw(GameId::Sight, " 3  b---w2\n", Some(" 3  b---w\n"), false);
        assert_eq!(grown, " 3  b--[w2]\n");
        // Two marked points with an unmarked one between: two pairs.
        let two = draw(
            GameId::Sight,
            " 3  w---b---w\n",
            Some(" 3  .---b---.\n"),
            false,
        );
        assert_eq!(two, " 3 [w]--b--[w]\n");
        // A new Isaac tile is one run.
        let tile = draw(
            GameId::Isaac,
            " r4   .   D3---D3---D3    .    l5\n",
            Some(" r4   .    .    .    .    .    l5\n"),
            false,
        );
        assert_eq!(tile, " r4   .  [D3---D3---D3]   .    l5\n");
        // Without the board before (the first, or after an undo), nothing is marked.
        assert_eq!(draw(GameId::Sight, " 3  w\n", None, false), " 3  w\n");
    }

    #[test]
    fn a_long_fen_line_is_cut_to_the_terminal() {
        assert_eq!(fen_line("5:x5/x5/x5/x5/x5 w"), "Fen: 5:x5/x5/x5/x5/x5 w");
        let long = "D3h00,".repeat(20) + " 54321/54321 d P - 0/0 0/0";
        let line = fen_line(&long);
        assert_eq!(line, format!("Fen: {}… (type fen)", "D3h00,".repeat(10)));
        let unbroken = "x".repeat(100);
        let line = fen_line(&unbroken);
        assert_eq!(line, format!("Fen: {}… (type fen)", "x".repeat(63)));
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
}
