//! The referee: engine-vs-engine matches (issue 5). So far its building blocks: the match
//! statistics (Elo with error bars, likelihood of superiority, the pentanomial SPRT, checked
//! against published cutechess and SPRT figures) and the time controls and clocks it keeps.
//! The match runner (`ludus match`) builds on them.

pub mod stats;
pub mod time_control;
