//! `setoption`: checking a value against its spec and applying it. Changing the game or one
//! of its rule switches ends the session so that the outer loop starts one for the new rules.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use super::super::command::{ErrorCode, ProtocolError};
use super::super::options::{self as opt, owning_game};
use super::{Session, SessionEnd};
use crate::game::{GameId, OptionKind, Searchable};
use crate::net::{GameNet, Net};
use crate::search::strength;

/// The seed for `Level random|greedy`: the option's value, or the clock's when it is 0.
pub(super) fn resolve_seed(value: i64) -> u64 {
    if value != 0 {
        return value as u64;
    }
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// The net in the file at `path`, checked against `G`; `None` for an empty path (the
/// built-in net).
fn load_eval_file<G: Searchable>(path: &str) -> Result<Option<Arc<Net>>, String> {
    if path.is_empty() {
        return Ok(None);
    }
    GameNet::<G>::from_file(std::path::Path::new(path)).map(|n| Some(n.net_arc()))
}

impl<G: Searchable> Session<'_, G> {
    /// After the game changed from `before` to `game`, brings `UCI_Elo` within `game`'s own
    /// scale: its default (the lowest rating) becomes the new game's lowest, and a rating
    /// set outside the new scale is clamped to it, as an `info string` says.
    fn fit_elo(&mut self, before: GameId, game: GameId) {
        let (old_low, _) = strength::elo_range(before);
        let (low, high) = strength::elo_range(game);
        let elo = self.shared.options.get_i64(opt::ELO, old_low);
        let fitted = if elo == old_low {
            low
        } else {
            elo.clamp(low, high)
        };
        if fitted == elo {
            return;
        }
        self.shared.options.set(opt::ELO, fitted.to_string());
        if elo != old_low {
            self.out(&format!(
                "info string UCI_Elo {elo} is outside {}'s ratings {low} to {high}: set to {fitted}",
                game.name()
            ));
        }
    }

    /// Handles `setoption name <name> [value <value>]`; `Some` when the session must end.
    pub(super) fn set_option(&mut self, name: &str, value: Option<String>) -> Option<SessionEnd> {
        let Some(spec) = opt::find(&self.shared.specs, name).cloned() else {
            self.error(ProtocolError::new(
                ErrorCode::UnknownOption,
                format!("'{name}' (the ugi command lists the options)"),
            ));
            return None;
        };
        let value = match (value, &spec.kind) {
            (_, OptionKind::Button) => String::new(),
            (Some(v), _) => v,
            (None, OptionKind::Text { .. }) => String::new(),
            (None, _) => {
                self.error(ProtocolError::new(
                    ErrorCode::BadOptionValue,
                    format!("{} needs a value", spec.name),
                ));
                return None;
            }
        };
        let value = match spec.validate(&value) {
            Ok(v) => v,
            Err(e) => {
                self.error(ProtocolError::new(ErrorCode::BadOptionValue, e));
                return None;
            }
        };
        // Options may change what the worker uses: any search under way ends first.
        self.wait_idle();
        let changed = self.shared.options.get(spec.name) != Some(value.as_str());
        match spec.name {
            opt::VARIANT => {
                let game = GameId::from_name(&value)?;
                if game != self.shared.game {
                    let before = self.shared.game;
                    self.shared.options.set(spec.name, value);
                    self.shared.game = game;
                    self.shared.specs = opt::all_specs(game);
                    self.fit_elo(before, game);
                    return Some(SessionEnd::Restart);
                }
            }
            opt::HASH => {
                let mib: u64 = value.parse().unwrap_or(1);
                let current = self
                    .shared
                    .options
                    .get_i64(opt::HASH, opt::DEFAULT_HASH_MIB);
                if let Some(why) = opt::hash_shortfall(mib, current.max(0) as u64) {
                    self.error(ProtocolError::new(ErrorCode::BadOptionValue, why));
                    return None;
                }
                // The worker frees the old table, then allocates: the loop does not wait.
                self.engine.resize_hash(mib as usize);
            }
            opt::CLEAR_HASH => self.engine.new_game(),
            // Books not loaded at the start (`SolvedBook false`) are loaded now, off any clock:
            // `isready` waits for them.
            opt::SOLVED_BOOK if changed && value == "true" => self.engine.warm_up(),
            opt::DEBUG_LOG_FILE => {
                if let Err(e) = self.shared.out.set_log_file(&value) {
                    self.error(ProtocolError::new(ErrorCode::BadOptionValue, e));
                    return None;
                }
            }
            // Scores of another evaluation would mislead the next search: the tables and
            // a kept MCTS tree go, as with `Clear Hash`.
            opt::EVAL if changed => self.engine.new_game(),
            opt::EVAL_FILE => match load_eval_file::<G>(&value) {
                Ok(net) => {
                    self.shared.eval_file_net = net;
                    self.engine.new_game();
                }
                Err(e) => {
                    self.error(ProtocolError::new(
                        ErrorCode::BadOptionValue,
                        format!("EvalFile {value}: {e}; the engine keeps its net"),
                    ));
                    return None;
                }
            },
            opt::SEED => self.engine.seed(resolve_seed(value.parse().unwrap_or(0))),
            _ => {}
        }
        let restart = changed && owning_game(spec.name) == Some(self.shared.game);
        self.shared.options.set(spec.name, value);
        restart.then_some(SessionEnd::Restart)
    }
}
