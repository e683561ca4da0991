//! Plays one game between two engine processes, trusting neither: the referee keeps the
//! clocks, checks every move with its own rules, decides the result, and turns every engine
//! failure into a loss with its termination. A failed engine's process is dropped (killed), so
//! the next game starts it afresh.

use std::time::Duration;

use crate::client::{EngineFailure, EngineProcess};
use crate::game::Player;
use crate::game::dynamic::{MoveError, RuleSet};
use crate::record::Opening;
use crate::record::game::{GameRecord, GameResult, MoveRecord, Termination};
use crate::referee::adjudication::{Adjudication, Adjudicator, seat_name};
use crate::referee::config::EngineSpec;
use crate::referee::time_control::{Clock, go_arguments};

/// Everything about a game except its engines.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    /// The `Event` tag.
    pub event: &'a str,
    /// The `Date` tag.
    pub date: &'a str,
    /// The game and its rule options.
    pub rules: &'a RuleSet,
    /// Where the game starts.
    pub opening: &'a Opening,
    /// Round number (1-based).
    pub round: u32,
    /// Game number in the schedule (1-based).
    pub number: u64,
    /// Adjudication settings.
    pub adjudication: Adjudication,
    /// How long past a deadline (or without one, at all) an engine may stay silent.
    pub stall_timeout: Duration,
    /// The `TimeControl` tag.
    pub time_control: &'a str,
}

/// One seat: the engine's settings and its process, started on demand.
pub struct Seat<'a> {
    /// The engine.
    pub spec: &'a EngineSpec,
    /// Its running process, if any; set to `None` after a failure.
    pub process: &'a mut Option<EngineProcess>,
}

/// How a game ended, before it is written down.
struct Ending {
    result: GameResult,
    termination: Termination,
    detail: String,
}

impl Ending {
    fn failure(seat: Player, name: &str, failure: &EngineFailure) -> Ending {
        Ending {
            result: GameResult::win_for(seat.opponent()),
            termination: termination_of(failure),
            detail: format!("{} ({name}): {}", seat_name(seat), failure.detail()),
        }
    }
}

/// The termination of a game lost by `failure`.
fn termination_of(failure: &EngineFailure) -> Termination {
    match failure {
        EngineFailure::Crash(_) => Termination::Crash,
        EngineFailure::Stall(_) => Termination::Stall,
        EngineFailure::BadOutput(_) => Termination::BadOutput,
    }
}

/// Starts the seat's engine if it is not running, and prepares it for a new game.
fn prepare(seat: &mut Seat, setup: &GameSetup) -> Result<(), EngineFailure> {
    if seat.process.is_none() {
        let mut process = EngineProcess::start(&seat.spec.command, setup.stall_timeout)?;
        let game = setup.rules.game().name();
        if process.advertises("UCI_Variant") {
            process.set_option("UCI_Variant", game)?;
        }
        for (name, value) in setup.rules.options().iter().chain(&seat.spec.options) {
            process.set_option(name, value)?;
        }
        if seat.spec.ponder && process.advertises("Ponder") {
            process.set_option("Ponder", "true")?;
        }
        *seat.process = Some(process);
    }
    match seat.process.as_mut() {
        Some(process) => process.new_game(setup.stall_timeout),
        None => Ok(()),
    }
}

/// Plays one game; `seats[0]` is player one.
pub fn play_game(setup: &GameSetup, seats: [&mut Seat; 2]) -> GameRecord {
    let [p1, p2] = seats;
    let mut seats = [p1, p2];
    let names = [
        seats[0].spec.name().to_string(),
        seats[1].spec.name().to_string(),
    ];
    let start = setup.opening.position(setup.rules);
    let mut moves: Vec<MoveRecord> = Vec::new();
    let (opening_fen, ending) = match start {
        Err(e) => (
            String::new(),
            Ending {
                result: GameResult::Draw,
                termination: Termination::Rules,
                detail: format!("the opening cannot be played: {e}"),
            },
        ),
        Ok(pos) => {
            let fen = pos.to_fen();
            let mut pondering = [None, None];
            let ending = run(setup, &mut seats, &names, pos, &mut moves, &mut pondering);
            // A search still pondering at the end of the game is stopped (and its answer read).
            for (seat, expected) in seats.iter_mut().zip(pondering) {
                if expected.is_some()
                    && let Some(process) = seat.process.as_mut()
                    && process.ponder_miss(setup.stall_timeout).is_err()
                {
                    *seat.process = None;
                }
            }
            (fen, ending)
        }
    };
    for (i, seat) in seats.iter_mut().enumerate() {
        if ending.termination.is_failure() && ending.result.points(seat_of(i)) == 0.0 {
            // The loser by failure is restarted for its next game.
            *seat.process = None;
        }
    }
    GameRecord {
        event: setup.event.to_string(),
        date: setup.date.to_string(),
        variant: setup.rules.game().name().to_string(),
        round: setup.round,
        number: setup.number,
        p1: names[0].clone(),
        p2: names[1].clone(),
        opening: setup.opening.line(),
        opening_fen,
        time_control: setup.time_control.to_string(),
        moves,
        result: ending.result,
        termination: ending.termination,
        detail: ending.detail,
    }
}

fn seat_of(index: usize) -> Player {
    if index == 0 { Player::One } else { Player::Two }
}

/// The move loop. `pondering[i]` is the reply seat `i`'s engine is pondering on (in the
/// referee's notation), while it does.
fn run(
    setup: &GameSetup,
    seats: &mut [&mut Seat; 2],
    names: &[String; 2],
    mut pos: Box<dyn crate::game::dynamic::RulePosition>,
    moves: &mut Vec<MoveRecord>,
    pondering: &mut [Option<String>; 2],
) -> Ending {
    for (i, seat) in seats.iter_mut().enumerate() {
        if let Err(f) = prepare(seat, setup) {
            return Ending::failure(seat_of(i), &names[i], &f);
        }
    }
    let mut clocks = [
        Clock::new(seats[0].spec.time),
        Clock::new(seats[1].spec.time),
    ];
    let mut adjudicator = Adjudicator::new(setup.adjudication);
    let mut played: Vec<String> = Vec::new();
    loop {
        if let Some(outcome) = pos.outcome() {
            let result = GameResult::from(outcome);
            cross_check(setup, seats, names, &played, result);
            return Ending {
                result,
                termination: Termination::Rules,
                detail: match result {
                    GameResult::Draw => "drawn by the rules".to_string(),
                    _ => format!("{} wins by the rules", seat_name(winner(result))),
                },
            };
        }
        let mover = pos.side_to_move();
        let i = mover.index();
        let fail = |f: EngineFailure| Ending::failure(mover, &names[i], &f);
        let go = go_arguments(&clocks[0], &clocks[1], mover == Player::One)
            .unwrap_or_else(|| "movetime 1000".to_string());
        let budget_ms = clocks[i].budget_ms().map(|ms| ms.max(0) as u64);
        let deadline = clocks[i]
            .deadline_ms()
            .map(|ms| Duration::from_millis(ms.max(0) as u64));
        let Some(process) = seats[i].process.as_mut() else {
            return fail(EngineFailure::Crash("not running".into()));
        };
        let command = setup.opening.position_command(&played);
        let answer = match pondering[i].take() {
            Some(expected) if played.last() == Some(&expected) => {
                process.ponder_hit(deadline, setup.stall_timeout)
            }
            Some(_) => process
                .ponder_miss(setup.stall_timeout)
                .and_then(|()| process.go(&command, &go, deadline, setup.stall_timeout)),
            None => process.go(&command, &go, deadline, setup.stall_timeout),
        };
        let answer = match answer {
            Ok(a) => a,
            Err(f) => return fail(f),
        };
        if let Err(forfeit) = clocks[i].charge(answer.elapsed_ms) {
            return Ending {
                result: GameResult::win_for(mover.opponent()),
                termination: Termination::TimeForfeit,
                detail: format!(
                    "{} ({}) answered {} ms past its time (bestmove {} after {} ms)",
                    seat_name(mover),
                    names[i],
                    forfeit.over_ms,
                    answer.mv,
                    answer.elapsed_ms
                ),
            };
        }
        let text = match pos.play(&answer.mv) {
            Ok(text) => text,
            Err(MoveError::Unreadable(why)) => return fail(EngineFailure::BadOutput(why)),
            Err(MoveError::Illegal(why)) => {
                return Ending {
                    result: GameResult::win_for(mover.opponent()),
                    termination: Termination::IllegalMove,
                    detail: format!(
                        "{} ({}) played an illegal move: {why}",
                        seat_name(mover),
                        names[i]
                    ),
                };
            }
        };
        moves.push(MoveRecord {
            text: text.clone(),
            score: answer.score,
            depth: answer.depth,
            time_ms: answer.elapsed_ms,
            budget_ms,
        });
        played.push(text);
        if seats[i].spec.ponder
            && let Some(reply) = &answer.ponder
            && let Some(expected) = ponder_line(&*pos, reply, mover)
        {
            let mut line = played.clone();
            line.push(expected.clone());
            let go = go_arguments(&clocks[0], &clocks[1], mover == Player::One)
                .unwrap_or_else(|| "movetime 1000".to_string());
            let Some(process) = seats[i].process.as_mut() else {
                return fail(EngineFailure::Crash("not running".into()));
            };
            if let Err(f) = process.start_ponder(&setup.opening.position_command(&line), &go) {
                return fail(f);
            }
            pondering[i] = Some(expected);
        }
        if pos.outcome().is_none()
            && let Some((result, termination, detail)) = adjudicator.after_move(mover, answer.score)
        {
            return Ending {
                result,
                termination,
                detail,
            };
        }
    }
}

/// The expected `reply` in the referee's notation, if pondering on it makes sense: the game
/// goes on, the opponent of `mover` is to move, `reply` is legal and gives `mover` the move.
fn ponder_line(
    pos: &dyn crate::game::dynamic::RulePosition,
    reply: &str,
    mover: Player,
) -> Option<String> {
    if pos.outcome().is_some() || pos.side_to_move() == mover {
        return None;
    }
    let mut after = pos.boxed_clone();
    let text = after.play(reply).ok()?;
    (after.outcome().is_none() && after.side_to_move() == mover).then_some(text)
}

fn winner(result: GameResult) -> Player {
    if result == GameResult::P2Win {
        Player::Two
    } else {
        Player::One
    }
}

/// Asks both engines for the result of the final position and logs any disagreement; the
/// referee's rules decide either way.
fn cross_check(
    setup: &GameSetup,
    seats: &mut [&mut Seat; 2],
    names: &[String; 2],
    played: &[String],
    result: GameResult,
) {
    let command = setup.opening.position_command(played);
    for (seat, name) in seats.iter_mut().zip(names) {
        let Some(process) = seat.process.as_mut() else {
            continue;
        };
        if process.send(&command).is_err() {
            continue;
        }
        match process.query("result", setup.stall_timeout) {
            Some(word) if word != result.query_word() => log::warn!(
                "game {}: {name} says the result is {word}, the rules say {}",
                setup.number,
                result.query_word()
            ),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_loses_with_the_termination_of_its_kind() {
        for (failure, termination) in [
            (EngineFailure::Crash("x".into()), Termination::Crash),
            (EngineFailure::Stall("x".into()), Termination::Stall),
            (EngineFailure::BadOutput("x".into()), Termination::BadOutput),
        ] {
            assert_eq!(termination_of(&failure), termination);
            assert_eq!(failure.kind(), termination.label());
        }
    }
}
