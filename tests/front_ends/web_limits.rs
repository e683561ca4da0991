//! The web GUI's server (`ludus web`) against clients that misbehave: a huge request head, a
//! body over the limit, requests sent slowly or never finished, and other web sites posting
//! to it. Each is refused or cut off while the server keeps serving everyone else.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Child;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ludus::gui::web::{WebConfig, WebServer};

use crate::common::web::{ludus, spawn_web};

/// Far longer than any limit of the server: a wait that ends sooner is the server's doing.
const PATIENCE: Duration = Duration::from_secs(30);

/// Sends `bytes` from another thread (stopping when the server closes the connection) and
/// returns what the server answers until it closes the connection.
fn exchange(addr: SocketAddr, bytes: Vec<u8>) -> String {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(PATIENCE))
        .expect("a read timeout");
    let mut writer = stream.try_clone().expect("a second handle");
    let sender = std::thread::spawn(move || {
        for chunk in bytes.chunks(64 * 1024) {
            if writer.write_all(chunk).is_err() {
                return;
            }
        }
    });
    // What arrived before an error (a reset after the answer) is kept.
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let _ = sender.join();
    String::from_utf8_lossy(&answer).into_owned()
}

/// The first line the server answers to `bytes`.
fn status_line(addr: SocketAddr, bytes: Vec<u8>) -> String {
    exchange(addr, bytes)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// A plain `GET` by hand: the status line.
fn get(addr: SocketAddr, path: &str) -> String {
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    status_line(addr, request.into_bytes())
}

/// A `POST` of `body` with extra header lines (ending in CRLF), by hand: the whole answer.
fn post_with(addr: SocketAddr, path: &str, extra: &str, body: &str) -> String {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n{extra}\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    exchange(addr, request.into_bytes())
}

/// A `POST` of `body` as JSON with extra header lines, by hand: the status line.
fn post(addr: SocketAddr, path: &str, extra: &str, body: &str) -> String {
    let extra = format!("Content-Type: application/json\r\n{extra}");
    let answer = post_with(addr, path, &extra, body);
    answer.lines().next().unwrap_or_default().to_string()
}

/// A new session's id, asked for by hand.
fn session(addr: SocketAddr) -> String {
    let answer = post_with(
        addr,
        "/api/session",
        "Content-Type: application/json\r\n",
        "{}",
    );
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    let state: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    match state["session"].as_str() {
        Some(id) => id.to_string(),
        None => panic!("no session: {answer}"),
    }
}

fn start() -> WebServer {
    WebServer::start(WebConfig {
        port: 0,
        engine: Some(ludus()),
        ..WebConfig::default()
    })
    .expect("the server starts")
}

/// `ludus web --port 0` as a process of its own (so its memory can be read) and its address.
fn spawn_server() -> (Child, SocketAddr) {
    let (mut child, base) = spawn_web(&[]);
    match base.strip_prefix("http://").and_then(|a| a.parse().ok()) {
        Some(addr) => (child, addr),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ludus web listens at {base:?}, not an address");
        }
    }
}

/// The resident memory of process `pid` in KiB (Linux), if it can be read.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_huge_request_head_is_refused_without_the_server_holding_it() {
    let (mut child, addr) = spawn_server();
    let state = format!("/api/state?s={}", session(addr));
    assert!(get(addr, &state).starts_with("HTTP/1.1 200"));
    let before = rss_kib(child.id());

    let mut request = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ".to_vec();
    request.resize(request.len() + (64 << 20), b'a');
    request.extend_from_slice(b"\r\n\r\n");
    let answer = status_line(addr, request);
    let many: String = (0..200).map(|i| format!("X-H{i}: 1\r\n")).collect();
    let many = format!("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n{many}\r\n");
    let too_many = status_line(addr, many.into_bytes());
    let after = rss_kib(child.id());
    let still = get(addr, &state);
    let _ = child.kill();
    let _ = child.wait();

    assert!(
        answer.starts_with("HTTP/1.1 431"),
        "64 MiB head: {answer:?}"
    );
    assert!(
        too_many.starts_with("HTTP/1.1 431"),
        "200 fields: {too_many:?}"
    );
    assert!(
        still.starts_with("HTTP/1.1 200"),
        "served afterwards: {still:?}"
    );
    if let (Some(before), Some(after)) = (before, after) {
        let grown = after.saturating_sub(before);
        assert!(grown < 16 * 1024, "the server grew by {grown} KiB");
    }
}

#[test]
fn a_body_over_the_limit_is_refused_and_a_long_position_is_not() {
    let server = start();
    let addr = server.addr();
    let load = format!("/api/load?s={}", session(addr));
    let big = format!("{{\"text\": \"startpos moves {}\"}}", "c3 ".repeat(40_000));
    let refused = post(addr, &load, "", &big);
    let chunked = "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                   Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
    let chunked = status_line(addr, chunked.as_bytes().to_vec());
    // 60 KB, more than a pasted position of 2000 moves needs, is read in full.
    let long = format!("{{\"text\": \"startpos moves c3\"}}{}", " ".repeat(60_000));
    let loaded = post(addr, &load, "", &long);
    server.stop();

    assert!(
        refused.starts_with("HTTP/1.1 413"),
        "120 KB body: {refused:?}"
    );
    assert!(
        chunked.starts_with("HTTP/1.1 411"),
        "chunked body: {chunked:?}"
    );
    assert!(loaded.starts_with("HTTP/1.1 200"), "60 KB body: {loaded:?}");
}

/// Reads `stream` until the server closes it; false if it is still open after [`PATIENCE`].
fn closed_by_server(stream: &mut TcpStream) -> (bool, String) {
    let mut got = Vec::new();
    let mut chunk = [0u8; 1024];
    let until = Instant::now() + PATIENCE;
    while Instant::now() < until {
        match stream.read(&mut chunk) {
            Ok(0) => return (true, String::from_utf8_lossy(&got).into_owned()),
            Ok(n) => got.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {
                return (true, String::from_utf8_lossy(&got).into_owned());
            }
            Err(_) => break,
        }
    }
    (false, String::from_utf8_lossy(&got).into_owned())
}

#[test]
fn slow_or_unfinished_requests_are_cut_off_while_others_are_served() {
    let server = start();
    let addr = server.addr();
    // One client drips its head a byte at a time and never ends it; another sends a head
    // announcing 100 bytes of body and then only 10.
    let mut drip = TcpStream::connect(addr).expect("connects");
    drip.write_all(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .expect("sends");
    let mut half = TcpStream::connect(addr).expect("connects");
    half.write_all(
        b"POST /api/pause HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"paused\":",
    )
    .expect("sends");
    let done = Arc::new(AtomicBool::new(false));
    let dripper = {
        let (mut drip, done) = (drip.try_clone().expect("a second handle"), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) && drip.write_all(b"a").is_ok() {
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };

    let state = format!("/api/state?s={}", session(addr));
    let meanwhile = get(addr, &state);
    drip.set_read_timeout(Some(PATIENCE)).expect("a timeout");
    half.set_read_timeout(Some(PATIENCE)).expect("a timeout");
    let (drip_closed, drip_answer) = closed_by_server(&mut drip);
    let (half_closed, half_answer) = closed_by_server(&mut half);
    done.store(true, Ordering::SeqCst);
    let _ = dripper.join();
    let after = get(addr, &state);
    server.stop();

    assert!(meanwhile.starts_with("HTTP/1.1 200"), "{meanwhile:?}");
    assert!(drip_closed, "the dripping client is still connected");
    assert!(drip_answer.starts_with("HTTP/1.1 408"), "{drip_answer:?}");
    assert!(half_closed, "the half-sent body is still awaited");
    assert!(half_answer.starts_with("HTTP/1.1 408"), "{half_answer:?}");
    assert!(after.starts_with("HTTP/1.1 200"), "{after:?}");
}

#[test]
fn the_event_stream_outlives_the_request_time_limit() {
    let server = start();
    let addr = server.addr();
    let id = session(addr);
    let mut events = TcpStream::connect(addr).expect("connects");
    events
        .write_all(format!("GET /api/events?s={id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").as_bytes())
        .expect("sends");
    events.set_read_timeout(Some(PATIENCE)).expect("a timeout");
    let mut reader = BufReader::new(events);
    let mut line = String::new();
    reader.read_line(&mut line).expect("the stream opens");
    assert!(line.starts_with("HTTP/1.1 200"), "{line:?}");
    // Longer than the 5 s a request may take: the open stream must not be cut.
    std::thread::sleep(Duration::from_secs(7));
    let body = r#"{"game": "sight", "mode": "hh", "options": {"Sight_BoardSize": 3}}"#;
    let answer = post(addr, &format!("/api/new?s={id}"), "", body);
    let mut seen = false;
    while !seen {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => seen = line.starts_with("data: ") && line.contains("3:x3/x3/x3 w"),
        }
    }
    server.stop();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    assert!(seen, "the new game's state arrived on the stream");
}

#[test]
fn only_the_servers_own_page_and_programs_without_an_origin_change_the_game() {
    let server = start();
    let addr = server.addr();
    let port = addr.port();
    let id = session(addr);
    let new = format!("/api/new?s={id}");
    let state = format!("GET /api/state?s={id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    let small = r#"{"game": "sight", "mode": "hh", "options": {"Sight_BoardSize": 3}}"#;
    let json = "Content-Type: application/json\r\n";
    let foreign = [
        format!("{json}Origin: http://evil.example\r\n"),
        format!(
            "{json}Origin: http://127.0.0.1:{}\r\n",
            port.wrapping_add(1)
        ),
        format!("{json}Origin: https://127.0.0.1:{port}\r\n"),
        format!("{json}Origin: null\r\n"),
        // A form or `fetch` with no-cors: no preflight, the body as plain text.
        "Content-Type: text/plain\r\nOrigin: http://evil.example\r\n".to_string(),
        format!("{json}Origin: http://127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n"),
    ]
    .map(|extra| post_with(addr, &new, &extra, small));
    let preflight = exchange(
        addr,
        b"OPTIONS /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n\
          Access-Control-Request-Method: POST\r\n\r\n"
            .to_vec(),
    );
    let unchanged = exchange(addr, state.clone().into_bytes());
    let own = [
        format!("Origin: http://127.0.0.1:{port}\r\n"),
        format!("Origin: http://localhost:{port}\r\n"),
        String::new(),
    ]
    .map(|extra| post(addr, &new, &extra, small));
    let changed = exchange(addr, state.clone().into_bytes());
    server.stop();

    for answer in &foreign {
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        assert!(answer.contains("may not change the game"), "{answer}");
    }
    assert!(preflight.starts_with("HTTP/1.1 403"), "{preflight}");
    assert!(unchanged.contains("5:x5/x5/x5/x5/x5 w"), "{unchanged}");
    for answer in &own {
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    assert!(changed.contains("3:x3/x3/x3 w"), "{changed}");
}
