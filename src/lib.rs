//! ludus: a headless engine for the abstract board games Isaac, Sight and Tactigon.
//!
//! Layers, each depending only on those above it:
//! - [`game`]: rules ([`game::Game`]) and search knowledge ([`game::Evaluate`]) per game, and
//!   the single runtime dispatch [`game::GameId::visit`];
//! - [`search`]: one generic iterative-deepening alpha-beta with a transposition table and a
//!   time manager;
//! - [`engine`]: the search worker thread and the events it sends;
//! - [`protocol`]: the UGI/UCI text protocol loop, the only writer of standard output, and the
//!   one-shot commands for scripts.

pub mod engine;
pub mod game;
pub mod protocol;
pub mod search;
