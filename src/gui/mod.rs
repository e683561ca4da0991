//! Front ends for people, each talking to an engine only through the protocol: terminal play
//! (`ludus play`) and the drawings of positions for the browser GUI.

pub mod svg;
pub mod terminal;
