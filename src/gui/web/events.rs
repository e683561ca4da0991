//! Server-sent events: every open page holds one `GET /api/events` stream and receives the
//! game's state after each change (`event: state`) and the engine's `info` lines as they
//! arrive (`event: info`), so the analysis panel updates live.

use std::io::Write;
use std::sync::Mutex;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TrySendError};
use serde_json::{Map, Value, json};

/// Events a slow page may have queued before it is dropped (it reconnects and resyncs).
const QUEUE: usize = 512;

/// How often an idle stream gets a comment line, so a closed page is noticed.
const HEARTBEAT: Duration = Duration::from_secs(15);

/// The open event streams.
pub struct Hub {
    subscribers: Mutex<Option<Vec<Sender<String>>>>,
}

impl Hub {
    /// A hub with no streams yet.
    pub fn new() -> Hub {
        Hub {
            subscribers: Mutex::new(Some(Vec::new())),
        }
    }

    /// A new stream's receiving end; `None` once the hub is closed.
    pub fn subscribe(&self) -> Option<Receiver<String>> {
        let (tx, rx) = crossbeam_channel::bounded(QUEUE);
        let mut subscribers = self.subscribers.lock().ok()?;
        subscribers.as_mut()?.push(tx);
        Some(rx)
    }

    /// Sends one event (`event: <name>`, the JSON as data) to every stream; streams that are
    /// gone or too far behind are dropped.
    pub fn publish(&self, name: &str, data: &Value) {
        let text = format!("event: {name}\ndata: {data}\n\n");
        if let Ok(mut subscribers) = self.subscribers.lock()
            && let Some(list) = subscribers.as_mut()
        {
            list.retain(|tx| match tx.try_send(text.clone()) {
                Ok(()) => true,
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
            });
        }
    }

    /// Ends every stream and refuses new ones.
    pub fn close(&self) {
        if let Ok(mut subscribers) = self.subscribers.lock() {
            *subscribers = None;
        }
    }
}

impl Default for Hub {
    fn default() -> Hub {
        Hub::new()
    }
}

/// Writes an event stream to `out` until the page goes away or the hub closes: the response
/// head, `first` (the current state), then every event of `rx`, with a comment line when idle.
pub fn stream(mut out: Box<dyn Write + Send>, first: String, rx: Receiver<String>) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\
                Connection: close\r\nX-Accel-Buffering: no\r\n\r\nretry: 1000\n\n";
    let mut send = |text: &str| out.write_all(text.as_bytes()).and_then(|()| out.flush());
    if send(head).is_err() || send(&first).is_err() {
        return;
    }
    loop {
        let sent = match rx.recv_timeout(HEARTBEAT) {
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
/// the free text of `info string …`. Unknown words are skipped.
pub fn parse_info(line: &str) -> Value {
    let mut out = Map::new();
    let mut words = line.split_whitespace().skip(1).peekable();
    while let Some(word) = words.next() {
        match word {
            "string" => {
                let rest: Vec<&str> = words.by_ref().collect();
                out.insert("string".into(), json!(rest.join(" ")));
            }
            "pv" => {
                let moves: Vec<&str> = words.by_ref().collect();
                out.insert("pv".into(), json!(moves));
            }
            "score" => {
                let kind = words.next();
                let value = words.next().and_then(|v| v.parse::<i64>().ok());
                if let (Some(kind @ ("cp" | "mate")), Some(value)) = (kind, value) {
                    out.insert("score".into(), json!({ kind: value }));
                }
                if matches!(words.peek(), Some(&("lowerbound" | "upperbound"))) {
                    words.next();
                }
            }
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "time" | "hashfull" => {
                if let Some(n) = words.next().and_then(|v| v.parse::<u64>().ok()) {
                    out.insert(word.into(), json!(n));
                }
            }
            _ => {}
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_become_json() {
        let info = parse_info(
            "info depth 5 seldepth 6 score cp 23 nodes 7752 nps 3876000 time 2 hashfull 0 \
             pv c5 b2 a2",
        );
        assert_eq!(info["depth"], 5);
        assert_eq!(info["score"]["cp"], 23);
        assert_eq!(info["nps"], 3876000);
        assert_eq!(info["pv"], json!(["c5", "b2", "a2"]));
        let mate = parse_info("info depth 1 score mate -2 pv d4-e4");
        assert_eq!(mate["score"]["mate"], -2);
        let text = parse_info("info string error illegal-move move 1 e5");
        assert_eq!(text["string"], "error illegal-move move 1 e5");
        assert_eq!(parse_info("info depth x"), json!({}));
    }

    #[test]
    fn the_hub_delivers_to_every_stream_and_drops_closed_ones() {
        let hub = Hub::new();
        let a = hub.subscribe().expect("open hub");
        let b = hub.subscribe().expect("open hub");
        drop(b);
        hub.publish("state", &json!({"seq": 1}));
        assert_eq!(
            a.try_recv().ok().as_deref(),
            Some("event: state\ndata: {\"seq\":1}\n\n")
        );
        hub.close();
        assert!(hub.subscribe().is_none());
        assert!(a.recv().is_err());
    }
}
