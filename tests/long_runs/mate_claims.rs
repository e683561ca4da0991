//! Issue 57 F1: every `score mate` the engine prints is judged by an exact search that is not
//! the engine's. Positions come from `ludus datagen` games; each is searched through the
//! protocol at a node budget drawn from 500 to 20,000 (log-uniform, seeded), alternately with
//! one and two threads, and every `score mate N` of its `info` lines (the position's, not a
//! `MultiPV` line's) is checked by a plain AND/OR minimax over the reference rules of
//! `tests/common/`: a win in N means the side to move forces a win within 2N plies, a loss in N
//! that the opponent forces one within 2N plies whatever the side to move does.
//!
//! The solved book is off: its claims (Sight 5×5) are proven by the certificate it comes with
//! (docs/solved.md) and would cost this judge minutes each.
//!
//! `LUDUS_MATE_CLAIMS=N` sets the positions per game (default 150 here), and
//! `LUDUS_MATE_CLAIMS_FROM=K` skips the first K of them (a long run split in parts that run side
//! by side); docs/benchmarks.md gives the long run (20,000 a game) and its counts.

use std::collections::HashMap;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::common::TestDir;
use crate::common::isaac_helpers::{official, ref_rules as isaac_rules};
use crate::common::isaac_reference::{RefIsaac, RefPhase};
use crate::common::process::{Engine, is_bestmove};
use crate::common::sight_reference::{Colour, RefSight};
use crate::common::tactigon_helpers::{base, ref_rules as tactigon_rules};
use crate::common::tactigon_reference::{RefPos, RefResult};

/// A position of a reference implementation, as the judge sees it.
trait Judged: Clone {
    /// Identifies the position (for the judge's memo).
    fn key(&self) -> String;
    /// The player to move (0 or 1).
    fn mover(&self) -> usize;
    /// `Some(Some(p))` once player `p` has won, `Some(None)` for a draw, `None` while going on.
    fn result(&self) -> Option<Option<usize>>;
    /// Every position one legal move away.
    fn children(&self) -> Vec<Self>;
    /// [`Judged::result`], else [`Judged::children`] (for a game whose status needs its moves,
    /// both from one list of moves).
    fn expand(&self) -> Result<Option<usize>, Vec<Self>> {
        match self.result() {
            Some(r) => Ok(r),
            None => Err(self.children()),
        }
    }
    /// How promising this position (just reached by a move of `winner`) looks for `winner`:
    /// lower first. Only the order of the judge's tries depends on it, never a verdict.
    fn promise(&self, winner: usize) -> usize;
}

impl Judged for RefPos {
    fn key(&self) -> String {
        self.to_tfn()
    }
    /// The opponent's pieces left: captures first.
    fn promise(&self, winner: usize) -> usize {
        crate::common::tactigon_reference::all_cells()
            .into_iter()
            .filter(|&c| self.at(c).is_some_and(|p| p.side != winner))
            .count()
    }
    fn mover(&self) -> usize {
        self.side
    }
    fn result(&self) -> Option<Option<usize>> {
        match self.status()? {
            RefResult::Win(p, _) => Some(Some(p)),
            RefResult::Draw(_) => Some(None),
        }
    }
    fn children(&self) -> Vec<Self> {
        successors(self, self.legal_moves(), RefPos::apply)
    }
    fn expand(&self) -> Result<Option<usize>, Vec<Self>> {
        let moves = self.moves_ignoring_status();
        match self.status_given(&moves) {
            Some(RefResult::Win(p, _)) => Ok(Some(p)),
            Some(RefResult::Draw(_)) => Ok(None),
            None => Err(successors(self, moves, RefPos::apply)),
        }
    }
}

impl Judged for RefSight {
    fn key(&self) -> String {
        self.to_spn()
    }
    /// The opponent's legal moves: a player with none has lost.
    fn promise(&self, _winner: usize) -> usize {
        self.legal_moves().len()
    }
    fn mover(&self) -> usize {
        (self.to_move == Colour::Black) as usize
    }
    fn result(&self) -> Option<Option<usize>> {
        // docs/rules/sight.md §4: the player to move with no legal move loses.
        self.legal_moves()
            .is_empty()
            .then_some(Some(1 - self.mover()))
    }
    fn children(&self) -> Vec<Self> {
        successors(self, self.legal_moves(), RefSight::play)
    }
}

impl Judged for RefIsaac {
    fn key(&self) -> String {
        self.to_fen()
    }
    /// Isaac's moves are tried in the reference's order.
    fn promise(&self, _winner: usize) -> usize {
        0
    }
    fn mover(&self) -> usize {
        self.to_move
    }
    fn result(&self) -> Option<Option<usize>> {
        (self.phase == RefPhase::Ended).then(|| Some(self.winner()))
    }
    fn children(&self) -> Vec<Self> {
        successors(self, self.legal_moves(), RefIsaac::play)
    }
}

/// The positions `moves` lead to from `pos`, each played by `play`.
fn successors<P: Clone, M>(pos: &P, moves: Vec<M>, play: impl Fn(&mut P, M)) -> Vec<P> {
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            play(&mut child, m);
            child
        })
        .collect()
}

/// Reads an SPN (docs/rules/sight.md §8.1) into the reference, written here so that the judge
/// shares no code with the engine.
fn sight_from_spn(spn: &str) -> RefSight {
    let (board, side) = spn.split_once(' ').expect("SPN: board and side");
    let (n, ranks) = board.split_once(':').expect("SPN: size");
    let n: usize = n.parse().expect("SPN: size");
    let mut pos = RefSight::new(n, false);
    for (row, rank) in ranks.split('/').enumerate() {
        let y = n - 1 - row;
        let mut x = 0;
        for token in rank.split(',') {
            let (letter, count) = token.split_at(1);
            let count: u32 = if count.is_empty() {
                1
            } else {
                count.parse().expect("SPN: count")
            };
            match letter {
                "x" => x += count as usize,
                "w" | "b" => {
                    let colour = if letter == "w" {
                        Colour::White
                    } else {
                        Colour::Black
                    };
                    pos.cells[y][x] = Some((colour, count));
                    x += 1;
                }
                _ => panic!("SPN: token {token}"),
            }
        }
        assert_eq!(x, n, "SPN: rank {rank}");
    }
    pos.to_move = if side == "b" {
        Colour::Black
    } else {
        Colour::White
    };
    assert_eq!(pos.to_spn(), spn, "SPN read back");
    pos
}

/// The judge: whether `winner` forces a win from a position within a number of plies: a
/// plain AND/OR minimax, deepened a ply at a time, that tries the most promising moves first
/// ([`Judged::promise`]). Memoised on what is known of each position (by a 64-bit hash of its
/// text): the most plies known not to suffice and the fewest known to.
struct Judge {
    memo: HashMap<(u64, usize), (u32, u32)>,
    /// Positions expanded, for the report.
    nodes: u64,
}

/// Positions one claim may expand before the judge gives up on it (counted as unjudged);
/// `LUDUS_MATE_CLAIMS_BUDGET` sets another.
fn judge_budget() -> u64 {
    std::env::var("LUDUS_MATE_CLAIMS_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000_000)
}

fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

impl Judge {
    fn new() -> Judge {
        Judge {
            memo: HashMap::new(),
            nodes: 0,
        }
    }

    /// `Some(won)`, or `None` once `budget` expansions are spent.
    fn forces_win<P: Judged>(
        &mut self,
        pos: &P,
        winner: usize,
        plies: u32,
        budget: &mut u64,
    ) -> Option<bool> {
        if plies == 0 {
            return Some(pos.result() == Some(Some(winner)));
        }
        let mut children = match pos.expand() {
            Ok(result) => return Some(result == Some(winner)),
            Err(children) => children,
        };
        let key = (text_hash(&pos.key()), winner);
        let (fails, wins) = self.memo.get(&key).copied().unwrap_or((0, u32::MAX));
        if plies >= wins {
            return Some(true);
        }
        if plies <= fails {
            return Some(false);
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        self.nodes += 1;
        let mine = pos.mover() == winner;
        if mine && plies > 2 {
            children.sort_by_cached_key(|c| c.promise(winner));
        }
        let mut won = !mine;
        for c in &children {
            let child = self.forces_win(c, winner, plies - 1, budget)?;
            if child == mine {
                won = mine;
                break;
            }
        }
        let entry = self.memo.entry(key).or_insert((0, u32::MAX));
        if won {
            entry.1 = entry.1.min(plies);
        } else {
            entry.0 = entry.0.max(plies);
        }
        Some(won)
    }

    /// Whether `score mate n` is true of `pos`; `None` if the judge could not tell within its
    /// budget.
    fn holds<P: Judged>(&mut self, pos: &P, n: i64) -> Option<bool> {
        if self.memo.len() > 4_000_000 {
            self.memo.clear();
        }
        let plies = (2 * n.unsigned_abs()) as u32;
        let me = pos.mover();
        let winner = if n > 0 { me } else { 1 - me };
        let mut budget = judge_budget();
        // Deepened a ply at a time: the shallow passes fill the memo for the deep one.
        for depth in 1..plies {
            if self.forces_win(pos, winner, depth, &mut budget)? {
                return Some(true);
            }
        }
        self.forces_win(pos, winner, plies, &mut budget)
    }
}

/// What one game's run found.
#[derive(Debug, Default)]
struct Counts {
    positions: usize,
    claims: usize,
    false_claims: Vec<String>,
    unjudged: Vec<String>,
    longest: i64,
    judge_nodes: u64,
}

/// `count` positions of `game`'s datagen games (fewer games first, more until enough).
fn datagen_positions(game: &str, count: usize) -> Vec<String> {
    let dir = TestDir::new(&format!("mate-claims-{game}"));
    let mut games = 8;
    loop {
        let data = dir.file(&format!("d{games}.bin"));
        let (status, _, err) = crate::common::run_ludus(&[
            "datagen",
            "--game",
            game,
            "--games",
            &games.to_string(),
            "--nodes",
            "500",
            "--seed",
            "57",
            "--out",
            &data,
            "--progress",
            "1000",
        ]);
        assert_eq!(status, 0, "datagen: {err}");
        let (status, dump, err) =
            crate::common::run_ludus(&["datagen", "dump", "--game", game, &data]);
        assert_eq!(status, 0, "datagen dump: {err}");
        let positions: Vec<String> = dump
            .lines()
            .filter_map(|l| l.split_once('\t').map(|(_, fen)| fen.to_string()))
            .collect();
        if positions.len() >= count || games >= 1 << 16 {
            return positions.into_iter().take(count).collect();
        }
        games *= 2;
    }
}

/// The `score mate N` values of a search's `info` lines (the position's line only).
fn mate_claims(lines: &[String]) -> Vec<i64> {
    let mut claims = Vec::new();
    for line in lines.iter().filter(|l| l.starts_with("info ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.contains(&"multipv") && !line.contains(" multipv 1 ") {
            continue;
        }
        if let Some(i) = words.iter().position(|&w| w == "score")
            && words.get(i + 1) == Some(&"mate")
        {
            let n: i64 = words[i + 2].parse().expect("a mate count");
            assert!(
                !matches!(words.get(i + 3), Some(&("lowerbound" | "upperbound"))),
                "a bound: {line}"
            );
            claims.push(n);
        }
    }
    claims.sort_unstable();
    claims.dedup();
    claims
}

/// Searches `count` positions of `game` and judges every mate claim with `reference`.
fn check_game<P: Judged>(game: &str, count: usize, reference: impl Fn(&str) -> P) -> Counts {
    // `LUDUS_MATE_CLAIMS_FROM=K`: only the positions from the K-th on (a run split in parts).
    let from = std::env::var("LUDUS_MATE_CLAIMS_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let positions: Vec<String> = datagen_positions(game, count)
        .into_iter()
        .skip(from)
        .collect();
    let mut engine = Engine::spawn_with_args(&["--game", game]);
    // The solved book's claims are proven by its certificate (docs/solved.md, checked by
    // `ludus solve check`); here the searches' own claims are judged.
    engine.send("setoption name SolvedBook value false");
    engine.assert_ready();
    let mut rng = SmallRng::seed_from_u64(57);
    let mut judge = Judge::new();
    let mut counts = Counts::default();
    let mut threads = 0;
    for (i, fen) in positions.iter().enumerate() {
        let want = 1 + i % 2;
        if want != threads {
            threads = want;
            engine.send(&format!("setoption name Threads value {threads}"));
        }
        let nodes = (500.0 * 40f64.powf(rng.random::<f64>())) as u64;
        engine.send(&format!("position fen {fen}"));
        engine.send(&format!("go nodes {nodes}"));
        let lines = engine.read_until_within(Duration::from_secs(120), "bestmove", is_bestmove);
        counts.positions += 1;
        if counts.positions % 1000 == 0 {
            eprintln!(
                "mate claims: {game}: {} of {} positions, {} claims, {} false, {} unjudged so far",
                counts.positions,
                positions.len(),
                counts.claims,
                counts.false_claims.len(),
                counts.unjudged.len()
            );
        }
        let claims = mate_claims(&lines);
        if claims.is_empty() {
            continue;
        }
        let pos = reference(fen);
        for n in claims {
            counts.claims += 1;
            counts.longest = counts.longest.max(n.abs());
            let what = format!("{game} nodes {nodes} threads {threads}: mate {n} in {fen}");
            let before = (judge.nodes, std::time::Instant::now());
            let verdict = judge.holds(&pos, n);
            if std::env::var_os("LUDUS_MATE_CLAIMS_TRACE").is_some() {
                eprintln!(
                    "{what}: {verdict:?}, {} judge nodes, {:?}",
                    judge.nodes - before.0,
                    before.1.elapsed()
                );
            }
            match verdict {
                Some(true) => {}
                Some(false) => counts.false_claims.push(what),
                None => counts.unjudged.push(what),
            }
        }
    }
    engine.quit(Duration::from_secs(10));
    counts.judge_nodes = judge.nodes;
    counts
}

fn positions_per_game() -> usize {
    std::env::var("LUDUS_MATE_CLAIMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

fn report(game: &str, counts: &Counts) {
    eprintln!(
        "mate claims: {game}: {} positions, {} claims (longest mate {}), {} false, {} beyond the judge's budget, {} judge nodes",
        counts.positions,
        counts.claims,
        counts.longest,
        counts.false_claims.len(),
        counts.unjudged.len(),
        counts.judge_nodes
    );
    for what in &counts.unjudged {
        eprintln!("unjudged: {what}");
    }
    assert!(
        counts.false_claims.is_empty(),
        "{}",
        counts.false_claims.join("\n")
    );
}

#[test]
fn tactigon_mate_claims_are_true() {
    let rules = tactigon_rules(base());
    let counts = check_game("tactigon", positions_per_game(), |fen| {
        RefPos::from_tfn(fen, rules).expect("the reference reads the position")
    });
    report("tactigon", &counts);
}

#[test]
fn sight_mate_claims_are_true() {
    let counts = check_game("sight", positions_per_game(), sight_from_spn);
    report("sight", &counts);
}

#[test]
fn isaac_mate_claims_are_true() {
    let rules = isaac_rules(official());
    let counts = check_game("isaac", positions_per_game(), |fen| {
        RefIsaac::from_fen(fen, rules).expect("the reference reads the position")
    });
    report("isaac", &counts);
}

/// Judges the claims listed in the file `LUDUS_MATE_CLAIMS_JUDGE` (one a line:
/// `GAME<TAB>N<TAB>POSITION`, as the long run's "unjudged" lines give them) with the budget of
/// `LUDUS_MATE_CLAIMS_BUDGET`: the claims a run left unjudged, judged again with more room.
#[test]
#[ignore = "on request: LUDUS_MATE_CLAIMS_JUDGE=FILE"]
fn listed_mate_claims_are_true() {
    let Some(file) = std::env::var_os("LUDUS_MATE_CLAIMS_JUDGE") else {
        return;
    };
    let text = std::fs::read_to_string(file).expect("the list of claims");
    let mut judge = Judge::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [game, n, fen] = fields[..] else {
            panic!("not GAME<TAB>N<TAB>POSITION: {line}");
        };
        let n: i64 = n.parse().expect("a mate count");
        let start = std::time::Instant::now();
        let verdict = match game {
            "tactigon" => judge.holds(
                &RefPos::from_tfn(fen, tactigon_rules(base())).expect("reads"),
                n,
            ),
            "sight" => judge.holds(&sight_from_spn(fen), n),
            "isaac" => judge.holds(
                &RefIsaac::from_fen(fen, isaac_rules(official())).expect("reads"),
                n,
            ),
            _ => panic!("no game {game}"),
        };
        eprintln!(
            "mate claims: {game} mate {n} in {fen}: {verdict:?} ({} judge nodes so far, {:?})",
            judge.nodes,
            start.elapsed()
        );
        assert_ne!(verdict, Some(false), "a false claim: mate {n} in {fen}");
    }
}
