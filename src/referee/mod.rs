//! The referee: engine-vs-engine matches (issue 5). So far its statistics: Elo with error
//! bars, likelihood of superiority and the pentanomial SPRT, checked against published
//! cutechess and SPRT figures; the match runner (`ludus match`) builds on them.

pub mod stats;
