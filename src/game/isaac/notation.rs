//! Isaac FEN and move notation (docs/rules/isaac.md §9), with every position check of §9.3,
//! and the text board for `d`.

use super::tables::{CELLS, START_COUNTS, run_mask, size_index};
use super::{Isaac, IsaacMove, IsaacRules, MAX_TILES, Phase, Tile};
use crate::game::{Game, ParseError, Player};

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::new(msg))
}

/// A decimal with no sign and no leading zero ("0" itself is fine).
fn parse_decimal(s: &str) -> Option<u32> {
    let canonical = s == "0" || (!s.starts_with('0') && !s.is_empty());
    if !canonical || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 9 {
        return None;
    }
    s.parse().ok()
}

fn parse_pair(field: &str, what: &str) -> Result<[u32; 2], ParseError> {
    let parsed = field
        .split_once('/')
        .and_then(|(d, l)| Some([parse_decimal(d)?, parse_decimal(l)?]));
    parsed.ok_or_else(|| ParseError::new(format!("{what} must be D/L decimals, not '{field}'")))
}

/// Reads `<size><h|v><AA>` (the part of a tile or move after the owner or `x`).
fn parse_shape(s: &str) -> Option<(u8, bool, u8)> {
    let b = s.as_bytes();
    if b.len() != 4 || !b[0].is_ascii_digit() || !b[2].is_ascii_digit() || !b[3].is_ascii_digit() {
        return None;
    }
    let size = b[0] - b'0';
    size_index(size)?;
    let vertical = match b[1] {
        b'h' => false,
        b'v' => true,
        _ => return None,
    };
    let anchor = (b[2] - b'0') * 10 + (b[3] - b'0');
    Some((size, vertical, anchor))
}

fn parse_tiles(field: &str) -> Result<Vec<Tile>, ParseError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let mut tiles = Vec::new();
    let mut occupied = 0u128;
    for token in field.split(',') {
        let owner = match token.get(..1) {
            Some("D") => 0,
            Some("L") => 1,
            _ => return err(format!("tile '{token}' must start with D or L")),
        };
        let Some((size, vertical, anchor)) = token.get(1..).and_then(parse_shape) else {
            return err(format!(
                "tile '{token}' is not <D|L><3-7><h|v><two-digit anchor>"
            ));
        };
        let mask = run_mask(size, vertical, anchor as usize);
        if mask == 0 {
            return err(format!("tile '{token}' does not fit on the board"));
        }
        if mask & occupied != 0 {
            return err(format!("tile '{token}' overlaps another tile"));
        }
        occupied |= mask;
        tiles.push(Tile {
            owner,
            size,
            vertical,
            anchor,
        });
    }
    tiles.sort_by_key(|t| t.anchor);
    Ok(tiles)
}

fn parse_hands(field: &str) -> Result<[[u8; 5]; 2], ParseError> {
    let bad = || {
        ParseError::new(format!(
            "hands must be d3d4d5d6d7/l3l4l5l6l7 digits, not '{field}'"
        ))
    };
    let (d, l) = field.split_once('/').ok_or_else(bad)?;
    let mut hands = [[0u8; 5]; 2];
    for (p, text) in [d, l].iter().enumerate() {
        if text.len() != 5 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        for (si, b) in text.bytes().enumerate() {
            hands[p][si] = b - b'0';
        }
    }
    Ok(hands)
}

/// Reads an Isaac FEN and checks it (docs/rules/isaac.md §9.3).
pub fn parse_position(s: &str, rules: IsaacRules) -> Result<Isaac, ParseError> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    let [tiles, hands, to_move, phase, passed, scores, floors] = fields.as_slice() else {
        return err(format!(
            "expected 7 fields '<tiles> <hands> <to-move> <phase> <passed> <scores> <floors>', got {}",
            fields.len()
        ));
    };
    let tiles = parse_tiles(tiles)?;
    let hands = parse_hands(hands)?;
    let phase = match *phase {
        "P" => Phase::Placement,
        "S" => Phase::Scoring,
        "E" => Phase::Ended,
        other => return err(format!("phase must be P, S or E, not '{other}'")),
    };
    let side = match (*to_move, phase) {
        ("d", Phase::Placement | Phase::Scoring) => Player::One,
        ("l", Phase::Placement | Phase::Scoring) => Player::Two,
        ("-", Phase::Ended) => Player::One,
        ("-", _) => return err("'-' as the side to move is only for a finished game (phase E)"),
        ("d" | "l", Phase::Ended) => return err("a finished game (phase E) has '-' to move"),
        (other, _) => return err(format!("side to move must be d, l or -, not '{other}'")),
    };
    let passed = match *passed {
        "-" => [false, false],
        "d" => [true, false],
        "l" => [false, true],
        "dl" => [true, true],
        other => return err(format!("passed must be -, d, l or dl, not '{other}'")),
    };
    let scores = parse_pair(scores, "scores")?;
    let floors = parse_pair(floors, "floors")?;
    if floors.iter().any(|&f| f != 0 && !(3..=7).contains(&f)) {
        return err(format!(
            "floors must be 0 or 3 to 7, not {}/{}",
            floors[0], floors[1]
        ));
    }
    for (p, hand) in hands.iter().enumerate() {
        for (si, &start) in START_COUNTS.iter().enumerate() {
            let size = si as u8 + 3;
            let on_board = tiles
                .iter()
                .filter(|t| t.owner as usize == p && t.size == size)
                .count();
            if on_board + hand[si] as usize > start as usize {
                let who = if p == 0 { "Dark" } else { "Light" };
                return err(format!("{who} has more than {start} tiles of size {size}"));
            }
        }
    }
    if phase == Phase::Placement {
        if scores != [0, 0] || floors != [0, 0] {
            return err("in the placement phase scores and floors are 0/0");
        }
        if passed == [true, true] {
            return err("both players passed: the placement phase is over");
        }
    }
    if phase != Phase::Ended {
        if scores.iter().any(|&s| s >= 100) {
            return err("a score of 100 or more ends the game (phase E)");
        }
        if passed[side.index()] {
            return err("the side to move has passed (or is out)");
        }
    } else if scores.iter().all(|&s| s >= 100) || scores.iter().any(|&s| s > 99 + 72) {
        return err("scores out of reach: at most one player reaches 100, at most 171");
    }
    // Under the collision rule two counters never share a cell; without it (the seed's
    // behaviour) they may, so the check of docs/rules/isaac.md §9.3 follows the rule.
    if rules.collision && phase == Phase::Scoring && scores[0] + scores[1] == 99 {
        return err("both counters on one cell (the scores add up to 99)");
    }
    let mut pos = Isaac::new(rules);
    pos.tiles[..tiles.len()].copy_from_slice(&tiles[..tiles.len().min(MAX_TILES)]);
    pos.count = tiles.len() as u8;
    pos.occupied = tiles.iter().fold(0, |m, t| m | t.mask());
    pos.hands = hands;
    pos.side = side;
    pos.phase = phase;
    pos.passed = passed;
    pos.scores = [scores[0] as u8, scores[1] as u8];
    pos.floors = [floors[0] as u8, floors[1] as u8];
    pos.hash = pos.hash_from_scratch();
    Ok(pos)
}

/// Writes the canonical FEN.
pub fn write_position(p: &Isaac) -> String {
    let tiles = if p.tiles().is_empty() {
        "-".to_string()
    } else {
        let texts: Vec<String> = p
            .tiles()
            .iter()
            .map(|t| {
                format!(
                    "{}{}",
                    if t.owner == 0 { 'D' } else { 'L' },
                    shape(t.size, t.vertical, t.anchor)
                )
            })
            .collect();
        texts.join(",")
    };
    let hand = |h: [u8; 5]| h.iter().map(|n| n.to_string()).collect::<String>();
    let to_move = match (p.phase(), p.side_to_move()) {
        (Phase::Ended, _) => "-",
        (_, Player::One) => "d",
        (_, Player::Two) => "l",
    };
    let phase = match p.phase() {
        Phase::Placement => "P",
        Phase::Scoring => "S",
        Phase::Ended => "E",
    };
    let passed = match (p.has_passed(Player::One), p.has_passed(Player::Two)) {
        (false, false) => "-",
        (true, false) => "d",
        (false, true) => "l",
        (true, true) => "dl",
    };
    format!(
        "{tiles} {}/{} {to_move} {phase} {passed} {}/{} {}/{}",
        hand(p.hand(Player::One)),
        hand(p.hand(Player::Two)),
        p.score(Player::One),
        p.score(Player::Two),
        p.floor(Player::One),
        p.floor(Player::Two)
    )
}

fn shape(size: u8, vertical: bool, anchor: u8) -> String {
    format!("{size}{}{anchor:02}", if vertical { 'v' } else { 'h' })
}

/// Reads `7h00`, `x4h23+24` or `pass`.
pub fn parse_move(s: &str) -> Result<IsaacMove, ParseError> {
    if s == "pass" {
        return Ok(IsaacMove::Pass);
    }
    if let Some(rest) = s.strip_prefix('x') {
        let parsed = rest.split_once('+').and_then(|(tile, k)| {
            let (size, vertical, anchor) = parse_shape(tile)?;
            let k = parse_decimal(k).filter(|&k| k <= 255)? as u8;
            Some(IsaacMove::Remove {
                size,
                vertical,
                anchor,
                k,
            })
        });
        return parsed.ok_or_else(|| {
            ParseError::new(format!("'{s}' is not a removal x<size><h|v><AA>+<steps>"))
        });
    }
    match parse_shape(s) {
        Some((size, vertical, anchor)) => Ok(IsaacMove::Place {
            size,
            vertical,
            anchor,
        }),
        None => err(format!(
            "'{s}' is not a move: <size><h|v><AA>, x<size><h|v><AA>+<k> or pass"
        )),
    }
}

/// Writes a move in canonical notation.
pub fn write_move(m: IsaacMove) -> String {
    match m {
        IsaacMove::Place {
            size,
            vertical,
            anchor,
        } => shape(size, vertical, anchor),
        IsaacMove::Remove {
            size,
            vertical,
            anchor,
            k,
        } => format!("x{}+{k}", shape(size, vertical, anchor)),
        IsaacMove::Pass => "pass".to_string(),
    }
}

/// How the text board joins a cell to its tile's next cell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Join {
    /// The last cell of a tile, or no tile.
    None,
    /// The next cell is to the right (`D4---D4`).
    Right,
    /// The next cell is below (`D3|`).
    Down,
}

/// The width of a cell on the text board: a tile's owner and size, a counter, a join.
const FIELD: usize = 5;

/// The board as Dark sees it, with Dark's coordinates (rows `r`, columns `c`, left and bottom)
/// and Light's (right and top); counters are marked `d` and `l` after the cell's tile. The cells
/// of one tile are joined (`D4---D4---D4` across, `D3|` over the cell below), so that two tiles
/// of one owner side by side are told apart.
pub fn render(p: &Isaac) -> String {
    let mut cell_text = vec![" .".to_string(); CELLS];
    let mut joins = [Join::None; CELLS];
    for t in p.tiles() {
        let owner = if t.owner == 0 { 'D' } else { 'L' };
        let mut mask = t.mask();
        while mask != 0 {
            let cell = mask.trailing_zeros() as usize;
            cell_text[cell] = format!("{owner}{}", t.size);
            mask &= mask - 1;
            // Rows are drawn top (row 9) to bottom: a vertical tile's cells above its anchor
            // join the cell below; a horizontal tile's cells but its last join the next.
            joins[cell] = match (t.vertical, cell == t.anchor as usize, mask != 0) {
                (true, false, _) => Join::Down,
                (false, _, true) => Join::Right,
                _ => Join::None,
            };
        }
    }
    if p.phase() != Phase::Placement {
        for (player, mark) in [(Player::One, 'd'), (Player::Two, 'l')] {
            if let Some(c) = p.counter_cell(player) {
                cell_text[c].push(mark);
            }
        }
    }
    let field = |cell: usize| {
        let text = &cell_text[cell];
        let fill = FIELD.saturating_sub(text.len()).max(1);
        match joins[cell] {
            Join::Right => format!("{text}{}", "-".repeat(fill)),
            Join::Down => format!("{text}|{}", " ".repeat(fill - 1)),
            Join::None => format!("{text}{}", " ".repeat(fill)),
        }
    };
    let axis = |letter: char, number: &dyn Fn(usize) -> usize| -> String {
        let labels: String = (0..10)
            .map(|c| format!("{letter}{:<w$}", number(c), w = FIELD - 1))
            .collect();
        format!("     {}", labels.trim_end())
    };
    let mut out = axis('l', &|c| 9 - c);
    out.push_str("     (Light's columns)\n");
    for r in (0..10).rev() {
        let row: String = (0..10).map(|c| field(10 * r + c)).collect();
        out.push_str(&format!(" r{r}  {row} l{}\n", 9 - r));
    }
    out.push_str(&axis('c', &|c| c));
    out.push_str("     (Dark's columns)\n");
    let phase = match p.phase() {
        Phase::Placement => "placement",
        Phase::Scoring => "scoring",
        Phase::Ended => "ended",
    };
    let to_move = match (p.phase(), p.side_to_move()) {
        (Phase::Ended, _) => "nobody (game over)",
        (_, Player::One) => "Dark (d)",
        (_, Player::Two) => "Light (l)",
    };
    out.push_str(&format!(
        "Phase: {phase}   To move: {to_move}   Cell = 10·row + column\n\
         Tiles: cells joined by --- (across) or by | (to the cell below)\n"
    ));
    let passed_word = if p.phase() == Phase::Placement {
        "passed"
    } else {
        "out"
    };
    for (player, name) in [(Player::One, "Dark"), (Player::Two, "Light")] {
        let hand: String = p.hand(player).iter().map(|n| n.to_string()).collect();
        let counter = match (p.phase(), p.counter_cell(player)) {
            (Phase::Placement, _) => String::new(),
            (_, Some(c)) => format!(", counter on {c:02}"),
            (_, None) => ", counter off board".to_string(),
        };
        // At most 76 columns: "Light: score 100, counter off board, floor 10, hand 54321
        // (65 cells), passed".
        out.push_str(&format!(
            "{name:<5}: score {}{counter}, floor {}, hand {hand} ({} cells){}\n",
            p.score(player),
            p.floor(player),
            p.unplaced_cells(player),
            if p.has_passed(player) {
                format!(", {passed_word}")
            } else {
                String::new()
            },
        ));
    }
    out.push_str(&format!(
        "Fen: {}\nKey: {:016X}",
        write_position(p),
        p.hash()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_of_one_owner_side_by_side_are_drawn_apart() {
        // 3h00 and 3h03 touch in row 0; 3v06 and 3v36 in column 6; Dark's counter on cell 14
        // (a tile's), Light's on 19 (an empty cell).
        let fen = "D3h00,D3h03,D3v06,D3v36,L3h13 00000/00000 d S - 14/80 0/0";
        let pos = parse_position(fen, IsaacRules::default()).unwrap_or_else(|e| panic!("{e}"));
        let board = render(&pos);
        let row = |r: &str| board.lines().find(|l| l.starts_with(r)).unwrap_or("");
        assert_eq!(
            row(" r3 "),
            " r3   .    .    .    .    .    .   D3    .    .    .    l6"
        );
        assert_eq!(
            row(" r2 "),
            " r2   .    .    .    .    .    .   D3|   .    .    .    l7"
        );
        assert_eq!(
            row(" r1 "),
            " r1   .    .    .   L3---L3d--L3   D3|   .    .    .l   l8"
        );
        assert_eq!(
            row(" r0 "),
            " r0  D3---D3---D3   D3---D3---D3   D3    .    .    .    l9"
        );
        assert!(board.lines().all(|l| l.chars().count() <= 80), "{board}");
    }
}
