//! Which evaluation a search uses, as the engine says it (protocol.md, "Search"; issue 58):
//! the first search of a process, and the first after a change of game, rules, `Eval` or
//! `EvalFile`, begins with `info string eval net <header> (built-in)` or `info string eval hand
//! (<why>)`, once; and each game advertises its own `UCI_Elo` range (issue 59 item 4).

use std::time::Duration;

use crate::common::process::{Engine, is_bestmove};

/// The `info string eval …` lines of a `go depth 1` after `setup`, in `engine`.
fn announced(engine: &mut Engine, setup: &[&str]) -> Vec<String> {
    for line in setup {
        engine.send(line);
    }
    engine.send("position startpos");
    engine.send("go depth 1");
    let lines = engine.read_until(is_bestmove);
    lines
        .into_iter()
        .filter(|l| l.starts_with("info string eval "))
        .collect()
}

/// The header `eval` prints for the net in use (`Net: <header>`), or `None` with none.
fn net_header(engine: &mut Engine) -> Option<String> {
    engine.send("position startpos");
    engine.send("eval");
    let lines = engine.read_until(|l| l.starts_with("Final evaluation"));
    lines.iter().find_map(|l| {
        let header = l.strip_prefix("Net: ")?;
        Some(header.split(" (").next().unwrap_or(header).to_string())
    })
}

#[test]
fn each_game_says_once_which_net_it_plays_with() {
    for game in ["sight", "isaac", "tactigon"] {
        let mut engine = Engine::spawn_with_args(&["--game", game]).showing_evaluation();
        let header = net_header(&mut engine).unwrap_or_else(|| panic!("{game}: a built-in net"));
        let first = announced(&mut engine, &[]);
        assert_eq!(
            first,
            [format!("info string eval net {header} (built-in)")],
            "{game}"
        );
        assert_eq!(
            announced(&mut engine, &[]),
            Vec::<String>::new(),
            "{game}: said once"
        );
        let hand = announced(&mut engine, &["setoption name Eval value hand"]);
        assert_eq!(hand, ["info string eval hand (option Eval hand)"], "{game}");
        let back = announced(&mut engine, &["setoption name Eval value net"]);
        assert_eq!(back, first, "{game}: the net again");
        engine.quit(Duration::from_secs(10));
    }
}

#[test]
fn a_sight_size_the_net_never_saw_plays_the_hand_evaluation_and_says_so() {
    let mut engine = Engine::spawn().showing_evaluation();
    let header = net_header(&mut engine).expect("Sight's built-in net");
    let five = announced(&mut engine, &[]);
    assert_eq!(five, [format!("info string eval net {header} (built-in)")]);
    let six = announced(&mut engine, &["setoption name Sight_BoardSize value 6"]);
    assert_eq!(
        six,
        [format!(
            "info string eval hand (the built-in net {header} was never trained on this variant)"
        )]
    );
    // A weakened level searches with the same evaluation; the random level evaluates nothing.
    let mut random = Engine::spawn().showing_evaluation();
    let said = announced(&mut random, &["setoption name Level value random"]);
    assert_eq!(said, Vec::<String>::new());
    engine.quit(Duration::from_secs(10));
    random.quit(Duration::from_secs(10));
}

#[test]
fn each_game_advertises_its_own_rating_range() {
    for (game, range) in [
        ("sight", "min 392 max 1670"),
        ("isaac", "min 725 max 1520"),
        ("tactigon", "min 725 max 1614"),
    ] {
        let mut engine = Engine::spawn_with_args(&["--game", game]).showing_evaluation();
        engine.send("ugi");
        let lines = engine.read_until(|l| l == "ugiok");
        let elo = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Elo "))
            .unwrap_or_else(|| panic!("{game}: UCI_Elo advertised"));
        let low = range.split(' ').nth(1).unwrap_or_default();
        assert_eq!(
            elo,
            &format!("option name UCI_Elo type spin default {low} {range}"),
            "{game}"
        );
        engine.quit(Duration::from_secs(10));
    }
    // After a change of game, `ugi` lists the new game's range.
    let mut engine = Engine::spawn().showing_evaluation();
    engine.send("setoption name UCI_Variant value tactigon");
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    assert!(
        lines.contains(&"option name UCI_Elo type spin default 725 min 725 max 1614".to_string()),
        "{lines:?}"
    );
    engine.quit(Duration::from_secs(10));
}
