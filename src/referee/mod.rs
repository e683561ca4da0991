//! The referee: engine-vs-engine matches (`ludus match`) that trust no engine and lose no game.
//!
//! - [`cli`]: the command line, cutechess/fastchess style; [`config`]: engines and settings;
//! - [`schedule`]: game pairs and rounds; [`openings`]: where games start;
//! - [`play`]: one game, every move checked by the rules ([`crate::game::dynamic`]), the
//!   engines driven through the protocol client ([`crate::client`]), clocks from
//!   [`time_control`], [`adjudication`];
//! - [`runner`]: concurrency, progress, SPRT stop; [`resume`]: carrying on from the record
//!   ([`crate::record`]); [`results`]: tallies, tables, the JSON results file;
//!   [`merge`]: joining shards ([`crate::runs`]); [`identity`]: what makes a match itself, so
//!   that records and results of other matches are refused; [`stats`]: Elo, error bars, LOS,
//!   SPRT.

pub mod adjudication;
pub mod cli;
pub mod config;
pub mod identity;
pub mod merge;
pub mod openings;
pub mod play;
pub mod report;
pub mod results;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod tally;
pub mod time_control;
