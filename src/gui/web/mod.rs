//! `ludus web`: play and analyse in a browser. A small HTTP server on 127.0.0.1 serves one
//! page (its files are built into the binary) and a JSON API; the page draws the board from
//! [`crate::gui::svg::board_svg`] and takes moves by clicking. The server is a thin
//! translator: it talks to the engine (ludus itself, or any engine given with `--engine`)
//! only through the protocol — `query` for the position, the legal moves and the result,
//! `go movetime` for engine moves and hints, whose `info` lines stream to the page as
//! server-sent events.
//!
//! # API
//!
//! | request | answer |
//! |---|---|
//! | `GET /`, `/style.css`, `/app.js`, `/moves.js`, `/dialog.js`, `/analysis.js` | the page |
//! | `GET /api/setup` | the engine's name, games and options (for the new-game dialog) |
//! | `GET /api/state` | the game: settings, moves, `fen`, `legal`, result, board `svg`, … |
//! | `GET /api/events` | server-sent events: `state` after every change, `info` per engine line |
//! | `GET /api/export` | the game in the referee's record format (text) |
//! | `POST /api/new` | `{game, options, mode: hh\|he\|eh\|ee, level, movetime}` |
//! | `POST /api/move` | `{move, ply}`: a person's move, refused unless legal |
//! | `POST /api/undo`, `/api/redo` | back to (forward to) a person's turn |
//! | `POST /api/load` | `{text}`: `startpos [moves …]` or `fen <F> [moves …]`, checked by the engine |
//! | `POST /api/hint` | a search for the person to move; the move arrives in the state |
//! | `POST /api/pause` | `{paused}`: hold engine moves back, or go on |
//!
//! Every `POST` answers the new state, or `{"error": …}` with status 400 (bad request), 409
//! (does not fit the game now) or 500 (the engine failed). `POST` bodies must be JSON.
//! Requests must name the local host in `Host` (else 403, against DNS rebinding), and every
//! request but a `GET` must come from the server's own page (`Origin` `http://127.0.0.1:PORT`,
//! `http://localhost:PORT` or `http://[::1]:PORT`) or send no `Origin` at all, as programs
//! that are not browsers do (else 403), so other web sites cannot drive the server.
//!
//! Each connection carries one request and gets its own thread (`server.rs`); the request's
//! head may hold 32 KiB (else 431) and its body 64 KiB (else 413), and both must arrive
//! within 5 seconds (else 408), so slow or huge requests cannot hold memory or threads
//! (`http.rs`). The event stream, once open, is not limited in time.

mod access;
mod actions;
mod app;
mod events;
mod export;
mod http;
mod probe;
mod query;
mod search;
mod server;
mod session;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::game::GameId;
use crate::referee::engine_process::{EngineCommand, Proto};

use actions::{LoadRequest, MoveRequest, NewGame, PauseRequest};
use app::{ApiError, App, START_TIMEOUT};
use http::Request;
use server::Listener;
use session::Mode;

/// The page's files, built into the binary: path, content type, text.
const ASSETS: [(&str, &str, &str); 6] = [
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_str!("../../../gui-adapters/web/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../../gui-adapters/web/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/app.js"),
    ),
    (
        "/moves.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/moves.js"),
    ),
    (
        "/dialog.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/dialog.js"),
    ),
    (
        "/analysis.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../gui-adapters/web/analysis.js"),
    ),
];

/// Runs `ludus web`: serves on 127.0.0.1:`port` (0 picks a free port) with `engine` (`None`:
/// this program) and `game` first (default Sight), prints `listening on
/// http://127.0.0.1:PORT` as the first line of `out`, and serves until the process ends.
/// Returns 1 if the server or the engine cannot start.
pub fn run(port: u16, engine: Option<PathBuf>, game: Option<GameId>, out: &mut dyn Write) -> i32 {
    let server = match WebServer::start(port, engine, game) {
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
    app: Arc<App>,
}

impl WebServer {
    /// Asks the engine (`None`: this program) for its options, starts the first game (`game`,
    /// by default Sight; a person against the engine) and serves on 127.0.0.1:`port` (0: a
    /// free port). A `game` the engine does not play is an error.
    pub fn start(
        port: u16,
        engine: Option<PathBuf>,
        game: Option<GameId>,
    ) -> Result<WebServer, String> {
        let cmd = match engine {
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
        let (tx, rx) = crossbeam_channel::unbounded();
        let app = Arc::new(App::new(info, command.clone(), tx));
        let first_game = match game {
            Some(game) if !app.games().contains(&game) => {
                return Err(format!("the engine does not play {}", game.name()));
            }
            Some(game) => game,
            None => app.first_game(),
        };
        search::spawn(Arc::clone(&app), command, rx)
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        let first = NewGame {
            game: first_game.name().to_string(),
            options: Default::default(),
            mode: Mode::HumanEngine,
            level: None,
            movetime: None,
        };
        if let Err(e) = app.new_game(&first) {
            app.shutdown();
            return Err(e.message);
        }
        let router = {
            let app = Arc::clone(&app);
            Arc::new(move |request, stream| handle(&app, request, stream))
        };
        match Listener::start(port, router) {
            Ok(listener) => Ok(WebServer { listener, app }),
            Err(e) => {
                app.shutdown();
                Err(e)
            }
        }
    }

    /// The address served, `127.0.0.1:PORT`.
    pub fn addr(&self) -> SocketAddr {
        self.listener.addr()
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        self.listener.wait();
    }

    /// Stops serving, ends the event streams and quits the engines.
    pub fn stop(mut self) {
        self.listener.stop();
        self.app.shutdown();
    }
}

impl App {
    /// The game the first session plays: Sight if the engine has it, else its first game.
    fn first_game(&self) -> GameId {
        let games = self.games();
        games
            .iter()
            .copied()
            .find(|&g| g == GameId::Sight)
            .or(games.first().copied())
            .unwrap_or(GameId::Sight)
    }

    /// The games the engine plays: those of its `UCI_Variant` choices that ludus draws.
    fn games(&self) -> Vec<GameId> {
        match self.info.option("UCI_Variant") {
            Some(option) => option
                .vars
                .iter()
                .filter_map(|v| GameId::from_name(v))
                .collect(),
            None => vec![GameId::Sight],
        }
    }

    /// What the new-game dialog offers.
    fn setup_json(&self) -> Value {
        let games: Vec<Value> = self
            .games()
            .into_iter()
            .map(|g| json!({ "name": g.name(), "sides": crate::gui::seat_names(g) }))
            .collect();
        json!({ "engine": self.info.name, "games": games, "options": self.info.options })
    }
}

fn respond(mut stream: TcpStream, status: u16, content_type: &str, body: &str) {
    if let Err(e) = http::respond(&mut stream, status, content_type, body) {
        log::debug!("ludus web: cannot answer: {e}");
    }
}

fn respond_json(stream: TcpStream, result: Result<Value, ApiError>) {
    match result {
        Ok(value) => respond(stream, 200, "application/json", &value.to_string()),
        Err(e) => respond(
            stream,
            e.status,
            "application/json",
            &json!({ "error": e.message }).to_string(),
        ),
    }
}

fn json_body<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|e| ApiError::new(400, format!("bad request body: {e}")))
}

fn handle(app: &App, request: Request, stream: TcpStream) {
    let path = request.path();
    if !access::local_host(request.header("Host")) {
        respond(stream, 403, "text/plain", "only for this machine\n");
        return;
    }
    if request.method != "GET" {
        let port = stream.local_addr().map(|a| a.port()).ok();
        let foreign = request
            .headers_named("Origin")
            .find(|&o| !port.is_some_and(|port| access::same_origin(Some(o), port)));
        if let Some(origin) = foreign {
            let own = port.map_or("this server".into(), |p| format!("http://127.0.0.1:{p}"));
            let message = format!(
                "refused: a request from the page {origin} may not change the game; \
                 only this server's own page ({own}) or a program that sends no Origin may"
            );
            respond_json(stream, Err(ApiError::new(403, message)));
            return;
        }
    }
    if request.method == "GET" {
        let asset = if path == "/" { "/index.html" } else { path };
        if let Some((_, content_type, text)) = ASSETS.iter().find(|(p, _, _)| *p == asset) {
            respond(stream, 200, content_type, text);
            return;
        }
        let (content_type, body) = match path {
            "/api/setup" => ("application/json", app.setup_json().to_string()),
            "/api/state" => ("application/json", app.state().to_string()),
            "/api/export" => ("text/plain; charset=utf-8", app.export()),
            "/api/events" => {
                let Some(rx) = app.hub.subscribe() else {
                    respond(stream, 503, "text/plain", "shutting down\n");
                    return;
                };
                let first = format!("event: state\ndata: {}\n\n", app.state());
                events::stream(Box::new(stream), first, rx);
                return;
            }
            _ => {
                respond(stream, 404, "text/plain", "not found\n");
                return;
            }
        };
        respond(stream, 200, content_type, &body);
        return;
    }
    if request.method != "POST" {
        respond(stream, 405, "text/plain", "GET or POST\n");
        return;
    }
    let is_json = request
        .header("Content-Type")
        .is_some_and(|t| t.starts_with("application/json"));
    let body = match std::str::from_utf8(&request.body) {
        Ok(body) if is_json => body,
        _ => {
            let e = ApiError::new(
                400,
                "the body must be JSON (Content-Type: application/json)",
            );
            respond_json(stream, Err(e));
            return;
        }
    };
    let result = match path {
        "/api/new" => json_body::<NewGame>(body).and_then(|r| app.new_game(&r)),
        "/api/move" => json_body::<MoveRequest>(body).and_then(|r| app.play(&r)),
        "/api/load" => json_body::<LoadRequest>(body).and_then(|r| app.load(&r)),
        "/api/pause" => json_body::<PauseRequest>(body).and_then(|r| app.pause(&r)),
        "/api/undo" => app.undo(),
        "/api/redo" => app.redo(),
        "/api/hint" => app.hint(),
        _ => Err(ApiError::new(404, format!("no such action: {path}"))),
    };
    respond_json(stream, result);
}
