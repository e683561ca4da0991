//! What the long runs share (`ludus match`, `datagen`, `solve`, `solve check`, `train`,
//! `analyse`): the shards a run is split into for many processes or a scheduler's job array,
//! and how a run stops short ([`RunError`]: refused or failed, its exit status and its line on
//! standard error) and writes its progress and results.

mod error;
mod shard;

pub use error::{RunError, report, report_as, write_line, write_text};
pub use shard::{Shard, ShardSet};
