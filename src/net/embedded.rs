//! The nets built into the binary (`data/nets/`, made by `ludus train`, docs/training.md): the
//! default evaluation of each game that has one, so that no setup is needed.

use std::sync::{Arc, OnceLock};

use super::{GameNet, Net};
use crate::game::{Evaluate, NetFeatures};

/// The embedded nets: game name and file (docs/training.md says how each was made).
const NETS: &[(&str, &[u8])] = &[
    ("isaac", include_bytes!("../../data/nets/isaac.nnue")),
    ("sight", include_bytes!("../../data/nets/sight.nnue")),
    ("tactigon", include_bytes!("../../data/nets/tactigon.nnue")),
];

/// The embedded net's bytes for the game called `game`, if it has one.
pub fn bytes(game: &str) -> Option<&'static [u8]> {
    NETS.iter().find(|(g, _)| *g == game).map(|&(_, b)| b)
}

/// An embedded net's game and the net read from it (or why it could not be read).
type Parsed = (&'static str, Result<Arc<Net>, String>);

/// Every embedded net, read once.
fn parsed() -> &'static [Parsed] {
    static PARSED: OnceLock<Vec<Parsed>> = OnceLock::new();
    PARSED.get_or_init(|| {
        NETS.iter()
            .map(|&(game, bytes)| (game, Net::from_bytes(bytes).map(Arc::new)))
            .collect()
    })
}

/// The embedded net of `G`, if it has one that fits `G`'s features (a test checks every
/// embedded net does).
pub fn for_game<G: Evaluate + NetFeatures>() -> Option<GameNet<G>> {
    let (_, net) = parsed().iter().find(|(g, _)| *g == G::NAME)?;
    GameNet::new(Arc::clone(net.as_ref().ok()?)).ok()
}

/// The embedded net of `G`, shared, as search parameters carry it.
pub fn net_for<G: Evaluate + NetFeatures>() -> Option<Arc<Net>> {
    for_game::<G>().map(|n| n.net_arc())
}

/// Each embedded net's game and whether it reads and fits its game (for the tests).
pub fn check_all() -> Vec<(&'static str, Result<(), String>)> {
    use crate::game::{GameId, GameVisitor, Searchable};
    struct Fits<'a>(&'a Net);
    impl GameVisitor for Fits<'_> {
        type Output = Result<(), String>;
        fn visit<G: Searchable>(self) -> Self::Output {
            self.0.check_fits(G::NAME, G::NET_FEATURES, G::NET_INPUTS)
        }
    }
    parsed()
        .iter()
        .map(|(game, net)| {
            let fits = net.as_ref().map_err(Clone::clone).and_then(|net| {
                GameId::ALL
                    .iter()
                    .find(|g| g.name() == *game)
                    .ok_or_else(|| format!("no game called {game}"))
                    .and_then(|g| g.visit(Fits(net)))
            });
            (*game, fits)
        })
        .collect()
}
