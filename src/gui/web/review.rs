//! Game review on the page: every position of the game searched by the session's search
//! engine at fixed limits, from a fresh game each (as `ludus analyse` does, see
//! [`super::search`]), and every move scored and marked `?!`, `?`, `??` by [`review_moves`], the code of
//! `ludus analyse`. The review runs on the search worker when the engine is free (see
//! [`super::session::Session::engine_free`]); its progress goes to the pages as `review`
//! events, and the state carries it (`review`) for as long as the game begins with the moves
//! reviewed. An engine move that falls due (or an undo, a new game) drops a review still
//! running.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::analyse::review::review_moves;
use crate::client::{Answer, ReportedScore};
use crate::game::{GameId, Outcome, Player};

use super::error::ApiError;
use super::job::{JobKind, Tag, Task};
use super::session::{Review, Session, position_line};
use super::state::{Change, Reply, State};

/// The names of a review's levels, as the page offers them: each game's own limits
/// ([`GameId::review_levels`]), so that a level means about the same wait in every game.
pub const REVIEW_LEVELS: [&str; 3] = ["fast", "normal", "deep"];
/// The level of a review when the page names no limit.
const DEFAULT_LEVEL: usize = 1;

/// How long one position's search may take beyond its own limit.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Highest limits a review may ask for, so one position stays short.
const MAX_DEPTH: u32 = 30;
/// See [`MAX_DEPTH`].
const MAX_NODES: u64 = 50_000_000;
/// See [`MAX_DEPTH`]; milliseconds.
const MAX_MOVETIME: u64 = 10_000;

/// The body of `POST /api/review`: a level (`fast`, `normal`, `deep`: the game's own limits)
/// or at most one limit per position (by default the game's `normal`), or `stop`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// One of [`REVIEW_LEVELS`].
    #[serde(default)]
    pub level: Option<String>,
    /// Search each position to this depth.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Search each position this many nodes.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Search each position this many milliseconds.
    #[serde(default)]
    pub movetime: Option<u64>,
    /// Stop a review that runs (its partial results are dropped).
    #[serde(default)]
    pub stop: bool,
}

/// A score as the page reads it: `{"cp": N}` or `{"mate": N}`, from the side to move.
fn score_json(score: ReportedScore) -> Value {
    match score {
        ReportedScore::Cp(cp) => json!({ "cp": cp }),
        ReportedScore::Mate(n) => json!({ "mate": n }),
    }
}

/// Chances from the other side: its win is this side's loss.
fn turned([win, draw, loss]: [u32; 3]) -> [u32; 3] {
    [loss, draw, win]
}

/// The review as the page shows it: `limit`, `running`, `done` and `total` positions,
/// `error`; `moves`, per move reviewed, `null` until both its positions are searched, else
/// `{mark, verdict, loss, best, best_score, best_wdl, after, after_wdl}` (all from the
/// mover's side, the scores as `ludus analyse` writes them; `best_wdl` the chances
/// `[win, draw, loss]` in per mille the engine gave with the score of the position before the
/// move, `after_wdl` those of the position after it, `null` when it gave none); `graph`, per
/// position from the start to the last move reviewed, the engine's score and chances
/// `{score: {cp|mate: N}, wdl: [win, draw, loss] | null, p1}` (both from the side to move;
/// `p1`: player one is to move), `{end: p1win|p2win|draw}` for a finished game's last
/// position, `null` not searched yet. `null` when there is no review, or the game no longer
/// begins with the moves reviewed.
pub fn review_json(session: &Session) -> Value {
    let Some(r) = session.review_shown() else {
        return Value::Null;
    };
    let reviews = review_moves(&r.moves, &r.to_move, &r.answers, r.outcome);
    let moves: Vec<Value> = reviews
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let next_known =
                r.answers.len() > i + 1 || (i + 1 == r.moves.len() && r.outcome.is_some());
            if r.answers.len() <= i || !next_known {
                return Value::Null;
            }
            json!({
                "mark": m.verdict.mark(),
                "verdict": m.verdict.word(),
                "loss": m.loss,
                "best": m.best,
                "best_score": m.best_score.map(|s| s.to_string()),
                "best_wdl": r.answers.get(i).and_then(|a| a.wdl),
                "after": m.after.map(|a| a.to_string()),
                "after_wdl": r.answers.get(i + 1).and_then(|a| a.wdl).map(|wdl| {
                    match r.to_move.get(i + 1) == r.to_move.get(i) {
                        true => wdl,
                        false => turned(wdl),
                    }
                }),
            })
        })
        .collect();
    let mut graph: Vec<Value> = (0..=r.moves.len())
        .map(|i| match (r.answers.get(i), r.to_move.get(i)) {
            (Some(answer), Some(&side)) => answer.score.map_or(
                Value::Null,
                |s| json!({ "score": score_json(s), "wdl": answer.wdl, "p1": side == Player::One }),
            ),
            _ => Value::Null,
        })
        .collect();
    if let (Some(outcome), Some(last)) = (r.outcome, graph.last_mut()) {
        let end = match outcome {
            Outcome::Win(Player::One) => "p1win",
            Outcome::Win(Player::Two) => "p2win",
            Outcome::Draw => "draw",
        };
        *last = json!({ "end": end });
    }
    json!({
        "limit": r.limit,
        "running": r.running,
        "done": r.answers.len(),
        "total": r.total(),
        "error": r.error,
        "moves": moves,
        "graph": graph,
    })
}

/// The `go` arguments of a review request of a game of `game`, checked.
fn limit_of(request: &ReviewRequest, game: GameId) -> Result<String, ApiError> {
    let bad = |m: String| ApiError::new(400, m);
    let levels = game.review_levels();
    if let Some(level) = &request.level {
        let at = REVIEW_LEVELS.iter().position(|l| l == level);
        return match (at, request.depth, request.nodes, request.movetime) {
            (Some(i), None, None, None) => Ok(levels[i].0.to_string()),
            (Some(_), ..) => Err(bad("name a level or one limit, not both".into())),
            (None, ..) => Err(bad(format!(
                "level '{level}': a review is fast, normal or deep"
            ))),
        };
    }
    match (request.depth, request.nodes, request.movetime) {
        (None, None, None) => Ok(levels[DEFAULT_LEVEL].0.to_string()),
        (Some(d), None, None) if (1..=MAX_DEPTH).contains(&d) => Ok(format!("depth {d}")),
        (None, Some(n), None) if (1..=MAX_NODES).contains(&n) => Ok(format!("nodes {n}")),
        (None, None, Some(ms)) if (1..=MAX_MOVETIME).contains(&ms) => Ok(format!("movetime {ms}")),
        (Some(_), None, None) => Err(bad(format!("depth runs from 1 to {MAX_DEPTH}"))),
        (None, Some(_), None) => Err(bad(format!("nodes run from 1 to {MAX_NODES}"))),
        (None, None, Some(_)) => Err(bad(format!("movetime runs from 1 to {MAX_MOVETIME} ms"))),
        _ => Err(bad("name one limit: depth, nodes or movetime".into())),
    }
}

/// Starts a review of the game's moves (or stops the one running). Refused (409) with no
/// move to review, while a review runs, and while the engine is busy with the game.
pub fn review(state: &mut State, request: &ReviewRequest) -> Reply {
    let limit = limit_of(request, state.session.settings.game)?;
    let s = &mut state.session;
    if request.stop {
        s.stop_review();
        return Ok(Change::Changed);
    }
    if s.moves.is_empty() {
        return Err(ApiError::conflict(
            "no move has been played: nothing to review",
        ));
    }
    if s.reviewing() {
        return Err(ApiError::conflict("a review is running already"));
    }
    s.stop_evaluation();
    if !s.engine_free() {
        let why = if s.hinting {
            "a hint search is running: review when it has ended"
        } else {
            "the engine is to move: review when it has moved (or pause the game)"
        };
        return Err(ApiError::conflict(why));
    }
    s.stop_analysis();
    s.review_gen += 1;
    let outcome = match (s.snap.gameover, s.snap.result.as_str()) {
        (false, _) => None,
        (true, "p1win") => Some(Outcome::Win(Player::One)),
        (true, "p2win") => Some(Outcome::Win(Player::Two)),
        (true, _) => Some(Outcome::Draw),
    };
    let review = Review {
        number: s.review_gen,
        limit: limit.clone(),
        moves: s.moves.iter().map(|m| m.text.clone()).collect(),
        to_move: (0..=s.moves.len())
            .map(|i| match s.p1_to_move(i) {
                true => Player::One,
                false => Player::Two,
            })
            .collect(),
        outcome,
        answers: Vec::new(),
        running: true,
        error: None,
    };
    let positions: Vec<String> = (0..review.total())
        .map(|i| position_line(&s.start, review.moves[..i].iter().map(String::as_str)))
        .collect();
    let timeout = TIMEOUT
        + limit
            .strip_prefix("movetime ")
            .and_then(|ms| ms.parse().ok())
            .map_or(Duration::ZERO, Duration::from_millis);
    let task = Task::Review {
        positions,
        limit,
        timeout,
    };
    let ply = s.moves.len();
    s.review = Some(review);
    if !state.search(JobKind::Review, ply, task) {
        state.session.review = None;
        return Err(ApiError::new(500, "the search worker has stopped"));
    }
    Ok(Change::Changed)
}

/// Keeps the answer of the next position of review `tag`, and gives the review's progress
/// for the pages ([`review_json`]); `None` once the review is no longer wanted.
pub fn reviewed(state: &mut State, tag: Tag, answer: Answer) -> Option<Value> {
    let s = &mut state.session;
    let review = s
        .review
        .as_mut()
        .filter(|r| r.number == tag.number && r.running)?;
    review.answers.push(answer);
    Some(review_json(s))
}

/// Takes the end of review `tag`: done, or failed with the engine's error.
pub fn ended(state: &mut State, tag: Tag, result: Result<(), String>) -> Change {
    let Some(review) = state
        .session
        .review
        .as_mut()
        .filter(|r| r.number == tag.number && r.running)
    else {
        return Change::Unchanged;
    };
    review.running = false;
    review.error = result.err();
    if state.closed {
        Change::Unchanged
    } else {
        Change::Changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::web::session::Played;
    use crate::gui::web::settings::Settings;

    /// Issue 59 item 11: a level is the game's own limit, so that it waits about as long in
    /// every game (Isaac's nodes are MCTS iterations, a tenth as many).
    #[test]
    fn a_level_is_the_games_own_limit() {
        let level = |l: &str| ReviewRequest {
            level: Some(l.into()),
            ..ReviewRequest::default()
        };
        let limit = |r: &ReviewRequest, game| limit_of(r, game).ok();
        assert_eq!(
            limit(&level("fast"), GameId::Sight).as_deref(),
            Some("depth 4")
        );
        assert_eq!(
            limit(&level("normal"), GameId::Sight).as_deref(),
            Some("nodes 200000")
        );
        assert_eq!(
            limit(&level("normal"), GameId::Isaac).as_deref(),
            Some("nodes 10000")
        );
        assert_eq!(
            limit(&level("deep"), GameId::Isaac).as_deref(),
            Some("nodes 100000")
        );
        let none = ReviewRequest::default();
        assert_eq!(limit(&none, GameId::Isaac).as_deref(), Some("nodes 10000"));
        assert_eq!(limit(&level("slow"), GameId::Sight), None);
        let both = ReviewRequest {
            depth: Some(3),
            ..level("fast")
        };
        assert_eq!(limit(&both, GameId::Sight), None);
    }

    fn answer(mv: &str, score: ReportedScore, wdl: [u32; 3]) -> Answer {
        Answer {
            mv: mv.into(),
            elapsed_ms: 0,
            score: Some(score),
            depth: Some(2),
            wdl: Some(wdl),
            ponder: None,
        }
    }

    /// Issue 57 F9 on the page: Isaac's `x5v42+5 pass`, then Light moves twice in a row. The
    /// score and the chances after a move are turned to the mover's side by who is to move
    /// next: as they are when Light moves again.
    #[test]
    fn a_player_moving_again_keeps_the_next_positions_view() {
        let mut s = Session::new(Settings {
            game: crate::game::GameId::Isaac,
            ..Settings::default()
        });
        // Light (player two) moves, Dark passes, Light moves twice; Light is to move after.
        let moves = [
            ("x5v42+5", false),
            ("pass", true),
            ("x6h10+8", false),
            ("x7v08+6", false),
        ];
        for (m, by_p1) in moves {
            s.push(Played::new(m, by_p1));
        }
        let (dark, light) = (Player::One, Player::Two);
        let mate = ReportedScore::Mate;
        s.review = Some(Review {
            number: 1,
            limit: "depth 2".into(),
            moves: moves.iter().map(|(m, _)| m.to_string()).collect(),
            to_move: vec![light, dark, light, light, light],
            outcome: None,
            answers: vec![
                answer("x5v42+5", mate(2), [900, 0, 100]),
                answer("pass", mate(-1), [0, 0, 1000]),
                answer("x6h10+5", mate(-2), [10, 0, 990]),
                answer("x7v08+6", mate(-1), [0, 5, 995]),
                answer("x3h55+1", mate(-1), [1, 0, 999]),
            ],
            running: false,
            error: None,
        });
        let json = review_json(&s);
        let field = |i: usize, name: &str| json["moves"][i][name].clone();
        let after: Vec<Value> = (0..4).map(|i| field(i, "after")).collect();
        assert_eq!(
            after,
            [json!("+M1"), json!("+M2"), json!("-M1"), json!("-M1")]
        );
        let after_wdl: Vec<Value> = (0..4).map(|i| field(i, "after_wdl")).collect();
        assert_eq!(
            after_wdl,
            [
                json!([1000, 0, 0]),
                json!([990, 0, 10]),
                json!([0, 5, 995]),
                json!([1, 0, 999])
            ]
        );
        let p1: Vec<Value> = (0..5).map(|i| json["graph"][i]["p1"].clone()).collect();
        let (t, f) = (json!(true), json!(false));
        assert_eq!(p1, [f.clone(), t, f.clone(), f.clone(), f]);
    }
}
