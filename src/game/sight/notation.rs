//! Sight Position Notation and move notation (docs/rules/sight.md §8), and the text board for `d`.
//!
//! The reader is strict: it accepts the canonical form only (merged empty runs, no `x1`/`w1`,
//! no leading zeros), so every accepted string round-trips unchanged.

use super::geometry::{Geometry, MAX_SIZE, MIN_SIZE};
use super::{MAX_GIVEN_HEIGHT, Sight, SightMove, SightSettings, bits};
use crate::game::{Game, ParseError, Player};

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::new(msg))
}

/// Reads a decimal with no sign and no leading zero.
fn parse_count(s: &str) -> Option<u32> {
    if s.is_empty() || s.starts_with('0') || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Reads one SPN string, e.g. `5:x5/x5/x2,w,x2/x5/x5 b`.
pub fn parse_position(s: &str, settings: &SightSettings) -> Result<Sight, ParseError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let (board, side) = match fields.as_slice() {
        [board, side] => (*board, *side),
        [_, _, _] => {
            return err(
                "a supply field needs the finite-supply option, which ludus does not offer",
            );
        }
        _ => {
            return err(format!(
                "expected '<size>:<ranks> <side>', got {} fields",
                fields.len()
            ));
        }
    };
    let side = match side {
        "w" => Player::One,
        "b" => Player::Two,
        other => return err(format!("side to move must be w or b, not '{other}'")),
    };
    let Some((size, ranks)) = board.split_once(':') else {
        return err("missing ':' after the board size");
    };
    let n = match parse_count(size) {
        Some(n) if (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&n) => n as usize,
        Some(n) if (2..=26).contains(&n) => {
            return err(format!(
                "board size {n} is valid notation but ludus plays sizes {MIN_SIZE} to {MAX_SIZE}"
            ));
        }
        _ => {
            return err(format!(
                "board size must be a number from {MIN_SIZE} to {MAX_SIZE}, not '{size}'"
            ));
        }
    };
    let ranks: Vec<&str> = ranks.split('/').collect();
    if ranks.len() != n {
        return err(format!(
            "a {n}×{n} board needs {n} ranks, found {}",
            ranks.len()
        ));
    }
    let mut piles = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let y = n - 1 - i;
        let rank_name = y + 1;
        let mut x = 0usize;
        let mut previous_empty = false;
        for token in rank_text.split(',') {
            let (head, count) = token.split_at(token.chars().next().map_or(0, char::len_utf8));
            let count = if count.is_empty() {
                1
            } else {
                match parse_count(count) {
                    Some(c) if c >= 2 => c,
                    _ => {
                        return err(format!(
                            "rank {rank_name}: bad token '{token}' (counts are 2 or more, no leading zeros)"
                        ));
                    }
                }
            };
            match head {
                "x" => {
                    if previous_empty {
                        return err(format!(
                            "rank {rank_name}: empty runs must be merged ('{rank_text}')"
                        ));
                    }
                    previous_empty = true;
                    x += count as usize;
                }
                "w" | "b" => {
                    if count > MAX_GIVEN_HEIGHT as u32 {
                        return err(format!(
                            "rank {rank_name}: height {count} is above the limit {MAX_GIVEN_HEIGHT}"
                        ));
                    }
                    previous_empty = false;
                    if x < n {
                        let owner = if head == "w" {
                            Player::One
                        } else {
                            Player::Two
                        };
                        piles.push((y * n + x, owner, count as u8));
                    }
                    x += 1;
                }
                _ => {
                    return err(format!(
                        "rank {rank_name}: bad token '{token}' (x, w or b expected)"
                    ));
                }
            }
            if x > n {
                return err(format!(
                    "rank {rank_name} is wider than {n} points ('{rank_text}')"
                ));
            }
        }
        if x != n {
            return err(format!(
                "rank {rank_name} has {x} points, not {n} ('{rank_text}')"
            ));
        }
    }
    let settings = SightSettings {
        size: n,
        ..settings.clone()
    };
    Sight::from_piles(&settings, &piles, side)
        .ok_or_else(|| ParseError::new("unsupported board size"))
}

/// Writes the canonical SPN string of a position.
pub fn write_position(s: &Sight) -> String {
    let n = s.size();
    let mut out = format!("{n}:");
    for y in (0..n).rev() {
        let mut tokens: Vec<String> = Vec::new();
        let mut run = 0;
        for x in 0..n {
            match s.pile(y * n + x) {
                None => run += 1,
                Some((owner, h)) => {
                    if run > 0 {
                        tokens.push(empty_token(run));
                        run = 0;
                    }
                    let colour = if owner == Player::One { 'w' } else { 'b' };
                    tokens.push(if h == 1 {
                        colour.to_string()
                    } else {
                        format!("{colour}{h}")
                    });
                }
            }
        }
        if run > 0 {
            tokens.push(empty_token(run));
        }
        out.push_str(&tokens.join(","));
        if y > 0 {
            out.push('/');
        }
    }
    out.push_str(if s.side_to_move() == Player::One {
        " w"
    } else {
        " b"
    });
    out
}

fn empty_token(run: usize) -> String {
    if run == 1 {
        "x".to_string()
    } else {
        format!("x{run}")
    }
}

/// Reads a move: `c3` (placement) or `b4-c4` (movement). A long-form suffix of grown points
/// (`b4-c3+d3+d4`) is accepted and discarded once its squares are checked.
pub fn parse_move(geo: &Geometry, s: &str) -> Result<SightMove, ParseError> {
    let mut parts = s.split('+');
    let main = parts.next().unwrap_or_default();
    for grown in parts {
        if geo.parse_square(grown).is_none() {
            return err(format!(
                "'{grown}' in the growth suffix is not a square of this board"
            ));
        }
    }
    let square = |t: &str| {
        geo.parse_square(t).ok_or_else(|| {
            ParseError::new(format!("'{t}' is not a square of the {0}×{0} board", geo.n))
        })
    };
    match main.split_once('-') {
        None => Ok(SightMove::place(square(main)?)),
        Some((from, to)) => {
            let (from, to) = (square(from)?, square(to)?);
            Ok(SightMove::step(from, to))
        }
    }
}

/// Writes a move in canonical notation.
pub fn write_move(geo: &Geometry, m: SightMove) -> String {
    if m.is_placement() {
        geo.square_name(m.to as usize)
    } else {
        format!(
            "{}-{}",
            geo.square_name(m.from as usize),
            geo.square_name(m.to as usize)
        )
    }
}

/// Draws the board with its lines, rank 1 at the bottom, as in docs/rules/sight.md §1.2.
pub fn render(s: &Sight) -> String {
    let geo = s.geometry();
    let n = geo.n;
    let mut out = String::new();
    for y in (0..n).rev() {
        let mut line = format!("{:>2}  ", y + 1);
        for x in 0..n {
            let cell = match s.pile(y * n + x) {
                None => ".".to_string(),
                Some((owner, h)) => {
                    let c = if owner == Player::One { 'w' } else { 'b' };
                    if h == 1 {
                        c.to_string()
                    } else {
                        format!("{c}{h}")
                    }
                }
            };
            if x + 1 < n {
                line.push_str(&format!("{cell:-<4}"));
            } else {
                line.push_str(&cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if y > 0 {
            let mut links = String::from("    ");
            for x in 0..n {
                links.push('|');
                if x + 1 < n {
                    // The square between ranks y-1 and y, files x and x+1, has one diagonal:
                    // it joins its corners whose coordinate sum is even.
                    links.push_str(if (x + y - 1) % 2 == 0 { " / " } else { " \\ " });
                }
            }
            out.push_str(&links);
            out.push('\n');
        }
    }
    let files: String = (0..n)
        .map(|x| format!("{:<4}", (b'a' + x as u8) as char))
        .collect();
    out.push_str(&format!("    {}\n", files.trim_end()));
    let side = if s.side_to_move() == Player::One {
        "White (w)"
    } else {
        "Black (b)"
    };
    let rules = if s.strict_tallest() {
        "strict"
    } else {
        "official"
    };
    let stacks_w = bits(s.stacks & s.occupied[0]).count();
    let stacks_b = bits(s.stacks & s.occupied[1]).count();
    out.push_str(&format!("Side to move: {side}\nRules: {rules}\n"));
    out.push_str(&format!("Stacks: w {stacks_w}, b {stacks_b}\n"));
    out.push_str(&format!(
        "Fen: {}\nKey: {:016X}",
        write_position(s),
        s.hash()
    ));
    out
}
