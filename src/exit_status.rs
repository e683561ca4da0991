//! The exit statuses of the `ludus` binary, one meaning each for every subcommand; the table
//! is printed by `ludus --help` and repeated in README.md ("Exit statuses").

/// The job was done: the protocol loop ended on `quit` or end of input, a one-shot command
/// printed its result, a game or match was played to its end, `--help`.
pub const SUCCESS: i32 = 0;
/// The job started and failed: an error under `--strict` in the protocol loop, an engine that
/// cannot start or fails during `play`, `web` or a `match` table that cannot be written, memory
/// that cannot be had.
pub const FAILURE: i32 = 1;
/// The command line was refused before any work: an unknown flag or a malformed value, a
/// missing choice (`go` without a limit), or a value the game or the referee rejects (a
/// position, a move, an option, a match setting); nothing was run.
pub const USAGE: i32 = 2;

/// The table `ludus --help` prints after the options.
pub const TABLE: &str = "\
Exit status:
  0  done (quit or end of input, the result printed, the game or match played out)
  1  failed while working (an error under --strict, an engine that cannot start or fails,
     output that cannot be written)
  2  the command line was refused, nothing was run (an unknown flag, a bad value, a
     position, move, option or match setting the game or the referee rejects)";
