//! Generic perft driver: checks the counts listed in `tests/perft/<game>.perft` for any
//! [`Game`]. The file format is described in the header of `tests/perft/sight.perft`:
//!
//! ```text
//! game ; options ; fen ; counts
//! sight ; Sight_BoardSize=3,Sight_StrictTallest=true ; 3:x3/x3/x3 w ; 9 72 504
//! ```
//!
//! Depths whose expected count exceeds a node budget (default 20,000,000) are skipped unless
//! `LUDUS_HEAVY=1` is set; `LUDUS_PERFT_BUDGET=<nodes>` sets another budget. The positions are
//! checked in parallel, one worker per available core.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ludus::game::isaac::Isaac;
use ludus::game::sight::Sight;
use ludus::game::tactigon::Tactigon;
use ludus::game::{Game, OptionSpec, OptionValues};

/// Default node budget per depth when `LUDUS_HEAVY` is not set.
const DEFAULT_BUDGET: u64 = 20_000_000;

/// One position of a perft file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    /// 1-based line number in the file, for messages.
    line: usize,
    /// The game's name.
    game: String,
    /// `(name, value)` pairs as written.
    options: Vec<(String, String)>,
    /// The position.
    fen: String,
    /// Expected perft counts for depths 1, 2, ….
    counts: Vec<u64>,
}

/// Reads a perft file's text into entries, or says which line is malformed.
fn parse_perft_text(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split(';').map(str::trim).collect();
        let [game, options, fen, counts] = fields[..] else {
            return Err(format!(
                "line {line}: expected 4 fields 'game ; options ; fen ; counts', found {}",
                fields.len()
            ));
        };
        if game.is_empty() || fen.is_empty() {
            return Err(format!("line {line}: empty game or fen field"));
        }
        let mut opts = Vec::new();
        for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((name, value)) = item.split_once('=') else {
                return Err(format!("line {line}: option '{item}' is not Name=Value"));
            };
            opts.push((name.trim().to_string(), value.trim().to_string()));
        }
        let counts = counts
            .split_whitespace()
            .map(|c| {
                if c.bytes().all(|b| b.is_ascii_digit()) {
                    c.parse::<u64>().ok()
                } else {
                    None
                }
                .ok_or_else(|| format!("line {line}: bad count '{c}'"))
            })
            .collect::<Result<Vec<u64>, String>>()?;
        if counts.is_empty() {
            return Err(format!("line {line}: no counts"));
        }
        entries.push(Entry {
            line,
            game: game.to_string(),
            options: opts,
            fen: fen.to_string(),
            counts,
        });
    }
    Ok(entries)
}

/// Builds `G`'s settings from an entry's options: defaults from the specs, then each
/// `Name=Value` validated by its spec and set.
fn settings_for<G: Game>(entry: &Entry) -> Result<G::Settings, String> {
    let specs: Vec<OptionSpec> = G::options();
    let mut values = OptionValues::from_specs(&specs);
    for (name, value) in &entry.options {
        let spec = specs
            .iter()
            .find(|s| s.name == name.as_str())
            .ok_or_else(|| format!("line {}: {} has no option '{name}'", entry.line, G::NAME))?;
        let canonical = spec
            .validate(value)
            .map_err(|e| format!("line {}: {e}", entry.line))?;
        values.set(spec.name, canonical);
    }
    Ok(G::settings(&values))
}

/// The node budget per depth: unlimited with `LUDUS_HEAVY=1`, else `LUDUS_PERFT_BUDGET` or
/// [`DEFAULT_BUDGET`].
fn budget() -> u64 {
    if std::env::var("LUDUS_HEAVY").is_ok_and(|v| v == "1") {
        return u64::MAX;
    }
    std::env::var("LUDUS_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_BUDGET)
}

/// What [`check_file`] did.
#[derive(Debug, Default)]
struct Summary {
    /// Entries for the game with at least one depth checked.
    entries_checked: usize,
    /// Depths checked over all entries.
    depths_checked: usize,
    /// Depths skipped for the budget.
    depths_skipped: usize,
    /// Nodes counted (sum of the checked counts).
    nodes: u64,
}

/// Checks every line of the perft file at `path` that belongs to game `game_name` with game
/// type `G`. Panics listing every wrong count, malformed line, unreadable position, and if no
/// entry for the game was checked at all.
fn check_file<G: Game>(path: &Path, game_name: &str) -> Summary {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let entries: Vec<Entry> = parse_perft_text(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_iter()
        .filter(|e| e.game.eq_ignore_ascii_case(game_name))
        .collect();
    let budget = budget();

    // Parse everything first, so that format errors are reported before any long count.
    let mut jobs = Vec::new();
    let mut summary = Summary::default();
    for entry in &entries {
        let settings = settings_for::<G>(entry).unwrap_or_else(|e| panic!("{e}"));
        let pos = G::from_fen(&entry.fen, &settings)
            .unwrap_or_else(|e| panic!("line {}: bad fen '{}': {e}", entry.line, entry.fen));
        let mut any = false;
        for (i, &expected) in entry.counts.iter().enumerate() {
            if expected > budget {
                summary.depths_skipped += 1;
            } else {
                jobs.push((
                    entry.line,
                    entry.fen.clone(),
                    pos.clone(),
                    i as u32 + 1,
                    expected,
                ));
                summary.depths_checked += 1;
                summary.nodes += expected;
                any = true;
            }
        }
        summary.entries_checked += usize::from(any);
    }
    // A shared queue, biggest job popped first, so that the workers finish together.
    // (`Mutex` makes the queue shareable with `G: Send` only.)
    jobs.sort_by_key(|job| job.4);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len());
    let queue = Mutex::new(jobs);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let Some((line, fen, pos, depth, expected)) = queue.lock().unwrap().pop()
                    else {
                        break;
                    };
                    let got = pos.perft(depth);
                    if got != expected {
                        failures.lock().unwrap().push(format!(
                            "line {line}: {fen} perft({depth}) = {got}, expected {expected}"
                        ));
                    }
                }
            });
        }
    });

    let budget_note = if budget == u64::MAX {
        "no budget".to_string()
    } else {
        format!("budget {budget} nodes; LUDUS_HEAVY=1 runs them all")
    };
    eprintln!(
        "{}: {game_name}: {} entries, {} depths checked ({} nodes), {} depths skipped ({budget_note})",
        path.display(),
        summary.entries_checked,
        summary.depths_checked,
        summary.nodes,
        summary.depths_skipped,
    );
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    assert!(
        summary.entries_checked > 0,
        "{}: no entry checked for game '{game_name}'",
        path.display()
    );
    summary
}

fn data_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("perft")
        .join(name)
}

#[test]
fn sight_perft_file() {
    let summary = check_file::<Sight>(&data_file("sight.perft"), Sight::NAME);
    // Every listed position has depths within the default budget.
    assert_eq!(summary.entries_checked, 12);
}

#[test]
fn isaac_perft_file() {
    let summary = check_file::<Isaac>(&data_file("isaac.perft"), Isaac::NAME);
    assert_eq!(summary.entries_checked, 25);
}

#[test]
fn tactigon_perft_file() {
    let summary = check_file::<Tactigon>(&data_file("tactigon.perft"), Tactigon::NAME);
    assert_eq!(summary.entries_checked, 40);
}

#[test]
fn perft_file_format_errors_are_reported() {
    let good = "# comment\n\nsight ; Sight_StrictTallest=true ; 3:x3/x3/x3 w ; 9 72 # tail\n";
    let entries = parse_perft_text(good).unwrap();
    assert_eq!(
        entries,
        [Entry {
            line: 3,
            game: "sight".into(),
            options: vec![("Sight_StrictTallest".into(), "true".into())],
            fen: "3:x3/x3/x3 w".into(),
            counts: vec![9, 72],
        }]
    );
    assert!(settings_for::<Sight>(&entries[0]).unwrap().strict_tallest);
    for bad in [
        "sight ; ; 3:x3/x3/x3 w",
        "sight ; ; 3:x3/x3/x3 w ; 9 ; 72",
        "sight ; ; 3:x3/x3/x3 w ;",
        "sight ; ; 3:x3/x3/x3 w ; 9 -72",
        "sight ; ; 3:x3/x3/x3 w ; 9 7.2",
        "sight ; Sight_StrictTallest ; 3:x3/x3/x3 w ; 9",
        " ; ; 3:x3/x3/x3 w ; 9",
    ] {
        assert!(parse_perft_text(bad).is_err(), "'{bad}' should be rejected");
    }
    for bad_option in [
        "sight ; Sight_Nonsense=1 ; 3:x3/x3/x3 w ; 9",
        "sight ; Sight_StrictTallest=maybe ; 3:x3/x3/x3 w ; 9",
        "sight ; Sight_BoardSize=42 ; 3:x3/x3/x3 w ; 9",
    ] {
        let entries = parse_perft_text(bad_option).unwrap();
        assert!(
            settings_for::<Sight>(&entries[0]).is_err(),
            "'{bad_option}' should be rejected"
        );
    }
}

#[test]
#[should_panic(expected = "no entry checked")]
fn perft_driver_fails_without_entries_for_the_game() {
    check_file::<Sight>(&data_file("sight.perft"), "no-such-game");
}
