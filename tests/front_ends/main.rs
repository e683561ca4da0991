//! The front ends: the web GUI's server (`ludus web`) through its HTTP API and board drawings,
//! and `ludus play` on a real 80×24 terminal (its screen, and the items of issue 34 item 9).

#[path = "../common/mod.rs"]
mod common;

mod terminal_items;
mod terminal_screen;
mod web;
mod web_analysis;
mod web_board;
mod web_board_api;
mod web_limits;
mod web_sessions;
