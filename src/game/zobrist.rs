//! Zobrist keys for every game: a well-mixed 64-bit key computed from a small integer that
//! names one feature of a position (a pile, a tile, a score…), so no game needs key tables.

/// SplitMix64's finaliser applied to `x`: distinct inputs give independent-looking keys.
#[inline]
pub fn key(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of feature `index` in the feature family `family` (each game and field picks its
/// own family number, so keys of different features never coincide by construction).
#[inline]
pub fn feature(family: u64, index: u64) -> u64 {
    key((family << 48) ^ index)
}
