//! Front ends for people, each talking to an engine only through the protocol: terminal play
//! (`ludus play`), the browser GUI (`ludus web`) and the drawings of positions it shows.

pub mod svg;
pub mod terminal;
pub mod web;
