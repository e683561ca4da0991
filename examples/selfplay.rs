//! Self-play check: the full search against a weaker level, colours alternating, every move
//! checked by the rules. Until the referee (`ludus match`) lands, this is how strength claims
//! are reproduced:
//!
//! ```sh
//! cargo run --release --example selfplay -- --game isaac --opponent greedy --games 200 --movetime 100
//! ```
//!
//! Games run on `--threads` threads at once (one search each); seeds make every run the same
//! schedule, though time-limited searches make individual games vary with machine load.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use clap::{Parser, ValueEnum};
use ludus::game::{GameId, GameVisitor, OptionSpec, OptionValues, Outcome, Player, Searchable};
use ludus::search::levels::{greedy_move, random_move};
use ludus::search::{Limits, SearchParams, SearchTables, search};
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[derive(Parser, Clone)]
struct Args {
    /// Game to play.
    #[arg(long, default_value = "isaac")]
    game: String,
    /// The weaker side.
    #[arg(long, value_enum)]
    opponent: Opponent,
    /// Number of games (colours alternate: even games the full search is player one).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Milliseconds per move for the full search.
    #[arg(long, default_value_t = 100)]
    movetime: i64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the opponent's random choices (game g uses seed + g).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Clone, Copy, ValueEnum)]
enum Opponent {
    Random,
    Greedy,
}

/// One finished game: did the full search win, in how many plies, at what mean depth.
struct GameResult {
    full_won: bool,
    full_seat: Player,
    plies: usize,
    depth_sum: u64,
    searches: u64,
}

struct Play<'a>(&'a Args);

impl GameVisitor for Play<'_> {
    type Output = Vec<GameResult>;

    fn visit<G: Searchable>(self) -> Vec<GameResult> {
        let args = self.0;
        let specs: Vec<OptionSpec> = G::options();
        let settings = G::settings(&OptionValues::from_specs(&specs));
        let next = AtomicUsize::new(0);
        let results = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..args.threads.max(1) {
                scope.spawn(|| {
                    loop {
                        let g = next.fetch_add(1, Ordering::SeqCst);
                        if g >= args.games {
                            break;
                        }
                        let result = play_one::<G>(args, &settings, g);
                        if let Ok(mut r) = results.lock() {
                            r.push(result);
                        }
                    }
                });
            }
        });
        results.into_inner().unwrap_or_default()
    }
}

fn play_one<G: Searchable>(args: &Args, settings: &G::Settings, g: usize) -> GameResult {
    let full_seat = if g.is_multiple_of(2) {
        Player::One
    } else {
        Player::Two
    };
    let mut rng = SmallRng::seed_from_u64(args.seed + g as u64);
    let mut tables = SearchTables::new(16, G::HISTORY_SIZE).expect("16 MiB for the table");
    let stop = AtomicBool::new(false);
    let params = SearchParams::new(Limits {
        movetime_ms: Some(args.movetime),
        ..Limits::default()
    });
    let mut pos = G::start(settings);
    let (mut plies, mut depth_sum, mut searches) = (0, 0, 0);
    let winner = loop {
        match pos.outcome() {
            Some(Outcome::Win(p)) => break Some(p),
            Some(Outcome::Draw) => break None,
            None => {}
        }
        let m = if pos.side_to_move() == full_seat {
            let result = search(&pos, &params, &mut tables, &stop, &mut |_| {});
            depth_sum += result.depth as u64;
            searches += 1;
            result.best.expect("a game that is not over has a move")
        } else {
            match args.opponent {
                Opponent::Random => random_move(&pos, &mut rng).expect("a move"),
                Opponent::Greedy => greedy_move(&pos, &mut rng).expect("a move").0,
            }
        };
        assert!(pos.is_legal(m), "illegal move in game {g}");
        pos.play(m);
        plies += 1;
    };
    GameResult {
        full_won: winner == Some(full_seat),
        full_seat,
        plies,
        depth_sum,
        searches,
    }
}

fn main() {
    let args = Args::parse();
    let Some(game) = GameId::from_name(&args.game) else {
        eprintln!("unknown game '{}'", args.game);
        std::process::exit(2);
    };
    let start = Instant::now();
    let results = game.visit(Play(&args));
    let won = results.iter().filter(|r| r.full_won).count();
    let won_as = |seat| {
        results
            .iter()
            .filter(|r| r.full_seat == seat && r.full_won)
            .count()
    };
    let plies: usize = results.iter().map(|r| r.plies).sum();
    let depth: u64 = results.iter().map(|r| r.depth_sum).sum();
    let searches: u64 = results.iter().map(|r| r.searches).sum::<u64>().max(1);
    let opponent = match args.opponent {
        Opponent::Random => "random",
        Opponent::Greedy => "greedy",
    };
    println!(
        "{game}: full ({} ms/move) vs {opponent}: full won {won}/{} = {:.1}% (as player one {}, as player two {}); mean {:.1} plies, mean depth {:.1}; {:.0} s",
        args.movetime,
        results.len(),
        100.0 * won as f64 / results.len().max(1) as f64,
        won_as(Player::One),
        won_as(Player::Two),
        plies as f64 / results.len().max(1) as f64,
        depth as f64 / searches as f64,
        start.elapsed().as_secs_f64()
    );
}
