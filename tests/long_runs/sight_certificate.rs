//! Certificates of a Sight solve (`ludus solve --strategy`, `ludus solve certify`, `ludus
//! solve check`): a 4×4 solve in two shards gives a certificate the independent checker
//! accepts, the same whether the strategy comes from the shards' walks or is walked again by
//! `certify`; a wrong claim, an illegal move or a missing move makes the check fail with the
//! position named.

use crate::common::{TestDir as Dir, run_ludus};

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
    let last = out.lines().last().expect("a verdict");
    assert_eq!(
        last,
        "proven: 4×4, official rules: Black wins from the empty board (White to move); \
         all 73 claims verified in this run"
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

/// The certificates the binary embeds hold, checked from scratch by `ludus solve check`; the
/// verdict names the board, the rules and who wins from the root (issue 31.2).
#[test]
fn the_shipped_small_board_certificates_hold() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (name, claims, verdict) in [
        (
            "sight3-official",
            16,
            "3×3, official rules: White wins from the empty board (White to move)",
        ),
        (
            "sight3-strict",
            16,
            "3×3, strict rules: White wins from the empty board (White to move)",
        ),
        (
            "sight4-official",
            73,
            "4×4, official rules: Black wins from the empty board (White to move)",
        ),
        (
            "sight4-strict",
            73,
            "4×4, strict rules: Black wins from the empty board (White to move)",
        ),
    ] {
        let path = format!("{root}/data/{name}.cert");
        let (status, out, err) = run_ludus(&["solve", "check", &path]);
        assert_eq!(status, 0, "{name}: {out}{err}");
        let lines: Vec<&str> = out.lines().collect();
        let n = lines.len();
        let here = format!("verified in this run: {claims} of {claims} claims, ");
        assert!(lines[n - 2].starts_with(&here), "{name}: {out}");
        assert_eq!(
            lines[n - 1],
            format!("proven: {verdict}; all {claims} claims verified in this run"),
            "{name}"
        );
    }
}

/// A sample checks that many claims, exits 0 when they hold (CI relies on it), and says it is
/// a sample, not a proof of the certificate's result.
#[test]
fn a_sampled_check_checks_that_many_claims() {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/data/sight4-strict.cert");
    let (status, out, err) = run_ludus(&["solve", "check", &path, "--sample", "3", "--seed", "9"]);
    assert_eq!(status, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[3].starts_with("verified in this run: 3 of 73 claims, "),
        "{out}"
    );
    assert_eq!(
        lines[4],
        "a sample, not a proof: the 3 claims sampled (seed 9) hold; the certificate's result, \
         4×4, strict rules: Black wins from the empty board (White to move), is proven by \
         checking every claim"
    );
    assert!(!out.contains("proven:"), "{out}");
}

/// Issue 31.2: a certificate that does not claim its root's result proves nothing, and the
/// check fails rather than report "0 of 0 claims" held: every claim removed, or the root's.
#[test]
fn a_claimless_or_rootless_certificate_fails_the_check() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = Dir::new("cert-rootless");
    for name in ["sight3-official", "sight4-strict"] {
        let cert = format!("{root}/data/{name}.cert");
        let empty = if name.starts_with("sight3") {
            "claim 3:x3/x3/x3 w "
        } else {
            "claim 4:x4/x4/x4/x4 w "
        };
        // Header only.
        let (status, err) = check_edited(&dir, &cert, "header.txt", |t| {
            t.lines().take(2).map(|l| format!("{l}\n")).collect()
        });
        assert_eq!(status, 1, "{name}: {err}");
        assert!(
            err.contains("the certificate proves nothing: it has no claims"),
            "{name}: {err}"
        );
        // No strategy and no claims.
        let (status, err) = check_edited(&dir, &cert, "claimless.txt", |t| {
            t.lines()
                .filter(|l| !l.starts_with("claim "))
                .map(|l| format!("{l}\n"))
                .collect()
        });
        assert_eq!(status, 1, "{name}: {err}");
        assert!(err.contains("it has no claims"), "{name}: {err}");
        // Every claim but the root's: each still holds, none says who wins from the root.
        let rootless = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.starts_with(empty))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        let (status, err) = check_edited(&dir, &cert, "rootless.txt", rootless);
        assert_eq!(status, 1, "{name}: {err}");
        assert!(
            err.contains(
                "the certificate proves nothing: no claim for its root position, the empty board"
            ),
            "{name}: {err}"
        );
        // A sample or a shard fails on it as well, before any claim is checked.
        let edited = dir.file("rootless.txt");
        for extra in [&["--sample", "1"][..], &["--shard", "1/2"]] {
            let args = [&["solve", "check", edited.as_str()][..], extra].concat();
            let (status, out, err) = run_ludus(&args);
            assert_eq!(status, 1, "{name} {extra:?}: {out}{err}");
            assert!(out.is_empty(), "{name} {extra:?}: {out}");
            assert!(err.contains("no claim for its root position"), "{err}");
        }
    }
}

/// A solve of another position than the empty board (`--fen`) gives a certificate that names
/// its root (`# root`), and the check's verdict is about that position, whoever is to move;
/// without the line the certificate would be about the empty board, which it does not claim.
#[test]
fn a_certificate_of_a_position_names_its_root_and_is_checked_from_it() {
    let dir = Dir::new("cert-fen");
    let (results, strategy, cert) = (dir.file("r.txt"), dir.file("s.txt"), dir.file("fen.cert"));
    let fen = "3:x3/x,w,x/x3 b";
    let (status, out, err) = run_ludus(&[
        "solve",
        "--size",
        "3",
        "--fen",
        fen,
        "--frontier",
        "1",
        "--hash",
        "16",
        "--leaf-empties",
        "0",
        "--results",
        &results,
        "--strategy",
        &strategy,
    ]);
    assert_eq!(status, 0, "{out}{err}");
    let (status, out, err) = run_ludus(&[
        "solve",
        "certify",
        &results,
        "--strategy",
        &strategy,
        "--leaf-empties",
        "0",
        "--hash",
        "16",
        "--out",
        &cert,
    ]);
    assert_eq!(status, 0, "{out}{err}");
    let text = std::fs::read_to_string(&cert).expect("the certificate");
    assert!(
        text.starts_with(&format!(
            "# ludus sight certificate v1\n# size 3 rules official leaf-empties 0\n# root {fen}\n"
        )),
        "{text}"
    );
    let (status, out, err) = run_ludus(&["solve", "check", &cert]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(
        out.lines().last().unwrap_or("").starts_with(&format!(
            "proven: 3×3, official rules: White wins from {fen} (Black to move); all "
        )),
        "{out}"
    );
    let (status, err) = check_edited(&dir, &cert, "unnamed.cert", |t| {
        t.replace(&format!("# root {fen}\n"), "")
    });
    assert_eq!(status, 1, "{err}");
    assert!(
        err.contains("no claim for its root position, the empty board (3:x3/x3/x3 w)"),
        "{err}"
    );
}

/// Issue 31.2: a claim on another board than the header's cannot stand in for the root (an
/// empty 3×3 board has the same key as an empty 5×5 one): the certificate is refused.
#[test]
fn a_claim_on_another_board_is_refused() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = Dir::new("cert-board");
    let cert = format!("{root}/data/sight3-official.cert");
    let (status, err) = check_edited(&dir, &cert, "five.txt", |t| {
        t.replace("# size 3 rules", "# size 5 rules")
    });
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("a 3×3 position in a 5×5 certificate"), "{err}");
    // The empty 3×3 board claimed in a 5×5 certificate whose leaves are every position: the
    // exhaustive search would prove the 3×3 claim, and its key is the empty 5×5 board's.
    let (status, err) = check_edited(&dir, &cert, "small.txt", |_| {
        "# ludus sight certificate v1\n# size 5 rules official leaf-empties 25\n\
         claim 3:x3/x3/x3 w win\n"
            .into()
    });
    assert_eq!(status, 2, "{err}");
    assert!(
        err.contains("line 3: a 3×3 position in a 5×5 certificate"),
        "{err}"
    );
}

/// Issue 31.3: a check record is trusted, not verified: a forged record that says a false
/// claim (here the root's) was verified makes the claims hold, but the check says which claims
/// it took from the record, does not call the result proven, and exits with status 3, not 0.
#[test]
fn a_forged_record_is_not_a_proof() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = Dir::new("cert-forged");
    let text = std::fs::read_to_string(format!("{root}/data/sight3-official.cert"))
        .expect("the certificate");
    // 3×3 is won for White: the root claimed lost is false, and the check finds it.
    let forged = text.replace("claim 3:x3/x3/x3 w win\n", "claim 3:x3/x3/x3 w loss\n");
    assert_ne!(forged, text);
    let cert = dir.file("forged.cert");
    std::fs::write(&cert, &forged).expect("written");
    let (status, _, err) = run_ludus(&["solve", "check", &cert]);
    assert_eq!(status, 1, "{err}");
    assert!(err.contains("the certificate does not hold"), "{err}");
    // A record, tied to the certificate only by a hash anyone can recompute, says it holds.
    let index = forged
        .lines()
        .filter(|l| l.starts_with("claim "))
        .position(|l| l == "claim 3:x3/x3/x3 w loss")
        .expect("the root claim");
    let digest = ludus::solve::check_record::digest(forged.as_bytes());
    let record = dir.file("record.txt");
    std::fs::write(
        &record,
        format!(
            "# ludus check record v1 certificate {digest:016x} claims 16\n\
             verified {index} loss 3:x3/x3/x3 w\n"
        ),
    )
    .expect("written");
    let (status, out, err) = run_ludus(&["solve", "check", &cert, "--record", &record]);
    assert_eq!(status, 3, "{out}{err}");
    assert!(
        !out.lines().any(|l| l.starts_with("proven")),
        "not proven: {out}"
    );
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(
        lines[n - 3].starts_with("verified in this run: 15 of 16 claims, "),
        "{out}"
    );
    assert_eq!(
        lines[n - 2],
        format!("taken from the record {record}, not verified in this run: 1 of 16 claims")
    );
    assert_eq!(
        lines[n - 1],
        format!(
            "not proven by this run alone: 3×3, official rules: Black wins from the empty board \
             (White to move) holds if the 1 claim taken from the record {record} holds"
        )
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
/// certificate is refused. A run that counts claims from a record says how many and exits 3.
#[test]
fn sharded_checks_record_their_claims_and_resume() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cert = format!("{root}/data/sight4-strict.cert");
    let headline = "4×4, strict rules: Black wins from the empty board (White to move)";
    let dir = Dir::new("check-record");
    let (r1, r2, all) = (dir.file("r1"), dir.file("r2"), dir.file("all"));
    for (shard, record, claims) in [("1/2", &r1, 37), ("2/2", &r2, 36)] {
        let (status, out, err) = run_ludus(&[
            "solve", "check", &cert, "--shard", shard, "--record", record,
        ]);
        assert_eq!(status, 0, "{out}{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), claims + 3, "{out}");
        let here = format!("verified in this run: {claims} of 73 claims, ");
        assert!(lines[claims].starts_with(&here), "{out}");
        assert_eq!(
            lines[claims + 1],
            format!("taken from the record {record}, not verified in this run: 0 of 73 claims")
        );
        assert_eq!(
            lines[claims + 2],
            format!(
                "not the whole check: {claims} of 73 claims hold (shard {shard}); the \
                 certificate's result, {headline}, is proven when every claim is: check the \
                 other shards, then all their records together"
            )
        );
    }
    let text1 = std::fs::read_to_string(&r1).expect("record 1");
    let text2 = std::fs::read_to_string(&r2).expect("record 2");
    assert_eq!(text1.lines().count(), 38, "a header and one line a claim");

    // Shard 2 on top of shard 1's record stops its walks at the claims shard 1 verified
    // (under the board's symmetries): fewer positions than shard 2 alone.
    let positions = |out: &str| -> u64 {
        let line = out
            .lines()
            .find(|l| l.starts_with("verified in this run: "))
            .unwrap_or("");
        line.split(", ")
            .find_map(|part| part.strip_suffix(" positions through the strategy"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no position count: {out}"))
    };
    let alone = run_ludus(&["solve", "check", &cert, "--shard", "2/2"]).1;
    let on_top = dir.file("on-top");
    std::fs::write(&on_top, &text1).expect("written");
    let (status, out, err) = run_ludus(&[
        "solve", "check", &cert, "--shard", "2/2", "--record", &on_top,
    ]);
    assert_eq!(status, 3, "{out}{err}");
    assert!(
        out.ends_with(&format!(
            "taken from the record {on_top}, not verified in this run: 37 of 73 claims\n\
             not proven by this run alone: {headline} holds if the 37 claims taken from the \
             record {on_top} hold\n"
        )),
        "{out}"
    );
    assert!(positions(&out) < positions(&alone), "{out}\n{alone}");
    std::fs::write(&all, format!("{text1}{text2}")).expect("written");
    let (status, out, err) = run_ludus(&["solve", "check", &cert, "--record", &all]);
    assert_eq!(status, 3, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "73 of these 73 claims are verified in the record already; 0 to check"
    );
    assert!(
        lines[1].starts_with("verified in this run: 0 of 73 claims, "),
        "{out}"
    );
    assert_eq!(
        lines[2],
        format!("taken from the record {all}, not verified in this run: 73 of 73 claims")
    );
    assert_eq!(
        lines[3],
        format!(
            "not proven by this run alone: {headline} holds if the 73 claims taken from the \
             record {all} hold"
        )
    );

    // Cut after five claims and half of the sixth: the rerun checks the other 32 of the shard.
    let mut cut: String = text1.lines().take(6).map(|l| format!("{l}\n")).collect();
    cut.push_str("verified 1");
    std::fs::write(&r1, &cut).expect("written");
    let (status, out, err) =
        run_ludus(&["solve", "check", &cert, "--shard", "1/2", "--record", &r1]);
    assert_eq!(status, 3, "{out}{err}");
    assert!(
        out.starts_with("5 of these 37 claims are verified in the record already; 32 to check\n"),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "not the whole check: 37 of 73 claims hold (shard 1/2, 5 of them taken from the \
             record {r1}); the certificate's result, {headline}, is proven when every claim \
             is: check the other shards, then all their records together\n"
        )),
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
