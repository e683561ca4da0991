//! Tactigon invariant battery: seeded random games checked ply by ply.
//!
//! The generic checks live in `common/battery.rs` (legal and distinct moves, notation round
//! trips, incremental hash, game over exactly when there is no move, a bound on the length),
//! the Tactigon ones in `common/tactigon_hooks.rs`: at every ply the engine is compared with
//! the independent reference in `common/tactigon_reference.rs` (the position, the legal moves
//! in the same order, the position after every legal move, and the §5.4 status, i.e. who won
//! and how), and the invariants of `docs/rules/tactigon.md` are checked: piece counts never
//! increase, at most the 13 start pieces per side, a game never outlasts the ply cap.
//!
//! 1000 games run under the base rules with a ply cap of 120 (set through the option, to keep
//! the run short), 200 more with the default cap of 300, and a few hundred under each rule
//! switch: A1, A2, both (all of these compare every child position with the reference), the
//! no-move draw and the repetition rule (the line played only). The repetition games prefer
//! moving a piece straight back, so that positions do repeat; random games from the start
//! practically never leave a side without a move, so the no-move ending (under both values of
//! `Tactigon_NoMoveResult`) is exercised by playouts from sparse corner positions that prefer
//! shutting the enemy pentagon in.

use crate::common::battery::{BatteryStats, Hooks, check_position, random_games};
use crate::common::tactigon_hooks::TactigonHooks;
use crate::common::tactigon_reference::RefResult;
use ludus::game::tactigon::{PENTAGON, START_FEN, Tactigon, TactigonMove, TactigonRules};
use ludus::game::{Game, OptionValues, Outcome};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Rules from option values, through the engine's own option handling.
fn rules_from(options: &[(&'static str, &str)]) -> TactigonRules {
    let specs = Tactigon::options();
    let mut values = OptionValues::from_specs(&specs);
    for &(name, value) in options {
        let spec = specs.iter().find(|s| s.name == name).expect("option");
        values.set(spec.name, spec.validate(value).expect("valid value"));
    }
    Tactigon::settings(&values)
}

/// Runs the battery with the reference hooks and prints what it saw.
fn run(
    rules: TactigonRules,
    seeds: std::ops::Range<u64>,
    children: bool,
) -> (BatteryStats, TactigonHooks) {
    let games = seeds.end - seeds.start;
    let mut hooks = TactigonHooks::new(children);
    let bound = rules.ply_cap as usize;
    let stats = random_games::<Tactigon>(&rules, seeds, bound, &mut hooks);
    eprintln!(
        "tactigon {rules:?}: {} games, {} plies, lengths {}..={}, wins {:?}, draws {}, \
         captures D/B {:?}, children {}, endings {:?}",
        stats.games,
        stats.plies,
        stats.min_length,
        stats.max_length,
        stats.wins,
        stats.draws,
        hooks.captures,
        hooks.children_checked,
        hooks.endings
    );
    assert_eq!(stats.games, games);
    assert!(stats.max_length <= bound);
    assert!(stats.wins[0] > 0 && stats.wins[1] > 0, "both sides win");
    assert!(hooks.captures[0] > 0 && hooks.captures[1] > 0);
    (stats, hooks)
}

#[test]
fn tactigon_base_rules_cap_120() {
    let rules = rules_from(&[("Tactigon_PlyCap", "120")]);
    assert_eq!(rules.ply_cap, 120);
    let (stats, hooks) = run(rules, 0..1000, true);
    // §7.3: random games end mostly by pentagon capture (85 %), the rest by gold; quartiles
    // 16 / 31 / 53 plies, 99th percentile 169 (so a few reach the cap of 120).
    let mean = stats.plies as f64 / stats.games as f64;
    assert!((25.0..50.0).contains(&mean), "mean length {mean}");
    let by_pentagon = hooks.ended_by("pentagon");
    let by_gold = hooks.ended_by("gold");
    assert!(by_pentagon > 700 && by_gold > 60, "{:?}", hooks.endings);
    assert!(hooks.ended_by("ply cap") > 0, "no game reached the cap");
}

#[test]
fn tactigon_base_rules_default_cap() {
    let rules = rules_from(&[]);
    assert_eq!(rules, TactigonRules::default());
    run(rules, 1000..1200, true);
}

#[test]
fn tactigon_jumping_squares() {
    let rules = rules_from(&[
        ("Tactigon_JumpingSquares", "true"),
        ("Tactigon_PlyCap", "150"),
    ]);
    assert!(rules.jumping_squares && !rules.gold_bonus);
    run(rules, 2000..2300, true);
}

#[test]
fn tactigon_gold_bonus() {
    let rules = rules_from(&[("Tactigon_GoldBonus", "true"), ("Tactigon_PlyCap", "150")]);
    assert!(rules.gold_bonus && !rules.jumping_squares);
    run(rules, 3000..3300, true);
}

#[test]
fn tactigon_both_advanced_rules() {
    let rules = rules_from(&[
        ("Tactigon_JumpingSquares", "true"),
        ("Tactigon_GoldBonus", "true"),
        ("Tactigon_PlyCap", "150"),
    ]);
    run(rules, 4000..4200, true);
}

#[test]
fn tactigon_no_move_draw() {
    let rules = rules_from(&[
        ("Tactigon_NoMoveResult", "draw"),
        ("Tactigon_PlyCap", "150"),
    ]);
    assert!(rules.no_move_draw);
    let (_, hooks) = run(rules, 5000..5300, false);
    // With the option a game never ends in a "no moves" win.
    assert!(
        !hooks
            .endings
            .keys()
            .any(|k| k.starts_with("Red no") || k.starts_with("Blue no"))
    );
}

/// How [`playouts`] picks a move.
#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Move the piece that moved last straight back (3 times in 4, when legal), so that
    /// positions repeat.
    Back,
    /// Leave the opponent without a legal move (every other time, when possible).
    Block,
}

/// Plays seeded games from each of `starts` with the given policy, with the generic checks
/// of the battery and the reference hooks. A position drawn by repetition cannot pass the
/// generic notation check that the re-read position generates the same moves (a position
/// string carries no history, §9.1), so there it is checked separately.
fn playouts(
    rules: TactigonRules,
    starts: &[&str],
    seeds: std::ops::Range<u64>,
    policy: Policy,
) -> TactigonHooks {
    let mut hooks = TactigonHooks::new(false);
    for start in starts {
        for seed in seeds.clone() {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut pos = Tactigon::from_fen(start, &rules).unwrap();
            let mut moves: Vec<TactigonMove> = Vec::new();
            let mut last: [Option<TactigonMove>; 2] = [None, None];
            hooks.on_start(&pos);
            let mut ply = pos.ply() as usize;
            loop {
                let context = format!("{policy:?} {start} seed {seed} ply {ply}");
                if hooks.reference().status() == Some(RefResult::Draw("repetition")) {
                    let fen = pos.to_fen();
                    pos.generate_moves(&mut moves);
                    assert!(moves.is_empty(), "{context}: moves after the draw");
                    assert_eq!(pos.outcome(), Some(Outcome::Draw), "{context}");
                    let reread = Tactigon::from_fen(&fen, &rules).unwrap();
                    assert_eq!(reread, pos, "{context}: notation round trip");
                    assert_eq!(reread.hash(), pos.hash(), "{context}: hash");
                    assert_eq!(reread.to_fen(), fen);
                } else {
                    check_position(&pos, &rules, &mut moves, &context);
                }
                hooks.on_position(&pos, &moves, ply);
                if let Some(outcome) = pos.outcome() {
                    hooks.on_end(&pos, outcome, ply);
                    break;
                }
                let side = pos.side_to_move().index();
                let preferred = match policy {
                    Policy::Back => last[side]
                        .map(|m| TactigonMove {
                            from: m.to,
                            to: m.from,
                        })
                        .filter(|b| moves.contains(b) && rng.random_range(0..4) < 3),
                    Policy::Block => moves
                        .iter()
                        .copied()
                        .find(|&m| {
                            let mut child = pos.clone();
                            child.play(m);
                            let mut any = Vec::new();
                            child.generate_moves(&mut any);
                            any.is_empty() && child.pieces(1 - side, PENTAGON) != 0
                        })
                        .filter(|_| rng.random_range(0..2) == 0),
                };
                let m = preferred.unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
                last[side] = Some(m);
                let before = pos.clone();
                pos.play(m);
                hooks.on_move(&before, m, &pos);
                ply += 1;
            }
        }
    }
    eprintln!("tactigon {policy:?} {rules:?}: endings {:?}", hooks.endings);
    hooks
}

#[test]
fn tactigon_repetition_rule() {
    let rules = rules_from(&[("Tactigon_Repetition", "true"), ("Tactigon_PlyCap", "150")]);
    assert!(rules.repetition);
    let hooks = playouts(rules, &[START_FEN], 6000..6300, Policy::Back);
    assert!(hooks.ended_by("repetition") > 50, "{:?}", hooks.endings);
    // The same playouts without the rule never draw by repetition.
    let off = TactigonRules {
        repetition: false,
        ..rules
    };
    let hooks = playouts(off, &[START_FEN], 6000..6100, Policy::Back);
    assert_eq!(hooks.ended_by("repetition"), 0);
    assert!(hooks.ended_by("ply cap") > 0, "{:?}", hooks.endings);
}

/// Sparse positions where a lone pentagon in a corner can be shut in by enemy pieces (as in
/// TV17), Blue to move.
const CORNERS: [&str; 4] = [
    "Pc/3c1c3/5c4/10p/10/9/2 b 0",
    "2/9/10/p10/10/3c1c3/cP b 0",
    "2/9/8cc/p9P/8c1/9/2 b 0",
    "Pc/3c5/5c4/2t7p/5s4/9/2 b 0",
];

#[test]
fn tactigon_no_legal_move_both_results() {
    for (draw, value) in [(false, "loss"), (true, "draw")] {
        let rules = rules_from(&[("Tactigon_NoMoveResult", value)]);
        assert_eq!(rules.no_move_draw, draw);
        let hooks = playouts(rules, &CORNERS, 0..60, Policy::Block);
        let blocked = hooks.ended_by("no moves");
        assert!(blocked > 20, "{:?}", hooks.endings);
        let as_draws = hooks.endings.get("draw no moves").copied().unwrap_or(0);
        assert_eq!(as_draws, if draw { blocked } else { 0 });
    }
}

/// Hooks that only count, to check the battery's own bookkeeping on a short run.
struct Lengths(Vec<usize>);

impl Hooks<Tactigon> for Lengths {
    fn on_end(&mut self, pos: &Tactigon, _outcome: Outcome, plies: usize) {
        assert_eq!(pos.ply() as usize, plies);
        self.0.push(plies);
    }
}

/// A tiny ply cap ends every game that is still going at exactly the cap, as a draw.
#[test]
fn tactigon_tiny_ply_cap() {
    let rules = rules_from(&[("Tactigon_PlyCap", "6")]);
    let mut lengths = Lengths(Vec::new());
    let stats = random_games::<Tactigon>(&rules, 0..300, 6, &mut lengths);
    assert!(lengths.0.iter().all(|&n| n <= 6));
    assert!(stats.draws > 250, "{stats:?}");
    let mut hooks = TactigonHooks::new(true);
    random_games::<Tactigon>(&rules, 0..100, 6, &mut hooks);
    assert!(hooks.ended_by("ply cap") > 80, "{:?}", hooks.endings);
}
