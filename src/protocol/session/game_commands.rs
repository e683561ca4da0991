//! The commands about the position and what to do with it: `position`, `move`, `go`, `perft`,
//! `query`, `eval`.

use std::sync::Arc;
use std::time::Instant;

use super::super::command::{ErrorCode, GoArgs, PositionBase, ProtocolError, Query};
use super::super::options as opt;
use super::{Pondering, Session};
use crate::engine::Job;
use crate::game::{Outcome, Player, Searchable};
use crate::net::{GameNet, Net, embedded};
use crate::search::levels::Level;
use crate::search::strength;
use crate::search::{Clock, Limits, PonderHit, SearchParams, Searcher};

impl<G: Searchable> Session<'_, G> {
    pub(super) fn set_position(&mut self, base: PositionBase, moves: &[String]) {
        // A new position ends a ponder search (its `bestmove` is printed, as after `stop`): the
        // search was for the position before, and a later `ponderhit` has nothing to hit.
        if self.pondering.take().is_some() {
            self.wait_idle();
        }
        self.position = None;
        let mut pos = match base {
            PositionBase::StartPos => G::start(&self.settings),
            PositionBase::Fen(fen) => match G::from_fen(&fen, &self.settings) {
                Ok(p) => p,
                Err(e) => {
                    self.error(ProtocolError::new(
                        ErrorCode::InvalidPosition,
                        format!("'{fen}': {e}"),
                    ));
                    return;
                }
            },
        };
        if let Some(earlier) = self.apply_moves(&mut pos, moves) {
            self.position = Some(pos);
            self.earlier_positions = earlier;
        }
    }

    /// Plays `moves` on `pos` and returns the repetition keys of the positions they left
    /// ([`SearchHooks::repetition_key`](crate::game::SearchHooks::repetition_key)); reports the
    /// first illegal move and returns `None`.
    fn apply_moves(&mut self, pos: &mut G, moves: &[String]) -> Option<Vec<u64>> {
        let mut left = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let key = pos.repetition_key();
            if let Err(e) = pos.try_play_str(m) {
                self.error(ProtocolError::new(
                    ErrorCode::IllegalMove,
                    format!("move {} {e}", i + 1),
                ));
                return None;
            }
            left.extend(key);
        }
        Some(left)
    }

    pub(super) fn play_moves(&mut self, moves: &[String]) {
        let Some(mut pos) = self.position.clone() else {
            return self.no_position("move");
        };
        if let Some(earlier) = self.apply_moves(&mut pos, moves) {
            self.position = Some(pos);
            self.earlier_positions.extend(earlier);
        }
    }

    pub(super) fn go(&mut self, args: &GoArgs) {
        self.pondering = None;
        if args.ponder {
            // `go ponder`: search without limits until `ponderhit` (the real search with these
            // limits, from then) or `stop` (answered at once).
            let unlimited = GoArgs {
                infinite: true,
                searchmoves: args.searchmoves.clone(),
                ..GoArgs::default()
            };
            let real = GoArgs {
                ponder: false,
                ..args.clone()
            };
            let hit = Arc::new(PonderHit::new());
            self.pondering = self
                .search(&unlimited, Some(Arc::clone(&hit)))
                .map(|job| Pondering { job, real, hit });
        } else {
            self.search(args, None);
        }
    }

    /// Starts the search `args` asks for (a ponder search with `ponder`) and returns its job,
    /// or answers `bestmove (none)` at once (no position, a finished game, bad arguments) and
    /// returns `None`.
    fn search(&mut self, args: &GoArgs, ponder: Option<Arc<PonderHit>>) -> Option<u64> {
        // The move's time starts now, also if an earlier search must be stopped first.
        let started = Instant::now();
        self.wait_idle();
        let Some(pos) = self.position.clone() else {
            self.no_position("go");
            self.out("bestmove (none)");
            return None;
        };
        if pos.outcome().is_some() {
            self.out("bestmove (none)");
            return None;
        }
        let params = match self.search_params(&pos, args, started) {
            Ok(p) => SearchParams { ponder, ..p },
            Err(e) => {
                self.error(e);
                self.out("bestmove (none)");
                return None;
            }
        };
        let level = self.level();
        let searcher = self
            .shared
            .options
            .get(opt::SEARCHER)
            .and_then(Searcher::from_name)
            .unwrap_or_default();
        if matches!(level, Level::Full | Level::Limited(_)) {
            self.announce_evaluation(&pos);
        }
        let book = self.shared.options.get_bool(opt::SOLVED_BOOK, true);
        self.root_phase = pos.wdl_phase();
        Some(self.engine.submit(Job::Search {
            root: pos,
            params,
            level,
            searcher,
            book,
        }))
    }

    /// The level a search plays at: option `Level`, and at `Level full` with
    /// `UCI_LimitStrength` on, the setting of `UCI_Elo` on this game's scale.
    fn level(&self) -> Level {
        let options = &self.shared.options;
        let level = options
            .get(opt::LEVEL)
            .and_then(Level::from_name)
            .unwrap_or(Level::Full);
        if level != Level::Full || !options.get_bool(opt::LIMIT_STRENGTH, false) {
            return level;
        }
        let elo = options.get_i64(opt::ELO, strength::elo_range(self.shared.game).0);
        strength::for_elo(G::RATED_SETTINGS, elo).map_or(Level::Full, Level::Limited)
    }

    /// `ponderhit`: the opponent played the expected reply, and the ponder search becomes the
    /// real search with the `go ponder`'s clock, its time counted from now.
    ///
    /// When that `go` limits only the time (a clock or `movetime`) and the level is `full`,
    /// the running search goes on, with everything it has searched, to the deadlines the
    /// clock gives; its `bestmove` is the answer. Otherwise (`depth`, `nodes`, `mate`, a
    /// weakened level) the ponder search is stopped without printing its `bestmove` and the
    /// real search starts afresh from what it stored (the transposition table, the MCTS tree).
    /// Without a ponder search under way (none was started, or `stop` or a `position` ended
    /// it) nothing is searched, and an `info string` says so.
    pub(super) fn ponder_hit(&mut self) {
        let Some(Pondering { job, real, hit }) = self.pondering.take() else {
            self.out("info string ponderhit ignored: no ponder search under way");
            return;
        };
        let running = self.engine.running() == Some(job);
        let time_only =
            real.depth.is_none() && real.nodes.is_none() && real.mate.is_none() && !real.infinite;
        if running && time_only && self.level() == Level::Full {
            let started = Instant::now();
            let real_params = self.position.as_ref().map(|pos| {
                (
                    pos.moves_left_estimate(),
                    self.search_params(pos, &real, started),
                )
            });
            if let Some((moves_left, Ok(params))) = real_params {
                let deadlines = params
                    .limits
                    .deadlines(started, params.overhead_ms, moves_left);
                hit.hit(deadlines);
                if params.limits.is_bounded() {
                    self.engine.now_bounded(job);
                }
                return;
            }
        }
        if running {
            self.silenced = Some(job);
            self.wait_idle();
            self.silenced = None;
        }
        self.go(&real);
    }

    fn search_params(
        &self,
        pos: &G,
        args: &GoArgs,
        started: Instant,
    ) -> Result<SearchParams<G::Move>, ProtocolError> {
        // Clocks are turned into "mine" at parse time: the engine plays the side to move.
        let (time, inc) = match pos.side_to_move() {
            Player::One => (args.p1time, args.p1inc),
            Player::Two => (args.p2time, args.p2inc),
        };
        let clock = time.map(|time_ms| Clock {
            time_ms,
            inc_ms: inc.unwrap_or(0),
            moves_to_go: args.movestogo,
        });
        let root_moves = if args.searchmoves.is_empty() {
            None
        } else {
            let mut list = Vec::new();
            for text in &args.searchmoves {
                let m = pos
                    .parse_move(text)
                    .ok()
                    .filter(|&m| pos.is_legal(m))
                    .ok_or_else(|| {
                        ProtocolError::new(
                            ErrorCode::IllegalMove,
                            format!("searchmoves: {text} is not a legal move here"),
                        )
                    })?;
                if !list.contains(&m) {
                    list.push(m);
                }
            }
            Some(list)
        };
        let options = &self.shared.options;
        let limits = Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime_ms: args.movetime,
            clock,
            infinite: args.infinite,
            mate: args.mate,
            started: Some(started),
        };
        Ok(SearchParams {
            multipv: options.get_i64(opt::MULTIPV, 1) as usize,
            overhead_ms: options.get_i64(opt::MOVE_OVERHEAD, opt::DEFAULT_MOVE_OVERHEAD_MS),
            root_moves,
            threads: options.get_i64(opt::THREADS, 1) as usize,
            earlier_positions: self.earlier_positions.clone(),
            net: self.net(),
            ..SearchParams::new(limits)
        })
    }

    pub(super) fn perft(&mut self, depth: u32) {
        self.wait_idle();
        match self.position.clone() {
            Some(root) => {
                self.engine.submit(Job::Perft { root, depth });
            }
            None => self.no_position("perft"),
        }
    }

    pub(super) fn query(&mut self, q: Query) {
        if q == Query::Game {
            let name = self.shared.game.name();
            return self.out(&format!("response {name}"));
        }
        let Some(pos) = self.position.clone() else {
            self.no_position("query");
            return self.out("response (none)");
        };
        let outcome = pos.outcome();
        let answer = match q {
            Query::GameOver => outcome.is_some().to_string(),
            Query::P1Turn => (pos.side_to_move() == Player::One).to_string(),
            Query::Result => match outcome {
                None => "none",
                Some(Outcome::Win(Player::One)) => "p1win",
                Some(Outcome::Win(Player::Two)) => "p2win",
                Some(Outcome::Draw) => "draw",
            }
            .to_string(),
            Query::Fen => pos.to_fen(),
            Query::LegalMoves => {
                let mut moves = Vec::new();
                if outcome.is_none() {
                    pos.generate_moves(&mut moves);
                }
                let texts: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
                if texts.is_empty() {
                    "(none)".to_string()
                } else {
                    texts.join(" ")
                }
            }
            Query::Game => G::NAME.to_string(),
        };
        self.out(&format!("response {answer}"));
    }

    pub(super) fn eval(&mut self) {
        let Some(pos) = self.position.clone() else {
            return self.no_position("eval");
        };
        if pos.outcome().is_some() {
            return self.out("Final evaluation: none (game over)");
        }
        let terms = pos.explain_eval();
        self.shared.out.lines(&terms);
        let side = if pos.side_to_move() == Player::One {
            "player one"
        } else {
            "player two"
        };
        // With a net, the terms above are the hand evaluation's; the final line is what the
        // search uses.
        let net = self.net().and_then(|n| GameNet::<G>::new(n).ok());
        let value = match &net {
            Some(net) if net.knows(&pos) => {
                self.out(&format!("Hand evaluation: {}", pos.evaluate()));
                self.out(&format!("Net: {}", net.header()));
                net.evaluate(&pos)
            }
            Some(net) => {
                self.out(&format!(
                    "Net: {} (never trained on this variant: the hand evaluation is used)",
                    net.header()
                ));
                pos.evaluate()
            }
            None => pos.evaluate(),
        };
        self.out(&format!("Final evaluation: {value} ({side} to move)"));
    }

    /// Says in `info string eval …` what evaluates the searches of `pos`'s variant, when that
    /// is not what the last such line said: `eval net <header> (built-in)`, `eval net <header>
    /// (EvalFile <path>)` or `eval hand (<why>)`.
    fn announce_evaluation(&mut self, pos: &G) {
        let line = self.evaluation_in_use(pos);
        if self.shared.announced_eval.as_deref() != Some(line.as_str()) {
            self.out(&format!("info string {line}"));
            self.shared.announced_eval = Some(line);
        }
    }

    /// What evaluates the searches of `pos`'s variant, as [`Self::announce_evaluation`] says it.
    fn evaluation_in_use(&self, pos: &G) -> String {
        let (net, source) = match self.chosen_net() {
            Ok(chosen) => chosen,
            Err(why) => return format!("eval hand ({why})"),
        };
        let source = match source {
            NetSource::EvalFile => {
                let path = self.shared.options.get(opt::EVAL_FILE).unwrap_or_default();
                format!("EvalFile {path}")
            }
            NetSource::BuiltIn => "built-in".to_string(),
        };
        match GameNet::<G>::new(net) {
            Ok(net) if net.knows(pos) => format!("eval net {} ({source})", net.header()),
            Ok(net) => format!(
                "eval hand (the {source} net {} was never trained on this variant)",
                net.header()
            ),
            Err(_) => "eval hand (no net for this game)".to_string(),
        }
    }

    /// The net searches use now: none with `Eval hand`; else `EvalFile`'s net where it is
    /// this game's, else the built-in one (none where the game has no net yet).
    pub(super) fn net(&self) -> Option<Arc<Net>> {
        self.chosen_net().ok().map(|(net, _)| net)
    }

    /// [`Self::net`] and where it comes from, or why there is none (as `info string eval
    /// hand (…)` says it).
    fn chosen_net(&self) -> Result<(Arc<Net>, NetSource), &'static str> {
        if self.shared.options.get(opt::EVAL) == Some("hand") {
            return Err("option Eval hand");
        }
        let file = self.shared.eval_file_net.as_ref().filter(|net| {
            net.check_fits(G::NAME, G::NET_FEATURES, G::NET_INPUTS)
                .is_ok()
        });
        match file {
            Some(net) => Ok((Arc::clone(net), NetSource::EvalFile)),
            None => embedded::net_for::<G>()
                .map(|net| (net, NetSource::BuiltIn))
                .ok_or("no net for this game"),
        }
    }
}

/// Where the net a search uses comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NetSource {
    /// The file of option `EvalFile`.
    EvalFile,
    /// The net built into the binary for this game.
    BuiltIn,
}
