//! `ludus learn`, end to end on a tiny variant (Sight 4×4, a few dozen games at a few hundred
//! nodes): two generations run unattended, and the same run killed with SIGKILL in the middle
//! of a step and started again ends with the same ledger (but for wall times) and the same
//! nets byte for byte; another configuration in the same folder is refused, and so is a
//! second driver on it. Without the trainer the command says how to get it.

#[cfg(feature = "train")]
use std::path::Path;
use std::path::PathBuf;
#[cfg(feature = "train")]
use std::process::Command;
#[cfg(feature = "train")]
use std::time::{Duration, Instant};

use crate::common::run_ludus;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[cfg(feature = "train")]
/// The tiny run's settings: gates at fixed nodes only (a clock's games are not reproducible),
/// one game at a time, so that a run resumed after a kill must give the uninterrupted run's
/// ledger.
const TINY: &str = r#"{
  "seed": 7,
  "datagen": {"games": 40, "nodes": 300, "shards": 2},
  "train": {"epochs": 2, "hidden": 8, "batch": 256, "warm_start": true},
  "gate": {"nodes": 300, "max_games": 24, "concurrency": 1, "elo0": -600, "elo1": -500},
  "confirm": null,
  "anchor_games": 8
}"#;

#[cfg(feature = "train")]
fn learn_args<'a>(out: &'a str, config: &'a str) -> Vec<&'a str> {
    vec![
        "learn",
        "--game",
        "sight",
        "--option",
        "Sight_BoardSize=4",
        "--config",
        config,
        "--out",
        out,
        "--generations",
        "2",
        "--progress",
        "1",
    ]
}

#[cfg(feature = "train")]
/// The ledger's lines with the wall times and clocks taken out.
fn ledger_without_times(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("ledger.jsonl")).expect("a ledger");
    text.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            scrub(&mut v);
            v
        })
        .collect()
}

#[cfg(feature = "train")]
fn scrub(v: &mut serde_json::Value) {
    if let serde_json::Value::Object(map) = v {
        for key in [
            "seconds",
            "ended",
            "positions_per_second",
            "positions_per_second_per_core",
        ] {
            map.remove(key);
        }
        for value in map.values_mut() {
            scrub(value);
        }
    }
}

#[cfg(feature = "train")]
#[test]
fn a_tiny_loop_runs_two_generations_and_resumes_after_a_kill_to_the_same_ledger() {
    let dir = temp_dir("loop");
    let config = dir.join("tiny.json");
    std::fs::write(&config, TINY).expect("written");
    let config = config.to_string_lossy().into_owned();

    // The uninterrupted run.
    let whole = dir.join("whole");
    let whole_s = whole.to_string_lossy().into_owned();
    let (status, out, err) = run_ludus(&learn_args(&whole_s, &config));
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("learn: generation 2 "), "{out}");
    assert!(
        out.ends_with("learn: stopped: 2 of 2 generations done\n"),
        "{out}"
    );
    let ledger = ledger_without_times(&whole);
    assert_eq!(
        ledger.len(),
        4,
        "generations 0, 1, 2 and the stop: {ledger:#?}"
    );
    for (i, line) in ledger.iter().take(3).enumerate() {
        assert_eq!(line["kind"], "generation");
        assert_eq!(line["generation"], i as u64);
    }
    assert_eq!(ledger[3]["kind"], "stop");
    assert_eq!(ledger[3]["rule"], "generations");
    for line in &ledger[1..3] {
        assert_eq!(line["data"]["games"], 40, "{line:#}");
        assert!(line["data"]["positions"].as_u64().unwrap_or(0) > 100);
        let gate = &line["gate_nodes"];
        let games = gate["games"].as_u64().unwrap_or(0);
        assert!((2..=24).contains(&games), "{gate:#}");
        assert_eq!(
            gate["wins"].as_u64().unwrap_or(0)
                + gate["losses"].as_u64().unwrap_or(0)
                + gate["draws"].as_u64().unwrap_or(0),
            games
        );
        assert!(line["train"]["valid_loss"].as_f64().is_some(), "{line:#}");
        let best = line["best"].as_str().unwrap_or("");
        let g = line["generation"].as_u64().unwrap_or(0);
        if line["promoted"] == true {
            assert_eq!(best, format!("gen-{g:03}"));
        } else {
            assert_ne!(best, format!("gen-{g:03}"));
        }
    }
    // The nodes gate's bounds (elo0 -600, elo1 -500) pass any candidate that is not hopeless:
    // promotion, the anchor match and a warm start from the new best are exercised.
    assert_eq!(ledger[1]["promoted"], true, "{:#}", ledger[1]);
    assert_eq!(ledger[1]["anchor"]["games"], 8, "{:#}", ledger[1]);
    assert_eq!(ledger[2]["train"]["warm_start"], true, "{:#}", ledger[2]);
    let svg = std::fs::read_to_string(whole.join("elo.svg")).expect("a chart");
    assert!(svg.starts_with("<svg") && svg.contains("best vs generation 0"));
    let best_line = ledger[..3]
        .iter()
        .rev()
        .find(|l| l["promoted"] == true)
        .expect("generation 0 at least");
    let best_net = whole.join(best_line["net"].as_str().unwrap_or(""));
    assert_eq!(
        std::fs::read(whole.join("best.nnue")).ok(),
        std::fs::read(&best_net).ok(),
        "best.nnue is the last promoted generation's net"
    );

    // The same run, killed in the middle of generation 1's gate and started again.
    let cut = dir.join("cut");
    let cut_s = cut.to_string_lossy().into_owned();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(learn_args(&cut_s, &config))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ludus learn starts");
    let record = cut.join("gen-001").join("gate-nodes.pgn");
    let deadline = Instant::now() + Duration::from_secs(300);
    while std::fs::metadata(&record).map_or(0, |m| m.len()) == 0 {
        assert!(Instant::now() < deadline, "no gate game within 300 s");
        assert!(child.try_wait().expect("waits").is_none(), "ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, _, err) = run_ludus(&learn_args(&cut_s, &config));
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("another `ludus learn` is working on"), "{err}");
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let steps = std::fs::read_to_string(cut.join("gen-001").join("steps.json")).expect("steps");
    assert!(steps.contains("\"train\""), "{steps}");
    // Cut before the run's end (its gate may have ended just before the kill: a gate of a few
    // games can decide within milliseconds of its first record).
    let cut_ledger = std::fs::read_to_string(cut.join("ledger.jsonl")).unwrap_or_default();
    assert!(cut_ledger.lines().count() < 4, "{cut_ledger}");
    // The children went with the driver: a second driver is not refused for the lock, and
    // no datagen or match of the first writes beside it.
    let (status, out, err) = run_ludus(&learn_args(&cut_s, &config));
    assert_eq!(status, 0, "{out}{err}");
    assert_eq!(
        ledger_without_times(&cut),
        ledger,
        "the resumed run's ledger"
    );
    for g in 0..=2 {
        let name = format!("nets/gen-{g:03}.nnue");
        assert_eq!(
            std::fs::read(cut.join(&name)).ok(),
            std::fs::read(whole.join(&name)).ok(),
            "{name}"
        );
    }

    // Another configuration in the same folder is refused, saying what differs.
    let other = dir.join("other.json");
    std::fs::write(&other, TINY.replace("\"seed\": 7", "\"seed\": 8")).expect("written");
    let other = other.to_string_lossy().into_owned();
    let (status, _, err) = run_ludus(&learn_args(&cut_s, &other));
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("differs in: seed (7 here, 8 given)"), "{err}");
    // More generations of the same run go on from its ledger (here: the stop rule holds).
    let (status, out, err) = run_ludus(&["learn", "--out", &cut_s, "--generations", "2"]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("stopped: 2 of 2 generations done"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(not(feature = "train"))]
#[test]
fn without_the_trainer_learn_says_how_to_get_it() {
    let dir = temp_dir("refused");
    let out = dir.join("run").to_string_lossy().into_owned();
    let (status, _, err) = run_ludus(&["learn", "--game", "sight", "--out", &out]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("--features train"), "{err}");
    assert!(!dir.join("run").exists(), "nothing is made");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_configuration_is_refused_before_anything_is_made() {
    let dir = temp_dir("bad");
    let config = dir.join("bad.json");
    std::fs::write(&config, r#"{"datagen": {"shards": 0}}"#).expect("written");
    let out = dir.join("run").to_string_lossy().into_owned();
    let config = config.to_string_lossy().into_owned();
    let (status, _, err) = run_ludus(&["learn", "--out", &out, "--config", &config]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("datagen.shards: must be at least 1"), "{err}");
    assert!(!dir.join("run").exists(), "nothing is made");
    let (status, out_text, err) =
        run_ludus(&["learn", "--game", "isaac", "--out", &out, "--show-config"]);
    assert_eq!(status, 0, "{err}");
    let shown: serde_json::Value = serde_json::from_str(&out_text).expect("JSON");
    assert_eq!(shown["game"], "isaac");
    assert_eq!(shown["train"]["base"], "hand");
    assert_eq!(shown["confirm"]["tc"], "2+0.02");
    let _ = std::fs::remove_dir_all(&dir);
}
