//! The learned evaluations (`src/net`): the built-in nets agree with the trainer's float nets
//! within the quantisation error, the incremental evaluation equals the one from scratch over
//! random games, and a damaged or foreign `EvalFile` is refused while the engine keeps its net.

use std::io::Write;
use std::process::{Command, Stdio};

use ludus::game::{GameId, GameVisitor, Searchable};
use ludus::net::{GameNet, Net, NetBase, NetEvaluator, NetHeader, QA, QB, embedded};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// A net of random weights for `G`.
fn random_net<G: Searchable>(hidden: usize, seed: u64) -> Net {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut weights =
        |n: usize, r: i16| -> Vec<i16> { (0..n).map(|_| rng.random_range(-r..=r)).collect() };
    Net {
        header: NetHeader {
            game: G::NAME.into(),
            features: G::NET_FEATURES.into(),
            inputs: G::NET_INPUTS,
            hidden,
            scale: 200,
            base: NetBase::None,
        },
        input_weights: weights(G::NET_INPUTS * hidden, 60),
        hidden_bias: weights(hidden, 120),
        output_weights: weights(2 * hidden, 900),
        output_bias: 12_345,
    }
}

/// The games that have net inputs.
fn games_with_inputs() -> Vec<GameId> {
    struct HasInputs;
    impl GameVisitor for HasInputs {
        type Output = bool;
        fn visit<G: Searchable>(self) -> bool {
            G::NET_INPUTS > 0
        }
    }
    GameId::ALL
        .iter()
        .copied()
        .filter(|g| g.visit(HasInputs))
        .collect()
}

#[test]
fn tactigon_has_net_inputs() {
    assert!(games_with_inputs().contains(&GameId::Tactigon));
}

/// Walks `games` random games; at each position evaluates every child (siblings at one ply)
/// and then one grandchild line, as a search would, and compares each incremental evaluation
/// with the one from scratch. Returns the evaluations compared.
fn incremental_equals_scratch<G: Searchable>(net: &GameNet<G>, games: u64) -> usize {
    let mut evaluator = NetEvaluator::new(net.clone());
    let mut compared = 0;
    let mut moves = Vec::new();
    let mut replies = Vec::new();
    for game in 0..games {
        let mut rng = SmallRng::seed_from_u64(1000 + game);
        let mut pos = G::start(&G::settings(&ludus::game::OptionValues::from_specs(
            &G::options(),
        )));
        let mut ply = 0;
        while pos.outcome().is_none() && ply < 300 {
            assert_eq!(evaluator.evaluate(&pos, ply % 40), net.evaluate(&pos));
            pos.generate_moves(&mut moves);
            for &m in moves.iter().take(12) {
                let mut child = pos.clone();
                child.play(m);
                if child.outcome().is_some() {
                    continue;
                }
                let deeper = (ply % 40) + 1;
                assert_eq!(
                    evaluator.evaluate(&child, deeper),
                    net.evaluate(&child),
                    "{}",
                    child.to_fen()
                );
                compared += 1;
                child.generate_moves(&mut replies);
                if let Some(&r) = replies.first() {
                    child.play(r);
                    if child.outcome().is_none() {
                        assert_eq!(evaluator.evaluate(&child, deeper + 1), net.evaluate(&child));
                        compared += 1;
                    }
                }
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos.play(m);
            ply += 1;
        }
    }
    compared
}

#[test]
fn the_incremental_evaluation_equals_the_one_from_scratch_over_random_games() {
    struct Check;
    impl GameVisitor for Check {
        type Output = usize;
        fn visit<G: Searchable>(self) -> usize {
            let mut compared = 0;
            for (hidden, seed, base) in [
                (8, 1, NetBase::None),
                (64, 2, NetBase::None),
                (16, 3, NetBase::Hand),
            ] {
                let mut net = random_net::<G>(hidden, seed);
                net.header.base = base;
                let net =
                    GameNet::<G>::new(Arc::new(net)).expect("a net made for the game fits it");
                compared += incremental_equals_scratch(&net, 6);
            }
            if let Some(net) = embedded::for_game::<G>() {
                compared += incremental_equals_scratch(&net, 6);
            }
            compared
        }
    }
    for game in games_with_inputs() {
        let compared = game.visit(Check);
        assert!(compared > 1000, "{}: {compared} evaluations", game.name());
    }
}

/// A net on the hand evaluation (`base=hand`) adds its output to it: with zero output
/// weights and bias it is exactly the hand evaluation, and a bias of one logit adds the scale.
#[test]
fn a_net_on_the_hand_evaluation_adds_to_it() {
    struct Check;
    impl GameVisitor for Check {
        type Output = usize;
        fn visit<G: Searchable>(self) -> usize {
            let mut net = random_net::<G>(8, 4);
            net.header.base = NetBase::Hand;
            net.output_weights.fill(0);
            net.output_bias = 0;
            let zero = GameNet::<G>::new(Arc::new(net.clone())).expect("fits");
            net.output_bias = QA * QB;
            let one = GameNet::<G>::new(Arc::new(net)).expect("fits");
            let mut pos = G::start(&G::settings(&ludus::game::OptionValues::from_specs(
                &G::options(),
            )));
            let mut rng = SmallRng::seed_from_u64(8);
            let mut moves = Vec::new();
            let mut seen = 0;
            while pos.outcome().is_none() && seen < 60 {
                assert_eq!(zero.evaluate(&pos), pos.evaluate(), "{}", pos.to_fen());
                assert_eq!(one.evaluate(&pos), pos.evaluate() + 200, "{}", pos.to_fen());
                let logit = f64::from(pos.evaluate()) / 200.0 + 1.0;
                assert!((one.logit(&pos) - logit).abs() < 1e-9);
                pos.generate_moves(&mut moves);
                pos.play(moves[rng.random_range(0..moves.len())]);
                seen += 1;
            }
            seen
        }
    }
    for game in games_with_inputs() {
        assert!(game.visit(Check) >= 20, "{}", game.name());
    }
}

/// A net is used only on the variants it learned: Sight's built-in net was trained on 5×5 and
/// 7×7 games, so a 3×3 or 9×9 board (whose inputs all have zero weights) gets the hand
/// evaluation, also where the board is still empty.
#[test]
fn the_sight_net_is_used_only_on_the_boards_it_learned() {
    use ludus::game::Game;
    use ludus::game::sight::Sight;
    let net = embedded::for_game::<Sight>().expect("Sight has a built-in net");
    let on = |size: &str| {
        let mut values = ludus::game::OptionValues::from_specs(&Sight::options());
        values.set("Sight_BoardSize", size.to_string());
        let start = Sight::start(&Sight::settings(&values));
        assert_eq!(start.to_fen().split(':').next(), Some(size));
        net.knows(&start)
    };
    assert!(on("5"));
    assert!(on("7"));
    assert!(!on("3"));
    assert!(!on("9"));
}

#[test]
fn every_built_in_net_reads_and_fits_its_game() {
    for (game, fits) in embedded::check_all() {
        assert_eq!(fits, Ok(()), "{game}");
    }
}

/// The largest difference quantisation can make between the integer net's logit and the
/// float net's on a position with `active` inputs per view: each hidden sum is off by at most
/// half a step per input and for the bias, the clip keeps that, each output weight is off by
/// half a step (times a unit at most 1), the output bias by half a step.
fn quantisation_bound(net: &Net, active: [usize; 2]) -> f64 {
    let h = net.header.hidden;
    let (qa, qb) = (f64::from(QA), f64::from(QB));
    let mut bound = 0.5 / (qa * qb);
    for (half, n) in active.into_iter().enumerate() {
        let hidden_error = (n as f64 + 1.0) * 0.5 / qa;
        for &w in &net.output_weights[half * h..][..h] {
            bound += (f64::from(w).abs() + 0.5) / qb * hidden_error + 0.5 / qb;
        }
    }
    bound
}

/// The standard deviation of the same difference when the roundings are independent and
/// uniform (each within half a step): what the difference typically is.
fn quantisation_spread(net: &Net, active: [usize; 2]) -> f64 {
    let h = net.header.hidden;
    let (qa, qb) = (f64::from(QA), f64::from(QB));
    let mut variance = 0.0;
    for (half, n) in active.into_iter().enumerate() {
        for &w in &net.output_weights[half * h..][..h] {
            let w = f64::from(w) / qb;
            variance += w * w * (n as f64 + 1.0) / (12.0 * qa * qa) + 1.0 / (12.0 * qb * qb);
        }
    }
    variance.sqrt()
}

/// Compares a net with its check file (the trainer's float outputs); returns the positions.
fn check_against_trainer<G: Searchable>(net_bytes: &[u8], check: &str) -> usize {
    let net = Net::from_bytes(net_bytes).expect("the net reads");
    let game_net = GameNet::<G>::new(Arc::new(net.clone())).expect("the net fits its game");
    let settings = G::settings(&ludus::game::OptionValues::from_specs(&G::options()));
    let mut count = 0;
    let (mut error, mut spread) = (0.0, 0.0);
    for line in check.lines().filter(|l| !l.starts_with('#')) {
        let (logit, fen) = line.split_once('\t').expect("logit<TAB>position");
        let float: f64 = logit.parse().expect("a number");
        let pos = G::from_fen(fen, &settings).expect("a position of the game");
        let active = [0, 1].map(|view| {
            let mut list = Vec::new();
            pos.net_features(view, &mut list);
            list.len()
        });
        let bound = quantisation_bound(&net, active) + 1e-6;
        let got = game_net.logit(&pos);
        assert!(
            (got - float).abs() <= bound,
            "{fen}: integer net {got:.6}, trainer {float:.6}, bound {bound:.6}"
        );
        error += (got - float).abs();
        spread += quantisation_spread(&net, active);
        count += 1;
    }
    // On average the difference is of the size independent roundings give (the mean absolute
    // value of a normal variable is 0.8 of its spread): three times that is a wrong net.
    eprintln!(
        "mean difference {:.6}, typical {:.6}",
        error / count as f64,
        spread / count as f64
    );
    assert!(
        error <= 3.0 * spread,
        "mean difference {:.6}, typical {:.6}",
        error / count as f64,
        spread / count as f64
    );
    count
}

#[test]
fn the_shipped_nets_give_the_trainers_outputs_within_the_quantisation_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/nets");
    let mut nets: Vec<_> = std::fs::read_dir(&dir)
        .expect("data/nets")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "nnue"))
        .collect();
    nets.sort();
    // Every built-in net is one of the files (the same bytes).
    for game in GameId::ALL {
        if let Some(bytes) = embedded::bytes(game.name()) {
            let file = dir.join(format!("{}.nnue", game.name()));
            assert_eq!(
                std::fs::read(&file).ok().as_deref(),
                Some(bytes),
                "{}",
                file.display()
            );
        }
    }
    assert!(!nets.is_empty());
    for path in nets {
        let bytes = std::fs::read(&path).expect("readable net");
        let net = Net::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game = GameId::from_name(&net.header.game).expect("a net of a game");
        let check_path = path.with_extension("nnue.check");
        let check = std::fs::read_to_string(&check_path)
            .unwrap_or_else(|e| panic!("{}: {e}", check_path.display()));
        struct Check<'a>(&'a [u8], &'a str);
        impl GameVisitor for Check<'_> {
            type Output = usize;
            fn visit<G: Searchable>(self) -> usize {
                check_against_trainer::<G>(self.0, self.1)
            }
        }
        let n = game.visit(Check(&bytes, &check));
        assert!(
            n >= 32,
            "{}: {n} positions in the check file",
            path.display()
        );
    }
}

/// Runs the engine on `script`; returns its standard output.
fn engine(script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ludus starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("script written");
    let out = child.wait_with_output().expect("ludus ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn final_evaluations(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("Final evaluation: "))
        .collect()
}

#[test]
fn a_damaged_or_foreign_eval_file_is_refused_and_the_engine_keeps_its_net() {
    let dir = std::env::temp_dir().join(format!("ludus-net-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    struct Make;
    impl GameVisitor for Make {
        type Output = Vec<u8>;
        fn visit<G: Searchable>(self) -> Vec<u8> {
            random_net::<G>(16, 7).to_bytes()
        }
    }
    let good = GameId::Tactigon.visit(Make);
    let good_path = dir.join("tactigon.nnue");
    std::fs::write(&good_path, &good).expect("written");
    let mut damaged = good.clone();
    damaged[100] ^= 0x40;
    let damaged_path = dir.join("damaged.nnue");
    std::fs::write(&damaged_path, &damaged).expect("written");
    let mut foreign = Net::from_bytes(&good).expect("reads");
    foreign.header.game = "sight".into();
    let foreign_path = dir.join("sight.nnue");
    std::fs::write(&foreign_path, foreign.to_bytes()).expect("written");
    let cut_path = dir.join("cut.nnue");
    std::fs::write(&cut_path, &good[..good.len() / 2]).expect("written");

    let start = "ugi\nsetoption name UCI_Variant value tactigon\nposition startpos moves c5-a9\n";
    let before = engine(&format!("{start}eval\nquit\n"));
    let mut script = start.to_string();
    for bad in [
        &damaged_path,
        &foreign_path,
        &cut_path,
        &dir.join("missing.nnue"),
    ] {
        script.push_str(&format!(
            "setoption name EvalFile value {}\n",
            bad.display()
        ));
    }
    script.push_str("eval\n");
    script.push_str(&format!(
        "setoption name EvalFile value {}\neval\n",
        good_path.display()
    ));
    script.push_str("setoption name Eval value hand\neval\nquit\n");
    let out = engine(&script);
    let errors: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string error bad-option-value EvalFile"))
        .collect();
    assert_eq!(errors.len(), 4, "{out}");
    assert!(errors[0].contains("damaged"), "{}", errors[0]);
    assert!(
        errors[1].contains("the net is for sight, not tactigon"),
        "{}",
        errors[1]
    );
    assert!(
        errors[2].contains("checksum") || errors[2].contains("cut"),
        "{}",
        errors[2]
    );
    assert!(
        errors
            .iter()
            .all(|e| e.ends_with("the engine keeps its net"))
    );
    let finals = final_evaluations(&out);
    assert_eq!(finals.len(), 3, "{out}");
    // After the refusals: what the engine evaluated with before.
    assert_eq!(Some(&finals[0]), final_evaluations(&before).first());
    // The good file is used: its own evaluation, named in the `Net:` line.
    assert!(out.contains("Net: game=tactigon features=tactigon-pieces-v1 inputs=424 hidden=16"));
    let hand_out = engine(&format!(
        "{start}setoption name Eval value hand\neval\nquit\n"
    ));
    assert_eq!(Some(&finals[2]), final_evaluations(&hand_out).first());
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 31.1: a FIFO, a device or the engine's own stdin as `EvalFile` is refused within a
/// second with `bad-option-value`, and the engine goes on answering (a FIFO blocked it for
/// good, `/dev/zero` grew it by gigabytes); `ludus datagen --eval-file` refuses them too.
#[test]
fn eval_files_that_are_not_regular_files_are_refused_at_once() {
    use crate::common::process::{Engine, run};
    use std::time::Duration;
    let fifo = std::env::temp_dir().join(format!("ludus-net-fifo-{}", std::process::id()));
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let fifo_text = fifo.display().to_string();
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value tactigon");
    engine.assert_ready();
    for path in [
        fifo_text.as_str(),
        "/dev/zero",
        "/dev/urandom",
        "/dev/stdin",
        "/tmp",
    ] {
        engine.send(&format!("setoption name EvalFile value {path}"));
        let line = engine.read_line_within(Duration::from_secs(10), "the EvalFile refusal");
        assert!(
            line.starts_with(&format!(
                "info string error bad-option-value EvalFile {path}: "
            )),
            "{line}"
        );
        assert!(line.contains("not a regular file"), "{line}");
        engine.assert_ready();
    }
    engine.send("position startpos");
    engine.send("eval");
    let eval = engine.read_until(|l| l.starts_with("Final"));
    assert!(eval.iter().any(|l| l.starts_with("Net")), "{eval:?}");
    engine.quit(Duration::from_secs(10));
    let out = run(
        &[
            "datagen",
            "--game",
            "tactigon",
            "--games",
            "1",
            "--eval-file",
            &fifo_text,
            "--out",
            "/nonexistent/never-written.bin",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(out.stderr.contains("not a regular file"), "{out:?}");
    std::fs::remove_file(&fifo).ok();
}
