//! ludus: a headless engine for the abstract board games Isaac, Sight and Tactigon.
//!
//! The map of the house (its rooms, the arrows between them, the threads, where each concept
//! lives, how to add a game) is docs/architecture.md; `tests/house/layering.rs` keeps its
//! walls. In short, from the bottom up:
//! - [`game`]: rules ([`game::Game`]) and search knowledge ([`game::Evaluate`],
//!   [`game::NetFeatures`], [`game::SearchHooks`], together [`game::Searchable`]) per game,
//!   the single runtime dispatch [`game::GameId::visit`], and the rules behind one object-safe
//!   trait ([`game::dynamic`]);
//! - [`lines`], [`machine`], [`exit_status`], [`files`]: bounded line reading, the machine's
//!   processors and memory, what the exit statuses mean, reading the files ludus is given;
//! - the engine core, a straight stack: [`net`] (learned evaluations) → [`search`]
//!   (alpha-beta, MCTS, time) → [`engine`] (the search worker) → [`protocol`] (the UGI/UCI
//!   loop, the only writer of standard output, and the one-shot commands); [`solve`] (the
//!   Sight solver, certificates and the solved book the engine plays from) beside the search;
//! - shared rooms: [`client`] (the protocol client, the one reader of engine output),
//!   [`record`] (game records and their file), [`analyse`] (game review), [`runs`] (shards
//!   and errors of the long runs), [`stats`] (Elo, its error bars and the SPRT of match results);
//! - their users: [`referee`] (`ludus match`), [`gui`] (`ludus web`, `ludus play`),
//!   [`datagen`] (`ludus datagen`), [`train`] (`ludus train`, with the cargo feature
//!   `train`), [`learn`] (`ludus learn`: the self-play → train → gate → promote loop that
//!   runs those commands) and [`wdl`] (`ludus wdl`: the win/draw/loss model fitted to datagen's games).
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
pub mod files;
pub mod game;
pub mod gui;
pub mod learn;
pub mod lines;
pub mod machine;
pub mod net;
pub mod progress;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod runs;
pub mod search;
pub mod solve;
pub mod stats;
pub mod train;
pub mod wdl;
