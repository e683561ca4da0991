//! Front ends for people, each talking to an engine only through the protocol: terminal play
//! (`ludus play`).

pub mod terminal;
