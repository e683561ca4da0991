//! What a session and its search worker ([`super::search`]) say to each other, the way the
//! engine side of ludus is built: the session sends [`Job`]s on the worker's queue, the
//! worker reports on a channel of [`WorkerEvent`]s (its `info` lines as they arrive, each
//! answer of a review, the end of each search), and it never calls back into the session.
//! Whether a job is still wanted the worker reads from [`Wanted`], numbers the session keeps
//! up to date whenever its state changes; a stale job is skipped, and the session ignores
//! what a cancelled one reports.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::client::{Answer, Info};

use super::query::EngineSetup;
use super::session::Session;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The engine's move in the game.
    Move,
    /// A suggestion for the person to move.
    Hint,
    /// The analysis mode's continuous search.
    Analysis,
    /// A game review.
    Review,
    /// A full-strength search of the current position for the evaluation bar, in a game
    /// whose engine plays at a weakened level ([`super::moves::schedule`]).
    Evaluation,
}

impl JobKind {
    /// `move`, `hint`, `analysis` or `review`, as the page sees it.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Move => "move",
            JobKind::Hint => "hint",
            JobKind::Analysis => "analysis",
            JobKind::Review => "review",
            JobKind::Evaluation => "evaluation",
        }
    }

    /// The session's number of its latest search of this kind.
    fn latest(self, session: &Session) -> u64 {
        match self {
            JobKind::Move => session.search_gen,
            JobKind::Hint => session.hint_gen,
            JobKind::Analysis => session.analysis_gen,
            JobKind::Review => session.review_gen,
            JobKind::Evaluation => session.evaluation_gen,
        }
    }

    /// The number of the search of this kind `session` waits for, if it waits for one.
    fn wanted(self, session: &Session) -> Option<u64> {
        match self {
            JobKind::Move => session.thinking.then_some(session.search_gen),
            JobKind::Hint => session.hinting.then_some(session.hint_gen),
            JobKind::Analysis => session.analysing.map(|_| session.analysis_gen),
            JobKind::Review => session
                .review
                .as_ref()
                .filter(|r| r.running)
                .map(|r| r.number),
            JobKind::Evaluation => session.evaluating.then_some(session.evaluation_gen),
        }
    }

    const ALL: [JobKind; 5] = [
        JobKind::Move,
        JobKind::Hint,
        JobKind::Analysis,
        JobKind::Review,
        JobKind::Evaluation,
    ];
}

/// Which search a job is, and of which position: what its reports carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag {
    /// What it is for.
    pub kind: JobKind,
    /// The search's number (of its kind); stale numbers are skipped and their reports
    /// ignored.
    pub number: u64,
    /// The number of moves played in the searched position.
    pub ply: usize,
    /// Whether player one is to move there.
    pub p1: bool,
    /// Whether the search plays at full strength (all but an engine move at a weakened
    /// level): only such scores reach the evaluation bar and the analysis panel.
    pub full: bool,
}

/// One search for the worker.
#[derive(Clone, Debug)]
pub struct Job {
    /// Which search it is.
    pub tag: Tag,
    /// The engine settings for it.
    pub setup: EngineSetup,
    /// The `position …` line.
    pub position: String,
    /// What to search.
    pub task: Task,
}

impl Job {
    /// The session's latest search of `kind` (numbered by the session's counter of that
    /// kind, which the caller has just moved on): the position after `ply` moves of its
    /// game, with the engine set up by `setup`.
    pub fn new(
        session: &Session,
        kind: JobKind,
        ply: usize,
        setup: EngineSetup,
        task: Task,
    ) -> Job {
        let moves = session.moves.iter().take(ply).map(|m| m.text.as_str());
        Job {
            tag: Tag {
                kind,
                number: kind.latest(session),
                ply,
                p1: session.p1_to_move(ply),
                full: kind != JobKind::Move || !session.weakened(),
            },
            setup,
            position: super::session::position_line(&session.start, moves),
            task,
        }
    }
}

/// What a job searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// `go movetime MS` on the job's position: an engine move or a hint.
    Timed(u64),
    /// `go infinite` with `lines` lines (`MultiPV`) on the job's position, until the analysis
    /// stops or has run for `limit`.
    Infinite {
        /// How many lines.
        lines: u32,
        /// Longest time it searches.
        limit: Duration,
    },
    /// A fresh `go LIMIT` on each of `positions` (whole `position …` lines), for a review.
    Review {
        /// The positions, the start first.
        positions: Vec<String>,
        /// The arguments of `go`: `nodes 200000`, `depth 8`, `movetime 100`.
        limit: String,
        /// How long one position's search may take.
        timeout: Duration,
    },
}

/// What the worker reports, in the order it happens.
#[derive(Clone, Debug)]
pub enum WorkerEvent {
    /// One `info` line of a search.
    Info {
        /// The search.
        tag: Tag,
        /// The line.
        info: Info,
    },
    /// The answer for the next position of a review.
    Reviewed {
        /// The review.
        tag: Tag,
        /// The engine's answer.
        answer: Answer,
    },
    /// A timed search ([`Task::Timed`]) is over: its answer, or why it failed.
    Answered {
        /// The search.
        tag: Tag,
        /// The answer.
        result: Result<Answer, String>,
    },
    /// An analysis or a review is over: stopped, done, or failed.
    Ended {
        /// The search.
        tag: Tag,
        /// Why it failed, if it did.
        result: Result<(), String>,
    },
}

/// The number of the search of each kind the session still wants (0: none), shared by the
/// session, which writes them whenever its state changes, and its worker, which reads them.
#[derive(Debug, Default)]
pub struct Wanted([AtomicU64; JobKind::ALL.len()]);

impl Wanted {
    /// Takes the searches `session` wants now.
    pub fn update(&self, session: &Session) {
        for (slot, kind) in self.0.iter().zip(JobKind::ALL) {
            slot.store(kind.wanted(session).unwrap_or(0), Ordering::SeqCst);
        }
    }

    /// Whether the search `tag` is still wanted.
    pub fn wants(&self, tag: &Tag) -> bool {
        let slot = JobKind::ALL.iter().position(|&k| k == tag.kind);
        slot.is_some_and(|i| self.0[i].load(Ordering::SeqCst) == tag.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::web::session::Played;
    use crate::gui::web::settings::Settings;

    fn setup() -> EngineSetup {
        EngineSetup {
            variant: None,
            options: Vec::new(),
            level: None,
        }
    }

    fn session() -> Session {
        let mut s = Session::new(Settings::default());
        s.push(Played::new("c3", true));
        s.push(Played::new("c4", false));
        s.snap.p1turn = true;
        s
    }

    #[test]
    fn a_job_searches_the_position_after_its_ply() {
        let mut s = session();
        s.analysis_gen = 7;
        let job = Job::new(&s, JobKind::Analysis, 1, setup(), Task::Timed(5));
        assert_eq!(job.position, "position startpos moves c3");
        let tag = Tag {
            kind: JobKind::Analysis,
            number: 7,
            ply: 1,
            p1: false,
            full: true,
        };
        assert_eq!(job.tag, tag);
        let last = Job::new(&s, JobKind::Move, 2, setup(), Task::Timed(5));
        assert_eq!(last.position, s.position_line());
        assert!(last.tag.p1, "the side to move now");
    }

    #[test]
    fn wanted_follows_the_session() {
        let mut s = session();
        let wanted = Wanted::default();
        s.search_gen = 3;
        s.thinking = true;
        let job = Job::new(&s, JobKind::Move, 2, setup(), Task::Timed(5));
        assert!(!wanted.wants(&job.tag), "not before the session says so");
        wanted.update(&s);
        assert!(wanted.wants(&job.tag));
        let older = Tag {
            number: 2,
            ..job.tag
        };
        assert!(!wanted.wants(&older));
        s.cancel_searches();
        wanted.update(&s);
        assert!(!wanted.wants(&job.tag));

        s.analysis_gen += 1;
        s.analysing = Some(0);
        let analysis = Job::new(&s, JobKind::Analysis, 0, setup(), Task::Timed(5));
        wanted.update(&s);
        assert!(wanted.wants(&analysis.tag));
        s.stop_analysis();
        wanted.update(&s);
        assert!(!wanted.wants(&analysis.tag));
    }
}
