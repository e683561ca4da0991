//! The calibration table of `ludus wdl`: held-out positions grouped by score, and per group the
//! model's mean chances against the results the games had, in points (percent).

use std::fmt::Write as _;

use super::fit::{Point, Result3};
use crate::game::wdl::WdlModel;

/// One score bucket: the positions whose score is in `lo..lo + width`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bucket {
    /// The lowest score in the bucket.
    pub lo: i64,
    /// Positions in it.
    pub positions: usize,
    /// The model's chances (win, draw, loss) summed over its positions.
    pub predicted: [f64; 3],
    /// The results (wins, draws, losses of the side to move) of its positions.
    pub observed: [usize; 3],
}

impl Bucket {
    /// The model's mean chances, in points.
    pub fn predicted_points(&self) -> [f64; 3] {
        let n = self.positions.max(1) as f64;
        self.predicted.map(|p| 100.0 * p / n)
    }

    /// The observed rates, in points.
    pub fn observed_points(&self) -> [f64; 3] {
        let n = self.positions.max(1) as f64;
        self.observed.map(|o| 100.0 * o as f64 / n)
    }

    /// The largest difference between a predicted and an observed rate, in points.
    pub fn deviation(&self) -> f64 {
        let (p, o) = (self.predicted_points(), self.observed_points());
        (0..3).map(|i| (p[i] - o[i]).abs()).fold(0.0, f64::max)
    }
}

/// The table: the buckets in score order.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The width of every bucket, in the game's unit.
    pub width: i64,
    /// The buckets that hold positions, lowest scores first.
    pub buckets: Vec<Bucket>,
}

/// What the table says in one line: the buckets large enough to count, and their largest
/// deviation.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Buckets with at least the minimum of positions.
    pub counted: usize,
    /// Positions in them.
    pub positions: usize,
    /// The largest deviation among them, in points, and the bucket's lowest score.
    pub worst: Option<(f64, i64)>,
}

/// A bucket width for `points`: about twenty buckets over the middle 95 % of their scores,
/// rounded up to 1, 2 or 5 times a power of ten.
pub fn auto_width(points: &[Point]) -> i64 {
    let mut scores: Vec<f64> = points.iter().map(|p| p.score).collect();
    if scores.is_empty() {
        return 10;
    }
    scores.sort_by(f64::total_cmp);
    let at = |q: f64| scores[((scores.len() - 1) as f64 * q) as usize];
    let span = (at(0.975) - at(0.025)).max(1.0) / 20.0;
    let mut step = 1i64;
    loop {
        for m in [1, 2, 5] {
            if (step * m) as f64 >= span {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// Groups `points` into buckets of `width` (at least 1) and sums the model's chances and the
/// results in each.
pub fn calibrate(points: &[Point], model: WdlModel<'_>, width: i64) -> Table {
    let width = width.max(1);
    let mut buckets: Vec<Bucket> = Vec::new();
    let mut sorted: Vec<&Point> = points.iter().collect();
    sorted.sort_by(|x, y| x.score.total_cmp(&y.score));
    for p in sorted {
        let lo = (p.score as i64).div_euclid(width) * width;
        if buckets.last().is_none_or(|b| b.lo != lo) {
            buckets.push(Bucket {
                lo,
                positions: 0,
                predicted: [0.0; 3],
                observed: [0; 3],
            });
        }
        let Some(bucket) = buckets.last_mut() else {
            continue;
        };
        let c = model.chances(p.score, p.phase);
        bucket.positions += 1;
        bucket.predicted[0] += c.win;
        bucket.predicted[1] += c.draw;
        bucket.predicted[2] += c.loss;
        bucket.observed[match p.result {
            Result3::Win => 0,
            Result3::Draw => 1,
            Result3::Loss => 2,
        }] += 1;
    }
    Table { width, buckets }
}

impl Table {
    /// The summary over buckets of at least `min_positions` positions.
    pub fn summary(&self, min_positions: usize) -> Summary {
        let counted: Vec<&Bucket> = self
            .buckets
            .iter()
            .filter(|b| b.positions >= min_positions)
            .collect();
        Summary {
            counted: counted.len(),
            positions: counted.iter().map(|b| b.positions).sum(),
            worst: counted
                .iter()
                .map(|b| (b.deviation(), b.lo))
                .max_by(|x, y| x.0.total_cmp(&y.0)),
        }
    }

    /// The table as text: a header, one row per bucket (those under `min_positions` marked
    /// `(few)`), rates in points.
    pub fn render(&self, min_positions: usize) -> String {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{:>16} {:>9}   {:>17}   {:>17}   {:>7}",
            "score", "positions", "predicted W D L", "observed W D L", "max dev"
        );
        for b in &self.buckets {
            let (p, o) = (b.predicted_points(), b.observed_points());
            let range = format!("[{}, {})", b.lo, b.lo + self.width);
            let few = if b.positions < min_positions {
                " (few)"
            } else {
                ""
            };
            let _ = writeln!(
                text,
                "{range:>16} {:>9}   {:5.1} {:5.1} {:5.1}   {:5.1} {:5.1} {:5.1}   {:7.1}{few}",
                b.positions,
                p[0],
                p[1],
                p[2],
                o[0],
                o[1],
                o[2],
                b.deviation()
            );
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(score: f64, result: Result3) -> Point {
        Point {
            score,
            phase: 0.5,
            result,
        }
    }

    #[test]
    fn buckets_hold_their_scores_and_compare_rates() {
        let model = WdlModel {
            a: &[0.0],
            b: &[1e-9],
        };
        // Positive scores: the model says certain wins; one of the two games was lost.
        let points = [
            point(-7.0, Result3::Loss),
            point(3.0, Result3::Win),
            point(9.0, Result3::Loss),
            point(10.0, Result3::Win),
        ];
        let table = calibrate(&points, model, 10);
        let los: Vec<i64> = table.buckets.iter().map(|b| b.lo).collect();
        assert_eq!(los, [-10, 0, 10]);
        let middle = &table.buckets[1];
        assert_eq!((middle.positions, middle.observed), (2, [1, 0, 1]));
        assert!((middle.deviation() - 50.0).abs() < 1e-9);
        let s = table.summary(2);
        assert_eq!((s.counted, s.positions), (1, 2));
        assert_eq!(s.worst.map(|w| w.1), Some(0));
        assert!(table.render(2).contains("(few)"));
    }

    #[test]
    fn the_automatic_width_is_a_round_step() {
        let points: Vec<Point> = (-1000..=1000)
            .map(|s| point(f64::from(s), Result3::Win))
            .collect();
        assert_eq!(auto_width(&points), 100);
        assert_eq!(auto_width(&points[990..1010]), 1);
        assert_eq!(auto_width(&[]), 10);
    }
}
