//! Endgame hints (`ludus solve hints`, `hints-merge`, `hints-check`; issue 31, finding 10) on
//! the shipped 4×4 certificate: two shards, one of them cut off mid-write and resumed, merge
//! into the same file as one process; the merge refuses missing, doubled and unfinished
//! shards; the check accepts the file and fails on a changed move or another certificate's
//! hints; and the embedded 5×5 hints belong to the embedded certificates.

use crate::common::{TestDir as Dir, run_ludus};

const CERT: &str = "data/sight4-official.cert";
/// Low enough for the 4×4 endgames (their slowest proofs take a few thousand nodes).
const MIN_NODES: &str = "100";

fn hints_run(out: &str, shard: Option<&str>) -> String {
    let mut args = vec![
        "solve",
        "hints",
        CERT,
        "--out",
        out,
        "--min-nodes",
        MIN_NODES,
    ];
    if let Some(shard) = shard {
        args.extend(["--shard", shard]);
    }
    let (status, stdout, err) = run_ludus(&args);
    assert_eq!(status, 0, "{stdout}{err}");
    stdout
}

fn merge(files: &[&str], out: &str) -> (i32, String, String) {
    let mut args = vec!["solve", "hints-merge", "--threshold", "300", "--out", out];
    args.extend(files);
    run_ludus(&args)
}

#[test]
fn shards_resumed_after_a_cut_merge_into_the_one_process_hints() {
    let dir = Dir::new("hints4");
    let (one, s1, s2) = (dir.file("one.run"), dir.file("s1.run"), dir.file("s2.run"));
    let said = hints_run(&one, None);
    assert!(
        said.starts_with("hints 4×4 official rules: 9635 leaves, shard 1/1: 9635 to walk"),
        "{said}"
    );
    hints_run(&s1, Some("1/2"));
    hints_run(&s2, Some("2/2"));
    // Cut shard 2 in the middle of a hint line, as a killed process leaves it: the rerun
    // keeps what its last `leaf` line closes and walks the rest again.
    let text = std::fs::read_to_string(&s2).expect("the run file");
    let cut = text[..text.len() / 2].rfind("\nhint\t").expect("hints") + 12;
    std::fs::write(&s2, &text[..cut]).expect("cut");
    let kept = text[..cut].matches("\nleaf ").count();
    let said = hints_run(&s2, Some("2/2"));
    assert!(
        said.contains(&format!("{} to walk, {kept} already walked", 4817 - kept)),
        "{said}"
    );
    let (whole, split) = (dir.file("whole.hints"), dir.file("split.hints"));
    let (status, out, err) = merge(&[&one], &whole);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.starts_with("hints: "), "{out}");
    let (status, out, err) = merge(&[&s2, &s1], &split);
    assert_eq!(status, 0, "{out}{err}");
    let bytes = std::fs::read(&whole).expect("the hints");
    assert_eq!(bytes, std::fs::read(&split).expect("the hints"));
    let header = String::from_utf8_lossy(&bytes[..bytes.iter().position(|&b| b == b'\n').unwrap()])
        .into_owned();
    assert_eq!(header, "# ludus sight hints v1");

    // The merge refuses a missing shard, a shard twice, an unfinished shard and a threshold
    // below what the run wrote.
    let refused = |files: &[&str], why: &str| {
        let (status, out, err) = merge(files, &dir.file("no.hints"));
        assert_eq!(status, 2, "{out}{err}");
        assert!(err.contains(why), "{err}");
    };
    refused(&[&s1], "shards 2/2 are missing");
    refused(&[&s1, &s1, &s2], "shard 1/2 is given twice");
    refused(&[&one, &s1], "a run file of another run");
    std::fs::write(&s2, &text[..cut]).expect("cut");
    refused(&[&s1, &s2], "leaves still to walk: run it again to finish");
    let (status, _, err) = run_ludus(&[
        "solve",
        "hints-merge",
        "--threshold",
        "50",
        "--out",
        &dir.file("no.hints"),
        &one,
    ]);
    assert_eq!(status, 2);
    assert!(err.contains("below the run's --min-nodes 100"), "{err}");

    // The check walks the leaves again and judges every hint by exhaustive search.
    let (status, out, err) = run_ludus(&["solve", "hints-check", &whole, "--cert", CERT]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("hints hold below all 9635 leaves"), "{out}");
    // Another certificate's hints are not these.
    let (status, _, err) = run_ludus(&[
        "solve",
        "hints-check",
        &whole,
        "--cert",
        "data/sight4-strict.cert",
    ]);
    assert_eq!(status, 1);
    assert!(err.contains("the hints of another certificate"), "{err}");
    // A hint whose move index is changed: another move (or none) where the proof is slow.
    let mut changed = bytes.clone();
    let last = changed.len() - 2;
    changed[last] = changed[last].wrapping_add(1);
    let bad = dir.file("bad.hints");
    std::fs::write(&bad, &changed).expect("write");
    let (status, _, err) = run_ludus(&["solve", "hints-check", &bad, "--cert", CERT]);
    assert_eq!(status, 1);
    assert!(
        err.contains("the hint is another move") || err.contains("no hint"),
        "{err}"
    );
    // Cut records: refused as a file, naming the count.
    std::fs::write(&bad, &bytes[..bytes.len() - 3]).expect("write");
    let (status, _, err) = run_ludus(&["solve", "hints-check", &bad, "--cert", CERT]);
    assert_eq!(status, 2);
    assert!(err.contains("bytes of records for"), "{err}");
}

#[test]
fn the_embedded_hints_are_made_for_the_embedded_certificates() {
    assert!(ludus::solve::book::all_parse());
    for strict in [false, true] {
        assert!(ludus::solve::book::hint_count(5, strict) > 1000, "{strict}");
    }
}

/// Issue 31, finding 10: the slowest leaf of the official 5×5 certificate (its proof takes
/// 1,292,970 prover nodes, about 0.2 s of an idle core) is answered from the hints at once,
/// even at `go movetime 1` where the prover has no time at all, and the move wins by the
/// certificate checker's exhaustive search.
#[test]
fn the_slowest_leaf_is_answered_from_the_hints_at_any_time() {
    use ludus::game::Game;
    use ludus::game::sight::{Sight, SightSettings};
    const SLOWEST: &str = "5:x5/x5/x5/w,w,x,w,x/b,b,b,b,w w";
    let (status, out, err) = run_ludus(&["go", "--fen", SLOWEST, "--movetime", "1", "--info"]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains(" score mate 9 nodes 0 "), "{out}");
    let mv = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line");
    let settings = SightSettings {
        size: 5,
        strict_tallest: false,
    };
    let mut after = Sight::from_fen(SLOWEST, &settings).expect("a position");
    after.try_play_str(mv).expect("a legal move");
    assert!(!ludus::solve::check::exhaustive_wins(&after), "{mv} loses");
}
