//! The independent Tactigon reference (`common/tactigon_reference.rs`) checked on its own
//! against `docs/rules/tactigon.md`, so that agreement with the engine means agreement with the
//! rules: the board facts of §1, the start of §7.1 and the move counts and lines of the test
//! vectors of §8, all computed by the reference alone. Then the perft file
//! (`tests/perft/tactigon.perft`, whose engine side is `tests/games/perft.rs`) is re-checked with
//! the reference on every line up to a small node budget; the ignored
//! `reference_agrees_with_perft_file_heavy` re-checks every depth (about ten minutes).

use std::collections::{HashSet, VecDeque};
use std::path::Path;

use crate::common::tactigon_helpers as tv;
use crate::common::tactigon_reference::{
    BLUE, Cell, GOLD, RED, RefPos, RefResult, RefRules, all_cells, name, neighbours, parse_name,
};

fn reference(tfn: &str, rules: RefRules) -> RefPos {
    RefPos::from_tfn(tfn, rules).unwrap_or_else(|e| panic!("{tfn}: {e}"))
}

fn count(tfn: &str, rules: RefRules) -> usize {
    reference(tfn, rules).legal_moves().len()
}

fn dest_count(tfn: &str, rules: RefRules, from: &str) -> usize {
    reference(tfn, rules)
        .destinations(parse_name(from).unwrap())
        .len()
}

fn line(tfn: &str, rules: RefRules, moves: &[&str]) -> RefPos {
    let mut r = reference(tfn, rules);
    for m in moves {
        let rm = r.find(m).unwrap_or_else(|| panic!("{m} in {}", r.to_tfn()));
        r.play(rm);
    }
    r
}

/// Shortest path lengths from `from` in the cell graph.
fn bfs(from: Cell) -> Vec<(Cell, u32)> {
    let mut seen = vec![(from, 0)];
    let mut queue = VecDeque::from([(from, 0)]);
    while let Some((x, d)) = queue.pop_front() {
        for y in neighbours(x) {
            if !seen.iter().any(|&(c, _)| c == y) {
                seen.push((y, d + 1));
                queue.push_back((y, d + 1));
            }
        }
    }
    seen
}

#[test]
fn reference_board_matches_section_1() {
    let cells = all_cells();
    assert_eq!(cells.len(), 53);
    let per_row: Vec<usize> = (0..7)
        .map(|r| cells.iter().filter(|c| c.0 == r).count())
        .collect();
    assert_eq!(per_row, [2, 9, 10, 11, 10, 9, 2]);
    assert!(cells.iter().all(|&(r, c)| (r + c) % 2 == 1), "r + c odd");
    let degree = |d: usize| cells.iter().filter(|&&c| neighbours(c).len() == d).count();
    assert_eq!(
        (degree(6), degree(5), degree(4), degree(3)),
        (27, 4, 12, 10)
    );
    let pairs: usize = cells.iter().map(|&c| neighbours(c).len()).sum();
    assert_eq!(pairs, 260, "130 adjacent pairs");
    // The hex distance formula equals the path distance for every pair; the largest is 10.
    let mut max = 0;
    for &a in &cells {
        for (b, d) in bfs(a) {
            let dr = (a.0 as i32 - b.0 as i32).unsigned_abs();
            let dc = (a.1 as i32 - b.1 as i32).unsigned_abs();
            let formula = dr + dc.saturating_sub(dr) / 2;
            assert_eq!(d, formula, "{} {}", name(a), name(b));
            max = max.max(d);
        }
        assert_eq!(bfs(a).len(), 53, "connected");
    }
    assert_eq!(max, 10);
    let dist = |a: &str, b: &str| {
        let (a, b) = (parse_name(a).unwrap(), parse_name(b).unwrap());
        bfs(a).into_iter().find(|&(c, _)| c == b).unwrap().1
    };
    assert_eq!(dist("b10", "f10"), 4);
    assert_eq!((dist("d10", "b10"), dist("d10", "f10")), (2, 2));
    assert_eq!((dist("d4", "b10"), dist("d16", "f10")), (4, 4));
    assert_eq!((dist("d4", "d16"), dist("d0", "d20")), (6, 10));
    assert_eq!(GOLD.map(name), ["b10", "f10"]);
    // Start areas: 19 cells within distance 2 of d4 and of d16; 15 central cells.
    let area = |p: &str| {
        bfs(parse_name(p).unwrap())
            .into_iter()
            .filter(|&(_, d)| d <= 2)
            .map(|(c, _)| c)
            .collect::<HashSet<Cell>>()
    };
    let (red, blue) = (area("d4"), area("d16"));
    assert_eq!((red.len(), blue.len()), (19, 19));
    let mut central: Vec<String> = cells
        .iter()
        .filter(|c| !red.contains(c) && !blue.contains(c))
        .map(|&c| name(c))
        .collect();
    central.sort();
    let mut expected: Vec<&str> = "a9 a11 b8 b10 b12 c9 c11 d10 e9 e11 f8 f10 f12 g9 g11"
        .split(' ')
        .collect();
    expected.sort();
    assert_eq!(central, expected);
    for bad in [
        "", "a", "a10", "d21", "d01", "h1", "D4", "d-4", "b3", "d+4", "a011",
    ] {
        assert_eq!(parse_name(bad), None, "{bad}");
    }
    for &c in &cells {
        assert_eq!(parse_name(&name(c)), Some(c));
    }
}

#[test]
fn reference_matches_rules_document() {
    let base = RefRules::default();
    let a1 = RefRules {
        jumping_squares: true,
        ..base
    };
    let a2 = RefRules {
        gold_bonus: true,
        ..base
    };
    let a12 = RefRules {
        gold_bonus: true,
        ..a1
    };
    // §7.1 per piece.
    for (from, n) in [
        ("b2", 2),
        ("b6", 3),
        ("f2", 2),
        ("f6", 3),
        ("d0", 2),
        ("d8", 5),
        ("d2", 2),
        ("c5", 8),
        ("e5", 8),
        ("c3", 2),
        ("e3", 2),
        ("d6", 19),
        ("d4", 0),
    ] {
        assert_eq!(dest_count(tv::TV1, base, from), n, "{from}");
    }
    for (tfn, rules, n) in [
        (tv::TV1, base, 58),
        (tv::TV2, base, 58),
        (tv::TV4_AFTER, base, 46),
        (tv::TV5, base, 40),
        (tv::TV5_AFTER, base, 35),
        (tv::TV6, base, 62),
        (tv::TWO_PENTAGONS_B1, base, 37),
        (tv::TV7, base, 69),
        (tv::TV8, base, 68),
        (tv::TV10, base, 54),
        (tv::TV13_AFTER, base, 37),
        (tv::TV14, base, 53),
        (tv::TV15, base, 0),
        (tv::TV17, base, 0),
        (tv::TV18, base, 50),
        (tv::TV19_1, base, 55),
        (tv::TV19_2, base, 87),
        (tv::MAX_MOVES, base, 219),
        (tv::TV1, a1, 87),
        (tv::TV1, a12, 87),
        (tv::TV20_CIRCLES, base, 33),
        (tv::TV20_CIRCLES, a1, 56),
        (tv::TV20_GOLD, base, 42),
        (tv::TV20_GOLD, a2, 49),
    ] {
        assert_eq!(count(tfn, rules), n, "{tfn} {rules:?}");
    }
    for (tfn, rules, from, n) in [
        (tv::TV2, base, "d14", 19),
        (tv::TV6, base, "c9", 27),
        (tv::TV8, base, "d6", 34),
        (tv::TV9, base, "d10", 47),
        (tv::TV10, base, "d0", 0),
        (tv::TV10, base, "c1", 3),
        (tv::TV10, a1, "d0", 15),
        (tv::TV11, base, "d0", 1),
        (tv::TV12, base, "d10", 52),
        (tv::TV18, base, "c9", 20),
        (tv::TV1, a1, "d6", 24),
        (tv::TV1, a1, "c3", 14),
        (tv::TV1, a1, "e3", 14),
        (tv::TV20_SQUARES, a1, "a9", 3),
        (tv::TV20_CIRCLES, base, "a9", 0),
        (tv::TV20_CIRCLES, a1, "a9", 23),
        (tv::TV20_GOLD, base, "b10", 6),
        (tv::TV20_GOLD, a2, "b10", 13),
    ] {
        assert_eq!(dest_count(tfn, rules, from), n, "{tfn} {from} {rules:?}");
    }
    // Lines and their ends.
    assert_eq!(line(tv::TV1, base, &["d6-c13"]).to_tfn(), tv::TV4_AFTER);
    assert_eq!(line(tv::TV5, base, &["d10-d12"]).to_tfn(), tv::TV5_AFTER);
    assert_eq!(
        line(tv::TV6, base, &["c9-c11"]).to_tfn(),
        tv::TWO_PENTAGONS_B1
    );
    assert_eq!(
        line(tv::TV7, base, &["d6-e11"]).to_tfn(),
        tv::TWO_PENTAGONS_B1
    );
    assert_eq!(
        line(tv::TV9, base, &["d10-d14"]).status(),
        Some(RefResult::Win(RED, "pentagon"))
    );
    assert_eq!(count(&line(tv::TV10, base, &["c1-d2"]).to_tfn(), base), 23);
    let r = line(tv::TV13, base, &["e9-f10"]);
    assert_eq!((r.to_tfn().as_str(), r.status()), (tv::TV13_AFTER, None));
    let r = line(tv::TV13, base, &["e9-f10", "d20-d18"]);
    assert_eq!(r.to_tfn(), tv::TV13_END);
    assert_eq!(r.status(), Some(RefResult::Win(RED, "gold")));
    let r = line(tv::TV14, base, &["f14-f10"]);
    assert_eq!((r.status(), r.legal_moves().len()), (None, 42));
    let r = line(tv::TV14, base, &["f14-f12"]);
    assert_eq!(r.status(), Some(RefResult::Win(RED, "gold")));
    assert_eq!(
        reference(tv::TV15, base).status(),
        Some(RefResult::Win(RED, "gold"))
    );
    let r = line(tv::TV16, base, &["d10-d8"]);
    assert_eq!(r.status(), Some(RefResult::Win(BLUE, "pentagon")));
    let draw = RefRules {
        no_move_draw: true,
        ..base
    };
    assert_eq!(
        reference(tv::TV17, base).status(),
        Some(RefResult::Win(BLUE, "no moves"))
    );
    assert_eq!(
        reference(tv::TV17, draw).status(),
        Some(RefResult::Draw("no moves"))
    );
    let r = line(tv::TV18, base, &["c9-c11"]);
    assert_eq!(r.legal_moves().len(), 72);
    let r = line(tv::TV1, base, &["d6-c11", "d14-b12", "c11-d16"]);
    assert_eq!(r.to_tfn(), tv::TV19_END);
    assert_eq!(r.status(), Some(RefResult::Win(RED, "pentagon")));
}

/// Rules for a perft line's options, read here without the engine's option code.
fn rules_for(options: &str) -> RefRules {
    let mut rules = RefRules::default();
    for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match item.split_once('=').unwrap() {
            ("Tactigon_JumpingSquares", v) => rules.jumping_squares = v == "true",
            ("Tactigon_GoldBonus", v) => rules.gold_bonus = v == "true",
            ("Tactigon_Repetition", v) => rules.repetition = v == "true",
            ("Tactigon_NoMoveResult", v) => rules.no_move_draw = v == "draw",
            ("Tactigon_PlyCap", v) => rules.ply_cap = v.parse().unwrap(),
            _ => panic!("unknown option {item}"),
        }
    }
    rules
}

/// Checks every line of the perft file with the reference, up to `budget` nodes per depth
/// (depth 1 always); returns the number of lines and of depths checked.
fn check_perft_file(budget: u64) -> (usize, usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/tactigon.perft");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut lines, mut depths) = (0, 0);
    for raw in text.lines() {
        let content = raw.split('#').next().unwrap().trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split(';').map(str::trim).collect();
        let [game, options, tfn, counts] = fields[..] else {
            panic!("bad line {raw}");
        };
        assert_eq!(game, "tactigon");
        let r = reference(tfn, rules_for(options));
        for (d, c) in counts.split_whitespace().enumerate() {
            let expected: u64 = c.parse().unwrap();
            if expected > budget && d > 0 {
                break;
            }
            assert_eq!(
                r.perft(d as u32 + 1),
                expected,
                "{tfn} ({options}) d{}",
                d + 1
            );
            depths += 1;
        }
        lines += 1;
    }
    (lines, depths)
}

#[test]
fn reference_agrees_with_perft_file() {
    let (lines, depths) = check_perft_file(100_000);
    assert_eq!(lines, 40);
    eprintln!("{lines} lines, {depths} depths checked");
    assert!(depths >= 80, "{depths} depths checked");
}

/// Every depth of the perft file with the reference (minutes).
#[test]
#[ignore = "heavy: every depth of tactigon.perft with the naive reference"]
fn reference_agrees_with_perft_file_heavy() {
    check_perft_file(u64::MAX);
}
