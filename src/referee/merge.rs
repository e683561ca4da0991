//! `ludus match merge`: joins the results files of the shards of one match into one. Every
//! file must be of the same match (the same identity, field by field) and the shards must be
//! disjoint parts of one plan: the same shard twice, a whole match with a shard of it, or
//! shards of different plans (`1/2` with `2/3`) would count games twice, and are refused.

use super::identity::MatchIdentity;
use super::results::{ResultsFile, ResultsMeta};
use super::tally::Tally;
use crate::runs::ShardSet;
use crate::stats::Sprt;

/// Refuses a file whose match differs from the first file's, naming the field.
fn same_match(
    first_name: &str,
    first: &MatchIdentity,
    name: &str,
    other: &MatchIdentity,
) -> Result<(), String> {
    match first.difference_from(other) {
        None => Ok(()),
        Some((tag, ours, theirs)) => Err(format!(
            "{name} is not of the same match as {first_name}: its {tag} is {:?}, {first_name}'s \
             is {ours:?}",
            theirs.as_deref().unwrap_or("missing")
        )),
    }
}

/// What a file's shards are, for messages: `the whole match`, `shard 2/3`, `shards 1,2/4`.
fn describe(shards: &ShardSet) -> String {
    match shards.label() {
        None => "the whole match".to_string(),
        Some(label) if shards.indices.len() == 1 => format!("shard {label}"),
        Some(label) => format!("shards {label}"),
    }
}

/// Refuses shards that overlap or come from different plans.
fn disjoint(a_name: &str, a: &ShardSet, b_name: &str, b: &ShardSet) -> Result<(), String> {
    if a.count != b.count {
        let why = if a.is_whole() || b.is_whole() {
            "a whole match already holds every game of its shards"
        } else {
            "shards of different --shard K/N plans overlap"
        };
        return Err(format!(
            "{a_name} holds {} and {b_name} {}: {why}, so their games would count twice",
            describe(a),
            describe(b)
        ));
    }
    if let Some(k) = a.indices.iter().find(|k| b.indices.contains(k)) {
        let what = if a.count == 1 {
            "the whole match".to_string()
        } else {
            format!("shard {k}/{}", a.count)
        };
        return Err(format!(
            "{a_name} and {b_name} both hold {what}: its games would count twice"
        ));
    }
    Ok(())
}

/// Merges results files: the same match in each (the error names the field and the files),
/// disjoint shards of one plan (the error names both files), games unioned (a game number
/// with two different results is an error naming it). The merged file covers the union of
/// the shards (the whole match once all are in); its event and SPRT settings are the first
/// file's.
pub fn merge(files: &[(String, ResultsFile)]) -> Result<ResultsFile, String> {
    let Some((first_name, first)) = files.first() else {
        return Err("no results files to merge".into());
    };
    let mut tally = Tally::new(first.identity.names());
    let mut indices: Vec<u64> = Vec::new();
    for (i, (name, file)) in files.iter().enumerate() {
        same_match(first_name, &first.identity, name, &file.identity)?;
        for (other_name, other) in &files[..i] {
            disjoint(other_name, &other.shards, name, &file.shards)?;
        }
        for game in &file.games {
            first
                .identity
                .check_game(&file.shards, game)
                .and_then(|()| tally.add(game.clone()))
                .map_err(|e| format!("{name}: {e}"))?;
        }
        indices.extend(&file.shards.indices);
    }
    indices.sort_unstable();
    let mut shards = ShardSet {
        count: first.shards.count,
        indices,
    };
    if shards.is_whole() {
        shards = ShardSet::of(None);
    }
    let meta = ResultsMeta::new(&first.meta.event, &first.identity, &shards)?;
    let sprt = first.sprt.map(Sprt::from);
    Ok(ResultsFile::from_tally(
        &meta,
        &first.identity,
        &shards,
        &tally,
        sprt.as_ref(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::identity::test_identity;
    use super::super::tally::test_support::*;
    use super::*;

    /// The results of `shard` (K/N, or the whole match) holding the sample's games in it.
    fn part(shard: Option<&str>) -> ResultsFile {
        let identity = test_identity(&["new", "old"], 3);
        let shards = ShardSet::of(shard.map(|s| s.parse().unwrap()));
        let games: Vec<_> = sample()
            .games()
            .filter(|g| shards.contains(g.pair()))
            .cloned()
            .collect();
        let meta = ResultsMeta::new("ludus match", &identity, &shards).unwrap();
        let tally = tally(&["new", "old"], &games);
        ResultsFile::from_tally(&meta, &identity, &shards, &tally, Some(&SPRT))
    }

    fn named(files: &[(&str, &ResultsFile)]) -> Vec<(String, ResultsFile)> {
        files
            .iter()
            .map(|(n, f)| (n.to_string(), (*f).clone()))
            .collect()
    }

    #[test]
    fn merging_shards_gives_the_whole_and_conflicts_are_errors() {
        let whole = part(None);
        assert_eq!(whole.meta.scheduled_games, 6);
        let (a, b, c) = (part(Some("1/3")), part(Some("2/3")), part(Some("3/3")));
        assert_eq!(a.meta.scheduled_games, 2);
        let merged = merge(&named(&[("c.json", &c), ("a.json", &a), ("b.json", &b)]));
        assert_eq!(merged, Ok(whole.clone()));
        let two = merge(&named(&[("a.json", &a), ("c.json", &c)])).unwrap();
        assert_eq!(two.meta.shard.as_deref(), Some("1,3/3"));
        assert_eq!(two.meta.scheduled_games, 4);
        assert_eq!(two.games.len(), 3);

        let mut bad = b.clone();
        bad.games[0].result = Draw;
        let mut wrong_merge = named(&[("b.json", &b)]);
        wrong_merge.extend(named(&[("b2.json", &bad)]));
        let err = merge(&wrong_merge).unwrap_err();
        assert_eq!(
            err,
            "b.json and b2.json both hold shard 2/3: its games would count twice"
        );

        let mut other = b;
        other.identity.game = "isaac".into();
        let err = merge(&named(&[("a.json", &a), ("b.json", &other)])).unwrap_err();
        assert_eq!(
            err,
            "b.json is not of the same match as a.json: its Variant is \"isaac\", a.json's is \
             \"sight\""
        );
    }

    #[test]
    fn overlapping_shards_and_foreign_games_are_refused() {
        let whole = part(None);
        let half = part(Some("1/2"));
        let cases = [
            (
                named(&[("w.json", &whole), ("w2.json", &whole)]),
                "w.json and w2.json both hold the whole match: its games would count twice",
            ),
            (
                named(&[("w.json", &whole), ("h.json", &half)]),
                "w.json holds the whole match and h.json shard 1/2: a whole match already \
                 holds every game of its shards, so their games would count twice",
            ),
            (
                named(&[("h.json", &half), ("t.json", &part(Some("2/3")))]),
                "h.json holds shard 1/2 and t.json shard 2/3: shards of different --shard K/N \
                 plans overlap, so their games would count twice",
            ),
        ];
        for (files, message) in cases {
            assert_eq!(merge(&files).unwrap_err(), message);
        }
        let mut stray = part(Some("2/2"));
        stray.games.push(g(1, "new", "old", P1Win, Rules));
        let err = merge(&named(&[("h.json", &half), ("s.json", &stray)])).unwrap_err();
        assert_eq!(err, "s.json: game 1 belongs to shard 1/2, not to 2/2");
        let mut beyond = part(Some("2/2"));
        beyond.games.push(g(7, "new", "old", P1Win, Rules));
        let err = merge(&named(&[("h.json", &half), ("s.json", &beyond)])).unwrap_err();
        assert_eq!(
            err,
            "s.json: game 7 is not in the schedule (games 1 to 6 of this match)"
        );
    }
}
