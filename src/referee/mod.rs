//! The referee: engine-vs-engine matches (`ludus match`) that trust no engine and lose no game.
//!
//! - [`cli`]: the command line, cutechess/fastchess style; [`config`]: engines and settings;
//! - [`schedule`]: game pairs, rounds, shards; [`openings`]: where games start;
//! - [`engine_process`]: one child engine process; [`play`]: one game, every move checked by
//!   [`rules`], clocks from [`time_control`], [`adjudication`];
//! - [`runner`]: concurrency, progress, SPRT stop; [`resume`]: carrying on from the record;
//!   [`record`]: the PGN-like record file; [`results`]: tallies, tables, the JSON results file;
//!   [`merge`]: joining shards; [`identity`]: what makes a match itself, so that records and
//!   results of other matches are refused; [`stats`]: Elo, error bars, LOS, SPRT;
//!   [`game_record`]: what is kept of a game.

pub mod adjudication;
pub mod analyse;
pub mod cli;
pub mod config;
pub mod engine_process;
pub mod game_record;
pub mod identity;
pub mod merge;
pub mod openings;
pub mod play;
pub mod record;
pub mod report;
pub mod results;
pub mod resume;
pub mod rules;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod tally;
pub mod time_control;
