//! Tactigon's win/draw/loss model (`UCI_ShowWDL`, docs/wdl.md). Its draws come from the ply
//! cap (docs/rules/tactigon.md §5.5), so the phase is the ply's share of the cap, 0 at the
//! start and 1 at the cap; without a cap, the share of the pieces taken.

use super::Tactigon;
use crate::game::wdl::{WdlModel, WinChances};

/// Pieces on the board at the start (docs/rules/tactigon.md §2).
const START_PIECES: u32 = 26;

impl WinChances for Tactigon {
    /// Fitted by `ludus wdl fit --game tactigon` to 20,000 self-play games (docs/wdl.md,
    /// "Tactigon").
    const WDL_MODEL: WdlModel<'static> = WdlModel {
        a: &[46.2, 146.1, 322.5, 497.9],
        b: &[182.7, 102.0, 94.9, 69.9],
    };

    fn wdl_phase(&self) -> f64 {
        if self.rules.ply_cap > 0 {
            return (f64::from(self.ply) / f64::from(self.rules.ply_cap)).min(1.0);
        }
        let pieces = self.occupied().count_ones();
        f64::from(START_PIECES.saturating_sub(pieces)) / f64::from(START_PIECES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::tactigon::{START_FEN, TactigonRules};

    #[test]
    fn the_phase_is_the_share_of_the_ply_cap() {
        let rules = TactigonRules::default();
        let at = |fen: &str| match Tactigon::from_fen(fen, &rules) {
            Ok(pos) => pos.wdl_phase(),
            Err(e) => panic!("{fen}: {e}"),
        };
        assert_eq!(at(START_FEN), 0.0);
        assert_eq!(at("2/4C4/10/2P5p1c/4C5/9/2 r 150"), 0.5);
        let uncapped = TactigonRules {
            ply_cap: 0,
            ..rules
        };
        let start = Tactigon::from_fen(START_FEN, &uncapped).map(|p| p.wdl_phase());
        assert_eq!(start, Ok(0.0));
    }

    #[test]
    fn the_model_is_well_formed() {
        assert!(Tactigon::WDL_MODEL.a.iter().all(|&a| a >= 0.0));
        assert!(Tactigon::WDL_MODEL.b.iter().all(|&b| b > 0.0));
    }
}
