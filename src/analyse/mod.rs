//! `ludus analyse RECORD`: game review. Every position of a recorded game (a referee record
//! or a game exported by the web GUI) is searched by an engine at fixed limits, through the
//! protocol like any match (`uginewgame` before each position, so each score is the one a
//! fresh `go` at those limits gives); every move is scored against the engine's best, marked
//! `?!`, `?` or `??` by what it lost ([`judge`]), and the game is written back as a record
//! with a comment after every move and a summary per player in tags.
//!
//! A move's comment is `{AFTER, best MOVE SCORE}`: MOVE and SCORE are the engine's answer
//! for the position before the move (`bestmove` and the score of its last `info` line),
//! AFTER the mover's score after the move (the next position's score: negated when the other
//! player is to move there, unchanged when the mover moves again, as in Isaac after a pass;
//! `end` when the move ended the game), both from the mover's side, then the verdict's word
//! for a marked move. The comment that said how the game ended is kept before the result.

pub mod judge;
pub mod review;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use judge::Verdict;
use review::{review_moves, search_fresh};

use crate::client::{Answer, EngineProcess};
use crate::game::dynamic::{MoveError, RuleSet};
use crate::game::{GameId, Outcome};
use crate::progress::Progress;
use crate::record::Opening;
use crate::record::{RecordedGame, escape_tag, read_records, wrap};
use crate::runs::{self, RunError};

/// The settings of `ludus analyse`.
#[derive(Clone, Debug)]
pub struct AnalyseArgs {
    /// The record file.
    pub file: PathBuf,
    /// Only the game with this `Game` tag.
    pub game_number: Option<u64>,
    /// The search limit, as the arguments of `go` (`depth 8`, `nodes 100000`, `movetime 500`).
    pub limit: String,
    /// The engine command; `None` = this program.
    pub engine: Option<PathBuf>,
    /// Longest wait for one position's `bestmove`.
    pub timeout: Duration,
}

/// One game ready to be analysed: its rules, opening and moves, checked.
struct Game<'a> {
    record: &'a RecordedGame,
    id: GameId,
    options: Vec<(String, String)>,
    opening: Opening,
    moves: Vec<String>,
    /// The side to move before each move and, when the game did not end, in the final
    /// position (a player may move twice in a row); the outcome after the last move.
    to_move: Vec<crate::game::Player>,
    outcome: Option<Outcome>,
}

/// Runs `ludus analyse`: writes the annotated games to `out`, progress to standard error.
pub fn run(args: &AnalyseArgs, out: &mut dyn Write) -> i32 {
    runs::report(analyse(args, out))
}

fn analyse(args: &AnalyseArgs, out: &mut dyn Write) -> Result<(), RunError> {
    let path = &args.file;
    if !path.is_file() {
        return Err(RunError::Refused(format!(
            "{}: no such file",
            path.display()
        )));
    }
    let recovered = read_records(path).map_err(|e| {
        if e.contains("bad Result tag \"*\"") {
            RunError::Refused(format!(
                "{e}: a game still in progress (exported before its end) is not reviewed; export it when it has ended"
            ))
        } else {
            RunError::Refused(e)
        }
    })?;
    if recovered.games.is_empty() {
        return Err(RunError::Refused(format!(
            "{}: no complete game in it (a game is its tags, a blank line, the moves and a blank line)",
            path.display()
        )));
    }
    let chosen: Vec<&RecordedGame> = recovered
        .games
        .iter()
        .filter(|g| args.game_number.is_none_or(|n| g.summary.number == n))
        .collect();
    if chosen.is_empty() {
        return Err(RunError::Refused(format!(
            "{}: no game numbered {}",
            path.display(),
            args.game_number.unwrap_or_default()
        )));
    }
    // Every game is checked before the first search: a bad record costs no engine time.
    let games = chosen
        .into_iter()
        .map(|g| prepare(g, path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(RunError::Refused)?;
    for game in &games {
        let answers = search_positions(game, args).map_err(RunError::Failed)?;
        let text = annotate(game, &answers, &args.limit);
        runs::write_text(out, &text, "cannot write")?;
    }
    Ok(())
}

/// Reads a game's variant, rules, opening and moves, and plays the moves by the rules.
fn prepare<'a>(record: &'a RecordedGame, path: &Path) -> Result<Game<'a>, String> {
    let at = format!("{} line {}", path.display(), record.line);
    let tag = |name: &str| {
        record
            .tag(name)
            .ok_or_else(|| format!("{at}: the game has no {name} tag"))
    };
    let variant = tag("Variant")?;
    let id =
        GameId::from_name(variant).ok_or_else(|| format!("{at}: unknown Variant \"{variant}\""))?;
    let options: Vec<(String, String)> = match record.tag("Rules") {
        None | Some("none") | Some("") => Vec::new(),
        Some(rules) => rules
            .split_whitespace()
            .map(|w| {
                w.split_once('=')
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .ok_or_else(|| format!("{at}: Rules \"{rules}\": '{w}' is not NAME=VALUE"))
            })
            .collect::<Result<_, _>>()?,
    };
    let rules = RuleSet::new(id, &options).map_err(|e| format!("{at}: Rules: {e}"))?;
    let opening =
        Opening::parse(tag("Opening")?, &rules).map_err(|e| format!("{at}: Opening: {e}"))?;
    let mut pos = opening
        .position(&rules)
        .map_err(|e| format!("{at}: Opening: {e}"))?;
    let moves = record.moves();
    let mut to_move = Vec::with_capacity(moves.len() + 1);
    for (i, m) in moves.iter().enumerate() {
        if pos.outcome().is_some() {
            return Err(format!(
                "{at}: move {} '{m}' comes after the end of the game",
                i + 1
            ));
        }
        to_move.push(pos.side_to_move());
        pos.play(m).map_err(|e| {
            let why = match e {
                MoveError::Unreadable(why) | MoveError::Illegal(why) => why,
            };
            // The rules' reason may begin with the move itself.
            let why = why
                .strip_prefix(&format!("{m}: "))
                .unwrap_or(&why)
                .to_string();
            format!("{at}: move {} '{m}' is not legal: {why}", i + 1)
        })?;
    }
    let outcome = pos.outcome();
    if outcome.is_none() {
        to_move.push(pos.side_to_move());
    }
    Ok(Game {
        record,
        id,
        options,
        opening,
        moves,
        to_move,
        outcome,
    })
}

/// The engine's answer for every position before a move, and for the final position when
/// the game did not end there by the rules.
fn search_positions(game: &Game, args: &AnalyseArgs) -> Result<Vec<Answer>, String> {
    let mut engine = EngineProcess::start_for_game(
        args.engine.as_deref(),
        game.id,
        &game.options,
        Duration::from_secs(10),
    )?;
    let count = game.moves.len() + usize::from(game.outcome.is_none());
    let mut answers = Vec::with_capacity(count);
    let started = std::time::Instant::now();
    let mut progress = Progress::stderr("analyse", "positions", Some(count as u64));
    progress.note(&format!("game {}", game.record.summary.number));
    for i in 0..count {
        let position = game.opening.position_command(&game.moves[..i]);
        let answer = search_fresh(
            &mut engine,
            &position,
            &args.limit,
            args.timeout,
            &mut || false,
        )?;
        answers.push(answer);
        progress.inc();
    }
    progress.finish();
    eprintln!(
        "game {}: {count} positions searched ({}), {:.1} s",
        game.record.summary.number,
        args.limit,
        started.elapsed().as_secs_f64()
    );
    engine.quit();
    Ok(answers)
}

/// How each player did: counts of each verdict and the total loss.
#[derive(Default)]
struct Tally {
    moves: u64,
    loss: i64,
    counts: [u64; 4],
}

impl Tally {
    fn text(&self) -> String {
        let plural = |n: u64, word: &str| {
            let s = if n == 1 { "" } else { "s" };
            let word = if n != 1 && word.ends_with('y') {
                format!("{}ie", &word[..word.len() - 1])
            } else {
                word.to_string()
            };
            format!("{n} {word}{s}")
        };
        format!(
            "{}, {}, {}; average loss {} over {} moves",
            plural(self.counts[Verdict::Inaccuracy as usize], "inaccuracy"),
            plural(self.counts[Verdict::Mistake as usize], "mistake"),
            plural(self.counts[Verdict::Blunder as usize], "blunder"),
            if self.moves == 0 {
                0
            } else {
                self.loss / self.moves as i64
            },
            self.moves
        )
    }
}

/// The game as a record with every move scored and marked, and the review in tags.
fn annotate(game: &Game, answers: &[Answer], limit: &str) -> String {
    let mut tallies = [Tally::default(), Tally::default()];
    let mut units = Vec::with_capacity(game.moves.len() + 1);
    let reviews = review_moves(&game.moves, &game.to_move, answers, game.outcome);
    for (i, (m, review)) in game.moves.iter().zip(&reviews).enumerate() {
        let verdict = review.verdict;
        let tally = &mut tallies[game.to_move[i].index()];
        tally.moves += 1;
        tally.loss += review.loss;
        tally.counts[verdict as usize] += 1;
        let number = if i % 2 == 0 {
            format!("{}. ", i / 2 + 1)
        } else {
            String::new()
        };
        let after_text = review
            .after
            .map_or_else(|| "?".to_string(), |a| a.to_string());
        let best_score = review
            .best_score
            .map_or_else(|| "?".to_string(), |s| s.to_string());
        let best_text = format!("best {} {best_score}", review.best);
        let word = match verdict {
            Verdict::Good => String::new(),
            v => format!(", {}", v.word()),
        };
        units.push(format!(
            "{number}{m}{} {{{after_text}, {best_text}{word}}}",
            verdict.mark()
        ));
    }
    if let Some(ending) = game.record.ending_comment() {
        units.push(ending);
    }
    let result = game.record.tag("Result").unwrap_or("*");
    units.push(result.to_string());
    let mut text = String::new();
    for (name, value) in &game.record.tags {
        if !name.starts_with("Review") && name != "Annotator" {
            text.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
        }
    }
    text.push_str(&format!("[Annotator \"ludus analyse {limit}\"]\n"));
    text.push_str(&format!("[ReviewP1 \"{}\"]\n", tallies[0].text()));
    text.push_str(&format!("[ReviewP2 \"{}\"]\n", tallies[1].text()));
    text.push('\n');
    text.push_str(&wrap(&units));
    text.push_str("\n\n");
    text
}
