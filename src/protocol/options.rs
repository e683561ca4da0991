//! The engine's option table: engine options first, then every game's rule switches. The
//! same table is advertised by `ugi`/`uci` and checks every `setoption`.

use crate::game::{GameId, OptionSpec};
use crate::machine;
use crate::search::Searcher;
use crate::search::levels::Level;
use crate::search::smp::MAX_THREADS;
use crate::search::strength;

/// `UCI_Variant`: the game being played.
pub const VARIANT: &str = "UCI_Variant";
/// `Hash`: transposition table size in MiB.
pub const HASH: &str = "Hash";
/// `Threads`: search threads sharing the transposition table (Lazy SMP) or one MCTS tree.
pub const THREADS: &str = "Threads";
/// `MultiPV`: number of best lines reported.
pub const MULTIPV: &str = "MultiPV";
/// `Move Overhead`: ms lost per move outside the engine.
pub const MOVE_OVERHEAD: &str = "Move Overhead";
/// The default `Move Overhead` in ms: the latency budget. In the clock benchmark with both
/// cores busy (docs/benchmarks.md, "The clock") 20 ms let one answer in about 72,000 past
/// it; 30 ms none.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 30;
/// `Clear Hash`: forget the search tables.
pub const CLEAR_HASH: &str = "Clear Hash";
/// `Debug Log File`: copy all I/O to a file.
pub const DEBUG_LOG_FILE: &str = "Debug Log File";
/// `Level`: `random`, `greedy` or `full`.
pub const LEVEL: &str = "Level";
/// `UCI_LimitStrength`: play at `UCI_Elo` instead of full strength (with `Level full`).
pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
/// `UCI_Elo`: the rating `UCI_LimitStrength` plays at, on the current game's scale
/// (`Level random` = 0; docs/strength.md, "Levels").
pub const ELO: &str = "UCI_Elo";
/// `UCI_ShowWDL`: every `info` line with a score also says the side to move's chances of a
/// win, a draw and a loss in per mille (`wdl W D L`, after the score), from the game's fitted
/// model (docs/wdl.md).
pub const SHOW_WDL: &str = "UCI_ShowWDL";
/// `Ponder`: name the expected reply in `bestmove … ponder …` (what a GUI or runner then lets
/// the engine think about with `go ponder` on the opponent's time).
pub const PONDER: &str = "Ponder";
/// `SolvedBook`: play the solved book's move where it has one (Sight on the boards and rules
/// of the certificates in `data/`, see docs/solved.md).
pub const SOLVED_BOOK: &str = "SolvedBook";
/// `Searcher`: the searcher of `Level full`, `auto` (each game's better one), `alphabeta` or
/// `mcts`.
pub const SEARCHER: &str = "Searcher";
/// `Eval`: the static evaluation, `net` (the learned one: `EvalFile`'s net, else the net
/// built in, else the hand-written one where a game has no net yet) or `hand`.
pub const EVAL: &str = "Eval";
/// `EvalFile`: a net file (docs/training.md) to evaluate with instead of the built-in net;
/// empty for the built-in one. A file that is not a net of the current game is refused.
pub const EVAL_FILE: &str = "EvalFile";
/// The values of `Eval`.
pub const EVAL_NAMES: &[&str] = &["net", "hand"];
/// `Seed`: seed of the random choices of `Level random|greedy` (0 = from the clock).
pub const SEED: &str = "Seed";

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MIB: i64 = 64;
/// Largest `Hash` where the machine's memory cannot be read.
const FALLBACK_MAX_HASH_MIB: i64 = 16_384;
/// Most lines `MultiPV` reports. Every search can be cut at any node, so more lines cost
/// depth, never latency.
pub const MAX_MULTIPV: i64 = 256;

/// The largest `Hash` this machine can serve: a quarter of its memory, so that the table and
/// an MCTS tree of the same size (the tree's budget is `Hash` too) take at most half.
pub fn max_hash_mib() -> i64 {
    machine::memory().map_or(FALLBACK_MAX_HASH_MIB, |m| {
        i64::try_from(m.total_mib / 4).unwrap_or(i64::MAX).max(1)
    })
}

/// The most search threads this machine can serve: one per logical processor (a thread more
/// than the processors would only take time from the others, the main thread included).
pub fn max_threads() -> i64 {
    machine::cpus().clamp(1, MAX_THREADS) as i64
}

/// Why a `Hash` of `mib` MiB cannot be had now, replacing a table of `current_mib`: the new
/// table and an MCTS tree of the same size must fit into the memory available (what the
/// kernel reports as available, plus the current table, which is freed first). `None` when
/// it fits, or when the machine's memory cannot be read.
pub fn hash_shortfall(mib: u64, current_mib: u64) -> Option<String> {
    let memory = machine::memory()?;
    let needed = mib.saturating_mul(2);
    let available = memory.available_mib.saturating_add(current_mib);
    (needed > available).then(|| {
        format!(
            "Hash {mib} MiB needs up to {needed} MiB with the search tree, and {available} MiB \
             are available"
        )
    })
}

/// Every option while `game` is played, engine options first, then each game's rule
/// switches. `UCI_Elo`'s range is `game`'s own scale.
pub fn all_specs(game: GameId) -> Vec<OptionSpec> {
    let variants: Vec<&'static str> = GameId::ALL.iter().map(|g| g.name()).collect();
    let (elo_low, elo_high) = strength::elo_range(game);
    let mut specs = vec![
        OptionSpec::combo(VARIANT, GameId::DEFAULT.name(), &variants),
        OptionSpec::spin(HASH, DEFAULT_HASH_MIB, 1, max_hash_mib()),
        OptionSpec::spin(THREADS, 1, 1, max_threads()),
        OptionSpec::spin(MULTIPV, 1, 1, MAX_MULTIPV),
        OptionSpec::spin(MOVE_OVERHEAD, DEFAULT_MOVE_OVERHEAD_MS, 0, 5000),
        OptionSpec::button(CLEAR_HASH),
        OptionSpec::text(DEBUG_LOG_FILE, ""),
        OptionSpec::combo(LEVEL, "full", Level::NAMES),
        OptionSpec::check(LIMIT_STRENGTH, false),
        OptionSpec::spin(ELO, elo_low, elo_low, elo_high),
        OptionSpec::check(SHOW_WDL, false),
        OptionSpec::combo(SEARCHER, "auto", Searcher::NAMES),
        OptionSpec::check(PONDER, false),
        OptionSpec::check(SOLVED_BOOK, true),
        OptionSpec::combo(EVAL, "net", EVAL_NAMES),
        OptionSpec::text(EVAL_FILE, ""),
        OptionSpec::spin(SEED, 0, 0, i64::MAX),
    ];
    for game in GameId::ALL {
        specs.extend(game.options());
    }
    specs
}

/// The spec of the option called `name` (case-insensitive, as UCI asks).
pub fn find<'a>(specs: &'a [OptionSpec], name: &str) -> Option<&'a OptionSpec> {
    specs.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The game an option belongs to, if it is a rule switch.
pub fn owning_game(name: &str) -> Option<GameId> {
    GameId::ALL
        .iter()
        .copied()
        .find(|g| g.options().iter().any(|s| s.name == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_game_switches_are_prefixed() {
        let specs = all_specs(GameId::DEFAULT);
        for (i, a) in specs.iter().enumerate() {
            for b in &specs[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name), "{}", a.name);
            }
        }
        for game in GameId::ALL {
            for spec in game.options() {
                let prefix = format!("{}_", capitalised(game.name()));
                assert!(spec.name.starts_with(&prefix), "{}", spec.name);
                assert_eq!(owning_game(spec.name), Some(*game));
            }
        }
        assert_eq!(owning_game(HASH), None);
        assert_eq!(
            find(&specs, "move overhead").map(|s| s.name),
            Some(MOVE_OVERHEAD)
        );
    }

    fn capitalised(s: &str) -> String {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    }
}
