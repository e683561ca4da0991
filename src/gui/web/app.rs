//! One session's state (a browser tab's game; the sessions are kept in
//! [`super::registry`]): the game on the page, the engine that answers its questions (the
//! "query engine", used under the lock for quick `position` + `query` exchanges), the search
//! worker that plays the engine's moves and hints (see [`super::search`]), and where its
//! events go. The page's actions are in [`super::actions`].

use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use crossbeam_channel::Sender;
use serde_json::{Map, Value, json};

use crate::client::{Answer, EngineCommand, Info, QueryError};

use super::board::redraw;
use super::engine::Engine;
use super::review::review_json;

use super::error::ApiError;
use super::events::{Hub, info_json};
use super::probe::EngineInfo;
use super::query::{EngineSetup, QUERY_TIMEOUT, configure};
use super::search::{Job, JobKind, Task};
use super::session::{Hint, Played, Session};
use super::settings::{Seat, Settings};
use crate::gui::reason::{Ending, describe};
use crate::gui::{result_text, seat_names};

/// Most client ids (browsers) a session sends its events to; the oldest is forgotten first.
const MAX_CLIENTS: usize = 8;

/// The state guarded by the lock.
pub struct Inner {
    /// The game.
    pub session: Session,
    /// The query engine, started on first use and after a failure.
    pub engine: Option<Engine>,
    /// Whether the session has ended: no engine is started any more.
    pub closed: bool,
}

/// One session: its game, shared by the request threads and its search worker.
pub struct App {
    /// The session's id.
    pub id: String,
    /// What the engine said about itself.
    pub info: Arc<EngineInfo>,
    /// How to start the engine.
    pub command: EngineCommand,
    /// The server's count of running engine processes.
    pub engines: Arc<AtomicUsize>,
    /// The game and the query engine.
    pub inner: Mutex<Inner>,
    /// The server's event streams.
    pub hub: Arc<Hub>,
    /// The client ids (browsers) that get this session's events, most recent last.
    pub clients: Mutex<Vec<String>>,
    /// The search worker's queue; `None` after shutdown.
    pub jobs: Mutex<Option<Sender<Job>>>,
}

impl App {
    /// Session `id` with the default game (Sight, person against engine), before any engine
    /// runs; its events go to `hub`, its engines are counted in `engines`.
    pub fn new(
        id: String,
        info: Arc<EngineInfo>,
        command: EngineCommand,
        hub: Arc<Hub>,
        engines: Arc<AtomicUsize>,
        jobs: Sender<Job>,
    ) -> App {
        App {
            id,
            info,
            command,
            engines,
            inner: Mutex::new(Inner {
                session: Session::new(Settings::default()),
                engine: None,
                closed: false,
            }),
            hub,
            clients: Mutex::new(Vec::new()),
            jobs: Mutex::new(Some(jobs)),
        }
    }

    /// Sends this session's events to browser `client` too (it is the most recent).
    pub fn add_client(&self, client: &str) {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if clients.last().is_some_and(|c| c == client) {
            return;
        }
        clients.retain(|c| c != client);
        clients.push(client.to_string());
        if clients.len() > MAX_CLIENTS {
            clients.remove(0);
        }
    }

    /// Whether browser `client` gets this session's events.
    pub fn has_client(&self, client: &str) -> bool {
        let clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        clients.iter().any(|c| c == client)
    }

    /// Sends one event of this session to the streams that follow it.
    pub fn publish(&self, name: &str, data: &Value) {
        let clients = self
            .clients
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        self.hub.publish(&self.id, &clients, name, data);
    }

    /// The lock on the game (a poisoned lock is taken over: the state is always consistent
    /// between statements that could panic).
    pub fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine settings of the session's game; `level` for the searching engine (`None`: the
    /// engine's default level, what hints, analysis and reviews search at).
    pub fn setup(&self, settings: &Settings, level: Option<String>) -> EngineSetup {
        EngineSetup {
            variant: self
                .info
                .option("UCI_Variant")
                .map(|_| settings.game.name().to_string()),
            options: settings.options.clone(),
            level: self
                .info
                .option("Level")
                .map(|o| level.unwrap_or_else(|| o.default.clone())),
        }
    }

    /// Starts the query engine if it is not running, set up for the session's game.
    pub fn ensure_engine(&self, inner: &mut Inner) -> Result<(), ApiError> {
        if inner.engine.is_some() {
            return Ok(());
        }
        if inner.closed {
            return Err(ApiError::new(404, "this session has ended"));
        }
        let mut engine = Engine::start(&self.command, &self.engines).map_err(ApiError::engine)?;
        let setup = self.setup(&inner.session.settings, None);
        configure(&mut engine, &setup).map_err(ApiError::engine)?;
        inner.engine = Some(engine);
        Ok(())
    }

    /// Asks the query engine for the current position's state (restarting it once if it
    /// failed), keeps it as the position after the last move, and redraws the board.
    pub fn refresh(&self, inner: &mut Inner) -> Result<(), ApiError> {
        let line = inner.session.position_line();
        let mut last = String::new();
        for _ in 0..2 {
            self.ensure_engine(inner)?;
            let Some(engine) = inner.engine.as_mut() else {
                continue;
            };
            match engine.snapshot(&line, QUERY_TIMEOUT) {
                Ok(snap) => {
                    let s = &mut inner.session;
                    if let Some(last) = s.moves.last_mut()
                        && last.fen != snap.fen
                    {
                        last.fen = snap.fen.clone();
                        last.shown.clear();
                    }
                    s.snap = snap;
                    redraw(s);
                    s.turn_started = Instant::now();
                    if s.hint.as_ref().is_some_and(|h| h.ply != s.moves.len()) {
                        s.hint = None;
                    }
                    return Ok(());
                }
                Err(QueryError::Rejected) => {
                    return Err(ApiError::new(
                        409,
                        format!("the engine refused the position ({line})"),
                    ));
                }
                Err(QueryError::Engine(e)) => {
                    inner.engine = None;
                    last = e;
                }
            }
        }
        Err(ApiError::engine(last))
    }

    /// Asks the search worker for an engine move if the engine is to move.
    pub fn schedule(&self, inner: &mut Inner) {
        let s = &mut inner.session;
        if !s.engine_should_move() {
            return;
        }
        // The engine's move comes first: the analysis mode and a review give way.
        s.stop_analysis();
        s.stop_review();
        s.search_gen += 1;
        s.thinking = true;
        let job = Job {
            kind: JobKind::Move,
            number: s.search_gen,
            ply: s.moves.len(),
            p1: s.snap.p1turn,
            setup: self.setup(&s.settings, s.settings.level.clone()),
            position: s.position_line(),
            task: Task::Timed(s.settings.movetime),
        };
        if !self.submit(job) {
            s.thinking = false;
            s.error = Some("the search worker has stopped".into());
        }
    }

    /// Hands a job to the search worker; false once it is gone.
    pub fn submit(&self, job: Job) -> bool {
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok())
    }

    /// Whether `job` is still wanted (the worker skips stale jobs).
    pub fn is_current(&self, job: &Job) -> bool {
        let s = &self.lock().session;
        match job.kind {
            JobKind::Move => s.thinking && job.number == s.search_gen,
            JobKind::Hint => s.hinting && job.number == s.hint_gen,
            JobKind::Analysis => s.analysing == Some(job.ply) && job.number == s.analysis_gen,
            JobKind::Review => s
                .review
                .as_ref()
                .is_some_and(|r| r.running && r.number == job.number),
        }
    }

    /// Streams one engine `info` line to the pages.
    pub fn publish_info(&self, job: &Job, info: &Info) {
        let mut info = info_json(info);
        if let Some(map) = info.as_object_mut() {
            map.insert("kind".into(), json!(job.kind.name()));
            map.insert("ply".into(), json!(job.ply));
            map.insert("p1".into(), json!(job.p1));
            map.insert("session".into(), json!(self.id));
        }
        self.publish("info", &info);
    }

    /// Takes a search's answer: plays an engine move, or keeps a hint. Results of searches
    /// that were cancelled or whose position is gone are ignored.
    pub fn search_done(&self, job: &Job, result: Result<Answer, String>) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        if inner.closed {
            return;
        }
        let s = &mut inner.session;
        match job.kind {
            JobKind::Move => {
                if !s.thinking || job.number != s.search_gen {
                    return;
                }
                s.thinking = false;
                match result {
                    Ok(answer) if job.ply == s.moves.len() && s.snap.legal.contains(&answer.mv) => {
                        let by_p1 = s.snap.p1turn;
                        s.push(Played {
                            score: answer.score,
                            depth: answer.depth,
                            time_ms: answer.elapsed_ms,
                            ..Played::new(answer.mv, by_p1)
                        });
                        s.hint = None;
                        match self.refresh(inner) {
                            Ok(()) => self.schedule(inner),
                            Err(e) => inner.session.error = Some(e.message),
                        }
                    }
                    Ok(answer) => {
                        s.error = Some(format!(
                            "the engine answered {}, which is not a legal move here",
                            answer.mv
                        ));
                        s.paused = true;
                    }
                    Err(e) => {
                        s.error = Some(format!("the engine failed: {e}"));
                        s.paused = true;
                    }
                }
            }
            JobKind::Hint => {
                if !s.hinting || job.number != s.hint_gen {
                    return;
                }
                s.hinting = false;
                match result {
                    Ok(answer) if job.ply == s.moves.len() => {
                        s.hint = Some(Hint {
                            mv: answer.mv,
                            ply: job.ply,
                        });
                    }
                    Ok(_) => {}
                    Err(e) => s.error = Some(format!("the engine failed: {e}")),
                }
            }
            // Their ends are taken by analysis_done and review_done.
            JobKind::Analysis | JobKind::Review => return,
        }
        self.changed(inner);
    }

    /// Marks a change: a new sequence number, and the state sent to every page.
    pub fn changed(&self, inner: &mut Inner) -> Value {
        inner.session.seq += 1;
        let state = self.state_json(&inner.session);
        self.publish("state", &state);
        state
    }

    /// The players' names: `human`, or the engine's name with its level.
    pub fn player_names(&self, settings: &Settings) -> [String; 2] {
        settings.mode.seats().map(|seat| match seat {
            Seat::Human => "human".to_string(),
            Seat::Engine => match &settings.level {
                Some(level) => format!("{} ({level})", self.info.name),
                None => self.info.name.clone(),
            },
        })
    }

    /// The banner text of a finished game, empty while it goes on.
    pub fn reason(&self, s: &Session) -> String {
        if let Some(p1) = s.resigned {
            let names = seat_names(s.settings.game);
            let loser = names[usize::from(!p1)];
            return format!(
                "{}: {loser} resigns",
                result_text(s.settings.game, s.result())
            );
        }
        if !s.snap.gameover {
            return String::new();
        }
        let ply_cap = s
            .settings
            .options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Tactigon_PlyCap"))
            .map(|(_, v)| v.as_str())
            .or_else(|| {
                self.info
                    .option("Tactigon_PlyCap")
                    .map(|o| o.default.as_str())
            })
            .and_then(|v| v.parse().ok());
        describe(&Ending {
            game: s.settings.game,
            fen: &s.snap.fen,
            result: &s.snap.result,
            p1turn: s.snap.p1turn,
            no_moves: s.snap.legal.is_empty(),
            ply_cap,
        })
    }

    /// Everything the page shows, as JSON.
    pub fn state_json(&self, s: &Session) -> Value {
        let st = &s.settings;
        let options: Map<String, Value> = st
            .options
            .iter()
            .map(|(n, v)| (n.clone(), json!(v)))
            .collect();
        let moves: Vec<&str> = s.moves.iter().map(|m| m.text.as_str()).collect();
        let shown: Vec<&str> = s.moves.iter().map(|m| m.shown.as_str()).collect();
        let seats = st.mode.seats().map(|seat| seat == Seat::Human);
        let mut state = json!({
            "session": self.id,
            "seq": s.seq,
            "game": st.game.name(),
            "sides": seat_names(st.game),
            "options": options,
            "mode": st.mode.code(),
            "humans": seats,
            "level": st.level,
            "movetime": st.movetime,
            "engine": self.info.name,
            "players": self.player_names(st),
            "start": s.start,
            "start_fen": s.start_fen,
            "position": s.position_line().trim_start_matches("position ").to_string(),
            "moves": moves,
            "moves_shown": shown,
            "redo": s.redo.len(),
            "fen": s.snap.fen,
            "legal": s.snap.legal,
            "p1turn": s.snap.p1turn,
            "gameover": s.gameover(),
            "result": s.result(),
            "reason": self.reason(s),
            "resigned": s.resigned.map(|p1| if p1 { "p1" } else { "p2" }),
            "can_resign": !s.gameover() && s.person_against_engine().is_some(),
            "human_to_move": s.human_to_move(),
            "thinking": s.thinking,
            "hinting": s.hinting,
            "hint": s.hint.as_ref().map(|h| h.mv.clone()),
            "paused": s.paused,
            "error": s.error,
            "analysis": s.analysing,
            "can_analyse": s.engine_free(),
            "review": review_json(s),
        });
        if let Some(map) = state.as_object_mut() {
            for (name, value) in s.board.fields() {
                map.insert(name.into(), value);
            }
        }
        state
    }

    /// Ends the session: closes the worker's queue (it quits its engine once a search in
    /// flight is over) and quits the query engine; no engine is started for it again.
    pub fn shutdown(&self) {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take();
        let engine = {
            let mut inner = self.lock();
            inner.closed = true;
            inner.session.cancel_searches();
            inner.engine.take()
        };
        if let Some(engine) = engine {
            engine.quit();
        }
    }
}
