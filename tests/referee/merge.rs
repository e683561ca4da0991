//! `ludus match merge` refuses files whose games would count twice (the same shard twice, a
//! whole run with one of its shards, shards of different plans), games outside the schedule
//! and results files of an older ludus.

use super::*;

/// Runs `ludus match merge FILES`, which must be refused with `error`.
fn merge_refused(files: &[&Path], error: &str) {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    refused(&args, error);
}

#[test]
fn merge_refuses_overlapping_shards_and_foreign_games() {
    let dir = scratch("merge-overlap");
    let results = |name: &str, extra: &str| {
        let path = dir.join(name);
        run_ok("sight", &with_file(quick(6, 50, extra), "--results", &path));
        path
    };
    let whole = results("whole.json", "");
    let (h1, h2) = (
        results("h1.json", "--shard 1/2"),
        results("h2.json", "--shard 2/2"),
    );
    let t2 = results("t2.json", "--shard 2/3");
    let h1_again = dir.join("h1-again.json");
    std::fs::copy(&h1, &h1_again).unwrap();
    let d = |p: &Path| p.display().to_string();

    merge_refused(
        &[&h1, &h1_again],
        &format!(
            "{} and {} both hold shard 1/2: its games would count twice",
            d(&h1),
            d(&h1_again)
        ),
    );
    merge_refused(
        &[&whole, &h1],
        &format!(
            "{} holds the whole match and {} shard 1/2: a whole match already holds every \
             game of its shards, so their games would count twice",
            d(&whole),
            d(&h1)
        ),
    );
    merge_refused(
        &[&h1, &t2],
        &format!(
            "{} holds shard 1/2 and {} shard 2/3: shards of different --shard K/N plans \
             overlap, so their games would count twice",
            d(&h1),
            d(&t2)
        ),
    );
    // Shard 2/2 holds pair 1 (games 3 and 4); game 7 is beyond the 6 games of the match.
    let h2_text = std::fs::read_to_string(&h2).unwrap();
    let beyond = dir.join("beyond.json");
    std::fs::write(&beyond, h2_text.replace("\"number\": 4", "\"number\": 7")).unwrap();
    merge_refused(
        &[&h1, &beyond],
        &format!(
            "{}: game 7 is not in the schedule (games 1 to 6 of this match)",
            d(&beyond)
        ),
    );
    let stray = dir.join("stray.json");
    std::fs::write(&stray, h2_text.replace("\"number\": 4", "\"number\": 2")).unwrap();
    merge_refused(
        &[&h1, &stray],
        &format!("{}: game 2 belongs to shard 1/2, not to 2/2", d(&stray)),
    );
    let older = dir.join("older.json");
    std::fs::write(
        &older,
        h2_text.replace("ludus-match-results/2", "ludus-match-results/1"),
    )
    .unwrap();
    merge_refused(
        &[&h1, &older],
        &format!(
            "{}: format \"ludus-match-results/1\" was written by an older ludus and does not \
             say which match (engines, openings, schedule) or which shard its games belong \
             to, so it cannot be checked or merged safely; replay it with this ludus (a \
             --resume of its record file is refused likewise)",
            d(&older)
        ),
    );

    // The two halves make the whole.
    let merged = dir.join("merged.json");
    let args: Vec<String> = ["merge", &d(&h2), &d(&h1), "--results", &d(&merged)]
        .map(str::to_string)
        .to_vec();
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(games(&merged), games(&whole));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    assert_eq!(json["scheduled_games"], 6);
    assert_eq!(json["shard"], Value::Null);
    assert_eq!(
        json["shards"],
        serde_json::json!({"count": 1, "indices": [1]})
    );
}
