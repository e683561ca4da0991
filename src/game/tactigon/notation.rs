//! Tactigon position notation (TFN) and move notation (docs/rules/tactigon.md §9), and the board
//! for `d`.

use super::board::{CELLS, board, cell_name, parse_cell, row_lengths};
use super::{MAX_COUNT, PENTAGON, Tactigon, TactigonMove, TactigonRules};
use crate::game::{ParseError, Player};

const LETTERS: [char; 4] = ['C', 'T', 'S', 'P'];

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::new(msg))
}

/// Reads `<board> <side> [<ply>]`, e.g. the start
/// `2/C1C3c1c/1ST4ts1/CTPSC1csptc/1ST4ts1/C1C3c1c/2 r 0`.
pub fn parse_position(s: &str, rules: TactigonRules) -> Result<Tactigon, ParseError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let (board_text, side, ply) = match fields.as_slice() {
        [b, s] => (*b, *s, "0"),
        [b, s, p] => (*b, *s, *p),
        _ => {
            return err(format!(
                "expected '<board> <side> [<ply>]', got {} fields",
                fields.len()
            ));
        }
    };
    let side = match side {
        "r" => Player::One,
        "b" => Player::Two,
        other => return err(format!("side to move must be r or b, not '{other}'")),
    };
    let canonical_ply = ply == "0" || !ply.starts_with('0');
    let ply = match ply.parse::<u32>() {
        Ok(p) if canonical_ply && ply.bytes().all(|b| b.is_ascii_digit()) => p,
        _ => {
            return err(format!(
                "ply must be a whole number without leading zeros, not '{ply}'"
            ));
        }
    };
    let ranks: Vec<&str> = board_text.split('/').collect();
    let lengths = row_lengths();
    if ranks.len() != lengths.len() {
        return err(format!("the board has 7 ranks a..g, found {}", ranks.len()));
    }
    let mut pieces = [[0u64; 4]; 2];
    let mut cell = 0usize;
    for (r, text) in ranks.iter().enumerate() {
        let row = (b'a' + r as u8) as char;
        let mut filled = 0usize;
        let mut chars = text.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                let mut run = d as usize;
                if d == 0 {
                    return err(format!(
                        "rank {row}: empty runs are 1 to 11, without leading zeros"
                    ));
                }
                while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run * 10 + next as usize;
                    chars.next();
                    if run > lengths[r] {
                        return err(format!(
                            "rank {row}: a run of empty cells longer than the rank"
                        ));
                    }
                }
                filled += run;
                cell += run;
            } else {
                let Some(kind) = LETTERS.iter().position(|&l| l == ch.to_ascii_uppercase()) else {
                    return err(format!(
                        "rank {row}: '{ch}' is not a piece (C T S P, c t s p)"
                    ));
                };
                if filled < lengths[r] {
                    let side = usize::from(ch.is_ascii_lowercase());
                    pieces[side][kind] |= 1 << cell;
                }
                filled += 1;
                cell += 1;
            }
            if filled > lengths[r] {
                return err(format!(
                    "rank {row} has more than {} cells ('{text}')",
                    lengths[r]
                ));
            }
        }
        if filled != lengths[r] {
            return err(format!(
                "rank {row} has {filled} cells, not {} ('{text}')",
                lengths[r]
            ));
        }
    }
    for (side, name) in [(0, "Red"), (1, "Blue")] {
        for kind in 0..4 {
            let n = pieces[side][kind].count_ones();
            if n > MAX_COUNT[kind] {
                return err(format!(
                    "{name} has {n} {}: at most {}",
                    kind_name(kind),
                    MAX_COUNT[kind]
                ));
            }
        }
    }
    if pieces[0][PENTAGON] | pieces[1][PENTAGON] == 0 {
        return err("no pentagon on the board: at least one side must have its pentagon");
    }
    let mut pos = Tactigon {
        pieces,
        side,
        ply,
        rules,
        hash: 0,
        history: Vec::new(),
    };
    pos.hash = pos.board_hash_from_scratch();
    Ok(pos)
}

fn kind_name(kind: usize) -> &'static str {
    ["circles", "triangles", "squares", "pentagons"][kind]
}

fn letter(pos: &Tactigon, cell: usize) -> Option<char> {
    pos.piece_at(cell).map(|(side, kind)| {
        if side == 0 {
            LETTERS[kind]
        } else {
            LETTERS[kind].to_ascii_lowercase()
        }
    })
}

/// Writes the canonical TFN.
pub fn write_position(pos: &Tactigon) -> String {
    let mut ranks = Vec::new();
    let mut cell = 0;
    for len in row_lengths() {
        let mut text = String::new();
        let mut run = 0;
        for _ in 0..len {
            match letter(pos, cell) {
                Some(l) => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(l);
                }
                None => run += 1,
            }
            cell += 1;
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        ranks.push(text);
    }
    let side = if pos.side == Player::One { 'r' } else { 'b' };
    format!("{} {side} {}", ranks.join("/"), pos.ply)
}

/// Reads `d6-c13`.
pub fn parse_move(s: &str) -> Result<TactigonMove, ParseError> {
    let parsed = s
        .split_once('-')
        .and_then(|(a, b)| Some((parse_cell(a)?, parse_cell(b)?)));
    match parsed {
        Some((from, to)) => Ok(TactigonMove {
            from: from as u8,
            to: to as u8,
        }),
        None => err(format!(
            "'{s}' is not a move <from>-<to> between cells a9 … g11"
        )),
    }
}

/// Writes a move in canonical notation.
pub fn write_move(m: TactigonMove) -> String {
    format!(
        "{}-{}",
        cell_name(m.from as usize),
        cell_name(m.to as usize)
    )
}

/// The board as in docs/rules/tactigon.md §1.5: Red upper case, Blue lower case, `**` an empty gold
/// tile; row letters on the left and column numbers above and below, so that a cell's name
/// is its row letter and the number above it. 65 columns wide.
pub fn render(pos: &Tactigon) -> String {
    let b = board();
    let mut lines = vec![String::new(); 7];
    let mut max_column = 0;
    for cell in 0..CELLS {
        let (r, c) = b.coords[cell];
        let token = match letter(pos, cell) {
            Some(l) => l.to_string(),
            None if b.gold >> cell & 1 == 1 => "**".to_string(),
            None => ".".to_string(),
        };
        let column = 3 * c as usize;
        max_column = max_column.max(c as usize);
        let line = &mut lines[r as usize];
        while line.len() < column {
            line.push(' ');
        }
        line.push_str(&token);
    }
    let axis: String = (0..=max_column).map(|c| format!("{c:<3}")).collect();
    let axis = format!("   {}\n", axis.trim_end());
    let mut out = axis.clone();
    for (r, line) in lines.iter().enumerate() {
        let row = (b'a' + r as u8) as char;
        out.push_str(&format!("{row}  {line}\n"));
    }
    out.push_str(&axis);
    let side = if pos.side == Player::One {
        "Red (r)"
    } else {
        "Blue (b)"
    };
    let rules = pos.rules;
    out.push_str(&format!(
        "Side to move: {side}   Ply: {} of cap {}\n",
        pos.ply,
        if rules.ply_cap == 0 {
            "off".to_string()
        } else {
            rules.ply_cap.to_string()
        }
    ));
    out.push_str(&format!(
        "Rules: no-move {}, repetition {}, jumping squares {}, gold bonus {}\n",
        if rules.no_move_draw { "draw" } else { "loss" },
        if rules.repetition { "on" } else { "off" },
        if rules.jumping_squares { "on" } else { "off" },
        if rules.gold_bonus { "on" } else { "off" },
    ));
    out.push_str(&format!(
        "Fen: {}\nKey: {:016X}",
        write_position(pos),
        pos.hash_from_scratch()
    ));
    out
}
