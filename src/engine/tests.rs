//! The worker's table work (issue 57 F2): a `Hash` change is in place when the worker says so,
//! a job sent meanwhile does not wait for it, a newer change supersedes a queued one, and
//! closing the engine stops a commit at once.

use std::time::Duration;

use crossbeam_channel::Receiver;

use super::{Engine, Event, Job, Report};
use crate::game::Game;
use crate::game::tactigon::{Tactigon, TactigonRules};
use crate::search::SearchTables;

/// A worker on Tactigon with a one-MiB table, and its events.
fn engine() -> (Engine<Tactigon>, Receiver<Event>) {
    let (events, received) = crossbeam_channel::unbounded();
    let tables = SearchTables::new(1, 1 << 10).expect("a small table");
    (Engine::start(events, tables, 1, true), received)
}

/// The events up to and including the first that `last` accepts (at most a minute: a
/// hang bound, not a speed figure).
fn events_until(received: &Receiver<Event>, last: impl Fn(&Event) -> bool) -> Vec<Event> {
    let mut seen = Vec::new();
    loop {
        let event = received
            .recv_timeout(Duration::from_secs(60))
            .expect("the worker answers");
        let done = last(&event);
        seen.push(event);
        if done {
            return seen;
        }
    }
}

fn is_ready(e: &Event) -> bool {
    matches!(e, Event::HashReady { .. })
}

#[test]
fn a_job_sent_during_a_commit_does_not_wait_for_it() {
    let (mut engine, received) = engine();
    engine.resize_hash(1024);
    assert!(engine.hash_pending());
    let start = Tactigon::start(&TactigonRules::default());
    engine.submit(Job::Perft {
        root: start,
        depth: 2,
    });
    // The perft's final report comes first: the commit paused for it, and resumed after.
    let seen = events_until(&received, is_ready);
    let done = seen.iter().position(|e| {
        matches!(
            e,
            Event::Worker {
                report: Report::PerftDone { .. },
                ..
            }
        )
    });
    assert!(done.is_some(), "the perft answered");
    assert_eq!(done.map(|d| d + 1 < seen.len()), Some(true));
    let Some(Event::HashReady { generation }) = seen.last() else {
        unreachable!("the last event is the table's")
    };
    engine.hash_ready(*generation);
    assert!(!engine.hash_pending());
}

#[test]
fn queued_hash_changes_commit_once_the_newest() {
    let (mut engine, received) = engine();
    for _ in 0..5 {
        engine.resize_hash(4096);
        engine.resize_hash(1);
    }
    let seen = events_until(&received, is_ready);
    let ready: Vec<u64> = seen
        .iter()
        .filter_map(|e| match e {
            Event::HashReady { generation } => Some(*generation),
            _ => None,
        })
        .collect();
    assert_eq!(
        ready,
        [10],
        "only the newest change is committed and announced"
    );
    engine.hash_ready(10);
    assert!(!engine.hash_pending());
    // Nothing else follows: the superseded changes were skipped, not committed.
    assert!(received.recv_timeout(Duration::from_millis(200)).is_err());
}

#[test]
fn closing_the_engine_stops_a_commit_at_once() {
    let (engine, received) = engine();
    engine.resize_hash(4096);
    // Dropping joins the worker: it returns once the commit has paused for the closing.
    drop(engine);
    let after: Vec<Event> = received.try_iter().collect();
    assert!(
        !after.iter().any(is_ready),
        "the 4 GiB table was never finished"
    );
}
