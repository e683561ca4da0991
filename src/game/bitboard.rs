//! Bitboards shared by the games: an unsigned integer whose set bits are cells.

/// An unsigned integer used as a set of cells (`u64` for Tactigon, `u128` for Sight and Isaac).
pub trait Bitboard: Copy {
    /// Whether no cell is set.
    fn is_empty(self) -> bool;
    /// The lowest set cell (the set must not be empty).
    fn lowest(self) -> usize;
    /// The set without its lowest cell.
    fn without_lowest(self) -> Self;
}

macro_rules! bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

bitboard!(u64);
bitboard!(u128);

/// Iterates the set cells of a bitboard, lowest first.
#[inline]
pub fn bits<B: Bitboard>(mut b: B) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b.is_empty() {
            return None;
        }
        let cell = b.lowest();
        b = b.without_lowest();
        Some(cell)
    })
}

#[cfg(test)]
mod tests {
    use super::bits;

    #[test]
    fn iterates_set_bits_lowest_first() {
        assert_eq!(bits(0b1010_0001u64).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(bits(1u128 << 100 | 2).collect::<Vec<_>>(), vec![1, 100]);
        assert_eq!(bits(0u64).count(), 0);
        assert_eq!(bits(u128::MAX).count(), 128);
    }
}
