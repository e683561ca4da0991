//! Win, draw and loss chances from a search score (`UCI_ShowWDL`, docs/wdl.md): a model each
//! game fits to its self-play results ([`WinChances::WDL_MODEL`], made by `ludus wdl fit`) and
//! the game phase it reads off a position ([`WinChances::wdl_phase`]).
//!
//! The model is Stockfish's: for a score `s` from the side to move's view,
//! `W = σ((s − a)/b)`, `L = σ((−s − a)/b)`, `D = 1 − W − L`, where `σ` is the logistic function
//! and `a ≥ 0`, `b > 0` depend on the phase. `a` is where the side to move is as likely to win as
//! to draw, `b` how quickly the chances change with the score; a game without draws has `a = 0`,
//! so that `D = 0` and `W = σ(s/b)`. Here `a` and `b` are each linear between knots spread
//! evenly over the phase, 0 (the start) to 1 (the end).

use super::Game;

/// The parameters of the model: `a` and `b` at knots spread evenly over the phase (the first
/// at phase 0, the last at phase 1; one knot: constant), linear in between. `a` must be at
/// least 0 and `b` above 0 at every knot (a game's constants are checked by its tests).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel<'a> {
    /// The score, in the game's unit, at which a win is as likely as a draw, per knot.
    pub a: &'a [f64],
    /// The score, in the game's unit, per unit of the logistic function's argument, per knot.
    pub b: &'a [f64],
}

/// Chances of the side to move, each in 0..=1, summing to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances {
    /// That it wins.
    pub win: f64,
    /// That the game is drawn.
    pub draw: f64,
    /// That it loses.
    pub loss: f64,
}

/// Chances in per mille, as `info … wdl W D L` reports them: whole numbers summing to
/// exactly 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerMille {
    /// Wins in a thousand.
    pub win: u16,
    /// Draws in a thousand.
    pub draw: u16,
    /// Losses in a thousand.
    pub loss: u16,
}

impl PerMille {
    /// A proven win of the side to move.
    pub const WON: PerMille = PerMille {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A proven loss of the side to move.
    pub const LOST: PerMille = PerMille {
        win: 0,
        draw: 0,
        loss: 1000,
    };
}

/// The logistic function `1 / (1 + e^−x)`.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel<'_> {
    /// `a` and `b` at `phase` (clamped to 0..=1): linear between the two nearest knots.
    pub fn coefficients(&self, phase: f64) -> (f64, f64) {
        (interpolate(self.a, phase), interpolate(self.b, phase))
    }

    /// The chances at score `score` (the game's unit, the side to move's view) and `phase`.
    pub fn chances(&self, score: f64, phase: f64) -> Chances {
        let (a, b) = self.coefficients(phase);
        let (a, b) = (a.max(0.0), b.max(f64::MIN_POSITIVE));
        let win = sigmoid((score - a) / b);
        let loss = sigmoid((-score - a) / b);
        // With a ≥ 0, win + loss ≤ 1; rounding may leave a hair above.
        let draw = (1.0 - win - loss).max(0.0);
        let sum = win + draw + loss;
        Chances {
            win: win / sum,
            draw: draw / sum,
            loss: loss / sum,
        }
    }

    /// [`WdlModel::chances`] in per mille.
    pub fn per_mille(&self, score: i32, phase: f64) -> PerMille {
        self.chances(f64::from(score), phase).per_mille()
    }
}

impl Chances {
    /// In per mille, summing to exactly 1000: the wins and the wins-or-draws are rounded, so
    /// each part moves with its chance (the wins never fall and the losses never rise as the
    /// score rises) and the draws take what is between.
    pub fn per_mille(&self) -> PerMille {
        let win = (1000.0 * self.win).round().clamp(0.0, 1000.0) as u16;
        let not_lost = (1000.0 * (1.0 - self.loss)).round().clamp(0.0, 1000.0) as u16;
        let not_lost = not_lost.max(win);
        PerMille {
            win,
            draw: not_lost - win,
            loss: 1000 - not_lost,
        }
    }
}

/// The value of knots spread evenly over 0..=1 at `phase`, linear in between.
fn interpolate(knots: &[f64], phase: f64) -> f64 {
    match knots {
        [] => 0.0,
        [only] => *only,
        _ => {
            let span = (knots.len() - 1) as f64;
            let at = phase.clamp(0.0, 1.0) * span;
            let left = (at.floor() as usize).min(knots.len() - 2);
            let t = at - left as f64;
            knots[left] * (1.0 - t) + knots[left + 1] * t
        }
    }
}

/// The weight of each knot at `phase` (what [`WdlModel::coefficients`] mixes): at most two
/// non-zero, summing to 1. For the fitter, whose unknowns are the knots.
pub fn knot_weights(knots: usize, phase: f64) -> Vec<(usize, f64)> {
    match knots {
        0 => Vec::new(),
        1 => vec![(0, 1.0)],
        _ => {
            let at = phase.clamp(0.0, 1.0) * (knots - 1) as f64;
            let left = (at.floor() as usize).min(knots - 2);
            let t = at - left as f64;
            vec![(left, 1.0 - t), (left + 1, t)]
        }
    }
}

/// What `UCI_ShowWDL` needs of a game: its fitted model and the phase of a position.
pub trait WinChances: Game {
    /// The model fitted to the game's self-play data by `ludus wdl fit` (docs/wdl.md).
    const WDL_MODEL: WdlModel<'static>;
    /// How far the game has come, 0 (the start) to 1 (the end), read off the position alone
    /// (never a move count the engine may not know after a `position fen`).
    fn wdl_phase(&self) -> f64;
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRAWISH: WdlModel<'static> = WdlModel {
        a: &[100.0, 300.0],
        b: &[60.0, 120.0],
    };
    const DECISIVE: WdlModel<'static> = WdlModel {
        a: &[0.0],
        b: &[50.0],
    };

    #[test]
    fn per_mille_sums_to_1000_and_moves_with_the_score() {
        for model in [DRAWISH, DECISIVE] {
            for phase in [0.0, 0.3, 0.5, 1.0] {
                let mut last = PerMille::LOST;
                for score in -3000..=3000 {
                    let p = model.per_mille(score, phase);
                    assert_eq!(
                        u32::from(p.win) + u32::from(p.draw) + u32::from(p.loss),
                        1000
                    );
                    assert!(p.win >= last.win && p.loss <= last.loss, "{score} {p:?}");
                    last = p;
                }
                assert_eq!(model.per_mille(20_000, phase), PerMille::WON);
                assert_eq!(model.per_mille(-20_000, phase), PerMille::LOST);
            }
        }
    }

    #[test]
    fn a_game_without_draws_never_draws_and_is_even_at_zero() {
        for score in [-500, -10, 0, 7, 400] {
            assert_eq!(DECISIVE.per_mille(score, 0.5).draw, 0);
        }
        assert_eq!(
            DECISIVE.per_mille(0, 0.2),
            PerMille {
                win: 500,
                draw: 0,
                loss: 500
            }
        );
        let c = DECISIVE.chances(50.0, 0.0);
        assert!((c.win - sigmoid(1.0)).abs() < 1e-12);
    }

    #[test]
    fn the_coefficients_are_linear_between_knots() {
        assert_eq!(DRAWISH.coefficients(0.0), (100.0, 60.0));
        assert_eq!(DRAWISH.coefficients(0.5), (200.0, 90.0));
        assert_eq!(DRAWISH.coefficients(7.0), (300.0, 120.0));
        let three = WdlModel {
            a: &[0.0, 10.0, 40.0],
            b: &[1.0; 3],
        };
        assert_eq!(three.coefficients(0.25).0, 5.0);
        assert_eq!(three.coefficients(0.75).0, 25.0);
        let w = knot_weights(3, 0.75);
        assert_eq!(w, vec![(1, 0.5), (2, 0.5)]);
        // Where a win is as likely as a draw: W = D at s = a when the loss is negligible.
        let c = DRAWISH.chances(100.0, 0.0);
        assert!((c.win - 0.5).abs() < 0.01 && c.draw > 0.45);
    }
}
