//! Sessions of the web GUI's server (`ludus web`), with the real ludus binary as its engine:
//! two sessions playing two games at once, the bound on sessions (503), unknown sessions
//! (404), unused sessions ended with their engine processes, and each browser's event stream
//! carrying its own sessions' events only.

use std::io::{BufRead, BufReader, Read};
use std::process::Child;
use std::time::{Duration, Instant};

use ludus::gui::web::{WebConfig, WebServer};
use serde_json::{Value, json};

use crate::common::web::{agent, get_text, ludus, moves, post_json, spawn_web};

/// Requests to one server, by path (the caller adds the ids).
struct Http {
    base: String,
    agent: ureq::Agent,
}

impl Http {
    fn to(base: String) -> Http {
        Http {
            base,
            agent: agent(),
        }
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, text) = get_text(&self.agent, &format!("{}{path}", self.base));
        (status, serde_json::from_str(&text).expect("JSON"))
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        post_json(&self.agent, &format!("{}{path}", self.base), &body)
    }

    fn ok(&self, path: &str, body: Value) -> Value {
        let (status, state) = self.post(path, body);
        assert_eq!(status, 200, "POST {path}: {state}");
        state
    }

    /// A new session (of browser `client`, if given): its id.
    fn session(&self, client: Option<&str>) -> String {
        let path = match client {
            Some(c) => format!("/api/session?c={c}"),
            None => "/api/session".to_string(),
        };
        let state = self.ok(&path, json!({}));
        state["session"].as_str().expect("a session id").to_string()
    }

    /// Polls `GET path` until `done` holds for its status and answer.
    fn wait_for(&self, path: &str, what: &str, done: impl Fn(u16, &Value) -> bool) -> Value {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let (status, answer) = self.get(path);
            if done(status, &answer) {
                return answer;
            }
            let mut shown = answer.to_string();
            shown.truncate(300);
            assert!(
                Instant::now() < until,
                "timed out waiting for {what}: {shown}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn config() -> WebConfig {
    WebConfig {
        port: 0,
        engine: Some(ludus()),
        ..WebConfig::default()
    }
}

fn start(config: WebConfig) -> (WebServer, Http) {
    let server = WebServer::start(config).expect("the server starts");
    let http = Http::to(format!("http://{}", server.addr()));
    (server, http)
}

#[test]
fn two_sessions_play_two_games_at_once_without_interference() {
    let (server, http) = start(config());
    let a = http.session(None);
    let b = http.session(None);
    assert_ne!(a, b);
    assert_eq!(a.len(), 32, "128 bits in hex: {a}");
    // Sight by two people in one, Tactigon against the engine in the other, played at once.
    let sight = std::thread::scope(|scope| {
        let sight = scope.spawn(|| {
            http.ok(
                &format!("/api/new?s={a}"),
                json!({"game": "sight", "mode": "hh"}),
            );
            for (ply, mv) in ["c3", "c4", "b2"].iter().enumerate() {
                http.ok(&format!("/api/move?s={a}"), json!({"move": mv, "ply": ply}));
            }
            http.ok(&format!("/api/undo?s={a}"), json!({}))
        });
        let new = json!({"game": "tactigon", "mode": "he", "movetime": 50, "level": "greedy"});
        http.ok(&format!("/api/new?s={b}"), new);
        http.ok(
            &format!("/api/move?s={b}"),
            json!({"move": "d6-c11", "ply": 0}),
        );
        sight.join().expect("no panic")
    });
    assert_eq!(moves(&sight), ["c3", "c4"]);
    assert_eq!(sight["fen"], "5:x5/x2,b,x2/x2,w,x2/x5/x5 w");
    assert_eq!(sight["redo"], 1);
    let tactigon = http.wait_for(
        &format!("/api/state?s={b}"),
        "the engine's reply",
        |_, s| s["moves"].as_array().map(Vec::len) == Some(2),
    );
    assert_eq!(tactigon["game"], "tactigon");
    assert_eq!(moves(&tactigon)[0], "d6-c11");
    assert_eq!(tactigon["human_to_move"], true);
    assert_eq!(tactigon["session"], b.as_str());
    // The first session is as it was left.
    let (status, again) = http.get(&format!("/api/state?s={a}"));
    assert_eq!(status, 200);
    assert_eq!(again["game"], "sight");
    assert_eq!(moves(&again), ["c3", "c4"]);
    assert_eq!(again["fen"], "5:x5/x2,b,x2/x2,w,x2/x5/x5 w");
    assert_eq!(
        again["seq"], sight["seq"],
        "no change came from the other session"
    );
    let (_, status) = http.get("/api/server");
    assert_eq!(status["sessions"], 2);
    server.stop();
}

#[test]
fn the_bound_on_sessions_is_answered_with_503_and_a_message() {
    let (server, http) = start(WebConfig {
        max_sessions: 2,
        ..config()
    });
    let a = http.session(None);
    http.session(None);
    let (status, refused) = http.post("/api/session", json!({}));
    assert_eq!(status, 503);
    let message = refused["error"].as_str().expect("a message");
    assert!(message.contains("most games at once (2,"), "{message}");
    assert!(message.contains("--max-sessions"), "{message}");
    assert!(
        message.contains("(after 2.5 min without use); this page tries again by itself"),
        "{message}"
    );
    let (_, counts) = http.get("/api/server");
    assert_eq!(
        (counts["sessions"].as_u64(), counts["max_sessions"].as_u64()),
        (Some(2), Some(2))
    );
    // The sessions there still play.
    let state = http.ok(&format!("/api/move?s={a}"), json!({"move": "c3", "ply": 0}));
    assert_eq!(moves(&state)[0], "c3");
    server.stop();
}

#[test]
fn unknown_or_missing_sessions_and_bad_ids_are_clear_errors() {
    let (server, http) = start(config());
    let unknown = "0123456789abcdef0123456789abcdef";
    for path in [
        format!("/api/state?s={unknown}"),
        format!("/api/export?s={unknown}"),
        format!("/api/events?s={unknown}"),
        "/api/state?s=nonsense".to_string(),
    ] {
        let (status, answer) = http.get(&path);
        assert_eq!(status, 404, "{path}: {answer}");
        let message = answer["error"].as_str().expect("a message");
        assert!(message.contains("no such session"), "{message}");
    }
    let (status, answer) = http.post(&format!("/api/move?s={unknown}"), json!({"move": "c3"}));
    assert_eq!(status, 404, "{answer}");
    let (status, answer) = http.get("/api/state");
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().is_some_and(|m| m.contains("?s=")),
        "{answer}"
    );
    let (status, answer) = http.get("/api/events");
    assert_eq!(status, 400, "{answer}");
    let (status, answer) = http.post("/api/session?c=XYZ", json!({}));
    assert_eq!(status, 400);
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|m| m.contains("32 lowercase hex")),
        "{answer}"
    );
    server.stop();
}

/// A `ludus web` process, ended when dropped (also when a test fails).
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `ludus web` as a process of its own with `args`, and its address.
fn spawn_server(args: &[&str]) -> (Process, String) {
    let (child, base) = spawn_web(args);
    (Process(child), base)
}

/// The processes whose parent is `pid` (Linux: read from /proc), zombies included.
fn children(pid: u32) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid …; comm may hold spaces, so read after its last ')'.
            let after = stat
                .rsplit_once(')')
                .map(|(_, rest)| rest)
                .unwrap_or_default();
            after.split_whitespace().nth(1) == Some(pid.to_string().as_str())
        })
        .collect()
}

#[test]
fn an_unused_session_ends_and_its_engine_processes_stop() {
    // 5 s: long enough that both sessions are made and counted before the first can end on
    // a loaded machine (1 s was not).
    let (server, base) = spawn_server(&["--idle-timeout", "5"]);
    let http = Http::to(base.clone());
    let pid = server.0.id();
    let idle = http.session(None);
    let followed = http.session(None);
    let followed_at = Instant::now();
    assert_eq!(children(pid).len(), 2, "one query engine per session");
    let (_, counts) = http.get("/api/server");
    assert_eq!(
        (counts["sessions"].as_u64(), counts["engines"].as_u64()),
        (Some(2), Some(2))
    );
    // A program follows one session's events: that session stays while it listens.
    let mut events = agent()
        .get(format!("{base}/api/events?s={followed}"))
        .call()
        .expect("the event stream opens");
    assert_eq!(events.status().as_u16(), 200);
    // Watched by the server's counts only: asking for the session's state would use it.
    http.wait_for("/api/server", "the unused session to end", |_, c| {
        c["sessions"] == 1
    });
    let (status, gone) = http.get(&format!("/api/state?s={idle}"));
    assert_eq!(status, 404);
    assert!(
        gone["error"]
            .as_str()
            .is_some_and(|m| m.contains("no such session"))
    );
    // Past the idle time of the followed session too: it is kept because it is followed.
    std::thread::sleep(
        (followed_at + Duration::from_secs(6)).saturating_duration_since(Instant::now()),
    );
    let (status, _) = http.get(&format!("/api/state?s={followed}"));
    assert_eq!(status, 200, "the followed session is kept");
    let (_, counts) = http.get("/api/server");
    assert_eq!(
        (counts["sessions"].as_u64(), counts["engines"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        children(pid).len(),
        1,
        "the ended session's engine is gone: {:?}",
        children(pid)
    );
    // The stream closes: the session ends too, and no engine process is left, not even a
    // zombie.
    let mut reader = events.body_mut().as_reader();
    let mut first = [0u8; 16];
    reader
        .read_exact(&mut first)
        .expect("the stream's first bytes");
    drop(reader);
    drop(events);
    http.wait_for("/api/server", "the unfollowed session to end", |_, c| {
        c["sessions"] == 0
    });
    assert_eq!(http.get(&format!("/api/state?s={followed}")).0, 404);
    let until = Instant::now() + Duration::from_secs(10);
    while !children(pid).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = children(pid);
    let (_, counts) = http.get("/api/server");
    drop(server);
    assert!(left.is_empty(), "engine processes left: {left:?}");
    assert_eq!(
        (counts["sessions"].as_u64(), counts["engines"].as_u64()),
        (Some(0), Some(0))
    );
}

#[test]
fn a_session_whose_last_tab_left_ends_soon_and_one_still_shown_stays() {
    let (server, http) = start(config());
    let (t1, t2) = (
        "11111111111111111111111111111111",
        "22222222222222222222222222222222",
    );
    let alone = http.session(None);
    let shared = http.session(None);
    http.get(&format!("/api/state?s={alone}&t={t1}"));
    http.get(&format!("/api/state?s={shared}&t={t1}"));
    http.get(&format!("/api/state?s={shared}&t={t2}"));
    http.ok(&format!("/api/leave?s={alone}&t={t1}"), json!({}));
    http.ok(&format!("/api/leave?s={shared}&t={t1}"), json!({}));
    let started = Instant::now();
    http.wait_for(
        &format!("/api/state?s={alone}"),
        "the left session to end",
        |s, _| s == 404,
    );
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "ended after the grace, not the idle time"
    );
    let (status, _) = http.get(&format!("/api/state?s={shared}"));
    assert_eq!(status, 200, "another tab still shows it");
    server.stop();
}

/// Reads an event stream until `done` holds for an event; returns every event read, as
/// (name, data).
fn read_events(
    reader: &mut impl BufRead,
    done: impl Fn(&str, &Value) -> bool,
) -> Vec<(String, Value)> {
    let mut seen = Vec::new();
    let mut name = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            panic!("the stream ended; events so far: {seen:?}");
        }
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.trim().to_string();
        } else if let Some(data) = line.strip_prefix("data: ") {
            let data: Value = serde_json::from_str(data.trim()).expect("JSON");
            let finished = done(&name, &data);
            seen.push((name.clone(), data));
            if finished {
                return seen;
            }
        }
    }
}

#[test]
fn each_browser_stream_carries_its_own_sessions_events_only() {
    let (server, http) = start(config());
    let (ca, cb) = (
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    );
    let a = http.session(Some(ca));
    let b = http.session(Some(cb));
    let open = |client: &str| {
        let response = agent()
            .get(format!("{}/api/events?c={client}", http.base))
            .call()
            .expect("the event stream opens");
        assert_eq!(response.status().as_u16(), 200);
        BufReader::new(response.into_body().into_reader())
    };
    let (mut stream_a, mut stream_b) = (open(ca), open(cb));
    // Both play at once: browser A's game with the engine (its analysis streams too).
    let new = json!({"game": "sight", "mode": "he", "movetime": 50, "level": "greedy"});
    http.ok(&format!("/api/new?s={a}"), new);
    http.ok(&format!("/api/move?s={a}"), json!({"move": "c3", "ply": 0}));
    http.ok(
        &format!("/api/new?s={b}"),
        json!({"game": "isaac", "mode": "hh"}),
    );
    http.ok(
        &format!("/api/move?s={b}"),
        json!({"move": "7v00", "ply": 0}),
    );
    let seen_a = read_events(&mut stream_a, |name, data| {
        name == "state" && data["moves"].as_array().map(Vec::len) == Some(2)
    });
    let seen_b = read_events(&mut stream_b, |name, data| {
        name == "state" && data["moves"] == json!(["7v00"])
    });
    assert!(
        seen_a.iter().any(|(name, _)| name == "info"),
        "the engine's analysis"
    );
    for (name, data) in &seen_a {
        assert_eq!(data["session"], a.as_str(), "{name} on A's stream: {data}");
    }
    for (name, data) in &seen_b {
        assert_eq!(data["session"], b.as_str(), "{name} on B's stream: {data}");
    }
    assert!(
        seen_b.iter().all(|(name, _)| name == "state"),
        "no analysis in B's game"
    );
    // A link opened in browser B registers the session there: then B gets its events too.
    http.get(&format!("/api/state?s={a}&c={cb}"));
    http.ok(&format!("/api/undo?s={a}"), json!({}));
    // A's state after the undo reaches B's stream (within the client's 30 s, or the read
    // fails); A's states of before the undo (its evaluation search ending) may come first.
    read_events(&mut stream_b, |name, data| {
        name == "state" && data["session"] == a.as_str() && moves(data).is_empty()
    });
    server.stop();
}
