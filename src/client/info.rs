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
    /// (option `UCI_ShowWDL`); read only when all three are whole numbers.
    pub wdl: Option<[u32; 3]>,
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
                    let mut next = || words.next().and_then(|v| v.parse::<u32>().ok());
                    if let (Some(w), Some(d), Some(l)) = (next(), next(), next()) {
                        info.wdl = Some([w, d, l]);
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
