//! The rules behind one object-safe trait: a position of a game chosen at run time
//! ([`RuleSet`] makes them), so code that must not be generic over the game (the referee, the
//! front ends, datagen files, game review) is written once for every game. Every move an engine
//! sends to the referee is read and checked here; the result of a game is decided here.

use rand::RngExt;
use rand::rngs::SmallRng;

use crate::game::options::{OptionSpec, OptionValues};
use crate::game::{Game, GameId, GameVisitor, Outcome, Player, Searchable};

/// Why a move sent by an engine cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in the game's notation (the `bad-output` termination).
    Unreadable(String),
    /// The move is readable but not legal here (the `illegal-move` termination).
    Illegal(String),
}

/// A position of the match's game, checked by ludus's rules.
pub trait RulePosition: Send {
    /// The position in the game's notation.
    fn to_fen(&self) -> String;
    /// Whose turn it is.
    fn side_to_move(&self) -> Player;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Reads, checks and plays a move; returns it in canonical notation. Unchanged on error.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// The legal moves in canonical notation and order.
    fn legal_moves(&self) -> Vec<String>;
    /// A copy of the position.
    fn boxed_clone(&self) -> Box<dyn RulePosition>;
}

struct Position<G: Game>(G);

impl<G: Game> RulePosition for Position<G> {
    fn to_fen(&self) -> String {
        self.0.to_fen()
    }

    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let m = self
            .0
            .parse_move(text)
            .map_err(|e| MoveError::Unreadable(unreadable(text, &e.to_string())))?;
        if self.0.outcome().is_some() {
            return Err(MoveError::Illegal(format!("{text}: the game is over")));
        }
        if !self.0.is_legal(m) {
            return Err(MoveError::Illegal(format!(
                "{text}: {}",
                self.0.why_illegal(m)
            )));
        }
        let canonical = self.0.move_to_string(m);
        self.0.play(m);
        Ok(canonical)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.0.generate_moves(&mut moves);
        moves.iter().map(|&m| self.0.move_to_string(m)).collect()
    }

    fn boxed_clone(&self) -> Box<dyn RulePosition> {
        Box::new(Position(self.0.clone()))
    }
}

/// A game with its rule options: what the referee plays and tells the engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    game: GameId,
    /// The rule options set away from nothing (name, canonical value), in the order given.
    options: Vec<(String, String)>,
    values: OptionValues,
}

impl RuleSet {
    /// The game with its options (`Sight_BoardSize=7`, …), each checked against the game's
    /// option specs.
    pub fn new(game: GameId, options: &[(String, String)]) -> Result<RuleSet, String> {
        let specs = game.options();
        let mut values = OptionValues::from_specs(&specs);
        let mut set = Vec::new();
        for (name, value) in options {
            let spec: &OptionSpec = specs
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                    format!(
                        "{} has no rule option '{name}' (it has: {})",
                        game.name(),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    )
                })?;
            let value = spec
                .validate(value)
                .map_err(|e| format!("option {}: {e}", spec.name))?;
            values.set(spec.name, value.clone());
            set.push((spec.name.to_string(), value));
        }
        Ok(RuleSet {
            game,
            options: set,
            values,
        })
    }

    /// The game.
    pub fn game(&self) -> GameId {
        self.game
    }

    /// Every rule option's value (defaults and the options given), as the game reads them.
    pub fn values(&self) -> &OptionValues {
        &self.values
    }

    /// The rule options given, to be sent to every engine with `setoption`.
    pub fn options(&self) -> &[(String, String)] {
        &self.options
    }

    /// The start position.
    pub fn start(&self) -> Box<dyn RulePosition> {
        struct Start<'a>(&'a OptionValues);
        impl GameVisitor for Start<'_> {
            type Output = Box<dyn RulePosition>;
            fn visit<G: Searchable>(self) -> Box<dyn RulePosition> {
                Box::new(Position(G::start(&G::settings(self.0))))
            }
        }
        self.game.visit(Start(&self.values))
    }

    /// Why `text` is not a legal move in the position `fen`, in the rules' words (for a
    /// person who typed or clicked it).
    pub fn why_not_legal(&self, fen: &str, text: &str) -> String {
        match self.from_fen(fen).map(|mut p| p.play(text)) {
            Ok(Err(MoveError::Unreadable(why) | MoveError::Illegal(why))) => why,
            _ => format!("'{text}' is not a legal move here"),
        }
    }

    /// A position read from the game's notation.
    pub fn from_fen(&self, fen: &str) -> Result<Box<dyn RulePosition>, String> {
        struct FromFen<'a>(&'a OptionValues, &'a str);
        impl GameVisitor for FromFen<'_> {
            type Output = Result<Box<dyn RulePosition>, String>;
            fn visit<G: Searchable>(self) -> Self::Output {
                G::from_fen(self.1, &G::settings(self.0))
                    .map(|p| Box::new(Position(p)) as Box<dyn RulePosition>)
                    .map_err(|e| e.to_string())
            }
        }
        self.game.visit(FromFen(&self.values, fen))
    }
}

/// Plays `plies` random legal moves from `start`; `None` if the game ends before (the caller
/// draws again). Returns the moves in canonical notation.
pub fn random_moves(
    start: &dyn RulePosition,
    plies: u32,
    rng: &mut SmallRng,
) -> Option<Vec<String>> {
    let mut pos = start.boxed_clone();
    let mut moves = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome().is_some() {
            return None;
        }
        let pick = &legal[rng.random_range(0..legal.len())];
        let played = pos.play(pick).ok()?;
        moves.push(played);
    }
    pos.outcome().is_none().then_some(moves)
}

/// The game's option values: its defaults, overridden by `options`, each checked against the
/// game's specs (names ignore case).
pub fn option_values(game: GameId, options: &[(String, String)]) -> Result<OptionValues, String> {
    RuleSet::new(game, options).map(|rules| rules.values().clone())
}

/// Why `text` is not a move: the game's parse error, which names the text itself in some
/// games (`'v36' is not a move: …`) and not in others (then it is named here).
fn unreadable(text: &str, error: &str) -> String {
    let named = format!("'{text}' is not a move");
    if error.starts_with(&named) {
        error.to_string()
    } else {
        format!("{named}: {error}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn an_unreadable_move_is_named_once() {
        for (game, text) in [
            (GameId::Sight, "z9"),
            (GameId::Isaac, "v36"),
            (GameId::Tactigon, "a1-a2"),
        ] {
            let mut pos = RuleSet::new(game, &[]).unwrap().start();
            let Err(MoveError::Unreadable(why)) = pos.play(text) else {
                panic!("{game:?}: {text} was read");
            };
            let named = format!("'{text}' is not a move");
            assert!(why.starts_with(&named), "{game:?}: {why}");
            assert_eq!(why.matches(&named).count(), 1, "{game:?}: {why}");
        }
    }

    #[test]
    fn checks_moves_and_tells_unreadable_from_illegal() {
        let rules = RuleSet::new(GameId::Sight, &[]).unwrap();
        let mut pos = rules.start();
        assert_eq!(pos.legal_moves().len(), 25);
        assert_eq!(pos.play("c3"), Ok("c3".to_string()));
        assert!(matches!(pos.play("c3"), Err(MoveError::Illegal(_))));
        assert!(matches!(pos.play("zz99"), Err(MoveError::Unreadable(_))));
        assert_eq!(pos.side_to_move(), Player::Two);
        assert_eq!(pos.to_fen(), "5:x5/x5/x2,w,x2/x5/x5 b");
    }

    #[test]
    fn rule_options_are_checked_and_applied() {
        let rules = RuleSet::new(GameId::Sight, &[("sight_boardsize".into(), "3".into())]).unwrap();
        assert_eq!(rules.start().legal_moves().len(), 9);
        assert_eq!(
            rules.options(),
            &[("Sight_BoardSize".to_string(), "3".to_string())]
        );
        let err = RuleSet::new(GameId::Isaac, &[("Sight_BoardSize".into(), "3".into())]);
        assert!(
            err.unwrap_err()
                .contains("isaac has no rule option 'Sight_BoardSize'")
        );
        assert!(RuleSet::new(GameId::Sight, &[("Sight_BoardSize".into(), "x".into())]).is_err());
    }

    #[test]
    fn random_moves_are_legal_and_seeded() {
        for game in GameId::ALL {
            let rules = RuleSet::new(*game, &[]).unwrap();
            let start = rules.start();
            let a = random_moves(&*start, 4, &mut SmallRng::seed_from_u64(7)).unwrap();
            let b = random_moves(&*start, 4, &mut SmallRng::seed_from_u64(7)).unwrap();
            assert_eq!(a, b);
            let mut pos = start.boxed_clone();
            for m in &a {
                pos.play(m).unwrap();
            }
        }
    }
}
