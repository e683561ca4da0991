//! One session (a browser tab's game; the sessions are kept in [`super::registry`]): its
//! [`State`] under a lock, where its events go, and the wiring between them. The page's
//! actions are functions over the state in [`super::moves`], [`super::new_game`],
//! [`super::analysis`] and [`super::review`]; [`App::act`] runs one under the lock and sends
//! the new state to the pages. The session's search worker ([`super::search`]) reports on a
//! channel that one thread of the session drains ([`App::apply`]), in the order the worker
//! reports; the worker learns which of its jobs are still wanted from [`Wanted`], updated
//! whenever the lock is let go.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, MutexGuard};

use crossbeam_channel::Receiver;
use serde_json::{Value, json};

use crate::client::EngineCommand;

use super::analysis;
use super::board::view_request;
use super::error::ApiError;
use super::events::{Hub, info_json};
use super::export::record_text;
use super::job::{JobKind, Tag, Wanted, WorkerEvent};
use super::moves;
use super::page::{player_names, reason, state_json};
use super::probe::EngineInfo;
use super::review;
use super::search;
use super::state::{Change, Reply, State};

/// Most client ids (browsers) a session sends its events to; the oldest is forgotten first.
const MAX_CLIENTS: usize = 8;

/// One session: its state, shared by the request threads and the thread that takes its
/// search worker's reports.
pub struct App {
    /// The session's id.
    pub id: String,
    state: Mutex<State>,
    hub: Arc<Hub>,
    /// The client ids (browsers) that get this session's events, most recent last.
    clients: Mutex<Vec<String>>,
}

/// The lock on a session's state; letting it go tells the search worker which searches
/// are still wanted.
struct Locked<'a>(MutexGuard<'a, State>);

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        self.0.update_wanted();
    }
}

impl Deref for Locked<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        &self.0
    }
}

impl DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut State {
        &mut self.0
    }
}

impl App {
    /// Starts session `id` with the default game (Sight, person against engine), before any
    /// engine runs, and its search worker; its events go to `hub`, its engines are counted
    /// in `engines`.
    pub fn start(
        id: String,
        info: Arc<EngineInfo>,
        command: EngineCommand,
        hub: Arc<Hub>,
        engines: Arc<AtomicUsize>,
    ) -> std::io::Result<Arc<App>> {
        let (jobs, queue) = crossbeam_channel::unbounded();
        let (reports, reported) = crossbeam_channel::unbounded();
        let wanted = Arc::new(Wanted::default());
        let state = State::new(
            info,
            command.clone(),
            Arc::clone(&engines),
            jobs,
            Arc::clone(&wanted),
        );
        let app = Arc::new(App {
            id,
            state: Mutex::new(state),
            hub,
            clients: Mutex::new(Vec::new()),
        });
        let short = app.id.get(..8).unwrap_or_default().to_string();
        // The reports' reader first: it ends by itself when the worker does, or fails to
        // start (its end of the channel then closes).
        App::listen(Arc::clone(&app), reported, format!("web-session-{short}"))?;
        search::spawn(
            format!("web-search-{short}"),
            command,
            engines,
            wanted,
            queue,
            reports,
        )?;
        Ok(app)
    }

    /// Takes the worker's reports on a thread of their own until the worker ends.
    fn listen(app: Arc<App>, reported: Receiver<WorkerEvent>, name: String) -> std::io::Result<()> {
        std::thread::Builder::new().name(name).spawn(move || {
            for event in reported.iter() {
                app.apply(event);
            }
        })?;
        Ok(())
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
    fn publish(&self, name: &str, data: &Value) {
        let clients = self
            .clients
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        self.hub.publish(&self.id, &clients, name, data);
    }

    /// The lock on the state (a poisoned lock is taken over: the state is always consistent
    /// between statements that could panic).
    fn lock(&self) -> Locked<'_> {
        Locked(self.state.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The state as the page shows it.
    fn state_json(&self, state: &State) -> Value {
        state_json(&self.id, state.info(), &state.session)
    }

    /// Marks a change: a new sequence number, and the state sent to every page.
    fn changed(&self, state: &mut State) -> Value {
        state.session.seq += 1;
        let json = self.state_json(state);
        self.publish("state", &json);
        json
    }

    /// Runs one of the page's actions on the state, under the lock, and answers the state
    /// after it (sent to every page as well when it changed).
    pub fn act(&self, action: impl FnOnce(&mut State) -> Reply) -> Result<Value, ApiError> {
        let mut state = self.lock();
        match action(&mut state)? {
            Change::Changed => Ok(self.changed(&mut state)),
            Change::Unchanged => Ok(self.state_json(&state)),
        }
    }

    /// The current state.
    pub fn state(&self) -> Value {
        self.state_json(&self.lock())
    }

    /// `GET /api/view?ply=N`: the position after N moves; 400 for a missing or bad N.
    pub fn view(&self, ply: Option<&str>) -> Result<Value, ApiError> {
        view_request(&self.lock().session, ply)
    }

    /// `GET /api/why?moves=…`: whether each move is legal now, and the rule it breaks if not.
    pub fn why(&self, moves: Option<&str>) -> Result<Value, ApiError> {
        super::moves::why(&self.lock().session, moves)
    }

    /// The game in the referee's record format.
    pub fn export(&self) -> String {
        let state = self.lock();
        let (info, s) = (state.info(), &state.session);
        let names = player_names(info, &s.settings);
        record_text(s, [&names[0], &names[1]], &reason(info, s))
    }

    /// Takes one report of the search worker: an `info` line goes to the pages as it is, a
    /// review's answer is kept and its progress sent, and the end of a search is taken by
    /// the feature that asked for it (which ignores those of cancelled searches).
    fn apply(&self, event: WorkerEvent) {
        match event {
            WorkerEvent::Info { tag, info } => self.publish_info(tag, &info),
            WorkerEvent::Reviewed { tag, answer } => {
                let progress = review::reviewed(&mut self.lock(), tag, answer);
                if let Some(mut progress) = progress {
                    if let Some(map) = progress.as_object_mut() {
                        map.insert("session".into(), json!(self.id));
                    }
                    self.publish("review", &progress);
                }
            }
            WorkerEvent::Answered { tag, result } => {
                let mut state = self.lock();
                if moves::answered(&mut state, tag, result) == Change::Changed {
                    self.changed(&mut state);
                }
            }
            WorkerEvent::Ended { tag, result } => {
                let mut state = self.lock();
                let change = match tag.kind {
                    JobKind::Analysis => analysis::ended(&mut state, tag, result),
                    JobKind::Review => review::ended(&mut state, tag, result),
                    JobKind::Move | JobKind::Hint | JobKind::Evaluation => Change::Unchanged,
                };
                if change == Change::Changed {
                    self.changed(&mut state);
                }
            }
        }
    }

    /// Streams one engine `info` line of search `tag` to the pages.
    fn publish_info(&self, tag: Tag, info: &crate::client::Info) {
        let mut info = info_json(info);
        if let Some(map) = info.as_object_mut() {
            map.insert("kind".into(), json!(tag.kind.name()));
            map.insert("ply".into(), json!(tag.ply));
            map.insert("p1".into(), json!(tag.p1));
            map.insert("full".into(), json!(tag.full));
            map.insert("session".into(), json!(self.id));
        }
        self.publish("info", &info);
    }

    /// Ends the session: closes the worker's queue (it quits its engine once a search in
    /// flight is over) and quits the query engine; no engine is started for it again.
    pub fn shutdown(&self) {
        let engine = self.lock().close();
        if let Some(engine) = engine {
            engine.quit();
        }
    }
}
