//! What answers each request: the access checks ([`super::access`]), the page's files, and
//! the JSON API (the table in [`super`]'s docs), each API request sent to its session.

use std::net::TcpStream;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::access;
use super::analysis::{self, AnalyseRequest};
use super::app::App;
use super::assets::asset;
use super::error::ApiError;
use super::events::{self, Follow, Hub};
use super::http::{self, Request};
use super::moves::{self, MoveRequest, PauseRequest};
use super::new_game::{self, LoadRequest};
use super::registry::{Registry, well_formed};
use super::review::{self, ReviewRequest};
use super::settings::{NewGame, default_level};

/// What the router needs: the sessions and the event streams.
pub struct Server {
    /// The sessions.
    pub registry: Arc<Registry>,
    /// The event streams.
    pub hub: Arc<Hub>,
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

/// The ids a request carries: session `s`, browser `c`, tab `t`. A browser or tab id that is
/// not 32 lowercase hex digits is refused (400); a session id is looked up as it is.
struct Ids<'a> {
    session: Option<&'a str>,
    client: Option<&'a str>,
    tab: Option<&'a str>,
}

fn ids(request: &Request) -> Result<Ids<'_>, ApiError> {
    let checked = |name: &str, what: &str| match request.param(name) {
        Some(id) if !well_formed(id) => Err(ApiError::new(
            400,
            format!("{name}= must be the {what} id: 32 lowercase hex digits"),
        )),
        other => Ok(other),
    };
    Ok(Ids {
        session: request.param("s"),
        client: checked("c", "browser's")?,
        tab: checked("t", "tab's")?,
    })
}

impl Server {
    fn session(&self, ids: &Ids) -> Result<Arc<App>, ApiError> {
        self.registry.get(ids.session, ids.client, ids.tab)
    }

    /// What the new-game dialog offers, and the server's bounds.
    fn setup_json(&self) -> Value {
        let info = self.registry.info();
        let games: Vec<Value> = info
            .games()
            .into_iter()
            .map(|g| {
                let elo = info.elo_option(g);
                json!({
                    "name": g.name(),
                    "sides": g.seats(),
                    // The game's own rating scale, and the rating a new game of it starts at.
                    "elo": elo.map(|o| json!({ "min": o.min, "max": o.max })),
                    "default_level": default_level(info, g),
                })
            })
            .collect();
        let config = self.registry.config();
        json!({
            "engine": info.name,
            "games": games,
            "options": info.options,
            "default_level": default_level(info, info.first_game()),
            "max_sessions": config.max_sessions,
            "idle_timeout": config.idle_timeout.as_secs_f64(),
        })
    }

    /// Answers one request.
    pub fn handle(&self, request: Request, stream: TcpStream) {
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
        match request.method.as_str() {
            "GET" => self.get(&request, stream),
            "POST" => self.post(&request, stream),
            _ => respond(stream, 405, "text/plain", "GET or POST\n"),
        }
    }

    fn get(&self, request: &Request, stream: TcpStream) {
        let path = request.path();
        if let Some((content_type, text)) = asset(path) {
            respond(stream, 200, content_type, text);
            return;
        }
        let ids = match ids(request) {
            Ok(ids) => ids,
            Err(e) => return respond_json(stream, Err(e)),
        };
        match path {
            "/api/setup" => respond_json(stream, Ok(self.setup_json())),
            "/api/server" => respond_json(stream, Ok(self.registry.status())),
            "/api/state" => respond_json(stream, self.session(&ids).map(|app| app.state())),
            "/api/view" => respond_json(
                stream,
                self.session(&ids)
                    .and_then(|app| app.view(request.param("ply"))),
            ),
            "/api/why" => respond_json(
                stream,
                self.session(&ids)
                    .and_then(|app| app.why(request.param("moves"))),
            ),
            "/api/export" => match self.session(&ids) {
                Ok(app) => respond(stream, 200, "text/plain; charset=utf-8", &app.export()),
                Err(e) => respond_json(stream, Err(e)),
            },
            "/api/events" => self.events(&ids, stream),
            _ => respond(stream, 404, "text/plain", "not found\n"),
        }
    }

    /// An event stream for browser `c`, or else for session `s`. The first events are the
    /// current states of the sessions followed.
    fn events(&self, ids: &Ids, stream: TcpStream) {
        let (follow, apps) = match (ids.client, ids.session) {
            (Some(client), _) => {
                // A session named too is registered to the browser.
                if ids.session.is_some()
                    && let Err(e) = self.session(ids)
                {
                    return respond_json(stream, Err(e));
                }
                (Follow::Client(client.to_string()), Vec::new())
            }
            (None, Some(_)) => match self.session(ids) {
                Ok(app) => (Follow::Session(app.id.clone()), vec![app]),
                Err(e) => return respond_json(stream, Err(e)),
            },
            (None, None) => {
                let e = ApiError::new(
                    400,
                    "name what to follow: ?c=<browser id> (every session of that browser) or \
                     ?s=<session id>",
                );
                return respond_json(stream, Err(e));
            }
        };
        // Subscribed before the states are read, so no change falls between them.
        let Some(events) = Hub::subscribe(&self.hub, follow.clone()) else {
            return respond(stream, 503, "text/plain", "shutting down\n");
        };
        let apps = match &follow {
            Follow::Client(client) => self.registry.of_client(client),
            Follow::Session(_) => apps,
        };
        let first: String = apps
            .iter()
            .map(|app| format!("event: state\ndata: {}\n\n", app.state()))
            .collect();
        let heartbeat = (self.registry.config().idle_timeout / 4).clamp(
            std::time::Duration::from_millis(200),
            std::time::Duration::from_secs(15),
        );
        events::stream(Box::new(stream), first, events, heartbeat);
    }

    fn post(&self, request: &Request, stream: TcpStream) {
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
        let result = ids(request).and_then(|ids| self.act(request.path(), body, &ids));
        respond_json(stream, result);
    }

    fn act(&self, path: &str, body: &str, ids: &Ids) -> Result<Value, ApiError> {
        match path {
            "/api/session" => {
                json_body::<Value>(body)?;
                self.registry
                    .create(ids.client, ids.tab)
                    .map(|app| app.state())
            }
            "/api/leave" => self.registry.leave(ids.session, ids.tab),
            "/api/new" => {
                let r = json_body::<NewGame>(body)?;
                self.session(ids)?.act(|s| new_game::new_game(s, &r))
            }
            "/api/move" => {
                let r = json_body::<MoveRequest>(body)?;
                self.session(ids)?.act(|s| moves::play(s, &r))
            }
            "/api/load" => {
                let r = json_body::<LoadRequest>(body)?;
                self.session(ids)?.act(|s| new_game::load(s, &r))
            }
            "/api/pause" => {
                let r = json_body::<PauseRequest>(body)?;
                self.session(ids)?.act(|s| moves::pause(s, &r))
            }
            "/api/analyse" => {
                let r = json_body::<AnalyseRequest>(body)?;
                self.session(ids)?.act(|s| analysis::analyse(s, &r))
            }
            "/api/review" => {
                let r = json_body::<ReviewRequest>(body)?;
                self.session(ids)?.act(|s| review::review(s, &r))
            }
            "/api/undo" => self.session(ids)?.act(moves::undo),
            "/api/redo" => self.session(ids)?.act(moves::redo),
            "/api/hint" => self.session(ids)?.act(moves::hint),
            "/api/resign" => self.session(ids)?.act(moves::resign),
            _ => Err(ApiError::new(404, format!("no such action: {path}"))),
        }
    }
}
