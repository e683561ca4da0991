//! What a match prints: the final table and the progress line.

use std::time::Duration;

use super::tally::{Encounter, Tally, describe, half_points};
use crate::record::game::GameSummary;
use crate::stats::{EloEstimate, Pentanomial, Sprt, Verdict};

/// `x` rounded to `decimals`, without a negative zero.
fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale + 0.0
}

/// `+120.4 ± 19.3`; `+inf` / `-inf` without error bar; `± inf` when the interval is unbounded.
fn format_elo(e: &EloEstimate, decimals: usize) -> String {
    if e.elo.is_infinite() {
        return if e.elo > 0.0 { "+inf" } else { "-inf" }.into();
    }
    let elo = round(e.elo, decimals as i32);
    match e.error() {
        err if err.is_finite() => format!("{elo:+.decimals$} ± {err:.decimals$}"),
        _ => format!("{elo:+.decimals$} ± inf"),
    }
}

/// `LLR 0.42 (-2.94, 2.94)` and the verdict, for `first`'s pairs.
pub(crate) fn sprt_state(sprt: &Sprt, pairs: &Pentanomial) -> (f64, String, Option<Verdict>) {
    let llr = sprt.llr(pairs);
    let (lower, upper) = sprt.bounds();
    let text = format!("LLR {llr:.2} ({lower:.2}, {upper:.2})");
    (llr, text, sprt.verdict(llr))
}

/// `new vs old: 3-1-1 [0.700]`: wins, losses, draws and score of `first`.
fn score_text(e: &Encounter) -> String {
    let (w, score) = (e.wdl, e.wdl.score());
    let (first, second, wins, losses, draws) = (&e.first, &e.second, w.wins, w.losses, w.draws);
    format!("{first} vs {second}: {wins}-{losses}-{draws} [{score:.3}]")
}

/// The final table: for each encounter its wins, losses and draws, score, Elo with its 95 %
/// interval and the likelihood of superiority, the pair (pentanomial) counts with their Elo,
/// the terminations and failures; with `sprt` (meant for 2 engines, applied to every
/// encounter) the LLR, its bounds and the verdict. With more than 2 engines a standings table
/// (games, points, score) follows, best score first. Infinite Elo (a 100 % or 0 % score) is
/// printed `+inf` / `-inf`, without error bar. Without games: `no games`.
pub fn format_table(tally: &Tally, sprt: Option<&Sprt>) -> String {
    if tally.is_empty() {
        return "no games\n".into();
    }
    let mut out = String::new();
    for e in tally.encounters() {
        let (w, n) = (e.wdl, e.wdl.games());
        let games = if n == 1 { "game" } else { "games" };
        let pct = 100.0 * w.score();
        out.push_str(&format!(
            "{} ({n} {games}), score {pct:.1} %\n",
            score_text(&e)
        ));
        if let Some(elo) = w.elo() {
            let (elo, los) = (format_elo(&elo, 1), 100.0 * w.los());
            out.push_str(&format!("  Elo {elo} (95 %), LOS {los:.1} %\n"));
        }
        let [ll, ld, even, wd, ww] = e.pentanomial.0;
        out.push_str(&format!(
            "  Pairs (LL LD WL+DD WD WW): {ll} {ld} {even} {wd} {ww}"
        ));
        if let Some(elo) = e.pentanomial.elo() {
            out.push_str(&format!(", Elo {}", format_elo(&elo, 1)));
        }
        let list = |items: Vec<String>| items.join(", ");
        let ends = list(
            e.terminations
                .iter()
                .map(|(t, n)| format!("{t} {n}"))
                .collect(),
        );
        out.push_str(&format!("\n  Terminations: {ends}\n"));
        if !e.failures.is_empty() {
            let failures = e
                .failures
                .iter()
                .map(|(who, t, n)| format!("{who} {t} {n}"));
            out.push_str(&format!("  Failures: {}\n", list(failures.collect())));
        }
        if let Some(sprt) = sprt {
            let (_, llr, verdict) = sprt_state(sprt, &e.pentanomial);
            let verdict = match verdict {
                Some(Verdict::H0) => "H0 accepted",
                Some(Verdict::H1) => "H1 accepted",
                None => "continue",
            };
            let Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            } = sprt;
            let test = format!("elo0 {elo0} elo1 {elo1} alpha {alpha} beta {beta}");
            out.push_str(&format!("  SPRT {test}: {llr}, {verdict}\n"));
        }
    }
    if tally.engines().len() > 2 {
        out.push_str(&standings(tally));
    }
    out
}

/// The standings of every engine: games, points, score; best score first.
fn standings(tally: &Tally) -> String {
    let mut rows: Vec<(&str, u64, f64)> = Vec::new();
    for name in tally.engines() {
        let games = tally.games().filter(|g| g.p1 == *name || g.p2 == *name);
        let (n, half) = games.fold((0, 0), |(n, h), g| (n + 1, h + half_points(g, name)));
        rows.push((name, n, half as f64 / 2.0));
    }
    let score = |&(_, n, points): &(&str, u64, f64)| if n == 0 { -1.0 } else { points / n as f64 };
    rows.sort_by(|a, b| score(b).total_cmp(&score(a)));
    let width = rows.iter().map(|r| r.0.chars().count()).fold(6, usize::max);
    let mut out = format!("\nRank  {:width$}  Games  Points  Score\n", "Engine");
    for (rank, row) in rows.iter().enumerate() {
        let (name, games, points, rank) = (row.0, row.1, row.2, rank + 1);
        let pct = match games {
            0 => "-".to_string(),
            _ => format!("{:.1} %", 100.0 * score(row)),
        };
        out.push_str(&format!(
            "{rank:>4}  {name:width$}  {games:>5}  {points:>6.1}  {pct}\n"
        ));
    }
    out
}

/// `3m05s`, `1h02m05s`, `45s`.
fn format_duration(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// One progress line for stderr, e.g. `Game 12/200 (new vs old 1-0 rules) | new vs old:
/// 7-3-2 [0.667] Elo +120 ± 190 | LLR 0.42 (-2.94, 2.94) | ETA 3m05s`: the games in the
/// tally (resumed ones included) out of `total` scheduled, the game `last` just finished,
/// the wins, losses and draws of its encounter with score and Elo, the LLR with `sprt`, and
/// the time left: `elapsed` (this run's time) ÷ `run_games` (games finished in this run) ×
/// games left (`ETA ?` when `run_games` is 0).
pub fn progress_line(
    tally: &Tally,
    last: &GameSummary,
    run_games: u64,
    total: u64,
    elapsed: Duration,
    sprt: Option<&Sprt>,
) -> String {
    let done = tally.len() as u64;
    let mut line = format!("Game {done}/{total} ({})", describe(last));
    if let Some(e) = tally.encounter_of(last) {
        line.push_str(&format!(" | {}", score_text(&e)));
        if let Some(elo) = e.wdl.elo() {
            line.push_str(&format!(" Elo {}", format_elo(&elo, 0)));
        }
        if let Some(sprt) = sprt {
            line.push_str(&format!(" | {}", sprt_state(sprt, &e.pentanomial).1));
        }
    }
    let left = total.saturating_sub(done) as f64;
    let eta = match run_games {
        0 => "?".to_string(),
        n => format_duration(elapsed.div_f64(n as f64).mul_f64(left)),
    };
    line.push_str(&format!(" | ETA {eta}"));
    line
}

#[cfg(test)]
mod tests {
    use super::super::tally::test_support::*;
    use super::*;

    #[test]
    fn table_and_progress_line_are_exact() {
        let table = format_table(&sample(), Some(&SPRT));
        let expected = "new vs old: 3-1-1 [0.700] (5 games), score 70.0 %\n\
            \x20 Elo +147.2 ± inf (95 %), LOS 84.1 %\n\
            \x20 Pairs (LL LD WL+DD WD WW): 0 0 1 1 0, Elo +88.7 ± 136.3\n\
            \x20 Terminations: rules 3, max-plies 1, crash 1\n\
            \x20 Failures: new crash 1\n\
            \x20 SPRT elo0 0 elo1 5 alpha 0.05 beta 0.05: LLR 0.03 (-2.94, 2.94), continue\n";
        assert_eq!(table, expected);
        let last = g(5, "new", "old", P1Win, Rules);
        let line = progress_line(
            &sample(),
            &last,
            4,
            200,
            Duration::from_secs(10),
            Some(&SPRT),
        );
        assert_eq!(
            line,
            "Game 5/200 (new vs old 1-0 rules) | new vs old: 3-1-1 [0.700] Elo +147 ± inf \
             | LLR 0.03 (-2.94, 2.94) | ETA 8m08s"
        );
        assert_eq!(
            format_table(&tally(&["new", "old"], &[]), None),
            "no games\n"
        );
    }

    #[test]
    fn infinite_elo_and_standings() {
        let t = tally(
            &["a", "b", "c"],
            &[
                g(1, "a", "b", P1Win, Rules),
                g(2, "b", "a", P2Win, Rules),
                g(3, "c", "b", Draw, Rules),
            ],
        );
        let table = format_table(&t, None);
        assert!(
            table.contains("a vs b: 2-0-0 [1.000] (2 games), score 100.0 %\n  Elo +inf (95 %)")
        );
        assert!(
            table.contains("  Pairs (LL LD WL+DD WD WW): 0 0 0 0 1, Elo +inf\n"),
            "{table}"
        );
        assert!(
            table.ends_with(
                "\nRank  Engine  Games  Points  Score\n   1  a           2     2.0  100.0 %\n   \
             2  c           1     0.5  50.0 %\n   3  b           3     0.5  16.7 %\n"
            ),
            "{table}"
        );
        let lost = tally(&["a", "b"], &[g(1, "a", "b", P2Win, Rules)]);
        assert!(format_table(&lost, None).contains("  Elo -inf (95 %), LOS 15.9 %\n"));
        let json = crate::referee::results::EncounterJson::from(&lost.encounters()[0]);
        assert_eq!((json.elo, json.elo_error), (None, None));
    }
}
