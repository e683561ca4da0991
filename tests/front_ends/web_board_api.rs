//! The web GUI's board through the server's API, with the real ludus binary as its engine:
//! resigning (the state, the banner's reason, the export, undo), the move list's `×` and
//! Sight's long form, Tactigon's trays and gold warning (positions of docs/rules/tactigon.md),
//! both drawings, Isaac's panel and removals, and the favicon. The drawings themselves are
//! checked in `web_board.rs`.

use ludus::game::GameId;
use ludus::gui::svg::{LastMove, View, board_svg_view};
use serde_json::{Value, json};

use crate::common::web::{Client, start};

fn new_game(c: &Client, game: &str, mode: &str) -> Value {
    c.ok(
        "/api/new",
        json!({ "game": game, "mode": mode, "movetime": 50, "level": "greedy" }),
    )
}

#[test]
fn a_person_resigns_and_the_engine_wins() {
    let (server, c) = start();
    new_game(&c, "sight", "he");
    c.ok("/api/move", json!({ "move": "c3", "ply": 0 }));
    let state = c.wait_for(|s| s["moves"].as_array().is_some_and(|m| m.len() == 2));
    assert_eq!(state["can_resign"], json!(true));
    assert_eq!(state["resigned"], Value::Null);
    let state = c.ok("/api/resign", json!({}));
    assert_eq!(state["gameover"], json!(true));
    assert_eq!(state["result"], json!("p2win"));
    assert_eq!(state["resigned"], json!("p1"));
    assert_eq!(
        state["reason"],
        json!("Black (player two) wins: White resigns")
    );
    assert_eq!(state["can_resign"], json!(false));
    assert_eq!(state["human_to_move"], json!(false));
    let (status, _) = c.post("/api/resign", json!({}));
    assert_eq!(status, 409, "a finished game cannot be resigned");
    let (status, _) = c.post("/api/move", json!({ "move": "a1", "ply": 2 }));
    assert_eq!(status, 409, "no move after resigning");
    let (_, _, record) = c.get_typed("/api/export");
    assert!(
        record.contains("[Result \"0-1\"]\n[Termination \"resign\"]\n"),
        "{record}"
    );
    assert!(
        record.contains("{Black (player two) wins: White resigns}"),
        "{record}"
    );
    assert!(record.trim_end().ends_with("0-1"), "{record}");
    // Undo takes the resignation back, and no move.
    let state = c.ok("/api/undo", json!({}));
    assert_eq!(state["gameover"], json!(false));
    assert_eq!(state["resigned"], Value::Null);
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(2));
    assert_eq!(state["human_to_move"], json!(true));

    // The engine moves first: the person is Black, and White wins.
    new_game(&c, "sight", "eh");
    c.wait_for(|s| s["human_to_move"] == json!(true));
    let state = c.ok("/api/resign", json!({}));
    assert_eq!(state["result"], json!("p1win"));
    assert_eq!(
        state["reason"],
        json!("White (player one) wins: Black resigns")
    );
    // Two people, or two engines: nobody plays the engine, nobody resigns.
    new_game(&c, "sight", "hh");
    assert_eq!(c.state()["can_resign"], json!(false));
    let (status, answer) = c.post("/api/resign", json!({}));
    assert_eq!(status, 409, "{answer}");
    server.stop();
}

#[test]
fn the_state_lists_captures_trays_warnings_and_both_drawings() {
    let (server, c) = start();
    new_game(&c, "tactigon", "hh");
    let state = c.ok(
        "/api/load",
        json!({ "text": "fen 2/9/10/2P2Cs1p2/10/9/2 r 0 moves d10-d12" }),
    );
    assert_eq!(state["moves"], json!(["d10-d12"]));
    assert_eq!(state["moves_shown"], json!(["d10×d12"]));
    assert_eq!(state["lost"], json!([[], ["square"]]));
    assert_eq!(state["alert"], Value::Null);
    // Both drawings, exactly as the drawing code makes them from the engine's positions.
    let last = Some(LastMove {
        mv: "d10-d12",
        before: "2/9/10/2P2Cs1p2/10/9/2 r 0",
    });
    for (key, flipped, landscape) in [
        ("svg", false, false),
        ("svg_flipped", true, false),
        ("svg_wide", false, true),
        ("svg_wide_flipped", true, true),
    ] {
        let view = View {
            flipped,
            last,
            landscape,
        };
        let drawn = board_svg_view(GameId::Tactigon, "2/9/10/2P3C1p2/10/9/2 b 1", &[], &view);
        assert_eq!(state[key].as_str(), drawn.ok().as_deref(), "{key}");
    }
    // The view of an earlier position has them too.
    let view = c.get("/api/view?ply=0");
    assert!(
        view["svg_wide"]
            .as_str()
            .is_some_and(|s| s.contains("data-cell=\"d12\""))
    );
    assert!(view["svg_wide_flipped"].is_string());
    assert!(
        state["svg"]
            .as_str()
            .is_some_and(|s| s.contains("data-capture=\"d12\""))
    );
    // A move played on the page is listed the same way (TV6: both removed).
    c.ok(
        "/api/load",
        json!({ "text": "fen 2/9/4Tc4/2P5p2/10/9/2 r 0" }),
    );
    let state = c.ok("/api/move", json!({ "move": "c9-c11", "ply": 0 }));
    assert_eq!(state["moves_shown"], json!(["c9×c11"]));
    assert_eq!(state["lost"], json!([["triangle"], ["circle"]]));
    // TV13 after e9-f10: Blue is warned.
    let state = c.ok(
        "/api/load",
        json!({ "text": "fen 2/4C4/10/2P5p1c/4C5/9/2 r 0 moves e9-f10" }),
    );
    assert_eq!(
        state["alert"],
        json!(
            "Red holds both gold tiles (b10 and f10): Blue must break the pair or take the \
             pentagon this move, or lose"
        )
    );
    // Sight lists the piles a move grew; other games have no trays.
    new_game(&c, "sight", "hh");
    let state = c.ok(
        "/api/load",
        json!({ "text": "startpos moves b4 e2 d3 a3 d4" }),
    );
    assert_eq!(
        state["moves_shown"],
        json!(["b4", "e2", "d3", "a3", "d4+d3+b4"])
    );
    assert_eq!(state["lost"], Value::Null);
    let (status, kind, icon) = c.get_typed("/favicon.svg");
    assert_eq!((status, kind.as_str()), (200, "image/svg+xml"));
    assert!(icon.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    server.stop();
}

#[test]
fn isaac_states_carry_the_panel_and_every_legal_removal_with_its_landing_cells() {
    let (server, c) = start();
    let state = new_game(&c, "isaac", "hh");
    assert_eq!(state["isaac"]["phase"], json!("placement"));
    assert_eq!(state["isaac"]["players"][1]["hand"], json!([5, 4, 3, 2, 1]));
    // docs/rules/isaac.md §8 TV5: x5h50 earns 9 from Dark's 10; +4 would land on Light's 14.
    let state = c.ok(
        "/api/load",
        json!({ "text": "fen D3h13,D3v39,D5h50,L3h55,L3v58 00000/00000 d S - 10/85 0/0" }),
    );
    let isaac = &state["isaac"];
    assert_eq!(isaac["status"], json!("Dark to move"));
    assert_eq!(isaac["players"][1]["counter"], json!("14"));
    let removals = isaac["removals"].as_array().expect("removals");
    let legal: Vec<&str> = state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // Every advance the panel offers but the collision is a legal move, and no other.
    let mut offered = Vec::new();
    for r in removals {
        let tile = r["tile"].as_str().expect("tile");
        let cells = r["cells"].as_array().expect("cells");
        assert_eq!(
            cells.len() as u64,
            r["earned"].as_u64().expect("earned") + 1
        );
        for k in 0..cells.len() {
            if r["collision"]["advance"] != json!(k) {
                offered.push(format!("x{tile}+{k}"));
            }
        }
    }
    assert_eq!(offered, legal);
    let r = &removals[1];
    assert_eq!((&r["tile"], &r["earned"]), (&json!("5h50"), &json!(9)));
    assert_eq!(r["collision"], json!({ "advance": 4, "cell": "14" }));
    assert_eq!(
        (&r["cells"][0], &r["cells"][9]),
        (&json!("10"), &json!("19"))
    );
    // Other games have no Isaac field.
    assert_eq!(new_game(&c, "sight", "hh")["isaac"], Value::Null);
    server.stop();
}

/// Issue 59 item 2: every way a Tactigon game ends is announced for what it is on the web —
/// a draw by the ply cap is not "Red has no legal move" (a finished game lists no legal move
/// whatever ended it). The positions are docs/rules/tactigon.md's.
#[test]
fn every_tactigon_ending_is_announced_for_what_it_is() {
    let (_server, c) = start();
    let play = |options: Value, text: &str| -> Value {
        c.ok(
            "/api/new",
            json!({ "game": "tactigon", "mode": "hh", "options": options }),
        );
        c.ok("/api/load", json!({ "text": text }))
    };
    let cases = [
        (
            json!({ "Tactigon_PlyCap": 4 }),
            "startpos moves f6-f8 f14-f12 b6-b8 b14-b12",
            "draw",
            "Draw: the ply cap (4 plies) is reached",
        ),
        (
            json!({}),
            "fen Pc/3cc4/10/10p/10/9/2 r 0",
            "p2win",
            "Blue (player two) wins: Red has no legal move",
        ),
        (
            json!({ "Tactigon_NoMoveResult": "draw" }),
            "fen Pc/3cc4/10/10p/10/9/2 r 0",
            "draw",
            "Draw: Red has no legal move",
        ),
        (
            json!({}),
            "fen 2/4C4/10/2P5p1c/10/4C4/2 r 9",
            "p1win",
            "Red (player one) wins: Red holds both gold tiles",
        ),
    ];
    for (options, text, result, reason) in cases {
        let state = play(options, text);
        assert_eq!(state["gameover"], json!(true), "{text}");
        assert_eq!(state["result"], json!(result), "{text}");
        assert_eq!(state["reason"], json!(reason), "{text}");
    }
}
