//! Below the book (issue 31, finding 10): does the engine keep a proven win where the solved
//! book's certificates end? Positions are sampled along the certificates' winning lines: the
//! winner plays the certificate's strategy move (below its leaves, the move the engine's own
//! proof plays, [`ludus::solve::endgame::prove_board`]), the defender a random legal move, until the winner is to move at a target number of
//! empty points drawn at random from those in `--min-empties..=--max-empties` where the
//! winner moves. The engine, a separate process driven through the protocol, answers each
//! with `go movetime M`; the answer is judged by the certificate checker's plain exhaustive
//! minimax on the game's own rules ([`ludus::solve::check::Exhaustive`]), not by the prover
//! the engine plays with: the move keeps the win when the opponent is left without a move or
//! the exhaustive search finds the position after it lost for the opponent.
//!
//! ```sh
//! cargo build --release --locked --example below_book
//! target/release/examples/below_book --engine target/release/ludus --positions 500 --seed 31
//! ```
//!
//! `benches/solve/below_book.sh` runs it with both cores busy. Prints one line per position
//! that lost the win, and per rule variant and empty count: positions, wins kept, answers
//! with `score mate`, the slowest answer.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use clap::Parser;
use ludus::game::Game;
use ludus::game::sight::Sight;
use ludus::solve::board::{Board, Lines, Move};
use ludus::solve::certificate::Certificate;
use ludus::solve::check::Exhaustive;
use ludus::solve::endgame::{RootProof, prove_board};
use ludus::solve::prover::Limit;
use ludus::solve::symmetry::Symmetries;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

#[derive(Parser)]
struct Args {
    /// The engine binary.
    #[arg(long)]
    engine: String,
    /// Positions per rule variant.
    #[arg(long, default_value_t = 500)]
    positions: usize,
    /// The seed of the sampling.
    #[arg(long, default_value_t = 31)]
    seed: u64,
    /// `go movetime` in milliseconds.
    #[arg(long, default_value_t = 50)]
    movetime: u64,
    /// Fewest empty points of a sampled position.
    #[arg(long, default_value_t = 14)]
    min_empties: u32,
    /// Most empty points of a sampled position.
    #[arg(long, default_value_t = 20)]
    max_empties: u32,
}

/// The engine process, spoken to through the protocol.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &str, strict: bool) -> Engine {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut e = Engine {
            child,
            input,
            output,
        };
        e.send("uci");
        e.until("uciok");
        e.send(&format!(
            "setoption name Sight_StrictTallest value {strict}"
        ));
        e.send("isready");
        e.until("readyok");
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
        self.input.flush().expect("the engine reads");
    }

    /// Reads up to the line starting with `word`; returns the lines read, that one last.
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("the engine writes");
            assert!(n > 0, "the engine ended before `{word}`");
            let line = line.trim_end().to_string();
            let done = line.split_whitespace().next() == Some(word);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// The engine's move in `fen` and whether it reported `score mate`.
    fn play(&mut self, fen: &str, movetime: u64) -> (String, bool) {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go movetime {movetime}"));
        let lines = self.until("bestmove");
        let mate = lines
            .iter()
            .rfind(|l| l.starts_with("info ") && l.contains(" score "))
            .is_some_and(|l| l.contains(" score mate ") && !l.contains(" score mate -"));
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1));
        (best.unwrap_or("(none)").to_string(), mate)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

/// Per empty count: positions, wins kept, `score mate` answers, slowest answer in ms.
type Tally = BTreeMap<u32, (u32, u32, u32, u128)>;

/// One variant's sampler: the certificate and the solver's board.
struct Sampler {
    cert: Certificate,
    lines: Lines,
    syms: Symmetries,
    /// The winner of the empty board: 0 White, 1 Black.
    winner: u8,
}

impl Sampler {
    fn new(strict: bool) -> Sampler {
        let text: &str = if strict {
            include_str!("../data/sight5-strict.cert")
        } else {
            include_str!("../data/sight5-official.cert")
        };
        let cert = Certificate::read(&mut text.as_bytes()).expect("the certificate parses");
        let lines = Lines::new(5).expect("5×5");
        let syms = Symmetries::new(&lines);
        let empty = Board::empty(strict);
        let winner = if cert.strategy.contains_key(&syms.canonical(&empty).key) {
            0
        } else {
            1
        };
        Sampler {
            cert,
            lines,
            syms,
            winner,
        }
    }

    /// The winner's move in `b`: the certificate's, else the one the engine's own proof
    /// plays (the engine's line below the book).
    fn winning_move(&mut self, b: &Board) -> Move {
        let c = self.syms.canonical(b);
        if let Some(&(m, _)) = self.cert.strategy.get(&c.key) {
            return self.syms.unmap_move(c.sym, m);
        }
        let unlimited = Limit {
            nodes: u64::MAX,
            stop: None,
            also_stop: None,
            deadline: None,
        };
        match prove_board(b, &self.lines, &self.syms, unlimited).map(|o| o.result) {
            Some(RootProof::Wins(m, _)) => m,
            other => panic!("{}: the winner's line left the win: {other:?}", b.to_fen(5)),
        }
    }

    /// A position with the winner to move at `target` empty points; `None` when the game
    /// ended before (the defender shut in).
    fn sample(&mut self, target: u32, rng: &mut SmallRng) -> Option<Board> {
        let mut b = Board::empty(self.cert.strict);
        let mut moves = Vec::new();
        loop {
            let empties = b.empty_count(&self.lines);
            if b.side == self.winner {
                if empties == target {
                    return Some(b);
                }
                let m = self.winning_move(&b);
                b = b.play(&self.lines, m);
            } else {
                b.moves(&self.lines, &mut moves);
                if moves.is_empty() {
                    return None;
                }
                let m = moves[rng.random_range(0..moves.len())];
                b = b.play(&self.lines, m);
            }
        }
    }
}

fn main() {
    let args = Args::parse();
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut lost = 0;
    for strict in [false, true] {
        let rules = if strict { "strict_tallest" } else { "official" };
        let mut sampler = Sampler::new(strict);
        let settings = sampler.cert.settings();
        // The winner moves at 25 empty points (White) or 24 (Black).
        let targets: Vec<u32> = (args.min_empties..=args.max_empties)
            .filter(|e| (25 - e) % 2 == u32::from(sampler.winner))
            .collect();
        let mut engine = Engine::start(&args.engine, strict);
        let mut judge = Exhaustive::default();
        let mut seen = HashSet::new();
        let mut tally = Tally::new();
        let started = Instant::now();
        while seen.len() < args.positions {
            let target = targets[rng.random_range(0..targets.len())];
            let Some(b) = sampler.sample(target, &mut rng) else {
                continue;
            };
            let fen = b.to_fen(5);
            if !seen.insert(fen.clone()) {
                continue;
            }
            let asked = Instant::now();
            let (mv, mate) = engine.play(&fen, args.movetime);
            let ms = asked.elapsed().as_millis();
            let mut child = Sight::from_fen(&fen, &settings).expect("a position");
            let kept = child.try_play_str(&mv).is_ok()
                && (child.count_moves_for(child.side_to_move()) == 0 || !judge.wins(&child));
            let t = tally.entry(target).or_default();
            t.0 += 1;
            t.1 += u32::from(kept);
            t.2 += u32::from(mate);
            t.3 = t.3.max(ms);
            if !kept {
                lost += 1;
                println!("LOST {rules} {fen}: the engine played {mv}");
            }
            if seen.len() % 50 == 0 {
                eprintln!(
                    "{rules}: {} positions, {:.0} s, judge {} nodes",
                    seen.len(),
                    started.elapsed().as_secs_f64(),
                    judge.nodes
                );
            }
        }
        for (empties, (n, kept, mate, slowest)) in &tally {
            println!(
                "{rules} empties {empties}: {n} positions, {kept} wins kept, {mate} with score \
                 mate, slowest answer {slowest} ms"
            );
        }
        let (n, kept) = tally.values().fold((0, 0), |(n, k), t| (n + t.0, k + t.1));
        println!(
            "{rules}: {n} positions, {kept} wins kept ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
    }
    std::process::exit(i32::from(lost > 0));
}
