//! Whether a net's hidden sums fit in `i16` (MCTS's expansion then sums twice the units a
//! register, [`super::kernels::Sum`]), decided once per net: the check reads every input
//! weight, and a search asks for its net's [`super::GameNet`] at every `go`.

use std::sync::{Arc, Mutex, Weak};

use super::Net;

/// The nets already checked: each net (held weakly, so a net is never kept alive, and never
/// changed while it is listed: [`Arc::get_mut`] refuses a net with weak references), the count
/// of active inputs it was checked for, and the answer.
type Checked = Vec<(Weak<Net>, usize, bool)>;

/// Whether every hidden sum of every position with at most `active` inputs set lies within
/// `i16` (see [`sums_fit_i16`]), remembered per net.
pub(super) fn sums_fit_i16_cached(net: &Arc<Net>, active: usize) -> bool {
    static CHECKED: Mutex<Checked> = Mutex::new(Vec::new());
    let weak = Arc::downgrade(net);
    {
        let mut checked = CHECKED.lock().unwrap_or_else(|e| e.into_inner());
        checked.retain(|(w, _, _)| w.strong_count() > 0);
        let known = checked
            .iter()
            .find(|(w, a, _)| w.ptr_eq(&weak) && *a == active);
        if let Some(&(_, _, fits)) = known {
            return fits;
        }
    }
    let fits = sums_fit_i16(net, active);
    let mut checked = CHECKED.lock().unwrap_or_else(|e| e.into_inner());
    checked.push((weak, active, fits));
    fits
}

/// Whether every hidden sum of every position lies within `i16`: for each hidden unit, its
/// bias plus the sum of its largest weights (in size), as many as the most inputs a position
/// sets (`active`, [`crate::game::NetFeatures::NET_MAX_ACTIVE`]). One pass over the weights
/// (146 k of them in Isaac's net) bounds each unit by its largest weight times that count;
/// only a unit that bound does not fit gets its weights sorted out.
pub(super) fn sums_fit_i16(net: &Net, active: usize) -> bool {
    let h = net.header.hidden;
    let mut largest = vec![0u16; h];
    for row in net.input_weights.chunks_exact(h) {
        for (m, &w) in largest.iter_mut().zip(row) {
            *m = (*m).max(w.unsigned_abs());
        }
    }
    let active = active.min(net.header.inputs);
    let fits =
        |bias: i16, weights: u64| u64::from(bias.unsigned_abs()) + weights <= i16::MAX as u64;
    let mut column = Vec::new();
    let mut units = largest.iter().zip(&net.hidden_bias).enumerate();
    units.all(|(unit, (&m, &bias))| {
        fits(bias, u64::from(m) * active as u64) || {
            column.clear();
            let weights = net.input_weights.iter().skip(unit).step_by(h);
            column.extend(weights.map(|w| w.unsigned_abs()));
            if let Some(last) = active.checked_sub(1).filter(|&l| l < column.len()) {
                column.select_nth_unstable_by(last, |a, b| b.cmp(a));
                column.truncate(active);
            }
            fits(bias, column.iter().map(|&w| u64::from(w)).sum())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::NetFeatures;
    use crate::game::isaac::Isaac;
    use crate::net::embedded;

    #[test]
    fn the_answer_is_remembered_per_net_and_count() {
        let net = embedded::net_for::<Isaac>().expect("Isaac's embedded net");
        let active = Isaac::NET_MAX_ACTIVE;
        assert!(sums_fit_i16_cached(&net, active));
        // A copy whose one unit overflows is another net: checked on its own.
        let mut big = (*net).clone();
        big.input_weights.fill(0);
        big.hidden_bias.fill(0);
        big.hidden_bias[3] = i16::MAX;
        big.input_weights[3] = 1;
        let big = Arc::new(big);
        assert!(!sums_fit_i16_cached(&big, active));
        assert!(!sums_fit_i16_cached(&big, active), "asked again");
        assert!(sums_fit_i16_cached(&big, 0), "no input set: only the bias");
        assert!(sums_fit_i16_cached(&net, active));
        // Listed once per count asked (the second question was answered from the list), and
        // only weakly: the list keeps no net alive.
        assert_eq!(Arc::weak_count(&big), 2);
        assert_eq!(Arc::strong_count(&big), 1);
    }
}
