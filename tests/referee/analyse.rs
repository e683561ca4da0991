//! `ludus analyse RECORD`: every position's best move and score are those of a fresh `go`
//! at the same limits (checked position by position in all three games), moves are marked by
//! what they lost, the ending comment is kept, and a malformed record is refused with the
//! line and the reason before any search.

use ludus::game::GameId;
use ludus::game::dynamic::RuleSet;
use ludus::record::format_record;
use ludus::record::game::{GameRecord, GameResult, MoveRecord, Termination};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::common::{run_ludus, run_ludus_capped, sparse_file};

/// A record of `moves` played from the start of `game`.
fn record(game: GameId, moves: &[String], result: GameResult, detail: &str) -> String {
    format_record(&GameRecord {
        event: "test".into(),
        date: "2026.11.24".into(),
        variant: game.name().into(),
        round: 1,
        number: 1,
        p1: "one".into(),
        p2: "two".into(),
        opening: "startpos".into(),
        opening_fen: String::new(),
        time_control: "-".into(),
        moves: moves
            .iter()
            .map(|m| MoveRecord {
                text: m.clone(),
                score: None,
                depth: None,
                time_ms: 0,
                budget_ms: None,
            })
            .collect(),
        result,
        termination: Termination::MaxPlies,
        detail: detail.into(),
    })
}

/// Up to `plies` seeded random moves of `game` (fewer if it ends), and the positions before
/// each of them.
fn random_moves(game: GameId, plies: usize, seed: u64) -> (Vec<String>, Vec<String>) {
    let rules = RuleSet::new(game, &[]).expect("default rules");
    let mut pos = rules.start();
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut moves, mut fens) = (Vec::new(), Vec::new());
    while moves.len() < plies && pos.outcome().is_none() {
        let legal = pos.legal_moves();
        let m = legal[rng.random_range(0..legal.len())].clone();
        fens.push(pos.to_fen());
        pos.play(&m).expect("legal");
        moves.push(m);
    }
    (moves, fens)
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path.to_string_lossy().into_owned()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-analyse-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// The `best MOVE SCORE` of every move's comment, in order.
fn best_answers(annotated: &str) -> Vec<(String, String)> {
    annotated
        .split("best ")
        .skip(1)
        .map(|rest| {
            let mut words = rest.split(|c: char| c.is_whitespace() || c == ',' || c == '}');
            let mv = words.next().unwrap_or("").to_string();
            let score = words.find(|w| !w.is_empty()).unwrap_or("").to_string();
            (mv, score)
        })
        .collect()
}

/// What `ludus go --fen FEN LIMIT --info` answers: the move and the score as the record
/// writes it (`+35`, `-M2`).
fn fresh_go(game: GameId, fen: &str, limit: &[&str]) -> (String, String) {
    let mut args = vec!["go", "--game", game.name(), "--fen", fen, "--info"];
    args.extend_from_slice(limit);
    let (status, out, err) = run_ludus(&args);
    assert_eq!(status, 0, "{out}{err}");
    let info = out.lines().find(|l| l.starts_with("info ")).unwrap_or("");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").expect("a score");
    let n: i64 = words[at + 2].parse().expect("a number");
    let score = match words[at + 1] {
        "cp" => format!("{n:+}"),
        _ if n >= 0 => format!("+M{n}"),
        _ => format!("-M{}", -n),
    };
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or("")
        .to_string();
    (best, score)
}

#[test]
fn every_score_is_what_a_fresh_go_at_the_same_limits_says() {
    let dir = temp_dir("same");
    for (game, plies, limit) in [
        (GameId::Sight, 12, ["--depth", "3"]),
        (GameId::Isaac, 10, ["--depth", "2"]),
        (GameId::Tactigon, 10, ["--depth", "3"]),
    ] {
        let (moves, fens) = random_moves(game, plies, 7);
        let text = record(game, &moves, GameResult::Draw, "stopped at the ply limit");
        let file = write(&dir, &format!("{}.pgn", game.name()), &text);
        let (status, out, err) = run_ludus(&["analyse", &file, limit[0], limit[1]]);
        assert_eq!(status, 0, "{game:?}: {out}{err}");
        let answers = best_answers(&out);
        // One per move, and one for the final position (the game did not end there).
        assert_eq!(answers.len(), moves.len(), "{game:?}: {out}");
        for (i, fen) in fens.iter().enumerate() {
            assert_eq!(
                answers[i],
                fresh_go(game, fen, &limit),
                "{game:?}: position {} ({fen})\n{out}",
                i + 1
            );
        }
        assert!(
            out.contains(&format!("[Annotator \"ludus analyse depth {}\"]", limit[1])),
            "{out}"
        );
        assert!(out.contains("{stopped at the ply limit} 1/2-1/2"), "{out}");
        assert!(
            err.contains(&format!("{} positions searched", moves.len() + 1)),
            "{err}"
        );
        // Progress in a pipe (issue 60): what is to do, and what was done, on stderr.
        let n = moves.len() + 1;
        assert!(
            err.contains(&format!("analyse: {n} positions to do\n")),
            "{err}"
        );
        assert!(
            err.contains(&format!("analyse: {n} of {n} positions in ")),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Sight 5×5: White opens on b2 (winning, docs/solved.md), Black replies e5; then White
/// plays a1, where the book's win is e1 and the search at depth 4 proves nothing: a proven win
/// thrown away, a blunder.
#[test]
fn a_thrown_away_win_is_a_blunder() {
    let dir = temp_dir("blunder");
    let moves: Vec<String> = ["b2", "e5", "a1"].iter().map(|m| m.to_string()).collect();
    let text = record(GameId::Sight, &moves, GameResult::Draw, "");
    let file = write(&dir, "g.pgn", &text);
    let (status, out, err) = run_ludus(&["analyse", &file, "--depth", "4"]);
    assert_eq!(status, 0, "{out}{err}");
    // The book knows that b2 wins (as d4 does: no loss) and that Black is lost after it
    // whatever it plays (no mark for e5: the search chooses Black's move, d4, reported with
    // the proven score); after e5 White's win is e1, not a1.
    assert!(
        out.contains("1. b2 {+M12, best d4 +M13} e5 {-M12, best d4 -M12}\n"),
        "{out}"
    );
    let third = out.split("2. ").nth(1).unwrap_or("");
    assert!(third.starts_with("a1?? {"), "{out}");
    assert!(third.contains(", blunder}"), "{out}");
    assert!(
        out.contains("[ReviewP1 \"0 inaccuracies, 0 mistakes, 1 blunder; average loss "),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_malformed_record_is_refused_before_any_search() {
    let dir = temp_dir("bad");
    let good: Vec<String> = ["c3", "b2"].iter().map(|m| m.to_string()).collect();
    let text = record(GameId::Sight, &good, GameResult::Draw, "");
    let cases = [
        (
            text.replace("c3 {", "c3 c3 {"),
            "move 2 'c3' is not legal: c3 is occupied",
        ),
        (text.replace("b2 {", "zz {"), "move 2 'zz' is not legal"),
        (
            text.replace("[Variant \"sight\"]", "[Variant \"chess\"]"),
            "unknown Variant \"chess\"",
        ),
        (
            text.replace(
                "[PlyCount \"2\"]",
                "[PlyCount \"2\"]\n[Rules \"Sight_BoardSize=99\"]",
            ),
            "Rules: ",
        ),
        (
            text.replace("1/2-1/2\n\n", "{1/2-1/2\n\n"),
            "a comment is not closed",
        ),
        (
            text.replace("[Result \"1/2-1/2\"]", "[Result \"*\"]")
                .replace("1/2-1/2\n\n", "*\n\n"),
            "a game still in progress",
        ),
    ];
    for (i, (bad, expected)) in cases.iter().enumerate() {
        let file = write(&dir, &format!("bad{i}.pgn"), bad);
        let (status, out, err) = run_ludus(&["analyse", &file, "--depth", "2"]);
        assert_eq!(status, 2, "case {i}: {out}{err}");
        assert!(out.is_empty(), "case {i}: nothing analysed: {out}");
        assert!(err.starts_with("error: "), "case {i}: {err}");
        assert!(err.contains(expected), "case {i}: {expected}: {err}");
    }
    let (status, _, err) = run_ludus(&["analyse", "/nonexistent/game.pgn"]);
    assert_eq!(status, 2);
    assert!(err.contains("no such file"), "{err}");
    let file = write(&dir, "good.pgn", &text);
    let (status, _, err) = run_ludus(&["analyse", &file, "--number", "5"]);
    assert_eq!(status, 2);
    assert!(err.contains("no game numbered 5"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 31.5: a record written with CRLF line ends (on another system) is analysed with all
/// its moves, exactly as the same record with LF line ends.
#[test]
fn a_record_with_crlf_line_ends_is_analysed_with_all_its_moves() {
    let dir = temp_dir("crlf");
    let (moves, _) = random_moves(GameId::Sight, 8, 11);
    let text = record(GameId::Sight, &moves, GameResult::Draw, "stopped");
    let lf = write(&dir, "lf.pgn", &text);
    let crlf = write(&dir, "crlf.pgn", &text.replace('\n', "\r\n"));
    let (status, lf_out, err) = run_ludus(&["analyse", &lf, "--depth", "2"]);
    assert_eq!(status, 0, "{lf_out}{err}");
    let (status, crlf_out, err) = run_ludus(&["analyse", &crlf, "--depth", "2"]);
    assert_eq!(status, 0, "{crlf_out}{err}");
    assert!(
        err.contains(&format!("{} positions searched", moves.len() + 1)),
        "{err}"
    );
    assert_eq!(best_answers(&crlf_out).len(), moves.len(), "{crlf_out}");
    assert_eq!(best_answers(&crlf_out), best_answers(&lf_out));
    std::fs::remove_dir_all(&dir).ok();
}

/// Every move's comment, in order: the score after it and the engine's best move and score
/// before it (`{AFTER, best MOVE SCORE…}`); the ending comment is left out.
fn move_comments(annotated: &str) -> Vec<(String, String, String)> {
    let movetext = annotated.split("\n\n").nth(1).unwrap_or("");
    movetext
        .split('{')
        .skip(1)
        .filter_map(|rest| {
            let inner = rest.split('}').next()?;
            let (after, best) = inner.split_once(", best ")?;
            let mut words = best.split([' ', ',']);
            let mv = words.next()?.to_string();
            let score = words.next()?.to_string();
            Some((after.to_string(), mv, score))
        })
        .collect()
}

/// A score as the other player sees it, as the record writes it (`+35` → `-35`, `-M2` → `+M2`).
fn negated(score: &str) -> String {
    match score.split_at(1) {
        (_, "0") => score.to_string(),
        ("+", rest) => format!("-{rest}"),
        ("-", rest) => format!("+{rest}"),
        _ => panic!("not a score: {score}"),
    }
}

/// Issue 57 F9: the score after a move is turned to the mover's side by who is to move next.
/// Of the three games only Isaac has a pass and a player moving twice in a row
/// (docs/rules/isaac.md §2.5 and §4.5: after a pass the other player takes every turn; Sight and
/// Tactigon have no pass). A whole seeded Isaac game, with both phases' passes and double moves,
/// and the same game cut right after a double move of the scoring phase (so that its final
/// position, searched, has the mover to move again): every move's score after it is the next
/// move's best score, as it is when the mover moves again and negated when the other player
/// does; the cut game's last move is scored from the final position's side.
#[test]
fn a_player_moving_again_is_scored_from_the_side_to_move_next() {
    let dir = temp_dir("again");
    let game = GameId::Isaac;
    let rules = RuleSet::new(game, &[]).expect("default rules");
    let (moves, fens) = random_moves(game, 200, 3);
    let mut pos = rules.start();
    let mut sides = Vec::new();
    for m in &moves {
        sides.push(pos.side_to_move());
        pos.play(m).expect("legal");
    }
    let result = match pos.outcome() {
        Some(ludus::game::Outcome::Win(ludus::game::Player::One)) => GameResult::P1Win,
        Some(ludus::game::Outcome::Win(ludus::game::Player::Two)) => GameResult::P2Win,
        Some(ludus::game::Outcome::Draw) => GameResult::Draw,
        None => panic!("the seeded game ends within 200 plies"),
    };
    let phase = |i: usize| fens[i].split(' ').nth(3).unwrap_or("").to_string();
    let again: Vec<usize> = (1..moves.len())
        .filter(|&i| sides[i] == sides[i - 1])
        .collect();
    let passes: Vec<usize> = (0..moves.len()).filter(|&i| moves[i] == "pass").collect();
    let in_phase = |list: &[usize], p: &str| list.iter().filter(|&&i| phase(i) == p).count();
    // What the test covers: passes and double moves in both phases.
    assert!(
        in_phase(&passes, "P") == 2 && in_phase(&passes, "S") >= 1,
        "{passes:?}"
    );
    assert!(
        in_phase(&again, "P") >= 1 && in_phase(&again, "S") >= 2,
        "{again:?} {moves:?}"
    );
    let cut = *again
        .iter()
        .find(|&&i| phase(i) == "S" && i + 1 < moves.len())
        .expect("a double move of the scoring phase before the end");
    for (name, moves, result) in [
        ("whole", &moves[..], result),
        ("cut", &moves[..cut], GameResult::Draw),
    ] {
        let text = record(game, moves, result, "");
        let file = write(&dir, &format!("{name}.pgn"), &text);
        let (status, out, err) = run_ludus(&["analyse", &file, "--depth", "2"]);
        assert_eq!(status, 0, "{name}: {out}{err}");
        let comments = move_comments(&out);
        assert_eq!(comments.len(), moves.len(), "{name}: {out}");
        for i in 0..moves.len() - 1 {
            let next_best = &comments[i + 1].2;
            let expected = match sides[i + 1] == sides[i] {
                true => next_best.clone(),
                false => negated(next_best),
            };
            assert_eq!(
                comments[i].0,
                expected,
                "{name}: move {} {} (then {} to move, best {next_best})\n{out}",
                i + 1,
                moves[i],
                if sides[i + 1] == sides[i] {
                    "the mover"
                } else {
                    "the other"
                }
            );
        }
        let last = &comments[moves.len() - 1].0;
        match name {
            "whole" => assert_eq!(last, "end", "{out}"),
            _ => {
                // The final position's own score, from its side to move: the mover's.
                let (_, score) = fresh_go(game, &fens[cut], &["--depth", "2"]);
                assert_eq!(sides[cut], sides[cut - 1]);
                assert_eq!(*last, score, "the cut game's last move\n{out}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 57 F6: a record file is read one line at a time, a line at most 16 MiB. A sparse
/// 3 GiB file (within the 4 GiB a record file may have) is refused at its first line, and a
/// record of one game followed by 3 GiB of zeros at the line after the game, by `ludus
/// analyse` and by a match's `--resume` alike, under a 2 GiB address space (reading the file
/// whole aborted; the zeros were once taken for a game cut short, which a resume cut off).
#[test]
fn a_record_file_of_other_bytes_is_refused_at_its_first_long_line() {
    let dir = temp_dir("sparse");
    let moves: Vec<String> = ["c3", "b2"].iter().map(|m| m.to_string()).collect();
    let text = record(GameId::Sight, &moves, GameResult::Draw, "");
    let zeros = dir.join("zeros.pgn");
    let after_game = dir.join("after-game.pgn");
    sparse_file(&zeros, b"", 3 << 30);
    sparse_file(&after_game, text.as_bytes(), 3 << 30);
    let ludus = env!("CARGO_BIN_EXE_ludus");
    let cmd = format!("cmd={ludus}");
    for (path, line) in [(&zeros, 1), (&after_game, text.lines().count() + 1)] {
        let path = path.to_string_lossy().into_owned();
        let error = format!("{path}: line {line}: longer than 16777216 bytes: not a record file");
        let (status, out, err) = run_ludus_capped(&["analyse", &path, "--depth", "1"], 2 << 30);
        assert_eq!(
            (status, out.as_str(), err),
            (Some(2), "", format!("error: {error}\n")),
            "analyse {path}"
        );
        let args = [
            "match",
            "--game",
            "sight",
            "--engine",
            &cmd,
            "name=a",
            "--engine",
            &cmd,
            "name=b",
            "--each",
            "nodes=100",
            "--pgnout",
            &path,
            "--resume",
        ];
        let (status, out, err) = run_ludus_capped(&args, 2 << 30);
        assert_eq!(
            (status, out.as_str(), err),
            (Some(2), "", format!("ludus match: {error}\n")),
            "match --resume {path}"
        );
        assert_eq!(
            std::fs::metadata(&path).map(|m| m.len()).ok(),
            Some(3 << 30)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
