//! Runs a match: worker threads play game pairs (each with its own engine processes), the
//! main thread appends every finished game to the record file at once, keeps the tally and
//! the results file current, prints progress, and stops early when the SPRT decides.
//! `--resume` reads the record file back ([`crate::referee::resume`]) and plays only the games
//! it lacks.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::{Sender, unbounded};

use crate::client::EngineProcess;
use crate::progress::{Progress, Style};
use crate::record::RecordFile;
use crate::record::game::GameRecord;
use crate::record::{Opening, today};
use crate::referee::config::{MatchConfig, OpeningSource};
use crate::referee::identity::MatchIdentity;
use crate::referee::openings::random_opening;
use crate::referee::play::{GameSetup, Seat, play_game};
use crate::referee::report::{format_table, progress_line};
use crate::referee::results::{ResultsFile, ResultsMeta, SprtStop, write_results};
use crate::referee::resume::recover;
use crate::referee::schedule::{PairJob, opening_index, pairs};
use crate::referee::tally::Tally;
use crate::runs::ShardSet;

/// A pair to play and which of its two games still need playing.
#[derive(Clone, Debug)]
struct Work {
    job: PairJob,
    games: Vec<u64>,
}

/// What a finished match left behind.
#[derive(Debug)]
pub struct MatchOutcome {
    /// Every game of this run and of the resumed record.
    pub tally: Tally,
    /// The final table, as printed.
    pub table: String,
}

/// The opening of every round the work needs, computed once.
fn openings(config: &MatchConfig, work: &[Work]) -> Result<BTreeMap<u64, Opening>, String> {
    let mut by_round = BTreeMap::new();
    for w in work {
        let round = w.job.round;
        if by_round.contains_key(&round) {
            continue;
        }
        let opening = match &config.openings {
            OpeningSource::Start => Opening::start(),
            OpeningSource::List {
                openings, shuffle, ..
            } => openings[opening_index(openings.len(), round, *shuffle, config.seed)].clone(),
            OpeningSource::Random { plies } => {
                random_opening(&config.rules, *plies, config.seed, round)?
            }
        };
        by_round.insert(round, opening);
    }
    Ok(by_round)
}

/// The work of this run: every pair of the schedule (of this shard) minus recorded games.
fn plan(config: &MatchConfig, tally: &Tally) -> Vec<Work> {
    let recorded: std::collections::BTreeSet<u64> = tally.games().map(|g| g.number).collect();
    pairs(config.engines.len(), config.tournament, config.rounds)
        .into_iter()
        .filter(|job| config.shard.is_none_or(|s| s.contains(job.index)))
        .map(|job| Work {
            job,
            games: job
                .game_numbers()
                .into_iter()
                .filter(|n| !recorded.contains(n))
                .collect(),
        })
        .collect()
}

/// The warning of a match whose pondering asks for more cores than the machine has (`cores`:
/// the processors this process may run on, [`available_cores`]), or `None`. A game with a
/// pondering engine has both its engines searching at once (one on its own clock, the other on
/// its opponent's), so it takes two cores instead of one; the games at once are
/// `--concurrency`, or fewer when fewer pairs are left to play. An engine short of a core
/// searches several times slower than its clock expects and loses on time.
fn ponder_warning(config: &MatchConfig, work: &[Work], cores: usize) -> Option<String> {
    let ponders = |e: usize| config.engines.get(e).is_some_and(|spec| spec.ponder);
    let mut searches: Vec<usize> = work
        .iter()
        .filter(|w| !w.games.is_empty())
        .map(|w| 1 + usize::from(ponders(w.job.first) || ponders(w.job.second)))
        .collect();
    searches.sort_unstable_by(|a, b| b.cmp(a));
    let at_once = config.concurrency.max(1).min(searches.len());
    let busiest: usize = searches.iter().take(at_once).sum();
    (busiest > cores && searches.first() == Some(&2)).then(|| {
        format!(
            "warning: with ponder=on both engines of a game search at once: {at_once} game(s) at \
             once need {busiest} cores, and this machine has {cores}; engines short of a core \
             lose on time (lower --concurrency; docs/referee.md, \"Pondering\")"
        )
    })
}

/// The logical processors this process may run on (its affinity and CPU quota; 1 if that
/// cannot be told).
fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Starts every engine once before the match (the handshake only), so that a wrong command
/// or an engine that cannot speak the protocol is an error up front rather than a match of
/// forfeits. Failures during the match itself are the engines' losses, as usual.
fn preflight(config: &MatchConfig) -> Result<(), String> {
    for spec in &config.engines {
        EngineProcess::start(&spec.command, config.stall_timeout)
            .map_err(|f| format!("engine {} cannot start: {f}", spec.name()))?
            .quit();
    }
    Ok(())
}

/// Plays the match to the end (or to the SPRT's verdict); prints progress on stderr and the
/// final table on stdout.
pub fn run_match(config: &MatchConfig) -> Result<MatchOutcome, String> {
    let names: Vec<String> = config
        .engines
        .iter()
        .map(|e| e.name().to_string())
        .collect();
    let identity = MatchIdentity::of(config)?;
    let shards = ShardSet::of(config.shard);
    let mut tally = Tally::new(names.clone());
    recover(config, &identity, &shards, &mut tally)?;
    let work = plan(config, &tally);
    let scheduled: u64 = work.len() as u64 * 2;
    let openings = openings(config, &work)?;
    if let Some(warning) = ponder_warning(config, &work, available_cores()) {
        eprintln!("ludus match: {warning}");
    }
    preflight(config)?;
    let mut record = match &config.record {
        Some(path) => Some(
            RecordFile::open(path, identity.record_tags(&shards))
                .map_err(|e| format!("cannot open record file {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let meta = ResultsMeta::new(&config.event, &identity, &shards)?;
    let queue: Mutex<VecDeque<Work>> =
        Mutex::new(work.into_iter().filter(|w| !w.games.is_empty()).collect());
    let stop = AtomicBool::new(false);
    let date = today();
    let time_control = config.time_control_label();
    let started = Instant::now();
    let already = tally.len();
    // On a terminal a bar with the count and the ETA stays under the games' lines; in a pipe
    // the lines alone (cutechess's style, which scripts read).
    let mut bar = (!config.quiet && Style::for_stderr() == Style::Bar).then(|| {
        let mut bar = Progress::stderr("match", "games", Some(scheduled));
        bar.resume_at(already as u64);
        bar
    });
    let mut failure: Option<String> = None;
    let mut decided: Option<SprtStop> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = unbounded::<GameRecord>();
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop, openings, date, time_control) =
                (&queue, &stop, &openings, &date, &time_control);
            scope.spawn(move || {
                worker(config, queue, stop, openings, date, time_control, tx);
            });
        }
        drop(tx);
        for game in rx {
            if let Some(file) = record.as_mut()
                && let Err(e) = file.append(&game)
            {
                failure.get_or_insert(format!("cannot write the record file: {e}"));
                stop.store(true, Ordering::SeqCst);
            }
            let summary = game.summary();
            if let Err(e) = tally.add(summary.clone()) {
                failure.get_or_insert(e);
                stop.store(true, Ordering::SeqCst);
            }
            if let Some(path) = &config.results {
                let mut file = ResultsFile::from_tally(
                    &meta,
                    &identity,
                    &shards,
                    &tally,
                    config.sprt.as_ref(),
                );
                file.decided = decided.clone();
                if let Err(e) = write_results(path, &file) {
                    failure.get_or_insert(format!("cannot write {}: {e}", path.display()));
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if !config.quiet {
                let played = (tally.len() - already) as u64;
                let line = progress_line(
                    &tally,
                    &summary,
                    played,
                    scheduled,
                    started.elapsed(),
                    config.sprt.as_ref(),
                );
                let detail = (!game.detail.is_empty() && game.termination.is_failure())
                    .then(|| format!("  game {}: {}", game.number, game.detail));
                match bar.as_mut() {
                    Some(bar) => {
                        bar.println(&line);
                        if let Some(detail) = &detail {
                            bar.println(detail);
                        }
                        // The score and LLR of the line, beside the bar.
                        let score = line.split(" | ").nth(1).unwrap_or_default();
                        bar.update(tally.len() as u64, score);
                    }
                    None => {
                        eprintln!("{line}");
                        if let Some(detail) = &detail {
                            eprintln!("{detail}");
                        }
                    }
                }
            }
            if let Some(sprt) = &config.sprt
                && decided.is_none()
                && let Some(e) = tally.encounters().first()
                && let llr = sprt.llr(&e.pentanomial)
                && let Some(verdict) = sprt.verdict(llr)
            {
                decided = Some(SprtStop::new(verdict, tally.len(), llr));
                if !stop.swap(true, Ordering::SeqCst) && !config.quiet {
                    let line = "SPRT decided: finishing the games in progress";
                    match bar.as_mut() {
                        Some(bar) => bar.println(line),
                        None => eprintln!("{line}"),
                    }
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(path) = &config.results {
        let mut file =
            ResultsFile::from_tally(&meta, &identity, &shards, &tally, config.sprt.as_ref());
        file.decided = decided.clone();
        write_results(path, &file).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let stopped_at = decided.and_then(|d| d.line(tally.len()));
    let table = format!(
        "{}\n{}{}",
        meta.headline(tally.len()),
        format_table(&tally, config.sprt.as_ref()),
        stopped_at.unwrap_or_default()
    );
    Ok(MatchOutcome { tally, table })
}

/// One worker: takes pairs until none are left (or the match is stopped) and plays their
/// games with its own engine processes, one per engine, started on demand.
fn worker(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<Work>>,
    stop: &AtomicBool,
    openings: &BTreeMap<u64, Opening>,
    date: &str,
    time_control: &str,
    tx: Sender<GameRecord>,
) {
    let mut processes: Vec<Option<EngineProcess>> = config.engines.iter().map(|_| None).collect();
    while !stop.load(Ordering::SeqCst) {
        let next = queue.lock().ok().and_then(|mut q| q.pop_front());
        let Some(work) = next else { break };
        let Some(opening) = openings.get(&work.job.round) else {
            break;
        };
        // Keep only the processes of this pair's engines.
        for (e, slot) in processes.iter_mut().enumerate() {
            if e != work.job.first
                && e != work.job.second
                && let Some(p) = slot.take()
            {
                p.quit();
            }
        }
        for number in work.games {
            let (p1, p2) = if number % 2 == 1 {
                (work.job.first, work.job.second)
            } else {
                (work.job.second, work.job.first)
            };
            let mut proc1 = processes[p1].take();
            let mut proc2 = processes[p2].take();
            let setup = GameSetup {
                event: &config.event,
                date,
                rules: &config.rules,
                opening,
                round: (work.job.round + 1) as u32,
                number,
                adjudication: config.adjudication,
                stall_timeout: config.stall_timeout,
                time_control,
            };
            let record = play_game(
                &setup,
                [
                    &mut Seat {
                        spec: &config.engines[p1],
                        process: &mut proc1,
                    },
                    &mut Seat {
                        spec: &config.engines[p2],
                        process: &mut proc2,
                    },
                ],
            );
            processes[p1] = proc1;
            processes[p2] = proc2;
            if tx.send(record).is_err() {
                return;
            }
        }
    }
    for p in processes.into_iter().flatten() {
        p.quit();
    }
}
