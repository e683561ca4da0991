//! Move ordering: the transposition-table move first, then killer moves (moves that caused a
//! cutoff at the same ply elsewhere), then by history (how often a move caused cutoffs).

use crate::game::SearchHooks;

/// Deepest ply the search tracks per-ply state for.
pub const MAX_PLY: usize = 128;

/// History values stay within ±this (gravity keeps them from saturating).
const HISTORY_MAX: i32 = 1 << 20;

/// Ordering state that lives across searches of one game (cleared by `uginewgame`).
pub struct History {
    table: Vec<i32>,
}

impl History {
    /// An empty table of `size` slots.
    pub fn new(size: usize) -> Self {
        History {
            table: vec![0; size.max(1)],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Rewards a move that caused a cutoff at `depth` and punishes the moves tried before it.
    pub fn reward(&mut self, good: usize, tried_before: &[usize], depth: u32) {
        let bonus = (depth * depth).min(HISTORY_MAX as u32 / 4) as i32;
        self.update(good, bonus);
        for &bad in tried_before {
            self.update(bad, -bonus);
        }
    }

    fn update(&mut self, index: usize, bonus: i32) {
        if let Some(h) = self.table.get_mut(index) {
            // Gravity: the closer to the cap, the smaller the step, so values never overflow.
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        }
    }

    fn get(&self, index: usize) -> i32 {
        self.table.get(index).copied().unwrap_or(0)
    }
}

/// Killer moves per ply: the last two quiet moves that caused a cutoff there.
pub struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + PartialEq> Killers<M> {
    /// Empty killers for every ply.
    pub fn new() -> Self {
        Killers {
            slots: vec![[None, None]; MAX_PLY + 1],
        }
    }

    /// Records a cutoff move at `ply`.
    pub fn record(&mut self, ply: usize, m: M) {
        let slot = &mut self.slots[ply.min(MAX_PLY)];
        if slot[0] != Some(m) {
            slot[1] = slot[0];
            slot[0] = Some(m);
        }
    }

    fn at(&self, ply: usize) -> [Option<M>; 2] {
        self.slots[ply.min(MAX_PLY)]
    }
}

impl<M: Copy + PartialEq> Default for Killers<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// Moves the transposition-table move, then the two killers of `ply`, to the front of
/// `moves` (the rest keep their order) and returns how many were moved. The search tries these
/// first and sorts the rest with [`sort_by_history`] only if none of them cuts off, which
/// saves sorting hundreds of moves at most nodes of a wide game.
pub fn promote<M: Copy + PartialEq>(
    moves: &mut Vec<M>,
    tt_move: Option<M>,
    killers: &Killers<M>,
    ply: usize,
) -> usize {
    let [k0, k1] = killers.at(ply);
    let mut front = 0;
    for m in [tt_move, k0, k1].into_iter().flatten() {
        if let Some(i) = moves[front..].iter().position(|&x| x == m) {
            let found = moves.remove(front + i);
            moves.insert(front, found);
            front += 1;
        }
    }
    front
}

/// Sorts `moves` by history, best first; ties keep their order, so the search is
/// deterministic.
pub fn sort_by_history<G: SearchHooks>(
    pos: &G,
    moves: &mut [G::Move],
    scored: &mut Vec<(i32, u32, G::Move)>,
    history: &History,
) {
    scored.clear();
    scored.extend(
        moves
            .iter()
            .enumerate()
            .map(|(i, &m)| (history.get(pos.history_index(m)), i as u32, m)),
    );
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (slot, &(_, _, m)) in moves.iter_mut().zip(scored.iter()) {
        *slot = m;
    }
}
