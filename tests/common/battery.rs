//! A game-independent invariant battery: seeded random playouts that check, at every ply, the
//! contracts every [`Game`] promises (see the trait's documentation):
//!
//! - every generated move is legal ([`Game::is_legal`]) and no move is generated twice;
//! - `from_fen(to_fen(p)) == p`, and the re-read position writes the identical text;
//! - `parse_move(move_to_string(m)) == m` for every generated move;
//! - the incremental [`Game::hash`] equals the hash of the position re-read from its text;
//! - [`Game::outcome`] is `Some` exactly when there is no legal move;
//! - a game ends within the length bound the caller gives.
//!
//! Game-specific checks plug in through [`Hooks`].

use std::collections::HashSet;

use ludus::game::{Game, Outcome, Player};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Game-specific checks called by [`random_games`] during each playout. Every method has an
/// empty default, so an implementation overrides only what it needs.
pub trait Hooks<G: Game> {
    /// Called once per game with the start position, before any check.
    fn on_start(&mut self, _pos: &G) {}
    /// Called at every ply (including the final one) after the generic checks passed, with the
    /// legal moves in generation order and the number of plies played so far.
    fn on_position(&mut self, _pos: &G, _moves: &[G::Move], _ply: usize) {}
    /// Called after move `m` was played from `before`, giving `after`.
    fn on_move(&mut self, _before: &G, _m: G::Move, _after: &G) {}
    /// Called once when the game is over, with its outcome and length in plies.
    fn on_end(&mut self, _pos: &G, _outcome: Outcome, _plies: usize) {}
}

/// Hooks that check nothing beyond the generic battery.
pub struct NoHooks;

impl<G: Game> Hooks<G> for NoHooks {}

/// What a run of [`random_games`] saw, for sanity checks and reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatteryStats {
    /// Games played.
    pub games: u64,
    /// Plies played over all games.
    pub plies: u64,
    /// Positions checked (plies plus one final position per game).
    pub positions: u64,
    /// Moves generated (and individually checked) over all positions.
    pub moves_checked: u64,
    /// Wins by player one and by player two.
    pub wins: [u64; 2],
    /// Drawn games.
    pub draws: u64,
    /// Shortest game, in plies.
    pub min_length: usize,
    /// Longest game, in plies.
    pub max_length: usize,
}

/// Runs the generic checks on one position and leaves its legal moves, in generation order,
/// in `moves`.
///
/// `moves` is a scratch buffer; it is deliberately passed in non-empty from the previous ply so
/// that [`Game::generate_moves`] is also checked to clear it. `context` is printed on failure.
pub fn check_position<G: Game>(
    pos: &G,
    settings: &G::Settings,
    moves: &mut Vec<G::Move>,
    context: &str,
) {
    let fen = pos.to_fen();
    pos.generate_moves(moves);

    // Legal and distinct.
    let mut seen = HashSet::with_capacity(moves.len());
    for &m in moves.iter() {
        assert!(
            pos.is_legal(m),
            "{context}: generated move {m:?} is not legal in {fen}"
        );
        assert!(
            seen.insert(m),
            "{context}: move {m:?} generated twice in {fen}"
        );
    }

    // Notation round trips.
    let reread = G::from_fen(&fen, settings)
        .unwrap_or_else(|e| panic!("{context}: to_fen wrote '{fen}', which does not parse: {e}"));
    assert_eq!(
        &reread, pos,
        "{context}: from_fen(to_fen(p)) != p for {fen}"
    );
    assert_eq!(reread.to_fen(), fen, "{context}: fen does not round-trip");
    assert_eq!(
        reread.side_to_move(),
        pos.side_to_move(),
        "{context}: side to move lost in {fen}"
    );
    assert_eq!(
        reread.hash(),
        pos.hash(),
        "{context}: incremental hash differs from the hash of the re-read {fen}"
    );
    for &m in moves.iter() {
        let text = pos.move_to_string(m);
        match pos.parse_move(&text) {
            Ok(back) => assert_eq!(back, m, "{context}: move '{text}' reads back differently"),
            Err(e) => panic!("{context}: move_to_string wrote '{text}', unreadable: {e}"),
        }
    }
    let mut reread_moves = Vec::new();
    reread.generate_moves(&mut reread_moves);
    assert_eq!(
        &reread_moves, moves,
        "{context}: the re-read position generates other moves ({fen})"
    );

    // Game over exactly when there is nothing to play.
    assert_eq!(
        pos.outcome().is_some(),
        moves.is_empty(),
        "{context}: outcome {:?} with {} legal moves in {fen}",
        pos.outcome(),
        moves.len()
    );
}

/// Plays one seeded random game from the start position, checking every ply with
/// [`check_position`] and the hooks. Panics if the game is not over after `max_plies` plies.
/// Returns the outcome and the length in plies.
pub fn random_game<G: Game>(
    settings: &G::Settings,
    seed: u64,
    max_plies: usize,
    hooks: &mut impl Hooks<G>,
    stats: &mut BatteryStats,
) -> (Outcome, usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = G::start(settings);
    let mut moves = Vec::new();
    let mut record: Vec<String> = Vec::new();
    hooks.on_start(&pos);
    let mut ply = 0;
    loop {
        let context = format!("{} seed {seed} after [{}]", G::NAME, record.join(" "));
        check_position(&pos, settings, &mut moves, &context);
        stats.positions += 1;
        stats.moves_checked += moves.len() as u64;
        hooks.on_position(&pos, &moves, ply);
        if let Some(outcome) = pos.outcome() {
            hooks.on_end(&pos, outcome, ply);
            return (outcome, ply);
        }
        assert!(
            ply < max_plies,
            "{context}: game not over after the bound of {max_plies} plies"
        );
        let m = moves[rng.random_range(0..moves.len())];
        record.push(pos.move_to_string(m));
        let before = pos.clone();
        pos.play(m);
        hooks.on_move(&before, m, &pos);
        ply += 1;
        stats.plies += 1;
    }
}

/// Plays one random game per seed in `seeds` (see [`random_game`]) and gathers statistics.
pub fn random_games<G: Game>(
    settings: &G::Settings,
    seeds: std::ops::Range<u64>,
    max_plies: usize,
    hooks: &mut impl Hooks<G>,
) -> BatteryStats {
    let mut stats = BatteryStats {
        min_length: usize::MAX,
        ..BatteryStats::default()
    };
    for seed in seeds {
        let (outcome, length) = random_game(settings, seed, max_plies, hooks, &mut stats);
        stats.games += 1;
        match outcome {
            Outcome::Win(Player::One) => stats.wins[0] += 1,
            Outcome::Win(Player::Two) => stats.wins[1] += 1,
            Outcome::Draw => stats.draws += 1,
        }
        stats.min_length = stats.min_length.min(length);
        stats.max_length = stats.max_length.max(length);
    }
    stats
}
