//! The maximum-likelihood fit of a [`WdlModel`] to positions whose game result is known:
//! damped Newton steps (Levenberg–Marquardt) on the mean negative log-likelihood, with the
//! gradient written out and the Hessian from differences of it. The unknowns are the logarithms
//! of `a` and `b` at the knots, so that `a > 0` and `b > 0` hold everywhere; a game whose
//! training data has no draws keeps `a = 0` (then `D = 0`) and fits `b` alone.

use crate::game::wdl::{WdlModel, knot_weights, sigmoid};

/// How a game ended for the side to move of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    /// The side to move won.
    Win,
    /// The game was drawn.
    Draw,
    /// The side to move lost.
    Loss,
}

/// One position: its score (the game's unit, the side to move's view), its phase (0..=1)
/// and the result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The search's score.
    pub score: f64,
    /// The game's phase of the position.
    pub phase: f64,
    /// How the game ended for the side to move.
    pub result: Result3,
}

/// A fitted model that owns its knots.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// `a` per knot (all 0 for a game without draws).
    pub a: Vec<f64>,
    /// `b` per knot.
    pub b: Vec<f64>,
    /// The mean negative log-likelihood of the training positions under it.
    pub loss: f64,
    /// The Newton steps taken.
    pub iterations: usize,
}

impl Fitted {
    /// The model, borrowed.
    pub fn model(&self) -> WdlModel<'_> {
        WdlModel {
            a: &self.a,
            b: &self.b,
        }
    }
}

/// The mean negative log-likelihood of `points` under `model` (what the fit minimises on the
/// training positions; on held-out ones, a score to compare models and phases by).
pub fn mean_loss(points: &[Point], model: WdlModel<'_>) -> f64 {
    let total: f64 = points
        .iter()
        .map(|p| {
            let c = model.chances(p.score, p.phase);
            let chance = match p.result {
                Result3::Win => c.win,
                Result3::Draw => c.draw,
                Result3::Loss => c.loss,
            };
            -chance.max(1e-15).ln()
        })
        .sum();
    total / points.len().max(1) as f64
}

/// The most Newton steps tried.
const MAX_ITERATIONS: usize = 200;
/// `ln a` is kept within ±this (an a below e^-30 is 0 for every purpose).
const LOG_LIMIT: f64 = 30.0;
/// `ln b` is kept within 0 and this: b from 1 unit of the game's score (data a score splits
/// perfectly, a few games', would drive it to 0) to about nine million.
const MAX_LN_B: f64 = 16.0;

/// A loss of the unknowns `theta` and its gradient: what [`minimise`] minimises.
trait Loss {
    /// The loss and its gradient at `theta`.
    fn evaluate(&self, theta: &[f64]) -> (f64, Vec<f64>);
    /// The range the `j`-th unknown is kept in.
    fn bounds(&self, j: usize) -> (f64, f64);
}

/// What the fit minimises: the mean negative log-likelihood of `points` under the model whose
/// log-parameters are `theta` (`ln a` per knot when `draws`, then `ln b` per knot), and its
/// gradient.
struct Objective<'a> {
    points: &'a [Point],
    knots: usize,
    draws: bool,
}

impl Objective<'_> {
    fn params(&self, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let k = self.knots;
        let a = match self.draws {
            true => theta[..k].iter().map(|u| u.exp()).collect(),
            false => vec![0.0; k],
        };
        let b = theta[theta.len() - k..].iter().map(|v| v.exp()).collect();
        (a, b)
    }
}

impl Loss for Objective<'_> {
    fn bounds(&self, j: usize) -> (f64, f64) {
        match self.draws && j < self.knots {
            true => (-LOG_LIMIT, LOG_LIMIT),
            false => (0.0, MAX_LN_B),
        }
    }

    fn evaluate(&self, theta: &[f64]) -> (f64, Vec<f64>) {
        let k = self.knots;
        let (a_knots, b_knots) = self.params(theta);
        let mut grad = vec![0.0; theta.len()];
        let mut loss = 0.0;
        for p in self.points {
            let weights = knot_weights(k, p.phase);
            let (mut a, mut b) = (0.0, 0.0);
            for &(j, w) in &weights {
                a += w * a_knots[j];
                b += w * b_knots[j];
            }
            let xw = (p.score - a) / b;
            let xl = (-p.score - a) / b;
            // d loss / d a and d loss / d b for this position.
            let (term, da, db) = match p.result {
                Result3::Win => {
                    let w = sigmoid(xw);
                    (softplus(-xw), (1.0 - w) / b, (1.0 - w) * xw / b)
                }
                Result3::Loss => {
                    let l = sigmoid(xl);
                    (softplus(-xl), (1.0 - l) / b, (1.0 - l) * xl / b)
                }
                Result3::Draw => {
                    let (w, l) = (sigmoid(xw), sigmoid(xl));
                    let d = (1.0 - w - l).max(1e-15);
                    let (sw, sl) = (w * (1.0 - w), l * (1.0 - l));
                    (
                        -d.ln(),
                        -(sw + sl) / (b * d),
                        -(sw * xw + sl * xl) / (b * d),
                    )
                }
            };
            loss += term;
            for &(j, w) in &weights {
                if self.draws {
                    grad[j] += da * w * a_knots[j];
                }
                grad[theta.len() - k + j] += db * w * b_knots[j];
            }
        }
        let n = self.points.len().max(1) as f64;
        grad.iter_mut().for_each(|g| *g /= n);
        (loss / n, grad)
    }
}

/// The Hessian of `f` at `theta`, from central differences of the gradient, made symmetric.
fn hessian(f: &dyn Loss, theta: &[f64]) -> Vec<Vec<f64>> {
    let h = 1e-5;
    // columns[j][i]: the change of the gradient's i-th part with the j-th unknown.
    let columns: Vec<Vec<f64>> = (0..theta.len())
        .map(|j| {
            let mut up = theta.to_vec();
            let mut down = theta.to_vec();
            up[j] += h;
            down[j] -= h;
            let (_, gu) = f.evaluate(&up);
            let (_, gd) = f.evaluate(&down);
            gu.iter()
                .zip(&gd)
                .map(|(u, d)| (u - d) / (2.0 * h))
                .collect()
        })
        .collect();
    (0..theta.len())
        .map(|i| {
            (0..theta.len())
                .map(|j| 0.5 * (columns[j][i] + columns[i][j]))
                .collect()
        })
        .collect()
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// Solves `m · x = rhs` by Gaussian elimination with partial pivoting; `None` when `m` is
/// singular.
fn solve(mut m: Vec<Vec<f64>>, mut rhs: Vec<f64>) -> Option<Vec<f64>> {
    let n = rhs.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        rhs.swap(col, pivot);
        let (top, bottom) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (k, row) in bottom.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            rhs[col + 1 + k] -= f * rhs[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| m[row][c] * x[c]).sum();
        x[row] = (rhs[row] - s) / m[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Minimises `f` from `theta` by damped Newton steps (Levenberg–Marquardt); calls `progress`
/// with each accepted step's number and loss. Returns the unknowns, the loss and the number of
/// steps taken.
fn minimise(
    f: &dyn Loss,
    mut theta: Vec<f64>,
    progress: &mut dyn FnMut(usize, f64),
) -> (Vec<f64>, f64, usize) {
    let (mut loss, mut grad) = f.evaluate(&theta);
    let mut damping = 1e-3;
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS && grad.iter().any(|g| g.abs() >= 1e-10) {
        let hess = hessian(f, &theta);
        let mut converged = true;
        while damping < 1e12 {
            let mut m = hess.clone();
            for (i, row) in m.iter_mut().enumerate() {
                row[i] += damping * (1.0 + row[i].abs());
            }
            let rhs: Vec<f64> = grad.iter().map(|g| -g).collect();
            if let Some(step) = solve(m, rhs) {
                let next: Vec<f64> = (0..theta.len())
                    .map(|j| {
                        let (lo, hi) = f.bounds(j);
                        (theta[j] + step[j]).clamp(lo, hi)
                    })
                    .collect();
                let (next_loss, next_grad) = f.evaluate(&next);
                if next_loss.is_finite() && next_loss <= loss {
                    converged = loss - next_loss < 1e-13;
                    (theta, loss, grad) = (next, next_loss, next_grad);
                    damping = (damping / 4.0).max(1e-9);
                    iterations += 1;
                    progress(iterations, loss);
                    break;
                }
            }
            damping *= 4.0;
        }
        if converged {
            break;
        }
    }
    (theta, loss, iterations)
}

/// Fits a model with `knots` knots (1 to 16) to `points`, calling `progress` with each
/// accepted step's number and loss. Draws are modelled only if `points` has any.
pub fn fit(
    points: &[Point],
    knots: usize,
    progress: &mut dyn FnMut(usize, f64),
) -> Result<Fitted, String> {
    if !(1..=16).contains(&knots) {
        return Err(format!("a model has 1 to 16 knots, not {knots}"));
    }
    if points.is_empty() {
        return Err("no scored positions to fit".into());
    }
    if points
        .iter()
        .any(|p| !p.score.is_finite() || !p.phase.is_finite())
    {
        return Err("a score or phase that is not a number".into());
    }
    let draws = points.iter().any(|p| p.result == Result3::Draw);
    let objective = Objective {
        points,
        knots,
        draws,
    };
    // Start from the best constant b on a grid (a at half of it), then let Newton shape them.
    let start = (0..=60)
        .map(|i| 2f64.powf(f64::from(i) / 4.0))
        .map(|b| {
            let theta: Vec<f64> = match draws {
                true => [vec![(b / 2.0).ln(); knots], vec![b.ln(); knots]].concat(),
                false => vec![b.ln(); knots],
            };
            (objective.evaluate(&theta).0, theta)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, theta)| theta)
        .ok_or("no starting point")?;
    let (theta, loss, iterations) = minimise(&objective, start, progress);
    let (a, b) = objective.params(&theta);
    Ok(Fitted {
        a,
        b,
        loss,
        iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let points: Vec<Point> = (0..200)
            .map(|i| Point {
                score: f64::from(i % 41 - 20) * 13.0,
                phase: f64::from(i % 7) / 6.0,
                result: [Result3::Win, Result3::Draw, Result3::Loss][i as usize % 3],
            })
            .collect();
        let objective = Objective {
            points: &points,
            knots: 3,
            draws: true,
        };
        let theta = [3.0, 4.0, 4.5, 4.0, 4.2, 5.0];
        let (_, grad) = objective.evaluate(&theta);
        for j in 0..theta.len() {
            let (mut up, mut down) = (theta, theta);
            up[j] += 1e-6;
            down[j] -= 1e-6;
            let slope = (objective.evaluate(&up).0 - objective.evaluate(&down).0) / 2e-6;
            assert!(
                (slope - grad[j]).abs() < 1e-6,
                "{j}: {slope} vs {}",
                grad[j]
            );
        }
    }

    #[test]
    fn a_small_system_is_solved_and_a_singular_one_refused() {
        let x = solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![3.0, 5.0]).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12);
        assert_eq!(
            solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]),
            None
        );
    }

    /// Positions drawn from a known model: phases uniform, scores spread around 0, each
    /// result drawn with the model's chances.
    fn synthetic(model: WdlModel<'_>, n: usize, seed: u64) -> Vec<Point> {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let phase: f64 = rng.random_range(0.0..1.0);
                let score: f64 = rng.random_range(-600.0..600.0);
                let c = model.chances(score, phase);
                let u: f64 = rng.random_range(0.0..1.0);
                let result = if u < c.win {
                    Result3::Win
                } else if u < c.win + c.draw {
                    Result3::Draw
                } else {
                    Result3::Loss
                };
                Point {
                    score,
                    phase,
                    result,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_the_parameters_of_seeded_synthetic_data() {
        let truth = WdlModel {
            a: &[40.0, 120.0, 250.0],
            b: &[70.0, 90.0, 150.0],
        };
        let points = synthetic(truth, 60_000, 7);
        let mut steps = 0;
        let fitted = fit(&points, 3, &mut |_, _| steps += 1).unwrap();
        assert!(steps > 0 && fitted.iterations == steps);
        for (got, want) in fitted
            .a
            .iter()
            .zip(truth.a)
            .chain(fitted.b.iter().zip(truth.b))
        {
            // Within a tenth, or 6 units where a small a is hard to pin down.
            assert!((got - want).abs() < (0.1 * want).max(6.0), "{fitted:?}");
        }

        // Without draws in the data, a stays 0 and b is found alone.
        let decisive = WdlModel {
            a: &[0.0],
            b: &[80.0],
        };
        let fitted = fit(&synthetic(decisive, 20_000, 8), 1, &mut |_, _| {}).unwrap();
        assert_eq!(fitted.a, [0.0]);

        assert!((fitted.b[0] - 80.0).abs() < 6.0, "{fitted:?}");
    }

    #[test]
    fn data_a_score_splits_perfectly_keeps_b_at_one_unit_at_least() {
        // Every positive score won, every negative one lost: the likelihood grows as b falls.
        let points: Vec<Point> = (-50..50)
            .filter(|&s| s != 0)
            .map(|s| Point {
                score: f64::from(s) * 10.0,
                phase: 0.5,
                result: if s > 0 { Result3::Win } else { Result3::Loss },
            })
            .collect();
        let fitted = fit(&points, 2, &mut |_, _| {}).unwrap();
        assert!(
            fitted.b.iter().all(|&b| (1.0..2.0).contains(&b)),
            "{fitted:?}"
        );
        assert_eq!(fitted.a, [0.0, 0.0]);
    }

    #[test]
    fn bad_requests_are_refused() {
        let p = Point {
            score: 1.0,
            phase: 0.5,
            result: Result3::Win,
        };
        assert!(fit(&[], 2, &mut |_, _| {}).is_err());
        assert!(fit(&[p], 0, &mut |_, _| {}).is_err());
        let nan = Point {
            score: f64::NAN,
            ..p
        };
        assert!(fit(&[nan], 2, &mut |_, _| {}).is_err());
    }
}
