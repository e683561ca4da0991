//! Server-sent events. A stream (`GET /api/events`) follows either one browser — `?c=CLIENT`:
//! every event of every session registered to that client id, which is how the page gets
//! its events, one stream per browser whatever the number of tabs — or one session —
//! `?s=SESSION`, for programs. Events are the session's state after each change
//! (`event: state`) and the engine's `info` lines as they arrive (`event: info`); each
//! event's JSON names its session (`"session": …`), so a tab keeps only its own.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TrySendError};
use serde_json::{Map, Value, json};

use crate::client::{Info, ReportedScore};

/// Events a slow page may have queued before it is dropped (it reconnects and resyncs).
const QUEUE: usize = 512;

/// Who a stream follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Follow {
    /// Every session registered to this client id (a browser).
    Client(String),
    /// One session.
    Session(String),
}

struct Stream {
    number: u64,
    follow: Follow,
    tx: Sender<String>,
}

#[derive(Default)]
struct Streams {
    next: u64,
    list: Vec<Stream>,
}

/// The open event streams.
pub struct Hub {
    streams: Mutex<Option<Streams>>,
}

/// One open stream's receiving end; dropping it takes the stream off the hub.
pub struct Subscription {
    hub: Arc<Hub>,
    number: u64,
    rx: Receiver<String>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(streams) = self.hub.lock().as_mut() {
            streams.list.retain(|s| s.number != self.number);
        }
    }
}

impl Hub {
    /// A hub with no streams yet.
    pub fn new() -> Hub {
        Hub {
            streams: Mutex::new(Some(Streams::default())),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Streams>> {
        self.streams.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new stream that follows `follow`; `None` once the hub is closed.
    pub fn subscribe(hub: &Arc<Hub>, follow: Follow) -> Option<Subscription> {
        let (tx, rx) = crossbeam_channel::bounded(QUEUE);
        let mut guard = hub.lock();
        let streams = guard.as_mut()?;
        streams.next += 1;
        let number = streams.next;
        streams.list.push(Stream { number, follow, tx });
        Some(Subscription {
            hub: Arc::clone(hub),
            number,
            rx,
        })
    }

    /// Sends one event of `session` (`event: <name>`, the JSON as data) to the streams that
    /// follow the session or one of `clients`, the client ids registered to it; streams too
    /// far behind are dropped.
    pub fn publish(&self, session: &str, clients: &[String], name: &str, data: &Value) {
        let text = format!("event: {name}\ndata: {data}\n\n");
        if let Some(streams) = self.lock().as_mut() {
            streams.list.retain(|stream| {
                let wanted = match &stream.follow {
                    Follow::Session(s) => s == session,
                    Follow::Client(c) => clients.contains(c),
                };
                !wanted
                    || match stream.tx.try_send(text.clone()) {
                        Ok(()) => true,
                        Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
                    }
            });
        }
    }

    /// Whether a stream follows `session` by its id.
    pub fn followed(&self, session: &str) -> bool {
        self.lock().as_ref().is_some_and(|streams| {
            streams
                .list
                .iter()
                .any(|s| matches!(&s.follow, Follow::Session(id) if id == session))
        })
    }

    /// Ends every stream and refuses new ones.
    pub fn close(&self) {
        *self.lock() = None;
    }
}

impl Default for Hub {
    fn default() -> Hub {
        Hub::new()
    }
}

/// Writes an event stream to `out` until the page goes away or the hub closes: the response
/// head, `first` (the current states), then every event of `events`, with a comment line
/// every `heartbeat` when idle (so a closed page is noticed).
pub fn stream(
    mut out: Box<dyn Write + Send>,
    first: String,
    events: Subscription,
    heartbeat: Duration,
) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
                Connection: close\r\nX-Accel-Buffering: no\r\n\r\nretry: 1000\n\n";
    let mut send = |text: &str| out.write_all(text.as_bytes()).and_then(|()| out.flush());
    if send(head).is_err() || send(&first).is_err() {
        return;
    }
    loop {
        let sent = match events.rx.recv_timeout(heartbeat) {
            Ok(text) => send(&text),
            Err(RecvTimeoutError::Timeout) => send(": ping\n\n"),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if sent.is_err() {
            return;
        }
    }
}

/// An `info` line as JSON: `depth`, `seldepth`, `multipv`, `nodes`, `nps`, `time`, `hashfull`
/// as numbers, `score` as `{"cp": n}` or `{"mate": n}`, `pv` as a list of moves, `string` as
/// the free text of `info string …`; fields the line lacks are left out, but for `wdl`: with
/// a score there is always `wdl`, the side to move's chances `[win, draw, loss]` in per mille
/// as the engine gave them beside the score (`UCI_ShowWDL`), or `null` when it gave none (or
/// none that could be read).
pub fn info_json(info: &Info) -> Value {
    let mut out = Map::new();
    let numbers = [
        ("depth", info.depth),
        ("seldepth", info.seldepth),
        ("multipv", info.multipv),
        ("nodes", info.nodes),
        ("nps", info.nps),
        ("time", info.time),
        ("hashfull", info.hashfull),
    ];
    for (name, value) in numbers {
        if let Some(n) = value {
            out.insert(name.into(), json!(n));
        }
    }
    match info.score {
        Some(ReportedScore::Cp(n)) => out.insert("score".into(), json!({ "cp": n })),
        Some(ReportedScore::Mate(n)) => out.insert("score".into(), json!({ "mate": n })),
        None => None,
    };
    if info.score.is_some() {
        out.insert("wdl".into(), json!(info.wdl));
    }
    if let Some(pv) = &info.pv {
        out.insert("pv".into(), json!(pv));
    }
    if let Some(text) = &info.string {
        out.insert("string".into(), json!(text));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_become_json() {
        let parse_info = |line: &str| info_json(&Info::parse(line).expect("an info line"));
        let info = parse_info(
            "info depth 5 seldepth 6 score cp 23 nodes 7752 nps 3876000 time 2 hashfull 0 \
             pv c5 b2 a2",
        );
        assert_eq!(info["depth"], 5);
        assert_eq!(info["score"]["cp"], 23);
        assert_eq!(info["nps"], 3876000);
        assert_eq!(info["pv"], json!(["c5", "b2", "a2"]));
        assert_eq!(info["wdl"], Value::Null, "a score without chances");
        let mate = parse_info("info depth 1 score mate -2 pv d4-e4");
        assert_eq!(mate["score"]["mate"], -2);
        let text = parse_info("info string error illegal-move move 1 e5");
        assert_eq!(text["string"], "error illegal-move move 1 e5");
        assert_eq!(parse_info("info depth x"), json!({}));
    }

    #[test]
    fn the_chances_go_beside_the_score() {
        let parse_info = |line: &str| info_json(&Info::parse(line).expect("an info line"));
        let info = parse_info("info depth 5 score cp 23 wdl 512 300 188 nodes 7752 pv c5");
        assert_eq!(
            info,
            json!({
                "depth": 5, "score": { "cp": 23 }, "wdl": [512, 300, 188], "nodes": 7752,
                "pv": ["c5"]
            })
        );
        let lost = parse_info("info depth 1 score mate -2 wdl 0 0 1000 pv d4-e4");
        assert_eq!(lost["wdl"], json!([0, 0, 1000]));
        // Malformed chances are none; a line without a score has no `wdl` at all.
        let bad = parse_info("info depth 1 score cp 3 wdl 600 600 600 pv c3");
        assert_eq!(bad["wdl"], Value::Null);
        assert_eq!(bad["pv"], json!(["c3"]));
        assert!(parse_info("info depth 2 nodes 5").get("wdl").is_none());
    }

    #[test]
    fn the_hub_delivers_to_the_streams_that_follow_a_session() {
        let hub = Arc::new(Hub::new());
        let mine = Hub::subscribe(&hub, Follow::Client("c1".into())).expect("open hub");
        let other = Hub::subscribe(&hub, Follow::Client("c2".into())).expect("open hub");
        let direct = Hub::subscribe(&hub, Follow::Session("s1".into())).expect("open hub");
        let gone = Hub::subscribe(&hub, Follow::Session("s1".into())).expect("open hub");
        drop(gone);
        assert!(hub.followed("s1"));
        assert!(!hub.followed("s2"));
        hub.publish("s1", &["c1".into()], "state", &json!({"seq": 1}));
        let text = Some("event: state\ndata: {\"seq\":1}\n\n");
        assert_eq!(mine.rx.try_recv().ok().as_deref(), text);
        assert_eq!(direct.rx.try_recv().ok().as_deref(), text);
        assert!(other.rx.try_recv().is_err(), "another browser's stream");
        drop(direct);
        assert!(!hub.followed("s1"));
        hub.close();
        assert!(Hub::subscribe(&hub, Follow::Session("s1".into())).is_none());
        assert!(mine.rx.recv().is_err());
    }
}
