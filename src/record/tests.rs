//! Tests of writing and reading record files.

use super::read::parse_records;
use super::*;
use crate::client::ReportedScore;
use crate::record::game::{GameResult, GameSummary, MoveRecord, Termination};

fn summaries(recovered: &Recovered) -> Vec<GameSummary> {
    recovered.games.iter().map(|g| g.summary.clone()).collect()
}

fn game(number: u64, p1: &str, p2: &str, plies: usize, detail: &str) -> GameRecord {
    let moves = (0..plies)
        .map(|i| MoveRecord {
            text: format!("m{i}"),
            score: match i % 3 {
                0 => Some(ReportedScore::Cp(35 - i as i32 * 10)),
                1 => Some(ReportedScore::Mate(-2)),
                _ => None,
            },
            depth: (i % 4 != 3).then_some(i as u32 + 1),
            time_ms: 101 + 1000 * i as u64,
            budget_ms: (i % 5 != 4).then_some(10_000 - 100 * i as u64),
        })
        .collect();
    GameRecord {
        event: "ludus match".into(),
        date: "2026.11.21".into(),
        variant: "sight".into(),
        round: number.div_ceil(2) as u32,
        number,
        p1: p1.into(),
        p2: p2.into(),
        opening: "startpos moves c3".into(),
        opening_fen: "5:x5/x5/x2,w,x2/x5/x5 b".into(),
        time_control: "10+0.1".into(),
        moves,
        result: [GameResult::P1Win, GameResult::Draw, GameResult::P2Win][number as usize % 3],
        termination: Termination::ALL[number as usize % 9],
        detail: detail.into(),
    }
}

fn three_games() -> Vec<GameRecord> {
    vec![
        game(1, "new", "old", 3, "Player two has no legal move"),
        game(2, "old", "new", 0, ""),
        game(
            3,
            "nëw \"β\"",
            "old\\x",
            37,
            "A {long} detail: engine \"nëw\" sent a move that is not legal here, and then \
             it crashed, twice",
        ),
    ]
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ludus-record-{}-{name}", std::process::id()))
}

#[test]
fn formats_the_documented_block() {
    let mut rec = game(1, "new", "old", 3, "Player two has no legal move");
    rec.termination = Termination::Rules;
    rec.result = GameResult::P1Win;
    for (m, (text, score, depth, ms, budget)) in rec.moves.iter_mut().zip([
        ("c3", ReportedScore::Cp(35), 7, 101, Some(10_000)),
        ("b2", ReportedScore::Cp(-20), 6, 98, Some(10_000)),
        ("d4", ReportedScore::Mate(3), 9, 250, None),
    ]) {
        *m = MoveRecord {
            text: text.into(),
            score: Some(score),
            depth: Some(depth),
            time_ms: ms,
            budget_ms: budget,
        };
    }
    let expected = "[Event \"ludus match\"]\n[Date \"2026.11.21\"]\n[Round \"1\"]\n\
        [Game \"1\"]\n[Variant \"sight\"]\n[P1 \"new\"]\n[P2 \"old\"]\n\
        [Opening \"startpos moves c3\"]\n[OpeningFEN \"5:x5/x5/x2,w,x2/x5/x5 b\"]\n\
        [TimeControl \"10+0.1\"]\n[Result \"1-0\"]\n[Termination \"rules\"]\n\
        [PlyCount \"3\"]\n\n1. c3 {+35/7 0.101s of 10.000s} b2 {-20/6 0.098s of 10.000s}\n\
        2. d4 {+M3/9 0.250s} {Player two has no legal move} 1-0\n\n";
    assert_eq!(format_record(&rec), expected);
}

#[test]
fn round_trips_summaries_and_wraps_lines() {
    let games = three_games();
    let text: String = games.iter().map(format_record).collect();
    let recovered = parse_records(text.as_bytes()).expect("valid file");
    let summaries_written: Vec<GameSummary> = games.iter().map(GameRecord::summary).collect();
    assert_eq!(summaries(&recovered), summaries_written);
    assert_eq!(recovered.complete_len, text.len() as u64);
    assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
    assert!(text.contains("19. m36 {-325/37 36.101s of 6.400s} {A (long) detail:"));
    assert!(text.contains(
        "2. m2 {?/3 2.101s of 9.800s} m3 {+5/? 3.101s of 9.700s} 3. m4 {-M2/5 4.101s}\n"
    ));
}

#[test]
fn escapes_quotes_in_tags_and_braces_in_the_detail() {
    let mut rec = game(7, "say \"hi\" \\o/", "old", 1, "bad {move} }{");
    rec.opening = "line\nbreak".into();
    let text = format_record(&rec);
    assert!(text.contains("[P1 \"say \\\"hi\\\" \\\\o/\"]\n"), "{text}");
    assert!(text.contains("[Opening \"line break\"]\n"), "{text}");
    assert!(text.contains("{bad (move) )(} 1/2-1/2\n\n"), "{text}");
    let recovered = parse_records(text.as_bytes()).expect("valid block");
    assert_eq!(summaries(&recovered), vec![rec.summary()]);
}

#[test]
fn a_file_cut_at_any_byte_yields_exactly_the_games_written_whole() {
    let games = three_games();
    let blocks: Vec<String> = games.iter().map(format_record).collect();
    let text = blocks.concat();
    let ends: Vec<usize> = blocks
        .iter()
        .scan(0, |end, b| {
            *end += b.len();
            Some(*end)
        })
        .collect();
    for cut in 0..=text.len() {
        let recovered =
            parse_records(&text.as_bytes()[..cut]).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let whole = ends.iter().filter(|&&end| end <= cut).count();
        let expected: Vec<GameSummary> = games[..whole].iter().map(|g| g.summary()).collect();
        assert_eq!(summaries(&recovered), expected, "cut at {cut}");
        let len = if whole == 0 { 0 } else { ends[whole - 1] };
        assert_eq!(recovered.complete_len, len as u64, "cut at {cut}");
    }
}

#[test]
fn malformed_complete_blocks_are_errors_naming_the_line() {
    let good = format_record(&game(3, "new", "old", 2, "done"));
    let wrong_result = good.replace("1-0\n\n", "0-1\n\n");
    let no_plies = good.replace("[PlyCount \"2\"]\n", "");
    let bad_tag = good.replace("[Variant \"sight\"]", "[Variant sight]");
    let open_comment = good.replace("{done} ", "{done ");
    for (text, message) in [
        (
            wrong_result,
            "line 31: the movetext ends with 0-1, not the result 1-0",
        ),
        (no_plies, "line 17: the game has no PlyCount tag"),
        (bad_tag, "line 21: expected a tag"),
        (open_comment, "line 31: a comment is not closed"),
    ] {
        let text = format!("{good}{text}");
        let err = parse_records(text.as_bytes()).expect_err("malformed");
        assert!(err.starts_with(message), "{err}");
    }
}

#[test]
fn appends_reads_back_and_drops_a_cut_short_tail() {
    let path = temp("append");
    let _ = std::fs::remove_file(&path);
    assert_eq!(read_records(&path), Ok(Recovered::default()));
    truncate(&path, 0).expect("missing file cut to 0");
    let games = three_games();
    let tags = vec![
        ("Seed".to_string(), "7".to_string()),
        ("Engine1".to_string(), "name=\"x\" cmd='/a b'".to_string()),
    ];
    let mut file = RecordFile::open(&path, tags.clone()).expect("create");
    file.append(&games[0]).expect("append");
    file.append(&games[1]).expect("append");
    drop(file);
    let whole = std::fs::metadata(&path).expect("exists").len();
    let partial = format_record(&games[2]);
    let mut raw = OpenOptions::new().append(true).open(&path).expect("open");
    raw.write_all(&partial.as_bytes()[..200]).expect("write");
    drop(raw);
    let recovered = read_records(&path).expect("readable");
    assert_eq!(recovered.games.len(), 2);
    assert_eq!(recovered.complete_len, whole);
    truncate(&path, recovered.complete_len).expect("truncate");
    RecordFile::open(&path, tags.clone())
        .and_then(|mut f| f.append(&games[2]))
        .expect("append after truncation");
    let recovered = read_records(&path).expect("readable");
    let expected: Vec<GameSummary> = games.iter().map(GameRecord::summary).collect();
    assert_eq!(summaries(&recovered), expected);
    let text = std::fs::read_to_string(&path).expect("readable");
    let blocks: Vec<String> = games.iter().map(|g| format_block(g, &tags)).collect();
    assert_eq!(text, blocks.concat());
    for (read, block) in recovered.games.iter().zip(&blocks) {
        assert_eq!(&read.text, block);
        assert_eq!(read.tag("Seed"), Some("7"));
        assert_eq!(read.tag("Engine1"), Some("name=\"x\" cmd='/a b'"));
    }
    assert_eq!(
        recovered.games[1].line,
        text[..blocks[0].len()].lines().count() + 1
    );
    replace(&path, &blocks[1]).expect("replace");
    let recovered = read_records(&path).expect("readable");
    assert_eq!(summaries(&recovered), [games[1].summary()]);
    std::fs::remove_file(&path).expect("cleanup");
}

#[test]
fn records_with_crlf_line_ends_keep_every_move() {
    let lf: String = three_games().iter().map(format_record).collect();
    let crlf = lf.replace('\n', "\r\n");
    let (lf, crlf) = (
        parse_records(lf.as_bytes()).unwrap(),
        parse_records(crlf.as_bytes()).unwrap(),
    );
    assert_eq!(summaries(&crlf), summaries(&lf));
    for (a, b) in crlf.games.iter().zip(&lf.games) {
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.ending_comment(), b.ending_comment());
        assert_eq!(a.tags, b.tags);
    }
    assert_eq!(crlf.games[2].moves().len(), 37);
    assert_eq!(crlf.games[0].moves(), ["m0", "m1", "m2"]);
    assert_eq!(
        crlf.games[0].ending_comment().as_deref(),
        Some("{Player two has no legal move}")
    );
}

/// Issue 57 F6: a line longer than a record's lines can be is refused with its number (it is
/// not taken for a cut-short tail), whether or not it ends.
#[test]
fn a_line_longer_than_a_records_is_refused() {
    let long = vec![b'x'; super::read::MAX_RECORD_LINE_BYTES + 1];
    for tail in [&b""[..], b"\n"] {
        let bytes = [&b"\n\n"[..], &long, tail].concat();
        assert_eq!(
            parse_records(&bytes).unwrap_err(),
            "line 3: longer than 16777216 bytes: not a record file"
        );
    }
    // The longest line is read (here a bad tag).
    let bytes = [
        &vec![b'x'; super::read::MAX_RECORD_LINE_BYTES - 1][..],
        b"\n",
    ]
    .concat();
    assert_eq!(
        parse_records(&bytes).unwrap_err(),
        "line 1: expected a tag [Name \"value\"]"
    );
}
