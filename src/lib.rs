//! ludus: a headless engine for the abstract board games Isaac, Sight and Tactigon.
//!
//! Layers, each depending only on those above it:
//! - [`game`]: rules ([`game::Game`]) and search knowledge ([`game::Evaluate`],
//!   [`game::NetFeatures`], [`game::SearchHooks`], together [`game::Searchable`]) per game, and
//!   the single runtime dispatch [`game::GameId::visit`];
//! - [`net`]: learned evaluations (small integer nets over each game's features), kept
//!   incrementally during a search;
//! - [`search`]: one generic iterative-deepening alpha-beta with a transposition table and a
//!   time manager;
//! - [`solve`]: the Sight solver, its certificates and checker, and the solved book the
//!   engine plays from (its command line, `ludus solve`, borrows the referee's `--shard K/N`);
//! - [`engine`]: the search worker thread and the events it sends;
//! - [`lines`]: bounded line reading shared by the protocol and the referee;
//! - [`machine`]: the processors and memory the machine can serve (option maxima);
//! - [`protocol`]: the UGI/UCI text protocol loop, the only writer of standard output, and the
//!   one-shot commands for scripts;
//! - [`exit_status`]: what the binary's exit statuses mean;
//! - [`datagen`]: `ludus datagen`, self-play training data (searched positions with their
//!   scores and the games' results), sharded and resumable;
//! - [`train`]: `ludus train`, a net from datagen files (with the cargo feature `train`);
//! - [`referee`]: `ludus match`, engine-vs-engine matches checked by the rules, with
//!   statistics (Elo, error bars, LOS, SPRT), records, resume and shards.
//!
//! Using the rules and the search as a library:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use ludus::game::sight::{Sight, SightSettings};
//! use ludus::game::{Game, SearchHooks};
//! use ludus::search::{search, Limits, Score, SearchParams, SearchTables};
//!
//! // docs/rules/sight.md TV11: White to move, one of its five moves shuts Black in.
//! let pos = Sight::from_fen("5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w", &SightSettings::default())?;
//! assert_eq!(pos.perft(1), 5);
//! let params = SearchParams::new(Limits { depth: Some(4), ..Limits::default() });
//! let mut tables = SearchTables::new(1, Sight::HISTORY_SIZE).expect("1 MiB");
//! let result = search(&pos, &params, &mut tables, &AtomicBool::new(false), &mut |_| {});
//! assert_eq!(result.best, Some(pos.parse_move("d4-e4")?));
//! assert_eq!(result.score, Some(Score::Mate(1)));
//! # Ok::<(), ludus::game::ParseError>(())
//! ```

pub mod analyse;
pub mod client;
pub mod datagen;
pub mod engine;
pub mod exit_status;
pub mod game;
pub mod gui;
pub mod lines;
pub mod machine;
pub mod net;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod runs;
pub mod search;
pub mod solve;
pub mod train;
