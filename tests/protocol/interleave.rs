//! The interleaving checker: random sequences of `setoption`, `position`, `go`, `perft`,
//! `stop`, `isready` and a second `go`, sent to a `ludus` process as a GUI or a fuzzer would, with the
//! engine's answers checked as they arrive:
//!
//! - exactly one `bestmove` per `go`, in order, legal in the `go`'s position and inside its
//!   `searchmoves`; `bestmove (none)` only where there is no legal move;
//! - one `readyok` per `isready`;
//! - one `Nodes searched: N` or `info string perft stopped after N nodes` per `perft`, after
//!   its `move: count` lines;
//! - no `info string error` (every command sent is valid);
//! - no answer later than [`HANG`] (the engine never hangs).
//!
//! It measures, with the arrival time of every line taken by a reader thread, the latency of
//! `readyok` after `isready`, of `bestmove` after whatever ended the search (`stop`, or a
//! `go` or `setoption` that stops the search under way), and of a perft's last line after the
//! `stop` that ended it. Options are drawn at random
//! (`MultiPV` and `Threads` often at their maxima), so are the positions (random games from
//! the start) and the limits.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The longest any answer may take before the engine counts as hung.
pub const HANG: Duration = Duration::from_secs(10);

/// What one run measured.
#[derive(Debug, Default)]
pub struct Stats {
    /// Sequences played.
    pub sequences: usize,
    /// `go` commands sent.
    pub gos: usize,
    /// `isready` → `readyok`.
    pub readyok: Vec<Duration>,
    /// What ended a search (`stop`, `go`, `setoption`) → its `bestmove`.
    pub stop: Vec<Duration>,
    /// `perft` commands sent.
    pub perfts: usize,
    /// `stop` → the last line of the perft it ended.
    pub perft_stop: Vec<Duration>,
}

impl Stats {
    /// Adds another run's figures.
    pub fn merge(&mut self, other: Stats) {
        self.sequences += other.sequences;
        self.gos += other.gos;
        self.readyok.extend(other.readyok);
        self.stop.extend(other.stop);
        self.perfts += other.perfts;
        self.perft_stop.extend(other.perft_stop);
    }

    /// `name: n, median, p99, max` of one latency list, in milliseconds.
    pub fn summary(name: &str, list: &[Duration]) -> String {
        let mut ms: Vec<f64> = list.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let at = |q: f64| {
            if ms.is_empty() {
                0.0
            } else {
                ms[((ms.len() - 1) as f64 * q).round() as usize]
            }
        };
        format!(
            "{name}: n {}, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        )
    }
}

/// A `go` whose `bestmove` has not arrived yet.
struct PendingGo {
    /// Legal moves of its position (empty: the game is over).
    legal: Vec<String>,
    /// Its `searchmoves`, if any.
    allowed: Option<Vec<String>>,
    /// When something was sent that ends it.
    ended_at: Option<Instant>,
}

/// A `perft` whose last line has not arrived yet.
struct PendingPerft {
    /// When `stop` was sent to it, if it was.
    stopped_at: Option<Instant>,
}

/// The engine under test, with timestamped output.
struct Driver {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    pending: VecDeque<PendingGo>,
    perft: Option<PendingPerft>,
    readies: VecDeque<Instant>,
    stats: Stats,
    log: Vec<String>,
}

impl Driver {
    fn spawn(binary: &str) -> Driver {
        let mut child = Command::new(binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Driver {
            child,
            stdin,
            lines,
            pending: VecDeque::new(),
            perft: None,
            readies: VecDeque::new(),
            stats: Stats::default(),
            log: Vec::new(),
        }
    }

    fn fail(&self, why: &str) -> ! {
        let tail = self.log.len().saturating_sub(40);
        panic!(
            "{why}\n--- last lines (> sent, < received) ---\n{}",
            self.log[tail..].join("\n")
        );
    }

    fn send(&mut self, line: &str) -> Instant {
        self.log.push(format!("> {line}"));
        if writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            self.fail("the engine closed its input");
        }
        Instant::now()
    }

    /// Reads one line (within [`HANG`]) and checks it.
    fn read_one(&mut self) {
        match self.lines.recv_timeout(HANG) {
            Ok((at, line)) => self.check(at, line),
            Err(_) => self.fail("no answer within the hang bound"),
        }
    }

    /// Checks what has arrived, without waiting.
    fn poll(&mut self) {
        while let Ok((at, line)) = self.lines.try_recv() {
            self.check(at, line);
        }
    }

    /// Checks one line of output that arrived at `at`.
    fn check(&mut self, at: Instant, line: String) {
        if line.starts_with("info string error") {
            self.log.push(format!("< {line}"));
            self.fail("an error for a valid command");
        }
        if !line.starts_with("info ") {
            self.log.push(format!("< {line}"));
        }
        if line.starts_with("Nodes searched: ")
            || line.starts_with("info string perft stopped after ")
        {
            let Some(perft) = self.perft.take() else {
                self.fail("a perft's last line without perft");
            };
            if let Some(stopped) = perft.stopped_at.filter(|&s| s <= at) {
                self.stats.perft_stop.push(at - stopped);
            }
        } else if self.perft.is_some() && !line.starts_with("info ") && line.contains(": ") {
            // A `move: count` line of the perft under way.
        } else if line == "readyok" {
            match self.readies.pop_front() {
                Some(sent) => self.stats.readyok.push(at - sent),
                None => self.fail("readyok without isready"),
            }
        } else if let Some(rest) = line.strip_prefix("bestmove ") {
            let Some(go) = self.pending.pop_front() else {
                self.fail("bestmove without go");
            };
            let mv = rest.split(' ').next().unwrap_or("");
            let ok = if go.legal.is_empty() {
                mv == "(none)"
            } else {
                go.legal.iter().any(|m| m == mv)
                    && go
                        .allowed
                        .as_ref()
                        .is_none_or(|a| a.iter().any(|m| m == mv))
            };
            if !ok {
                self.fail(&format!("bestmove {mv} is not legal or not in searchmoves"));
            }
            if let Some(ended) = go.ended_at.filter(|&e| e <= at) {
                self.stats.stop.push(at - ended);
            }
        }
    }

    /// Reads until every `go` has its `bestmove`, every `isready` its `readyok` and the
    /// `perft` its last line.
    fn settle(&mut self) {
        while !self.pending.is_empty() || !self.readies.is_empty() || self.perft.is_some() {
            self.read_one();
        }
    }

    fn isready(&mut self) {
        let at = self.send("isready");
        self.readies.push_back(at);
    }

    /// Sends a command that ends the running search, if any, and notes when.
    fn send_ending(&mut self, line: &str) {
        let at = self.send(line);
        if let Some(go) = self.pending.back_mut().filter(|g| g.ended_at.is_none()) {
            go.ended_at = Some(at);
        }
    }

    fn legal_moves(&mut self) -> Vec<String> {
        self.settle();
        self.send("query legalmoves");
        loop {
            let (_, line) = match self.lines.recv_timeout(HANG) {
                Ok(x) => x,
                Err(_) => self.fail("no answer to query legalmoves"),
            };
            if let Some(rest) = line.strip_prefix("response ") {
                return match rest {
                    "(none)" => Vec::new(),
                    _ => rest.split(' ').map(str::to_string).collect(),
                };
            }
        }
    }
}

fn pick<'a>(rng: &mut SmallRng, items: &[&'a str]) -> &'a str {
    items[rng.random_range(0..items.len())]
}

/// A random `go` (limits and searchmoves) for a position with `legal` moves; the line and its
/// searchmoves, and whether its search ends by itself soon.
fn random_go(rng: &mut SmallRng, legal: &[String]) -> (String, Option<Vec<String>>, bool) {
    let (mut line, bounded) = match rng.random_range(0..7) {
        0 => (format!("go movetime {}", rng.random_range(1..150)), true),
        1 => (format!("go depth {}", rng.random_range(1..5)), true),
        2 => (format!("go nodes {}", rng.random_range(1..30_000)), true),
        3 => ("go infinite".to_string(), false),
        4 => ("go".to_string(), false),
        5 => (format!("go depth {}", rng.random_range(8..40)), false),
        _ => {
            let t = rng.random_range(20..3000);
            let inc = rng.random_range(0..100);
            (
                format!("go p1time {t} p2time {t} p1inc {inc} p2inc {inc}"),
                true,
            )
        }
    };
    let mut allowed = None;
    if !legal.is_empty() && rng.random_bool(0.3) {
        let n = rng.random_range(1..=legal.len().min(3));
        let mut list: Vec<String> = Vec::new();
        for _ in 0..n {
            list.push(legal[rng.random_range(0..legal.len())].clone());
        }
        line.push_str(" searchmoves ");
        line.push_str(&list.join(" "));
        allowed = Some(list);
    }
    (line, allowed, bounded)
}

/// Random options for the next sequence (some at their maxima).
fn random_options(rng: &mut SmallRng, max_threads: usize) -> Vec<String> {
    let mut lines = Vec::new();
    if rng.random_bool(0.5) {
        let k = if rng.random_bool(0.5) {
            256
        } else {
            rng.random_range(1..8)
        };
        lines.push(format!("setoption name MultiPV value {k}"));
    }
    if rng.random_bool(0.5) {
        let t = if rng.random_bool(0.5) { max_threads } else { 1 };
        lines.push(format!("setoption name Threads value {t}"));
    }
    if rng.random_bool(0.3) {
        let level = pick(rng, &["full", "full", "greedy", "random"]);
        lines.push(format!("setoption name Level value {level}"));
    }
    if rng.random_bool(0.3) {
        let searcher = pick(rng, &["auto", "alphabeta", "mcts"]);
        lines.push(format!("setoption name Searcher value {searcher}"));
    }
    if rng.random_bool(0.2) {
        let hash = pick(rng, &["1", "16", "64", "256"]);
        lines.push(format!("setoption name Hash value {hash}"));
    }
    lines
}

/// Rule switches of each game, set at random at the start of a run.
fn rule_options(game: &str, rng: &mut SmallRng) -> Vec<String> {
    let switches: &[&str] = match game {
        "tactigon" => &["Tactigon_JumpingSquares", "Tactigon_GoldBonus"],
        "sight" => &["Sight_StrictTallest"],
        _ => &["Isaac_EarlyFinish"],
    };
    switches
        .iter()
        .map(|s| format!("setoption name {s} value {}", rng.random_bool(0.5)))
        .collect()
}

/// Plays `sequences` random interleavings of `game` on one `ludus` process; panics on the
/// first broken rule (see the module doc) and returns the latencies.
pub fn run(binary: &str, game: &str, seed: u64, sequences: usize, max_threads: usize) -> Stats {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut d = Driver::spawn(binary);
    d.send(&format!("setoption name UCI_Variant value {game}"));
    for line in rule_options(game, &mut rng) {
        d.send(&line);
    }
    for _ in 0..sequences {
        for line in random_options(&mut rng, max_threads) {
            d.send_ending(&line);
        }
        d.settle();
        // A random game from the start, up to 40 plies.
        let mut moves: Vec<String> = Vec::new();
        d.send("position startpos");
        let plies = rng.random_range(0..40);
        let mut legal = d.legal_moves();
        while moves.len() < plies && !legal.is_empty() {
            moves.push(legal[rng.random_range(0..legal.len())].clone());
            d.send(&format!("position startpos moves {}", moves.join(" ")));
            legal = d.legal_moves();
        }
        if rng.random_bool(0.2) {
            // A perft, deep enough to be stopped in every game, then stopped.
            d.send(&format!("perft {}", rng.random_range(3..8)));
            d.stats.perfts += 1;
            d.perft = Some(PendingPerft { stopped_at: None });
            if rng.random_bool(0.5) {
                d.isready();
            }
            std::thread::sleep(Duration::from_millis(rng.random_range(0..30)));
            d.poll();
            let at = d.send("stop");
            if let Some(perft) = d.perft.as_mut() {
                perft.stopped_at = Some(at);
            }
            d.isready();
            d.settle();
        }
        let gos = rng.random_range(1..=3);
        for _ in 0..gos {
            let (line, allowed, bounded) = random_go(&mut rng, &legal);
            d.send_ending(&line);
            d.stats.gos += 1;
            d.pending.push_back(PendingGo {
                legal: legal.clone(),
                allowed,
                ended_at: None,
            });
            match rng.random_range(0..5) {
                0 => d.isready(),
                1 => {
                    std::thread::sleep(Duration::from_millis(rng.random_range(0..30)));
                    d.isready();
                    d.send_ending("stop");
                }
                2 if bounded => {}
                _ => {
                    std::thread::sleep(Duration::from_millis(rng.random_range(0..30)));
                    d.poll();
                    d.send_ending("stop");
                }
            }
        }
        d.send_ending("stop");
        d.isready();
        d.settle();
        d.stats.sequences += 1;
    }
    d.send("quit");
    let deadline = Instant::now() + HANG;
    loop {
        match d.child.try_wait() {
            Ok(Some(_)) => break,
            _ if Instant::now() > deadline => {
                let _ = d.child.kill();
                d.fail("no exit after quit");
            }
            _ => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    std::mem::take(&mut d.stats)
}
