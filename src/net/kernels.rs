//! The nets' integer arithmetic: hidden sums moved by the rows of the inputs a move adds and
//! removes, and the output layer's dot product.
//!
//! Sums are moved in blocks of [`LANES`] hidden units: a block stays in registers while every
//! changed input's weights are added to it, and is stored once, where updating the whole row
//! for one input after another loads and stores every sum once per input. Both kernels are
//! also compiled for AVX2 and chosen at run time when the processor has it (the release build
//! targets plain x86-64, whose SSE2 widens an `i16` weight in two instructions and four at a
//! time). MCTS's expansion in Isaac moves the sums of every child of a node (about 600 in
//! placement) by four to eight inputs a view, so these two loops were about a quarter of its
//! time; blocked and with AVX2, Isaac's MCTS with the net runs 1.19× the iterations a second
//! (docs/benchmarks.md, "The net's arithmetic"). Integer sums are exact in any order: the
//! results are the same as the plain loops', and so are the searches.
//!
//! The sums are `i32`, or `i16` ([`Sum`]) where no sum of the net can leave `i16`: twice the
//! units a register, in wrapping arithmetic that is exact wherever the true sums fit. MCTS's
//! expansion uses them (docs/benchmarks.md, "Narrow sums and a bounded selection scan").

/// Hidden units summed together in registers: 16 `i32` are four SSE2 registers (two AVX2,
/// one AVX-512), few enough that the compiler keeps them there.
const LANES: usize = 16;
/// Hidden units of an `i16` block: four AVX2 registers, eight SSE2 ones (a 64-unit layer is
/// one block).
const NARROW_LANES: usize = 64;

/// A hidden sum's integer: `i32`, or `i16` where no sum of the net can leave it
/// ([`super::GameNet`]'s `narrow`), twice the units a register.
pub trait Sum: Copy + Default {
    /// `self` + `w`; wrapping in `i16`, whose sums are then the true sums modulo 2¹⁶ in any
    /// order: exact whenever the true sum lies within `i16`, however the partial sums strayed.
    fn plus(self, w: i16) -> Self;
    /// `self` − `w`, the same way.
    fn minus(self, w: i16) -> Self;
    /// The activation: `self` clipped to `0..=clip` (`clip` ≤ 255), as an `i16` widened (so
    /// that the products pair into `i32` lanes).
    fn activation(self, clip: i32) -> i32;
    /// [`moved_sums`] in this type's blocks (from `out` itself without `from`).
    fn move_sums(out: &mut [Self], from: Option<&[Self]>, w: &[i16], add: &[u16], rem: &[u16]);
}

impl Sum for i32 {
    #[inline(always)]
    fn plus(self, w: i16) -> i32 {
        self + i32::from(w)
    }

    #[inline(always)]
    fn minus(self, w: i16) -> i32 {
        self - i32::from(w)
    }

    #[inline(always)]
    fn activation(self, clip: i32) -> i32 {
        i32::from(self.clamp(0, clip) as i16)
    }

    fn move_sums(out: &mut [i32], from: Option<&[i32]>, w: &[i16], add: &[u16], rem: &[u16]) {
        move_sums::<i32, LANES>(out, from, w, add, rem);
    }
}

impl Sum for i16 {
    #[inline(always)]
    fn plus(self, w: i16) -> i16 {
        self.wrapping_add(w)
    }

    #[inline(always)]
    fn minus(self, w: i16) -> i16 {
        self.wrapping_sub(w)
    }

    #[inline(always)]
    fn activation(self, clip: i32) -> i32 {
        i32::from(self.clamp(0, clip as i16))
    }

    fn move_sums(out: &mut [i16], from: Option<&[i16]>, w: &[i16], add: &[u16], rem: &[u16]) {
        move_sums::<i16, NARROW_LANES>(out, from, w, add, rem);
    }
}

/// `out` = `from` + the rows of `added` − the rows of `removed`, where row `f` is
/// `weights[f·h..(f+1)·h]` and `h` = `out.len()` = `from.len()`: in `i32`, or in `i16`
/// ([`Sum`]: exact where the true sums fit).
///
/// # Panics
/// If a row lies outside `weights` (an input the net does not have), or `from` is shorter
/// than `out`.
pub fn moved_sums<L: Sum>(out: &mut [L], from: &[L], weights: &[i16], add: &[u16], rem: &[u16]) {
    L::move_sums(out, Some(from), weights, add, rem);
}

/// `sums` += the rows of `added` − the rows of `removed` ([`moved_sums`] in place).
///
/// # Panics
/// If a row lies outside `weights`.
pub fn move_sums_in_place(sums: &mut [i32], weights: &[i16], added: &[u16], removed: &[u16]) {
    move_sums::<i32, LANES>(sums, None, weights, added, removed);
}

/// [`moved_sums`] from `from`, or from `out` itself, in blocks of `B` units: with AVX2 where
/// the processor has it.
fn move_sums<L: Sum, const B: usize>(
    out: &mut [L],
    from: Option<&[L]>,
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { move_sums_avx2::<L, B>(out, from, weights, added, removed) };
    }
    move_sums_body::<L, B>(out, from, weights, added, removed);
}

/// [`move_sums_body`] compiled for AVX2 (eight `i32` or sixteen `i16` a register, inputs
/// widened from memory).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn move_sums_avx2<L: Sum, const B: usize>(
    out: &mut [L],
    from: Option<&[L]>,
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    move_sums_body::<L, B>(out, from, weights, added, removed);
}

/// What [`move_sums`] computes, for any processor.
#[inline(always)]
fn move_sums_body<L: Sum, const B: usize>(
    out: &mut [L],
    from: Option<&[L]>,
    weights: &[i16],
    added: &[u16],
    removed: &[u16],
) {
    let h = out.len();
    let row = |f: u16| &weights[usize::from(f) * h..][..h];
    let blocks = h / B;
    for block in 0..blocks {
        let at = block * B;
        let mut acc = [L::default(); B];
        acc.copy_from_slice(&from.unwrap_or(&*out)[at..at + B]);
        for &f in added {
            for (a, &w) in acc.iter_mut().zip(&row(f)[at..at + B]) {
                *a = a.plus(w);
            }
        }
        for &f in removed {
            for (a, &w) in acc.iter_mut().zip(&row(f)[at..at + B]) {
                *a = a.minus(w);
            }
        }
        out[at..at + B].copy_from_slice(&acc);
    }
    // A hidden layer that is not a whole number of blocks: the rest one unit at a time.
    for i in blocks * B..h {
        let mut sum = from.unwrap_or(&*out)[i];
        for &f in added {
            sum = sum.plus(row(f)[i]);
        }
        for &f in removed {
            sum = sum.minus(row(f)[i]);
        }
        out[i] = sum;
    }
}

/// The sum of `weights` times the `sums` clipped to `0..=clip`. Products of an activation (at
/// most `clip` ≤ 255) and a weight (at least −32,768 and at most 32,767) summed 256 at a time
/// stay within an `i32` (255 · 32,768 · 256 < 2³¹), the cheaper lanes; the chunks are summed
/// in an `i64`.
pub fn clipped_dot<L: Sum>(sums: &[L], weights: &[i16], clip: i32) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { clipped_dot_avx2(sums, weights, clip) };
    }
    clipped_dot_body(sums, weights, clip)
}

/// [`clipped_dot_body`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clipped_dot_avx2<L: Sum>(sums: &[L], weights: &[i16], clip: i32) -> i64 {
    clipped_dot_body(sums, weights, clip)
}

/// What [`clipped_dot`] computes, for any processor.
#[inline(always)]
fn clipped_dot_body<L: Sum>(sums: &[L], weights: &[i16], clip: i32) -> i64 {
    const CHUNK: usize = 256;
    const _: () = assert!(super::QA as i64 * 32_768 * CHUNK as i64 <= i32::MAX as i64);
    debug_assert!((0..=255).contains(&clip));
    sums.chunks(CHUNK)
        .zip(weights.chunks(CHUNK))
        .map(|(sums, weights)| {
            let chunk: i32 = sums
                .iter()
                .zip(weights)
                .map(|(&s, &w)| s.activation(clip) * i32::from(w))
                .sum();
            i64::from(chunk)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// The plain loops: the row of each input added or removed in turn.
    fn one_row_at_a_time(
        from: &[i32],
        weights: &[i16],
        added: &[u16],
        removed: &[u16],
    ) -> Vec<i32> {
        let h = from.len();
        let mut sums = from.to_vec();
        for (&f, sign) in added
            .iter()
            .map(|f| (f, 1))
            .chain(removed.iter().map(|f| (f, -1)))
        {
            for (s, &w) in sums.iter_mut().zip(&weights[usize::from(f) * h..][..h]) {
                *s += sign * i32::from(w);
            }
        }
        sums
    }

    #[test]
    fn moved_sums_are_the_sums_moved_one_row_at_a_time() {
        let mut rng = SmallRng::seed_from_u64(32);
        // Whole blocks, a block and a rest, less than a block.
        for h in [64, 128, 24, 7] {
            let inputs = 50u16;
            let weights: Vec<i16> = (0..usize::from(inputs) * h).map(|_| rng.random()).collect();
            let from: Vec<i32> = (0..h)
                .map(|_| rng.random_range(-100_000..100_000))
                .collect();
            for n in 0..6 {
                let added: Vec<u16> = (0..n).map(|_| rng.random_range(0..inputs)).collect();
                let removed: Vec<u16> = (0..6 - n).map(|_| rng.random_range(0..inputs)).collect();
                let expected = one_row_at_a_time(&from, &weights, &added, &removed);
                let mut out = vec![0; h];
                moved_sums(&mut out, &from, &weights, &added, &removed);
                assert_eq!(out, expected, "h {h}");
                let mut sums = from.clone();
                move_sums_in_place(&mut sums, &weights, &added, &removed);
                assert_eq!(sums, expected, "h {h}, in place");
            }
        }
    }

    #[test]
    fn every_processors_kernels_give_the_same_sums() {
        let mut rng = SmallRng::seed_from_u64(33);
        let h = 64;
        let weights: Vec<i16> = (0..40 * h).map(|_| rng.random()).collect();
        let from: Vec<i32> = (0..h)
            .map(|_| rng.random_range(-100_000..100_000))
            .collect();
        let (added, removed) = ([3, 17, 17, 39], [0, 22]);
        let expected = one_row_at_a_time(&from, &weights, &added, &removed);
        let mut out = vec![0; h];
        move_sums_body::<i32, LANES>(&mut out, Some(&from), &weights, &added, &removed);
        assert_eq!(out, expected);
        let clipped: Vec<i32> = expected.iter().map(|s| s % 300).collect();
        let plain: i64 = clipped
            .iter()
            .zip(&weights)
            .map(|(&s, &w)| i64::from(s.clamp(0, 255)) * i64::from(w))
            .sum();
        assert_eq!(clipped_dot_body(&clipped, &weights[..h], 255), plain);
        assert_eq!(clipped_dot(&clipped, &weights[..h], 255), plain);
    }

    #[test]
    fn narrow_sums_are_the_wide_sums_modulo_2_to_the_16() {
        let mut rng = SmallRng::seed_from_u64(34);
        // Whole blocks, a block and a rest, less than a block.
        for h in [64, 96, 40, 5] {
            let inputs = 60u16;
            // Weights whose sums of eight always fit, and weights whose sums overflow.
            let tame: Vec<i16> = (0..usize::from(inputs) * h)
                .map(|_| rng.random_range(-2000..=2000))
                .collect();
            let wild: Vec<i16> = (0..usize::from(inputs) * h).map(|_| rng.random()).collect();
            let mut wrapped = 0;
            for (weights, n) in [&tame, &wild].into_iter().cycle().zip(0..16) {
                let from: Vec<i32> = (0..h).map(|_| rng.random_range(-3000..3000)).collect();
                let n = n / 2;
                let added: Vec<u16> = (0..n).map(|_| rng.random_range(0..inputs)).collect();
                let removed: Vec<u16> = (0..8 - n).map(|_| rng.random_range(0..inputs)).collect();
                let wide = one_row_at_a_time(&from, weights, &added, &removed);
                let narrow_from: Vec<i16> = from.iter().map(|&s| s as i16).collect();
                let mut narrow = vec![0i16; h];
                moved_sums(&mut narrow, &narrow_from, weights, &added, &removed);
                let mut body = vec![0i16; h];
                move_sums_body::<i16, NARROW_LANES>(
                    &mut body,
                    Some(&narrow_from),
                    weights,
                    &added,
                    &removed,
                );
                assert_eq!(narrow, body, "h {h}");
                let modular: Vec<i16> = wide.iter().map(|&w| w as i16).collect();
                assert_eq!(narrow, modular, "h {h}");
                wrapped += wide.iter().filter(|&&w| w != i32::from(w as i16)).count();
                let clip = [255, 100][n % 2];
                let widened: Vec<i32> = narrow.iter().map(|&s| i32::from(s)).collect();
                let dot = clipped_dot(&narrow, &weights[..h], clip);
                assert_eq!(dot, clipped_dot(&widened, &weights[..h], clip));
                assert_eq!(dot, clipped_dot_body(&narrow, &weights[..h], clip));
                if std::ptr::eq(weights, &tame) {
                    assert_eq!(widened, wide, "h {h}: tame sums fit");
                }
            }
            assert!(wrapped > 0, "h {h}: the wild weights never overflowed");
        }
    }

    #[test]
    fn clipped_dot_clips_each_sum_to_the_activation_range() {
        let sums = [-5, 0, 3, 255, 300];
        let weights = [7, 11, -2, 3, -1];
        // -5 and 0 count 0; 300 counts 255.
        assert_eq!(clipped_dot(&sums, &weights, 255), 3 * -2 + 255 * 3 - 255);
        assert_eq!(clipped_dot(&sums, &weights, 100), 3 * -2 + 100 * 3 - 100);
    }
}
