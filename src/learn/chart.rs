//! The chart of a learning run, `elo.svg`: Elo by generation — the best against generation 0
//! (a line), every candidate against generation 0 (filled dots promoted, open dots
//! rejected), and the best against the hand evaluation where an anchor match measured it —
//! each with its 95 % error bar. Drawn by plotters (its SVG back end, text as SVG text)
//! after every generation, from the ledger alone.

use plotters::element::ErrorBarOrientV;
use plotters::prelude::*;

use super::config::LearnConfig;
use super::layout::{RunDir, write_atomic};
use super::ledger::{Elo, Ledger};

/// The chart's size in pixels.
const SIZE: (u32, u32) = (900, 540);

/// One point of a series: generation, Elo.
type Point = (f64, Elo);

/// Draws the chart of `run` into `elo.svg` (atomically).
pub fn draw(run: &RunDir, config: &LearnConfig) -> Result<(), String> {
    let ledger = Ledger::read(run)?;
    let svg = render(&ledger, &title(config))?;
    write_atomic(&run.chart(), svg.as_bytes())
}

/// The chart's title: the game and its rule options.
fn title(config: &LearnConfig) -> String {
    let options: Vec<String> = config
        .options
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    if options.is_empty() {
        format!("ludus learn: {}", config.game)
    } else {
        format!("ludus learn: {} ({})", config.game, options.join(", "))
    }
}

/// The SVG text of the chart of `ledger`.
pub fn render(ledger: &Ledger, title: &str) -> Result<String, String> {
    let best: Vec<Point> = ledger
        .generations()
        .map(|g| (f64::from(g.generation), g.best_vs_gen0))
        .collect();
    let promoted: Vec<Point> = ledger
        .generations()
        .filter(|g| g.promoted && g.generation > 0)
        .map(|g| (f64::from(g.generation), g.candidate_vs_gen0))
        .collect();
    let rejected: Vec<Point> = ledger
        .generations()
        .filter(|g| !g.promoted)
        .map(|g| (f64::from(g.generation), g.candidate_vs_gen0))
        .collect();
    let hand: Vec<Point> = ledger
        .generations()
        .filter_map(|g| Some((f64::from(g.generation), g.best_vs_hand?)))
        .filter(|(_, e)| e.error > 0.0 || e.elo != 0.0)
        .collect();
    let all = best.iter().chain(&promoted).chain(&rejected).chain(&hand);
    let (mut low, mut high) = (0.0f64, 50.0f64);
    for (_, e) in all {
        let err = if e.error.is_finite() { e.error } else { 0.0 };
        low = low.min(e.elo - err);
        high = high.max(e.elo + err);
    }
    let margin = (high - low) * 0.08;
    let last = best.last().map_or(1.0, |p| p.0).max(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let fail = |e: &dyn std::fmt::Display| format!("chart: {e}");
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.3..last + 0.3, (low - margin)..(high + margin))
            .map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc("Elo (95 % error bars)")
            .x_labels((last as usize + 1).min(20))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:+.0}"))
            .draw()
            .map_err(|e| fail(&e))?;
        let blue = RGBColor(31, 95, 180);
        let green = RGBColor(30, 140, 60);
        let red = RGBColor(200, 50, 40);
        chart
            .draw_series(LineSeries::new(
                best.iter().map(|(x, e)| (*x, e.elo)),
                blue.stroke_width(2),
            ))
            .map_err(|e| fail(&e))?
            .label("best vs generation 0")
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], blue.stroke_width(2))
            });
        if !hand.is_empty() {
            chart
                .draw_series(LineSeries::new(
                    hand.iter().map(|(x, e)| (*x, e.elo)),
                    green.stroke_width(2),
                ))
                .map_err(|e| fail(&e))?
                .label("best vs hand evaluation")
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], green.stroke_width(2))
                });
            chart
                .draw_series(error_bars(&hand, green))
                .map_err(|e| fail(&e))?;
        }
        chart
            .draw_series(error_bars(&promoted, blue))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(error_bars(&rejected, red))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(
                promoted
                    .iter()
                    .map(|(x, e)| Circle::new((*x, e.elo), 5, blue.filled())),
            )
            .map_err(|e| fail(&e))?
            .label("candidate, promoted")
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, blue.filled()));
        chart
            .draw_series(
                rejected
                    .iter()
                    .map(|(x, e)| Circle::new((*x, e.elo), 5, red.stroke_width(2))),
            )
            .map_err(|e| fail(&e))?
            .label("candidate, rejected")
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, red.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}

/// The vertical 95 % bars of `points`.
fn error_bars(
    points: &[Point],
    color: RGBColor,
) -> Vec<ErrorBar<f64, f64, ErrorBarOrientV<f64, f64>>> {
    points
        .iter()
        .filter(|(_, e)| e.error.is_finite() && e.error > 0.0)
        .map(|(x, e)| {
            ErrorBar::new_vertical(
                *x,
                e.elo - e.error,
                e.elo,
                e.elo + e.error,
                color.stroke_width(1),
                8,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::ledger::{GenerationLine, Line};

    #[test]
    fn the_chart_is_an_svg_with_every_series_and_the_title() {
        let line = |g: u32, promoted: bool, elo: f64| {
            Line::Generation(Box::new(GenerationLine {
                generation: g,
                promoted,
                best: String::new(),
                net: String::new(),
                data: None,
                train: None,
                gate_nodes: None,
                gate_clock: None,
                anchor: None,
                candidate_vs_gen0: Elo { elo, error: 20.0 },
                best_vs_gen0: Elo { elo, error: 20.0 },
                best_vs_hand: Some(Elo {
                    elo: elo + 100.0,
                    error: 30.0,
                }),
                seconds: serde_json::Map::new(),
                ended: 0,
            }))
        };
        let ledger = Ledger {
            lines: vec![
                line(0, true, 0.0),
                line(1, true, 35.0),
                line(2, false, 20.0),
            ],
        };
        let svg = render(&ledger, "ludus learn: sight (Sight_BoardSize=7)").unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        for text in [
            "ludus learn: sight (Sight_BoardSize=7)",
            "best vs generation 0",
            "best vs hand evaluation",
            "candidate, promoted",
            "candidate, rejected",
            "generation",
        ] {
            assert!(svg.contains(text), "no {text:?} in the chart");
        }
        let circles = |r: &str| {
            svg.lines()
                .filter(|l| l.starts_with("<circle") && l.contains(&format!("r=\"{r}\"")))
                .count()
        };
        assert_eq!(circles("5"), 2 + 2, "two candidates and two legend dots");
        assert_eq!(
            circles("4"),
            3 + 2,
            "error bars: three of the hand series, two candidates"
        );
    }
}
