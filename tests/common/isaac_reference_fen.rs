//! The notation of the Isaac reference implementation (`isaac_reference.rs`): canonical FEN
//! printing and FEN reading with every check of `docs/rules/isaac.md` §9.3, written from §9 alone
//! and sharing no code with the engine.

use std::fmt::Write as _;

use super::isaac_reference::{DARK, LIGHT, RefIsaac, RefPhase, RefRules, RefTile, SIZES, START};

impl RefIsaac {
    /// Canonical FEN (§9.1, §9.3).
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        if self.tiles.is_empty() {
            s.push('-');
        }
        for (n, i) in self.by_anchor().into_iter().enumerate() {
            let t = self.tiles[i];
            if n > 0 {
                s.push(',');
            }
            s.push(if t.owner == DARK { 'D' } else { 'L' });
            s.push_str(&t.shape());
        }
        s.push(' ');
        for p in [DARK, LIGHT] {
            for n in self.hands[p] {
                write!(s, "{n}").unwrap();
            }
            if p == DARK {
                s.push('/');
            }
        }
        let to_move = match (self.phase, self.to_move) {
            (RefPhase::Ended, _) => "-",
            (_, DARK) => "d",
            _ => "l",
        };
        let phase = match self.phase {
            RefPhase::Placement => "P",
            RefPhase::Scoring => "S",
            RefPhase::Ended => "E",
        };
        let passed = match self.passed {
            [false, false] => "-",
            [true, false] => "d",
            [false, true] => "l",
            [true, true] => "dl",
        };
        write!(
            s,
            " {to_move} {phase} {passed} {}/{} {}/{}",
            self.scores[0], self.scores[1], self.floors[0], self.floors[1]
        )
        .unwrap();
        s
    }

    /// Reads a FEN and applies every check of §9.3, plus the two implied by §9.1 and §4.6:
    /// at most one pass in P (the second pass ends the phase), and in E at most one score of
    /// 100 or more, none above 99 + 72 = 171 (§5 E7). The one-cell check of §9.3 applies only
    /// with the collision rule on (see the comment there).
    pub fn from_fen(s: &str, rules: RefRules) -> Result<RefIsaac, String> {
        let fields: Vec<&str> = s.split(' ').collect();
        if fields.len() != 7 {
            return Err(format!("{} fields", fields.len()));
        }
        let mut pos = RefIsaac::new(rules);
        pos.hands = [[0; 5]; 2];

        // Tiles.
        if fields[0] != "-" {
            for token in fields[0].split(',') {
                let ch: Vec<char> = token.chars().collect();
                if ch.len() != 5 {
                    return Err(format!("tile '{token}'"));
                }
                let owner = match ch[0] {
                    'D' => DARK,
                    'L' => LIGHT,
                    _ => return Err(format!("owner in '{token}'")),
                };
                let size = match ch[1] {
                    '3'..='7' => ch[1] as usize - '0' as usize,
                    _ => return Err(format!("size in '{token}'")),
                };
                let vertical = match ch[2] {
                    'h' => false,
                    'v' => true,
                    _ => return Err(format!("orientation in '{token}'")),
                };
                if !ch[3].is_ascii_digit() || !ch[4].is_ascii_digit() {
                    return Err(format!("anchor in '{token}'"));
                }
                let anchor = (ch[3] as usize - '0' as usize) * 10 + (ch[4] as usize - '0' as usize);
                let t = RefTile {
                    owner,
                    size,
                    vertical,
                    anchor,
                };
                let Some(cells) = t.cells() else {
                    return Err(format!("'{token}' leaves the board"));
                };
                let grid = pos.grid();
                if cells.iter().any(|&(r, c)| grid[r][c].is_some()) {
                    return Err(format!("'{token}' overlaps"));
                }
                pos.tiles.push(t);
            }
        }

        // Hands.
        let hands: Vec<&str> = fields[1].split('/').collect();
        if hands.len() != 2 {
            return Err("hands".into());
        }
        for p in [DARK, LIGHT] {
            let ch: Vec<char> = hands[p].chars().collect();
            if ch.len() != 5 || !ch.iter().all(char::is_ascii_digit) {
                return Err("hand digits".into());
            }
            for i in 0..5 {
                pos.hands[p][i] = ch[i] as u32 - '0' as u32;
                let on_board = pos
                    .tiles
                    .iter()
                    .filter(|t| t.owner == p && t.size == SIZES[i])
                    .count() as u32;
                if on_board + pos.hands[p][i] > START[i] {
                    return Err(format!("too many tiles of size {}", SIZES[i]));
                }
            }
        }

        pos.phase = match fields[3] {
            "P" => RefPhase::Placement,
            "S" => RefPhase::Scoring,
            "E" => RefPhase::Ended,
            _ => return Err("phase".into()),
        };
        pos.to_move = match fields[2] {
            "d" => DARK,
            "l" => LIGHT,
            "-" => DARK,
            _ => return Err("to-move".into()),
        };
        if (fields[2] == "-") != (pos.phase == RefPhase::Ended) {
            return Err("'-' to move exactly in E".into());
        }
        pos.passed = match fields[4] {
            "-" => [false, false],
            "d" => [true, false],
            "l" => [false, true],
            "dl" => [true, true],
            _ => return Err("passed".into()),
        };

        let pair = |f: &str| -> Result<[u32; 2], String> {
            let parts: Vec<&str> = f.split('/').collect();
            if parts.len() != 2 {
                return Err(format!("pair '{f}'"));
            }
            let mut out = [0; 2];
            for (i, part) in parts.iter().enumerate() {
                let digits_ok = !part.is_empty() && part.chars().all(|c| c.is_ascii_digit());
                if !digits_ok || (part.len() > 1 && part.starts_with('0')) || part.len() > 3 {
                    return Err(format!("number '{part}'"));
                }
                out[i] = part.parse().unwrap();
            }
            Ok(out)
        };
        pos.scores = pair(fields[5])?;
        pos.floors = pair(fields[6])?;

        if pos.floors.iter().any(|&f| f != 0 && !(3..=7).contains(&f)) {
            return Err("floor".into());
        }
        match pos.phase {
            RefPhase::Placement => {
                if pos.scores != [0, 0] || pos.floors != [0, 0] {
                    return Err("P with scores or floors".into());
                }
                if pos.passed == [true, true] {
                    return Err("P with two passes".into());
                }
            }
            RefPhase::Scoring => {
                // Only where the collision rule holds: without it (the seed's rules) both
                // counters on one cell is a reachable position, and must read back.
                if pos.rules.collision && pos.scores[0] + pos.scores[1] == 99 {
                    return Err("counters on one cell".into());
                }
            }
            RefPhase::Ended => {
                if pos.scores.iter().all(|&x| x >= 100) || pos.scores.iter().any(|&x| x > 171) {
                    return Err("E scores".into());
                }
            }
        }
        if pos.phase != RefPhase::Ended {
            if pos.scores.iter().any(|&x| x >= 100) {
                return Err("score ≥ 100 outside E".into());
            }
            if pos.passed[pos.to_move] {
                return Err("side to move has passed".into());
            }
        }
        Ok(pos)
    }
}
