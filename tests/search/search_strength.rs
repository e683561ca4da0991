//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`): each game's settings, the rating between
//! two of them, the softmax choice among the best lines, and the weakened search itself
//! (always a legal move, a win in one never missed, reproducible from its seed).

use std::sync::atomic::AtomicBool;

use ludus::game::isaac::{Isaac, IsaacRules};
use ludus::game::sight::{Sight, SightSettings};
use ludus::game::tactigon::Tactigon;
use ludus::game::{Game, GameId, RatedSetting, SearchHooks, Searchable};
use ludus::search::strength::{self, Strength, choose, for_elo, search_limited};
use ludus::search::{Limits, Score, SearchInfo, SearchParams, SearchTables};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Each game's scale, with its name.
const GAMES: [(&str, &[RatedSetting]); 3] = [
    ("isaac", Isaac::RATED_SETTINGS),
    ("sight", Sight::RATED_SETTINGS),
    ("tactigon", Tactigon::RATED_SETTINGS),
];

fn line(score: Score, mv: &'static str) -> SearchInfo<&'static str> {
    SearchInfo {
        depth: 1,
        seldepth: 1,
        multipv: None,
        score,
        nodes: 1,
        nps: 0,
        time_ms: 0,
        hashfull: 0,
        pv: vec![mv],
    }
}

/// The move `search_limited` plays from `pos` at `strength` with the random seed `seed`.
fn limited_move<G: Searchable>(pos: &G, strength: Strength, seed: u64) -> Option<String> {
    let mut tables = SearchTables::new(1, G::HISTORY_SIZE).expect("1 MiB");
    let stop = AtomicBool::new(false);
    let params = SearchParams::new(Limits::default());
    let mut rng = SmallRng::seed_from_u64(seed);
    let chosen = search_limited(pos, &params, strength, &mut tables, &stop, &mut rng)?;
    assert_eq!(chosen.multipv, None);
    chosen.pv.first().map(|&m| pos.move_to_string(m))
}

#[test]
fn every_game_has_a_scale_that_rises_with_its_settings() {
    for (game, scale) in GAMES {
        assert!(scale.len() >= 5, "{game}: {} settings", scale.len());
        for pair in scale.windows(2) {
            let (weak, strong) = (pair[0], pair[1]);
            assert!(weak.elo < strong.elo, "{game}: {weak:?} {strong:?}");
            assert!(weak.nodes < strong.nodes, "{game}");
            assert!(weak.lines >= strong.lines, "{game}");
            assert!(weak.temperature > strong.temperature, "{game}");
        }
    }
    // Each game's `UCI_Elo` range is its own scale's.
    for (game, scale) in GAMES {
        let id = GameId::from_name(game).expect("a game");
        let ends = (scale[0].elo, scale[scale.len() - 1].elo);
        assert_eq!(strength::elo_range(id), ends, "{game}");
    }
    assert_eq!(for_elo(&[], 1000), None);
}

#[test]
fn a_rating_is_clamped_to_the_scale_and_interpolated_between_two_settings() {
    for (game, scale) in GAMES {
        let (first, last) = (scale[0], scale[scale.len() - 1]);
        assert_eq!(for_elo(scale, first.elo - 500), Some(Strength::of(&first)));
        assert_eq!(for_elo(scale, last.elo + 500), Some(Strength::of(&last)));
        for a in scale {
            assert_eq!(
                for_elo(scale, a.elo),
                Some(Strength::of(a)),
                "{game} {}",
                a.elo
            );
        }
        // Between the two weakest: nodes geometrically, the rest linearly.
        let (a, b) = (scale[0], scale[1]);
        let elo = (a.elo + b.elo) / 2;
        let t = (elo - a.elo) as f64 / (b.elo - a.elo) as f64;
        let between = for_elo(scale, elo).expect("a setting");
        let (na, nb) = (a.nodes as f64, b.nodes as f64);
        let nodes = (na.ln() * (1.0 - t) + nb.ln() * t).exp().round() as u64;
        assert_eq!(between.nodes, nodes, "{game}");
        let (la, lb) = (a.lines as f64, b.lines as f64);
        assert_eq!(
            between.lines,
            (la * (1.0 - t) + lb * t).round() as usize,
            "{game}"
        );
        let temperature = a.temperature * (1.0 - t) + b.temperature * t;
        assert!((between.temperature - temperature).abs() < 1e-9, "{game}");
        assert!(
            between.nodes >= a.nodes && between.nodes <= b.nodes,
            "{game}"
        );
        assert!(between.temperature < a.temperature, "{game}");
        assert!(between.temperature > b.temperature, "{game}");
    }
}

#[test]
fn the_choice_follows_the_softmax_of_the_scores() {
    let lines = [line(Score::Cp(10), "a"), line(Score::Cp(0), "b")];
    let mut rng = SmallRng::seed_from_u64(7);
    let draws = 20_000;
    let best = (0..draws)
        .filter(|_| choose(&lines, 10.0, &mut rng).map(|l| l.pv[0]) == Some("a"))
        .count();
    // e / (1 + e) = 0.731 of the draws.
    let share = best as f64 / draws as f64;
    assert!((share - 0.731).abs() < 0.01, "{share}");
    // A cold choice always takes the best line; a proven win beats any evaluation, and a
    // proven loss is never taken over an evaluation.
    assert_eq!(choose(&lines, 0.0, &mut rng).map(|l| l.pv[0]), Some("a"));
    let won = [line(Score::Cp(5000), "a"), line(Score::Mate(3), "w")];
    assert_eq!(choose(&won, 1000.0, &mut rng).map(|l| l.pv[0]), Some("w"));
    let lost = [line(Score::Mate(-2), "l"), line(Score::Cp(-5000), "a")];
    for _ in 0..100 {
        assert_eq!(choose(&lost, 1000.0, &mut rng).map(|l| l.pv[0]), Some("a"));
    }
    // Not even at a temperature that makes every other score alike.
    let close = [line(Score::Cp(-5000), "a"), line(Score::Mate(-9), "l")];
    for _ in 0..100 {
        assert_eq!(choose(&close, 1e9, &mut rng).map(|l| l.pv[0]), Some("a"));
    }
    let all_lost = [line(Score::Mate(-9), "l"), line(Score::Mate(-2), "m")];
    assert_eq!(choose(&all_lost, 0.0, &mut rng).map(|l| l.pv[0]), Some("l"));
    assert!(choose::<&str>(&[], 1.0, &mut rng).is_none());
}

#[test]
fn the_weakest_setting_never_misses_a_win_in_one() {
    // docs/rules/sight.md TV11: d4-e4 wins at once.
    let settings = SightSettings {
        size: 5,
        strict_tallest: false,
    };
    let pos =
        Sight::from_fen("5:x5/x,w,x,w2,x/b,x,w,w3,b2/x3,b,b/x5 w", &settings).expect("TV11 parses");
    let weakest = Strength::of(&Sight::RATED_SETTINGS[0]);
    for seed in 0..20 {
        assert_eq!(limited_move(&pos, weakest, seed).as_deref(), Some("d4-e4"));
    }
}

#[test]
fn a_limited_search_plays_a_legal_move_reproducibly_from_its_seed() {
    let pos = Isaac::start(&IsaacRules::default());
    for a in Isaac::RATED_SETTINGS.iter().take(3) {
        let strength = Strength::of(a);
        let moves: Vec<_> = (0..6)
            .map(|seed| limited_move(&pos, strength, seed))
            .collect();
        for (seed, m) in moves.iter().enumerate() {
            let m = m.as_deref().expect("a move");
            assert!(pos.is_legal(pos.parse_move(m).expect("parses")), "{m}");
            assert_eq!(
                limited_move(&pos, strength, seed as u64).as_deref(),
                Some(m)
            );
        }
        // The weakest settings choose among several lines: the seeds do not all agree.
        if a.temperature >= 4.0 {
            assert!(moves.iter().any(|m| m != &moves[0]), "{moves:?}");
        }
    }
}
