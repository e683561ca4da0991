//! `ludus datagen`: every recorded game is a real game (each position one legal move from the
//! one before, the last one move from the recorded result); a run cut short and resumed, or
//! played in shards and merged, gives the same file byte for byte as one uninterrupted run;
//! another run's file, a malformed file and a missing `--out` are refused.

use ludus::datagen::format::{self, GameResult, Recorded};
use ludus::game::dynamic::RuleSet;
use ludus::game::{GameId, Outcome, Player};

use crate::common::{run_ludus, run_ludus_capped, sparse_file};

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-datagen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

fn datagen(game: &str, out: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "datagen", "--game", game, "--games", "6", "--nodes", "800", "--seed", "5", "--out", out,
    ];
    args.extend_from_slice(extra);
    run_ludus(&args)
}

#[test]
fn recorded_games_are_games_of_the_rules() {
    let dir = temp_dir("games");
    for game in GameId::ALL {
        let path = dir.join(format!("{}.bin", game.name()));
        let path = path.to_string_lossy().into_owned();
        let (status, out, err) = datagen(game.name(), &path, &["--max-plies", "120"]);
        assert_eq!(status, 0, "{out}{err}");
        assert!(out.contains("6 games, "), "{out}");
        let data = format::decode(&std::fs::read(&path).expect("written")).expect("readable");
        assert_eq!(data.games.len(), 6);
        let rules = RuleSet::new(*game, &[]).expect("rules");
        for g in &data.games {
            assert!(g.samples.len() > 2, "{game:?} game {}", g.index);
            for pair in g.samples.windows(2) {
                let before = rules.from_fen(&pair[0].fen).expect("a position");
                let next = before.legal_moves().into_iter().any(|m| {
                    let mut p = before.boxed_clone();
                    p.play(&m).is_ok() && p.to_fen() == pair[1].fen
                });
                assert!(
                    next,
                    "{game:?}: {} does not follow {}",
                    pair[1].fen, pair[0].fen
                );
            }
            let last = rules
                .from_fen(&g.samples[g.samples.len() - 1].fen)
                .expect("a position");
            let expected = match g.result {
                GameResult::P1Win => Some(Outcome::Win(Player::One)),
                GameResult::P2Win => Some(Outcome::Win(Player::Two)),
                GameResult::Draw => Some(Outcome::Draw),
            };
            let ends = last.legal_moves().into_iter().any(|m| {
                let mut p = last.boxed_clone();
                p.play(&m).is_ok() && p.outcome() == expected
            });
            // A draw may also be the --max-plies cut.
            assert!(
                ends || g.result == GameResult::Draw,
                "{game:?} game {}: the last position does not end as recorded",
                g.index
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_proven_score_is_the_games_result() {
    // Tactigon game 303 of seed 72: depth 1's capture searches outgrow 5000 nodes, and a search
    // cut inside depth 1 once recorded its first root move's score (a mate against the side to
    // move, five times in a game that side went on to win) as the position's.
    let dir = temp_dir("proven");
    let path = dir.join("tactigon.bin").to_string_lossy().into_owned();
    let (status, out, err) = run_ludus(&[
        "datagen", "--game", "tactigon", "--games", "400", "--shard", "304/400", "--nodes", "5000",
        "--seed", "72", "--out", &path,
    ]);
    assert_eq!(status, 0, "{out}{err}");
    let data = format::decode(&std::fs::read(&path).expect("written")).expect("readable");
    let rules = RuleSet::new(GameId::Tactigon, &[]).expect("rules");
    let game = &data.games[0];
    assert_eq!((game.index, game.result), (303, GameResult::P1Win));
    let mut proven = 0;
    for sample in &game.samples {
        let Recorded::Mate(n) = sample.score else {
            continue;
        };
        proven += 1;
        let mover = rules
            .from_fen(&sample.fen)
            .expect("a position")
            .side_to_move();
        let winner = if n > 0 { mover } else { mover.opponent() };
        assert_eq!(
            winner == Player::One,
            game.result == GameResult::P1Win,
            "{n:+} at {} in a game won by {:?}",
            sample.fen,
            game.result
        );
    }
    assert!(
        proven >= 3,
        "the game's end is proven: {proven} mate scores"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_resumed_or_sharded_run_is_the_uninterrupted_one() {
    let dir = temp_dir("resume");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (whole, resumed, s1, s2, merged) = (
        file("whole.bin"),
        file("resumed.bin"),
        file("s1.bin"),
        file("s2.bin"),
        file("merged.bin"),
    );
    assert_eq!(datagen("sight", &whole, &[]).0, 0);
    let bytes = std::fs::read(&whole).expect("written");
    let data = format::decode(&bytes).expect("readable");
    // Cut inside the fourth game's record, as a kill would.
    let records: Vec<usize> = data
        .games
        .iter()
        .map(|g| format::encode(g).expect("encoded").len())
        .collect();
    let header = bytes.len() - records.iter().sum::<usize>();
    let cut = header + records[..3].iter().sum::<usize>() + records[3] / 2;
    std::fs::write(&resumed, &bytes[..cut]).expect("written");
    let (status, out, err) = datagen("sight", &resumed, &[]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("6 games, 3 already in"), "{out}");
    assert_eq!(
        std::fs::read(&resumed).expect("read"),
        bytes,
        "resumed = uninterrupted"
    );

    assert_eq!(datagen("sight", &s1, &["--shard", "1/2"]).0, 0);
    assert_eq!(datagen("sight", &s2, &["--shard", "2/2"]).0, 0);
    let (status, out, err) = run_ludus(&["datagen", "merge", "--out", &merged, &s2, &s1]);
    assert_eq!(status, 0, "{out}{err}");
    assert_eq!(
        std::fs::read(&merged).expect("read"),
        bytes,
        "merged = uninterrupted"
    );

    // Another run (other nodes) into the same file, a merge of two runs: refused.
    let (status, _, err) = run_ludus(&[
        "datagen", "--game", "sight", "--games", "6", "--nodes", "900", "--seed", "5", "--out",
        &whole,
    ]);
    assert_eq!(status, 2);
    assert!(err.contains("holds another run"), "{err}");
    let other = file("other.bin");
    assert_eq!(datagen("sight", &other, &["--max-plies", "30"]).0, 0);
    let (status, _, err) = run_ludus(&["datagen", "merge", "--out", &merged, &s1, &other]);
    assert_eq!(status, 2);
    assert!(err.contains("of another run"), "{err}");
    std::fs::write(file("junk.bin"), b"junk").expect("written");
    let (status, _, err) = run_ludus(&["datagen", "dump", &file("junk.bin")]);
    assert_eq!(status, 2);
    assert!(err.contains("not a ludus datagen file"), "{err}");
    let (status, _, err) = run_ludus(&["datagen", "--game", "sight"]);
    assert_eq!(status, 2);
    assert!(err.contains("--out"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 31.7: a data file with a copied game, a game outside the run or its shard, or a
/// damaged position is refused by `dump`, by a resume and by `merge`, naming file and game.
#[test]
fn copied_foreign_and_damaged_games_are_refused_naming_file_and_game() {
    let dir = temp_dir("integrity");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (whole, s1) = (file("whole.bin"), file("s1.bin"));
    assert_eq!(datagen("sight", &whole, &[]).0, 0);
    assert_eq!(datagen("sight", &s1, &["--shard", "1/2"]).0, 0);
    let bytes = std::fs::read(&whole).expect("written");
    let data = format::decode(&bytes).expect("readable");
    let header = {
        let mut h = Vec::new();
        format::write_header(&mut h, &data.identity).expect("header");
        h
    };
    let written = |name: &str, games: &[format::GameData]| {
        let mut out = header.clone();
        for g in games {
            out.extend(format::encode(g).expect("encoded"));
        }
        std::fs::write(file(name), out).expect("written");
        file(name)
    };
    let g = &data.games;
    let copied = written("copied.bin", &[g[0].clone(), g[1].clone(), g[0].clone()]);
    let mut far = g[2].clone();
    far.index = 6; // the run plays games 0 to 5
    let foreign = written("foreign.bin", &[g[0].clone(), far]);
    let mut bad = g[3].clone();
    bad.samples[1].fen = "5:x5/x5/x5/x5/x5 q".into();
    let damaged = written("damaged.bin", &[bad]);
    let in_shard_2 = written("shard.bin", &[g[1].clone()]); // shard 1/2 holds 0, 2, 4
    for (path, want) in [
        (&copied, "game 0 is in the file twice"),
        (&foreign, "game 6 is not a game of this run"),
        (&damaged, "game 3, position 2: "),
    ] {
        for args in [
            vec!["datagen", "dump", path.as_str()],
            vec![
                "datagen",
                "merge",
                "--out",
                "/nonexistent/m.bin",
                path.as_str(),
            ],
        ] {
            let (status, out, err) = run_ludus(&args);
            assert_eq!(status, 2, "{args:?}: {out}{err}");
            assert!(
                err.contains(path.as_str()) && err.contains(want),
                "{args:?}: {err}"
            );
            assert_eq!(out, "", "{args:?}");
        }
        let (status, _, err) = datagen("sight", path, &[]);
        assert_eq!(status, 2, "resume of {path}");
        assert!(err.contains(want), "resume of {path}: {err}");
    }
    let (status, _, err) = datagen("sight", &in_shard_2, &["--shard", "1/2"]);
    assert_eq!(status, 2);
    assert!(err.contains("game 1 is not a game of shard 1/2"), "{err}");
    // A damaged byte inside a record: its checksum.
    let mut flipped = bytes.clone();
    let at = header.len() + 30;
    flipped[at] ^= 1;
    std::fs::write(file("flipped.bin"), &flipped).expect("written");
    let (status, _, err) = run_ludus(&["datagen", "dump", &file("flipped.bin")]);
    assert_eq!(status, 2);
    assert!(err.contains("is damaged"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `ludus ARGS` under a 2 GiB address space.
fn run_capped(args: &[&str]) -> (Option<i32>, String, String) {
    run_ludus_capped(args, 2 << 30)
}

/// Issue 57 F6: every datagen reader (`datagen dump`, `merge`, a resume, `wdl check`, `wdl
/// fit`) checks a file's header first and then reads one game at a time. A sparse 8 GiB file
/// (no disk used) with no header is refused at its header, one with a header and a game
/// followed by 8 GiB of zeros at its first bad record (the second), and a 17 GiB one by its
/// size, each with its error and under a 2 GiB address space (reading such a file whole
/// aborted the process). A merge of files whose games are out of order (read back by offset)
/// is the uninterrupted run's file.
#[test]
fn big_files_are_refused_at_their_header_or_first_bad_record_without_being_held() {
    let dir = temp_dir("big");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let whole = file("whole.bin");
    assert_eq!(datagen("sight", &whole, &[]).0, 0);
    let bytes = std::fs::read(&whole).expect("written");
    let data = format::decode(&bytes).expect("readable");
    let mut header = Vec::new();
    format::write_header(&mut header, &data.identity).expect("header");
    let first = format::encode(&data.games[0]).expect("encoded");
    let sparse = |name: &str, start: &[u8], len: u64| {
        sparse_file(&dir.join(name), start, len);
        file(name)
    };
    let no_header = sparse("no-header.bin", b"", 8 << 30);
    let garbage = sparse("garbage.bin", &[&header[..], &first[..]].concat(), 8 << 30);
    let too_big = sparse("too-big.bin", &header, 17 << 30);
    let bad_record = header.len() + first.len();
    for (path, error) in [
        (
            &no_header,
            "not a ludus datagen file (no LUDUSDG2 or LUDUSDG1 header)".to_string(),
        ),
        (
            &garbage,
            format!("the game record at byte {bad_record} is damaged: its checksum does not match"),
        ),
        (
            &too_big,
            format!(
                "{} bytes, more than the {} this file may have",
                17u64 << 30,
                16u64 << 30
            ),
        ),
    ] {
        let merged = file("merged.bin");
        let resume = [
            "datagen", "--game", "sight", "--games", "6", "--nodes", "800", "--seed", "5", "--out",
            path,
        ];
        for args in [
            &["datagen", "dump", path][..],
            &["datagen", "merge", "--out", &merged, &whole, path],
            &resume,
            &["wdl", "check", "--game", "sight", path],
            &["wdl", "fit", "--game", "sight", path],
        ] {
            let (status, out, err) = run_capped(args);
            assert_eq!(
                (status, out.as_str(), err),
                (Some(2), "", format!("error: {path}: {error}\n")),
                "{args:?}"
            );
        }
        assert!(!std::path::Path::new(&merged).exists());
    }
    // Out of order in their files: game 4 before game 0, game 3 before game 1.
    let g = &data.games;
    let written = |name: &str, games: &[&format::GameData]| {
        let mut out = header.clone();
        for game in games {
            out.extend(format::encode(game).expect("encoded"));
        }
        std::fs::write(file(name), out).expect("written");
        file(name)
    };
    let a = written("a.bin", &[&g[4], &g[0], &g[2]]);
    let b = written("b.bin", &[&g[3], &g[5], &g[1]]);
    let merged = file("merged.bin");
    let (status, out, err) = run_capped(&["datagen", "merge", "--out", &merged, &a, &b]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert_eq!(std::fs::read(&merged).expect("merged"), bytes);
    std::fs::remove_dir_all(&dir).ok();
}
