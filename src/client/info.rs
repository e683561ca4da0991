//! The one reader of an engine's `info` lines: every field the protocol defines (protocol.md,
//! "info"), typed. The referee keeps the score and depth of a move, the web front end streams
//! whole lines to its pages, and the position check reads `info string error …`, all from
//! [`Info`].

use super::ReportedScore;

/// One `info` line, field by field. A field that is missing or whose value cannot be read is
/// `None`; unknown words are skipped; when a field repeats, its last readable value counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth N`: the iteration's depth.
    pub depth: Option<u64>,
    /// `seldepth N`: the deepest ply reached.
    pub seldepth: Option<u64>,
    /// `multipv K`: which of several lines (1 is the best).
    pub multipv: Option<u64>,
    /// `score cp N` or `score mate N`, from the side to move's view (a following `lowerbound`
    /// or `upperbound` is skipped).
    pub score: Option<ReportedScore>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `nps N`.
    pub nps: Option<u64>,
    /// `time MS`.
    pub time: Option<u64>,
    /// `hashfull N` (per mille).
    pub hashfull: Option<u64>,
    /// `wdl W D L`: the side to move's chances of a win, a draw and a loss in per mille
    /// (option `UCI_ShowWDL`); read only when they are three whole numbers from 0 to 1000
    /// that sum to 1000 ([`read_wdl`]).
    pub wdl: Option<[u32; 3]>,
    /// Why the line's `wdl` field was refused, e.g. `` `wdl 600 600 600`: the chances sum to
    /// 1800 per mille, not 1000 `` (`None` when it was read or the line has none).
    pub wdl_error: Option<String>,
    /// `pv M1 M2 …`: every word after `pv` (the principal variation ends the line).
    pub pv: Option<Vec<String>>,
    /// `string TEXT`: the free text after `string` (it ends the line).
    pub string: Option<String>,
}

impl Info {
    /// Reads an `info …` line; `None` when the line is not an `info` line.
    pub fn parse(line: &str) -> Option<Info> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        let mut words = words.peekable();
        while let Some(word) = words.next() {
            let number = |w: Option<&str>| w.and_then(|v| v.parse::<u64>().ok());
            let field = match word {
                "depth" => &mut info.depth,
                "seldepth" => &mut info.seldepth,
                "multipv" => &mut info.multipv,
                "nodes" => &mut info.nodes,
                "nps" => &mut info.nps,
                "time" => &mut info.time,
                "hashfull" => &mut info.hashfull,
                "string" => {
                    info.string = Some(words.by_ref().collect::<Vec<_>>().join(" "));
                    continue;
                }
                "wdl" => {
                    // Up to three numbers: a word that is none is the next field's name.
                    let mut values = Vec::with_capacity(3);
                    while values.len() < 3 {
                        match words.next_if(|w| w.parse::<i64>().is_ok()) {
                            Some(value) => values.push(value),
                            None => break,
                        }
                    }
                    match read_wdl(&values) {
                        Ok(chances) => {
                            info.wdl = Some(chances);
                            info.wdl_error = None;
                        }
                        Err(why) => info.wdl_error = Some(why),
                    }
                    continue;
                }
                "pv" => {
                    info.pv = Some(words.by_ref().map(str::to_string).collect());
                    continue;
                }
                "score" => {
                    let kind = words.next();
                    let value = words.next().and_then(|v| v.parse::<i32>().ok());
                    match (kind, value) {
                        (Some("cp"), Some(n)) => info.score = Some(ReportedScore::Cp(n)),
                        (Some("mate"), Some(n)) => info.score = Some(ReportedScore::Mate(n)),
                        _ => {}
                    }
                    if matches!(words.peek(), Some(&("lowerbound" | "upperbound"))) {
                        words.next();
                    }
                    continue;
                }
                _ => continue,
            };
            if let Some(n) = number(words.next()) {
                *field = Some(n);
            }
        }
        Some(info)
    }

    /// The score and depth a move is recorded with: those of a line with a score that is not
    /// a MultiPV line after the first.
    pub fn reported(&self) -> Option<(ReportedScore, Option<u32>)> {
        if self.multipv.is_some_and(|k| k > 1) {
            return None;
        }
        let depth = self.depth.and_then(|d| u32::try_from(d).ok());
        self.score.map(|s| (s, depth))
    }
}

/// The chances of a `wdl W D L` field from its values (the words after `wdl`): three whole
/// numbers from 0 to 1000, per mille, that sum to exactly 1000. Anything else is refused with
/// the reason, e.g. `` `wdl 5 x`: W, D and L must be three whole numbers (per mille) ``.
pub fn read_wdl(values: &[&str]) -> Result<[u32; 3], String> {
    let field = format!(
        "`{}`",
        std::iter::once("wdl")
            .chain(values.iter().copied())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let numbers: Vec<i64> = values.iter().map_while(|v| v.parse().ok()).collect();
    let [w, d, l] = numbers[..] else {
        return Err(format!(
            "{field}: W, D and L must be three whole numbers (per mille)"
        ));
    };
    if numbers.iter().any(|n| !(0..=1000).contains(n)) {
        return Err(format!("{field}: each chance is 0 to 1000 per mille"));
    }
    if w + d + l != 1000 {
        return Err(format!(
            "{field}: the chances sum to {} per mille, not 1000",
            w + d + l
        ));
    }
    let per_mille = |n: i64| u32::try_from(n).unwrap_or(0);
    Ok([per_mille(w), per_mille(d), per_mille(l)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(line: &str) -> Info {
        Info::parse(line).expect("an info line")
    }

    #[test]
    fn every_field_is_read() {
        let i = info(
            "info depth 5 seldepth 6 multipv 1 score cp 23 nodes 7752 nps 3876000 time 2 \
             hashfull 7 pv c5 b2 a2",
        );
        assert_eq!(i.depth, Some(5));
        assert_eq!(i.seldepth, Some(6));
        assert_eq!(i.multipv, Some(1));
        assert_eq!(i.score, Some(ReportedScore::Cp(23)));
        assert_eq!(
            (i.nodes, i.nps, i.time, i.hashfull),
            (Some(7752), Some(3876000), Some(2), Some(7))
        );
        assert_eq!(i.pv, Some(vec!["c5".to_string(), "b2".into(), "a2".into()]));
        assert_eq!(i.string, None);
        assert_eq!(i.wdl, None);
        assert_eq!(i.reported(), Some((ReportedScore::Cp(23), Some(5))));
    }

    #[test]
    fn the_chances_of_ucishowwdl_are_read_after_the_score() {
        let i = info("info depth 5 seldepth 6 score cp 23 wdl 512 300 188 nodes 7752 pv c5");
        assert_eq!(i.score, Some(ReportedScore::Cp(23)));
        assert_eq!(i.wdl, Some([512, 300, 188]));
        assert_eq!(i.nodes, Some(7752));
        assert_eq!(i.pv, Some(vec!["c5".to_string()]));
        let mate = info("info depth 1 score mate 1 wdl 1000 0 0 nodes 7 pv d4-e4");
        assert_eq!(mate.wdl, Some([1000, 0, 0]));
        assert_eq!(info("info score cp 1 wdl 5 x 3 nodes 2").wdl, None);
        assert_eq!(mate.wdl_error, None);
        assert_eq!(i.wdl_error, None);
    }

    #[test]
    fn malformed_chances_are_refused_with_the_reason() {
        let short = info("info depth 2 score cp 1 wdl 500 500 nodes 7 pv c3");
        assert_eq!(short.wdl, None);
        assert_eq!(
            short.wdl_error.as_deref(),
            Some("`wdl 500 500`: W, D and L must be three whole numbers (per mille)")
        );
        assert_eq!(short.nodes, Some(7), "the next field is still read");
        assert_eq!(short.pv, Some(vec!["c3".to_string()]));
        let word = info("info score cp 1 wdl 5 x 3 nodes 2");
        assert_eq!(
            word.wdl_error.as_deref(),
            Some("`wdl 5`: W, D and L must be three whole numbers (per mille)")
        );
        assert_eq!(word.nodes, Some(2));
        let sum = info("info score cp 1 wdl 600 600 600");
        assert_eq!(sum.wdl, None);
        assert_eq!(
            sum.wdl_error.as_deref(),
            Some("`wdl 600 600 600`: the chances sum to 1800 per mille, not 1000")
        );
        let negative = info("info score cp 1 wdl -5 5 1000");
        assert_eq!(
            negative.wdl_error.as_deref(),
            Some("`wdl -5 5 1000`: each chance is 0 to 1000 per mille")
        );
        let huge = info("info score cp 1 wdl 99999999999999999999 0 0 depth 3");
        assert_eq!(huge.wdl, None);
        assert!(huge.wdl_error.is_some());
        assert_eq!(huge.depth, Some(3));
        let bare = info("info score cp 1 wdl");
        assert_eq!(
            bare.wdl_error.as_deref(),
            Some("`wdl`: W, D and L must be three whole numbers (per mille)")
        );
        // A good field after a bad one counts, and clears the error.
        let again = info("info wdl 1 2 3 wdl 1 2 997");
        assert_eq!((again.wdl, again.wdl_error), (Some([1, 2, 997]), None));
    }

    #[test]
    fn chances_are_read_from_their_values() {
        assert_eq!(read_wdl(&["1000", "0", "0"]), Ok([1000, 0, 0]));
        assert_eq!(read_wdl(&["0", "1000", "0"]), Ok([0, 1000, 0]));
        assert_eq!(read_wdl(&["512", "300", "188"]), Ok([512, 300, 188]));
        for bad in [
            &["1", "2"][..],
            &["1", "2", "3", "4"],
            &["a", "b", "c"],
            &["1001", "0", "-1"],
            &["333", "333", "333"],
            &["1.5", "498.5", "500"],
        ] {
            assert!(read_wdl(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn scores_bounds_strings_and_bad_values() {
        let mate = info("info depth 1 score mate -2 upperbound nodes 9 pv d4-e4");
        assert_eq!(mate.score, Some(ReportedScore::Mate(-2)));
        assert_eq!(mate.nodes, Some(9));
        let text = info("info string error illegal-move move 1 e5 depth 3");
        assert_eq!(
            text.string.as_deref(),
            Some("error illegal-move move 1 e5 depth 3")
        );
        assert_eq!(text.depth, None);
        assert_eq!(info("info depth x"), Info::default());
        assert_eq!(info("info depth 4 depth x").depth, Some(4));
        assert_eq!(
            info("info score cp 5 score wdl 1").score,
            Some(ReportedScore::Cp(5))
        );
        assert_eq!(Info::parse("bestmove c3"), None);
        assert_eq!(Info::parse("infos depth 3"), None);
    }

    #[test]
    fn only_the_first_line_of_several_is_reported() {
        assert_eq!(info("info multipv 2 depth 3 score cp 1").reported(), None);
        assert_eq!(info("info depth 3").reported(), None);
        assert_eq!(
            info("info depth 9999999999 score mate 3").reported(),
            Some((ReportedScore::Mate(3), None))
        );
    }
}
