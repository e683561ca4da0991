//! Helpers shared by the web GUI's tests (`web.rs`, `web_sessions.rs`, `web_limits.rs`): the
//! binary, an HTTP agent that hands back every status, JSON requests, and `ludus web` started
//! as a process of its own.
//!
//! Each test binary compiles this module on its own and uses only part of it, so unused items
//! are expected in some binaries.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

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
