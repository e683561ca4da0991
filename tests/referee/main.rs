//! Whole games between programs and people: `ludus match` (the referee, with scripted
//! misbehaving engines), `ludus play` with scripted input and `ludus analyse`.

#[path = "../common/mod.rs"]
mod common;

mod analyse;
mod play;
mod referee;
