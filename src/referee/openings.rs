//! Openings: where the games of a round start. The start position, a line of an openings file,
//! or random plies from the start drawn from the match seed.
//!
//! An openings file has one opening per line, written as the arguments of the protocol's
//! `position` command: `startpos`, `startpos moves c3 b2`, `fen <position>` or
//! `fen <position> moves …` (a leading `position` is allowed). Blank lines and lines starting
//! with `#` are skipped. Every opening is checked with the match's rules when the file is read.

use std::path::Path;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::game::dynamic::{RulePosition, RuleSet, random_moves};
use crate::record::Opening;

/// The largest openings file read (a million lines of 64 bytes).
const MAX_OPENINGS_FILE_BYTES: u64 = 64 << 20;

/// Reads an openings file (see the module documentation); errors name the line.
pub fn read_openings_file(path: &Path, rules: &RuleSet) -> Result<Vec<Opening>, String> {
    let text = crate::files::read_regular_text(path, MAX_OPENINGS_FILE_BYTES)
        .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(line, rules)
            .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("openings file {} has no openings", path.display()));
    }
    Ok(openings)
}

/// The random opening of round `round` (0-based): `plies` random legal moves from the start,
/// drawn from a generator seeded by the match seed and the round alone, so every shard and
/// every resumed run agrees on it. Draws that end the game, or that let the side to move win
/// with its first move (a game decided by the opening, not by the engines), are replaced by
/// the next draw.
pub fn random_opening(
    rules: &RuleSet,
    plies: u32,
    seed: u64,
    round: u64,
) -> Result<Opening, String> {
    let start = rules.start();
    let mut rng = SmallRng::seed_from_u64(mix(seed, round));
    for _ in 0..1000 {
        if let Some(moves) = random_moves(&*start, plies, &mut rng) {
            let opening = Opening { fen: None, moves };
            if !opening.position(rules).is_ok_and(|p| wins_at_once(&*p)) {
                return Ok(opening);
            }
        }
    }
    Err(format!(
        "no random opening of {plies} plies found: games of {} end sooner",
        rules.game().name()
    ))
}

/// Whether the side to move has a move that wins the game at once.
fn wins_at_once(pos: &dyn RulePosition) -> bool {
    let mover = pos.side_to_move();
    pos.legal_moves().iter().any(|m| {
        let mut next = pos.boxed_clone();
        next.play(m).is_ok() && next.outcome() == Some(crate::game::Outcome::Win(mover))
    })
}

/// Mixes the seed with a round number (SplitMix64's finaliser) so nearby rounds get unrelated
/// generators.
pub fn mix(seed: u64, round: u64) -> u64 {
    let mut z = seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameId;

    fn sight() -> RuleSet {
        RuleSet::new(GameId::Sight, &[]).unwrap()
    }

    #[test]
    fn parses_the_position_forms() {
        let rules = sight();
        assert_eq!(Opening::parse("startpos", &rules), Ok(Opening::start()));
        let o = Opening::parse("position startpos moves c3 b2", &rules).unwrap();
        assert_eq!(o.moves, ["c3", "b2"]);
        assert_eq!(o.line(), "startpos moves c3 b2");
        assert_eq!(
            o.position_command(&["d4".into()]),
            "position startpos moves c3 b2 d4"
        );
        assert_eq!(
            Opening::start().position_command(&["d4".into()]),
            "position startpos moves d4"
        );
        let o = Opening::parse("fen 5:x5/x5/x2,w,x2/x5/x5 b moves b2", &rules).unwrap();
        assert_eq!(o.fen.as_deref(), Some("5:x5/x5/x2,w,x2/x5/x5 b"));
        assert_eq!(
            o.position(&rules).unwrap().to_fen(),
            "5:x5/x5/x2,w,x2/x,b,x3/x5 w"
        );
    }

    #[test]
    fn rejects_bad_openings_with_the_reason() {
        let rules = sight();
        assert!(
            Opening::parse("startpos moves c3 c3", &rules)
                .unwrap_err()
                .contains("c3")
        );
        assert!(
            Opening::parse("start", &rules)
                .unwrap_err()
                .contains("not an opening")
        );
        assert!(Opening::parse("fen nonsense", &rules).is_err());
    }

    #[test]
    fn random_openings_depend_on_seed_and_round_only() {
        let rules = sight();
        let a = random_opening(&rules, 3, 42, 5).unwrap();
        assert_eq!(a, random_opening(&rules, 3, 42, 5).unwrap());
        assert_eq!(a.moves.len(), 3);
        assert_ne!(a, random_opening(&rules, 3, 42, 6).unwrap());
        // Tactigon: round 11 of seed 1 draws e5-e11 d14-g9 first, after which Red takes
        // Blue's pentagon at once; the opening is drawn again.
        let tactigon = RuleSet::new(GameId::Tactigon, &[]).unwrap();
        let o = random_opening(&tactigon, 2, 1, 11).unwrap();
        assert_ne!(o.moves, ["e5-e11", "d14-g9"]);
        assert!(!wins_at_once(&*o.position(&tactigon).unwrap()));
        let tiny = RuleSet::new(GameId::Sight, &[("Sight_BoardSize".into(), "2".into())]).unwrap();
        assert!(random_opening(&tiny, 10, 1, 0).is_err());
    }
}
