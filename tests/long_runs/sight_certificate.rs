//! Certificates of a Sight solve (`ludus solve --strategy`, `ludus solve certify`, `ludus
//! solve check`): a 4×4 solve in two shards gives a certificate the independent checker
//! accepts, the same whether the strategy comes from the shards' walks or is walked again by
//! `certify`; a wrong claim, an illegal move or a missing move makes the check fail with the
//! position named.

use std::path::PathBuf;

use crate::common::run_ludus;

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("ludus-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        Dir(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// Solves 4×4 in two shards, the first also writing its strategy, and certifies it with
/// leaves at 8 empty points; returns the certificate's path.
fn four_by_four_certificate(dir: &Dir) -> String {
    let (r1, r2, s1, cert) = (
        dir.file("r1.txt"),
        dir.file("r2.txt"),
        dir.file("s1.txt"),
        dir.file("cert.txt"),
    );
    let common = [
        "solve",
        "--size",
        "4",
        "--hash",
        "16",
        "--leaf-empties",
        "8",
    ];
    let shard1 = [
        &common[..],
        &["--shard", "1/2", "--results", &r1, "--strategy", &s1],
    ]
    .concat();
    let (status, out, err) = run_ludus(&shard1);
    assert_eq!(status, 0, "{out}{err}");
    assert_eq!(out.matches("  strategy: ").count(), 33, "{out}");
    let shard2 = [&common[..], &["--shard", "2/2", "--results", &r2]].concat();
    assert_eq!(run_ludus(&shard2).0, 0);
    let (status, out, err) = run_ludus(&[
        "solve",
        "certify",
        &r1,
        &r2,
        "--strategy",
        &s1,
        "--leaf-empties",
        "8",
        "--hash",
        "16",
        "--out",
        &cert,
    ]);
    assert_eq!(status, 0, "{out}{err}");
    // The root, the ply-1 classes and the 66 frontier classes; the second shard's 33 proofs
    // are walked by certify itself.
    assert!(
        out.contains("73 claims, leaves at 8 empty points or fewer"),
        "{out}"
    );
    assert!(out.contains("33 frontier proofs to walk"), "{out}");
    cert
}

#[test]
fn a_four_by_four_certificate_is_accepted_by_the_checker() {
    let dir = Dir::new("cert-ok");
    let cert = four_by_four_certificate(&dir);
    let text = std::fs::read_to_string(&cert).expect("the certificate");
    assert!(
        text.starts_with("# ludus sight certificate v1\n# size 4 rules official leaf-empties 8\n")
    );
    assert!(
        text.contains("\nclaim 4:x4/x4/x4/x4 w loss\n"),
        "the root: White loses"
    );
    let (status, out, err) = run_ludus(&["solve", "check", &cert]);
    assert_eq!(status, 0, "{out}{err}");
    let last = out.lines().last().expect("a summary");
    assert!(
        last.starts_with("certificate holds: 73 of 73 claims checked, "),
        "{last}"
    );
}

/// Writes `cert` with `edit` applied to its text, and returns what the checker says.
fn check_edited(dir: &Dir, cert: &str, name: &str, edit: impl Fn(&str) -> String) -> (i32, String) {
    let text = std::fs::read_to_string(cert).expect("the certificate");
    let edited = dir.file(name);
    std::fs::write(&edited, edit(&text)).expect("written");
    let (status, _, err) = run_ludus(&["solve", "check", &edited]);
    (status, err)
}

#[test]
fn a_wrong_claim_an_illegal_move_or_a_missing_move_fails_the_check() {
    let dir = Dir::new("cert-bad");
    let cert = four_by_four_certificate(&dir);
    // The root claimed a win for White.
    let (status, err) = check_edited(&dir, &cert, "claim.txt", |t| {
        t.replace("claim 4:x4/x4/x4/x4 w loss", "claim 4:x4/x4/x4/x4 w win")
    });
    assert_eq!(status, 1, "{err}");
    assert!(
        err.contains("the certificate does not hold: 4:x4/x4/x4/x4 w: a win with no move"),
        "{err}"
    );
    // A strategy move onto an occupied point.
    let line = first_strategy_line(&cert);
    let fen = line.split('\t').next().expect("a position");
    let (status, err) = check_edited(&dir, &cert, "illegal.txt", |t| {
        t.replace(&line, &format!("{fen}\ta1\t13"))
    });
    assert_eq!(status, 1, "{err}");
    assert!(err.contains(" is illegal"), "{err}");
    // Every strategy line gone: the first claimed win has no move.
    let (status, err) = check_edited(&dir, &cert, "bare.txt", |t| {
        t.lines()
            .filter(|l| l.starts_with('#') || l.starts_with("claim "))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    assert_eq!(status, 1, "{err}");
    assert!(err.contains("a win with no move in the strategy"), "{err}");
    // Not a certificate at all.
    let (status, err) = check_edited(&dir, &cert, "junk.txt", |_| "hello\n".into());
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("not a ludus sight certificate"), "{err}");
}

/// The first strategy line whose position has a1 occupied.
fn first_strategy_line(cert: &str) -> String {
    let text = std::fs::read_to_string(cert).expect("the certificate");
    text.lines()
        .find(|l| {
            l.contains('\t') && {
                let fen = l.split('\t').next().unwrap_or("");
                // Rank 1 comes last; a1 is occupied when it does not start with an empty run.
                fen.split(' ')
                    .next()
                    .and_then(|b| b.rsplit('/').next())
                    .is_some_and(|r| !r.starts_with('x'))
            }
        })
        .expect("a strategy line with a1 taken")
        .to_string()
}

#[test]
fn the_embedded_books_parse() {
    assert!(ludus::solve::book::all_parse());
}

/// 4×4 is lost for White: against random White moves, Black finds its move in the book at
/// every turn with more than the certificate's 10 empty points (a winning move: Black wins
/// every game, finishing with the brute-force's moves), under both variants.
#[test]
fn the_four_by_four_book_covers_every_white_move() {
    use ludus::game::Game;
    use ludus::game::sight::{Sight, SightSettings};
    use ludus::solve::book::probe_sight;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(4);
    let mut book_moves = 0;
    for strict in [false, true] {
        let settings = SightSettings {
            size: 4,
            strict_tallest: strict,
        };
        for _ in 0..100 {
            let mut pos = Sight::start(&settings);
            let mut moves = Vec::new();
            let resist = probe_sight(&pos).expect("White is lost: the book resists");
            assert_eq!((resist.wins, resist.mate()), (false, -8));
            while pos.outcome().is_none() {
                pos.generate_moves(&mut moves);
                let empties = (0..16).filter(|&p| pos.pile(p).is_none()).count();
                let mv = if pos.side_to_move() == ludus::game::Player::Two && empties > 10 {
                    book_moves += 1;
                    let answer = probe_sight(&pos)
                        .unwrap_or_else(|| panic!("{}: no book move", pos.to_fen()));
                    assert!(answer.wins, "{}: {answer:?}", pos.to_fen());
                    answer.mv
                } else if pos.side_to_move() == ludus::game::Player::Two {
                    winning_move(&pos)
                } else {
                    pos.move_to_string(moves[rng.random_range(0..moves.len())])
                };
                pos.try_play_str(&mv).expect("a legal move");
            }
            assert_eq!(
                pos.outcome(),
                Some(ludus::game::Outcome::Win(ludus::game::Player::Two))
            );
        }
    }
    assert!(book_moves > 300, "{book_moves} book moves");
}

/// A move that wins, by brute force (few empty points).
fn winning_move(pos: &ludus::game::sight::Sight) -> String {
    use ludus::game::Game;
    fn wins(p: &ludus::game::sight::Sight) -> bool {
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        moves.iter().any(|&m| {
            let mut c = p.clone();
            c.play(m);
            c.outcome().is_some() || !wins(&c)
        })
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let m = moves
        .iter()
        .copied()
        .find(|&m| {
            let mut c = pos.clone();
            c.play(m);
            c.outcome().is_some() || !wins(&c)
        })
        .expect("a won position has a winning move");
    pos.move_to_string(m)
}

/// The certificates the binary embeds hold, checked from scratch by `ludus solve check`.
#[test]
fn the_shipped_small_board_certificates_hold() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (name, claims) in [
        ("sight3-official", 16),
        ("sight3-strict", 16),
        ("sight4-official", 73),
        ("sight4-strict", 73),
    ] {
        let path = format!("{root}/data/{name}.cert");
        let (status, out, err) = run_ludus(&["solve", "check", &path]);
        assert_eq!(status, 0, "{name}: {out}{err}");
        let last = out.lines().last().unwrap_or("");
        let holds = format!("certificate holds: {claims} of {claims} claims checked, ");
        assert!(last.starts_with(&holds), "{name}: {last}");
    }
}

#[test]
fn a_sampled_check_checks_that_many_claims() {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/data/sight4-strict.cert");
    let (status, out, err) = run_ludus(&["solve", "check", &path, "--sample", "3", "--seed", "9"]);
    assert_eq!(status, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap_or("")
            .starts_with("certificate holds: 3 of 73 claims checked, "),
        "{out}"
    );
}

/// 5×5 under the official rules is won for White, only by b2, d2, b4 or d4 (docs/solved.md):
/// the book plays one of them from the empty board, announcing the whole board (25 plies, mate
/// 13), and answers every Black reply.
#[test]
fn the_five_by_five_book_opens_with_a_winning_move_and_answers_every_reply() {
    use ludus::game::Game;
    use ludus::game::sight::{Sight, SightSettings};
    use ludus::solve::book::probe_sight;
    let start = Sight::start(&SightSettings::default());
    let first = probe_sight(&start).expect("the empty board is in the book");
    assert!(
        ["b2", "d2", "b4", "d4"].contains(&first.mv.as_str()),
        "{first:?}"
    );
    assert_eq!(first.plies, 25);
    assert!(first.wins);
    let mut after = start.clone();
    after.try_play_str(&first.mv).expect("legal");
    // Black is lost: every reply leads into the proofs, the book resists longest.
    let resist = probe_sight(&after).expect("a lost position inside the proofs");
    assert_eq!((resist.wins, resist.plies, resist.mate()), (false, 24, -12));
    let mut replies = Vec::new();
    after.generate_moves(&mut replies);
    assert_eq!(replies.len(), 24);
    for r in replies {
        let mut pos = after.clone();
        pos.play(r);
        let answer = probe_sight(&pos).unwrap_or_else(|| panic!("{}: no book move", pos.to_fen()));
        pos.try_play_str(&answer.mv)
            .expect("the book's move is legal");
    }
}

/// 5×5 under `strict_tallest` is won for Black (docs/solved.md): the book resists longest as
/// White from the empty board (`mate -12`), and answers every one of White's 25 first moves
/// with a legal move that wins.
#[test]
fn the_strict_five_by_five_book_wins_every_game_for_black() {
    use ludus::game::Game;
    use ludus::game::options::OptionValues;
    use ludus::game::sight::Sight;
    use ludus::solve::book::probe_sight;
    let mut values = OptionValues::from_specs(&Sight::options());
    values.set("Sight_StrictTallest", "true".into());
    let start = Sight::start(&Sight::settings(&values));
    assert!(start.strict_tallest());
    let resist = probe_sight(&start).expect("the lost empty board is in the book");
    assert_eq!((resist.wins, resist.plies, resist.mate()), (false, 24, -12));
    let mut firsts = Vec::new();
    start.generate_moves(&mut firsts);
    assert_eq!(firsts.len(), 25);
    for m in firsts {
        let mut pos = start.clone();
        pos.play(m);
        let answer = probe_sight(&pos).unwrap_or_else(|| panic!("{}: no book move", pos.to_fen()));
        assert!(answer.wins, "{}: {answer:?}", pos.to_fen());
        assert_eq!(answer.plies, 23, "{}", pos.to_fen());
        pos.try_play_str(&answer.mv)
            .expect("the book's move is legal");
    }
}

/// `solve check --shard K/N --record FILE`: two shards' records together cover every claim;
/// a record cut short (even mid-line) resumes after its last whole claim; a record of another
/// certificate is refused.
#[test]
fn sharded_checks_record_their_claims_and_resume() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cert = format!("{root}/data/sight4-strict.cert");
    let dir = Dir::new("check-record");
    let (r1, r2, all) = (dir.file("r1"), dir.file("r2"), dir.file("all"));
    for (shard, record, claims) in [("1/2", &r1, 37), ("2/2", &r2, 36)] {
        let (status, out, err) = run_ludus(&[
            "solve", "check", &cert, "--shard", shard, "--record", record,
        ]);
        assert_eq!(status, 0, "{out}{err}");
        assert_eq!(out.lines().count(), claims + 1, "{out}");
        let last = out.lines().last().unwrap_or("");
        let holds = format!("certificate holds: {claims} of 73 claims checked, ");
        assert!(last.starts_with(&holds), "{last}");
        assert!(
            last.ends_with(&format!(
                "; with the record, {claims} of 73 claims verified"
            )),
            "{last}"
        );
    }
    let text1 = std::fs::read_to_string(&r1).expect("record 1");
    let text2 = std::fs::read_to_string(&r2).expect("record 2");
    assert_eq!(text1.lines().count(), 38, "a header and one line a claim");

    // Shard 2 on top of shard 1's record stops its walks at the claims shard 1 verified
    // (under the board's symmetries): fewer positions than shard 2 alone.
    let positions = |out: &str| -> u64 {
        let last = out.lines().last().unwrap_or("");
        last.split(", ")
            .find_map(|part| part.strip_suffix(" positions through the strategy"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no position count: {last}"))
    };
    let alone = run_ludus(&["solve", "check", &cert, "--shard", "2/2"]).1;
    let on_top = dir.file("on-top");
    std::fs::write(&on_top, &text1).expect("written");
    let (status, out, err) = run_ludus(&[
        "solve", "check", &cert, "--shard", "2/2", "--record", &on_top,
    ]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(
        out.ends_with("; with the record, 73 of 73 claims verified\n"),
        "{out}"
    );
    assert!(positions(&out) < positions(&alone), "{out}\n{alone}");
    std::fs::write(&all, format!("{text1}{text2}")).expect("written");
    let (status, out, err) = run_ludus(&["solve", "check", &cert, "--record", &all]);
    assert_eq!(status, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "73 of these 73 claims are verified in the record already; 0 to check"
    );
    assert!(
        lines[1].starts_with("certificate holds: 0 of 73 claims checked, ")
            && lines[1].ends_with("; with the record, 73 of 73 claims verified"),
        "{out}"
    );

    // Cut after five claims and half of the sixth: the rerun checks the other 32 of the shard.
    let mut cut: String = text1.lines().take(6).map(|l| format!("{l}\n")).collect();
    cut.push_str("verified 1");
    std::fs::write(&r1, &cut).expect("written");
    let (status, out, err) =
        run_ludus(&["solve", "check", &cert, "--shard", "1/2", "--record", &r1]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(
        out.starts_with("5 of these 37 claims are verified in the record already; 32 to check\n"),
        "{out}"
    );
    let resumed = std::fs::read_to_string(&r1).expect("record 1");
    assert_eq!(resumed.lines().count(), 38, "the cut line is gone");
    assert_eq!(
        run_ludus(&["solve", "check", &cert, "--record", &r1])
            .1
            .lines()
            .next(),
        Some("37 of these 73 claims are verified in the record already; 36 to check"),
    );

    let other = format!("{root}/data/sight4-official.cert");
    let (status, out, err) = run_ludus(&["solve", "check", &other, "--record", &all]);
    assert_eq!(status, 2, "{out}{err}");
    assert!(err.contains("the record of another certificate"), "{err}");
}
