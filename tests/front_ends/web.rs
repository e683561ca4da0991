//! The web GUI's server (`ludus web`) through its HTTP API, with the real ludus binary as its
//! engine: new games and their options, legal moves, a person's move and the engine's reply,
//! illegal moves refused, undo and redo, loading positions, the result, export and events;
//! sessions (one game per tab, their bound, their end when unused) are in `web_sessions.rs`.

use std::io::{BufRead, BufReader};

use ludus::gui::web::{WebConfig, WebServer};
use serde_json::{Value, json};

use crate::common::web::{Client, ludus, moves, spawn_web};

fn config() -> WebConfig {
    WebConfig {
        port: 0,
        engine: Some(ludus()),
        ..WebConfig::default()
    }
}

fn start() -> (WebServer, Client) {
    let server = WebServer::start(config()).expect("the server starts");
    let client = Client::new(&server);
    (server, client)
}

#[test]
fn people_play_moves_that_are_legal_and_take_them_back() {
    let (server, c) = start();
    let setup = c.get("/api/setup");
    assert_eq!(setup["games"].as_array().map(Vec::len), Some(3));
    assert!(
        setup["options"]
            .as_array()
            .expect("options")
            .iter()
            .any(|o| { o["name"] == "Sight_BoardSize" && o["type"] == "spin" && o["max"] == 9 })
    );
    let state = c.ok("/api/new", json!({"game": "sight", "mode": "hh"}));
    assert_eq!(state["fen"], "5:x5/x5/x5/x5/x5 w");
    // Sight's board is square: no drawing of it on its side.
    assert!(state.get("svg_wide").is_none());
    assert_eq!(
        state["score_words"],
        json!({"per_unit": 100, "decimals": 2, "unit": ""})
    );
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(25));
    assert!(
        state["svg"]
            .as_str()
            .is_some_and(|s| s.contains("data-cell=\"c3\""))
    );

    let state = c.ok("/api/move", json!({"move": "c3", "ply": 0}));
    assert_eq!(moves(&state), ["c3"]);
    assert_eq!(state["fen"], "5:x5/x5/x2,w,x2/x5/x5 b");
    assert_eq!(state["p1turn"], false);

    let (status, refused) = c.post("/api/move", json!({"move": "c3", "ply": 1}));
    assert_eq!(status, 400);
    // In the rules' words (as the terminal says it).
    assert_eq!(
        refused["error"],
        "c3: c3 is occupied: a piece is placed on an empty point"
    );
    let (status, _) = c.post("/api/move", json!({"move": "c4", "ply": 0}));
    assert_eq!(status, 409, "a move for an older position");
    let (status, _) = c.post("/api/move", json!({"mv": "c4"}));
    assert_eq!(status, 400, "a malformed body");
    assert_eq!(moves(&c.get("/api/state")), ["c3"]);

    c.ok("/api/move", json!({"move": "c4"}));
    assert!(moves(&c.ok("/api/undo", json!({}))) == ["c3"]);
    assert!(moves(&c.ok("/api/undo", json!({}))).is_empty());
    assert_eq!(c.post("/api/undo", json!({})).0, 409);
    assert_eq!(moves(&c.ok("/api/redo", json!({}))), ["c3"]);
    let state = c.ok("/api/redo", json!({}));
    assert_eq!(state["position"], "startpos moves c3 c4");
    assert_eq!(state["movers"], json!(["p1", "p2"]));
    server.stop();
}

#[test]
fn the_engine_answers_a_person_and_undo_returns_to_the_person() {
    let (server, c) = start();
    c.ok(
        "/api/new",
        json!({"game": "tactigon", "mode": "he", "movetime": 50, "level": "greedy"}),
    );
    let state = c.ok("/api/move", json!({"move": "d6-c11", "ply": 0}));
    assert_eq!(state["human_to_move"], false);
    let state = c.wait_for(|s| s["moves"].as_array().map(Vec::len) == Some(2));
    assert_eq!(state["human_to_move"], true);
    assert_eq!(
        state["players"],
        json!([
            "human",
            concat!("ludus ", env!("CARGO_PKG_VERSION"), " (greedy)")
        ])
    );
    let state = c.ok("/api/undo", json!({}));
    assert!(moves(&state).is_empty(), "back before the person's move");
    assert_eq!(state["redo"], 2);

    // The engine opens as player one, and a hint is a move for the person.
    c.ok(
        "/api/new",
        json!({"game": "isaac", "mode": "eh", "movetime": 50}),
    );
    let state = c.wait_for(|s| s["human_to_move"] == true);
    assert_eq!(moves(&state).len(), 1);
    assert_eq!(
        state["score_words"],
        json!({"per_unit": 10, "decimals": 1, "unit": "points"}),
        "Isaac's scores in points"
    );
    c.ok("/api/hint", json!({}));
    let state = c.wait_for(|s| s["hint"].is_string());
    let hint = state["hint"].as_str().expect("a hint");
    assert!(
        state["legal"]
            .as_array()
            .expect("legal")
            .iter()
            .any(|m| m == hint)
    );
    server.stop();
}

#[test]
fn a_new_session_plays_a_moderate_rating_not_full_strength() {
    let (server, c) = start();
    assert_eq!(c.get("/api/setup")["default_level"], "elo 1000");
    // The game a page opens with: Sight against the engine, at the default rating.
    let state = c.state();
    assert_eq!(state["game"], "sight");
    assert_eq!(state["mode"], "he");
    assert_eq!(state["level"], "elo 1000");
    c.ok("/api/move", json!({"move": "c3", "ply": 0}));
    let state = c.wait_for(|s| s["moves"].as_array().map(Vec::len) == Some(2));
    assert_eq!(
        state["players"],
        json!([
            "human",
            concat!("ludus ", env!("CARGO_PKG_VERSION"), " (elo 1000)")
        ])
    );
    // A game asked for through the API without a level is at the engine's own default.
    let state = c.ok("/api/new", json!({"game": "sight", "mode": "he"}));
    assert_eq!(state["level"], Value::Null);
    server.stop();
}

#[test]
fn a_rating_is_a_level_the_engine_plays_at() {
    let (server, c) = start();
    c.ok(
        "/api/new",
        json!({"game": "sight", "mode": "he", "movetime": 50, "level": "elo 1000"}),
    );
    c.ok("/api/move", json!({"move": "c3", "ply": 0}));
    let state = c.wait_for(|s| s["moves"].as_array().map(Vec::len) == Some(2));
    assert_eq!(
        state["players"],
        json!([
            "human",
            concat!("ludus ", env!("CARGO_PKG_VERSION"), " (elo 1000)")
        ])
    );
    assert_eq!(state["level"], "elo 1000");
    server.stop();
}

#[test]
fn positions_are_loaded_only_when_the_engine_takes_them() {
    let (server, c) = start();
    c.ok("/api/new", json!({"game": "sight", "mode": "hh"}));
    let (status, refused) = c.post("/api/load", json!({"text": "fen 5:x5 w"}));
    assert_eq!(status, 400);
    // In plain words, without the protocol's codes.
    let message = refused["error"].as_str().expect("a message");
    assert!(message.starts_with("Not a Sight position: "), "{message}");
    assert!(!message.contains("invalid-position"), "{message}");
    let (_, refused) = c.post("/api/load", json!({"text": "startpos moves c3 c3"}));
    let message = refused["error"].as_str().expect("a message");
    assert!(
        message.starts_with("Move 2, c3, cannot be played: c3 is occupied"),
        "{message}"
    );
    assert_eq!(c.get("/api/state")["fen"], "5:x5/x5/x5/x5/x5 w");

    // docs/rules/sight.md TV12: White's only stack is shut in after four plies.
    let state = c.ok(
        "/api/load",
        json!({"text": "position startpos moves a1 a2 b1 b2"}),
    );
    assert_eq!(state["gameover"], true);
    assert_eq!(state["result"], "p2win");
    assert_eq!(
        state["reason"],
        "Black (player two) wins: White has no legal move"
    );
    assert_eq!(c.post("/api/move", json!({"move": "c3"})).0, 409);
    let (status, record) = c.get_text("/api/export");
    assert_eq!(status, 200);
    assert!(record.contains("[Variant \"sight\"]\n[P1 \"human\"]\n[P2 \"human\"]\n"));
    assert!(record.contains("[Result \"0-1\"]\n[Termination \"rules\"]\n[PlyCount \"4\"]\n"));
    assert!(record.contains("{Black (player two) wins: White has no legal move} 0-1\n"));

    let state = c.ok(
        "/api/load",
        json!({"text": "5:x5/x5/x2,w,x2/x5/x5 b moves c4"}),
    );
    assert_eq!(state["start"], "fen 5:x5/x5/x2,w,x2/x5/x5 b");
    assert_eq!(moves(&state), ["c4"]);
    assert_eq!(state["movers"], json!(["p2"]), "Black made the first move");
    assert_eq!(c.ok("/api/undo", json!({}))["moves"], json!([]));
    server.stop();
}

#[test]
fn rule_options_are_checked_against_the_engine_and_applied() {
    let (server, c) = start();
    let state = c.ok(
        "/api/new",
        json!({"game": "sight", "mode": "hh", "options": {"Sight_BoardSize": 3}}),
    );
    assert_eq!(state["fen"], "3:x3/x3/x3 w");
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(9));
    // Back to the default size when the option is left out.
    let state = c.ok("/api/new", json!({"game": "sight", "mode": "hh"}));
    assert_eq!(state["fen"], "5:x5/x5/x5/x5/x5 w");
    // Sight's board is square: no drawing of it on its side.
    assert!(state.get("svg_wide").is_none());
    for (body, words) in [
        (
            json!({"game": "sight", "mode": "hh", "options": {"Sight_BoardSize": 12}}),
            "runs from 2 to 9",
        ),
        (
            json!({"game": "sight", "mode": "hh", "options": {"Isaac_Collision": true}}),
            "not a rule option",
        ),
        (json!({"game": "chess", "mode": "hh"}), "unknown game"),
        (json!({"game": "sight", "mode": "xx"}), "bad request body"),
        (
            json!({"game": "sight", "mode": "he", "level": "hard"}),
            "Level is one of",
        ),
        (
            json!({"game": "sight", "mode": "he", "level": "elo 5"}),
            "UCI_Elo runs from",
        ),
        (
            json!({"game": "sight", "mode": "he", "level": "elo strong"}),
            "UCI_Elo takes a whole number",
        ),
        (
            json!({"game": "sight", "mode": "he", "movetime": 0}),
            "time per move",
        ),
    ] {
        let (status, refused) = c.post("/api/new", body);
        assert_eq!(status, 400);
        let message = refused["error"].as_str().unwrap_or_default();
        assert!(message.contains(words), "{message}");
    }
    let state = c.ok(
        "/api/new",
        json!({"game": "isaac", "mode": "hh", "options": {"Isaac_Collision": "false"}}),
    );
    assert_eq!(state["options"]["Isaac_Collision"], "false");
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(600));
    server.stop();
}

#[test]
fn pages_get_the_state_as_an_event_and_only_local_requests_are_served() {
    let (server, c) = start();
    let response = c
        .agent
        .get(c.url("/api/events"))
        .call()
        .expect("the event stream opens");
    assert_eq!(response.status().as_u16(), 200);
    let mut reader = BufReader::new(response.into_body().into_reader());
    let mut first = String::new();
    while !first.starts_with("event: state") {
        first.clear();
        reader.read_line(&mut first).expect("an event line");
    }
    let mut data = String::new();
    reader.read_line(&mut data).expect("the event's data");
    let state: Value = serde_json::from_str(data.trim_start_matches("data: ")).expect("JSON");
    assert_eq!(state["game"], "sight");
    assert_eq!(state["session"], c.session.as_str());

    let (status, page) = c.get_text("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script type=\"module\" src=\"/app.js\">"));
    assert_eq!(c.get_text("/nope").0, 404);
    let foreign = c
        .agent
        .get(c.url("/api/state"))
        .header("Host", "example.com")
        .call()
        .expect("answered");
    assert_eq!(foreign.status().as_u16(), 403);
    server.stop();
}

#[test]
fn ludus_web_says_where_it_listens() {
    let (mut child, base) = spawn_web(&[]);
    let _ = child.kill();
    let _ = child.wait();
    let port = base
        .strip_prefix("http://127.0.0.1:")
        .and_then(|p| p.parse::<u16>().ok());
    assert!(port.is_some_and(|p| p > 0), "listening on {base:?}");
}

#[test]
fn the_first_game_is_the_one_given_with_game() {
    let server = WebServer::start(WebConfig {
        game: Some(ludus::game::GameId::Isaac),
        ..config()
    })
    .expect("the server starts");
    let c = Client::new(&server);
    let state = c.get("/api/state");
    assert_eq!(state["game"], "isaac", "{state}");
    assert_eq!(state["fen"], "- 54321/54321 d P - 0/0 0/0", "{state}");
    server.stop();
}
