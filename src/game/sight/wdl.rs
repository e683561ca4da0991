//! Sight's win/draw/loss model (`UCI_ShowWDL`, docs/wdl.md): Sight has no draws, so `a = 0`;
//! the phase is the share of the board's points that are filled (every turn fills one,
//! docs/rules/sight.md §4), 0 on the empty board and 1 on a full one, on any board size.

use super::Sight;
use crate::game::wdl::{WdlModel, WinChances};

impl WinChances for Sight {
    /// Fitted by `ludus wdl fit --game sight` to 9,000 self-play games (docs/wdl.md, "Sight").
    const WDL_MODEL: WdlModel<'static> = WdlModel {
        a: &[0.0, 0.0, 0.0, 0.0],
        b: &[28.5, 17.3, 12.9, 19.0],
    };

    fn wdl_phase(&self) -> f64 {
        let points = self.geo.board.count_ones();
        let empty = self.empty_points().count_ones();
        f64::from(points - empty) / f64::from(points.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::sight::SightSettings;

    fn phase(fen: &str, size: usize) -> f64 {
        let settings = SightSettings {
            size,
            strict_tallest: false,
        };
        match Sight::from_fen(fen, &settings) {
            Ok(pos) => pos.wdl_phase(),
            Err(e) => panic!("{fen}: {e}"),
        }
    }

    #[test]
    fn the_phase_is_the_filled_share_of_the_board() {
        assert_eq!(phase("5:x5/x5/x5/x5/x5 w", 5), 0.0);
        assert_eq!(phase("5:x5/x5/x2,w,x2/x5/x5 b", 5), 1.0 / 25.0);
        assert_eq!(phase("3:x3/x,w,x/b,x2 w", 3), 2.0 / 9.0);
    }

    #[test]
    fn the_model_has_no_draws() {
        assert!(Sight::WDL_MODEL.a.iter().all(|&a| a == 0.0));
        assert!(Sight::WDL_MODEL.b.iter().all(|&b| b > 0.0));
        assert_eq!(Sight::WDL_MODEL.per_mille(0, 0.5).draw, 0);
    }
}
