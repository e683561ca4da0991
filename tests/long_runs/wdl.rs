//! `ludus wdl` (docs/wdl.md): fitted to a small datagen run, it prints the constants to paste
//! and the held-out table; `check` prints the built-in model's table; a file that is not
//! datagen data, a damaged one, one of another game and a run with too few games are refused
//! with a clear error and exit status 2, never a panic.

use crate::common::{TestDir, run_ludus};

/// A small Sight run (20 games at 300 nodes) in `dir`; returns its path.
fn sight_data(dir: &TestDir) -> String {
    let path = dir.0.join("sight.bin").to_string_lossy().into_owned();
    let args = [
        "datagen", "--game", "sight", "--games", "20", "--nodes", "300", "--seed", "3", "--out",
        &path,
    ];
    let (status, out, err) = run_ludus(&args);
    assert_eq!(status, 0, "{out}{err}");
    path
}

#[test]
fn fit_prints_the_constants_and_check_the_held_out_table() {
    let dir = TestDir::new("wdl-fit");
    let data = sight_data(&dir);
    let (status, out, err) = run_ludus(&["wdl", "fit", "--game", "sight", "--knots", "2", &data]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("fitting 2 knots to "), "{out}");
    assert!(out.contains("no draws"), "Sight has no draws: {out}");
    let constants = out
        .lines()
        .skip_while(|l| !l.contains("const WDL_MODEL"))
        .take(4)
        .collect::<Vec<_>>();
    assert_eq!(constants.len(), 4, "{out}");
    assert_eq!(constants[1].trim(), "a: &[0.0, 0.0],", "{out}");
    let b: Vec<f64> = constants[2]
        .trim()
        .trim_start_matches("b: &[")
        .trim_end_matches("],")
        .split(", ")
        .map(|x| x.parse().expect("a number"))
        .collect();
    assert!(b.len() == 2 && b.iter().all(|&x| x > 0.0), "{out}");
    assert!(out.contains("predicted W D L"), "{out}");
    assert!(out.contains("buckets have at least 200 positions"), "{out}");

    let (status, out, err) =
        run_ludus(&["wdl", "check", "--game", "sight", "--width", "25", &data]);
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("the model built in for sight:"), "{out}");
    // Every bucket row: a range of width 25, then its count and six rates that sum to 100
    // twice (predicted, observed).
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with('['))
        .collect();
    assert!(!rows.is_empty(), "{out}");
    for row in rows {
        let words: Vec<&str> = row.split_whitespace().collect();
        let lo: i64 = words[0]
            .trim_matches(|c| c == '[' || c == ',')
            .parse()
            .expect("lo");
        let hi: i64 = words[1].trim_end_matches(')').parse().expect("hi");
        assert_eq!(hi - lo, 25, "{row}");
        let rates: Vec<f64> = words[3..9]
            .iter()
            .map(|w| w.parse().expect("a rate"))
            .collect();
        for three in rates.chunks(3) {
            assert!((three.iter().sum::<f64>() - 100.0).abs() < 0.2, "{row}");
        }
    }
}

#[test]
fn bad_data_is_refused_with_a_clear_error() {
    let dir = TestDir::new("wdl-refused");
    let data = sight_data(&dir);
    let refused = |args: &[&str], want: &str| {
        let (status, out, err) = run_ludus(args);
        assert_eq!(status, 2, "{args:?}: {out}{err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    let text = dir.0.join("notes.txt");
    std::fs::write(&text, "not data at all\n").expect("written");
    let text = text.to_string_lossy().into_owned();
    refused(
        &["wdl", "fit", "--game", "sight", &text],
        "not a ludus datagen file",
    );
    refused(
        &["wdl", "check", "--game", "sight", "/nonexistent/wdl.bin"],
        "/nonexistent/wdl.bin",
    );
    refused(
        &["wdl", "fit", "--game", "isaac", &data],
        "holds sight data, not isaac",
    );
    // A damaged byte inside a game: its checksum no longer matches.
    let mut bytes = std::fs::read(&data).expect("readable");
    let at = bytes.len() - 20;
    bytes[at] ^= 0x40;
    let damaged = dir.0.join("damaged.bin");
    std::fs::write(&damaged, bytes).expect("written");
    let damaged = damaged.to_string_lossy().into_owned();
    refused(&["wdl", "check", "--game", "sight", &damaged], "damaged");
    // A held-out share of every game is refused by the flag itself; a run of one game (index
    // 0, held out) leaves nothing to fit.
    refused(
        &[
            "wdl",
            "fit",
            "--game",
            "sight",
            "--held-out-every",
            "1",
            &data,
        ],
        "held-out-every",
    );
    let one = dir.0.join("one.bin").to_string_lossy().into_owned();
    let args = [
        "datagen", "--game", "sight", "--games", "1", "--nodes", "300", "--out", &one,
    ];
    assert_eq!(run_ludus(&args).0, 0);
    refused(&["wdl", "fit", "--game", "sight", &one], "0 training and");
    refused(
        &["wdl", "fit", "--game", "sight", "--knots", "0", &data],
        "knots",
    );
}
