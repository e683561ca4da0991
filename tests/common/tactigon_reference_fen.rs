//! The reference's notation (`docs/rules/tactigon.md` §9.1), written from the document alone:
//! reading a position string (TFN) with every validity check the section states, and writing
//! the canonical form. Part of the independent reference in `tactigon_reference.rs`.
//!
//! The reference is lenient where the engine adds a convention of its own (§9.1): a ply with
//! leading zeros is read as the number it spells, a non-negative integer all the same.

use super::tactigon_reference::{BLUE, KINDS, Kind, Piece, RED, RefPos, RefRules, all_cells};

/// The piece letter of §9.1: Red `C T S P`, Blue `c t s p`.
pub fn letter(piece: Piece) -> char {
    let upper = match piece.kind {
        Kind::Circle => 'C',
        Kind::Triangle => 'T',
        Kind::Square => 'S',
        Kind::Pentagon => 'P',
    };
    if piece.side == RED {
        upper
    } else {
        upper.to_ascii_lowercase()
    }
}

/// The piece a letter stands for.
pub fn piece_of(ch: char) -> Option<Piece> {
    let kind = match ch.to_ascii_uppercase() {
        'C' => Kind::Circle,
        'T' => Kind::Triangle,
        'S' => Kind::Square,
        'P' => Kind::Pentagon,
        _ => return None,
    };
    let side = if ch.is_ascii_uppercase() { RED } else { BLUE };
    Some(Piece { side, kind })
}

impl RefPos {
    /// Reads `<board> <side> [<ply>]` (§9.1).
    pub fn from_tfn(s: &str, rules: RefRules) -> Result<RefPos, String> {
        let fields: Vec<&str> = s.split(' ').collect();
        if !(2..=3).contains(&fields.len()) || fields.iter().any(|f| f.is_empty()) {
            return Err(format!("'{s}': expected <board> <side> [<ply>]"));
        }
        let side = match fields[1] {
            "r" => RED,
            "b" => BLUE,
            other => return Err(format!("bad side '{other}'")),
        };
        let ply = match fields.get(2) {
            None => 0,
            Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => p
                .parse::<u32>()
                .map_err(|e| format!("bad ply '{p}': {e}"))?,
            Some(p) => return Err(format!("bad ply '{p}'")),
        };
        let mut pos = RefPos::empty(side, ply, rules);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 7 {
            return Err(format!("{} ranks, not 7", ranks.len()));
        }
        let cells = all_cells();
        for (r, rank) in ranks.iter().enumerate() {
            let row: Vec<_> = cells.iter().copied().filter(|c| c.0 == r).collect();
            let mut i = 0; // cells of this row filled so far
            let chars: Vec<char> = rank.chars().collect();
            let mut k = 0;
            while k < chars.len() {
                if chars[k].is_ascii_digit() {
                    let start = k;
                    while k < chars.len() && chars[k].is_ascii_digit() {
                        k += 1;
                    }
                    let digits: String = chars[start..k].iter().collect();
                    if digits.starts_with('0') {
                        return Err(format!("rank {r}: zero or leading zero in '{digits}'"));
                    }
                    if digits.len() > 2 {
                        return Err(format!("rank {r}: run '{digits}' too long"));
                    }
                    let n: usize = digits.parse().unwrap();
                    if n > 11 {
                        return Err(format!("rank {r}: run {n} > 11"));
                    }
                    i += n;
                } else {
                    let piece = piece_of(chars[k]).ok_or(format!("bad letter '{}'", chars[k]))?;
                    if i < row.len() {
                        pos.grid[row[i].0][row[i].1] = Some(piece);
                    }
                    i += 1;
                    k += 1;
                }
                if i > row.len() {
                    return Err(format!("rank {r}: more than {} cells", row.len()));
                }
            }
            if i != row.len() {
                return Err(format!("rank {r}: {i} cells, not {}", row.len()));
            }
        }
        for side in [RED, BLUE] {
            for kind in KINDS {
                if pos.count(side, kind) > kind.start_count() {
                    return Err(format!("side {side}: too many {kind:?}"));
                }
            }
        }
        if pos.count(RED, Kind::Pentagon) + pos.count(BLUE, Kind::Pentagon) == 0 {
            return Err("no pentagon on the board".into());
        }
        pos.seen = vec![(pos.grid, pos.side)];
        Ok(pos)
    }

    /// The canonical TFN: maximal runs, the ply always written.
    pub fn to_tfn(&self) -> String {
        let cells = all_cells();
        let mut ranks = Vec::new();
        for r in 0..7 {
            let mut text = String::new();
            let mut run = 0;
            for &cell in cells.iter().filter(|c| c.0 == r) {
                match self.at(cell) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            text += &run.to_string();
                        }
                        run = 0;
                        text.push(letter(p));
                    }
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            ranks.push(text);
        }
        let side = if self.side == RED { "r" } else { "b" };
        format!("{} {side} {}", ranks.join("/"), self.ply)
    }
}
