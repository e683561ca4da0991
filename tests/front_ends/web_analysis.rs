//! The web GUI's analysis tools through the server's API, with the real ludus binary as its
//! engine: the drawing of an earlier position (`GET /api/view`), the analysis mode
//! (`POST /api/analyse`: three lines streamed, stopped by the page, by a move, refused where
//! the game is over or while the engine is to move) and the game review (`POST /api/review`:
//! the scores `ludus analyse` gives, the thrown-away win marked `??`, bad limits refused).

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::web::{Client, start};

/// A game of two people with `moves` played; the state after each move.
fn play(c: &Client, game: &str, moves: &[&str]) -> Vec<Value> {
    c.ok("/api/new", json!({ "game": game, "mode": "hh" }));
    moves
        .iter()
        .enumerate()
        .map(|(ply, mv)| c.ok("/api/move", json!({ "move": mv, "ply": ply })))
        .collect()
}

/// The session's event stream, line by line, on a channel.
fn events(c: &Client) -> mpsc::Receiver<String> {
    let response = c
        .agent
        .get(c.url("/api/events"))
        .call()
        .expect("the event stream opens");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let reader = BufReader::new(response.into_body().into_reader());
        for line in reader.lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Waits (up to 30 s) for an `info` event for which `wanted` holds.
fn wait_info(rx: &mpsc::Receiver<String>, wanted: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    let mut name = String::new();
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let line = rx.recv_timeout(left).expect("an event in time");
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if let Some(data) = line.strip_prefix("data: ")
            && name == "info"
        {
            let info: Value = serde_json::from_str(data).expect("JSON");
            if wanted(&info) {
                return info;
            }
        }
    }
}

/// The sum of a `wdl` triple of per mille chances (each checked to be one), 0 if it is none.
fn chances(wdl: &Value) -> u64 {
    let Some(values) = wdl.as_array() else {
        return 0;
    };
    assert_eq!(values.len(), 3, "{wdl}");
    values
        .iter()
        .map(|v| v.as_u64().expect("a whole number"))
        .sum()
}

#[test]
fn every_score_comes_with_the_chances_of_the_side_to_move() {
    let (server, c) = start();
    let rx = events(&c);
    // The solved book: Black, to move after b2, is lost whatever it plays.
    play(&c, "sight", &["b2"]);
    c.ok("/api/hint", json!({}));
    let first = wait_info(&rx, |i| i["kind"] == "hint" && i["score"].is_object());
    assert_eq!(chances(&first["wdl"]), 1000, "{first}");
    let lost = wait_info(&rx, |i| i["kind"] == "hint" && i["score"]["mate"].is_i64());
    assert!(
        lost["score"]["mate"].as_i64().is_some_and(|n| n < 0),
        "{lost}"
    );
    assert_eq!(lost["wdl"], json!([0, 0, 1000]), "{lost}");
    assert_eq!(lost["p1"], false);
    c.wait_for(|s| s["hint"].is_string());
    // White to move after b2 e5 wins.
    c.ok("/api/move", json!({ "move": "e5", "ply": 1 }));
    c.ok("/api/hint", json!({}));
    let won = wait_info(&rx, |i| {
        i["kind"] == "hint" && i["ply"] == 2 && i["score"]["mate"].is_i64()
    });
    assert_eq!(won["wdl"], json!([1000, 0, 0]), "{won}");
    c.wait_for(|s| s["hint"].is_string());
    // Another game on the same engine: each of the analysis mode's three lines has its own
    // chances, whole per mille summing to 1000.
    play(&c, "tactigon", &["d6-c11"]);
    c.ok("/api/analyse", json!({ "ply": 1 }));
    for k in 1..=3 {
        let line = wait_info(&rx, |i| {
            i["kind"] == "analysis" && i["multipv"] == k && i["score"].is_object()
        });
        assert_eq!(chances(&line["wdl"]), 1000, "{line}");
    }
    c.ok("/api/analyse", json!({ "ply": null }));
    server.stop();
}

#[test]
fn an_earlier_position_is_drawn_as_it_was_shown() {
    let (server, c) = start();
    let states = play(&c, "sight", &["c3", "c4", "b2"]);
    let start = c.get("/api/view?ply=0");
    assert_eq!(start["fen"], "5:x5/x5/x5/x5/x5 w");
    assert_eq!(start["live"], false);
    assert_eq!(start["move"], Value::Null);
    assert_eq!(start["p1turn"], true);
    for (ply, state) in states.iter().enumerate() {
        let view = c.get(&format!("/api/view?ply={}", ply + 1));
        assert_eq!(view["fen"], state["fen"], "ply {}", ply + 1);
        assert_eq!(view["p1turn"], state["p1turn"]);
        // The very drawings the page showed when the move was made.
        assert_eq!(view["svg"], state["svg"], "ply {}", ply + 1);
        assert_eq!(view["svg_flipped"], state["svg_flipped"]);
        assert_eq!(view["move"], state["moves"][ply]);
        assert_eq!(view["live"], json!(ply == 2));
    }
    for bad in ["?ply=4", "?ply=x", "?ply=-1", ""] {
        let (status, body) = c.get_text(&format!("/api/view{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body.contains("ply"), "{body}");
    }
    let (status, _) = c.get_text("/api/view?ply=0&s=0123456789abcdef0123456789abcdef");
    assert_eq!(status, 404);
    server.stop();
}

#[test]
fn the_analysis_mode_searches_until_it_is_stopped() {
    let (server, c) = start();
    play(&c, "tactigon", &["d6-c11"]);
    let rx = events(&c);
    let state = c.ok("/api/analyse", json!({ "ply": 1 }));
    assert_eq!(state["analysis"], 1);
    let third = wait_info(&rx, |i| i["kind"] == "analysis" && i["multipv"] == 3);
    assert_eq!(
        (third["ply"].clone(), third["p1"].clone()),
        (json!(1), json!(false))
    );
    assert!(third["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    // An earlier position, then off: the engine is free for a hint at once.
    let state = c.ok("/api/analyse", json!({ "ply": 0 }));
    assert_eq!(state["analysis"], 0);
    wait_info(&rx, |i| i["kind"] == "analysis" && i["ply"] == 0);
    let state = c.ok("/api/analyse", json!({ "ply": null }));
    assert_eq!(state["analysis"], Value::Null);
    c.ok("/api/hint", json!({}));
    c.wait_for(|s| s["hint"].is_string());
    // A move stops it.
    c.ok("/api/analyse", json!({ "ply": 1 }));
    let state = c.ok("/api/move", json!({ "move": "d14-c11", "ply": 1 }));
    assert_eq!(state["analysis"], Value::Null);
    let (status, refused) = c.post("/api/analyse", json!({ "ply": 3 }));
    assert_eq!(status, 400, "{refused}");
    let (status, _) = c.post("/api/analyse", json!({ "ply": "one" }));
    assert_eq!(status, 400);

    // Where the game is over there is nothing to search; the position before is searched.
    play(&c, "sight", &[]);
    c.ok(
        "/api/load",
        json!({ "text": "fen 5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w moves d4-e4" }),
    );
    let (status, refused) = c.post("/api/analyse", json!({ "ply": 1 }));
    assert_eq!(status, 409);
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("game is over")),
        "{refused}"
    );
    assert_eq!(c.ok("/api/analyse", json!({ "ply": 0 }))["analysis"], 0);

    // While the engine thinks about its move, the analysis waits.
    c.ok(
        "/api/new",
        json!({ "game": "tactigon", "mode": "eh", "movetime": 3000 }),
    );
    let (status, refused) = c.post("/api/analyse", json!({ "ply": 0 }));
    assert_eq!(status, 409, "{refused}");
    assert_eq!(c.state()["can_analyse"], false);
    server.stop();
}

#[test]
fn a_review_scores_as_ludus_analyse_and_marks_the_thrown_away_win() {
    let (server, c) = start();
    play(&c, "sight", &[]);
    let (status, refused) = c.post("/api/review", json!({}));
    assert_eq!(status, 409, "no move yet: {refused}");
    // tests/referee/analyse.rs: b2 wins for White, e5, then a1 throws the win away.
    play(&c, "sight", &["b2", "e5", "a1"]);
    for bad in [
        json!({ "depth": 0 }),
        json!({ "depth": 4, "nodes": 1000 }),
        json!({ "movetime": 60000 }),
        json!({ "depth": "four" }),
        json!({ "plies": 4 }),
    ] {
        let (status, refused) = c.post("/api/review", bad.clone());
        assert_eq!(status, 400, "{bad}: {refused}");
    }
    let state = c.ok("/api/review", json!({ "depth": 4 }));
    assert_eq!(state["review"]["running"], true);
    assert_eq!(state["review"]["total"], 4);
    assert_eq!(state["can_analyse"], false);
    let (status, _) = c.post("/api/review", json!({ "depth": 4 }));
    assert_eq!(status, 409, "one review at a time");
    let state = c.wait_for(|s| s["review"]["running"] == false);
    let review = &state["review"];
    assert_eq!(review["error"], Value::Null, "{review}");
    assert_eq!(
        (review["done"].clone(), review["limit"].clone()),
        (json!(4), json!("depth 4"))
    );
    // The words of `ludus analyse`: 1. b2 {+M12, best d4 +M13} e5 {-M12, best d4 -M12}
    // (Black is lost: the search chooses its move, with the proven score).
    let moves = &review["moves"];
    assert_eq!(
        moves[0],
        json!({
            "mark": "", "verdict": "good", "loss": 0, "best": "d4", "best_score": "+M13",
            "best_wdl": [1000, 0, 0], "after": "+M12", "after_wdl": [1000, 0, 0]
        })
    );
    assert_eq!(moves[1]["best"], "d4");
    assert_eq!(moves[1]["mark"], "");
    assert_eq!(moves[2]["mark"], "??");
    assert_eq!(moves[2]["verdict"], "blunder");
    let graph = review["graph"].as_array().expect("a graph");
    assert_eq!(graph.len(), 4);
    // The chances beside each score, from the same side (the side to move): proven results
    // are certain.
    assert_eq!(
        graph[0],
        json!({ "score": { "mate": 13 }, "wdl": [1000, 0, 0], "p1": true })
    );
    assert_eq!(
        graph[1],
        json!({ "score": { "mate": -12 }, "wdl": [0, 0, 1000], "p1": false })
    );
    assert!(graph[3]["score"]["cp"].is_i64(), "{}", graph[3]);
    assert_eq!(chances(&graph[3]["wdl"]), 1000, "{}", graph[3]);
    // After the blunder, the mover's chances are the next position's turned round.
    let after = &moves[2]["after_wdl"];
    let next = &graph[3]["wdl"];
    assert_eq!(
        (after[0].clone(), after[1].clone(), after[2].clone()),
        (next[2].clone(), next[1].clone(), next[0].clone())
    );
    // The review stays while the game goes on from its moves, and goes when they are undone.
    let state = c.ok("/api/move", json!({ "move": "e1", "ply": 3 }));
    assert_eq!(state["review"]["moves"][2]["mark"], "??");
    c.ok("/api/undo", json!({}));
    let state = c.ok("/api/undo", json!({}));
    assert_eq!(state["review"], Value::Null);

    // A review can be stopped (Sight's book would answer at once: Tactigon searches).
    play(&c, "tactigon", &["d6-c11"]);
    c.ok("/api/review", json!({ "movetime": 2000 }));
    let state = c.ok("/api/review", json!({ "stop": true }));
    assert_eq!(state["review"], Value::Null);
    assert_eq!(state["can_analyse"], true);
    server.stop();
}

/// Issue 31.4: a review that is stopped, or dropped by a new game, stops the engine's search
/// at once: the next search on that engine (a hint of 50 ms) is answered well before the
/// review's search would have ended, where it waited for the review's search to end (57 s at depth 30, 7 s at 10 s).
#[test]
fn a_stopped_or_dropped_review_stops_the_engines_search() {
    let (server, c) = start();
    for drop_by in ["stop", "new game"] {
        c.ok(
            "/api/new",
            json!({ "game": "tactigon", "mode": "hh", "movetime": 50 }),
        );
        c.ok("/api/move", json!({ "move": "d6-c11", "ply": 0 }));
        c.ok("/api/review", json!({ "movetime": 10000 }));
        std::thread::sleep(std::time::Duration::from_millis(300));
        let dropped = std::time::Instant::now();
        if drop_by == "stop" {
            c.ok("/api/review", json!({ "stop": true }));
        } else {
            c.ok(
                "/api/new",
                json!({ "game": "tactigon", "mode": "hh", "movetime": 50 }),
            );
        }
        c.ok("/api/hint", json!({}));
        let state = c.wait_for(|s| !s["hint"].is_null());
        let waited = dropped.elapsed();
        assert!(state["hint"].is_string(), "{}", state["hint"]);
        eprintln!("{drop_by}: the hint came {waited:?} after the review was dropped");
        // A review left searching would hold the engine for the rest of its 10 s (9.7 s
        // more): the bound is well below that and far above a loaded machine's answer to a
        // 50 ms hint (about 0.1 s quiet).
        assert!(
            waited < std::time::Duration::from_secs(5),
            "{drop_by}: the hint waited {waited:?}"
        );
    }
    server.stop();
}
