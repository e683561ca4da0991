//! The sessions of `ludus web`: one per browser tab, each with its own game, its own engine
//! processes (a query engine, and a search engine once it searches) and its own search
//! worker. A session is created by the server (`POST /api/session`) under a random 128-bit
//! id, and every request names it (`?s=ID`).
//!
//! The registry bounds them: at most [`Config::max_sessions`] at once (a new one is then
//! refused with 503). A session is dropped, and its engines quit, when nothing has used it
//! for [`Config::idle_timeout`]: no request named it and no event stream followed it by its
//! id. A tab that closes says so (`POST /api/leave`); the session is then dropped after
//! [`LEAVE_GRACE`] unless another tab (or the same tab, reloaded) names it meanwhile.

use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{RecvTimeoutError, Sender};
use rand::TryRng;
use rand::rngs::SysRng;
use serde_json::{Value, json};

use crate::client::EngineCommand;
use crate::game::GameId;

use super::app::App;
use super::error::ApiError;
use super::events::Hub;
use super::new_game::new_game;
use super::probe::EngineInfo;
use super::settings::{Mode, NewGame, default_level};

/// How long a session lives after its last tab said it left, unless a tab names it again.
pub const LEAVE_GRACE: Duration = Duration::from_secs(10);

/// How long an unused session lives by default: 2.5 minutes. An open page asks for its state
/// at least every minute (a hidden tab's timers may run only once a minute), so only a
/// session no page shows any more (its tab closed without saying so, or its browser crashed
/// or was killed) ends, within three minutes, freeing its place and its engines.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(150);

/// Most tabs a session remembers (those that have not left).
const MAX_TABS: usize = 16;

/// The bounds of the sessions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Most sessions at once.
    pub max_sessions: usize,
    /// How long an unused session lives.
    pub idle_timeout: Duration,
}

impl Default for Config {
    /// 8 sessions, [`DEFAULT_IDLE_TIMEOUT`].
    fn default() -> Config {
        Config {
            max_sessions: 8,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
        }
    }
}

/// Whether `id` has the form of the ids the server and the page make: 32 lowercase hex
/// digits (128 bits).
pub fn well_formed(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A fresh random id from the system's random source: 32 hex digits.
fn fresh_id() -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| ApiError::new(500, format!("no random numbers for a session id: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

struct Entry {
    app: Arc<App>,
    last_used: Instant,
    /// The tabs showing the session (their ids, when each was last seen).
    tabs: Vec<(String, Instant)>,
    /// When the session goes though recently used: its last tab left.
    leave_at: Option<Instant>,
}

#[derive(Default)]
struct Table {
    sessions: HashMap<String, Entry>,
    /// Sessions being started (counted against the bound).
    starting: usize,
    closed: bool,
}

/// The sessions, with what every session needs to start.
pub struct Registry {
    config: Config,
    info: Arc<EngineInfo>,
    command: EngineCommand,
    first_game: GameId,
    hub: Arc<Hub>,
    engines: Arc<AtomicUsize>,
    table: Mutex<Table>,
}

impl Registry {
    /// An empty registry; sessions start with `first_game`, person against engine.
    pub fn new(
        config: Config,
        info: EngineInfo,
        command: EngineCommand,
        first_game: GameId,
        hub: Arc<Hub>,
    ) -> Registry {
        Registry {
            config,
            info: Arc::new(info),
            command,
            first_game,
            hub,
            engines: Arc::new(AtomicUsize::new(0)),
            table: Mutex::new(Table::default()),
        }
    }

    /// The bounds.
    pub fn config(&self) -> Config {
        self.config
    }

    /// What the engine said about itself.
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a session (its first game set up on its query engine), registered to browser
    /// `client` and tab `tab` when given. 503 when the server runs its most sessions.
    pub fn create(&self, client: Option<&str>, tab: Option<&str>) -> Result<Arc<App>, ApiError> {
        {
            let mut table = self.lock();
            if table.closed {
                return Err(ApiError::new(503, "the server is shutting down"));
            }
            if table.sessions.len() + table.starting >= self.config.max_sessions {
                return Err(self.full());
            }
            table.starting += 1;
        }
        let started = self.start_session();
        let mut table = self.lock();
        table.starting -= 1;
        let app = started?;
        if table.closed {
            drop(table);
            app.shutdown();
            return Err(ApiError::new(503, "the server is shutting down"));
        }
        if let Some(client) = client {
            app.add_client(client);
        }
        let now = Instant::now();
        table.sessions.insert(
            app.id.clone(),
            Entry {
                app: Arc::clone(&app),
                last_used: now,
                tabs: tab.map(|t| (t.to_string(), now)).into_iter().collect(),
                leave_at: None,
            },
        );
        Ok(app)
    }

    fn full(&self) -> ApiError {
        let n = self.config.max_sessions;
        let idle = duration_words(self.config.idle_timeout);
        ApiError::new(
            503,
            format!(
                "This server already runs its most games at once ({n}, one per browser tab, \
                 each with its own engine). Close another ludus tab, or wait until an unused \
                 game is closed (after {idle} without use); this page tries again by itself. \
                 The server's --max-sessions option allows more."
            ),
        )
    }

    fn start_session(&self) -> Result<Arc<App>, ApiError> {
        let id = fresh_id()?;
        let app = App::start(
            id,
            Arc::clone(&self.info),
            self.command.clone(),
            Arc::clone(&self.hub),
            Arc::clone(&self.engines),
        )
        .map_err(|e| ApiError::new(500, format!("cannot start the search thread: {e}")))?;
        let first = NewGame {
            game: self.first_game.name().to_string(),
            options: Default::default(),
            mode: Mode::HumanEngine,
            level: default_level(&self.info, self.first_game),
            movetime: None,
        };
        if let Err(e) = app.act(|state| new_game(state, &first)) {
            app.shutdown();
            return Err(e);
        }
        Ok(app)
    }

    /// The session `id`, marked as used now (by browser `client` and tab `tab`, if given).
    /// 400 without an id, 404 for an id the server does not know (never made, or ended).
    pub fn get(
        &self,
        id: Option<&str>,
        client: Option<&str>,
        tab: Option<&str>,
    ) -> Result<Arc<App>, ApiError> {
        let Some(id) = id else {
            return Err(ApiError::new(
                400,
                "this request names no session: add ?s=<id> (POST /api/session starts one)",
            ));
        };
        let mut table = self.lock();
        let Some(entry) = table.sessions.get_mut(id) else {
            return Err(gone());
        };
        let now = Instant::now();
        entry.last_used = now;
        if let Some(tab) = tab {
            entry.leave_at = None;
            entry.tabs.retain(|(t, _)| t != tab);
            entry.tabs.push((tab.to_string(), now));
            if entry.tabs.len() > MAX_TABS {
                entry.tabs.remove(0);
            }
        }
        let app = Arc::clone(&entry.app);
        drop(table);
        if let Some(client) = client {
            app.add_client(client);
        }
        Ok(app)
    }

    /// Tab `tab` no longer shows session `id`: when no other tab seen within the idle time
    /// shows it, it ends after [`LEAVE_GRACE`] unless named again.
    pub fn leave(&self, id: Option<&str>, tab: Option<&str>) -> Result<Value, ApiError> {
        let app = self.get(id, None, None)?;
        let mut table = self.lock();
        if let Some(entry) = table.sessions.get_mut(&app.id) {
            let now = Instant::now();
            let idle = self.config.idle_timeout;
            entry
                .tabs
                .retain(|(t, seen)| Some(t.as_str()) != tab && now.duration_since(*seen) < idle);
            if entry.tabs.is_empty() {
                entry.leave_at = Some(now + LEAVE_GRACE.min(idle));
            }
        }
        Ok(json!({ "session": app.id, "left": true }))
    }

    /// The sessions whose events go to browser `client`.
    pub fn of_client(&self, client: &str) -> Vec<Arc<App>> {
        let apps: Vec<Arc<App>> = self
            .lock()
            .sessions
            .values()
            .map(|e| Arc::clone(&e.app))
            .collect();
        apps.into_iter().filter(|a| a.has_client(client)).collect()
    }

    /// Ends the sessions that are unused: followed by no event stream of their own, and not
    /// named for the idle time (or since their last tab left, for the grace). Returns how many.
    pub fn reap(&self) -> usize {
        let now = Instant::now();
        let idle = self.config.idle_timeout;
        let ended: Vec<Arc<App>> = {
            let mut table = self.lock();
            let mut ended = Vec::new();
            table.sessions.retain(|id, entry| {
                if self.hub.followed(id) {
                    entry.last_used = now;
                    entry.leave_at = None;
                    return true;
                }
                let idle_out = now.duration_since(entry.last_used) >= idle;
                let left = entry.leave_at.is_some_and(|at| now >= at);
                if idle_out || left {
                    ended.push(Arc::clone(&entry.app));
                    return false;
                }
                true
            });
            ended
        };
        for app in &ended {
            log::debug!("ludus web: session {} ended (unused)", app.id);
            app.shutdown();
        }
        ended.len()
    }

    /// How many sessions run and how many engine processes: `{sessions, max_sessions,
    /// idle_timeout, engines}`.
    pub fn status(&self) -> Value {
        let sessions = self.lock().sessions.len();
        json!({
            "sessions": sessions,
            "max_sessions": self.config.max_sessions,
            "idle_timeout": self.config.idle_timeout.as_secs_f64(),
            "engines": self.engines.load(std::sync::atomic::Ordering::SeqCst),
        })
    }

    /// Ends every session and refuses new ones.
    pub fn close(&self) {
        let apps: Vec<Arc<App>> = {
            let mut table = self.lock();
            table.closed = true;
            table.sessions.drain().map(|(_, e)| e.app).collect()
        };
        for app in apps {
            app.shutdown();
        }
    }
}

/// A duration as people say it: `2.5 min`, `30 min`, `1 s`, `0.5 s`.
fn duration_words(d: Duration) -> String {
    let secs = d.as_secs_f64();
    let (value, unit) = if secs >= 60.0 {
        (secs / 60.0, "min")
    } else {
        (secs, "s")
    };
    let text = format!("{value:.1}");
    format!("{} {unit}", text.strip_suffix(".0").unwrap_or(&text))
}

/// The answer for a session the server does not know.
fn gone() -> ApiError {
    ApiError::new(
        404,
        "this server has no such session: it has ended (unused for a while, or the server \
         restarted) or never existed; start a new one (POST /api/session)",
    )
}

/// The thread that ends unused sessions, checking four times per idle time (at least every
/// 5 s, so a left session ends within about [`LEAVE_GRACE`] and 5 s).
pub struct Reaper {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Reaper {
    /// Starts checking `registry`.
    pub fn start(registry: Arc<Registry>) -> std::io::Result<Reaper> {
        let tick = (registry.config.idle_timeout / 4)
            .clamp(Duration::from_millis(50), Duration::from_secs(5));
        let (stop, stopped) = crossbeam_channel::bounded::<()>(1);
        let thread = std::thread::Builder::new()
            .name("web-reaper".into())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(tick) {
                    registry.reap();
                }
            })?;
        Ok(Reaper {
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Stops the thread.
    pub fn stop(&mut self) {
        self.stop.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_said_in_minutes_or_seconds() {
        assert_eq!(duration_words(DEFAULT_IDLE_TIMEOUT), "2.5 min");
        assert_eq!(duration_words(Duration::from_secs(1800)), "30 min");
        assert_eq!(duration_words(Duration::from_secs(1)), "1 s");
        assert_eq!(duration_words(Duration::from_millis(500)), "0.5 s");
    }

    #[test]
    fn ids_are_128_bits_of_hex_and_differ() {
        let a = fresh_id().expect("random numbers");
        let b = fresh_id().expect("random numbers");
        assert!(well_formed(&a) && well_formed(&b), "{a} {b}");
        assert_ne!(a, b);
        assert!(!well_formed("ABCDEF0123456789abcdef0123456789"));
        assert!(!well_formed("abc"));
    }
}
