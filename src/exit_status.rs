//! The exit statuses of the `ludus` binary, one meaning each for every subcommand; the table
//! is printed by `ludus --help` and repeated in README.md ("Exit statuses").

/// The job was done: the protocol loop ended on `quit` or end of input, a one-shot command
/// printed its result, a game or match was played to its end, `--help`, a `solve check` whose
/// claims hold, every one verified in the run (a sample or a shard of claims too: its verdict
/// says that it is not the whole check).
pub const SUCCESS: i32 = 0;
/// The job started and failed: an error under `--strict` in the protocol loop, an engine that
/// cannot start or fails during `play`, `web` or a `match` table that cannot be written, memory
/// that cannot be had, a certificate that `solve check` finds does not hold (a claim that
/// fails, no claim for its root).
pub const FAILURE: i32 = 1;
/// The command line was refused before any work: an unknown flag or a malformed value, a
/// missing choice (`go` without a limit), or a value the game or the referee rejects (a
/// position, a move, an option, a match setting); nothing was run.
pub const USAGE: i32 = 2;
/// `ludus solve check` only: the claims checked hold, but the verdict counts claims a check
/// record (`--record`) says earlier runs verified, which this run did not verify again; the
/// result is only as good as the runs that wrote the record (docs/solved.md). A check whose
/// every claim was verified in the run itself exits with [`SUCCESS`].
pub const ON_RECORD: i32 = 3;

/// The table `ludus --help` prints after the options.
pub const TABLE: &str = "\
Exit status:
  0  done (quit or end of input, the result printed, the game or match played out, the
     claims a solve check verified all hold)
  1  failed while working (an error under --strict, an engine that cannot start or fails,
     output that cannot be written, a certificate that does not hold or proves nothing)
  2  the command line was refused, nothing was run (an unknown flag, a bad value, a
     position, move, option or match setting the game or the referee rejects)
  3  solve check only: the claims checked hold, but some were taken from a check record
     (--record) without being verified again in this run";
