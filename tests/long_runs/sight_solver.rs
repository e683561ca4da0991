//! The Sight solver (`ludus::solve`, `ludus solve`): its board plays exactly the game's rules,
//! its proofs agree with a brute-force solver on random positions, it re-solves the small
//! boards of docs/rules/sight.md TV16 (3×3 won for the first player only with b2, 4×4 lost)
//! under both rule variants, and the command splits, resumes and merges a solve and refuses
//! what it cannot take.

use crate::common::{run_ludus, run_ludus_capped, sparse_file};

use std::collections::HashMap;

use crate::common::sight_helpers::{VARIANTS, move_names, random_walk, variant};
use crate::common::solver::plies_to_end;
use ludus::game::Game;
use ludus::game::sight::{Sight, SightSettings};
use ludus::solve::board::{Board, Lines};
use ludus::solve::frontier::{Top, frontier};
use ludus::solve::prover::Prover;
use ludus::solve::results::move_name;
use ludus::solve::symmetry::Symmetries;
use ludus::solve::table::ProofTable;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn start(size: usize, strict: bool) -> Sight {
    Sight::start(&SightSettings {
        size,
        strict_tallest: strict,
    })
}

/// Random games on every solver size under both variants, the solver's board beside the
/// game's: the same moves in the same order, the same position after each, the same end.
#[test]
fn the_solver_board_plays_the_games_rules() {
    let mut rng = SmallRng::seed_from_u64(16);
    let mut plies = 0;
    for size in [2, 3, 4, 5] {
        let lines = Lines::new(size).expect("a solver size");
        for strict in VARIANTS {
            for _ in 0..150 {
                let mut pos = start(size, strict);
                let mut board = Board::from_sight(&pos).expect("the empty board");
                let mut moves = Vec::new();
                loop {
                    board.moves(&lines, &mut moves);
                    let names: Vec<String> = moves.iter().map(|&m| move_name(size, m)).collect();
                    assert_eq!(names, move_names(&pos), "{}", pos.to_fen());
                    assert_eq!(board.move_count(&lines) as usize, moves.len());
                    assert_eq!(board.to_fen(size), pos.to_fen());
                    if moves.is_empty() {
                        assert!(pos.outcome().is_some());
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    board = board.play(&lines, m);
                    pos.try_play_str(&move_name(size, m)).expect("a legal move");
                    plies += 1;
                }
            }
        }
    }
    assert!(plies > 10_000, "{plies} plies played");
}

/// Random 4×4 positions 6–9 plies deep and 5×5 positions 16–18 plies deep: the prover's
/// result equals a brute-force search's, and its move does what it says.
#[test]
fn proofs_agree_with_brute_force_on_random_positions() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut checked = 0;
    for (size, depths) in [(4, 6..10), (5, 16..19)] {
        let lines = Lines::new(size).expect("a solver size");
        let syms = Symmetries::new(&lines);
        for strict in VARIANTS {
            let mut table = ProofTable::new(16).expect("16 MiB");
            for _ in 0..40 {
                let depth = rng.random_range(depths.clone());
                let pos = random_walk(start(size, strict), depth, &mut rng);
                if pos.outcome().is_some() {
                    continue;
                }
                let board = Board::from_sight(&pos).expect("a solver position");
                let proven = Prover::new(&lines, &syms, &mut table).prove(&board);
                let truth = plies_to_end(&pos, &mut HashMap::new());
                assert_eq!(
                    proven.win,
                    truth > 0,
                    "{} {}",
                    pos.to_fen(),
                    variant(strict)
                );
                // The move played: a win leaves the opponent lost, a loss resists at least as
                // long as the brute force's longest loss does not exceed.
                let best = proven.best.expect("a move in a game in progress");
                let mut child = pos.clone();
                child
                    .try_play_str(&move_name(size, best))
                    .expect("a legal move");
                if proven.win {
                    let lost =
                        child.outcome().is_some() || plies_to_end(&child, &mut HashMap::new()) < 0;
                    assert!(lost, "{}: {best:?} does not win", pos.to_fen());
                }
                assert!(
                    proven.dist as i32 >= truth.abs(),
                    "{}: {proven:?}, truth {truth}",
                    pos.to_fen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked} positions checked");
}

/// The value of every first move of the empty board of side `size`: the winning ones.
fn winning_first_moves(size: usize, strict: bool) -> (bool, Vec<String>) {
    let lines = Lines::new(size).expect("a solver size");
    let syms = Symmetries::new(&lines);
    let root = Board::empty(strict);
    let mut table = ProofTable::new(64).expect("64 MiB");
    let mut results = HashMap::new();
    for (key, b) in frontier(&root, 2, &lines, &syms) {
        results.insert(key, Prover::new(&lines, &syms, &mut table).prove(&b));
    }
    let top = Top {
        lines: &lines,
        syms: &syms,
        results: &results,
        plies: 2,
    };
    let value = top.root(&root).expect("every frontier position proven");
    let wins = value
        .moves
        .iter()
        .filter(|(_, p)| p.win)
        .map(|(m, _)| move_name(size, *m))
        .collect();
    (value.proven.win, wins)
}

#[test]
fn the_small_boards_are_re_solved_with_the_known_results() {
    for strict in VARIANTS {
        assert_eq!(
            winning_first_moves(3, strict),
            (true, vec!["b2".to_string()]),
            "3×3 {}",
            variant(strict)
        );
        assert_eq!(
            winning_first_moves(4, strict),
            (false, vec![]),
            "4×4 {}",
            variant(strict)
        );
    }
}

#[test]
fn a_solve_splits_into_shards_resumes_and_merges() {
    let dir = std::env::temp_dir().join(format!("ludus-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (a, b) = (file("a.txt"), file("b.txt"));
    let shard = |k: &str, path: &str| {
        run_ludus(&[
            "solve",
            "--size",
            "4",
            "--hash",
            "16",
            "--shard",
            k,
            "--results",
            path,
        ])
    };
    let (status, out, _) = shard("1/2", &a);
    assert_eq!(status, 0);
    assert!(
        out.contains("66 positions, shard 1/2: 33, 0 already proven, 33 to prove"),
        "{out}"
    );
    assert!(out.ends_with("33 of 66 frontier positions proven here; put the shards together with `ludus solve merge FILES…`\n"), "{out}");
    // Merging one shard alone is refused: half the frontier has no result.
    let (status, _, err) = run_ludus(&["solve", "merge", &a]);
    assert_eq!(status, 2);
    assert!(
        err.contains("33 of 66 frontier positions have no result"),
        "{err}"
    );
    // A rerun proves nothing again.
    let (status, out, _) = shard("1/2", &a);
    assert_eq!(status, 0);
    assert!(out.contains("33 already proven, 0 to prove"), "{out}");
    assert_eq!(shard("2/2", &b).0, 0);
    let (status, out, _) = run_ludus(&["solve", "merge", &a, &b]);
    assert_eq!(status, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("result 4:x4/x4/x4/x4 w: Black wins (White to move);"),
        "{out}"
    );
    assert_eq!(lines[1], "winning moves: none");
    // The whole solve in one run says the same.
    let (_, whole, _) = run_ludus(&["solve", "--size", "4", "--hash", "16"]);
    assert!(
        whole.contains("result 4:x4/x4/x4/x4 w: Black wins (White to move);"),
        "{whole}"
    );
    // Results of another solve are refused, as is a file of that solve for this one.
    let c = file("c.txt");
    assert_eq!(
        run_ludus(&["solve", "--size", "3", "--hash", "16", "--results", &c]).0,
        0
    );
    let (status, _, err) = run_ludus(&["solve", "merge", &a, &c]);
    assert_eq!(status, 2);
    assert!(err.contains("results of another solve"), "{err}");
    let (status, _, err) = run_ludus(&["solve", "--size", "4", "--results", &c]);
    assert_eq!(status, 2);
    assert!(err.contains("results of another solve"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 57 F6: a results file is read one line at a time, a line at most 64 KiB: a sparse
/// 3 GiB file is refused at its first line, and one with a results header followed by 3 GiB
/// of zeros at its third, under a 2 GiB address space (the header was once read by taking
/// the whole file, the lines by reading the zeros as one line: both aborted).
#[test]
fn a_results_file_of_other_bytes_is_refused_at_its_first_long_line() {
    let dir = std::env::temp_dir().join(format!("ludus-solve-sparse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let results = file("results.txt");
    let solve = [
        "solve",
        "--size",
        "3",
        "--hash",
        "16",
        "--results",
        &results,
    ];
    assert_eq!(run_ludus(&solve).0, 0);
    let text = std::fs::read_to_string(&results).expect("written");
    let header: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    let (zeros, after_header) = (file("zeros.txt"), file("after-header.txt"));
    sparse_file(std::path::Path::new(&zeros), b"", 3 << 30);
    sparse_file(
        std::path::Path::new(&after_header),
        header.as_bytes(),
        3 << 30,
    );
    for path in [&zeros, &after_header] {
        let (status, out, err) = run_ludus_capped(&["solve", "merge", path], 2 << 30);
        assert_eq!(
            (status, out.as_str(), err),
            (
                Some(2),
                "",
                format!("error: {path}: a line longer than 65536 bytes\n")
            ),
            "{path}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn what_the_solver_cannot_take_is_refused() {
    for (args, says) in [
        (vec!["solve", "--size", "6"], "boards of side 2–5, not 6"),
        (vec!["--game", "isaac", "solve"], "solves Sight only"),
        (
            vec!["solve", "--fen", "7:x7/x7/x7/x7/x7/x7/x7 w"],
            "say --size 7",
        ),
        (vec!["solve", "--fen", "5:x5 w"], "--fen"),
        (
            vec!["solve", "merge", "/nonexistent/results.txt"],
            "/nonexistent/results.txt",
        ),
    ] {
        let (status, out, err) = run_ludus(&args);
        assert_eq!(status, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

#[test]
fn a_position_can_be_its_own_frontier() {
    // 4×4 after a1: Black wins with d4 (data/sight4-official.cert plays it too).
    let (status, out, err) = run_ludus(&[
        "solve",
        "--size",
        "4",
        "--hash",
        "16",
        "--frontier",
        "0",
        "--fen",
        "4:x4/x4/x4/w,x3 b",
    ]);
    assert_eq!(status, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("[1/1] 4:"), "{out}");
    assert!(
        lines[2].starts_with("result 4:x4/x4/x4/w,x3 b: Black wins (Black to move);"),
        "{out}"
    );
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[3].starts_with("the proof's move: "), "{out}");
}

/// Issue 31.8: the proof table is bounded by the machine (half its memory), and a large one
/// costs nothing until the proof fills it: a 3×3 proof with an 8 GiB table stays far below a
/// gigabyte (the peak resident memory of this binary's children: others of its tests run
/// engines beside it, none near that size).
#[test]
fn the_proof_table_is_bounded_by_the_machine_and_taken_as_used() {
    let (status, out, err) = run_ludus(&["solve", "--size", "2", "--hash", "100000000"]);
    assert_eq!(status, 2, "{out}{err}");
    assert_eq!(out, "");
    assert!(
        err.contains("more than this machine serves a proof table"),
        "{err}"
    );
    if ludus::machine::memory().is_none_or(|m| m.total_mib < 2 * 8192) {
        return; // a machine that cannot serve the 8 GiB table
    }
    let (status, out, err) = run_ludus(&["solve", "--size", "3", "--hash", "8192"]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("winning moves: b2"), "{out}");
    // SAFETY: getrusage fills the struct it is given.
    let peak_kib = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage), 0);
        usage.ru_maxrss
    };
    assert!(
        peak_kib < 1 << 20,
        "a child's peak resident memory: {peak_kib} KiB"
    );
}
