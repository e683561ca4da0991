//! `ludus web`: play and analyse in a browser. A small HTTP server on 127.0.0.1 serves one
//! page (its files are built into the binary) and a JSON API; the page draws the board from
//! [`crate::gui::svg::board_svg`] and takes moves by clicking. The server is a thin
//! translator: it talks to the engine (ludus itself, or any engine given with `--engine`)
//! only through the protocol — `query` for the position, the legal moves and the result,
//! `go movetime` for engine moves and hints, whose `info` lines stream to the page as
//! server-sent events. Its searching engine has `UCI_ShowWDL` on, so every score reaches the
//! page with the side to move's chances of a win, a draw and a loss.
//!
//! # Sessions
//!
//! Every browser tab plays its own game: a *session* (`registry.rs`), made by the server
//! under a random 128-bit id (32 hex digits, from the system's random source), with its own
//! game, its own engine processes — a query engine, and a search engine once it searches —
//! and its own search worker (`app.rs`, `search.rs`; see *The code* below). The page keeps the id in its URL
//! (`/?s=ID`, with `history.replaceState`), so a reload or a copied link shows the same game.
//! Every API request names its session with the query parameter `s=ID`; the page also sends
//! `c=` (its browser's id, random, kept in `localStorage`) and `t=` (the tab's id, random per
//! page load), both 32 lowercase hex digits (else 400). A request without `s` gets 400, an
//! id the server does not know (never made, or ended) 404 with `{"error": …}`; the page then
//! starts a new session and says so (with the same game and position if it was showing one).
//!
//! The sessions are bounded: at most `--max-sessions N` (default 8) at once, so at most 2N
//! engine processes; `POST /api/session` beyond that answers 503 with a message the page
//! shows. A session nothing uses for `--idle-timeout SECS` (default 150) ends and its engines
//! quit ([`EngineProcess::quit`], which ends their process groups and reaps them; a search in
//! flight ends first, within its movetime and a few seconds): "used" is a request naming it,
//! or an event stream following it by its id (`?s=`). Pages ask for their state at least
//! once a minute, so an open tab keeps its session, and the session of a tab that vanished
//! without a word (a crashed or killed browser) ends within three minutes; a tab that closes says so
//! (`POST /api/leave`), and its session ends 10 s later unless a tab (the same one, reloaded,
//! or another showing the same link) names it meanwhile.
//!
//! # Events: one stream per browser
//!
//! A browser opens at most six HTTP/1.1 connections to a host, so one event stream per tab
//! would stop the seventh tab from loading. Instead the tabs of a browser share one stream
//! (`session.js`): they elect a leader with the Web Locks API (`navigator.locks.request` on
//! a fixed name, held for the tab's life; when the leader closes, the next tab in line gets
//! the lock); only the leader opens `GET /api/events?c=CLIENT`, which carries the events of
//! every session registered to that browser id — a session is registered to the browsers
//! whose requests name it (`c=`), at most the 8 latest — and it passes every event on to the
//! other tabs over a `BroadcastChannel`. Each event's JSON names its session
//! (`"session": ID`) and a tab keeps its own session's. Where Web Locks or BroadcastChannel
//! are missing, every tab polls `GET /api/state` every 2 s instead. Either way no tab holds
//! more than one long-lived connection, and every other request is short (one request per
//! connection), so requests never queue behind the stream. The stream begins with the state
//! of each session of the browser; when it (re)opens, the tabs ask for their state again.
//! A program can follow one session with `GET /api/events?s=ID` instead.
//!
//! # The board
//!
//! The session keeps the position after every move as the engine printed it (`query fen`),
//! so the server can draw the last move and what it did (`board.rs`, with
//! [`crate::gui::svg::board_svg_view`] and the game's own [`crate::game::present`]) without
//! asking the engine more. Each state carries the drawing from both sides; the page shows one (its Flip), marks
//! a person's choices and the engine's ideas on the drawing's own layers (`board.js`: dots,
//! spots, rings, arrows, ghost tiles) and keeps the person's preferences (`prefs.js`: dark
//! mode, sounds, the board's side).
//!
//! # API
//!
//! | request | answer |
//! |---|---|
//! | `GET /`, `/style.css`, `/app.js`, `/moves.js`, `/notations.js`, `/dialog.js`, `/analysis.js`, `/session.js`, `/board.js`, `/prefs.js`, `/isaac.js`, `/isaac-ui.js`, `/isaac.css`, `/navigate.js`, `/evaluation.js`, `/review.js`, `/favicon.svg` | the page |
//! | `GET /api/setup` | the engine's name, games and options (for the new-game dialog), `default_level` (the level a new session plays at and the dialog offers first: `elo 1000` for an engine with ratings, else null), `max_sessions`, `idle_timeout` |
//! | `GET /api/server` | `{sessions, max_sessions, idle_timeout, engines}`: how many sessions and engine processes run |
//! | `POST /api/session` | `{}`: a new session with the first game (`--game`, else the default game, Sight; person against engine): its state, with its id as `session`; 503 when full |
//! | `GET /api/state?s=ID` | the session's game: `session`, settings, `moves` (and `moves_shown`, as the move list shows them: `d10×d12`, `d4+d3+b4`, and `movers`, who made each: `p1` or `p2`; a player may move twice in a row, after the other passed), `fen`, `legal`, `sides` (the seats' names), `notation` (how moves name the board's places: `squares` or `tiles`), `score_words` (how evaluations are worded: `per_unit` engine units per unit shown, `decimals`, `unit`, e.g. Isaac's `points`), `gameover`, `result`, `reason`, `resigned` (`p1`, `p2` or null), `can_resign`, the board `svg` and `svg_flipped` (seen from player two's side; Tactigon's also on its side for a wide window, `svg_wide` and `svg_wide_flipped`: Red on the left, or Blue), `lost` (Tactigon: the kinds of pieces each side has lost), `alert` (Tactigon: the gold pair to break), the game's own panel under its name, if it has one (`isaac`: the panel's phase, status and players, and each removal open to the mover with its points, the cell its counter lands on for every advance and the advance that would collide; absent for other games), … |
//! | `GET /api/view?s=ID&ply=N` | the position after N moves (0 … the number played), for the move list: `ply`, `live`, `fen`, `move`, `shown`, `p1turn`, `svg`, `svg_flipped`, `lost`, the game's own panel (`isaac`) |
//! | `GET /api/why?s=ID&moves=M1,M2,…` | for 1 to 8 moves of the current position: `{moves: [{move, legal, why}]}`, `why` the rule a move breaks in the rules' words (as the terminal says it), null for a legal move; the page asks it for a refused click |
//! | `GET /api/events?c=CLIENT` | server-sent events of every session of browser `CLIENT`: `state` after every change, `info` per engine line (with `kind`: `move`, `hint`, `analysis`, `review`, `evaluation` (a full-strength search of the position a person is to move in, in a game at a weakened level); `full`: false for an engine move searched at a weakened level, whose scores the page never shows; `ply` and `p1` of the position searched; beside a `score`, `wdl`: the side to move's chances `[win, draw, loss]` in per mille, or null when the engine gave none), `review` per position a review has searched, each with `session` |
//! | `GET /api/events?s=ID` | the same for one session (and it keeps that session in use while open) |
//! | `GET /api/export?s=ID` | the game in the referee's record format (text) |
//! | `POST /api/new?s=ID` | `{game, options, mode: hh\|he\|eh\|ee, level, movetime}` |
//! | `POST /api/move?s=ID` | `{move, ply}`: a person's move, refused unless legal |
//! | `POST /api/undo?s=ID`, `/api/redo?s=ID` | back to (forward to) a person's turn |
//! | `POST /api/load?s=ID` | `{text}`: `startpos [moves …]` or `fen <F> [moves …]`, checked by the engine |
//! | `POST /api/hint?s=ID` | a search for the person to move; the move arrives in the state |
//! | `POST /api/analyse?s=ID` | `{ply}`: the analysis mode searches the position after `ply` moves (`go infinite`, 3 lines as `info` events) until `{"ply": null}`, a change of the game, or an engine move falls due (409 while the engine is busy with the game or where the game is over; the state's `analysis` is the ply searched, `can_analyse` whether the engine is free) |
//! | `POST /api/review?s=ID` | `{level}` (`fast`, `normal`, `deep`: the game's own limits, the state's `review_levels`), `{depth\|nodes\|movetime}` (default: the game's `normal`) or `{stop: true}`: reviews the game as `ludus analyse` does, position by position; the state's `review` has the progress, each move's mark (`?!`, `?`, `??`) and the score and chances (`wdl`) of each position (`graph`) |
//! | `POST /api/pause?s=ID` | `{paused}`: hold engine moves back, or go on |
//! | `POST /api/resign?s=ID` | `{}`: the person playing the engine resigns (409 unless a person plays the engine and the game goes on); undo takes it back |
//! | `POST /api/leave?s=ID&t=TAB` | `{}`: tab `TAB` no longer shows the session |
//!
//! Every `POST` answers the new state, or `{"error": …}` with status 400 (bad request), 404
//! (no such session), 409 (does not fit the game now), 500 (the engine failed) or 503 (no
//! room for another session). `POST` bodies must be JSON.
//! Requests must name the local host in `Host` (else 403, against DNS rebinding), and every
//! request but a `GET` must come from the server's own page (`Origin` `http://127.0.0.1:PORT`,
//! `http://localhost:PORT` or `http://[::1]:PORT`) or send no `Origin` at all, as programs
//! that are not browsers do (else 403), so other web sites cannot drive the server.
//!
//! Each connection carries one request and gets its own thread (`server.rs`); the request's
//! head may hold 32 KiB (else 431) and its body 64 KiB (else 413), and both must arrive
//! within 5 seconds (else 408), so slow or huge requests cannot hold memory or threads
//! (`http.rs`). The event stream, once open, is not limited in time. Routing is in
//! `routes.rs`.
//!
//! # The code
//!
//! Layered as the engine side of ludus is: no file imports one above it.
//!
//! - At the bottom, what every layer uses: `error.rs` (the API's errors), `engine.rs` (a
//!   counted engine process), `query.rs` (quick questions to an engine), `probe.rs` (what
//!   the engine offers), `settings.rs` (how a game is played), `session.rs` (the game on the
//!   page), `board.rs`, `isaac.rs` (what the page is shown of a position; `isaac.rs` is Isaac's
//!   panel, reached through the `Draw` trait of [`crate::gui::svg`]).
//! - `job.rs`: what a session and its search worker say to each other. The session sends
//!   jobs; the worker (`search.rs`) knows nothing of the session: it reports every `info`
//!   line, review answer and end of a search on a channel, and reads which jobs are still
//!   wanted from numbers the session updates whenever its lock is let go (a job no longer
//!   wanted is skipped, and an analysis or a review stops).
//! - `state.rs`: a session's state under its lock, with its query engine and the worker's
//!   queue. The features are functions over it: `moves.rs` (moves, engine moves, hints,
//!   undo, pause, resign), `new_game.rs` (a new game, a pasted position), `analysis.rs`,
//!   `review.rs`; `page.rs` and `export.rs` say what the page shows and exports.
//! - `app.rs`: one session — the lock, its events to the pages (`events.rs`), and the thread
//!   that takes its worker's reports; `registry.rs` keeps the sessions, `routes.rs` answers
//!   the requests (the page's own files are in `assets.rs`), `server.rs`, `http.rs` and
//!   `access.rs` carry them.
//!
//! [`EngineProcess::quit`]: crate::client::EngineProcess::quit

mod access;
mod analysis;
mod app;
mod assets;
mod board;
mod engine;
mod error;
mod events;
mod export;
mod http;
pub(crate) mod isaac;
mod job;
mod moves;
mod new_game;
mod page;
mod probe;
mod query;
mod registry;
mod review;
mod routes;
mod search;
mod server;
mod session;
mod settings;
mod state;

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::client::{EngineCommand, Proto};
use crate::game::GameId;

use engine::START_TIMEOUT;
use events::Hub;
use registry::{Reaper, Registry};
use routes::Server;
use server::Listener;

/// How `ludus web` runs: where it listens, the engine, the first game, and the bounds of
/// the sessions.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// The port on 127.0.0.1 (0: a free port).
    pub port: u16,
    /// The engine (`None`: this program).
    pub engine: Option<PathBuf>,
    /// The game a new session starts with (default Sight).
    pub game: Option<GameId>,
    /// Most sessions (browser tabs) at once, each with its own engine processes.
    pub max_sessions: usize,
    /// How long a session nothing uses lives.
    pub idle_timeout: Duration,
}

impl Default for WebConfig {
    /// Port 8080, this program as the engine, Sight, 8 sessions, an unused session ending
    /// after [`registry::DEFAULT_IDLE_TIMEOUT`].
    fn default() -> WebConfig {
        let sessions = registry::Config::default();
        WebConfig {
            port: 8080,
            engine: None,
            game: None,
            max_sessions: sessions.max_sessions,
            idle_timeout: sessions.idle_timeout,
        }
    }
}

/// Runs `ludus web` with `config`: prints `listening on http://127.0.0.1:PORT` as the first
/// line of `out`, and serves until the process ends. Returns 1 if the server or the engine
/// cannot start.
pub fn run(config: WebConfig, out: &mut dyn Write) -> i32 {
    let server = match WebServer::start(config) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("ludus web: {e}");
            return 1;
        }
    };
    let said = writeln!(out, "listening on http://{}", server.addr()).and_then(|()| out.flush());
    if let Err(e) = said {
        eprintln!("ludus web: {e}");
    }
    server.wait();
    0
}

/// A running web GUI server.
pub struct WebServer {
    listener: Listener,
    registry: Arc<Registry>,
    hub: Arc<Hub>,
    reaper: Reaper,
}

impl WebServer {
    /// Asks the engine (`config.engine`, by default this program) for its options and serves
    /// on 127.0.0.1:`config.port`. Sessions start with `config.game` (by default Sight; a
    /// person against the engine); a game the engine does not play is an error, and so are
    /// `max_sessions` 0 and an `idle_timeout` of zero.
    pub fn start(config: WebConfig) -> Result<WebServer, String> {
        if config.max_sessions == 0 {
            return Err("--max-sessions must be at least 1".into());
        }
        if config.idle_timeout.is_zero() {
            return Err("--idle-timeout must be more than 0 seconds".into());
        }
        let cmd = match config.engine {
            Some(cmd) => cmd,
            None => std::env::current_exe().map_err(|e| format!("cannot find ludus: {e}"))?,
        };
        let info = probe::probe(&cmd, START_TIMEOUT)?;
        let command = EngineCommand {
            name: info.name.clone(),
            cmd,
            dir: None,
            args: Vec::new(),
            proto: Proto::Ugi,
        };
        let first_game = match config.game {
            Some(game) if !info.games().contains(&game) => {
                return Err(format!("the engine does not play {}", game.name()));
            }
            Some(game) => game,
            None => info.first_game(),
        };
        let hub = Arc::new(Hub::new());
        let bounds = registry::Config {
            max_sessions: config.max_sessions,
            idle_timeout: config.idle_timeout,
        };
        let registry = Arc::new(Registry::new(
            bounds,
            info,
            command,
            first_game,
            Arc::clone(&hub),
        ));
        let reaper = Reaper::start(Arc::clone(&registry))
            .map_err(|e| format!("cannot start the session thread: {e}"))?;
        let server = Arc::new(Server {
            registry: Arc::clone(&registry),
            hub: Arc::clone(&hub),
        });
        let router = Arc::new(move |request, stream| server.handle(request, stream));
        let listener = Listener::start(config.port, router)?;
        Ok(WebServer {
            listener,
            registry,
            hub,
            reaper,
        })
    }

    /// The address served, `127.0.0.1:PORT`.
    pub fn addr(&self) -> SocketAddr {
        self.listener.addr()
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        self.listener.wait();
    }

    /// Stops serving, ends the event streams and the sessions, and quits their engines.
    pub fn stop(mut self) {
        self.listener.stop();
        self.reaper.stop();
        self.hub.close();
        self.registry.close();
    }
}
