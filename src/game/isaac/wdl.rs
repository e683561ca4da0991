//! Isaac's win/draw/loss model (`UCI_ShowWDL`, docs/wdl.md): Isaac has no draws (ties are
//! broken, docs/rules/isaac.md §4.7), so `a = 0`. The phase: in placement, half the share of
//! the board's cells covered (the tiles' 130 cells never all fit on its 100, §1.2); in scoring
//! (and at the end), a half plus half the higher score's way to 100.

use super::tables::CELLS;
use super::{Isaac, Phase};
use crate::game::wdl::{WdlModel, WinChances};

impl WinChances for Isaac {
    /// Fitted by `ludus wdl fit --game isaac` to 5,000 self-play games (docs/wdl.md, "Isaac").
    const WDL_MODEL: WdlModel<'static> = WdlModel {
        a: &[0.0, 0.0, 0.0, 0.0],
        b: &[55.0, 77.5, 43.7, 46.7],
    };

    fn wdl_phase(&self) -> f64 {
        match self.phase {
            Phase::Placement => 0.5 * f64::from(self.occupied.count_ones()) / CELLS as f64,
            Phase::Scoring | Phase::Ended => {
                let best = self.scores[0].max(self.scores[1]).min(100);
                0.5 + 0.5 * f64::from(best) / 100.0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::isaac::IsaacRules;

    fn phase(fen: &str) -> f64 {
        match Isaac::from_fen(fen, &IsaacRules::default()) {
            Ok(pos) => pos.wdl_phase(),
            Err(e) => panic!("{fen}: {e}"),
        }
    }

    #[test]
    fn the_phase_runs_from_the_empty_board_to_100_points() {
        assert_eq!(phase("- 54321/54321 d P - 0/0 0/0"), 0.0);
        assert_eq!(phase("D7h00 54320/54321 l P - 0/0 0/0"), 0.035);
        assert_eq!(
            phase("D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0"),
            0.925
        );
        assert_eq!(phase("- 11000/00001 d S l 30/30 3/3"), 0.65);
    }

    #[test]
    fn the_model_has_no_draws() {
        assert!(Isaac::WDL_MODEL.a.iter().all(|&a| a == 0.0));
        assert!(Isaac::WDL_MODEL.b.iter().all(|&b| b > 0.0));
    }
}
