//! The game on the page: its settings ([`super::settings`]), where it started, the moves
//! played and taken back, what the engine last said about the position (`query fen`,
//! `legalmoves`, `p1turn`, `gameover`, `result`), whether a person resigned, the searches
//! asked for, and what the page is shown of it: the board as drawn ([`super::board`] draws
//! it) and the last game review ([`super::review`] runs it). Nothing here talks to an
//! engine; the features do, over [`super::state::State`], and keep this up to date.

use std::time::Instant;

use serde_json::{Value, json};

use crate::client::{Answer, ReportedScore, Snapshot};
use crate::game::{Outcome, Player};

use super::settings::{Mode, Seat, Settings};

/// The board as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// The drawing seen from player one's side.
    pub svg: String,
    /// The drawing seen from player two's side.
    pub svg_flipped: String,
    /// For a game whose board also lies on its side for a wide window (Tactigon): that
    /// drawing from player one's side and from player two's.
    pub wide: Option<[String; 2]>,
    /// Tactigon: the kinds of pieces each side has lost since the start (player one's first).
    pub lost: Option<[Vec<&'static str>; 2]>,
    /// A warning for the side to move, e.g. the opponent's gold pair.
    pub alert: Option<String>,
    /// The game's own panel, with the name it is sent under (Isaac's: `isaac`, the panel's
    /// figures and what each removal would do); none for other games.
    pub panel: Option<(&'static str, Value)>,
}

impl Board {
    /// The JSON fields of the board in the page's state: `svg`, `svg_flipped`, `svg_wide` and
    /// `svg_wide_flipped` (the board on its side; only for a game that has it), `lost`,
    /// `alert`, and the game's own panel under its name (`isaac`) if it has one.
    pub fn fields(&self) -> Vec<(&'static str, Value)> {
        let mut fields = vec![
            ("svg", json!(self.svg)),
            ("svg_flipped", json!(self.svg_flipped)),
            ("lost", json!(self.lost)),
            ("alert", json!(self.alert)),
        ];
        if let Some([wide, wide_flipped]) = &self.wide {
            fields.push(("svg_wide", json!(wide)));
            fields.push(("svg_wide_flipped", json!(wide_flipped)));
        }
        fields.extend(self.panel.clone());
        fields
    }
}

/// A game review, running or done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The review's number (of the session's reviews).
    pub number: u64,
    /// The arguments of each position's `go`.
    pub limit: String,
    /// The moves reviewed.
    pub moves: Vec<String>,
    /// The side to move in each position, from the start to the one after the last move:
    /// who made each move, and who is to move after it (the same player again after the
    /// other passed, in Isaac).
    pub to_move: Vec<Player>,
    /// How the game ended by the rules after the last move (then its position is not
    /// searched).
    pub outcome: Option<Outcome>,
    /// The engine's answer for each position searched so far.
    pub answers: Vec<Answer>,
    /// Whether positions are still being searched.
    pub running: bool,
    /// Why the review stopped early (an engine failure).
    pub error: Option<String>,
}

impl Review {
    /// How many positions the review searches: one per move, and the final position unless
    /// the game ended there.
    pub fn total(&self) -> usize {
        self.moves.len() + usize::from(self.outcome.is_none())
    }
}

/// One move of the game, with what its player reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move in the protocol notation.
    pub text: String,
    /// Whether player one made it.
    pub by_p1: bool,
    /// The engine's last score for it (engine moves only).
    pub score: Option<ReportedScore>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// Milliseconds the player took.
    pub time_ms: u64,
    /// The position after it, as the engine printed it (`query fen`); empty until asked.
    pub fen: String,
    /// The move as the move list shows it (a Tactigon capture with `×`, a Sight move with
    /// the piles it grew); empty until worked out.
    pub shown: String,
}

impl Played {
    /// A move `text` made by player one (`by_p1`) or two, with nothing reported about it.
    pub fn new(text: impl Into<String>, by_p1: bool) -> Played {
        Played {
            text: text.into(),
            by_p1,
            score: None,
            depth: None,
            time_ms: 0,
            fen: String::new(),
            shown: String::new(),
        }
    }
}

/// The engine's suggestion for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The suggested move.
    pub mv: String,
    /// The number of moves played when it was asked for.
    pub ply: usize,
}

/// The game on the page.
#[derive(Debug)]
pub struct Session {
    /// How it is played.
    pub settings: Settings,
    /// Where it started: `startpos` or `fen <position>`.
    pub start: String,
    /// The start position in the game's notation.
    pub start_fen: String,
    /// The moves played.
    pub moves: Vec<Played>,
    /// Moves taken back, the next one to redo last.
    pub redo: Vec<Played>,
    /// The current position as the engine sees it.
    pub snap: Snapshot,
    /// What the page shows of the current position: its drawings, trays and warning.
    pub board: Board,
    /// Whether a person resigned: `Some(true)` player one, `Some(false)` player two.
    pub resigned: Option<bool>,
    /// Counts changes; the page keeps the state with the highest.
    pub seq: u64,
    /// Numbers engine move searches; a result of an older one is ignored.
    pub search_gen: u64,
    /// Whether the engine is thinking about a move of the current position.
    pub thinking: bool,
    /// Numbers hint searches.
    pub hint_gen: u64,
    /// Whether a hint search runs.
    pub hinting: bool,
    /// The last hint, while its position is on the board.
    pub hint: Option<Hint>,
    /// Numbers the full-strength evaluations of a game at a weakened level.
    pub evaluation_gen: u64,
    /// Whether such an evaluation of the current position runs ([`super::moves::schedule`]).
    pub evaluating: bool,
    /// Numbers the analysis mode's searches.
    pub analysis_gen: u64,
    /// The position the analysis mode searches (its number of moves), while it searches.
    pub analysing: Option<usize>,
    /// Numbers game reviews.
    pub review_gen: u64,
    /// The last game review, running or done.
    pub review: Option<Review>,
    /// Whether engine moves are held back (watch mode's Pause, or after an engine failure).
    pub paused: bool,
    /// The last engine problem, shown on the page.
    pub error: Option<String>,
    /// When the side to move got the turn.
    pub turn_started: Instant,
}

impl Session {
    /// A session that has not asked the engine anything yet.
    pub fn new(settings: Settings) -> Session {
        Session {
            settings,
            start: "startpos".into(),
            start_fen: String::new(),
            moves: Vec::new(),
            redo: Vec::new(),
            snap: Snapshot::default(),
            board: Board::default(),
            resigned: None,
            seq: 0,
            search_gen: 0,
            thinking: false,
            hint_gen: 0,
            hinting: false,
            hint: None,
            evaluation_gen: 0,
            evaluating: false,
            analysis_gen: 0,
            analysing: None,
            review_gen: 0,
            review: None,
            paused: false,
            error: None,
            turn_started: Instant::now(),
        }
    }

    /// The `position …` command of the current position, with every move from the start.
    pub fn position_line(&self) -> String {
        position_line(&self.start, self.moves.iter().map(|m| m.text.as_str()))
    }

    /// The position before move `i` (0-based): the start, or the position after move `i − 1`.
    pub fn fen_before(&self, i: usize) -> &str {
        match i.checked_sub(1).and_then(|j| self.moves.get(j)) {
            Some(m) => &m.fen,
            None => &self.start_fen,
        }
    }

    /// Whether the game is over: by the rules (as the engine says), or by a resignation.
    pub fn gameover(&self) -> bool {
        self.resigned.is_some() || self.snap.gameover
    }

    /// The result: `p1win`, `p2win`, `draw` or `none` (a resignation wins for the other side).
    pub fn result(&self) -> &str {
        match self.resigned {
            Some(true) => "p2win",
            Some(false) => "p1win",
            None => &self.snap.result,
        }
    }

    /// Who plays the side to move.
    pub fn seat_to_move(&self) -> Seat {
        self.settings.mode.seats()[usize::from(!self.snap.p1turn)]
    }

    /// Whether a person may move now.
    pub fn human_to_move(&self) -> bool {
        !self.gameover() && self.seat_to_move() == Seat::Human
    }

    /// Whether the engine should be asked for a move now (and is not already thinking).
    pub fn engine_should_move(&self) -> bool {
        !self.gameover()
            && !self.paused
            && !self.thinking
            && self.seat_to_move() == Seat::Engine
            && !self.snap.legal.is_empty()
    }

    /// Forgets searches in flight: their results will be ignored (a review still running is
    /// dropped).
    pub fn cancel_searches(&mut self) {
        self.search_gen += 1;
        self.hint_gen += 1;
        self.thinking = false;
        self.hinting = false;
        self.hint = None;
        self.stop_evaluation();
        self.stop_analysis();
        self.stop_review();
    }

    /// Whether the engine plays its moves weaker than it can (a rating, `greedy`, `random`):
    /// then its move searches' scores are the weakened player's, and the page's evaluation
    /// comes from a full-strength search instead.
    pub fn weakened(&self) -> bool {
        self.settings
            .level
            .as_deref()
            .is_some_and(|level| level != "full")
    }

    /// Ends the full-strength evaluation of the current position, if one runs.
    pub fn stop_evaluation(&mut self) {
        if self.evaluating {
            self.evaluating = false;
            self.evaluation_gen += 1;
        }
    }

    /// Ends the analysis mode's search, if one runs.
    pub fn stop_analysis(&mut self) {
        if self.analysing.take().is_some() {
            self.analysis_gen += 1;
        }
    }

    /// Drops a review that is still running (a finished one stays).
    pub fn stop_review(&mut self) {
        if self.review.as_ref().is_some_and(|r| r.running) {
            self.review = None;
        }
    }

    /// Whether a game review is running.
    pub fn reviewing(&self) -> bool {
        self.review.as_ref().is_some_and(|r| r.running)
    }

    /// The last review, while the game still begins with the moves it reviewed.
    pub fn review_shown(&self) -> Option<&Review> {
        self.review.as_ref().filter(|r| {
            self.moves.len() >= r.moves.len()
                && r.moves.iter().zip(&self.moves).all(|(a, b)| *a == b.text)
        })
    }

    /// Whether the session's search engine is free for the analysis mode or a review: no
    /// engine move is due or being searched, and no hint or review runs.
    pub fn engine_free(&self) -> bool {
        !self.thinking && !self.hinting && !self.engine_should_move() && !self.reviewing()
    }

    /// Whether player one is to move after `ply` moves (`ply` at most the number played).
    pub fn p1_to_move(&self, ply: usize) -> bool {
        self.moves.get(ply).map_or(self.snap.p1turn, |m| m.by_p1)
    }

    /// Records a move just played (the caller refreshes the snapshot). Redo survives only
    /// when the move is the one redo would replay.
    pub fn push(&mut self, played: Played) {
        if self.redo.last().is_some_and(|r| r.text == played.text) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.moves.push(played);
    }

    /// The seat of the person playing the engine (`Some(true)` player one), if the game is a
    /// person against the engine.
    pub fn person_against_engine(&self) -> Option<bool> {
        match self.settings.mode {
            Mode::HumanEngine => Some(true),
            Mode::EngineHuman => Some(false),
            Mode::HumanHuman | Mode::EngineEngine => None,
        }
    }

    /// Takes moves back: one with two people or two engines, otherwise back to the last
    /// position where a person was to move. Returns how many were taken back.
    pub fn undo(&mut self) -> usize {
        let seats = self.settings.mode.seats();
        let humans = seats.contains(&Seat::Human);
        let human_moved = self
            .moves
            .iter()
            .any(|m| seats[usize::from(!m.by_p1)] == Seat::Human);
        if humans && !human_moved {
            return 0;
        }
        let mut taken = 0;
        while let Some(m) = self.moves.pop() {
            let by_human = seats[usize::from(!m.by_p1)] == Seat::Human;
            self.redo.push(m);
            taken += 1;
            if by_human || !humans {
                break;
            }
        }
        taken
    }

    /// Replays taken-back moves: one with two people or two engines, otherwise up to the
    /// next position where a person is to move. Returns how many were replayed.
    pub fn redo(&mut self) -> usize {
        let seats = self.settings.mode.seats();
        let humans = seats.contains(&Seat::Human);
        let mut replayed = 0;
        while let Some(m) = self.redo.pop() {
            self.moves.push(m);
            replayed += 1;
            let next_by_engine = self
                .redo
                .last()
                .is_some_and(|n| seats[usize::from(!n.by_p1)] == Seat::Engine);
            if !humans || !next_by_engine {
                break;
            }
        }
        replayed
    }
}

/// `position <start> [moves …]`.
pub fn position_line<'a>(start: &str, moves: impl Iterator<Item = &'a str>) -> String {
    let moves: Vec<&str> = moves.collect();
    if moves.is_empty() {
        format!("position {start}")
    } else {
        format!("position {start} moves {}", moves.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(text: &str, by_p1: bool) -> Played {
        Played::new(text, by_p1)
    }

    fn session(mode: Mode, moves: &[(&str, bool)]) -> Session {
        let mut s = Session::new(Settings {
            mode,
            ..Settings::default()
        });
        for (m, p1) in moves {
            s.push(played(m, *p1));
        }
        s
    }

    fn texts(list: &[Played]) -> Vec<&str> {
        list.iter().map(|m| m.text.as_str()).collect()
    }

    #[test]
    fn undo_goes_back_to_a_human_turn_and_redo_forward_again() {
        let mut s = session(
            Mode::HumanEngine,
            &[("c3", true), ("c4", false), ("a1", true)],
        );
        assert_eq!(s.undo(), 1);
        assert_eq!(s.undo(), 2);
        assert_eq!(texts(&s.moves), Vec::<&str>::new());
        assert_eq!(s.undo(), 0);
        assert_eq!(s.redo(), 2);
        assert_eq!(texts(&s.moves), ["c3", "c4"]);
        assert_eq!(s.redo(), 1);
        assert_eq!(s.redo(), 0);
        assert_eq!(s.position_line(), "position startpos moves c3 c4 a1");

        let mut e = session(Mode::EngineHuman, &[("c3", true)]);
        assert_eq!(e.undo(), 0, "no human move to take back");
        let mut w = session(Mode::EngineEngine, &[("c3", true), ("c4", false)]);
        assert_eq!((w.undo(), w.redo()), (1, 1));
    }

    #[test]
    fn a_new_move_keeps_redo_only_when_it_is_the_move_redo_would_play() {
        let mut s = session(Mode::HumanHuman, &[("c3", true), ("c4", false)]);
        s.undo();
        s.undo();
        s.push(played("c3", true));
        assert_eq!(texts(&s.redo), ["c4"]);
        s.push(played("a1", false));
        assert!(s.redo.is_empty());
    }
}
