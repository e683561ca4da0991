//! Game review, shared by `ludus analyse` and the web GUI's review: the engine's answer for
//! each position from a fresh game at fixed limits ([`search_fresh`]), and every move scored
//! against the engine's best and given its verdict ([`review_moves`], with [`judge`]).

use std::cmp::Ordering;
use std::time::Duration;

use crate::client::ReportedScore;
use crate::client::{Answer, EngineProcess};
use crate::game::{Outcome, Player};

use super::judge::{After, Verdict, judge, negate};

/// How long `uginewgame` and its `readyok` may take before a position's search.
const NEW_GAME_TIMEOUT: Duration = Duration::from_secs(10);

/// What the review says about one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// The engine's best move in the position before the move.
    pub best: String,
    /// The engine's score of that position, from the mover's side.
    pub best_score: Option<ReportedScore>,
    /// The mover's value after the move: the next position's score (negated when the other
    /// player is to move there), or how the game ended; `None` when the next position's
    /// search gave no score.
    pub after: Option<After>,
    /// What the move lost, in centipawns (see [`judge`]).
    pub loss: i64,
    /// The move's verdict.
    pub verdict: Verdict,
}

/// The engine's answer for `position` (a whole `position …` line) at `limit` (the arguments
/// of `go`: `depth 8`, `nodes 100000`, `movetime 500`), searched from a fresh game
/// (`uginewgame` first, so the answer does not depend on what was searched before); the
/// engine has `timeout` to answer. `stop` is sent as soon as `cancelled()` says so (a review
/// nobody waits for any more), and the answer then is whatever the engine gives. Errors are
/// for people.
pub fn search_fresh(
    engine: &mut EngineProcess,
    position: &str,
    limit: &str,
    timeout: Duration,
    cancelled: &mut dyn FnMut() -> bool,
) -> Result<Answer, String> {
    engine
        .new_game(NEW_GAME_TIMEOUT)
        .map_err(|e| e.to_string())?;
    engine
        .go_cancellable(position, limit, None, timeout, cancelled, &mut |_| {})
        .map_err(|e| format!("the engine failed on `{position}`: {e}"))
}

/// Scores every move of a game: `moves[i]` was played by `to_move[i]` in the position whose
/// engine answer is `answers[i]`; `answers[moves.len()]` is the final position's when the game
/// did not end there by the rules (`to_move[moves.len()]` its side to move), and `outcome` how
/// it ended after the last move if it did. A move whose positions have no answer (yet) is
/// scored as good, with no best move.
///
/// The score after a move is the next position's, from the side to move there: it is turned
/// to the mover's side by who is to move next, not by alternation, since a player may move
/// twice in a row (Isaac, after the other passed). A next position whose side to move is not
/// known gives no score after the move.
pub fn review_moves(
    moves: &[String],
    to_move: &[Player],
    answers: &[Answer],
    outcome: Option<Outcome>,
) -> Vec<MoveReview> {
    let mut reviews = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let mover = to_move.get(i).copied().unwrap_or(Player::One);
        let Some(best) = answers.get(i) else {
            reviews.push(MoveReview {
                best: String::new(),
                best_score: None,
                after: None,
                loss: 0,
                verdict: Verdict::Good,
            });
            continue;
        };
        let last = i + 1 == moves.len();
        let after = match (answers.get(i + 1), outcome) {
            (Some(next), _) => match (next.score, to_move.get(i + 1)) {
                (Some(s), Some(&side)) if side == mover => Some(After::Score(s)),
                (Some(s), Some(_)) => Some(After::Score(negate(s))),
                _ => None,
            },
            (None, Some(Outcome::Win(p))) if last && p == mover => {
                Some(After::Ended(Ordering::Greater))
            }
            (None, Some(Outcome::Win(_))) if last => Some(After::Ended(Ordering::Less)),
            (None, Some(Outcome::Draw)) if last => Some(After::Ended(Ordering::Equal)),
            (None, _) => None,
        };
        let (loss, verdict) = match after {
            Some(after) => judge(best.score, after, best.mv == *m),
            None => (0, Verdict::Good),
        };
        reviews.push(MoveReview {
            best: best.mv.clone(),
            best_score: best.score,
            after,
            loss,
            verdict,
        });
    }
    reviews
}

#[cfg(test)]
mod tests {
    use super::*;

    use ReportedScore::{Cp, Mate};

    fn answer(mv: &str, score: ReportedScore) -> Answer {
        Answer {
            mv: mv.into(),
            elapsed_ms: 0,
            score: Some(score),
            depth: Some(4),
            wdl: None,
            ponder: None,
        }
    }

    fn texts(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn moves_are_judged_from_the_movers_side() {
        let moves = texts(&["b2", "e5", "a1"]);
        let to_move = [Player::One, Player::Two, Player::One, Player::Two];
        let answers = [
            answer("d4", Mate(13)),
            answer("a1", Mate(-12)),
            answer("e1", Mate(11)),
            answer("c3", Cp(20)),
        ];
        let reviews = review_moves(&moves, &to_move, &answers, None);
        let verdicts: Vec<Verdict> = reviews.iter().map(|r| r.verdict).collect();
        assert_eq!(verdicts, [Verdict::Good, Verdict::Good, Verdict::Blunder]);
        assert_eq!(reviews[0].after, Some(After::Score(Mate(12))));
        assert_eq!(reviews[2].after, Some(After::Score(Cp(-20))));
        assert_eq!(reviews[2].best, "e1");
        // The final position's side to move unknown: no score after the last move.
        let reviews = review_moves(&moves, &to_move[..3], &answers, None);
        assert_eq!(reviews[2].after, None);
        assert_eq!(reviews[2].verdict, Verdict::Good);
    }

    /// Issue 57 F9: Isaac's `… x5v42+5 pass`, then Light moves twice in a row. The score after
    /// a move is the next position's from the side to move there: kept when the mover moves
    /// again, negated when the other player does.
    #[test]
    fn a_player_who_moves_again_keeps_the_sign_of_the_next_score() {
        let moves = texts(&["x5v42+5", "pass", "x6h10+8", "x7v08+6"]);
        let (dark, light) = (Player::One, Player::Two);
        let to_move = [light, dark, light, light, light];
        let answers = [
            answer("x5v42+5", Mate(2)),
            answer("pass", Mate(-1)),
            answer("x6h10+5", Mate(-2)),
            answer("x7v08+6", Mate(-1)),
            answer("x3h55+1", Mate(-1)),
        ];
        let reviews = review_moves(&moves, &to_move, &answers, None);
        let after: Vec<Option<After>> = reviews.iter().map(|r| r.after).collect();
        assert_eq!(
            after,
            [
                Some(After::Score(Mate(1))),  // Dark to move next: negated
                Some(After::Score(Mate(2))),  // Light to move next: negated
                Some(After::Score(Mate(-1))), // Light again: as it is
                Some(After::Score(Mate(-1))), // Light again: as it is
            ]
        );
        // Light's engine move x7v08+6 lost nothing: -M1 before and after it.
        assert_eq!(reviews[3].best_score, Some(Mate(-1)));
        assert_eq!(reviews[3].verdict, Verdict::Good);
        // x6h10+8 was not the engine's move and kept the loss: no blunder for a lost position.
        assert_eq!(reviews[2].verdict, Verdict::Good);
    }

    #[test]
    fn the_end_of_the_game_scores_the_last_move() {
        let moves = texts(&["c3", "c4"]);
        let to_move = [Player::One, Player::Two];
        let answers = [answer("c3", Cp(10)), answer("b2", Cp(0))];
        let won = review_moves(&moves, &to_move, &answers, Some(Outcome::Win(Player::Two)));
        assert_eq!(won[1].after, Some(After::Ended(Ordering::Greater)));
        assert_eq!(won[1].verdict, Verdict::Good);
        let lost = review_moves(&moves, &to_move, &answers, Some(Outcome::Win(Player::One)));
        assert_eq!(lost[1].verdict, Verdict::Blunder);
        // A review still running: the moves without answers are not judged.
        let partial = review_moves(&moves, &to_move, &answers[..1], None);
        assert_eq!(partial[0].after, None);
        assert_eq!(partial[1].best, "");
    }
}
