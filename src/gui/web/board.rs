//! What the page shows of the current position beside the move list's raw moves: the board
//! drawn from both sides with the last move and what it did ([`board_svg_view`]; Tactigon's
//! also on its side, for a wide window: [`has_landscape`]), each move as
//! the list shows it, the pieces each side has lost (Tactigon's trays), a warning about the
//! position (Tactigon's gold pair) and the game's own panel (Isaac's, [`panel`]), each asked of
//! the game ([`crate::game::present`], [`crate::gui::svg`]). All of it is read from positions
//! the engine printed
//! (`query fen` after every move), with ludus's drawing code; nothing asks the engine more.
//! The same drawing of any earlier position is the answer to `GET /api/view?ply=N` ([`view`]),
//! for the page's move list.

use serde_json::{Value, json};

use crate::gui::svg::{LastMove, View, board_svg_view, has_landscape, panel};

use super::error::ApiError;
use super::session::{Board, Session};
use super::settings::Settings;

/// Redraws the board of `session`'s current position (`session.snap.fen`, the last move's
/// `fen` already set), and works out how the list shows each move not yet shown.
pub fn redraw(session: &mut Session) {
    let options = drawing_options(&session.settings);
    let game = session.settings.game;
    for i in 0..session.moves.len() {
        if !session.moves[i].shown.is_empty() {
            continue;
        }
        let before = session.fen_before(i).to_string();
        let m = &session.moves[i];
        let shown = if before.is_empty() || m.fen.is_empty() {
            m.text.clone()
        } else {
            game.move_text(&options, &before, &m.text, &m.fen)
        };
        session.moves[i].shown = shown;
    }
    let fen = session.snap.fen.as_str();
    let (svg, svg_flipped, wide) = drawings(session, session.moves.len(), fen, &options);
    let board = Board {
        svg,
        svg_flipped,
        wide,
        lost: game.lost_pieces(&options, &session.start_fen, fen),
        alert: game.alert(&options, fen),
        panel: panel(game, fen, &options),
    };
    session.board = board;
}

/// The drawings of `fen`, the position after `ply` moves of `session`, from both sides, with
/// the move that led to it: upright from player one's and from player two's side, and on its
/// side from both (in that order) if the game has such a drawing.
fn drawings(
    session: &Session,
    ply: usize,
    fen: &str,
    options: &[(String, String)],
) -> (String, String, Option<[String; 2]>) {
    let last = ply
        .checked_sub(1)
        .and_then(|i| session.moves.get(i).map(|m| (i, m)))
        .map(|(i, m)| LastMove {
            mv: m.text.as_str(),
            before: session.fen_before(i),
        });
    let game = session.settings.game;
    let draw = |flipped: bool, landscape: bool| {
        let view = View {
            flipped,
            last,
            landscape,
        };
        board_svg_view(game, fen, options, &view).unwrap_or_else(|e| error_svg(&e))
    };
    let wide = has_landscape(game).then(|| [draw(false, true), draw(true, true)]);
    (draw(false, false), draw(true, false), wide)
}

/// The position after `ply` moves as the page shows it from its move list: `ply`, `live`
/// (whether it is the current position), `fen`, `move` and `shown` (the move that led to it,
/// `null` at the start), `p1turn`, the drawings `svg` and `svg_flipped` with that move marked
/// (and `svg_wide`, `svg_wide_flipped`, on its side, for a game that has such a drawing),
/// `lost` (Tactigon's trays) and the game's own panel under its name (`isaac`: Isaac's panel and
/// removals).
pub fn view(session: &Session, ply: usize) -> Result<Value, String> {
    let count = session.moves.len();
    if ply > count {
        return Err(format!(
            "ply {ply}: the game has {count} moves, so a position is 0 to {count} moves in"
        ));
    }
    let fen = session.fen_before(ply);
    if fen.is_empty() {
        return Err(format!("the position after {ply} moves is not known yet"));
    }
    let options = drawing_options(&session.settings);
    let (svg, svg_flipped, wide) = drawings(session, ply, fen, &options);
    let played = ply.checked_sub(1).and_then(|i| session.moves.get(i));
    let game = session.settings.game;
    let mut answer = json!({
        "ply": ply,
        "live": ply == count,
        "fen": fen,
        "move": played.map(|m| m.text.as_str()),
        "shown": played.map(|m| if m.shown.is_empty() { &m.text } else { &m.shown }),
        "p1turn": session.p1_to_move(ply),
        "svg": svg,
        "svg_flipped": svg_flipped,
        "lost": game.lost_pieces(&options, &session.start_fen, fen),
    });
    if let (Some(map), Some([wide, wide_flipped])) = (answer.as_object_mut(), wide) {
        map.insert("svg_wide".into(), json!(wide));
        map.insert("svg_wide_flipped".into(), json!(wide_flipped));
    }
    if let (Some(map), Some((name, value))) = (answer.as_object_mut(), panel(game, fen, &options)) {
        map.insert(name.into(), value);
    }
    Ok(answer)
}

/// `GET /api/view?ply=N` with `ply` the parameter as sent: the position after N moves
/// ([`view`]); 400 for a missing or bad N.
pub fn view_request(session: &Session, ply: Option<&str>) -> Result<Value, ApiError> {
    let count = session.moves.len();
    let ply = ply.and_then(|p| p.parse::<usize>().ok()).ok_or_else(|| {
        ApiError::bad(format!(
            "ply= must be a number of moves from the start: 0 to {count}"
        ))
    })?;
    view(session, ply).map_err(ApiError::bad)
}

/// The rule options the drawing knows (an engine may have more than ludus's rules).
fn drawing_options(settings: &Settings) -> Vec<(String, String)> {
    let known = settings.game.options();
    settings
        .options
        .iter()
        .filter(|(name, _)| known.iter().any(|k| k.name.eq_ignore_ascii_case(name)))
        .cloned()
        .collect()
}

/// A small drawing that says the board could not be drawn.
fn error_svg(message: &str) -> String {
    let text: String = message
        .chars()
        .map(|c| match c {
            '<' | '>' | '&' | '"' => ' ',
            c => c,
        })
        .collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 400 60\">\
         <text x=\"10\" y=\"35\" font-size=\"14\">cannot draw the board: {text}</text></svg>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameId;
    use crate::gui::web::session::Played;
    use crate::gui::web::settings::Mode;

    /// A Tactigon session of two people at docs/rules/tactigon.md TV5 after `d10-d12` (the circle takes the square).
    fn tv5() -> Session {
        let mut s = Session::new(Settings {
            game: GameId::Tactigon,
            mode: Mode::HumanHuman,
            ..Settings::default()
        });
        s.start = "fen 2/9/10/2P2Cs1p2/10/9/2 r 0".into();
        s.start_fen = "2/9/10/2P2Cs1p2/10/9/2 r 0".into();
        s.push(Played {
            fen: "2/9/10/2P3C1p2/10/9/2 b 1".into(),
            ..Played::new("d10-d12", true)
        });
        s.snap.fen = "2/9/10/2P3C1p2/10/9/2 b 1".into();
        s
    }

    #[test]
    fn a_capture_is_marked_listed_and_trayed() {
        let mut s = tv5();
        redraw(&mut s);
        assert_eq!(s.moves[0].shown, "d10×d12");
        assert_eq!(s.board.lost, Some([vec![], vec!["square"]]));
        assert_eq!(s.board.alert, None);
        for svg in [&s.board.svg, &s.board.svg_flipped] {
            assert_eq!(svg.matches("class=\"badge capture\"").count(), 1);
            assert!(svg.contains("class=\"badge capture\" data-capture=\"d12\""));
            assert!(svg.contains("class=\"last from\" data-last=\"d10\""));
            assert!(svg.contains("class=\"last to\" data-last=\"d12\""));
        }
        assert_ne!(s.board.svg, s.board.svg_flipped);
    }

    #[test]
    fn a_move_without_its_positions_is_shown_as_played() {
        let mut s = tv5();
        s.start_fen.clear();
        redraw(&mut s);
        assert_eq!(s.moves[0].shown, "d10-d12");
        assert!(!s.board.svg.contains("badge capture"));
        assert!(s.board.svg.contains("class=\"last to\" data-last=\"d12\""));
    }
}
