//! Section 3 of the engine bench, protocol latencies against the built binary: `isready` →
//! `readyok` during a search, `stop` → `bestmove`, `stop` → the end of a `perft`, and how far `go movetime` overshoots, over
//! pipes and by wall clock.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::report::{Table, max, median, min, percentile, worst_note};
use crate::{BenchResult, Plan, Verdict};

/// Targets printed next to the figures.
const TARGET_READYOK_MS: f64 = 10.0;
const TARGET_STOP_MS: f64 = 20.0;

/// Seed of every random delay.
const SEED: u64 = 0x1d05_5eed;

/// Positions the protocol measurements cycle through, as `position` commands.
const PROTOCOL_POSITIONS: &[&str] = &[
    "position startpos",
    "position startpos moves c3 c4 b2",
    "position fen 5:x5/x,w2,x3/x2,w,x2/x2,b,b,x/x5 w",
    "position startpos moves b2 d4 e4 b4",
];

/// The perfts that `stop` interrupts (measurement d): deep enough not to end by themselves,
/// shallow enough that whole subtrees of the last two plies are large (Isaac's 4 plies from
/// the start hold 600 × 600 × 600 leaves a root move). Issue 31.6: a perft read the stop flag
/// only above its last two plies (0.1–0.4 s, 2.3 s under load).
const PERFT_STOPS: &[(&str, u32)] = &[("isaac", 4), ("sight", 7), ("tactigon", 6)];

/// How long to wait for any expected engine line before declaring the engine stuck.
const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

/// The `ludus` binary in protocol mode, with every stdout line timestamped on arrival.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    fn spawn() -> BenchResult<Engine> {
        let path = env!("CARGO_BIN_EXE_ludus");
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, lines) = mpsc::channel();
        thread::Builder::new()
            .name("engine-stdout".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send((Instant::now(), line)).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start the reader thread: {e}"))?;
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    /// Writes one command line; returns the instant just before the write.
    fn send(&mut self, command: &str) -> BenchResult<Instant> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        let t = Instant::now();
        // One write per line, so the engine never sees half a command.
        stdin
            .write_all(format!("{command}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot send '{command}': {e}"))?;
        Ok(t)
    }

    /// Waits for a line starting with `want`, skipping `info` lines (but not errors); any
    /// other line is a protocol failure. Returns the instant the line was read and the line.
    fn expect(&self, want: &str) -> BenchResult<(Instant, String)> {
        self.wait_for(want, |line| {
            line.starts_with("info ") && !line.starts_with("info string error")
        })
    }

    /// Waits for a line starting with `want`, skipping the lines `skip` accepts; any other
    /// line is a protocol failure. Returns the instant the line was read and the line.
    fn wait_for(&self, want: &str, skip: impl Fn(&str) -> bool) -> BenchResult<(Instant, String)> {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((t, line)) if line.starts_with(want) => return Ok((t, line)),
                Ok((_, line)) if skip(&line) => {}
                Ok((_, line)) => {
                    return Err(format!("waiting for '{want}', the engine said '{line}'"));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no '{want}' within {REPLY_TIMEOUT:?}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the engine exited while waiting for '{want}'"));
                }
            }
        }
    }

    /// `ugi` handshake; returns the default of `Move Overhead` in ms.
    fn handshake(&mut self) -> BenchResult<u64> {
        self.send("ugi")?;
        let mut overhead = None;
        loop {
            let (_, line) = self
                .lines
                .recv_timeout(REPLY_TIMEOUT)
                .map_err(|e| format!("no ugiok: {e}"))?;
            if let Some(rest) = line.strip_prefix("option name Move Overhead type spin default ") {
                overhead = rest.split_whitespace().next().and_then(|v| v.parse().ok());
            }
            if line == "ugiok" {
                break;
            }
        }
        self.send("isready")?;
        self.expect("readyok")?;
        overhead.ok_or_else(|| "ugi lists no 'Move Overhead' spin option".to_string())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        eprintln!("engine bench: the engine did not quit; killing it");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn sleep_ms(ms: u64) {
    thread::sleep(Duration::from_millis(ms));
}

pub fn bench_protocol(plan: &Plan) -> BenchResult<Vec<Verdict>> {
    println!(
        "## 3. Protocol latencies (`{}` over pipes, wall clock)\n",
        env!("CARGO_BIN_EXE_ludus")
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or("ludus")
    );
    let mut engine = Engine::spawn()?;
    let overhead = engine.handshake()?;
    let mut rng = SmallRng::seed_from_u64(SEED);
    let tries = plan.latency_tries;

    // (a) `isready` → `readyok` while `go infinite` runs on the start position.
    let mut ready = Vec::with_capacity(tries);
    let mut ready_notes = Vec::with_capacity(tries);
    for i in 0..tries {
        engine.send("position startpos")?;
        engine.send("go infinite")?;
        let delay = rng.random_range(20..=50);
        sleep_ms(delay);
        let sent = engine.send("isready")?;
        let (got, _) = engine.expect("readyok")?;
        ready.push(ms(got - sent));
        ready_notes.push(format!(
            "try {}, start position, {delay} ms into the search",
            i + 1
        ));
        engine.send("stop")?;
        engine.expect("bestmove")?;
    }

    // (b) `stop` → `bestmove` after a `go infinite` of 20–100 ms.
    let mut stop = Vec::with_capacity(tries);
    let mut stop_notes = Vec::with_capacity(tries);
    for i in 0..tries {
        let position = PROTOCOL_POSITIONS[i % PROTOCOL_POSITIONS.len()];
        engine.send(position)?;
        engine.send("go infinite")?;
        let delay = rng.random_range(20..=100);
        sleep_ms(delay);
        stop_notes.push(format!(
            "try {}, `{position}`, {delay} ms into the search",
            i + 1
        ));
        let sent = engine.send("stop")?;
        let (got, line) = engine.expect("bestmove")?;
        if line == "bestmove (none)" {
            return Err(format!("no move after stop: '{line}'"));
        }
        stop.push(ms(got - sent));
    }

    // (c) `go movetime M` → `bestmove`: elapsed − M, per M, over several positions.
    let mut by_movetime: Vec<Vec<f64>> = vec![Vec::new(); plan.movetimes.len()];
    let (mut overs, mut over_notes) = (Vec::new(), Vec::new());
    for round in 0..plan.movetime_rounds {
        for (k, &m) in plan.movetimes.iter().enumerate() {
            let position = PROTOCOL_POSITIONS[(round + k) % PROTOCOL_POSITIONS.len()];
            engine.send(position)?;
            let sent = engine.send(&format!("go movetime {m}"))?;
            let (got, line) = engine.expect("bestmove")?;
            if line == "bestmove (none)" {
                return Err(format!("no move from '{position}' with movetime {m}"));
            }
            let over = ms(got - sent) - m as f64;
            by_movetime[k].push(over);
            overs.push(over);
            over_notes.push(format!("`{position}`, `go movetime {m}`"));
        }
    }

    // (d) `stop` → `info string perft stopped …` 30 ms into a perft, in each game.
    let mut perft_stop = Vec::new();
    let mut perft_notes = Vec::new();
    for &(game, depth) in PERFT_STOPS {
        engine.send(&format!("setoption name UCI_Variant value {game}"))?;
        engine.send("isready")?;
        engine.expect("readyok")?;
        for i in 0..tries.div_ceil(2) {
            engine.send("position startpos")?;
            engine.send(&format!("perft {depth}"))?;
            sleep_ms(30);
            let sent = engine.send("stop")?;
            // Root moves finished before the stop are reported first (`move: count`).
            let (got, _) = engine.wait_for("info string perft stopped after ", |line| {
                line.contains(": ")
            })?;
            perft_stop.push(ms(got - sent));
            perft_notes.push(format!("try {}, {game} `perft {depth}`", i + 1));
        }
    }
    engine.send("setoption name UCI_Variant value sight")?;
    drop(engine);

    let mut table = Table::new(&[
        "measurement",
        "tries",
        "median ms",
        "p90 ms",
        "max ms",
        "target",
    ]);
    table.row(vec![
        "`isready` → `readyok` during `go infinite`".into(),
        ready.len().to_string(),
        format!("{:.2}", median(&ready)),
        format!("{:.2}", percentile(&ready, 0.9)),
        format!("{:.2}", max(&ready)),
        format!("≤ {TARGET_READYOK_MS} ms"),
    ]);
    table.row(vec![
        "`stop` → `bestmove` (after 20–100 ms of `go infinite`)".into(),
        stop.len().to_string(),
        format!("{:.2}", median(&stop)),
        format!("{:.2}", percentile(&stop, 0.9)),
        format!("{:.2}", max(&stop)),
        format!("≤ {TARGET_STOP_MS} ms"),
    ]);
    table.row(vec![
        "`stop` → `perft stopped` (30 ms into a deep perft, each game)".into(),
        perft_stop.len().to_string(),
        format!("{:.2}", median(&perft_stop)),
        format!("{:.2}", percentile(&perft_stop, 0.9)),
        format!("{:.2}", max(&perft_stop)),
        format!("≤ {TARGET_STOP_MS} ms"),
    ]);
    table.print();
    println!("Slowest `readyok`: {}", worst_note(&ready, &ready_notes));
    println!(
        "Slowest `bestmove` after `stop`: {}",
        worst_note(&stop, &stop_notes)
    );
    println!(
        "Slowest `perft stopped` after `stop`: {}\n",
        worst_note(&perft_stop, &perft_notes)
    );

    let mut table = Table::new(&[
        "movetime M (ms)",
        "tries",
        "min elapsed − M",
        "median elapsed − M",
        "max elapsed − M",
        "max late vs M − overhead",
        "Move Overhead",
        "target",
    ]);
    let mut all = Vec::new();
    for (&m, overs) in plan.movetimes.iter().zip(&by_movetime) {
        all.extend_from_slice(overs);
        table.row(vec![
            m.to_string(),
            overs.len().to_string(),
            format!("{:+.2}", min(overs)),
            format!("{:+.2}", median(overs)),
            format!("{:+.2}", max(overs)),
            format!("{:+.2}", max(overs) + overhead as f64),
            format!("{overhead} ms"),
            format!("max ≤ {overhead} ms"),
        ]);
    }
    table.print();
    println!(
        "Latest `bestmove` relative to M: {}\n",
        worst_note(&overs, &over_notes)
    );

    let worst = max(&all);
    Ok(vec![
        Verdict {
            target: format!("`readyok` median and max ≤ {TARGET_READYOK_MS} ms"),
            figure: format!("{:.2} / {:.2} ms", median(&ready), max(&ready)),
            met: max(&ready) <= TARGET_READYOK_MS,
        },
        Verdict {
            target: format!("`stop` → `bestmove` median and max ≤ {TARGET_STOP_MS} ms"),
            figure: format!("{:.2} / {:.2} ms", median(&stop), max(&stop)),
            met: max(&stop) <= TARGET_STOP_MS,
        },
        Verdict {
            target: format!("`stop` → `perft stopped` median and max ≤ {TARGET_STOP_MS} ms"),
            figure: format!("{:.2} / {:.2} ms", median(&perft_stop), max(&perft_stop)),
            met: max(&perft_stop) <= TARGET_STOP_MS,
        },
        Verdict {
            target: format!("movetime overshoot ≤ Move Overhead ({overhead} ms)"),
            figure: format!("max {worst:+.2} ms over {} tries", all.len()),
            met: worst <= overhead as f64,
        },
    ])
}
