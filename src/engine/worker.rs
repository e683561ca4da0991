//! The worker thread itself: its loop over the controls the [`Engine`] handle sends, and each
//! job: a search (the solved book and the prover below it first, for `Level full`), a perft
//! (stoppable at every node above its last ply), a bench.

use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::book_lines::{book_info, book_lines};
use super::{Control, Event, Job, Report, TableWork};
use crate::game::{Game, OptionValues, Searchable};
use crate::search::levels::{self, Level};
use crate::search::progress::Progress;
use crate::search::strength;
use crate::search::tt::TranspositionTable;
use crate::search::{
    Limits, PonderHit, Score, SearchInfo, SearchParams, SearchTables, Searcher, mcts,
    search as run_search, search_reporting,
};
use crate::solve::{self, book::BookMove};

pub(super) struct Worker<G: Searchable> {
    events: Sender<Event>,
    stop: Arc<AtomicBool>,
    /// The newest `Hash` change and whether the engine closes.
    table: Arc<TableWork>,
    /// The `Hash` change whose table is being written, to be announced once it is in place.
    announce: Option<u64>,
    tables: SearchTables<G::Move>,
    /// The last MCTS search's tree, for the next search (cleared with the tables).
    mcts_tree: mcts::KeptTree<G>,
    rng: SmallRng,
}

impl<G: Searchable> Worker<G> {
    /// A worker reporting into `events`, stopped by `stop`, with `tables` and a random seed.
    pub(super) fn new(
        events: Sender<Event>,
        stop: Arc<AtomicBool>,
        table: Arc<TableWork>,
        tables: SearchTables<G::Move>,
        seed: u64,
    ) -> Self {
        Worker {
            events,
            stop,
            table,
            announce: None,
            tables,
            mcts_tree: mcts::KeptTree::default(),
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// Runs the controls of `inbox` until it is closed. Between them, while the inbox is empty,
    /// it writes the pages of a new table ([`Worker::commit_table`]).
    pub(super) fn run(mut self, inbox: Receiver<Control<G>>) {
        loop {
            self.commit_table(&inbox);
            let Ok(control) = inbox.recv() else {
                break;
            };
            match control {
                Control::Run(id, job) => {
                    // A job that panics must still end with its final report, or the protocol
                    // would wait for it; the tables it left half-written are cleared.
                    let fallback = job.failure_report();
                    let run = std::panic::catch_unwind(AssertUnwindSafe(|| self.run_job(id, job)));
                    if run.is_err() {
                        log::error!("job {id} failed; answering for it");
                        self.clear_tables();
                        self.report(id, fallback);
                    }
                }
                Control::NewGame => self.clear_tables(),
                Control::ResizeHash { generation, mib } => {
                    // A newer change follows in the inbox: this one is skipped.
                    if generation == self.table.latest.load(Ordering::SeqCst) {
                        self.resize_hash(mib);
                        self.announce = Some(generation);
                    }
                }
                Control::Seed(seed) => self.rng = SmallRng::seed_from_u64(seed),
                Control::WarmUp(warmed) => {
                    warm_up::<G>();
                    drop(warmed);
                }
            }
        }
    }

    /// Writes the pages of a table not yet in place while nothing else waits: it pauses as soon
    /// as a control arrives (or the engine closes) and resumes on the next call. Once the table
    /// of the newest `Hash` change is in place, says so ([`Event::HashReady`]).
    fn commit_table(&mut self, inbox: &Receiver<Control<G>>) {
        let closing = &self.table.closing;
        if !self.tables.tt.is_committed() && inbox.is_empty() && !closing.load(Ordering::SeqCst) {
            self.tables
                .tt
                .commit(|| !inbox.is_empty() || closing.load(Ordering::SeqCst));
        }
        if self.tables.tt.is_committed()
            && let Some(generation) = self.announce.take()
        {
            let _ = self.events.send(Event::HashReady { generation });
        }
    }

    /// Forgets everything learnt: the transposition and history tables and the kept tree.
    fn clear_tables(&mut self) {
        self.tables.clear();
        self.mcts_tree.clear();
    }

    /// Frees the table, then allocates one of `mib` MiB, its pages to be written by
    /// [`Worker::commit_table`]; if that fails, one of the old size, else the smallest.
    fn resize_hash(&mut self, mib: usize) {
        let old_mib = self.tables.tt.bytes() >> 20;
        self.mcts_tree.clear();
        self.tables.tt = TranspositionTable::tiny();
        self.tables.history.clear();
        if let Ok(tt) = TranspositionTable::uncommitted(mib) {
            self.tables.tt = tt;
            return;
        }
        let (tt, kept_mib) = match TranspositionTable::uncommitted(old_mib) {
            Ok(tt) => (tt, old_mib),
            Err(_) => (TranspositionTable::tiny(), 0),
        };
        self.tables.tt = tt;
        let refused = Event::HashRefused {
            wanted_mib: mib,
            kept_mib,
        };
        let _ = self.events.send(refused);
    }

    fn report(&self, job: u64, report: Report) {
        let _ = self.events.send(Event::Worker { job, report });
    }

    fn run_job(&mut self, id: u64, job: Job<G>) {
        match job {
            Job::Search {
                root,
                params,
                level,
                searcher,
                book,
            } => {
                let mut params = params;
                let solved = if book && level == Level::Full {
                    self.solved(&root, &mut params)
                } else {
                    None
                };
                self.search(id, &root, &params, level, searcher, solved)
            }
            Job::Perft { root, depth } => self.perft(id, &root, depth),
            Job::Bench { net } => self.bench(id, net),
        }
    }

    /// What `Level full` with `SolvedBook` on knows before it searches: the book's move, else
    /// (with every root move and one line) what the exact prover finds, run once before the
    /// search while the position has at most [`solve::endgame::MAX_EMPTIES`] empty points and
    /// given up after its node budget, at `stop`, or at nine tenths of the move's time (the
    /// search, far weaker than a proof this near the end, has the rest). A proven win is
    /// played at once; in a proven loss (`wins` false) the search chooses the move, which
    /// plays for the opponent's mistakes where the proof's longest line need not (issue 31),
    /// and the proven `score mate -N` is reported after it; a proof that gave up leaves the
    /// search the moves it had not proven lost.
    fn solved(&self, root: &G, params: &mut SearchParams<G::Move>) -> Option<BookMove> {
        if let Some(known) = solve::book::probe(root) {
            return Some(known);
        }
        if params.root_moves.is_some() || params.multipv > 1 {
            return None;
        }
        let start = params.limits.started.unwrap_or_else(Instant::now);
        let deadlines =
            params
                .limits
                .deadlines(start, params.overhead_ms, root.moves_left_estimate());
        let deadline = deadlines
            .soft
            .or(deadlines.hard)
            .map(|d| start + d.saturating_duration_since(start) * 9 / 10);
        let bound = solve::endgame::Bound {
            stop: &self.stop,
            deadline,
            ponderhit: params.ponder.as_deref().map(PonderHit::flag),
        };
        match solve::endgame::prove(root, bound)? {
            solve::endgame::Proof::Proven(known) => Some(known),
            solve::endgame::Proof::GaveUp(losing) => {
                let mut left = crate::search::root_moves(root, params);
                left.retain(|&m| !losing.contains(&root.move_to_string(m)));
                if !losing.is_empty() && !left.is_empty() {
                    params.root_moves = Some(left);
                }
                None
            }
        }
    }

    fn search(
        &mut self,
        id: u64,
        root: &G,
        params: &SearchParams<G::Move>,
        level: Level,
        searcher: Searcher,
        book: Option<BookMove>,
    ) {
        // From the `go`: a proof before the search is part of the move's time.
        let start = params.limits.started.unwrap_or_else(Instant::now);
        let events = &self.events;
        let send = |report| events.send(Event::Worker { job: id, report }).ok();
        if level != Level::Full || !searcher.uses_mcts(root, &params.limits) {
            // Only MCTS goes on from the kept tree; no need to hold its memory.
            self.mcts_tree.clear();
        }
        // MultiPV on a position the book knows: its proven lines, and a search of the moves it
        // does not know for the lines between its wins and its losses.
        let known = book
            .as_ref()
            .filter(|_| params.multipv > 1)
            .map(|hit| book_lines(root, params, hit, start));
        // The number of the book's lines before the search's (its wins).
        let offset = Cell::new(0);
        // The last principal variation of the first line: its second move is the reply to ponder.
        let mut last_line: Vec<G::Move> = Vec::new();
        let mut report = |mut i: SearchInfo<G::Move>| {
            // The search's lines come after the book's wins (its only line is one of them too).
            let shift = offset.get();
            if shift > 0 {
                i.multipv = Some(i.multipv.unwrap_or(1) + shift);
            }
            if i.multipv.is_none_or(|k| k == 1) {
                last_line.clone_from(&i.pv);
            }
            send(Report::Info(i.map_pv(|pv| root.line_notation(pv))));
        };
        let mut rest: Option<SearchParams<G::Move>> = None;
        let mut proven_best = None;
        if let Some(known) = known {
            let wins = known.wins.len().min(params.multipv);
            let searched = known.unknown.len().min(params.multipv - wins);
            let losses = params.multipv - wins - searched;
            proven_best = known
                .wins
                .first()
                .or(known.losses.first().filter(|_| searched == 0))
                .and_then(|line| line.pv.first().copied());
            for (k, line) in known.wins.into_iter().take(wins).enumerate() {
                report(SearchInfo {
                    multipv: Some(k + 1),
                    ..line
                });
            }
            for (k, line) in known.losses.into_iter().take(losses).enumerate() {
                report(SearchInfo {
                    multipv: Some(wins + searched + k + 1),
                    ..line
                });
            }
            if searched > 0 {
                offset.set(wins);
                rest = Some(SearchParams {
                    root_moves: Some(known.unknown),
                    multipv: searched,
                    ..params.clone()
                });
            }
        }
        let searched_params = rest.as_ref().unwrap_or(params);
        // `book` is only probed for `Level full` (run_job); `searchmoves` may still rule it out.
        // A proven loss: the search plays, and its move is reported with the proven score.
        let lost = book.as_ref().filter(|hit| !hit.wins).cloned();
        let in_book = book
            .filter(|hit| hit.wins && params.multipv <= 1)
            .and_then(|hit| root.parse_move(&hit.mv).ok().map(|m| (hit, m)))
            .filter(|&(_, m)| {
                params
                    .root_moves
                    .as_ref()
                    .is_none_or(|moves| moves.contains(&m))
            });
        let best = match level {
            // Every line the book knows: no search.
            _ if proven_best.is_some() && rest.is_none() => proven_best,
            _ if in_book.is_some() => in_book.map(|(hit, m)| {
                report(book_info(start, &hit, m));
                m
            }),
            Level::Full if searcher.uses_mcts(root, &searched_params.limits) => {
                // The tree may use as much memory as the transposition table (option `Hash`).
                let budget = self.tables.tt.bytes();
                let kept = &mut self.mcts_tree;
                let p = searched_params;
                mcts::search_reusing(root, p, budget, kept, &self.stop, &mut report).best
            }
            Level::Full => {
                let mut progress = |p: Progress<G::Move>| {
                    send(Report::Progress(p.map_move(|m| root.move_to_string(m))));
                };
                let tables = &mut self.tables;
                let p = searched_params;
                search_reporting(root, p, tables, &self.stop, &mut report, &mut progress).best
            }
            Level::Limited(strength) => {
                let tables = &mut self.tables;
                let chosen = strength::search_limited(
                    root,
                    params,
                    strength,
                    tables,
                    &self.stop,
                    &mut self.rng,
                );
                chosen.and_then(|line| {
                    let m = line.pv.first().copied();
                    report(line);
                    m
                })
            }
            Level::Greedy => {
                let moves = levels::candidate_moves(root, params.root_moves.as_deref());
                let choice = levels::greedy_move_among(root, &moves, &mut self.rng);
                if let Some((m, score)) = choice {
                    report(one_ply_info(start, score, m));
                }
                choice.map(|(m, _)| m)
            }
            Level::Random => {
                let moves = levels::candidate_moves(root, params.root_moves.as_deref());
                levels::random_move_among(&moves, &mut self.rng)
            }
        };
        if let (Some(lost), Some(m)) = (&lost, best)
            && params.multipv <= 1
        {
            report(book_info(start, lost, m));
        }
        // A proven win of the book goes before the moves it does not know.
        let best = proven_best.or(best);
        if params.limits.infinite {
            // `go infinite` holds its bestmove until `stop`, even when the search is over; a
            // ponder search until `stop` or `ponderhit` (then it was the real search).
            let hit = || params.ponder.as_ref().is_some_and(|p| p.is_hit());
            while !self.stop.load(Ordering::SeqCst) && !hit() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let ponder = match (best, last_line.as_slice()) {
            (Some(m), [first, _, ..]) if *first == m => root.line_notation(&last_line[..2]).pop(),
            _ => None,
        };
        let best = best.map(|m| root.move_to_string(m));
        self.report(id, Report::BestMove { best, ponder });
    }

    fn perft(&self, id: u64, root: &G, depth: u32) {
        let mut moves = Vec::new();
        if root.outcome().is_none() {
            root.generate_moves(&mut moves);
        }
        let mut total = 0;
        let mut complete = true;
        for &m in &moves {
            let mut child = root.clone();
            child.play(m);
            match perft_stoppable(&child, depth - 1, &self.stop) {
                Some(nodes) => {
                    total += nodes;
                    let mv = root.move_to_string(m);
                    self.report(id, Report::PerftMove { mv, nodes });
                }
                None => {
                    complete = false;
                    break;
                }
            }
        }
        self.report(
            id,
            Report::PerftDone {
                nodes: total,
                complete,
            },
        );
    }

    fn bench(&mut self, id: u64, net: Option<std::sync::Arc<crate::net::Net>>) {
        let start = Instant::now();
        let settings = G::settings(&OptionValues::from_specs(&G::options()));
        let mut total = 0;
        let mut complete = true;
        for fen in G::BENCH_FENS {
            let Ok(root) = G::from_fen(fen, &settings) else {
                continue;
            };
            self.tables.clear();
            let params = SearchParams {
                net: net.clone(),
                ..SearchParams::new(Limits {
                    depth: Some(G::BENCH_DEPTH),
                    ..Limits::default()
                })
            };
            let result = run_search(&root, &params, &mut self.tables, &self.stop, &mut |_| {});
            total += result.nodes;
            let fen = fen.to_string();
            self.report(
                id,
                Report::BenchPosition {
                    fen,
                    nodes: result.nodes,
                },
            );
            if self.stop.load(Ordering::SeqCst) {
                complete = false;
                break;
            }
        }
        self.tables.clear();
        let ms = start.elapsed().as_millis() as u64;
        self.report(
            id,
            Report::BenchDone {
                nodes: total,
                ms,
                complete,
            },
        );
    }
}

/// Loads `G`'s solved books and makes this thread's endgame table below them, its memory
/// committed (nothing for a game without books).
pub(super) fn warm_up<G: Searchable>() {
    solve::book::load_for::<G>();
    if G::HAS_SOLVED_BOOK {
        solve::endgame::warm_up();
    }
}

fn one_ply_info<M>(start: Instant, score: i32, m: M) -> SearchInfo<M> {
    let time_ms = start.elapsed().as_millis() as u64;
    SearchInfo {
        depth: 1,
        seldepth: 1,
        multipv: None,
        score: Score::from_internal(score),
        nodes: 1,
        nps: 1000 / time_ms.max(1),
        time_ms,
        hashfull: 0,
        pv: vec![m],
    }
}

/// Perft that gives up (`None`) once `stop` is set; bulk-counts the last ply. The flag is read
/// before every node above the last ply, so between two reads there is at most one move
/// generation: a stop is seen within microseconds, as a search sees it.
pub fn perft_stoppable<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 1 {
        return Some(pos.perft(depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play(m);
        total += perft_stoppable(&child, depth - 1, stop)?;
    }
    Some(total)
}
