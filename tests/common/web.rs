//! Helpers shared by the web GUI's tests (`web.rs`, `web_sessions.rs`, `web_limits.rs`,
//! `web_analysis.rs`, …): the binary, an HTTP agent that hands back every status, JSON
//! requests, and `ludus web` started as a process of its own.
//!
//! Each test binary (one per folder of `tests/`) compiles this module once, within `common`,
//! and uses only part of it, so unused items are expected in some binaries.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ludus::gui::web::{WebConfig, WebServer};
use serde_json::{Value, json};

/// The ludus binary under test.
pub fn ludus() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ludus"))
}

/// An HTTP agent that returns error statuses as answers (the tests check them) and gives up
/// after 30 seconds.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// A server on a free port whose engine is this ludus, and a client with a session of its own.
pub fn start() -> (WebServer, Client) {
    let config = WebConfig {
        port: 0,
        engine: Some(ludus()),
        ..WebConfig::default()
    };
    let server = WebServer::start(config).expect("the server starts");
    let client = Client::new(&server);
    (server, client)
}

/// `GET url`: the status and the body.
pub fn get_text(agent: &ureq::Agent, url: &str) -> (u16, String) {
    let mut response = agent.get(url).call().expect("GET answered");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("a text body");
    (status, text)
}

/// `POST url` with `body` as JSON: the status and the JSON answer.
pub fn post_json(agent: &ureq::Agent, url: &str, body: &Value) -> (u16, Value) {
    let mut response = agent
        .post(url)
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .expect("POST answered");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("a text body");
    (status, serde_json::from_str(&text).expect("JSON"))
}

/// `ludus web --port 0 ARGS…` as a process of its own, and where it listens
/// (`http://ADDRESS`, from its first line).
pub fn spawn_web(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(ludus())
        .args(["web", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ludus starts");
    let mut line = String::new();
    if let Some(out) = child.stdout.as_mut() {
        let mut byte = [0u8; 1];
        while !line.ends_with('\n') && out.read(&mut byte).unwrap_or(0) == 1 {
            line.push(char::from(byte[0]));
        }
    }
    match line.trim().strip_prefix("listening on ") {
        Some(base) => (child, base.to_string()),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ludus web did not say where it listens: {line:?}");
        }
    }
}

/// The moves of a game state, in order.
pub fn moves(state: &Value) -> Vec<&str> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// A program using one session of a server (every request names it with `?s=`).
pub struct Client {
    /// `http://ADDRESS`.
    pub base: String,
    /// The agent its requests go through.
    pub agent: ureq::Agent,
    /// The session's id.
    pub session: String,
}

impl Client {
    /// A new session on `server`.
    pub fn new(server: &WebServer) -> Client {
        let mut client = Client {
            base: format!("http://{}", server.addr()),
            agent: agent(),
            session: String::new(),
        };
        let state = client.ok("/api/session", json!({}));
        client.session = state["session"].as_str().expect("a session id").to_string();
        client
    }

    /// `path` on the server, naming the session.
    pub fn url(&self, path: &str) -> String {
        let join = if path.contains('?') { '&' } else { '?' };
        format!("{}{path}{join}s={}", self.base, self.session)
    }

    /// `GET path`: the status and the body.
    pub fn get_text(&self, path: &str) -> (u16, String) {
        get_text(&self.agent, &self.url(path))
    }

    /// `GET path`: the status, the content type and the body.
    pub fn get_typed(&self, path: &str) -> (u16, String, String) {
        let mut response = self.agent.get(self.url(path)).call().expect("GET answered");
        let kind = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let status = response.status().as_u16();
        let body = response.body_mut().read_to_string().expect("a text body");
        (status, kind, body)
    }

    /// `GET path`, which must answer 200 with JSON.
    pub fn get(&self, path: &str) -> Value {
        let (status, body) = self.get_text(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).expect("JSON")
    }

    /// The game's state.
    pub fn state(&self) -> Value {
        self.get("/api/state")
    }

    /// `POST path` with `body`: the status and the JSON answer.
    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        post_json(&self.agent, &self.url(path), &body)
    }

    /// `POST path` with `body`, which must answer 200: the answer.
    pub fn ok(&self, path: &str, body: Value) -> Value {
        let (status, state) = self.post(path, body);
        assert_eq!(status, 200, "POST {path}: {state}");
        state
    }

    /// Polls the state until `done` holds (engine moves arrive on their own), for up to 30 s.
    pub fn wait_for(&self, done: impl Fn(&Value) -> bool) -> Value {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let state = self.state();
            if done(&state) {
                return state;
            }
            assert!(Instant::now() < until, "timed out; state {state}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
