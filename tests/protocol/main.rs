//! The engine as a GUI or a match runner sees it: the `ludus` binary driven through pipes
//! (the UGI protocol, its transcripts, limits, fuzzed input and interleavings, a strict match
//! runner) and its one-shot commands.

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_progress;
mod cli_release;
mod protocol_book;
mod protocol_evaluation;
mod protocol_info;
mod protocol_input;
mod protocol_interleavings;
mod protocol_limits;
mod protocol_mcts;
mod protocol_ponder;
mod protocol_search;
mod protocol_state;
mod protocol_transcripts;
mod protocol_wdl;
mod readme_examples;
mod script_input;
mod strict_runner;
