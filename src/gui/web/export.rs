//! The game in the referee's record format ([`format_record`]): tags, then the moves with
//! each engine move's score, depth and time. A game still in progress gets the result `*` and
//! the termination `unterminated`, in the same layout.

use crate::record::format_record;
use crate::record::game::{GameRecord, GameResult, MoveRecord, Termination};
use crate::record::today;

use super::session::Session;
use super::settings::Seat;

/// The record of `session`, with `names` as the players' names and `reason` as the comment
/// saying how the game ended.
pub fn record_text(session: &Session, names: [&str; 2], reason: &str) -> String {
    let s = &session.settings;
    let engines = s.mode.seats().contains(&Seat::Engine);
    let result = match session.result() {
        "p1win" => Some(GameResult::P1Win),
        "p2win" => Some(GameResult::P2Win),
        "draw" => Some(GameResult::Draw),
        _ => None,
    };
    let finished = session.gameover() && result.is_some();
    let record = GameRecord {
        event: "ludus web".into(),
        date: today(),
        variant: s.game.name().into(),
        round: 1,
        number: 1,
        p1: names[0].into(),
        p2: names[1].into(),
        opening: session.start.clone(),
        opening_fen: session.start_fen.clone(),
        time_control: if engines {
            let secs = format!("{:.3}", s.movetime as f64 / 1000.0);
            format!("st={}", secs.trim_end_matches('0').trim_end_matches('.'))
        } else {
            "-".into()
        },
        moves: session
            .moves
            .iter()
            .map(|m| MoveRecord {
                text: m.text.clone(),
                score: m.score,
                depth: m.depth,
                time_ms: m.time_ms,
                budget_ms: None,
            })
            .collect(),
        result: result.unwrap_or(GameResult::Draw),
        termination: if session.resigned.is_some() {
            Termination::Resign
        } else {
            Termination::Rules
        },
        detail: if finished {
            reason.into()
        } else {
            String::new()
        },
    };
    let text = format_record(&record);
    if finished {
        return text;
    }
    // The same block with the result `*`: the tags are rewritten, and the movetext's last
    // token (the result, alone after the moves) becomes `*`.
    let text = text
        .replacen("[Result \"1/2-1/2\"]", "[Result \"*\"]", 1)
        .replacen(
            "[Termination \"rules\"]",
            "[Termination \"unterminated\"]",
            1,
        );
    match text.trim_end().strip_suffix("1/2-1/2") {
        Some(body) => format!("{body}*\n\n"),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::web::session::Played;
    use crate::gui::web::settings::{Mode, Settings};

    #[test]
    fn a_game_in_progress_is_written_with_the_result_star() {
        let mut session = Session::new(Settings {
            mode: Mode::HumanHuman,
            ..Settings::default()
        });
        session.start_fen = "5:x5/x5/x5/x5/x5 w".into();
        for (text, by_p1) in [("c3", true), ("c4", false)] {
            session.push(Played {
                time_ms: 1500,
                ..Played::new(text, by_p1)
            });
        }
        let text = record_text(&session, ["human", "human"], "");
        assert!(text.starts_with("[Event \"ludus web\"]\n"), "{text}");
        assert!(text.contains("[Result \"*\"]\n[Termination \"unterminated\"]\n"));
        assert!(text.contains("[TimeControl \"-\"]"));
        assert!(
            text.ends_with("\n\n1. c3 {1.500s} c4 {1.500s} *\n\n"),
            "{text}"
        );
        session.snap.gameover = true;
        session.snap.result = "p2win".into();
        let over = record_text(&session, ["human", "human"], "White has no legal move");
        assert!(over.contains("[Result \"0-1\"]\n[Termination \"rules\"]\n"));
        assert!(over.contains("{White has no legal move} 0-1\n\n"), "{over}");
    }
}
