//! What the long runs share (`ludus match`, `datagen`, `solve`, `solve check`, `train`): the
//! shards a run is split into for many processes or a scheduler's job array.

mod shard;

pub use shard::{Shard, ShardSet};
